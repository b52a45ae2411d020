"""DxDispatch JSON models (microsoft/DirectML, DxDispatch/doc/Guide.md): load, check and run on the CPU.

A model file is read the way DxDispatch's own parser reads it (DxDispatch/src/model/JsonParsers.cpp and
JsonParsersGenerated.cpp): comments and trailing commas are legal, enum names are spelled exactly, integer
fields take JSON integers only, initializers are built in their element type, and fields DxDispatch does not
read are ignored (each one is listed by `model_notes`). What DirectML itself would refuse is refused here
with the rule. Buffers are bytes, as on the GPU: a resource is initialized in its `initialValuesDataType`
but a desc may bind it as any type of the same bytes. Every dispatchable is validated at feature level 6_4
on load and every binding checked against its desc, so running cannot fail halfway. Anything refused
raises DescriptorError whose message starts with the JSON path of the offending field.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..datatypes import FLOAT_TYPES, NUMPY_DTYPES, unsigned_of_width
from ..datatypes import PREFIX as DATA_TYPE_PREFIX
from ..errors import DescriptorError
from ..guard import element_cap
from ..operators import operator as registered
from ..tensor_desc import (
    Problem,
    exact_enum,
    is_uint,
    join_path,
    last_element_index,
    round_up,
    strided_read,
    strided_write,
)
from .json_values import UINT64_MAX, scalar, typed, uint_value
from .jsonc import rapidjson_text
from .validate import desc_path_of, read_model_dispatchable

MAX_TEXT_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_JSON_NODES = 2**22
# What one run may cost is bounded before anything is allocated, so one pasted model cannot tie up a shared server
# (a 1 MB model could otherwise ask for thousands of buffers at the cap, or print a 2^20-element buffer 200 times).
MAX_COMMANDS = 4096  # commands per model; real DxDispatch models have tens
RUN_TENSORS = 16  # a run holds at most this many cap-sized 8-byte tensors: run_byte_budget()
PRINT_EDGE_VALUES = 500  # a longer print shows its first and last this many values, as numpy summarises arrays
MAX_PRINT_CHARS = 500_000  # all print output of one run, in each of its two forms
BINDING_ALIGNMENT = 16  # DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT: every bound offset is 16-byte aligned
ROOT_FIELDS = ("resources", "dispatchables", "commands")
RESOURCE_FIELDS = ("initialValuesDataType", "initialValues", "sizeInBytes", "initialValuesOffsetInBytes")
BINDING_FIELDS = ("name", "elementCount", "elementSizeInBytes", "elementOffset", "format", "counter",
                  "counterOffsetBytes", "shape")


def _fail(path, message):
    raise DescriptorError(f"{path}: {message}" if path else message)


def _note(notes, path, message):
    notes.append(Problem(path, message))


# ---------------------------------------------------------------- JSON text and structure


class _DuplicateKeys(dict):
    """An object with a repeated key, kept until the tree walk can name its JSON path."""

    duplicate = ""


def _no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            marked = _DuplicateKeys(seen)
            marked.duplicate = key
            return marked
        seen[key] = value
    return seen


def _refuse_constant(name):
    raise DescriptorError(f'JSON constant {name} is not standard JSON; write the string "{name.lower()[:4]}" instead')


class _LongInteger:
    """An integer literal with more digits than Python converts (sys.get_int_max_str_digits, 4,300 by default),
    kept until the tree walk can name its JSON path."""

    def __init__(self, digits):
        self.digits = digits


def _integer(literal):
    try:
        return int(literal)
    except ValueError:
        return _LongInteger(len(literal.lstrip("-")))


def parse_model_text(text):
    """JSON text (str or bytes) to plain data, read as DxDispatch's rapidjson reads it.

    Raises DescriptorError with the line and column of a syntax error, or the JSON path of a duplicate key
    or of a number too large for a double.
    """
    if isinstance(text, bytes):
        if len(text) > MAX_TEXT_BYTES:
            raise DescriptorError(f"model text is {len(text):,} bytes; the limit is {MAX_TEXT_BYTES:,} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DescriptorError(f"model text is not UTF-8: {error}") from None
    # A character is at least one byte: a text of more characters than the limit is refused before it is encoded.
    size = len(text) if len(text) > MAX_TEXT_BYTES else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_TEXT_BYTES:
        raise DescriptorError(f"model text is {size:,} bytes; the limit is {MAX_TEXT_BYTES:,} bytes")
    text = rapidjson_text(text, MAX_DEPTH)
    start = len(text) - len(text.lstrip())
    try:
        # kParseStopWhenDoneFlag: whatever follows the root value is never read.
        root = _decode(text, start, int)
    except DescriptorError:
        raise
    except json.JSONDecodeError as error:
        raise DescriptorError(f"JSON syntax error at line {error.lineno}, column {error.colno}: {error.msg}") from None
    except ValueError:
        # An integer literal too long for int(): read again, keeping such literals for the tree walk to name.
        # Only such texts pay a second read; int as parse_int keeps json's fast path for every other text.
        root = _decode(text, start, _integer)
    _check_json_tree(root)
    return root


def _decode(text, start, parse_int):
    decoder = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant,
                               parse_int=parse_int)
    return decoder.raw_decode(text, start)[0]


def _check_json_tree(root):
    """A dict handed in directly must be plain JSON data, shallow and small enough to walk."""
    stack, nodes = [(root, "", 0)], 0
    while stack:
        value, path, depth = stack.pop()
        nodes += 1
        if nodes > MAX_JSON_NODES or depth > MAX_DEPTH:
            _fail(path, f"the model is too large or nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, _DuplicateKeys):
            _fail(join_path(path, value.duplicate), f"duplicate key {value.duplicate!r}: each name may appear once")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    _fail(path, f"object key {key!r} is not a string")
                stack.append((item, join_path(path, key), depth + 1))
        elif isinstance(value, (list, tuple)):
            stack += [(item, join_path(path, i), depth + 1) for i, item in enumerate(value)]
        elif isinstance(value, _LongInteger):
            # rapidjson reads an integer beyond 64 bits as a double, and refuses one beyond a double's range
            # (kParseErrorNumberTooBig, "Number too big to be stored in double"): about 1.8e308, 309 digits.
            _fail(path, f"an integer of {value.digits:,} digits: too big to be stored in a double (at most 309 "
                        "digits); DxDispatch's JSON reader refuses it")
        elif isinstance(value, float) and not math.isfinite(value):
            _fail(path, f'{value!r} is not a finite JSON number (too large for a double?); '
                        'write the string "nan", "inf" or "-inf" for those values')
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            _fail(path, f"{type(value).__name__} is not a JSON value")


def _as_list(value):
    return list(value) if isinstance(value, tuple) else value


def _ignore_unknown(obj, known, path, notes, what):
    for key in obj:
        if key not in known:
            _note(notes, join_path(path, key), f"ignored: DxDispatch does not read a field {key!r} in {what}")


def _uint_field(obj, key, path, default, limit=UINT64_MAX):
    """ParseUInt32Field / ParseUInt64Field: a JSON integer (rapidjson IsUint64) that fits."""
    return uint_value(obj.get(key, default), join_path(path, key), key, limit)


# ---------------------------------------------------------------- resources


def _value_count(initial, path):
    """valueCount: ParseUInt32Field; 0 leaves the buffer empty, which DxDispatch refuses."""
    count = _uint_field(initial, "valueCount", path, None, 2**32 - 1)
    if count == 0:
        _fail(join_path(path, "valueCount"), "valueCount 0: 'initialValues' must be non-empty")
    if count > element_cap():
        _fail(join_path(path, "valueCount"), f"valueCount {count:,}: exceeds the cap of {element_cap():,} elements")
    return count


def _half_sequence(start, delta, count):
    """`value += valueDelta` in half_float::half: the exact sum rounded once to half (half 2.1.0 arithmetic,
    round to nearest). The sum of two halves is exact in float64, so float64 then one cast is that rounding.

    The next value depends only on the current one's 16 bits, so one table of the step over all 65,536 halves,
    composed with itself (jump = step applied len(out) times), extends the sequence by doubling: log2(count)
    table compositions instead of one interpreted step per value."""
    with np.errstate(over="ignore", invalid="ignore"):
        every = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
        jump = (every.astype(np.float64) + np.float64(delta)).astype(np.float16).view(np.uint16)
    out = np.array([start], dtype=np.float16).view(np.uint16)
    while out.size < count:
        out = np.concatenate([out, jump[out]])
        jump = jump[jump]
    return out[:count].view(np.float16)


def _sequence(initial, data_type, path):
    """GenerateInitialValuesFromSequence: valueStart and valueDelta are both parsed in the element type
    (an unsigned type takes no negative delta) and `value += valueDelta` runs in that type, so integers wrap
    (UINT8 250, 260 wraps to 4) and floats round at every step (JsonParsers.cpp)."""
    count = _value_count(initial, path)
    for key in ("valueStart", "valueDelta"):
        if key not in initial:
            _fail(join_path(path, key), f"Field '{key}' is required.")
    start = typed([scalar(initial["valueStart"], data_type, join_path(path, "valueStart"))], data_type)[0]
    delta = typed([scalar(initial["valueDelta"], data_type, join_path(path, "valueDelta"))], data_type)[0]
    if data_type == "FLOAT16":
        return _half_sequence(start, delta, count)
    steps = np.full(count, delta, dtype=NUMPY_DTYPES[data_type])
    steps[0] = start
    with np.errstate(over="ignore", invalid="ignore"):
        # ufunc.accumulate adds strictly left to right in the array's dtype: the C++ loop, step by step.
        return np.add.accumulate(steps, dtype=NUMPY_DTYPES[data_type])


def _plain_numbers(initial, data_type):
    """A list of plain JSON numbers that scalar() would accept, as typed() would store it, converted in bulk; None
    when any value needs scalar()'s look (a string, a bool, an out-of-range or inexact integer), which also names it.
    A 1 MB model holds half a million values: one by one they took about a second per load."""
    kinds = set(map(type, initial))
    if data_type in FLOAT_TYPES:
        if not kinds <= {int, float} or (int in kinds and any(type(v) is int and abs(v) > 2**53 for v in initial)):
            return None
        return typed(np.array(initial, dtype=np.float64), data_type)
    if kinds != {int}:
        return None
    info = np.iinfo(NUMPY_DTYPES[data_type])
    try:
        wide = np.array(initial, dtype=np.int64 if info.min < 0 or info.max < 2**63 else np.uint64)
    except OverflowError:
        return None
    if wide.min() < info.min or wide.max() > info.max:
        return None
    return wide.astype(NUMPY_DTYPES[data_type])


def _initial_values(initial, data_type, path, notes):
    """The resource's initial elements as a typed array (ParseModelBufferDesc, JsonParsers.cpp)."""
    if isinstance(initial, list):
        if not initial:
            _fail(path, "initialValues: 'initialValues' must be non-empty")
        if len(initial) > element_cap():
            _fail(path, f"initialValues has {len(initial):,} values; the cap is {element_cap():,}")
        bulk = _plain_numbers(initial, data_type)
        if bulk is not None:
            return bulk
        return typed([scalar(v, data_type, join_path(path, i)) for i, v in enumerate(initial)], data_type)
    if not isinstance(initial, dict):
        _fail(path, "initialValues: expected an array, {valueCount, value}, {valueCount, valueStart, valueDelta} "
                    'or "deferred"')
    if "value" in initial:
        if "valueStart" in initial or "sourcePath" in initial:
            _fail(path, "initialValues may contain a value, valueStart, or sourcePath, but they are mutually exclusive")
        _ignore_unknown(initial, ("value", "valueCount"), path, notes, "a constant initializer")
        count = _value_count(initial, path)
        value = typed([scalar(initial["value"], data_type, join_path(path, "value"))], data_type)
        return np.repeat(value, count)
    if "valueStart" in initial:
        _ignore_unknown(initial, ("valueStart", "valueDelta", "valueCount"), path, notes, "a sequence initializer")
        return _sequence(initial, data_type, path)
    if "sourcePath" in initial:
        _fail(
            join_path(path, "sourcePath"),
            "sourcePath reads a file from disk, which this app never does; write the values inline as an array, "
            "a constant {valueCount, value} or a sequence {valueCount, valueStart, valueDelta}",
        )
    _fail(
        path,
        f"initialValues fields {sorted(initial)}: unknown generator type; expected {{valueCount, value}} (constant) "
        "or {valueCount, valueStart, valueDelta} (sequence)",
    )


@dataclass
class _Resource:
    data_type: str  # None only for a deferred resource written without a type
    values: np.ndarray
    size_in_bytes: int
    declared_elements: int
    deferred: bool = False

    @property
    def itemsize(self):
        return self.values.dtype.itemsize


def resource_byte_cap():
    """Bytes of all buffers of one model together: one cap-sized tensor of 8-byte elements."""
    return element_cap() * 8


def run_byte_budget():
    """Bytes one run may hold: its buffers four times over (live, as initialized, and the two copies a RunResult
    returns), every dispatch's inputs and its outputs before and after (kept for display) and the print text."""
    return element_cap() * 8 * RUN_TENSORS


def resource_bytes(obj):
    """The bytes a resource's buffer takes, read from its JSON before any value is generated: the larger of its
    values and its sizeInBytes. 0 for a deferred or malformed resource, which allocates nothing or is refused."""
    if not isinstance(obj, dict):
        return 0
    data_type = exact_enum(obj.get("initialValuesDataType"), DATA_TYPE_PREFIX, NUMPY_DTYPES)
    initial = obj.get("initialValues")
    if isinstance(initial, (list, tuple)):
        count = len(initial)
    elif isinstance(initial, dict) and is_uint(initial.get("valueCount"), UINT64_MAX):
        count = initial["valueCount"]
    else:
        return 0
    values = count * (np.dtype(NUMPY_DTYPES[data_type]).itemsize if data_type else 1)
    size = obj.get("sizeInBytes")
    return max(values, size if is_uint(size, UINT64_MAX) else round_up(values, 4))


def _data_type_field(obj, path):
    raw = obj["initialValuesDataType"]
    type_path = join_path(path, "initialValuesDataType")
    if raw in ("UNKNOWN", DATA_TYPE_PREFIX + "UNKNOWN"):
        _fail(type_path,
              "initialValuesDataType UNKNOWN (the typed list initializer for HLSL constants) is not supported")
    data_type = exact_enum(raw, DATA_TYPE_PREFIX, NUMPY_DTYPES)
    if data_type is None:
        _fail(type_path, f"initialValuesDataType {raw!r}: not a DML_TENSOR_DATA_TYPE name spelled exactly (upper "
                         f"case, with or without {DATA_TYPE_PREFIX}; JsonParsersGenerated.cpp, ParseDmlTensorDataType)")
    return data_type


def _load_resource(obj, path, notes):
    if not isinstance(obj, dict):
        _fail(path, "a resource must be a JSON object with initialValuesDataType and initialValues")
    if "initialValues" not in obj:
        _fail(join_path(path, "initialValues"), "initialValues: missing required field")
    data_type = _data_type_field(obj, path) if "initialValuesDataType" in obj else None
    if isinstance(obj["initialValues"], str):
        # "deferred": no buffer is created (sizeInBytes 0); only an ONNX dispatchable fills it at run time
        # (ParseModelBufferDesc returns early; Executor::Executor keeps a null resource).
        if obj["initialValues"] != "deferred":
            _fail(join_path(path, "initialValues"), f"initialValues {obj['initialValues']!r}: the only string "
                                                    'DxDispatch takes here is "deferred"')
        _ignore_unknown(obj, ("initialValuesDataType", "initialValues"), path, notes, "a deferred resource")
        return _Resource(data_type, np.zeros(0, np.uint8), 0, 0, deferred=True)
    if data_type is None:
        _fail(join_path(path, "initialValuesDataType"), "initialValuesDataType: missing required field")
    _ignore_unknown(obj, RESOURCE_FIELDS, path, notes, "a resource")
    values = _initial_values(_as_list(obj["initialValues"]), data_type, join_path(path, "initialValues"), notes)
    implied = values.nbytes
    # Unless sizeInBytes is given, the buffer is the values rounded up to 4 bytes; a given size is used as is
    # (ParseModelBufferDesc: `if (!object.HasMember("sizeInBytes"))` guards the rounding). Guide.md says a given
    # size is inflated to 4 bytes too; the parser is what runs.
    size = _uint_field(obj, "sizeInBytes", path, round_up(implied, 4))
    offset = _uint_field(obj, "initialValuesOffsetInBytes", path, 0)
    if implied + offset > size:
        _fail(join_path(path, "sizeInBytes"),
              f"sizeInBytes {size}: the buffer size is too small for the initialValues ({implied} bytes) at offset "
              f"{offset} bytes")
    if size > element_cap() * 8:
        _fail(join_path(path, "sizeInBytes"), f"sizeInBytes {size:,}: exceeds the cap of {element_cap() * 8:,} bytes")
    if offset:
        _note(notes, join_path(path, "initialValuesOffsetInBytes"),
              "DxDispatch checks initialValuesOffsetInBytes against sizeInBytes but uploads the values at byte 0 "
              "(Executor.cpp, Executor::Executor: device->Upload(sizeInBytes, initialValues)); so does this app")
    # run_model's buffers: the initial values, or as many elements as an explicit sizeInBytes holds.
    declared = max(values.size, size // values.dtype.itemsize) if "sizeInBytes" in obj else values.size
    return _Resource(data_type, values, size, declared)


def _resource_json(obj, resource):
    if resource.deferred:
        return {**({"initialValuesDataType": resource.data_type} if resource.data_type else {}),
                "initialValues": "deferred"}
    normalized = {
        "initialValuesDataType": resource.data_type,
        "initialValues": _as_list(obj["initialValues"]),
        "sizeInBytes": resource.size_in_bytes,
    }
    if obj.get("initialValuesOffsetInBytes"):
        normalized["initialValuesOffsetInBytes"] = obj["initialValuesOffsetInBytes"]
    return normalized


# ---------------------------------------------------------------- bindings


@dataclass(frozen=True)
class Binding:
    """A bound view: the resource `name` from byte elementOffset * element size to the buffer's end.

    DirectML operators are bound from there to the end of the buffer whatever elementCount says
    (DmlDispatchable.cpp, FillBindingData: Offset = elementOffset * elementSizeInBytes, SizeInBytes =
    sizeInBytes - Offset); elementSizeInBytes defaults to the initialValuesDataType's size
    (Executor.cpp, ResolveBindings).
    """

    name: str
    elementOffset: int
    elementSizeInBytes: int = 0

    def offset_bytes(self, resource):
        return self.elementOffset * (self.elementSizeInBytes or resource.itemsize)

    def to_json(self):
        obj = {"name": self.name, "elementOffset": self.elementOffset}
        if self.elementSizeInBytes:
            obj["elementSizeInBytes"] = self.elementSizeInBytes
        return obj


def _binding_fields(value, resources, path, notes):
    """The fields of ParseBufferBindingSource (JsonParsers.cpp) that DirectML operators do not use."""
    if "elementCount" in value:
        _uint_field(value, "elementCount", path, 0)
        _note(notes, join_path(path, "elementCount"),
              "ignored for DirectML operators: the binding runs from elementOffset to the buffer's end "
              "(DmlDispatchable.cpp, FillBindingData)")
    if "format" in value:
        if not isinstance(value["format"], str):
            _fail(join_path(path, "format"), "format: expected a DXGI_FORMAT name (a string)")
        _note(notes, join_path(path, "format"), "ignored for DirectML operators (HLSL views only)")
    if "counter" in value:
        if not isinstance(value["counter"], str) or value["counter"] not in resources:
            _fail(join_path(path, "counter"), f"counter {value['counter']!r}: not a resource defined in resources")
        _uint_field(value, "counterOffsetBytes", path, 0)
        _note(notes, join_path(path, "counter"), "ignored for DirectML operators (HLSL append/consume buffers only)")
    if "shape" in value:
        shape = value["shape"]
        if not isinstance(shape, list) or not all(isinstance(v, int) and not isinstance(v, bool) and
                                                  -2**63 <= v < 2**63 for v in shape):
            _fail(join_path(path, "shape"), "shape: expected an array of INT64 integers")
        _note(notes, join_path(path, "shape"), "ignored for DirectML operators (ONNX dispatchables only)")
    _ignore_unknown(value, BINDING_FIELDS, path, notes, "a binding")


def _binding(value, resources, path, notes):
    if isinstance(value, str):
        value = {"name": value}
    if not isinstance(value, dict):
        _fail(path, "a binding is a resource name or {name, elementOffset, ...}")
    name = value.get("name")
    if not isinstance(name, str) or name not in resources:
        _fail(join_path(path, "name"), f"resource {name!r} is not defined in resources")
    resource = resources[name]
    if resource.deferred:
        _fail(join_path(path, "name"), f'resource {name!r} is "deferred": only an ONNX dispatchable fills it while '
                                       "running, and a DirectML operator would be bound to no buffer at all")
    offset = _uint_field(value, "elementOffset", path, 0)
    element_size = _uint_field(value, "elementSizeInBytes", path, 0)
    _binding_fields(value, resources, path, notes)
    binding = Binding(name, offset, element_size)
    start = binding.offset_bytes(resource)
    if start >= resource.size_in_bytes:
        _fail(join_path(path, "elementOffset"),
              f"elementOffset {offset}: starts at byte {start}, at or past the end of {name} "
              f"({resource.size_in_bytes} bytes)")
    if start % BINDING_ALIGNMENT:
        _fail(
            join_path(path, "elementOffset"),
            f"elementOffset {offset}: {start} bytes into {name} ({resource.data_type}) is not "
            f"a multiple of {BINDING_ALIGNMENT} bytes, DirectML's buffer binding alignment",
        )
    return binding


def _check_unused_binding(raw, resources, path):
    """A binding of no bind point is never bound, but DxDispatch still checks that its resources (and counters)
    exist (Model.cpp, Model::Model: "attempts to bind resource '{}', which does not exist in the model")."""
    items = raw if isinstance(raw, list) else [raw]
    for i, item in enumerate(items):
        item_path = join_path(path, i) if isinstance(raw, list) else path
        name = item if isinstance(item, str) else item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or name not in resources:
            _fail(join_path(item_path, "name") if isinstance(item, dict) else item_path,
                  f"resource {name!r} is not defined in resources (DxDispatch checks every binding's resource)")
        counter = item.get("counter") if isinstance(item, dict) else None
        if counter is not None and counter not in resources:
            _fail(join_path(item_path, "counter"), f"counter {counter!r}: not a resource defined in resources")


def _check_fit(binding, resource, desc, label, path):
    """DirectML needs the bound range (offset to the buffer's end) to hold TotalTensorSizeInBytes."""
    offset_bytes = binding.offset_bytes(resource)
    view_bytes = resource.size_in_bytes - offset_bytes
    if desc.TotalTensorSizeInBytes > view_bytes:
        _fail(
            path,
            f"{label} needs TotalTensorSizeInBytes = {desc.TotalTensorSizeInBytes} bytes but the bound view of "
            f"{binding.name} holds {view_bytes} bytes (from byte {offset_bytes} of {resource.size_in_bytes})",
        )
    alignment = desc.GuaranteedBaseOffsetAlignment
    if alignment and offset_bytes % alignment:
        _fail(
            path,
            f"{label}.GuaranteedBaseOffsetAlignment {alignment}: the binding starts {offset_bytes} bytes into "
            f"{binding.name}, which is not a multiple of it",
        )


def _field_bindings(raw, point, path, resources, notes):
    """One binding per desc of a bind point. DxDispatch takes one source or an array (ParseBindingSource) and
    FillBindingData refuses a count that differs from the bind point's ("Bind point '{}' requires {} resources")."""
    items = raw if isinstance(raw, list) else [raw]
    count = len(point.descs)
    if len(items) != count:
        what = "an array of" if point.array else "a single tensor:"
        _fail(path, f"{len(items)} bindings for {what} {count} tensor desc(s); bind exactly one per desc")
    bound = [_binding(item, resources, join_path(path, i) if isinstance(raw, list) else path, notes)
             for i, item in enumerate(items)]
    return bound if point.array else bound[0]


def _bound(point, bindings):
    """[(binding, desc, label, index in the binding array or None)] of a bound bind point."""
    if point.array:
        return [(b, d, label, i) for i, (b, d, label) in enumerate(zip(bindings, point.descs, point.labels()))]
    return [(bindings, point.descs[0], point.name, None)]


def _region(binding, resource, desc):
    """[start, stop) bytes of the buffer DirectML may touch through this desc: its whole
    TotalTensorSizeInBytes from the binding's offset (SPEC section 1), not only the addressed elements."""
    start = binding.offset_bytes(resource)
    return start, start + desc.TotalTensorSizeInBytes


def _check_aliasing(desc, bound, resources, path):
    """Outputs may not share bytes with each other nor, unless DirectML's schema says the operator runs in place,
    with inputs, judged on each tensor's whole TotalTensorSizeInBytes range, inside which DirectML may write
    (IDMLBindingTable::BindOutputs: the writable areas of two outputs must not overlap)."""
    outputs = [b for b in bound if not b[3]]
    inputs = [b for b in bound if b[3]]
    pairs = [(o, p) for i, o in enumerate(outputs) for p in outputs[i + 1:]]
    if not desc.schema.in_place:
        pairs += [(o, p) for o in outputs for p in inputs]
    for (label_a, binding_a, desc_a, _), (label_b, binding_b, desc_b, _) in pairs:
        if binding_a.name != binding_b.name:
            continue
        resource = resources[binding_a.name]
        start_a, stop_a = _region(binding_a, resource, desc_a)
        start_b, stop_b = _region(binding_b, resource, desc_b)
        if max(start_a, start_b) < min(stop_a, stop_b):
            rule = (
                "two outputs may not write the same bytes"
                if label_b in [o[0] for o in outputs]
                else f"only operators DirectML's schema marks in place may run in place, and {desc.full_name} is "
                     "not one"
            )
            _fail(
                join_path(path, label_a.split("[")[0]),
                f"{label_a} (bytes {start_a}..{stop_a - 1}) and {label_b} (bytes {start_b}..{stop_b - 1}) share "
                f"{binding_a.name} from byte {max(start_a, start_b)}; each tensor's whole TotalTensorSizeInBytes "
                f"counts, since DirectML may write anywhere inside an output's; {rule}",
            )


def _left_out(point, desc, path):
    _fail(path, f"{point.name} is left out of {desc.schema.desc_struct}, so nothing may be bound to it: DirectML "
                "binds DML_BINDING_TYPE_NONE there, each binding's type matching the tensor the operator was created "
                "with (IDMLBindingTable::BindInputs); remove this binding")


# ---------------------------------------------------------------- dispatchables


@dataclass
class _Dispatchable:
    dispatchable: object  # operator_desc.Dispatchable: the desc as DirectML receives it
    operator: object  # ParsedDispatchable when the core models the operator, else None
    init_bindings: dict  # field -> Binding or [Binding], the OWNED_BY_DML inputs bound at initialization
    json: dict
    type_path: str  # where the dispatchable names its operator

    @property
    def desc(self):
        return self.dispatchable.desc


def _load_dispatchable(obj, path, resources, notes):
    """A DirectML dispatchable with its initialization bindings (ParseModelDmlDispatchableDesc): any operator of
    DirectML's schema, judged by the registry's rules where the core models it."""
    dispatchable, parsed = read_model_dispatchable(obj, "6_4", path, strict=True, notes=notes)
    desc = dispatchable.desc
    raw = obj.get("bindings", {})
    bindings_path = join_path(path, "bindings")
    init = {}
    for point in desc.bind_points:
        name = point.name
        flags = {d.Flags for d in point.descs if d is not None}
        if len(flags) > 1:
            _fail(join_path(desc_path_of(obj, path), name),
                  f"{name} mixes OWNED_BY_DML and NONE descs; one bind point is bound either at initialization or "
                  "at execution (DmlDispatchable.cpp, FillBindingData)")
        owned = flags == {"OWNED_BY_DML"}
        if owned and name not in raw:
            _fail(join_path(bindings_path, name),
                  f"{name} is flagged OWNED_BY_DML, so DirectML copies it at initialization: bind it in the "
                  "dispatchable's bindings (DML_TENSOR_FLAGS: such a tensor must be bound during operator "
                  "initialization, and not during execution)")
        if name not in raw:
            continue
        if not point.is_input:
            _note(notes, join_path(bindings_path, name), "ignored: DxDispatch binds only inputs at "
                                                         "initialization (DmlDispatchable::Initialize)")
            continue
        if not point.present:
            _left_out(point, desc, join_path(bindings_path, name))
        if not owned:
            _fail(join_path(bindings_path, name),
                  f"{name} is not flagged OWNED_BY_DML: DirectML expects it bound during execution and not "
                  "during initialization (DML_TENSOR_FLAGS); bind it in the dispatch command instead")
        result = _field_bindings(_as_list(raw[name]), point, join_path(bindings_path, name), resources, notes)
        for binding, tensor, label, _ in _bound(point, result):
            _check_fit(binding, resources[binding.name], tensor, label, join_path(bindings_path, name))
        init[name] = result
    names = [point.name for point in desc.bind_points]
    for name in raw:
        if name not in names:
            _check_unused_binding(raw[name], resources, join_path(bindings_path, name))
            _note(notes, join_path(bindings_path, name), f"ignored: {name!r} is not a bind point of {desc.name}")
    normalized = dispatchable.to_json()
    if init:
        normalized["bindings"] = {name: _binding_json(value) for name, value in init.items()}
    type_path = join_path(path, next(key for key in ("Type", "type") if key in obj))
    return _Dispatchable(dispatchable, parsed, init, normalized, type_path)


def _binding_json(value):
    return [b.to_json() for b in value] if isinstance(value, list) else value.to_json()


# ---------------------------------------------------------------- commands


@dataclass
class _Dispatch:
    name: str  # the dispatchable's
    dispatchable: _Dispatchable
    bindings: dict  # field -> Binding or [Binding], bound at execution
    owned: dict  # field -> Binding or [Binding], bound at initialization (read from the initial buffers)


@dataclass
class _Print:
    resource: str
    verbose: bool


def _thread_group_count(cmd, path):
    value = cmd.get("threadGroupCount")
    if value is not None and not (isinstance(value, list) and len(value) == 3 and all(is_uint(v) for v in value)):
        _fail(join_path(path, "threadGroupCount"),
              "If 'threadGroupCount' is present it must be an array with 3 unsigned integers")


def _load_dispatch(cmd, path, dispatchables, resources, notes):
    """ParseDispatchCommand, then what FillBindingData checks when DxDispatch binds."""
    _ignore_unknown(cmd, ("type", "dispatchable", "bindings", "threadGroupCount"), path, notes, "a dispatch command")
    _thread_group_count(cmd, path)
    name = cmd.get("dispatchable")
    if not isinstance(name, str) or name not in dispatchables:
        _fail(join_path(path, "dispatchable"), f"dispatchable {name!r} is not defined in dispatchables")
    dispatchable = dispatchables[name]
    desc = dispatchable.desc
    raw = cmd.get("bindings")
    bindings_path = join_path(path, "bindings")
    if not isinstance(raw, dict):
        _fail(bindings_path, "bindings: expected a JSON object mapping each tensor field to a resource")
    names = [point.name for point in desc.bind_points]
    for key in raw:
        if key not in names:
            _check_unused_binding(raw[key], resources, join_path(bindings_path, key))
            _note(notes, join_path(bindings_path, key),
                  f"ignored: {key!r} is not a bind point of {name}; DxDispatch binds only {', '.join(names)}")
    bindings, bound = {}, []
    for point in desc.bind_points:
        field_path = join_path(bindings_path, point.name)
        if point.name in dispatchable.init_bindings:
            if point.name in raw:
                _fail(field_path, f"{point.name} is flagged OWNED_BY_DML and was bound at initialization; DirectML "
                                  "refuses it bound again during execution (DML_TENSOR_FLAGS)")
            continue
        if not point.present:
            if point.name in raw:
                _left_out(point, desc, field_path)
            continue
        if point.name not in raw:
            _fail(field_path, f"{point.name}: missing binding (DxDispatch: Nothing bound for required tensor)")
        result = _field_bindings(_as_list(raw[point.name]), point, field_path, resources, notes)
        bindings[point.name] = result
        for binding, tensor, label, index in _bound(point, result):
            binding_path = field_path if index is None else join_path(field_path, index)
            _check_fit(binding, resources[binding.name], tensor, label, binding_path)
            bound.append((label, binding, tensor, point.is_input))
    _check_aliasing(desc, bound, resources, bindings_path)
    return _Dispatch(name, dispatchable, bindings, dispatchable.init_bindings)


def _load_print(cmd, path, resources, notes):
    """ParsePrintCommand: resource and an optional boolean verbose."""
    _ignore_unknown(cmd, ("type", "resource", "verbose"), path, notes, "a print command")
    name = cmd.get("resource")
    if not isinstance(name, str) or name not in resources:
        _fail(join_path(path, "resource"), f"resource {name!r} is not defined in resources")
    if resources[name].deferred:
        _fail(join_path(path, "resource"), f"resource {name!r} is deferred and no ONNX dispatchable fills it here; "
                                           f"DxDispatch would stop with 'Could not find deferred resource {name}'")
    verbose = cmd.get("verbose", False)
    if not isinstance(verbose, bool):
        _fail(join_path(path, "verbose"), f"verbose {verbose!r}: expected true or false")
    return _Print(name, verbose)


def _load_command(cmd, path, dispatchables, resources, notes):
    """ParseModelCommandDesc: the type is compared with _stricmp, so any letter case names a command."""
    if not isinstance(cmd, dict):
        _fail(path, "a command must be a JSON object with a type")
    kind = cmd.get("type")
    lowered = kind.lower() if isinstance(kind, str) else None
    if lowered == "dispatch":
        return _load_dispatch(cmd, path, dispatchables, resources, notes)
    if lowered == "print":
        return _load_print(cmd, path, resources, notes)
    if lowered == "writefile":
        _fail(join_path(path, "type"), "writeFile writes to disk, which this app never does; use print")
    _fail(join_path(path, "type"), f"command type {kind!r}: expected dispatch or print")


def _command_json(command):
    if isinstance(command, _Print):
        return {"type": "print", "resource": command.resource, **({"verbose": True} if command.verbose else {})}
    bindings = {name: _binding_json(value) for name, value in command.bindings.items()}
    return {"type": "dispatch", "dispatchable": command.name, "bindings": bindings}


# ---------------------------------------------------------------- the model


@dataclass
class _Model:
    json: dict
    resources: dict
    dispatchables: dict
    commands: list
    notes: list
    run_bytes: int  # what running it holds at most: _run_bytes


def _load(model):
    if isinstance(model, (str, bytes)):
        model = parse_model_text(model)
    elif isinstance(model, dict):
        _check_json_tree(model)
    else:
        raise DescriptorError(f"model: expected JSON text or a dict, got {type(model).__name__}")
    if not isinstance(model, dict):
        raise DescriptorError("model: the root must be a JSON object with resources, dispatchables and commands")
    notes = []
    _ignore_unknown(model, ROOT_FIELDS + ("$schema",), "", notes, "the root object")
    for key, kind in zip(ROOT_FIELDS, (dict, dict, (list, tuple))):
        if not isinstance(model.get(key), kind):
            _fail(key, f"{key}: missing or not a JSON {'array' if key == 'commands' else 'object'}")

    if len(model["commands"]) > MAX_COMMANDS:
        _fail("commands", f"{len(model['commands']):,} commands: this app runs at most {MAX_COMMANDS:,} per model")
    resources, resources_json, total = {}, {}, 0
    for name, obj in model["resources"].items():
        path = join_path("resources", name)
        # Checked before the values are generated: a thousand resources each under the cap would not fit together.
        # One over the cap on its own is left to _load_resource, which names the field at fault.
        size = resource_bytes(obj)
        total += size
        if total > resource_byte_cap() >= size:
            _fail(path, f"with the resources before it, {total:,} bytes in all; the cap for all buffers of a model "
                        f"is {resource_byte_cap():,} bytes")
        resources[name] = _load_resource(obj, path, notes)
        resources_json[name] = _resource_json(obj, resources[name])

    dispatchables = {}
    for name, obj in model["dispatchables"].items():
        path = join_path("dispatchables", name)
        if not isinstance(obj, dict):
            _fail(path, "a dispatchable must be a JSON object with type and desc")
        dispatchables[name] = _load_dispatchable(obj, path, resources, notes)

    commands = [
        _load_command(cmd, join_path("commands", i), dispatchables, resources, notes)
        for i, cmd in enumerate(model["commands"])
    ]
    run_bytes = _run_bytes(resources, commands)
    normalized = {
        "resources": resources_json,
        "dispatchables": {name: d.json for name, d in dispatchables.items()},
        "commands": [_command_json(c) for c in commands],
    }
    return _Model(normalized, resources, dispatchables, commands, notes, run_bytes)


def load_model(model: str | bytes | dict) -> dict[str, Any]:
    """Parsed, checked and normalized model (every default filled, JSON-serializable dict).

    Accepts JSON text (str/bytes) or an already-parsed dict. Raises DescriptorError naming the JSON path.
    The normalized model is one DxDispatch loads as it is.
    """
    return _load(model).json


def refused_dispatchables(model):
    """{name: the loader's message} for every dispatchable of `model` the loader refuses, each judged alone against
    the model's resources: one pass over them, where loading the whole model stops at the first."""
    loaded = _load({**model, "dispatchables": {}, "commands": []})
    refused = {}
    for name, obj in model["dispatchables"].items():
        path = join_path("dispatchables", name)
        try:
            if not isinstance(obj, dict):
                _fail(path, "a dispatchable must be a JSON object with type and desc")
            _load_dispatchable(obj, path, loaded.resources, [])
        except DescriptorError as error:
            refused[name] = str(error)
    return refused


def model_notes(model: str | bytes | dict) -> list[str]:
    """["path: note"] for what DxDispatch reads differently from what the model seems to say: fields it
    ignores (elementCount, unknown fields), an initialValuesOffsetInBytes it does not apply."""
    return [str(note) for note in _load(model).notes]


def _run_bytes(resources, commands):
    """What running the model holds at most, counted from the loaded descs before anything runs; refused at the
    first command that takes it past run_byte_budget()."""
    total = 4 * sum(r.size_in_bytes for r in resources.values())
    if any(isinstance(c, _Print) for c in commands):
        total += 2 * MAX_PRINT_CHARS
    for index, command in enumerate(commands):
        if isinstance(command, _Print):
            continue
        for point in command.dispatchable.desc.bind_points:
            tensor_bytes = sum(math.prod(d.Sizes) * d.element_size for d in point.descs if d is not None)
            # An input is read once; an output is read before, computed, and read after.
            total += tensor_bytes * (1 if point.is_input else 3)
        if total > run_byte_budget():
            _fail(join_path("commands", index),
                  f"by this dispatch the run would hold about {total:,} bytes (its buffers and every dispatch's inputs "
                  f"and outputs, kept for display); one run may hold {run_byte_budget():,} bytes ({RUN_TENSORS} "
                  f"tensors at the cap of {element_cap():,} 8-byte elements)")
    return total


def model_run_bytes(model):
    """The bytes running `model` holds at most (the estimate the run was admitted on); raises as load_model does,
    or when the estimate exceeds run_byte_budget()."""
    return _load(model).run_bytes


# ---------------------------------------------------------------- running


@dataclass
class DispatchRecord:
    """One executed dispatch: tensors in their bound (logical) shapes, outputs before and after."""

    command_index: int
    dispatchable: str
    operator: str
    inputs: dict
    outputs_before: dict
    outputs: dict


@dataclass
class RunResult:
    buffers: dict  # name -> flat array in initialValuesDataType (declared element count)
    # readable lines: "Resource 'Out': 1, 2, 3" (UINT8/INT8 as numbers), summarised and bounded as format_print
    # and _PrintOutput say
    prints: list
    dispatches: list = field(default_factory=list)
    buffer_bytes: dict = field(default_factory=dict)  # name -> the whole buffer as uint8, padding included
    dxdispatch_prints: list = field(default_factory=list)  # the same lines exactly as DxDispatch writes them


def _fill(resource):
    memory = np.zeros(resource.size_in_bytes, dtype=np.uint8)
    memory[: resource.values.nbytes] = resource.values.view(np.uint8)
    return memory


def _elements(region, desc):
    """The desc's elements in its bound region (bytes from the binding's offset), as its DataType."""
    return region[:(last_element_index(desc.Sizes, desc.Strides) + 1) * desc.element_size].view(desc.dtype)


def _formatted(values, as_character):
    """Each value as DxDispatch's std::ostream writes it (Executor.cpp, BufferDataView), formatted in bulk."""
    if as_character:
        # std::ostream << uint8_t / int8_t writes the byte as a character.
        return list(values.astype(np.uint8).tobytes().decode("latin-1"))
    if values.dtype.kind == "f":
        # half_float's operator<< writes the value as a float; ostream's default is %g with 6 digits. tolist()
        # widens every element to a Python float at once, exactly (float16 and float32 fit a double).
        with np.errstate(invalid="ignore"):  # a signalling NaN widens to a quiet one, flagging "invalid"
            return [format(v, "g") for v in values.astype(np.float64).tolist()]
    return list(map(str, values.tolist()))


def _summarised(count):
    """(indices of the values shown, values left out): all of them, or the first and last PRINT_EDGE_VALUES."""
    if count <= 2 * PRINT_EDGE_VALUES:
        return np.arange(count), 0
    return np.r_[0:PRINT_EDGE_VALUES, count - PRINT_EDGE_VALUES:count], count - 2 * PRINT_EDGE_VALUES


def format_print(name, values, verbose=False, as_characters=False):
    """A print command's output: DxDispatch's own layout (Executor.cpp, Executor::operator()(PrintCommand)
    and BufferDataView). `as_characters` writes UINT8/INT8 values as DxDispatch does, as characters.

    A buffer of more than 2 * PRINT_EDGE_VALUES values shows its first and last PRINT_EDGE_VALUES in that layout,
    with "... N more values ..." between them, so one print costs the same whatever the buffer's size.
    """
    as_character = as_characters and values.dtype.itemsize == 1 and values.dtype.kind in "iu"
    shown, omitted = _summarised(len(values))
    texts = _formatted(values[shown], as_character)
    gap = f"... {omitted:,} more values ..."
    if not verbose:
        if omitted:
            texts = texts[:PRINT_EDGE_VALUES] + [gap] + texts[PRINT_EDGE_VALUES:]
        return f"Resource '{name}': " + ", ".join(texts)
    width = int(math.floor(math.log10(len(values)))) + 1
    hex_width = values.dtype.itemsize * 2
    bits = values[shown].view(unsigned_of_width(values.dtype.itemsize)).tolist()
    lines = [f"[{i:>{width}}] {text} (0x{b:>{hex_width}X})\n" for i, text, b in zip(shown.tolist(), texts, bits)]
    if omitted:
        lines.insert(PRINT_EDGE_VALUES, gap + "\n")
    return f"Resource '{name}':\n" + "".join(lines)


class _PrintOutput:
    """The lines of a run's print commands in one form, MAX_PRINT_CHARS in all: once they are spent, a print says
    so in one short line instead of its values."""

    def __init__(self):
        self.lines, self.left = [], MAX_PRINT_CHARS

    def add(self, name, values, verbose, as_characters=False):
        line = ""
        if self.left > 0:
            line = format_print(name, values, verbose, as_characters)
        if not line or len(line) > self.left:
            line = (f"Resource '{name}': ({len(values):,} values not shown: this run's print output reached its "
                    f"limit of {MAX_PRINT_CHARS:,} characters)")
            self.left = 0
        else:
            self.left -= len(line)
        self.lines.append(line)


def _compute(parsed, inputs):
    """{output field: array(s)}: the operator run by the core on the tensors its descs read."""
    spec = registered(parsed.operator)
    arrays = [a for f in spec.tensor_fields() if f.is_input for a in
              (inputs[f.name] if isinstance(inputs[f.name], list) else [inputs[f.name]])]
    outputs = spec.compute(arrays, spec.attrs_of(parsed))
    results = {}
    for f in spec.tensor_fields():
        if f.kind == "output":
            results[f.name] = outputs.pop(0)
        elif f.kind == "outputs":
            results[f.name], outputs = outputs, []
    return results


def bound_regions(command, point, memory, initial, resources):
    """[(binding, desc, bytes of the buffer from the binding's offset, TotalTensorSizeInBytes long)] of a bound bind
    point: a view into the buffers as they run, or for an input flagged OWNED_BY_DML as they were at initialization,
    when DirectML copied it (DML_TENSOR_FLAGS; Executor::Executor initializes every dispatchable before any command)."""
    bindings, source = ((command.owned[point.name], initial) if point.name in command.owned
                        else (command.bindings[point.name], memory))
    regions = []
    for binding, desc, _, _ in _bound(point, bindings):
        start = binding.offset_bytes(resources[binding.name])
        regions.append((binding, desc, source[binding.name][start:start + desc.TotalTensorSizeInBytes]))
    return regions


def read_point(command, point, memory, initial, resources):
    """The logical tensor(s) a bound bind point reads or writes, through its desc(s): an array, or a list of them."""
    values = [strided_read(_elements(region, d), d.Sizes, d.Strides, field=point.name)
              for _, d, region in bound_regions(command, point, memory, initial, resources)]
    return values if point.array else values[0]


def _run_dispatch(index, command, memory, initial, resources):
    """One dispatch computed by the core."""
    parsed = command.dispatchable.operator
    desc = command.dispatchable.desc
    inputs = {point.name: read_point(command, point, memory, initial, resources) for point in desc.inputs
              if point.present}
    before = {point.name: read_point(command, point, memory, initial, resources) for point in desc.outputs
              if point.present}
    results = _compute(parsed, inputs)
    for point in desc.outputs:
        if point.name in results:
            values = results[point.name] if point.array else [results[point.name]]
            for (_, d, region), value in zip(bound_regions(command, point, memory, initial, resources), values):
                strided_write(_elements(region, d), value, d.Strides, field=point.name)
    after = {point.name: read_point(command, point, memory, initial, resources) for point in desc.outputs
             if point.present}
    return DispatchRecord(index, command.name, parsed.operator, inputs, before, after)


def _declared(memory, resource):
    return memory[: resource.declared_elements * resource.itemsize].view(resource.values.dtype).copy()


def _core_dispatcher(loaded):
    """The core's run of each dispatch; DescriptorError for a dispatchable whose operator it does not model
    (DxDispatch creates every dispatchable, so a model runs whole or not at all)."""
    for dispatchable in loaded.dispatchables.values():
        if dispatchable.operator is None:
            _fail(dispatchable.type_path,
                  f"{dispatchable.desc.full_name} is a DirectML operator the core does not model (ops.OPERATORS), so "
                  'ops.run_model cannot compute it; ops.run_model(model, runtime="directml") runs it on DirectML '
                  "itself")
    return _run_dispatch


RUNTIMES = ("core", "directml")


def run_model_detailed(model, runtime="core"):
    """Run every command in order; buffers, printed lines and a record per dispatch. `runtime` "core" computes each
    dispatch with the reference core (operators it models only), "directml" on DirectML itself in its worker (any
    operator this DirectML build supports: ops/descriptors/on_directml.py)."""
    if runtime not in RUNTIMES:
        raise DescriptorError(f"runtime {runtime!r}: expected one of {', '.join(RUNTIMES)}")
    loaded = _load(model)
    if runtime == "core":
        dispatch = _core_dispatcher(loaded)
    else:
        from .on_directml import dispatcher  # the worker's API is imported only to run on it

        dispatch = dispatcher(loaded)
    live = {name: r for name, r in loaded.resources.items() if not r.deferred}
    memory = {name: _fill(r) for name, r in live.items()}
    initial = {name: m.copy() for name, m in memory.items()}
    prints, exact, records = _PrintOutput(), _PrintOutput(), []
    for index, command in enumerate(loaded.commands):
        if isinstance(command, _Print):
            resource = loaded.resources[command.resource]
            # DxDispatch prints as many elements as the initial values hold (the padding trimmed).
            shown = memory[command.resource][: resource.values.nbytes].view(resource.values.dtype)
            prints.add(command.resource, shown, command.verbose)
            exact.add(command.resource, shown, command.verbose, as_characters=True)
        else:
            records.append(dispatch(index, command, memory, initial, loaded.resources))
    buffers = {name: _declared(memory[name], r) for name, r in live.items()}
    return RunResult(buffers, prints.lines, records, {name: m.copy() for name, m in memory.items()}, exact.lines)


def run_model(model: str | bytes | dict, runtime: str = "core") -> dict[str, np.ndarray]:
    """Every buffer's final contents as a flat array of its initialValuesDataType, each dispatch computed by
    `runtime`: "core" (the default: the operators the core models) or "directml" (DirectML itself, any operator it
    supports; DescriptorError naming the command for DirectML's refusal, its stage and HRESULT)."""
    return run_model_detailed(model, runtime).buffers
