"""Any DirectML operator's desc, read from DxDispatch JSON as DxDispatch reads it, from DirectML's schema alone.

DxDispatch's generated parser (microsoft/DirectML DxDispatch/src/model/JsonParsersGenerated.cpp) reads an operator's
fields in struct order, each with the reader its type calls for (JsonParsers.cpp), and requires exactly the fields
DirectML's schema does not mark optional. `read_operator_desc` and `read_desc_fields` do the same from `ops.schema`,
with no code per operator:

- tensors as ParseDmlTensorDesc reads them (ops/tensor_desc.py: every check of sizes, strides, sizes in bytes and
  alignment), tensor arrays as JSON arrays of them;
- UINT, UINT64 and INT fields as JSON integers that fit (1.0 is a double there and refused); the 18 UINT fields whose
  reader is ParseBoolField as true or false; a UINT holding an enum by its name, spelled exactly, with or without its
  prefix (strcmp); FLOAT as a number or "nan", "inf", "-inf" in any case, stored as a float32; arrays of each;
- DML_SCALE_BIAS {Scale, Bias}, DML_SIZE_2D {Width, Height}; a DML_SCALAR_UNION as a number, or an object naming the
  union member ({"Float32": "nan"}; FLOAT16's is {"UInt16": its 16 bits}), in the DML_TENSOR_DATA_TYPE its sibling
  field names, integers range-checked and FLOAT16 rounded through float as DxDispatch rounds it;
- a fused activation (FusedActivation, ActivationDescs) as a nested {Type, Desc} whose tensors DxDispatch leaves null,
  one of DirectML's activations;
- an optional field absent (null is refused: every reader of a present field wants a non-null value, "Expected a
  non-null JSON object"); an array's length checked against the count field DirectML reads it by, which DxDispatch
  does not check (DirectML would read past the array).

The result, an `OperatorDesc`, is the desc as DirectML receives it: `fields()` lists every field's value in struct
order ready to pack, `inputs` / `outputs` its bind points in DirectML's binding order, `to_json()` the normalized
JSON, which reads back to the same desc. `ops.schema` is imported on first use (see its docstring).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import struct
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..datatypes import NUMPY_DTYPES
from ..errors import DescriptorError
from ..tensor_desc import Problem, TensorDesc, join_path, parse_tensor_desc, unknown_field
from .json_values import UINT32_MAX, UINT64_MAX, float_value, scalar, typed

OPERATOR_PREFIX = "DML_OPERATOR_"
INT32_RANGE = (-(2**31), 2**31 - 1)
# DML_SCALAR_UNION's member DxDispatch reads an object-form scalar union from, by its data type (JsonParsers.cpp,
# ParseDmlScalarUnion): FLOAT16 is read as its 16 bits from UInt16.
UNION_MEMBERS = {"FLOAT16": "UInt16", "FLOAT32": "Float32", "FLOAT64": "Float64", "UINT8": "UInt8",
                 "UINT16": "UInt16", "UINT32": "UInt32", "UINT64": "UInt64", "INT8": "Int8", "INT16": "Int16",
                 "INT32": "Int32", "INT64": "Int64"}
# What DxDispatch leaves in an optional field that is absent: nullptr for a pointer, its reader's default otherwise
# (JsonParsers.h: 0, 0.0f, false).
_DEFAULTS = {"UINT": 0, "UINT64": 0, "INT": 0, "FLOAT": 0.0, "BOOL": False}
_BAD = object()  # a field whose value could not be read (its problem is recorded)


@functools.cache
def schema_module():
    from .. import schema  # imported on first use: see ops/schema/__init__.py

    return schema


def _float32(value):
    """static_cast<float>(double): the nearest float32, ties to even (beyond its range, an infinity)."""
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _stored(value, data_type):
    """The bytes DxDispatch stores for a double read as `data_type`: FLOAT16 through float, as typed() rounds it."""
    if data_type == "FLOAT64":
        return struct.pack("<d", value)
    single = _float32(value)
    if data_type == "FLOAT32":
        return struct.pack("<f", single)
    try:
        return struct.pack("<e", single)
    except OverflowError:
        return struct.pack("<e", math.copysign(math.inf, single))


def float_json(value, data_type="FLOAT32"):
    """A float of `data_type` as JSON DxDispatch reads back to the same bits: the shortest decimal that does (read as
    a double, then narrowed as DxDispatch narrows it); the strings "nan", "inf", "-inf" for those
    (ParseFloatingPointNumber)."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    bits = _stored(value, data_type)
    for digits in range(1, 18):  # 17 significant digits hold any double exactly
        short = float(f"{value:.{digits}g}")
        if _stored(short, data_type) == bits:
            return short
    return float(value)


@dataclasses.dataclass(frozen=True)
class ScaleBias:
    """DML_SCALE_BIAS: two float32 values."""

    Scale: float
    Bias: float

    def to_json(self):
        return {"Scale": float_json(self.Scale), "Bias": float_json(self.Bias)}


@dataclasses.dataclass(frozen=True)
class Size2D:
    """DML_SIZE_2D."""

    Width: int
    Height: int

    def to_json(self):
        return {"Width": self.Width, "Height": self.Height}


@dataclasses.dataclass(frozen=True)
class ScalarUnion:
    """A DML_SCALAR_UNION: `data_type` (the DML_TENSOR_DATA_TYPE its sibling field names) and `bits`, its 8 bytes as
    DxDispatch writes them: the member's value little-endian, the rest zero (BucketAllocator hands out fresh zeroed
    pages, VirtualAlloc or mmap)."""

    data_type: str
    bits: bytes

    @property
    def array(self) -> np.ndarray:
        """The value as a one-element array of its data type."""
        dtype = NUMPY_DTYPES[self.data_type]
        return np.frombuffer(self.bits[:dtype.itemsize], dtype=dtype)

    @property
    def value(self) -> int | float:
        return self.array.tolist()[0]

    def to_json(self):
        """A number DxDispatch reads back to these bits, else the object form ({"UInt16": bits} for a FLOAT16
        infinity or NaN, {"Float32": "nan"} ...)."""
        value = self.value
        if isinstance(value, int):
            return value
        if math.isfinite(value):
            return float_json(value, self.data_type)
        if self.data_type == "FLOAT16":
            return {"UInt16": int(self.array.view(np.uint16)[0])}
        return {UNION_MEMBERS[self.data_type]: float_json(value)}


def scalar_union(data_type, value):
    """The ScalarUnion holding `value` in `data_type` (a float rounded as DxDispatch rounds it)."""
    return ScalarUnion(data_type, typed([value], data_type).tobytes().ljust(8, b"\0"))


@dataclasses.dataclass(frozen=True)
class BindPoint:
    """One tensor field as DirectML binds it: `descs` holds one TensorDesc per buffer (an array field binds one per
    element), or (None,) for an optional tensor the desc leaves out, which is bound to nothing."""

    name: str  # the field, as a DxDispatch binding names it
    kind: str  # INPUT_TENSOR or OUTPUT_TENSOR
    descs: tuple
    array: bool

    @property
    def is_input(self) -> bool:
        return self.kind == "INPUT_TENSOR"

    @property
    def present(self) -> bool:
        return self.array or self.descs[0] is not None

    def labels(self) -> list[str]:
        """"InputTensors[1]" for an array's element, the field's name otherwise."""
        return [f"{self.name}[{i}]" for i in range(len(self.descs))] if self.array else [self.name]


@dataclasses.dataclass(frozen=True)
class OperatorDesc:
    """A DML_OPERATOR_DESC as read: its schema and each field's value, in struct order.

    `values` holds what the JSON says: a UINT holding an enum as its member's name (no prefix), a UINT DxDispatch reads
    as a bool as True/False, a FLOAT as its float32 value, arrays as tuples, a TENSOR_DESC as a TensorDesc (None when
    an optional one is left out or the desc is a fused activation's), nested descs as OperatorDescs, ScaleBias,
    Size2D, ScalarUnion, None for an absent optional pointer. `fused`: read as another operator's fused activation.
    """

    schema: Any  # ops.schema.OperatorSchema
    values: Mapping
    fused: bool = False

    @property
    def name(self) -> str:
        return self.schema.name

    @property
    def full_name(self) -> str:
        return self.schema.full_name

    def fields(self) -> tuple:
        """((SchemaField, value), ...) in struct order, each value as DirectML's struct holds it: UINT, UINT64, INT as
        int (an enum as its DirectML.h value, a bool as 0 or 1), FLOAT as a float32 value, BOOL as 0 or 1, arrays as
        tuples, TENSOR_DESC as TensorDesc or None, OPERATOR_DESC as OperatorDesc or None, SCALE_BIAS as ScaleBias or
        None, SIZE_2D as Size2D, SCALAR_UNION as ScalarUnion (its `bits` are the union's 8 bytes)."""
        enums = schema_module().ENUMS
        result = []
        for f in self.schema.fields:
            value = self.values[f.name]
            if f.enum is not None:
                value = enums[f.enum].value(value)
            elif isinstance(value, bool):
                value = int(value)
            result.append((f, value))
        return tuple(result)

    def _bind_points(self, fields):
        return tuple(BindPoint(f.name, f.kind, tuple(self.values[f.name]) if f.is_array else (self.values[f.name],),
                               f.is_array) for f in fields)

    @property
    def inputs(self) -> tuple:
        """The input BindPoints in DirectML's binding order."""
        return self._bind_points(self.schema.inputs)

    @property
    def outputs(self) -> tuple:
        return self._bind_points(self.schema.outputs)

    @property
    def bind_points(self) -> tuple:
        return self.inputs + self.outputs

    def to_json(self) -> dict:
        """The desc's fields as normalized JSON, which DxDispatch reads back to the same desc: every default filled,
        absent optional pointers left out, enums by their names without prefix."""
        desc = {}
        for f in self.schema.fields:
            value = self.values[f.name]
            if value is None or (self.fused and f.nulled_when_fused):
                continue
            desc[f.name] = _value_json(f, value)
        return desc

    def to_operator_json(self) -> dict:
        """{Type, Desc}: this desc as a nested DML_OPERATOR_DESC (a fused activation)."""
        return {"Type": self.full_name, "Desc": self.to_json()}


@dataclasses.dataclass(frozen=True)
class Dispatchable:
    """A DirectML operator dispatchable of a DxDispatch model (ParseModelDmlDispatchableDesc): its operator desc, and
    executionFlags and dmlCompileType as written."""

    desc: OperatorDesc
    extras: Mapping = dataclasses.field(default_factory=dict)

    @property
    def execution_flags(self) -> int:
        """DML_EXECUTION_FLAGS, the names ORed (ParseFlags); 0 when absent."""
        raw = self.extras.get("executionFlags", [])
        enum = schema_module().ENUMS["DML_EXECUTION_FLAGS"]
        flags = 0
        for name in raw if isinstance(raw, list) else [raw]:
            flags |= enum.value(name)
        return flags

    @property
    def compile_type(self) -> str:
        """DmlCompileOp (IDMLDevice::CompileOperator, DxDispatch's default) or DmlCompileGraph."""
        return self.extras.get("dmlCompileType", "DmlCompileOp")

    def to_json(self) -> dict:
        return {"type": self.desc.full_name, "desc": self.desc.to_json(), **self.extras}


def _value_json(f, value):
    if isinstance(value, TensorDesc):
        return value.to_json()
    if isinstance(value, OperatorDesc):
        return value.to_operator_json()
    if isinstance(value, (ScaleBias, Size2D, ScalarUnion)):
        return value.to_json()
    if isinstance(value, tuple):
        return list(value) if f.type in ("UINT_ARRAY", "INT_ARRAY") else [_value_json(f, item) for item in value]
    if isinstance(value, float):
        return float_json(value)
    return value  # an int, a bool, an enum's name


# ---------------------------------------------------------------- reading


def operator_schema(value):
    """(OperatorSchema, "") of the operator `value` names as DxDispatch's ParseDmlOperatorDesc matches it (strcmp
    against DML_OPERATOR_<NAME> and <NAME>), else (None, why not)."""
    schema = schema_module()
    if not isinstance(value, str):
        return None, f"type {value!r:.60}: must be a string naming a DML_OPERATOR_TYPE"
    name = value[len(OPERATOR_PREFIX):] if value.startswith(OPERATOR_PREFIX) else value
    if name in schema.SCHEMAS:
        return schema.SCHEMAS[name], ""
    if name in schema.OPERATOR_TYPES:
        alias = next((s for s in schema.SCHEMAS.values() if s.code == schema.OPERATOR_TYPES[name]), None)
        if alias is not None:  # DirectML.h's SCATTER_ELEMENTS, which DxDispatch's parser does not list
            return None, f"type {value!r}: DxDispatch reads this operator only as {alias.full_name}"
        return None, (f"type {value!r}: a DML_OPERATOR_TYPE with no schema in DxDispatch at {schema.COMMIT[:7]}, "
                      "which cannot read it")
    bare = name[len(OPERATOR_PREFIX):] if name.upper().startswith(OPERATOR_PREFIX) else name
    other = next((n for n in schema.SCHEMAS if n.lower() == bare.lower()), None)
    hint = f"; names are exact: {OPERATOR_PREFIX}{other}" if other else ""
    return None, f"type {value!r:.80}: not a DirectML operator (DML_OPERATOR_<NAME> or <NAME>, spelled exactly){hint}"


class _Reader:
    """Reads fields, collecting every problem with its JSON path (DxDispatch stops at the first; a report lists all).
    `strict`: a model file's reading, fields DxDispatch does not read noted in `notes`; otherwise (the Python API)
    they are problems, and null stands for an absent optional field."""

    def __init__(self, strict, notes):
        self.strict, self.notes, self.problems = strict, notes, []

    def problem(self, path, message):
        self.problems.append(Problem(path, message))
        return _BAD

    def unread(self, path, key, message):
        unknown_field(path, key, message, self.problems, self.notes)

    def guarded(self, fn, *args):
        """fn(*args), its DescriptorError (whose message starts with the path) recorded as a problem."""
        try:
            return fn(*args)
        except DescriptorError as error:
            return self.problem("", str(error))

    # ------------------------------------------------------------ an operator desc

    def operator(self, obj, path, fused):
        """ParseDmlOperatorDesc: {Type or type, Desc or desc}, or the fields inline beside the type."""
        if not isinstance(obj, dict):
            return self.problem(path, f"{obj!r:.60}: expected a JSON object {{Type, Desc}} naming an operator "
                                      "(DxDispatch: Expected a non-null JSON object)")
        type_key = next((key for key in ("Type", "type") if key in obj), None)
        if type_key is None:
            return self.problem(join_path(path, "Type"), "Type: missing required field (the operator, e.g. "
                                                         "DML_OPERATOR_ACTIVATION_RELU)")
        schema, why = operator_schema(obj[type_key])
        if schema is None:
            return self.problem(join_path(path, type_key), why)
        if fused and not schema.activation:
            return self.problem(join_path(path, type_key),
                                f"{schema.full_name} is not an activation: a fused activation is one of DirectML's "
                                "ACTIVATION_* operators (ACTIVATION_RELU_GRAD excepted), its tensors left null")
        desc_key = next((key for key in ("Desc", "desc") if key in obj), None)
        if desc_key is None:
            return self.fields(schema, obj, path, fused, skip=(type_key,))
        for key in obj:
            if key not in (type_key, desc_key):
                self.unread(path, key, f"unknown field {key!r} beside {type_key} and {desc_key}")
        return self.fields(schema, obj[desc_key], join_path(path, desc_key), fused)

    def fields(self, schema, desc, path, fused=False, skip=()):
        """The desc's fields in struct order (ParseDml<Operator>OperatorDesc)."""
        if not isinstance(desc, dict):
            return self.problem(path, f"desc {desc!r:.60}: expected a JSON object of {schema.desc_struct}'s fields")
        names = [f.name for f in schema.fields]
        for key in desc:
            if key not in names and key not in skip:
                self.unread(path, key, f"unknown field {key!r} for {schema.full_name}; expected {', '.join(names)}")
        before = len(self.problems)
        values = {}
        for f in schema.fields:
            if fused and f.nulled_when_fused:
                if f.name in desc:
                    self.unread(path, f.name, "a fused activation's tensors are null; DirectML applies it to the "
                                              "fusing operator's output")
                values[f.name] = () if f.is_array else None
                continue
            field_path = join_path(path, f.name)
            if f.name not in desc or (desc[f.name] is None and not self.strict and f.optional):
                values[f.name] = _DEFAULTS.get(f.type) if f.optional else self.problem(
                    field_path, f"{f.name}: missing required field")
            elif desc[f.name] is None:
                values[f.name] = self.problem(
                    field_path, f"{f.name} null: DxDispatch refuses null here (Expected a non-null JSON object)"
                                + ("; leave an optional field out instead" if f.optional else ""))
            else:
                values[f.name] = self.value(f, desc[f.name], field_path, values)
        self.counts(schema, values, path)
        if len(self.problems) > before:
            return _BAD
        return OperatorDesc(schema, values, fused)

    def counts(self, schema, values, path):
        """Each array's length against its count field: DirectML reads as many elements as the count says."""
        for f in schema.fields:
            if f.count_field is None or values[f.name] is _BAD or values[f.count_field] is _BAD:
                continue
            count, array = values[f.count_field], values[f.name]
            length = 0 if array is None else len(array)
            if (array is not None or count) and count != length:
                self.problem(join_path(path, f.name),
                             f"{f.name} has {length} element(s) but {f.count_field} is {count}: DirectML reads "
                             f"{f.count_field} elements of {f.name} (DxDispatch passes both as written and does not "
                             "compare them); make them agree")

    # ------------------------------------------------------------ one field

    def value(self, f, raw, path, values):
        kind = f.type
        if kind == "TENSOR_DESC":
            return self.tensor(raw, path)
        if kind == "TENSOR_DESC_ARRAY":
            items = self.array(f, raw, path)
            return items if items is _BAD else self.each(items, path, self.tensor)
        if kind == "OPERATOR_DESC":
            return self.operator(raw, path, fused=True)
        if kind == "OPERATOR_DESC_ARRAY":
            items = self.array(f, raw, path)
            return items if items is _BAD else self.each(items, path, lambda v, p: self.operator(v, p, fused=True))
        if kind == "SCALAR_UNION":
            return self.scalar_union(f, raw, path, values)
        if kind == "SCALE_BIAS":
            pair = self.members(raw, path, "DML_SCALE_BIAS", ("Scale", "Bias"), self.float32)
            return pair if pair is _BAD else ScaleBias(*pair)
        if kind == "SIZE_2D":
            pair = self.members(raw, path, "DML_SIZE_2D", ("Width", "Height"), self.uint32)
            return pair if pair is _BAD else Size2D(*pair)
        if kind == "BOOL" or f.reader == "ParseBoolField":
            if not isinstance(raw, bool):
                return self.problem(path, f"{f.name} {raw!r:.60}: expected true or false (DxDispatch reads it with "
                                          "ParseBoolField: Expected a bool)")
            return raw
        if f.enum is not None:
            return self.enum(f, raw, path)
        if kind.endswith("_ARRAY"):
            items = self.array(f, raw, path)
            return items if items is _BAD else self.numbers(f, items, path)
        return {"UINT": self.uint32, "UINT64": self.uint64, "INT": self.int32, "FLOAT": self.float32}[kind](
            raw, path, f.name)

    def tensor(self, raw, path):
        desc, problems = parse_tensor_desc(raw, path, self.strict, self.notes)
        self.problems += problems
        return _BAD if desc is None else desc

    def array(self, f, raw, path):
        if not isinstance(raw, list):
            return self.problem(path, f"{f.name} {raw!r:.60}: expected a JSON array (DxDispatch: Expected an "
                                      "array.)")
        return raw

    def each(self, items, path, read):
        values = tuple(read(item, join_path(path, i)) for i, item in enumerate(items))
        return _BAD if _BAD in values else values

    def numbers(self, f, items, path):
        """A UINT, INT or FLOAT array; the first element that does not fit is named (DxDispatch stops there)."""
        read = {"UINT_ARRAY": self.uint32, "INT_ARRAY": self.int32, "FLOAT_ARRAY": self.float32}[f.type]
        # Plain numbers are checked in bulk (a 1 MB model holds some 200,000); any other element is read alone.
        kinds = set(map(type, items))
        if f.type == "FLOAT_ARRAY" and kinds <= {int, float} and all(
                abs(v) <= 2**53 for v in items if type(v) is int):
            with np.errstate(over="ignore"):
                return tuple(np.array(items, dtype=np.float64).astype(np.float32).tolist())
        if f.type != "FLOAT_ARRAY" and kinds <= {int}:
            low, high = (0, UINT32_MAX) if f.type == "UINT_ARRAY" else INT32_RANGE
            if not items or low <= min(items) and max(items) <= high:
                return tuple(items)
        values = []
        for i, item in enumerate(items):
            value = read(item, join_path(path, i), f"{f.name}[{i}]")
            if value is _BAD:
                return _BAD
            values.append(value)
        return tuple(values)

    def enum(self, f, raw, path):
        """Parse<Enum>: the member named exactly, with or without the enum's prefix (strcmp)."""
        enum = schema_module().ENUMS[f.enum]
        names = enum.names
        name = raw[len(enum.prefix):] if isinstance(raw, str) and raw.startswith(enum.prefix) else raw
        if isinstance(name, str) and name in names:
            return name
        if not isinstance(raw, str):
            return self.problem(path, f"{f.name} {raw!r:.60}: expected a {enum.name} name (DxDispatch: "
                                      f"{enum.name} must be a string)")
        other = next((n for n in names if n.lower() == name.lower()), None)
        hint = f"; names are exact: {enum.prefix}{other}" if other else ""
        return self.problem(path, f"{f.name} {raw!r:.60}: expected one of {', '.join(names)}, optionally prefixed "
                                  f"with {enum.prefix}, spelled exactly (DxDispatch compares with strcmp){hint}")

    def members(self, raw, path, struct, keys, read):
        """A struct of two members written as an object (ParseDmlScaleBias, ParseDmlSize2d)."""
        if not isinstance(raw, dict):
            return self.problem(path, f"{raw!r:.60}: expected a JSON object {{{', '.join(keys)}}}, a {struct} "
                                      "(DxDispatch: Expected a non-null JSON object)")
        for key in raw:
            if key not in keys:
                self.unread(path, key, f"unknown field {key!r} of a {struct}")
        values = []
        for key in keys:
            if key not in raw:
                values.append(self.problem(join_path(path, key), f"{key}: missing required field of a {struct}"))
            else:
                values.append(read(raw[key], join_path(path, key), key))
        return _BAD if _BAD in values else tuple(values)

    # ------------------------------------------------------------ numbers

    def uint32(self, raw, path, name):
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= UINT32_MAX:
            return self.problem(path, f"{name} {raw!r:.60}: must be a JSON integer in [0, 2^32-1] (DxDispatch: "
                                      "Expected an unsigned integer; 1.0 is a double there)")
        return raw

    def uint64(self, raw, path, name):
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= UINT64_MAX:
            return self.problem(path, f"{name} {raw!r:.60}: must be a JSON integer in [0, 2^64-1] (DxDispatch: "
                                      "Expected an unsigned integer)")
        return raw

    def int32(self, raw, path, name):
        if isinstance(raw, bool) or not isinstance(raw, int) or not INT32_RANGE[0] <= raw <= INT32_RANGE[1]:
            return self.problem(path, f"{name} {raw!r:.60}: must be a JSON integer in [-2^31, 2^31-1] (DxDispatch: "
                                      "ParseInt32, a signed integer narrowed to 32 bits)")
        return raw

    def float32(self, raw, path, name):
        del name  # float_value names the value itself
        value = self.guarded(float_value, raw, path)
        return value if value is _BAD else _float32(value)

    # ------------------------------------------------------------ scalar unions

    def scalar_union(self, f, raw, path, values):
        """ParseDmlScalarUnionField: the union read in the data type its sibling field names (a field before it in
        every schema, required as the union is)."""
        type_field = f.scalar_union_type_field
        data_type = values[type_field]
        if data_type is _BAD:
            return _BAD  # the type field's own problem (missing or invalid) is recorded
        member = UNION_MEMBERS.get(data_type)
        if member is None:
            return self.problem(path, f"{f.name}: {type_field} {data_type} cannot be held in a DML_SCALAR_UNION "
                                      "(DxDispatch: Data type not supported for DML_SCALAR_UNION); use one of "
                                      + ", ".join(UNION_MEMBERS))
        if isinstance(raw, dict):
            for key in raw:
                if key != member:
                    self.unread(path, key, f"unknown field {key!r}: a {data_type} scalar union is read from "
                                           f"{member}")
            if member not in raw:
                return self.problem(join_path(path, member), f"{member}: missing required field: a {data_type} "
                                                             f"scalar union written as an object holds {member}")
            member_path = join_path(path, member)
            if data_type == "FLOAT16":
                # ParseUInt16Field: the half's 16 bits, any of them (NaN payloads included).
                bits = self.guarded(scalar, raw[member], "UINT16", member_path)
                return bits if bits is _BAD else ScalarUnion(data_type, int(bits).to_bytes(2, "little").ljust(8, b"\0"))
            value = self.guarded(scalar, raw[member], data_type, member_path)
        elif isinstance(raw, (int, float)) and not isinstance(raw, bool):
            value = self.guarded(scalar, raw, data_type, path)
        else:
            return self.problem(path, f"{f.name} {raw!r:.60}: expected a number or an object {{{member}: value}} "
                                      f"holding a {data_type} (DxDispatch: Expected a non-null JSON object or number)")
        return value if value is _BAD else scalar_union(data_type, value)


def read_operator_desc(obj, path="", strict=True, notes=None, fused=False):
    """(OperatorDesc or None, [Problem]) of a DML_OPERATOR_DESC written {Type, Desc} or with its fields inline, read
    as ParseDmlOperatorDesc reads it (`fused`: as a fused activation)."""
    reader = _Reader(strict, notes)
    desc = reader.operator(obj, path, fused)
    return (None if desc is _BAD else desc), reader.problems


def read_desc_fields(schema, desc, path="", strict=True, notes=None, skip=()):
    """(OperatorDesc or None, [Problem]) of the fields of operator `schema` in the JSON object `desc` (`skip`: keys
    beside the fields that are no fields, such as an inline desc's type)."""
    reader = _Reader(strict, notes)
    result = reader.fields(schema, desc, path, skip=skip)
    return (None if result is _BAD else result), reader.problems
