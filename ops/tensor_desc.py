"""DML_BUFFER_TENSOR_DESC: parsing from DxDispatch JSON, implied sizes, strided access, memory maps.

Parsing collects every problem (with its JSON path) instead of stopping at the first, so the validator
and the workbench can list them all; `normalize_tensor_desc` is the raising variant.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from .datatypes import NUMPY_DTYPES, type_name
from .datatypes import PREFIX as DATA_TYPE_PREFIX
from .errors import DescriptorError
from .guard import check_element_count
from .names import enum_suffix

FLAG_PREFIX = "DML_TENSOR_FLAG_"
FLAGS = ("NONE", "OWNED_BY_DML")
TENSOR_TYPE_PREFIX = "DML_TENSOR_TYPE_"
MAX_DIMENSIONS = 8
UINT32_MAX = 2**32 - 1
# Exact overlap checks and memory maps enumerate every element; beyond these counts they are refused.
OVERLAP_CHECK_CAP = 2**22
MEMORY_MAP_CAP = 2**16
DESC_FIELDS = (
    "DataType",
    "Flags",
    "DimensionCount",
    "Sizes",
    "Strides",
    "TotalTensorSizeInBytes",
    "GuaranteedBaseOffsetAlignment",
)


@dataclass(frozen=True)
class Problem:
    """One broken rule: `path` is the JSON path of the field, `message` names the field and the rule."""

    path: str
    message: str

    def __str__(self):
        return f"{self.path}: {self.message}" if self.path else self.message


def raise_problems(problems):
    if problems:
        raise DescriptorError("; ".join(str(p) for p in problems))


def join_path(base, key):
    """JSON path of `key` inside `base`: a.b, a[3], a["odd name"]."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    text = str(key)
    if text.replace("_", "a").isalnum() and not text[:1].isdigit():
        return f"{base}.{text}" if base else text
    return f"{base}[{json.dumps(text)}]"


def is_uint(value, limit=UINT32_MAX):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= limit


def packed_strides(sizes):
    strides, step = [], 1
    for size in reversed(sizes):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def round_up(value, multiple):
    return -(-value // multiple) * multiple


def last_element_index(sizes, strides=None):
    if strides is None:
        return math.prod(sizes) - 1
    return sum((s - 1) * st for s, st in zip(sizes, strides))


def exact_enum(value, prefix, allowed):
    """The member of `allowed` that `value` spells exactly, with or without `prefix`, else None.

    DxDispatch's generated parsers compare enum names with strcmp against the full name and the bare
    suffix only (microsoft/DirectML DxDispatch/src/model/JsonParsersGenerated.cpp, ParseDmlTensorDataType
    and every other Parse<Enum>), so a model file may not use other letter cases or aliases.
    """
    if not isinstance(value, str):
        return None
    name = value[len(prefix):] if value.startswith(prefix) else value
    return name if name in allowed else None


def wrapped_last_index(sizes, strides):
    """DMLCalcBufferTensorSize's strided index as it computes it: (size-1)*stride summed in a 32-bit UINT."""
    index = 0
    for size, stride in zip(sizes, strides):
        index = (index + ((size - 1) * stride) % 2**32) % 2**32
    return index


def buffer_tensor_size(data_type: DTypeLike, sizes: Sequence[int], strides: Sequence[int] | None = None) -> int:
    """DMLCalcBufferTensorSize: bytes up to the last addressed element, rounded up to 4.

    DirectMLX.h computes the strided case's last index in a 32-bit UINT (`UINT indexOfLastElement`), so a
    tensor whose last element lies beyond 2^32-1 would get a wrapped, too small size there. Rather than
    widen that arithmetic silently, such a tensor is refused with both numbers.
    """
    sizes = [int(s) for s in sizes]
    if not sizes or any(s < 1 for s in sizes):
        raise DescriptorError(f"Sizes {sizes}: every size must be at least 1 and there must be at least one")
    if strides is not None:
        strides = [int(s) for s in strides]
        if len(strides) != len(sizes) or any(s < 0 for s in strides):
            raise DescriptorError(
                f"Strides {strides}: need one non-negative stride per dimension of Sizes {sizes}"
            )
    last = last_element_index(sizes, strides)
    if last >= UINT32_MAX:
        wrapped = wrapped_last_index(sizes, strides) if strides is not None else last % 2**32
        raise DescriptorError(
            f"Strides {strides}: the last element's index {last:,} leaves more than 2^32-1 elements in the "
            f"buffer; DMLCalcBufferTensorSize sums (size-1)*stride in a 32-bit UINT and would wrap it to "
            f"{wrapped:,} (DirectMLX.h), and DirectML addresses at most 2^32-1 elements"
        )
    itemsize = NUMPY_DTYPES[type_name(data_type)].itemsize
    return round_up((last + 1) * itemsize, 4)


@dataclass(frozen=True)
class TensorDesc:
    """A DML_BUFFER_TENSOR_DESC with every default filled; fields keep their C names."""

    DataType: str
    Sizes: tuple
    Strides: tuple | None = None
    Flags: str = "NONE"
    DimensionCount: int = 0
    TotalTensorSizeInBytes: int = 0
    GuaranteedBaseOffsetAlignment: int = 0

    @property
    def dtype(self) -> np.dtype:
        return NUMPY_DTYPES[self.DataType]

    @property
    def element_size(self) -> int:
        return self.dtype.itemsize

    @property
    def element_count(self) -> int:
        return math.prod(self.Sizes)

    @property
    def effective_strides(self) -> tuple[int, ...]:
        return self.Strides if self.Strides is not None else packed_strides(self.Sizes)

    @property
    def buffer_elements(self) -> int:
        """Elements of DataType that fit in TotalTensorSizeInBytes (the region the memory map covers)."""
        return self.TotalTensorSizeInBytes // self.element_size

    def to_json(self) -> dict[str, Any]:
        """The desc as DxDispatch reads it back: packed strides are left out, because DxDispatch parses
        "Strides" with ParseUInt32ArrayField, which refuses null ("Expected an array.",
        DxDispatch/src/model/JsonParsers.cpp, ParseDmlBufferTensorDesc)."""
        obj = {
            "DataType": self.DataType,
            "Flags": self.Flags,
            "DimensionCount": self.DimensionCount,
            "Sizes": list(self.Sizes),
        }
        if self.Strides is not None:
            obj["Strides"] = list(self.Strides)
        obj["TotalTensorSizeInBytes"] = self.TotalTensorSizeInBytes
        obj["GuaranteedBaseOffsetAlignment"] = self.GuaranteedBaseOffsetAlignment
        return obj


def unknown_field(path, key, message, problems, notes):
    """A field the parser does not read: a problem for the Python API, a note for a model file.

    DxDispatch looks fields up by name (rapidjson FindMember) and never lists the others, so a model file
    with an extra field still loads there (DxDispatch/src/model/JsonParsers.cpp, ParseFieldHelper).
    """
    if notes is None:
        problems.append(Problem(join_path(path, key), message))
    else:
        notes.append(Problem(join_path(path, key), f"ignored: {message.split(';')[0]}; DxDispatch does not read it"))


def _unwrap(obj, path, problems, strict, notes):
    """The DML_TENSOR_DESC form {"Type": "DML_TENSOR_TYPE_BUFFER", "Desc": {...}} or the buffer desc itself.

    DxDispatch reads an optional Type and then "Desc" when present, else the object itself
    (DxDispatch/src/model/JsonParsers.cpp, ParseDmlTensorDesc).
    """
    if "Type" in obj:
        kind = obj["Type"]
        name = exact_enum(kind, TENSOR_TYPE_PREFIX, ("BUFFER",)) if strict else enum_suffix(
            kind, TENSOR_TYPE_PREFIX, ("BUFFER",))
        if name is None:
            problems.append(Problem(join_path(path, "Type"), f"Type {kind!r}: only DML_TENSOR_TYPE_BUFFER exists"))
    if "Desc" not in obj:
        return obj, path
    for key in obj:
        if key not in ("Type", "Desc"):
            unknown_field(path, key, f"unknown field {key!r} beside Type and Desc", problems, notes)
    inner = obj["Desc"]
    if not isinstance(inner, dict):
        problems.append(Problem(join_path(path, "Desc"), "Desc: expected a JSON object holding the buffer tensor desc"))
        return None, path
    return inner, join_path(path, "Desc")


def _uint_list(value, field, path, problems, minimum):
    if not isinstance(value, list) or (not value and minimum):
        problems.append(Problem(path, f"{field} {value!r}: expected a non-empty JSON array of integers"))
        return None
    bad = [i for i, v in enumerate(value) if not is_uint(v) or v < minimum]
    for i in bad:
        zero = value[i] == 0 and value[i] is not False and minimum
        rule = "a size of 0 is invalid" if zero else f"must be an integer in [{minimum}, 2^32-1]"
        problems.append(Problem(join_path(path, i), f"{field}[{i}] = {value[i]!r}: {rule}"))
    return None if bad else tuple(value)


def _check_alignment(alignment, itemsize, path, problems):
    if not is_uint(alignment):
        problems.append(Problem(path, f"GuaranteedBaseOffsetAlignment {alignment!r}: must be a non-negative integer"))
        return None
    if alignment and (alignment & (alignment - 1) or alignment < itemsize):
        problems.append(
            Problem(
                path,
                f"GuaranteedBaseOffsetAlignment {alignment}: must be 0 or a power of two at least the "
                f"element size ({itemsize} bytes)",
            )
        )
        return None
    return alignment


def _data_type(obj, path, problems, strict):
    raw = obj["DataType"]
    if strict:
        data_type = exact_enum(raw, DATA_TYPE_PREFIX, NUMPY_DTYPES)
    else:
        try:
            data_type = type_name(raw) if isinstance(raw, str) else None
        except DescriptorError:
            data_type = None
    if data_type is None:
        spelled = (" (DxDispatch matches names exactly: upper case, with or without DML_TENSOR_DATA_TYPE_)"
                   if strict else "")
        problems.append(
            Problem(
                join_path(path, "DataType"),
                f"DataType {raw!r}: not a DirectML data type{spelled}; expected one of " + ", ".join(NUMPY_DTYPES),
            )
        )
    return data_type


def _flags(obj, path, problems, strict):
    """NONE or OWNED_BY_DML. DxDispatch takes a name or an array of names ORed together
    (DxDispatch/src/model/JsonParsers.cpp, ParseFlags; JsonParsersGenerated.cpp, ParseDmlTensorFlags)."""
    raw = obj.get("Flags", "NONE")
    names = raw if isinstance(raw, list) else [raw]
    found = []
    for item in names:
        name = exact_enum(item, FLAG_PREFIX, FLAGS) if strict else enum_suffix(item, FLAG_PREFIX, FLAGS)
        if name is None:
            problems.append(
                Problem(
                    join_path(path, "Flags"),
                    f"Flags {raw!r}: expected NONE or OWNED_BY_DML ({FLAG_PREFIX}...), or an array of those",
                )
            )
            return None
        found.append(name)
    return "OWNED_BY_DML" if "OWNED_BY_DML" in found else "NONE"


def _strides(obj, path, sizes, problems, strict):
    """Strides, or None when packed. DxDispatch treats an empty array as no strides (strides.empty() ?
    nullptr) and refuses null, which is not an array (JsonParsers.cpp, ParseDmlBufferTensorDesc)."""
    if "Strides" not in obj or (obj["Strides"] is None and not strict):
        return None, True
    raw = obj["Strides"]
    if raw is None:
        problems.append(
            Problem(join_path(path, "Strides"), "Strides null: DxDispatch expects an array; leave the field out or "
                                                "write [] for packed strides")
        )
        return None, False
    if raw == []:
        return None, True
    strides = _uint_list(raw, "Strides", join_path(path, "Strides"), problems, 0)
    if strides is not None and sizes is not None and len(strides) != len(sizes):
        problems.append(
            Problem(
                join_path(path, "Strides"),
                f"Strides has {len(strides)} entries; it needs one per dimension ({len(sizes)})",
            )
        )
        return None, False
    return strides, strides is not None


def parse_tensor_desc(obj, path="", strict=False, notes=None):
    """(TensorDesc or None, [Problem]) from a JSON tensor desc; paths are relative to `path`.

    `strict` reads it as DxDispatch reads a model file: enum names spelled exactly. With a `notes` list,
    fields DxDispatch does not read are noted there instead of refused.
    """
    problems = []
    if not isinstance(obj, dict):
        return None, [Problem(path, f"expected a JSON object (a tensor desc with DataType and Sizes), got {obj!r:.60}")]
    obj, path = _unwrap(obj, path, problems, strict, notes)
    if obj is None:
        return None, problems
    for key in obj:
        if key not in DESC_FIELDS and key != "Type":
            unknown_field(path, key, f"unknown tensor desc field {key!r}; expected {', '.join(DESC_FIELDS)}",
                         problems, notes)
    for key in ("DataType", "Sizes"):
        if key not in obj:
            problems.append(Problem(join_path(path, key), f"{key}: missing required field"))

    data_type = _data_type(obj, path, problems, strict) if "DataType" in obj else None
    flags = _flags(obj, path, problems, strict)

    sizes = _uint_list(obj["Sizes"], "Sizes", join_path(path, "Sizes"), problems, 1) if "Sizes" in obj else None
    if sizes is not None and len(sizes) > MAX_DIMENSIONS:
        problems.append(Problem(join_path(path, "Sizes"), f"Sizes has {len(sizes)} dimensions; DirectML allows 1 to 8"))
        sizes = None
    if sizes is not None and math.prod(sizes) > UINT32_MAX:
        problems.append(
            Problem(join_path(path, "Sizes"), f"Sizes {list(sizes)}: {math.prod(sizes):,} elements exceed 2^32-1")
        )
        sizes = None

    dimension_count = obj.get("DimensionCount", len(sizes) if sizes else None)
    if "DimensionCount" in obj and not (is_uint(dimension_count) and 1 <= dimension_count <= MAX_DIMENSIONS):
        problems.append(
            Problem(join_path(path, "DimensionCount"), f"DimensionCount {dimension_count!r}: must be an integer 1 to 8")
        )
        dimension_count = None
    elif sizes is not None and dimension_count != len(sizes):
        problems.append(
            Problem(
                join_path(path, "DimensionCount"),
                f"DimensionCount {dimension_count}: must equal the length of Sizes ({len(sizes)})",
            )
        )

    strides, strides_ok = _strides(obj, path, sizes, problems, strict)

    itemsize = NUMPY_DTYPES[data_type].itemsize if data_type else 1
    alignment = _check_alignment(
        obj.get("GuaranteedBaseOffsetAlignment", 0),
        itemsize,
        join_path(path, "GuaranteedBaseOffsetAlignment"),
        problems,
    )

    implied = None
    if data_type and sizes is not None and strides_ok:
        try:
            implied = buffer_tensor_size(data_type, sizes, strides)
        except DescriptorError as error:
            problems.append(Problem(join_path(path, "Strides"), str(error)))
    total = _total_size(obj, path, implied, data_type, strides, problems)

    if problems:
        return None, problems
    desc = TensorDesc(data_type, sizes, strides, flags, dimension_count, total, alignment)
    return desc, []


def max_total_size(data_type):
    """The largest TotalTensorSizeInBytes: 2^32-1 elements, rounded up to 4 bytes as DirectML rounds sizes."""
    return round_up(UINT32_MAX * NUMPY_DTYPES[data_type].itemsize, 4)


def _total_size(obj, path, implied, data_type, strides, problems):
    """TotalTensorSizeInBytes; 0 or absent means DMLCalcBufferTensorSize (JsonParsers.cpp,
    ParseDmlBufferTensorDesc: `if (!desc->TotalTensorSizeInBytes) desc->TotalTensorSizeInBytes = ...`)."""
    total = obj.get("TotalTensorSizeInBytes", 0)
    field_path = join_path(path, "TotalTensorSizeInBytes")
    if not is_uint(total, 2**64 - 1):
        problems.append(Problem(field_path, f"TotalTensorSizeInBytes {total!r}: must be a non-negative integer"))
        return None
    if total == 0:
        return implied
    if implied is not None and total < implied:
        problems.append(
            Problem(
                field_path,
                f"TotalTensorSizeInBytes {total}: below the {implied} bytes implied by Sizes"
                + (", Strides" if strides is not None else "")
                + f" and DataType {data_type}",
            )
        )
    elif data_type and total > max_total_size(data_type):
        # SPEC section 1: the whole buffer region, not only the elements Sizes reaches, holds at most
        # 2^32-1 elements, because DirectML addresses a buffer tensor's elements with 32-bit indices.
        problems.append(
            Problem(
                field_path,
                f"TotalTensorSizeInBytes {total:,}: more than 2^32-1 {data_type} elements (at most "
                f"{max_total_size(data_type):,} bytes); a DirectML buffer tensor holds at most 2^32-1 elements",
            )
        )
    return total


def normalize_tensor_desc(obj, path=""):
    """TensorDesc with defaults filled, or DescriptorError listing every problem with its path."""
    desc, problems = parse_tensor_desc(obj, path)
    raise_problems(problems)
    return desc


def _as_desc(desc):
    return desc if isinstance(desc, TensorDesc) else normalize_tensor_desc(desc)


def element_offsets(sizes, strides=None):
    """Array of shape `sizes` holding each logical element's offset (in elements) in the buffer."""
    sizes = tuple(int(s) for s in sizes)
    check_element_count(sizes, "Sizes")
    strides = packed_strides(sizes) if strides is None else tuple(int(s) for s in strides)
    offsets = np.zeros(sizes, dtype=np.int64)
    for axis, (size, stride) in enumerate(zip(sizes, strides)):
        shape = [1] * len(sizes)
        shape[axis] = size
        offsets += (np.arange(size, dtype=np.int64) * stride).reshape(shape)
    return offsets


def _addresses(buffer, sizes, strides, offset, field):
    if not isinstance(buffer, np.ndarray) or buffer.ndim != 1:
        raise DescriptorError(f"{field}: the buffer must be a 1-D numpy array")
    addresses = element_offsets(sizes, strides) + int(offset)
    last = int(addresses.max()) if addresses.size else -1
    if int(offset) < 0 or last >= buffer.size:
        raise DescriptorError(
            f"{field}: Sizes {list(sizes)} with Strides {None if strides is None else list(strides)} at offset "
            f"{offset} reach element {last}, but the buffer holds {buffer.size} elements"
        )
    return addresses


def strided_read(buffer, sizes, strides=None, offset=0, field="tensor"):
    """Gather the logical tensor (shape `sizes`) from a flat buffer; strides and offset in elements."""
    return buffer[_addresses(buffer, sizes, strides, offset, field)]


def strided_write(buffer, values, strides=None, offset=0, field="tensor"):
    """Scatter `values` (its shape is the logical Sizes) into a flat buffer in place."""
    values = np.asarray(values)
    buffer[_addresses(buffer, values.shape, strides, offset, field)] = values.astype(buffer.dtype, copy=False)
    return buffer


def _provably_disjoint(sizes, strides):
    """Sufficient test: sorted by stride, each stride exceeds the span of all smaller-stride dimensions."""
    span = 0
    for size, stride in sorted((p for p in zip(sizes, strides) if p[0] > 1), key=lambda p: p[1]):
        if stride <= span:
            return False
        span += (size - 1) * stride
    return True


def find_overlap(sizes, strides=None):
    """None if every logical index has its own element, else (element, first_index, second_index)."""
    sizes = tuple(int(s) for s in sizes)
    if strides is None or _provably_disjoint(sizes, strides):
        return None
    if math.prod(sizes) > OVERLAP_CHECK_CAP:
        raise DescriptorError(
            f"Sizes {list(sizes)}: too many elements ({math.prod(sizes):,}) to check for overlap exactly "
            f"(limit {OVERLAP_CHECK_CAP:,})"
        )
    flat = element_offsets(sizes, strides).ravel()
    order = np.argsort(flat, kind="stable")
    same = np.flatnonzero(flat[order][1:] == flat[order][:-1])
    if not same.size:
        return None
    first, second = int(order[same[0]]), int(order[same[0] + 1])
    unravel = lambda i: tuple(int(v) for v in np.unravel_index(i, sizes))  # noqa: E731
    return int(flat[first]), unravel(first), unravel(second)


@dataclass(frozen=True)
class MemoryMap:
    """How a desc uses its buffer region: for each buffer element, the logical indices that touch it.

    count 0 = padding (never touched); count > 1 = broadcast when read, a write conflict for an output.
    """

    desc: TensorDesc
    counts: np.ndarray
    touches: tuple

    @property
    def untouched(self) -> np.ndarray:
        return self.counts == 0

    @property
    def repeated(self) -> np.ndarray:
        return self.counts > 1

    @property
    def has_overlap(self) -> bool:
        return bool(self.repeated.any())


def memory_map(desc: TensorDesc | dict) -> MemoryMap:
    desc = _as_desc(desc)
    sizes = desc.Sizes
    if desc.element_count > MEMORY_MAP_CAP:
        raise DescriptorError(f"Sizes {list(sizes)}: a memory map draws at most {MEMORY_MAP_CAP:,} elements")
    flat = element_offsets(sizes, desc.Strides).ravel()
    elements = max(desc.buffer_elements, int(flat.max()) + 1)
    if elements > MEMORY_MAP_CAP:
        raise DescriptorError(
            f"TotalTensorSizeInBytes {desc.TotalTensorSizeInBytes}: a memory map draws at most {MEMORY_MAP_CAP:,} "
            "elements"
        )
    counts = np.bincount(flat, minlength=elements)
    order = np.argsort(flat, kind="stable")
    starts = np.concatenate(([0], np.cumsum(counts)))
    logical = np.stack(np.unravel_index(order, sizes), axis=1).tolist()
    touches = tuple(tuple(tuple(i) for i in logical[starts[e]:starts[e + 1]]) for e in range(elements))
    return MemoryMap(desc, counts, touches)
