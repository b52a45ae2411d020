"""DxDispatch JSON models (microsoft/DirectML, DxDispatch/doc/Guide.md): load, check and run on the CPU.

Buffers are bytes, as on the GPU: a resource is initialized in its `initialValuesDataType` but a desc may
bind it as any type of the same bytes. Every dispatchable is validated at feature level 6_4 on load and
every binding checked against its desc, so running cannot fail halfway. Anything refused raises
DescriptorError whose message starts with the JSON path of the offending field.
"""

import json
import math
import re
from dataclasses import dataclass, field

import numpy as np

from ..operators.bitwise import bit_or
from ..datatypes import FLOAT_TYPES, NUMPY_DTYPES, type_name
from ..operators.depth_space import depth_to_space, space_to_depth
from ..errors import DescriptorError
from ..guard import element_cap
from ..operators.split_join import join, split
from .tensor_desc import (
    element_offsets,
    is_uint,
    join_path,
    last_element_index,
    round_up,
    strided_read,
    strided_write,
)
from .validate import normalized_dispatchable, tensor_fields

MAX_TEXT_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_JSON_NODES = 2**22
BINDING_ALIGNMENT = 16  # DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT: every bound offset is 16-byte aligned
FLOAT_WORDS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_OPENING = np.frombuffer(b"[{", dtype=np.uint8)
_CLOSING = np.frombuffer(b"]}", dtype=np.uint8)
ROOT_FIELDS = ("resources", "dispatchables", "commands")
RESOURCE_FIELDS = ("initialValuesDataType", "initialValues", "sizeInBytes")
# ELEMENT_WISE_IDENTITY: "This operator supports in-place execution" (its DirectML API page).
IN_PLACE_OPERATORS = ("ELEMENT_WISE_BIT_OR", "ELEMENT_WISE_IDENTITY")


def _fail(path, message):
    raise DescriptorError(f"{path}: {message}" if path else message)


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


def _text_depth(text):
    """Deepest bracket nesting outside strings, measured before json's recursive parser sees the text."""
    bare = _STRING.sub('""', text)
    codes = np.frombuffer(bare.encode("utf-8"), dtype=np.uint8)
    steps = np.isin(codes, _OPENING).astype(np.int64) - np.isin(codes, _CLOSING).astype(np.int64)
    return int(np.cumsum(steps).max()) if steps.size else 0


def parse_model_text(text):
    """JSON text (str or bytes) to plain data, refusing what DxDispatch's parser would not take.

    Raises DescriptorError with the line and column of a syntax error, or the JSON path of a duplicate key
    or of a number too large for a double.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DescriptorError(f"model text is not UTF-8: {error}") from None
    size = len(text.encode("utf-8"))
    if size > MAX_TEXT_BYTES:
        raise DescriptorError(f"model text is {size:,} bytes; the limit is {MAX_TEXT_BYTES:,} bytes")
    if _text_depth(text) > MAX_DEPTH:
        raise DescriptorError(f"model nesting is deeper than {MAX_DEPTH} levels of arrays and objects")
    try:
        root = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise DescriptorError(f"JSON syntax error at line {error.lineno}, column {error.colno}: {error.msg}") from None
    _check_json_tree(root)
    return root


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
        elif isinstance(value, float) and not math.isfinite(value):
            _fail(path, f'{value!r} is not a finite JSON number (too large for a double?); '
                        'write the string "nan", "inf" or "-inf" for those values')
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            _fail(path, f"{type(value).__name__} is not a JSON value")


def _as_list(value):
    return list(value) if isinstance(value, tuple) else value


# ---------------------------------------------------------------- resources


def _float_value(value, path):
    if isinstance(value, str) and value.strip().lower() in FLOAT_WORDS:
        return FLOAT_WORDS[value.strip().lower()]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        _fail(path, f'{value!r}: expected a number or one of "nan", "inf", "-inf"')
    try:
        return float(value)
    except OverflowError:
        _fail(path, f"{value}: too large for a floating-point value")


def _int_value(value, data_type, path):
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(path, f"{value!r}: {data_type} values must be integers")
    info = np.iinfo(NUMPY_DTYPES[data_type])
    if not info.min <= value <= info.max:
        _fail(path, f"{value}: outside {data_type}'s range [{info.min}, {info.max}]")
    return value


def _scalar(value, data_type, path):
    if data_type in FLOAT_TYPES:
        return _float_value(value, path)
    return _int_value(value, data_type, path)


def _to_dtype(values, data_type):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(values, dtype=np.float64 if data_type in FLOAT_TYPES else object).astype(
            NUMPY_DTYPES[data_type]
        )


def _value_count(initial, path):
    count = initial.get("valueCount")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        _fail(join_path(path, "valueCount"), f"valueCount {count!r}: must be an integer greater than 0")
    if count > element_cap():
        _fail(join_path(path, "valueCount"), f"valueCount {count:,}: exceeds the cap of {element_cap():,} elements")
    return count


def _sequence(initial, data_type, path):
    count = _value_count(initial, path)
    start = _scalar(initial["valueStart"], data_type, join_path(path, "valueStart"))
    delta = initial["valueDelta"]
    if data_type in FLOAT_TYPES:
        delta = _float_value(delta, join_path(path, "valueDelta"))
        with np.errstate(over="ignore", invalid="ignore"):
            return (start + delta * np.arange(count, dtype=np.float64)).astype(NUMPY_DTYPES[data_type])
    delta = _int_value(delta, "INT64", join_path(path, "valueDelta"))
    last = start + (count - 1) * delta
    _int_value(last, data_type, join_path(path, "valueDelta"))
    # Both ends in range and the sequence monotone: modular uint64 arithmetic gives exact values.
    steps = np.arange(count, dtype=np.uint64) * np.uint64(delta % 2**64) + np.uint64(start % 2**64)
    return steps.view(np.int64).astype(NUMPY_DTYPES[data_type]) if start < 0 or last < 0 else steps.astype(
        NUMPY_DTYPES[data_type]
    )


def _initial_values(initial, data_type, path):
    """The resource's initial elements as a typed array."""
    if isinstance(initial, list):
        if not initial:
            _fail(path, "initialValues: the array must not be empty")
        if len(initial) > element_cap():
            _fail(path, f"initialValues has {len(initial):,} values; the cap is {element_cap():,}")
        return _to_dtype([_scalar(v, data_type, join_path(path, i)) for i, v in enumerate(initial)], data_type)
    if not isinstance(initial, dict):
        _fail(path, "initialValues: expected an array, {valueCount, value} or {valueCount, valueStart, valueDelta}")
    if "sourcePath" in initial:
        _fail(
            join_path(path, "sourcePath"),
            "sourcePath reads a file from disk, which this app never does; write the values inline as an array, "
            "a constant {valueCount, value} or a sequence {valueCount, valueStart, valueDelta}",
        )
    keys = set(initial)
    if keys == {"valueCount", "value"}:
        count = _value_count(initial, path)
        value = _scalar(initial["value"], data_type, join_path(path, "value"))
        return np.full(count, _to_dtype([value], data_type)[0], dtype=NUMPY_DTYPES[data_type])
    if keys == {"valueCount", "valueStart", "valueDelta"}:
        return _sequence(initial, data_type, path)
    _fail(
        path,
        f"initialValues fields {sorted(keys)}: expected {{valueCount, value}} (constant) or "
        "{valueCount, valueStart, valueDelta} (sequence)",
    )


@dataclass
class _Resource:
    data_type: str
    values: np.ndarray
    size_in_bytes: int
    declared_elements: int

    @property
    def itemsize(self):
        return self.values.dtype.itemsize


def _load_resource(obj, path):
    if not isinstance(obj, dict):
        _fail(path, "a resource must be a JSON object with initialValuesDataType and initialValues")
    for key in obj:
        if key not in RESOURCE_FIELDS:
            _fail(join_path(path, key), f"unknown resource field {key!r}; expected {', '.join(RESOURCE_FIELDS)}")
    for key in RESOURCE_FIELDS[:2]:
        if key not in obj:
            _fail(join_path(path, key), f"{key}: missing required field")
    type_path = join_path(path, "initialValuesDataType")
    raw_type = obj["initialValuesDataType"]
    if isinstance(raw_type, str) and raw_type.strip().upper().endswith("UNKNOWN"):
        _fail(type_path, "initialValuesDataType UNKNOWN (the list initializer for HLSL constants) is not supported")
    if not isinstance(raw_type, str):
        _fail(type_path, f"initialValuesDataType {raw_type!r}: expected a DML_TENSOR_DATA_TYPE name")
    try:
        data_type = type_name(raw_type, "initialValuesDataType")
    except DescriptorError as error:
        _fail(type_path, str(error))
    values = _initial_values(_as_list(obj["initialValues"]), data_type, join_path(path, "initialValues"))
    implied = values.nbytes
    size = obj.get("sizeInBytes", implied)
    if not is_uint(size, 2**64 - 1) or size < implied:
        _fail(
            join_path(path, "sizeInBytes"),
            f"sizeInBytes {size!r}: must be an integer at least the {implied} bytes of initialValues",
        )
    if size > element_cap() * 8:
        _fail(join_path(path, "sizeInBytes"), f"sizeInBytes {size:,}: exceeds the cap of {element_cap() * 8:,} bytes")
    declared = max(values.size, size // values.dtype.itemsize)
    return _Resource(data_type, values, round_up(size, 4), declared)


def _resource_json(obj, resource):
    return {
        "initialValuesDataType": resource.data_type,
        "initialValues": _as_list(obj["initialValues"]),
        "sizeInBytes": resource.size_in_bytes,
    }


# ---------------------------------------------------------------- bindings


@dataclass(frozen=True)
class Binding:
    """A bound view: `name`, offset and count in elements of the resource's initial type."""

    name: str
    elementOffset: int
    elementCount: int

    def to_json(self):
        return {"name": self.name, "elementOffset": self.elementOffset, "elementCount": self.elementCount}


def _binding(value, resources, path):
    if isinstance(value, str):
        value = {"name": value}
    if not isinstance(value, dict):
        _fail(path, "a binding is a resource name or {name, elementOffset, elementCount}")
    for key in value:
        if key not in ("name", "elementOffset", "elementCount"):
            _fail(join_path(path, key), f"binding field {key!r} is not used by DirectML operators; use name, "
                  "elementOffset, elementCount")
    name = value.get("name")
    if not isinstance(name, str) or name not in resources:
        _fail(join_path(path, "name"), f"resource {name!r} is not defined in resources")
    resource = resources[name]
    capacity = resource.size_in_bytes // resource.itemsize
    offset = value.get("elementOffset", 0)
    if not is_uint(offset) or offset >= capacity:
        _fail(join_path(path, "elementOffset"), f"elementOffset {offset!r}: must be an integer in [0, {capacity - 1}]")
    if (offset * resource.itemsize) % BINDING_ALIGNMENT:
        _fail(
            join_path(path, "elementOffset"),
            f"elementOffset {offset}: {offset * resource.itemsize} bytes into {name} ({resource.data_type}) is not "
            f"a multiple of {BINDING_ALIGNMENT} bytes, DirectML's buffer binding alignment",
        )
    count = value.get("elementCount", capacity - offset)
    if not is_uint(count) or count < 1 or offset + count > capacity:
        _fail(
            join_path(path, "elementCount"),
            f"elementCount {count!r}: must be an integer in [1, {capacity - offset}] (the buffer holds {capacity} "
            f"{resource.data_type} elements and the view starts at {offset})",
        )
    return Binding(name, offset, count)


def _check_fit(binding, resource, desc, label, path):
    offset_bytes = binding.elementOffset * resource.itemsize
    view_bytes = min(round_up(binding.elementCount * resource.itemsize, 4), resource.size_in_bytes - offset_bytes)
    if desc.TotalTensorSizeInBytes > view_bytes:
        _fail(
            path,
            f"{label} needs TotalTensorSizeInBytes = {desc.TotalTensorSizeInBytes} bytes but the bound view of "
            f"{binding.name} holds {view_bytes} bytes ({binding.elementCount} {resource.data_type} from element "
            f"{binding.elementOffset})",
        )
    alignment = desc.GuaranteedBaseOffsetAlignment
    if alignment and offset_bytes % alignment:
        _fail(
            path,
            f"{label}.GuaranteedBaseOffsetAlignment {alignment}: the binding starts {offset_bytes} bytes into "
            f"{binding.name}, which is not a multiple of it",
        )


def _field_bindings(raw, kind, count, path, resources):
    if kind in ("inputs", "outputs"):
        items = raw if isinstance(raw, list) else [raw]
        if len(items) != count:
            _fail(path, f"{len(items)} bindings for an array of {count} tensor descs; bind exactly one per desc")
        return [_binding(item, resources, join_path(path, i)) for i, item in enumerate(items)]
    if isinstance(raw, list):
        if len(raw) != 1:
            _fail(path, f"{len(raw)} bindings for a single tensor; bind exactly one resource")
        return _binding(raw[0], resources, join_path(path, 0))
    return _binding(raw, resources, path)


def _touched_bytes(binding, resource, desc):
    """Start byte of every element the desc touches in its resource, for alias checks."""
    start = binding.elementOffset * resource.itemsize
    return np.unique(element_offsets(desc.Sizes, desc.Strides).ravel() * desc.element_size + start)


def _check_aliasing(operator, bound, resources, path):
    """Outputs may not write the same element twice nor (except for in-place operators) overwrite inputs."""
    outputs = [b for b in bound if b[3].startswith("output")]
    inputs = [b for b in bound if b[3].startswith("input")]
    pairs = [(o, p) for i, o in enumerate(outputs) for p in outputs[i + 1:]]
    if operator not in IN_PLACE_OPERATORS:
        pairs += [(o, p) for o in outputs for p in inputs]
    for (label_a, binding_a, desc_a, _), (label_b, binding_b, desc_b, _) in pairs:
        if binding_a.name != binding_b.name:
            continue
        resource = resources[binding_a.name]
        shared = np.intersect1d(_touched_bytes(binding_a, resource, desc_a), _touched_bytes(binding_b, resource, desc_b))
        if shared.size:
            rule = (
                "two outputs may not write the same bytes"
                if label_b in [o[0] for o in outputs]
                else f"only {', '.join(IN_PLACE_OPERATORS)} may run in place"
            )
            _fail(
                join_path(path, label_a.split("[")[0]),
                f"{label_a} and {label_b} both touch {binding_a.name} at byte {int(shared[0])}; {rule}",
            )


# ---------------------------------------------------------------- commands


@dataclass
class _Dispatch:
    dispatchable: str
    operator: object  # ParsedDispatchable
    bindings: dict  # field -> Binding or [Binding]


def _load_dispatch(cmd, path, parsed_dispatchables, resources):
    for key in cmd:
        if key not in ("type", "dispatchable", "bindings", "threadGroupCount"):
            _fail(join_path(path, key), f"unknown dispatch command field {key!r}")
    name = cmd.get("dispatchable")
    if not isinstance(name, str) or name not in parsed_dispatchables:
        _fail(join_path(path, "dispatchable"), f"dispatchable {name!r} is not defined in dispatchables")
    parsed = parsed_dispatchables[name]
    raw = cmd.get("bindings")
    bindings_path = join_path(path, "bindings")
    if not isinstance(raw, dict):
        _fail(bindings_path, "bindings: expected a JSON object mapping each tensor field to a resource")
    fields = dict(tensor_fields(parsed.operator))
    for key in raw:
        if key not in fields:
            _fail(join_path(bindings_path, key), f"{key!r} is not a bind point of {name}; expected {', '.join(fields)}")
    bindings, bound = {}, []
    for field_name, kind in fields.items():
        field_path = join_path(bindings_path, field_name)
        if field_name not in raw:
            _fail(field_path, f"{field_name}: missing binding")
        descs = parsed.tensors[field_name]
        result = _field_bindings(_as_list(raw[field_name]), kind, len(descs) if isinstance(descs, list) else 1,
                                 field_path, resources)
        bindings[field_name] = result
        pairs = (
            [(f"{field_name}[{i}]", b, d, join_path(field_path, i)) for i, (b, d) in enumerate(zip(result, descs))]
            if isinstance(result, list)
            else [(field_name, result, descs, field_path)]
        )
        for label, binding, desc, binding_path in pairs:
            _check_fit(binding, resources[binding.name], desc, label, binding_path)
            bound.append((label, binding, desc, kind))
    _check_aliasing(parsed.operator, bound, resources, bindings_path)
    return _Dispatch(name, parsed, bindings)


def _load_command(cmd, path, parsed_dispatchables, resources):
    if not isinstance(cmd, dict):
        _fail(path, "a command must be a JSON object with a type")
    kind = cmd.get("type")
    if kind == "dispatch":
        return _load_dispatch(cmd, path, parsed_dispatchables, resources)
    if kind == "print":
        for key in cmd:
            if key not in ("type", "resource"):
                _fail(join_path(path, key), f"unknown print command field {key!r}")
        if not isinstance(cmd.get("resource"), str) or cmd["resource"] not in resources:
            _fail(join_path(path, "resource"), f"resource {cmd.get('resource')!r} is not defined in resources")
        return cmd["resource"]
    if kind == "writeFile":
        _fail(join_path(path, "type"), "writeFile writes to disk, which this app never does; use print")
    _fail(join_path(path, "type"), f"command type {kind!r}: expected dispatch or print")


# ---------------------------------------------------------------- the model


@dataclass
class _Model:
    json: dict
    resources: dict
    dispatchables: dict
    commands: list


def _load(model):
    if isinstance(model, (str, bytes)):
        model = parse_model_text(model)
    elif isinstance(model, dict):
        _check_json_tree(model)
    else:
        raise DescriptorError(f"model: expected JSON text or a dict, got {type(model).__name__}")
    if not isinstance(model, dict):
        raise DescriptorError("model: the root must be a JSON object with resources, dispatchables and commands")
    for key in model:
        if key not in ROOT_FIELDS and key != "$schema":
            _fail(join_path("", key), f"unknown root field {key!r}; expected {', '.join(ROOT_FIELDS)}")
    for key, kind in zip(ROOT_FIELDS, (dict, dict, (list, tuple))):
        if not isinstance(model.get(key), kind):
            _fail(key, f"{key}: missing or not a JSON {'array' if key == 'commands' else 'object'}")

    resources, resources_json = {}, {}
    for name, obj in model["resources"].items():
        path = join_path("resources", name)
        resources[name] = _load_resource(obj, path)
        resources_json[name] = _resource_json(obj, resources[name])
    total = sum(r.size_in_bytes for r in resources.values())
    if total > element_cap() * 8:
        _fail("resources", f"{total:,} bytes in all; the cap is {element_cap() * 8:,} bytes")

    dispatchables = {}
    for name, obj in model["dispatchables"].items():
        path = join_path("dispatchables", name)
        if not isinstance(obj, dict):
            _fail(path, "a dispatchable must be a JSON object with type and desc")
        dispatchables[name] = normalized_dispatchable(obj, "6_4", path)

    commands = [
        _load_command(cmd, join_path("commands", i), dispatchables, resources)
        for i, cmd in enumerate(model["commands"])
    ]
    normalized = {
        "resources": resources_json,
        "dispatchables": {name: parsed.to_json() for name, parsed in dispatchables.items()},
        "commands": [_command_json(c) for c in commands],
    }
    return _Model(normalized, resources, dispatchables, commands)


def _command_json(command):
    if isinstance(command, str):
        return {"type": "print", "resource": command}
    bindings = {
        name: [b.to_json() for b in value] if isinstance(value, list) else value.to_json()
        for name, value in command.bindings.items()
    }
    return {"type": "dispatch", "dispatchable": command.dispatchable, "bindings": bindings}


def load_model(model):
    """Parsed, checked and normalized model (every default filled, JSON-serializable dict).

    Accepts JSON text (str/bytes) or an already-parsed dict. Raises DescriptorError naming the JSON path.
    """
    return _load(model).json


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
    prints: list  # DxDispatch's lines: "Resource 'Out': 1, 2, 3"
    dispatches: list = field(default_factory=list)
    buffer_bytes: dict = field(default_factory=dict)  # name -> the whole buffer as uint8, padding included


def _fill(resource):
    memory = np.zeros(resource.size_in_bytes, dtype=np.uint8)
    memory[: resource.values.nbytes] = resource.values.view(np.uint8)
    return memory


def _view(memory, binding, resource, desc):
    """The desc's elements in memory, as its DataType, starting at the binding's offset."""
    start = binding.elementOffset * resource.itemsize
    stop = start + (last_element_index(desc.Sizes, desc.Strides) + 1) * desc.element_size
    return memory[start:stop].view(desc.dtype)


def _format_value(value):
    if isinstance(value, (np.floating, float)):
        return format(float(value), "g")
    return str(int(value))


def format_print(name, values):
    return f"Resource '{name}': " + ", ".join(_format_value(v) for v in values)


def _compute(parsed, inputs):
    op, scalars = parsed.operator, parsed.scalars
    if op == "DEPTH_TO_SPACE1":
        return {"OutputTensor": depth_to_space(inputs["InputTensor"], scalars["BlockSize"], scalars["Order"])}
    if op == "SPACE_TO_DEPTH1":
        return {"OutputTensor": space_to_depth(inputs["InputTensor"], scalars["BlockSize"], scalars["Order"])}
    if op == "ELEMENT_WISE_BIT_OR":
        return {"OutputTensor": bit_or(inputs["ATensor"], inputs["BTensor"])}
    if op == "ELEMENT_WISE_IDENTITY":
        # The layout change is the strided read and write around this; only a null ScaleBias is valid here.
        return {"OutputTensor": inputs["InputTensor"]}
    if op == "SPLIT":
        axis = scalars["Axis"]
        return {"OutputTensors": split(inputs["InputTensor"], axis, [d.Sizes[axis] for d in parsed.tensors["OutputTensors"]])}
    return {"OutputTensor": join(inputs["InputTensors"], scalars["Axis"])}


def _each(value, fn):
    return [fn(v, i) for i, v in enumerate(value)] if isinstance(value, list) else fn(value, None)


def _pick(value, i):
    return value if i is None else value[i]


def _run_dispatch(index, command, memory, resources):
    parsed = command.operator
    fields = dict(tensor_fields(parsed.operator))

    def read(name):
        descs, bindings = parsed.tensors[name], command.bindings[name]
        return _each(bindings, lambda b, i: strided_read(
            _view(memory[b.name], b, resources[b.name], _pick(descs, i)), _pick(descs, i).Sizes,
            _pick(descs, i).Strides, field=name))

    inputs = {name: read(name) for name, kind in fields.items() if kind.startswith("input")}
    before = {name: read(name) for name, kind in fields.items() if kind.startswith("output")}
    results = _compute(parsed, inputs)
    for name, values in results.items():
        descs, bindings = parsed.tensors[name], command.bindings[name]
        _each(bindings, lambda b, i: strided_write(
            _view(memory[b.name], b, resources[b.name], _pick(descs, i)), _pick(values, i),
            _pick(descs, i).Strides, field=name))
    after = {name: read(name) for name in before}
    return DispatchRecord(index, command.dispatchable, parsed.operator, inputs, before, after)


def _declared(memory, resource):
    return memory[: resource.declared_elements * resource.itemsize].view(resource.values.dtype).copy()


def run_model_detailed(model):
    """Run every command in order; buffers, printed lines and a record per dispatch."""
    loaded = _load(model)
    memory = {name: _fill(r) for name, r in loaded.resources.items()}
    prints, records = [], []
    for index, command in enumerate(loaded.commands):
        if isinstance(command, str):
            resource = loaded.resources[command]
            shown = memory[command][: resource.values.nbytes].view(resource.values.dtype)
            prints.append(format_print(command, shown))
        else:
            records.append(_run_dispatch(index, command, memory, loaded.resources))
    buffers = {name: _declared(memory[name], r) for name, r in loaded.resources.items()}
    return RunResult(buffers, prints, records, {name: m.copy() for name, m in memory.items()})


def run_model(model):
    """Every buffer's final contents as a flat array of its initialValuesDataType."""
    return run_model_detailed(model).buffers
