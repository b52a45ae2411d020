"""Any DirectML operator's desc, checked against DirectML's schema and written in the worker's wire format.

An `OperatorDesc` names the operator (as `ops.schema.schema` takes it: "GEMM", "DML_OPERATOR_GEMM" or 54) and gives
its desc's fields by their schema names. `pack` checks every value against the field's schema type before anything
is sent and returns the wire desc (api.py packs it in the worker) with the tensors in DirectML's binding order. No
operator is known here by name: everything comes from the schema (ops/schema, docs/schema.md).

Values, by the field's schema type:

- TENSOR_DESC: an `ops.TensorDesc`, or None (or left out) where the field is optional; TENSOR_DESC_ARRAY: a list.
- OPERATOR_DESC: an `OperatorDesc` (a fused activation, its tensor fields left out) or None; OPERATOR_DESC_ARRAY: a
  list of them.
- UINT, UINT64, INT: an int in the type's range; a UINT holding an enum also takes the member's exact name, with or
  without its prefix, and True / False (DxDispatch reads some UINT fields so).
- FLOAT: a number (stored as float32); BOOL: True, False, 0 or 1.
- UINT_ARRAY, INT_ARRAY, FLOAT_ARRAY: a list of numbers.
- SCALE_BIAS: None, (Scale, Bias), {"Scale": ..., "Bias": ...} or an object with those attributes; SIZE_2D: likewise
  (Width, Height).
- SCALAR_UNION: its bytes (at most 8, little-endian, zero-padded), or a number, written as the DML_TENSOR_DATA_TYPE
  its type field (`scalar_union_type_field`) holds.

A count field (an array's `count_field`) may be left out: it is then the arrays' length. Given, every array it counts
must have exactly that many elements (DirectML reads that many; a short array would have it read past the end).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ... import schema
from ...datatypes import NUMPY_DTYPES
from ...errors import DescriptorError
from ...tensor_desc import TensorDesc
from . import api

MAX_BINDINGS = 64  # inputs or outputs of one operator: dmlrun.c's MAX_TENSORS
MAX_ARRAY = 16384  # elements of one array field: the request's header stays well under wire.MAX_HEADER
INTEGER_RANGES = {"UINT": (0, 2**32 - 1), "UINT64": (0, 2**64 - 1), "INT": (-2**31, 2**31 - 1),
                  "UINT_ARRAY": (0, 2**32 - 1), "INT_ARRAY": (-2**31, 2**31 - 1)}
MISSING = object()
ZEROS = {"FLOAT": 0.0, "SIZE_2D": (0, 0), "SCALAR_UNION": bytes(8)}


@dataclasses.dataclass(frozen=True)
class OperatorDesc:
    """A DML_OPERATOR_DESC: the operator, by name or DML_OPERATOR_TYPE value, and its desc's fields by schema name."""

    type: str | int
    fields: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Packed:
    """A desc checked against its schema: the wire desc, the tensors in DirectML's binding order with their names
    ("ATensor", "InputTensors[1]"), an absent optional input as None, and every field's value as packed (counts
    filled in, enums as their values, tensors as TensorDescs) for the cost estimate."""

    schema: schema.OperatorSchema
    wire: dict
    inputs: tuple
    outputs: tuple
    input_names: tuple
    output_names: tuple
    values: Mapping[str, Any]

    @property
    def owned(self) -> tuple:
        """The names of the inputs DirectML owns (DML_TENSOR_FLAG_OWNED_BY_DML): bound at initialization."""
        return tuple(n for n, t in zip(self.input_names, self.inputs) if t is not None and t.Flags == "OWNED_BY_DML")


def pack(desc: OperatorDesc) -> Packed:
    """The wire desc of `desc` with its tensors in binding order; DescriptorError naming the field and the rule."""
    if not isinstance(desc, OperatorDesc):
        raise DescriptorError(f"desc {desc!r}: expected an OperatorDesc")
    op = schema.schema(desc.type)
    inputs, outputs = _Bindings(op.name, schema.INPUT_TENSOR), _Bindings(op.name, schema.OUTPUT_TENSOR)
    values, wire = _fields(op, desc.fields, op.name, {schema.INPUT_TENSOR: inputs, schema.OUTPUT_TENSOR: outputs})
    for bindings in (inputs, outputs):
        bindings.check()
    return Packed(op, wire, tuple(inputs.tensors), tuple(outputs.tensors), tuple(inputs.names),
                  tuple(outputs.names), values)


class _Bindings:
    """The tensors of one side (inputs or outputs) in DirectML's binding order, as the fields are read."""

    def __init__(self, where, kind):
        self.where, self.kind = where, kind
        self.tensors, self.names = [], []

    def add(self, name, tensor):
        self.tensors.append(tensor)
        self.names.append(name)
        return None if tensor is None else ["input" if self.kind == schema.INPUT_TENSOR else "output",
                                            len(self.tensors) - 1]

    def check(self):
        if len(self.tensors) > MAX_BINDINGS:
            side = "inputs" if self.kind == schema.INPUT_TENSOR else "outputs"
            raise DescriptorError(f"{self.where}: {len(self.tensors)} {side}; the worker binds at most {MAX_BINDINGS}")


def _fields(op, given, where, bindings):
    """(values by field name, wire desc) of `op`'s desc from the `given` mapping. `bindings` None: a nested desc (a
    fused activation), whose tensor fields stay null."""
    if not isinstance(given, Mapping):
        raise DescriptorError(f"{where} fields: expected a mapping of field names to values")
    names = [f.name for f in op.fields]
    unknown = [name for name in given if name not in names]
    if unknown:
        raise DescriptorError(f"{where}.{unknown[0]}: {op.desc_struct} has no such field; its fields: "
                              f"{', '.join(names)}")
    values = {f.name: given.get(f.name, MISSING) for f in op.fields}
    _fill_counts(op, values, where)
    # Tensor fields in binding order first (op.inputs / op.outputs), so references number as DirectML binds.
    tensors = {}
    for f in (op.inputs + op.outputs if bindings is not None else ()):
        tensors[f.name] = _tensor_field(f, values[f.name], f"{where}.{f.name}", bindings[f.kind])
    packed, wire = {}, []
    for f in op.fields:
        path = f"{where}.{f.name}"
        if f.is_tensor:
            if bindings is None and values[f.name] not in (MISSING, None):
                raise DescriptorError(f"{path}: a fused activation's tensors are its operator's; leave it out")
            value, item = tensors.get(f.name, (None, None))
        else:
            value, item = _attribute(f, values, path)
        packed[f.name] = value
        entry = [f.type, item]
        if f.count_field:
            entry.append(names.index(f.count_field))
        wire.append(entry)
    return packed, {"type": op.code, "fields": wire}


def _fill_counts(op, values, where):
    """Each count field left out becomes its arrays' length; a given one must equal every counted array's."""
    for f in op.fields:
        if not f.counted_arrays:
            continue
        lengths = {name: _length(values[name], f"{where}.{name}") for name in f.counted_arrays}
        known = {name: n for name, n in lengths.items() if n is not None}
        if values[f.name] is MISSING:
            if len(set(known.values())) > 1:
                raise DescriptorError(f"{where}.{f.name}: left out, but the arrays it counts differ in length: "
                                      + ", ".join(f"{name} {n}" for name, n in known.items()))
            values[f.name] = next(iter(known.values()), 0)
        count = _integer(values[f.name], "UINT", f"{where}.{f.name}")
        for name, n in known.items():
            if n != count:
                raise DescriptorError(f"{where}.{name}: {n} elements, but {f.name} is {count}: DirectML reads exactly "
                                      f"{f.name} elements of each array it counts")


def _length(value, path):
    if value is MISSING or value is None:
        return None
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence | np.ndarray):
        raise DescriptorError(f"{path} {value!r}: expected a list")
    if len(value) > MAX_ARRAY:
        raise DescriptorError(f"{path}: {len(value):,} elements; at most {MAX_ARRAY:,} are sent to DirectML")
    return len(value)


def _tensor_field(f, value, path, bindings):
    """(value, wire item) of a tensor field, its tensors added to `bindings` in order."""
    if f.type == "TENSOR_DESC":
        if value is MISSING or value is None:
            if not f.optional:
                raise DescriptorError(f"{path}: required ({f.kind.lower().replace('_', ' ')})")
            bindings.add(f.name, None)
            return None, None
        tensor = _tensor(value, path)
        return tensor, bindings.add(f.name, tensor)
    if value is MISSING or value is None or isinstance(value, TensorDesc):
        raise DescriptorError(f"{path}: expected a list of tensor descs")
    tensors = [_tensor(t, f"{path}[{i}]") for i, t in enumerate(value)]
    return tuple(tensors), [bindings.add(f"{f.name}[{i}]", t) for i, t in enumerate(tensors)]


def _tensor(value, path):
    if not isinstance(value, TensorDesc):
        raise DescriptorError(f"{path} {value!r}: expected a TensorDesc")
    if value.DataType not in api.DATA_TYPES:
        raise DescriptorError(f"{path}.DataType {value.DataType!r}: expected one of {', '.join(api.DATA_TYPES)}")
    if value.Flags not in api.TENSOR_FLAGS:
        raise DescriptorError(f"{path}.Flags {value.Flags!r}: expected one of {', '.join(api.TENSOR_FLAGS)}")
    return value


def tensor_wire(desc: TensorDesc | None) -> dict | None:
    """A tensor as the worker's request carries it (None: left out)."""
    if desc is None:
        return None
    return {"data_type": desc.DataType, "flags": desc.Flags, "sizes": [int(s) for s in desc.Sizes],
            "strides": None if desc.Strides is None else [int(s) for s in desc.Strides],
            "total_bytes": int(desc.TotalTensorSizeInBytes), "alignment": int(desc.GuaranteedBaseOffsetAlignment)}


def _attribute(f, values, path):
    """(value, wire item) of an attribute field."""
    value = values[f.name]
    if value is MISSING or value is None:
        if not f.optional:
            raise DescriptorError(f"{path}: required ({f.type})")
        if f.c.pointee is not None:
            return None, None
        # An optional field held by value (BATCH_NORMALIZATION_GRAD's Epsilon) left out is zero, as DxDispatch's
        # readers default it (JsonParsers.cpp, ParseFloat32Field).
        value = ZEROS.get(f.type, 0)
    if f.type in INTEGER_RANGES and not f.is_array:
        if f.enum and isinstance(value, str):
            value = schema.ENUMS[f.enum].value(value)
        number = _integer(value, f.type, path)
        return number, number
    if f.type == "BOOL":
        if value not in (True, False, 0, 1) or isinstance(value, float):
            raise DescriptorError(f"{path} {value!r}: expected true or false")
        return bool(value), int(value)
    if f.type == "FLOAT":
        number = _float(value, path)
        return number, number
    if f.type in ("UINT_ARRAY", "INT_ARRAY"):
        _length(value, path)
        numbers = tuple(_integer(v, f.type, f"{path}[{i}]") for i, v in enumerate(value))
        return numbers, list(numbers)
    if f.type == "FLOAT_ARRAY":
        _length(value, path)
        numbers = tuple(_float(v, f"{path}[{i}]") for i, v in enumerate(value))
        return numbers, list(numbers)
    if f.type in ("SCALE_BIAS", "SIZE_2D"):
        names = ("Scale", "Bias") if f.type == "SCALE_BIAS" else ("Width", "Height")
        pair = _pair(value, names, path)
        pair = tuple(_float(v, f"{path}.{n}") for v, n in zip(pair, names)) if f.type == "SCALE_BIAS" else \
            tuple(_integer(v, "UINT", f"{path}.{n}") for v, n in zip(pair, names))
        return pair, list(pair)
    if f.type == "SCALAR_UNION":
        data = _scalar_union(value, values.get(f.scalar_union_type_field), path, f.scalar_union_type_field)
        return data, data.hex()
    if f.type == "OPERATOR_DESC":
        return _nested(value, path)
    if f.type == "OPERATOR_DESC_ARRAY":
        if value is None or isinstance(value, (OperatorDesc, str, Mapping)) or not isinstance(value, Sequence):
            raise DescriptorError(f"{path}: expected a list of OperatorDescs")
        nested = [_nested(v, f"{path}[{i}]") for i, v in enumerate(value)]
        return tuple(v for v, _ in nested), [w for _, w in nested]
    raise DescriptorError(f"{path}: field type {f.type} is not one this packer knows")  # the schema has no other


def _nested(value, path):
    desc = value if isinstance(value, OperatorDesc) else None
    if desc is None:
        raise DescriptorError(f"{path} {value!r}: expected an OperatorDesc (a fused activation) or None")
    op = schema.schema(desc.type)
    values, wire = _fields(op, desc.fields, f"{path}({op.name})", None)
    return OperatorDesc(op.name, values), wire


def _integer(value, field_type, path):
    low, high = INTEGER_RANGES[field_type]
    if isinstance(value, (bool, np.bool_)) and field_type == "UINT":
        return int(value)  # DxDispatch reads some UINT fields from true / false (ParseBoolField)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise DescriptorError(f"{path} {value!r}: expected an integer")
    if not low <= value <= high:
        raise DescriptorError(f"{path} {value}: out of range for {field_type.removesuffix('_ARRAY')} "
                              f"[{low}, {high}]")
    return int(value)


def _float(value, path):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise DescriptorError(f"{path} {value!r}: expected a number")
    value = float(value)
    if math.isfinite(value) and abs(value) > float(np.finfo(np.float32).max):
        raise DescriptorError(f"{path} {value}: beyond float32's range")
    return value


def _pair(value, names, path):
    if all(hasattr(value, n) for n in names):  # a DML_SCALE_BIAS or DML_SIZE_2D as an object with its fields
        return [getattr(value, n) for n in names]
    if isinstance(value, Mapping):
        if sorted(value) != sorted(names):
            raise DescriptorError(f"{path} {dict(value)!r}: expected the keys {' and '.join(names)}")
        return [value[n] for n in names]
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise DescriptorError(f"{path} {value!r}: expected [{', '.join(names)}]")
    return list(value)


def _scalar_union(value, data_type, path, type_field):
    """The 8 bytes of a DML_SCALAR_UNION: bytes as given, zero-padded, or a number written as the data type that
    `type_field` holds (its value or member name)."""
    if isinstance(value, (bytes, bytearray)):
        if len(value) > 8:
            raise DescriptorError(f"{path}: {len(value)} bytes; a DML_SCALAR_UNION holds 8")
        return bytes(value) + bytes(8 - len(value))
    type_enum = schema.ENUMS["DML_TENSOR_DATA_TYPE"]
    if data_type in (MISSING, None):
        raise DescriptorError(f"{path}: a number needs {type_field}, the data type it is written as")
    name = type_enum.member(data_type) if isinstance(data_type, int) and not isinstance(data_type, bool) else \
        type_enum.member(type_enum.value(data_type))
    if name not in NUMPY_DTYPES:
        raise DescriptorError(f"{path}: {type_field} {name} is no data type a value can be written as")
    dtype = np.dtype(NUMPY_DTYPES[name])
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise DescriptorError(f"{path} {value!r}: expected a number or 8 bytes")
    if dtype.kind in "iu":
        if isinstance(value, (float, np.floating)) and not float(value).is_integer():
            raise DescriptorError(f"{path} {value!r}: {name} takes whole numbers")
        info = np.iinfo(dtype)
        if not info.min <= int(value) <= info.max:
            raise DescriptorError(f"{path} {value}: out of range for {name} [{info.min}, {info.max}]")
        value = int(value)
    elif math.isfinite(float(value)) and abs(float(value)) > float(np.finfo(dtype).max):
        raise DescriptorError(f"{path} {value}: beyond {name}'s range")
    data = np.array(value, dtype).tobytes()
    return data + bytes(8 - len(data))
