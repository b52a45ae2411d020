"""DirectML descs made from the schema for tests and benchmarks: a value of every field type for the packer's tests,
and runnable descs of many distinct operators for the worker's memory (ops.runtime.directml, docs/directml.md)."""

import numpy as np

from ops import schema
from ops.datatypes import NUMPY_DTYPES
from ops.runtime.directml import OperatorDesc
from ops.runtime.directml_check import packed_desc
from ops.tensor_desc import TensorDesc, round_up

TENSOR_TYPES = ("FLOAT32", "FLOAT16", "UINT32", "INT8", "UINT64", "INT16")
ACTIVATIONS = [OperatorDesc("ACTIVATION_ELU", {"Alpha": 0.5}), OperatorDesc("ACTIVATION_TANH"),
               OperatorDesc("ACTIVATION_SIGMOID"), OperatorDesc("ACTIVATION_LEAKY_RELU", {"Alpha": 0.125})]


def synthetic_tensor(position, owned=False):
    """A tensor desc telling its field apart: sizes, type, strides, flags and alignment all follow `position`."""
    sizes = (position + 1, 2, 3)
    strides = (6, 3, 1) if position % 2 else None
    data_type = TENSOR_TYPES[position % len(TENSOR_TYPES)]
    total = round_up(int(np.prod(sizes)) * np.dtype(NUMPY_DTYPES[data_type]).itemsize, 4)
    return TensorDesc(data_type, sizes, strides, "OWNED_BY_DML" if owned else "NONE", 3, total,
                      16 if position % 2 else 0)


def array_length(op, count_field):
    """How many elements the synthetic desc gives the arrays `count_field` counts: 2 to 4 by its position."""
    return 2 + [f.name for f in op.fields].index(count_field) % 3


def synthetic_desc(op, optional=True, nested=False, scalar_bytes=False):
    """An OperatorDesc of `op` (an OperatorSchema) with a distinct value of its type in every field, so a value
    packed at another field's offset shows. Count fields are left out (the packer fills them in); optional fields are
    given unless `optional` is False; `nested`: a fused activation's desc, its tensor fields left out. A scalar union
    is a number written as FLOAT16 (its type field says so), or 8 bytes with `scalar_bytes`."""
    type_fields = {f.scalar_union_type_field for f in op.fields if f.scalar_union_type_field}
    fields = {}
    for position, f in enumerate(op.fields):
        if f.counted_arrays or (f.optional and not optional) or (nested and f.is_tensor):
            continue
        if f.name in type_fields:
            fields[f.name] = "FLOAT16"
        elif f.type == "TENSOR_DESC":
            fields[f.name] = synthetic_tensor(position, owned=f.kind == schema.INPUT_TENSOR and position % 3 == 0)
        elif f.type == "TENSOR_DESC_ARRAY":
            fields[f.name] = [synthetic_tensor(position + k) for k in range(array_length(op, f.count_field))]
        elif f.type == "OPERATOR_DESC":
            fields[f.name] = OperatorDesc("ACTIVATION_LINEAR", {"Alpha": 0.25, "Beta": 0.75})
        elif f.type == "OPERATOR_DESC_ARRAY":
            fields[f.name] = ACTIVATIONS[:array_length(op, f.count_field)]
        elif f.type in ("UINT_ARRAY", "INT_ARRAY", "FLOAT_ARRAY"):
            sign = -1 if f.type == "INT_ARRAY" else 1
            kind = float if f.type == "FLOAT_ARRAY" else int
            fields[f.name] = [kind(sign * (10 * position + k + 1)) for k in range(array_length(op, f.count_field))]
        elif f.enum:
            fields[f.name] = schema.ENUMS[f.enum].names[-1]
        else:
            fields[f.name] = {
                "UINT": 1000 + position, "UINT64": 2**40 + position, "INT": -100 - position, "FLOAT": 0.5 + position,
                "BOOL": True, "SCALE_BIAS": (1.5 + position, -2.5 - position), "SIZE_2D": (7 + position, 9 + position),
                "SCALAR_UNION": bytes(range(position, position + 8)) if scalar_bytes else 2.5 + position,
            }[f.type]
    return OperatorDesc(op.name, fields)


def simple_operators():
    """Every operator whose desc holds only tensors of one shape, FLOAT attributes and an optional ScaleBias: the
    element-wise operators and activations, runnable from their schema alone (FLOAT attributes 0.5)."""
    allowed = {"TENSOR_DESC", "FLOAT", "SCALE_BIAS"}
    return [op for op in schema.SCHEMAS.values() if {f.type for f in op.fields} <= allowed
            and all(not f.optional for f in op.fields if f.is_tensor)]


def simple_desc(op, shape, dtype=np.float32):
    """`op` (one of simple_operators) on tensors of `shape`: each tensor field a packed desc of it, FLOATs 0.5."""
    fields = {f.name: packed_desc(shape, dtype) for f in op.fields if f.is_tensor}
    fields.update({f.name: 0.5 for f in op.fields if f.type == "FLOAT"})
    return OperatorDesc(op.name, fields)
