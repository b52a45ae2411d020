"""Export: a DxDispatch model reproducing a core call, and C++ source filling the DirectML structs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..datatypes import FLOAT_TYPES, type_name, unsigned_of_width
from ..errors import DescriptorError
from ..operators import OPERATORS, operator
from ..operators.base import COUNT, ENUM, INPUT, INPUTS, OUTPUT, SCALE_BIAS, scale_bias_json
from .validate import normalized_dispatchable

# The core functions' names, which model_for also accepts for an operator.
_CORE_NAMES = {op.core_name: op.name for op in OPERATORS.values() if op.core_name}


def export_operator_name(op):
    """'SPLIT' from a core function name (split, bit_or, ...) or a DirectML operator name."""
    if isinstance(op, str) and op.strip().lower() in _CORE_NAMES:
        return _CORE_NAMES[op.strip().lower()]
    return operator(op, "op").name


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


def _inputs_list(spec, inputs):
    if isinstance(inputs, np.ndarray):
        inputs = [inputs]
    if not isinstance(inputs, (list, tuple)) or not all(isinstance(x, np.ndarray) for x in inputs):
        raise DescriptorError("inputs: expected a numpy array or a list of numpy arrays")
    spec.check_arity(len(inputs))
    return list(inputs)


def _tensor_json(array):
    return {"DataType": type_name(array.dtype), "Sizes": [int(s) for s in array.shape]}


def model_for(op: str, inputs: Sequence[np.ndarray], **attrs: Any) -> dict[str, Any]:
    """A DxDispatch model (dict) whose run reproduces the core function's result for these inputs.

    Resources are named after each tensor field (input/A/B, input0.., output/output0..); the dispatchable is named
    after the operator in lower case; print commands follow the dispatch, one per output.
    """
    spec = operator(export_operator_name(op))
    inputs = _inputs_list(spec, inputs)
    canonical = spec.canonical_attrs(attrs)
    outputs = spec.run(inputs, **canonical)

    resources, bindings, desc = {}, {}, {}
    arrays = {"input": list(inputs), "output": list(outputs)}
    for f in spec.fields:
        if f.is_tensor:
            role = "input" if f.is_input else "output"
            single = f.kind in (INPUT, OUTPUT)
            taken = [arrays[role].pop(0)] if single else arrays[role]
            names = [f.resource] if single else [f"{f.resource}{i}" for i in range(len(taken))]
            for resource, array in zip(names, taken):
                if role == "input":
                    data_type, values = initial_values(array)
                else:
                    data_type, values = type_name(array.dtype), {"valueCount": int(array.size), "value": 0}
                resources[resource] = {"initialValuesDataType": data_type, "initialValues": values}
            descs = [_tensor_json(a) for a in taken]
            desc[f.name] = descs[0] if single else descs
            bindings[f.name] = names[0] if single else names
            if not single:
                arrays[role] = []
        elif f.kind == COUNT:
            desc[f.name] = len(inputs) if spec.field(f.counts).kind == INPUTS else len(outputs)
        elif f.kind != SCALE_BIAS:
            desc[f.name] = canonical[f.attribute]
        elif canonical[f.attribute] is not None:
            desc[f.name] = scale_bias_json(canonical[f.attribute])

    dispatchable = spec.name.lower()
    output_names = [n for n in resources if n.startswith("output")]
    return {
        "resources": resources,
        "dispatchables": {dispatchable: {"type": spec.full_name, "desc": desc}},
        "commands": [{"type": "dispatch", "dispatchable": dispatchable, "bindings": bindings}]
        + [{"type": "print", "resource": n} for n in output_names],
    }


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


def cpp_snippet(dispatchable: dict[str, Any]) -> str:
    """C++ filling the DML_BUFFER_TENSOR_DESCs, DML_TENSOR_DESCs, the operator desc and DML_OPERATOR_DESC."""
    parsed = normalized_dispatchable(dispatchable, "6_4")
    spec = operator(parsed.operator)
    op_var = _camel("".join(p.capitalize() for p in spec.name.split("_"))) + "Desc"
    lines = [f"// {spec.full_name}: every field of the descriptor, ready for IDMLDevice::CreateOperator."]
    assignments = []
    for f in spec.fields:
        var = _camel(f.name)
        if f.kind in (INPUT, OUTPUT):
            lines += _cpp_tensor(var, parsed.tensors[f.name])
            lines.append(f"const DML_TENSOR_DESC {var} = {{DML_TENSOR_TYPE_BUFFER, &{var}Buffer}};")
            assignments.append(f"{op_var}.{f.name} = &{var};")
        elif f.is_tensor:
            descs = parsed.tensors[f.name]
            for i, desc in enumerate(descs):
                lines += _cpp_tensor(f"{var}{i}", desc)
            entries = ", ".join(f"{{DML_TENSOR_TYPE_BUFFER, &{var}{i}Buffer}}" for i in range(len(descs)))
            lines.append(f"const DML_TENSOR_DESC {var}[{len(descs)}] = {{{entries}}};")
            assignments.append(f"{op_var}.{f.name} = {var};")
        elif f.kind == ENUM:
            assignments.append(f"{op_var}.{f.name} = {f.enum.prefix}{parsed.scalars[f.name]};")
        elif f.kind == SCALE_BIAS and parsed.scalars[f.name] is not None:
            scale_bias = parsed.scalars[f.name]
            lines.append(f"const DML_SCALE_BIAS scaleBias = {{{_cpp_float(scale_bias['Scale'])}, "
                         f"{_cpp_float(scale_bias['Bias'])}}};")
            assignments.append(f"{op_var}.{f.name} = &scaleBias;")
        elif f.kind == SCALE_BIAS:
            assignments.append(f"{op_var}.{f.name} = nullptr;  // _Maybenull_: no scale or bias, a plain copy")
        else:
            assignments.append(f"{op_var}.{f.name} = {parsed.scalars[f.name]};")
    lines.append(f"{spec.desc_struct} {op_var} = {{}};")
    lines += assignments
    lines.append(f"const DML_OPERATOR_DESC operatorDesc = {{{spec.full_name}, &{op_var}}};")
    return "\n".join(lines) + "\n"
