"""Export: a DxDispatch model reproducing a core call, and C++ source filling the DirectML structs."""

import math

import numpy as np

from ..operators.bitwise import bit_or
from ..datatypes import FLOAT_TYPES, type_name, unsigned_of_width
from ..operators.depth_space import depth_to_space, order_name, space_to_depth
from .dxdispatch import load_model
from ..errors import DescriptorError
from .levels import OPERATOR_PREFIX, operator_name
from ..operators.split_join import join, split
from .validate import normalized_dispatchable, operator_fields

_CORE_NAMES = {
    "depth_to_space": "DEPTH_TO_SPACE1",
    "space_to_depth": "SPACE_TO_DEPTH1",
    "bit_or": "ELEMENT_WISE_BIT_OR",
    "split": "SPLIT",
    "join": "JOIN",
}
_ATTRS = {
    "DEPTH_TO_SPACE1": ("block_size", "order"),
    "SPACE_TO_DEPTH1": ("block_size", "order"),
    "ELEMENT_WISE_BIT_OR": (),
    "SPLIT": ("axis", "sizes"),
    "JOIN": ("axis",),
}
# Resource names per bind point; array fields get an index appended.
_RESOURCE_NAMES = {
    "InputTensor": "input",
    "ATensor": "A",
    "BTensor": "B",
    "OutputTensor": "output",
    "InputTensors": "input",
    "OutputTensors": "output",
}


def export_operator_name(op):
    """'SPLIT' from a core function name (split, bit_or, ...) or a DirectML operator name."""
    if isinstance(op, str) and op.strip().lower() in _CORE_NAMES:
        return _CORE_NAMES[op.strip().lower()]
    return operator_name(op, "op")


def _canonical_nan_bits(dtype):
    return np.array([np.nan], dtype=dtype).view(unsigned_of_width(dtype.itemsize))[0]


def initial_values(array):
    """(initialValuesDataType, JSON values) that recreate `array`'s exact bits.

    Floats are written as numbers with "nan"/"inf"/"-inf" strings; a NaN whose bits differ from the
    canonical quiet NaN (which is what "nan" yields) forces the same-width unsigned type, so a desc
    reading the buffer as float still sees every bit unchanged.
    """
    data_type = type_name(array.dtype)
    flat = array.ravel()
    if data_type not in FLOAT_TYPES:
        return data_type, [int(v) for v in flat.tolist()]
    bits = flat.view(unsigned_of_width(flat.dtype.itemsize))
    nan = np.isnan(flat)
    if (bits[nan] != _canonical_nan_bits(flat.dtype)).any():
        return type_name(bits.dtype), [int(v) for v in bits.tolist()]
    words = {math.inf: "inf", -math.inf: "-inf"}
    return data_type, ["nan" if v != v else words.get(v, v) for v in flat.astype(np.float64).tolist()]


def _inputs_list(operator, inputs):
    if isinstance(inputs, np.ndarray):
        inputs = [inputs]
    if not isinstance(inputs, (list, tuple)) or not all(isinstance(x, np.ndarray) for x in inputs):
        raise DescriptorError("inputs: expected a numpy array or a list of numpy arrays")
    expected = {"ELEMENT_WISE_BIT_OR": 2, "JOIN": None}.get(operator, 1)
    if expected is not None and len(inputs) != expected:
        raise DescriptorError(f"inputs: {OPERATOR_PREFIX}{operator} takes {expected} input array(s), got {len(inputs)}")
    return list(inputs)


def _compute(operator, inputs, attrs):
    if operator == "DEPTH_TO_SPACE1":
        return [depth_to_space(inputs[0], attrs["block_size"], attrs.get("order", "DEPTH_COLUMN_ROW"))]
    if operator == "SPACE_TO_DEPTH1":
        return [space_to_depth(inputs[0], attrs["block_size"], attrs.get("order", "DEPTH_COLUMN_ROW"))]
    if operator == "ELEMENT_WISE_BIT_OR":
        return [bit_or(inputs[0], inputs[1])]
    if operator == "SPLIT":
        return split(inputs[0], attrs["axis"], attrs["sizes"])
    return [join(inputs, attrs["axis"])]


def _check_attrs(operator, attrs):
    if operator not in _ATTRS:
        raise DescriptorError(
            f"op {OPERATOR_PREFIX}{operator}: works on buffers through two descs, not on arrays; its model comes "
            "from ops.operators.identity.identity_model"
        )
    allowed = _ATTRS[operator]
    for key in attrs:
        if key not in allowed:
            raise DescriptorError(
                f"{key}: not an argument of {OPERATOR_PREFIX}{operator}; expected {', '.join(allowed) or 'none'}"
            )
    required = [a for a in allowed if a != "order"]
    for key in required:
        if key not in attrs:
            raise DescriptorError(f"{key}: missing argument for {OPERATOR_PREFIX}{operator}")


def _tensor_json(array):
    return {"DataType": type_name(array.dtype), "Sizes": [int(s) for s in array.shape]}


def model_for(op, inputs, **attrs):
    """A DxDispatch model (dict) whose run reproduces the core function's result for these inputs.

    Resources are named input/A/B/input0.. and output/output0..; the dispatchable is named after the
    operator in lower case; print commands follow the dispatch, one per output.
    """
    operator = export_operator_name(op)
    _check_attrs(operator, attrs)
    inputs = _inputs_list(operator, inputs)
    outputs = _compute(operator, inputs, attrs)

    resources, bindings, desc = {}, {}, {}
    arrays = {"input": list(inputs), "output": list(outputs)}
    for name, kind in operator_fields(operator).items():
        if kind in ("input", "output", "inputs", "outputs"):
            base = _RESOURCE_NAMES[name]
            role = "input" if kind.startswith("input") else "output"
            taken = [arrays[role].pop(0)] if kind in ("input", "output") else arrays[role]
            names = [base] if kind in ("input", "output") else [f"{base}{i}" for i in range(len(taken))]
            for resource, array in zip(names, taken):
                if role == "input":
                    data_type, values = initial_values(array)
                else:
                    data_type, values = type_name(array.dtype), {"valueCount": int(array.size), "value": 0}
                resources[resource] = {"initialValuesDataType": data_type, "initialValues": values}
            descs = [_tensor_json(a) for a in taken]
            desc[name] = descs[0] if kind in ("input", "output") else descs
            bindings[name] = names[0] if kind in ("input", "output") else names
            if kind in ("inputs", "outputs"):
                arrays[role] = []
        elif kind == "count":
            desc[name] = len(outputs) if name == "OutputCount" else len(inputs)
        elif kind == "block":
            desc[name] = attrs["block_size"]
        elif kind == "order":
            desc[name] = order_name(attrs.get("order", "DEPTH_COLUMN_ROW"))
        else:
            desc[name] = attrs["axis"]

    dispatchable = operator.lower()
    output_names = [n for n in resources if n.startswith("output")]
    return {
        "resources": resources,
        "dispatchables": {dispatchable: {"type": OPERATOR_PREFIX + operator, "desc": desc}},
        "commands": [{"type": "dispatch", "dispatchable": dispatchable, "bindings": bindings}]
        + [{"type": "print", "resource": n} for n in output_names],
    }


def normalize_model(model):
    """The model with every default filled (JSON-serializable dict); DescriptorError if it is refused."""
    return load_model(model)


# ---------------------------------------------------------------- C++


def _camel(name):
    return name[0].lower() + name[1:]


def _cpp_tensor(var, desc):
    lines = [f"const UINT {var}Sizes[{desc.DimensionCount}] = {{{', '.join(map(str, desc.Sizes))}}};"]
    strides = "nullptr"
    if desc.Strides is not None:
        lines.append(f"const UINT {var}Strides[{desc.DimensionCount}] = {{{', '.join(map(str, desc.Strides))}}};")
        strides = f"{var}Strides"
    buffer = f"{var}Buffer"
    lines += [
        f"DML_BUFFER_TENSOR_DESC {buffer} = {{}};",
        f"{buffer}.DataType = DML_TENSOR_DATA_TYPE_{desc.DataType};",
        f"{buffer}.Flags = DML_TENSOR_FLAG_{desc.Flags};",
        f"{buffer}.DimensionCount = {desc.DimensionCount};",
        f"{buffer}.Sizes = {var}Sizes;",
        f"{buffer}.Strides = {strides};",
        f"{buffer}.TotalTensorSizeInBytes = {desc.TotalTensorSizeInBytes};  // DMLCalcBufferTensorSize",
        f"{buffer}.GuaranteedBaseOffsetAlignment = {desc.GuaranteedBaseOffsetAlignment};",
    ]
    return lines


def _cpp_float(value):
    """A FLOAT literal of the float32 `value` becomes (INFINITY and NAN from <cmath>)."""
    value = float(np.float32(value))
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "-INFINITY"
    return f"{value!r}f"  # the float32 value exactly, as a double literal the compiler rounds back to it


def cpp_snippet(dispatchable):
    """C++ filling the DML_BUFFER_TENSOR_DESCs, DML_TENSOR_DESCs, the operator desc and DML_OPERATOR_DESC."""
    parsed = normalized_dispatchable(dispatchable, "6_4")
    operator = parsed.operator
    op_var = _camel("".join(p.capitalize() for p in operator.split("_"))) + "Desc"
    lines = [f"// {OPERATOR_PREFIX}{operator}: every field of the descriptor, ready for IDMLDevice::CreateOperator."]
    assignments = []
    for name, kind in operator_fields(operator).items():
        if kind in ("input", "output"):
            var = _camel(name)
            lines += _cpp_tensor(var, parsed.tensors[name])
            lines.append(f"const DML_TENSOR_DESC {var} = {{DML_TENSOR_TYPE_BUFFER, &{var}Buffer}};")
            assignments.append(f"{op_var}.{name} = &{var};")
        elif kind in ("inputs", "outputs"):
            var = _camel(name)
            descs = parsed.tensors[name]
            for i, desc in enumerate(descs):
                lines += _cpp_tensor(f"{var}{i}", desc)
            entries = ", ".join(f"{{DML_TENSOR_TYPE_BUFFER, &{var}{i}Buffer}}" for i in range(len(descs)))
            lines.append(f"const DML_TENSOR_DESC {var}[{len(descs)}] = {{{entries}}};")
            assignments.append(f"{op_var}.{name} = {var};")
        elif kind == "order":
            assignments.append(f"{op_var}.{name} = DML_DEPTH_SPACE_ORDER_{parsed.scalars[name]};")
        elif kind == "scale_bias" and parsed.scalars[name] is not None:
            scale_bias = parsed.scalars[name]
            lines.append(f"const DML_SCALE_BIAS scaleBias = {{{_cpp_float(scale_bias['Scale'])}, "
                         f"{_cpp_float(scale_bias['Bias'])}}};")
            assignments.append(f"{op_var}.{name} = &scaleBias;")
        elif kind == "scale_bias":
            assignments.append(f"{op_var}.{name} = nullptr;  // _Maybenull_: no scale or bias, a plain copy")
        else:
            assignments.append(f"{op_var}.{name} = {parsed.scalars[name]};")
    lines.append(f"DML_{operator}_OPERATOR_DESC {op_var} = {{}};")
    lines += assignments
    lines.append(f"const DML_OPERATOR_DESC operatorDesc = {{{OPERATOR_PREFIX}{operator}, &{op_var}}};")
    return "\n".join(lines) + "\n"
