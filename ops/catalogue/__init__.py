"""A minimal valid example of every DirectML operator, generated from DirectML's schema (ops/schema).

Every field of an operator's desc gets a value from its schema type alone: a tensor FLOAT32 of DEFAULT_SHAPE, an
enum its first member, a UINT 1 (a UINT read from true/false: false), an INT 0, a FLOAT 0.5, a BOOL false, a Size2D
1 x 1, a scalar union 0.5 as FLOAT32, an array the length of its count (2) with each element its field name's
default (strides, dilations and windows 1, paddings 0, scales 1); optional tensors and fused activations are left
out. Where DirectML needs more (shapes that agree, index types, a real window), rules.py gives a small override per
operator, each with the API page and the sentence it comes from. Input values are seeded per operator: floats
uniform in [-1, 1), integers in [0, 3), unless the rule gives the operator's domain.

    from ops import catalogue
    example = catalogue.example("GEMM")
    example.desc                     # an ops.runtime.directml.OperatorDesc
    example.inputs["ATensor"]        # a numpy array of ATensor's logical shape
    example.buffers()                # the inputs' bytes by field name, as run_desc takes them
    catalogue.names()                # every schema name, in DML_OPERATOR_TYPE order
    example.model()                  # the same as a DxDispatch model: ops.run_model(..., runtime="directml") runs it

Nothing here runs anything: ops/runtime/catalogue.py runs an example on DirectML and its ONNX twin.
"""

from __future__ import annotations

import dataclasses
import functools
import zlib
from collections.abc import Mapping

import numpy as np

from .. import schema
from ..datatypes import NUMPY_DTYPES
from ..errors import DescriptorError
from ..runtime.directml.descs import OperatorDesc
from ..tensor_desc import TensorDesc, round_up, strided_read, strided_write
from .rules import ARRAY_DEFAULTS, ARRAY_LENGTHS, DEFAULT_SHAPE, RULES, Rule

PAGE = "MicrosoftDocs/sdk-api sdk-api-src/content/directml/ns-directml-dml_{name}_operator_desc.md"


@dataclasses.dataclass(frozen=True)
class Example:
    """One operator's example: its desc, its inputs' values (logical arrays by field name; a list for a tensor
    array) and the rule that shaped it (None: the schema's defaults alone)."""

    name: str
    desc: OperatorDesc
    inputs: Mapping
    rule: Rule | None

    @property
    def schema(self) -> schema.OperatorSchema:
        return schema.schema(self.name)

    @property
    def page(self) -> str:
        """The operator's API page (its desc struct's)."""
        return PAGE.format(name=self.name.lower())

    def tensor(self, name):
        """The TensorDesc (or list of them) of tensor field `name`, None when left out."""
        return self.desc.fields.get(name)

    def buffers(self) -> dict:
        """The inputs' buffers (TotalTensorSizeInBytes bytes each) by field name, as run_desc takes them."""
        return {name: [_buffer(a, t) for a, t in zip(value, self.tensor(name))] if isinstance(value, list)
                else _buffer(value, self.tensor(name)) for name, value in self.inputs.items()}

    def model(self) -> dict:
        """The example as a DxDispatch model: a resource per tensor (an input holding its buffer's values, an
        output zeros), named after its field, the dispatchable named after the operator, a print per output."""
        op = self.schema
        resources, bindings = {}, {}
        for f in op.inputs + op.outputs:
            tensors = self.tensor(f.name)
            if tensors is None:
                continue
            listed = tensors if isinstance(tensors, list) else [tensors]
            names = [f"{f.name}{i}" for i in range(len(listed))] if isinstance(tensors, list) else [f.name]
            values = self.inputs.get(f.name)
            for i, (name, t) in enumerate(zip(names, listed)):
                if f.kind == schema.INPUT_TENSOR:
                    array = values[i] if isinstance(values, list) else values
                    flat = strided_write(np.zeros(buffer_elements(t), t.dtype), array, t.Strides)
                    initial = [v.item() for v in flat]
                else:
                    initial = {"valueCount": buffer_elements(t), "value": 0}
                resources[name] = {"initialValuesDataType": t.DataType, "initialValues": initial}
            bindings[f.name] = names if isinstance(tensors, list) else names[0]
        prints = [{"type": "print", "resource": n} for f in op.outputs if f.name in bindings
                  for n in (bindings[f.name] if isinstance(bindings[f.name], list) else [bindings[f.name]])]
        name = op.name.lower()
        return {"resources": resources,
                "dispatchables": {name: {"type": op.full_name, "desc": _desc_json(op, self.desc.fields)}},
                "commands": [{"type": "dispatch", "dispatchable": name, "bindings": bindings}] + prints}


def names() -> tuple[str, ...]:
    """Every operator of the schema, in DML_OPERATOR_TYPE order."""
    return tuple(schema.SCHEMAS)


@functools.lru_cache(maxsize=None)
def example(name) -> Example:
    """The example of operator `name` (as ops.schema.schema takes it)."""
    op = schema.schema(name)
    rule = RULES.get(op.name)
    return _generate(op, rule or Rule(""), rule)


def examples() -> tuple[Example, ...]:
    return tuple(example(name) for name in names())


def _generate(op, rule, given_rule):
    rng = np.random.default_rng(zlib.crc32(op.name.encode()))
    type_fields = {f.scalar_union_type_field for f in op.fields if f.scalar_union_type_field}
    fields, inputs = {}, {}
    for f in op.fields:
        if f.name in rule.fields:
            value = rule.fields[f.name]
        elif f.is_tensor:
            value = _tensors(f, rule)
        elif f.optional or f.counted_arrays:
            continue  # a fused activation left out; a count filled in by the packer from its arrays
        elif f.name in type_fields:
            value = "FLOAT32"
        else:
            value = _attribute(f)
        if value is None:
            continue
        fields[f.name] = _as_float32(f, value)
        if f.kind == schema.INPUT_TENSOR:
            spec = rule.values.get(f.name, rule.values.get("*"))
            inputs[f.name] = [_values(t, spec, rng) for t in value] if isinstance(value, list) \
                else _values(value, spec, rng)
    return Example(op.name, OperatorDesc(op.name, fields), inputs, given_rule)


def _tensors(f, rule):
    """The TensorDesc (or list) of tensor field `f`: its rule's shape and type, else DEFAULT_SHAPE, FLOAT32; None
    for an optional tensor the rule does not give."""
    shape = rule.shapes.get(f.name, rule.shapes.get("*") if not f.optional else None)
    if shape is None and f.optional:
        return None
    shape = DEFAULT_SHAPE if shape is None else shape
    data_type = rule.types.get(f.name, rule.types.get("*", "FLOAT32"))
    strides = rule.strides.get(f.name)
    if f.type == "TENSOR_DESC_ARRAY":
        return [tensor_desc(s, data_type) for s in shape]
    return tensor_desc(shape, data_type, strides)


def tensor_desc(sizes, data_type, strides=None, flags="NONE") -> TensorDesc:
    """A TensorDesc of `sizes` and `data_type` whose buffer holds exactly what it reads (packed unless `strides`)."""
    sizes = tuple(int(s) for s in sizes)
    itemsize = NUMPY_DTYPES[data_type].itemsize
    t = TensorDesc(data_type, sizes, None if strides is None else tuple(int(s) for s in strides), flags, len(sizes))
    return dataclasses.replace(t, TotalTensorSizeInBytes=round_up(buffer_elements(t) * itemsize, 4))


def buffer_elements(t: TensorDesc) -> int:
    """How many elements the tensor's buffer holds that it reads (its last element's offset + 1)."""
    if t.Strides is None:
        return int(np.prod(t.Sizes))
    return 1 + sum((s - 1) * d for s, d in zip(t.Sizes, t.Strides))


def _as_float32(f, value):
    """A FLOAT attribute (or array, or ScaleBias) as the float32 DirectML receives, so the example's desc and its
    DxDispatch model (read as float32) hold the same values."""
    if f.type in ("FLOAT", "FLOAT_ARRAY", "SCALE_BIAS"):
        return float(np.float32(value)) if f.type == "FLOAT" else [float(v) for v in np.float32(value)]
    return value


def _desc_json(op, fields):
    """A desc's fields as DxDispatch's JSON holds them, counts written out (DxDispatch requires them)."""
    counts = {f.name: len(fields[f.counted_arrays[0]]) for f in op.fields
              if f.counted_arrays and fields.get(f.counted_arrays[0]) is not None}
    out = {}
    for f in op.fields:
        value = counts.get(f.name, fields.get(f.name))
        if value is None:
            continue
        out[f.name] = _json_value(f, value)
    return out


def _json_value(f, value):
    if isinstance(value, TensorDesc):
        return _tensor_json(value)
    if isinstance(value, OperatorDesc):
        nested = schema.schema(value.type)
        return {"Type": nested.name, **_desc_json(nested, value.fields)}
    if f.type == "SCALE_BIAS":
        return dict(zip(("Scale", "Bias"), value))
    if f.type == "SIZE_2D":
        return dict(zip(("Width", "Height"), value))
    if isinstance(value, (list, tuple)):
        return [_json_value(f, v) for v in value]
    return value


def _tensor_json(t):
    json = t.to_json()
    if t.Strides is not None:  # to_json leaves packed strides out; a broadcast tensor's are not packed
        json["Strides"] = list(t.Strides)
    return json


def _attribute(f):
    if f.enum:
        return schema.ENUMS[f.enum].names[0]
    if f.is_array:
        if f.type == "OPERATOR_DESC_ARRAY":
            raise DescriptorError(f"{f.name}: an activation array needs a rule (rules.py)")
        default = ARRAY_DEFAULTS.get(f.name, 0)
        return [float(default) if f.type == "FLOAT_ARRAY" else int(default)] * ARRAY_LENGTHS.get(f.name, 2)
    if f.reader == "ParseBoolField":
        return False
    return {"UINT": 1, "UINT64": 1, "INT": 0, "FLOAT": 0.5, "BOOL": False, "SIZE_2D": (1, 1),
            "SCALAR_UNION": 0.5, "SCALE_BIAS": None}[f.type]


def _values(t, spec, rng):
    """The values of input tensor `t`: its logical array (Sizes), from `spec`: None (the defaults), (low, high) or
    explicit values (reshaped to the buffer's elements: a broadcast tensor's buffer is smaller than its Sizes)."""
    dtype = NUMPY_DTYPES[t.DataType]
    count = buffer_elements(t)
    if spec is not None and not isinstance(spec, tuple):
        flat = np.asarray(spec, dtype).reshape(-1)
        if flat.size != count:
            raise DescriptorError(f"rule values: {flat.size} values for a buffer of {count} elements")
    elif dtype.kind == "f":
        low, high = spec or (-1.0, 1.0)
        flat = rng.uniform(low, high, count).astype(dtype)
    else:
        low, high = spec or (0, 3)
        flat = rng.integers(low, high, count).astype(dtype)
    return strided_read(flat, t.Sizes, t.Strides)


def _buffer(array, t):
    """The buffer of tensor `t` holding logical `array` (written through its strides), TotalTensorSizeInBytes long."""
    flat = strided_write(np.zeros(buffer_elements(t), NUMPY_DTYPES[t.DataType]), array, t.Strides)
    data = flat.tobytes()
    return data + bytes(t.TotalTensorSizeInBytes - len(data))


__all__ = ["Example", "Rule", "buffer_elements", "example", "examples", "names", "tensor_desc"]
