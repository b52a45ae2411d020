"""Export: a DxDispatch model reproducing a core call, and C++ source filling the DirectML structs of any operator
of DirectML's schema (the normalized DxDispatch JSON of any model is ops.load_model's)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..datatypes import FLOAT_TYPES, NUMPY_DTYPES, type_name, unsigned_of_width
from ..errors import DescriptorError
from ..operators import OPERATORS, operator
from ..operators.base import INPUT, OUTPUT
from .operator_desc import UNION_MEMBERS, schema_module
from .validate import read_model_dispatchable

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
    # Every field but the tensors as the registry writes it (counts, arrays, a scalar union's type, ...).
    scalars = spec.dispatchable([a.shape for a in inputs], spec.data_type_of(inputs), canonical,
                                [o.shape for o in outputs])["desc"]
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
        elif f.name in scalars:  # a null ScaleBias (_Maybenull_) is left out
            desc[f.name] = scalars[f.name]

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


def _cpp_int(value, data_type):
    """An integer literal of `data_type` (the most negative values written as C++ needs them)."""
    bits = NUMPY_DTYPES[data_type].itemsize * 8
    if data_type.startswith("INT") and value == -(2 ** (bits - 1)):
        return f"({value + 1}{'LL' if bits == 64 else ''} - 1)"
    return f"{value}{ {'UINT64': 'ULL', 'INT64': 'LL'}.get(data_type, '')}"


def _cpp_scalar_union(target, value):
    """The DML_SCALAR_UNION member its data type is written through (the rest of the zeroed union stays 0)."""
    member = UNION_MEMBERS[value.data_type]
    if value.data_type == "FLOAT16":
        bits = int(value.array.view(np.uint16)[0])
        return f"{target}.{member} = 0x{bits:04X};  // FLOAT16 {value.value!r}, as its 16 bits"
    if value.data_type == "FLOAT64":
        number = value.value
        literal = ("NAN" if math.isnan(number) else ("INFINITY" if number > 0 else "-INFINITY")
                   if math.isinf(number) else repr(number))
        return f"{target}.{member} = {literal};"
    if value.data_type == "FLOAT32":
        return f"{target}.{member} = {_cpp_float(value.value)};"
    return f"{target}.{member} = {_cpp_int(value.value, value.data_type)};"


_ARRAY_TYPES = {"UINT_ARRAY": "UINT", "INT_ARRAY": "INT", "FLOAT_ARRAY": "FLOAT"}
_INT_TYPES = {"UINT": "UINT32", "UINT64": "UINT64", "INT": "INT32"}  # the data type each integer field's value fits


def _cpp_desc(desc, var, prefix=""):
    """C++ declaring `var`, the operator desc struct of `desc`, with every field in struct order: the arrays, tensor
    descs and nested operator descs it points to first, then the struct and its fields."""
    enums = schema_module().ENUMS
    lines, assignments = [], []
    for f in desc.schema.fields:
        value, target, name = desc.values[f.name], f"{var}.{f.name}", _camel(prefix + f.name)
        if value is None or (f.is_array and not value):
            why = ("a fused activation's tensors are null" if desc.fused and f.nulled_when_fused
                   else "optional, left out" if value is None else "no elements")
            assignments.append(f"{target} = nullptr;  // {why}")
        elif f.type == "TENSOR_DESC":
            lines += _cpp_tensor(name, value)
            lines.append(f"const DML_TENSOR_DESC {name} = {{DML_TENSOR_TYPE_BUFFER, &{name}Buffer}};")
            assignments.append(f"{target} = &{name};")
        elif f.type == "TENSOR_DESC_ARRAY":
            for i, tensor in enumerate(value):
                lines += _cpp_tensor(f"{name}{i}", tensor)
            entries = ", ".join(f"{{DML_TENSOR_TYPE_BUFFER, &{name}{i}Buffer}}" for i in range(len(value)))
            lines.append(f"const DML_TENSOR_DESC {name}[{len(value)}] = {{{entries}}};")
            assignments.append(f"{target} = {name};")
        elif f.type in ("OPERATOR_DESC", "OPERATOR_DESC_ARRAY"):
            nested = value if f.is_array else (value,)
            names = [f"{name}{i}" if f.is_array else name for i in range(len(nested))]
            for item, item_name in zip(nested, names):
                lines += _cpp_desc(item, f"{item_name}Desc", item_name[0].upper() + item_name[1:])
            entries = [f"{{{item.full_name}, &{item_name}Desc}}" for item, item_name in zip(nested, names)]
            if f.is_array:
                lines.append(f"const DML_OPERATOR_DESC {name}[{len(nested)}] = {{{', '.join(entries)}}};")
                assignments.append(f"{target} = {name};")
            else:
                lines.append(f"const DML_OPERATOR_DESC {name} = {entries[0]};")
                assignments.append(f"{target} = &{name};")
        elif f.type in _ARRAY_TYPES:
            items = [_cpp_float(v) for v in value] if f.type == "FLOAT_ARRAY" else [
                _cpp_int(v, "INT32" if f.type == "INT_ARRAY" else "UINT32") for v in value]
            lines.append(f"const {_ARRAY_TYPES[f.type]} {name}[{len(value)}] = {{{', '.join(items)}}};")
            assignments.append(f"{target} = {name};")
        elif f.type == "SCALE_BIAS":
            lines.append(f"const DML_SCALE_BIAS {name} = {{{_cpp_float(value.Scale)}, {_cpp_float(value.Bias)}}};")
            assignments.append(f"{target} = &{name};")
        elif f.type == "SIZE_2D":
            assignments.append(f"{target} = DML_SIZE_2D{{{value.Width}, {value.Height}}};")
        elif f.type == "SCALAR_UNION":
            assignments.append(_cpp_scalar_union(target, value))
        elif f.enum is not None:
            assignments.append(f"{target} = {enums[f.enum].prefix}{value};")
        elif isinstance(value, bool):
            assignments.append(f"{target} = {'TRUE' if value else 'FALSE'};")
        elif f.type == "FLOAT":
            assignments.append(f"{target} = {_cpp_float(value)};")
        else:
            assignments.append(f"{target} = {_cpp_int(value, _INT_TYPES[f.type])};")
    return lines + [f"{desc.schema.desc_struct} {var} = {{}};"] + assignments


def cpp_snippet(dispatchable: dict[str, Any]) -> str:
    """C++ filling the DML_BUFFER_TENSOR_DESCs, DML_TENSOR_DESCs, the operator desc (every field of DirectML's schema,
    nested fused activations included) and its DML_OPERATOR_DESC, for any DirectML operator; DescriptorError for a
    dispatchable that is not valid at feature level 6_4 (the core's operators by the registry's rules, any other by
    what DirectML's schema knows)."""
    read, _ = read_model_dispatchable(dispatchable, "6_4", strict=False)
    desc = read.desc
    op_var = _camel("".join(p.capitalize() for p in desc.name.split("_"))) + "Desc"
    lines = [f"// {desc.full_name}: every field of the descriptor, ready for IDMLDevice::CreateOperator."]
    lines += _cpp_desc(desc, op_var)
    lines.append(f"const DML_OPERATOR_DESC operatorDesc = {{{desc.full_name}, &{op_var}}};")
    return "\n".join(lines) + "\n"
