"""DxDispatch models of DirectML operators the core does not model, for tests: ten written here with our own values
(`NAMED`), and one per schema generated from DirectML's schema alone (`synthetic_model`), every field present with a
value of its type. Both load as DxDispatch reads them; DirectML itself judges whether it runs them."""

from ops import schema


def _tensor(data_type, sizes, **extra):
    return {"DataType": data_type, "Sizes": list(sizes), **extra}


def _values(data_type, values):
    return {"initialValuesDataType": data_type, "initialValues": list(values)}


def _zeros(data_type, count):
    return {"initialValuesDataType": data_type, "initialValues": {"valueCount": count, "value": 0}}


def _model(resources, kind, desc, bindings, prints, init_bindings=None):
    dispatchable = {"type": kind, "desc": desc, **({"bindings": init_bindings} if init_bindings else {})}
    return {"resources": resources, "dispatchables": {"op": dispatchable},
            "commands": [{"type": "dispatch", "dispatchable": "op", "bindings": bindings}]
            + [{"type": "print", "resource": name} for name in prints]}


def _gemm(owned=False):
    b_desc = _tensor("FLOAT32", [1, 1, 2, 3], **({"Flags": "DML_TENSOR_FLAG_OWNED_BY_DML"} if owned else {}))
    desc = {"ATensor": _tensor("FLOAT32", [1, 1, 2, 3]), "BTensor": b_desc,
            "OutputTensor": _tensor("FLOAT32", [1, 1, 2, 2]),
            "TransA": "NONE", "TransB": "DML_MATRIX_TRANSFORM_TRANSPOSE", "Alpha": 0.5, "Beta": 2.0}
    resources = {"a": _values("FLOAT32", [3, -1, 2, 0.5, 4, -2]), "b": _values("FLOAT32", [1, 2, -3, 0, 0.25, 5]),
                 "out": _zeros("FLOAT32", 4)}
    bindings = {"ATensor": "a", "OutputTensor": "out"}
    if owned:
        return _model(resources, "DML_OPERATOR_GEMM", desc, bindings, ["out"], {"BTensor": "b"})
    desc["CTensor"] = _tensor("FLOAT32", [1, 1, 2, 2])
    resources["c"] = _values("FLOAT32", [1, -1, 0.5, 7])
    return _model(resources, "DML_OPERATOR_GEMM", desc, {**bindings, "BTensor": "b", "CTensor": "c"}, ["out"])


def _convolution():
    desc = {"InputTensor": _tensor("FLOAT32", [1, 1, 4, 4]), "FilterTensor": _tensor("FLOAT32", [2, 1, 3, 3]),
            "BiasTensor": _tensor("FLOAT32", [1, 2, 1, 1]), "OutputTensor": _tensor("FLOAT32", [1, 2, 4, 4]),
            "Mode": "DML_CONVOLUTION_MODE_CROSS_CORRELATION", "Direction": "FORWARD", "DimensionCount": 2,
            "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [1, 1], "EndPadding": [1, 1],
            "OutputPadding": [0, 0], "GroupCount": 1,
            "FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_LEAKY_RELU", "Desc": {"Alpha": 0.125}}}
    resources = {"x": {"initialValuesDataType": "FLOAT32",
                       "initialValues": {"valueCount": 16, "valueStart": -4, "valueDelta": 0.5}},
                 "w": _values("FLOAT32", [0, 1, 0, 1, -4, 1, 0, 1, 0, 0.5, 0, -0.5, 1, 0, -1, 0.5, 0, -0.5]),
                 "bias": _values("FLOAT32", [0.25, -1]), "y": _zeros("FLOAT32", 32)}
    bindings = {"InputTensor": "x", "FilterTensor": "w", "BiasTensor": "bias", "OutputTensor": "y"}
    return _model(resources, "DML_OPERATOR_CONVOLUTION", desc, bindings, ["y"])


def _rnn():
    # sequence 3, batch 1, input 2, hidden 2, one direction with its activation
    desc = {"InputTensor": _tensor("FLOAT32", [1, 3, 1, 2]), "WeightTensor": _tensor("FLOAT32", [1, 1, 2, 2]),
            "RecurrenceTensor": _tensor("FLOAT32", [1, 1, 2, 2]), "BiasTensor": _tensor("FLOAT32", [1, 1, 1, 4]),
            "OutputSequenceTensor": _tensor("FLOAT32", [3, 1, 1, 2]),
            "OutputSingleTensor": _tensor("FLOAT32", [1, 1, 1, 2]),
            "ActivationDescCount": 1, "ActivationDescs": [{"Type": "ACTIVATION_TANH"}], "Direction": "FORWARD"}
    resources = {"x": _values("FLOAT32", [0.5, -1, 1.5, 0.25, -0.75, 2]),
                 "w": _values("FLOAT32", [0.3, -0.2, 0.1, 0.4]), "r": _values("FLOAT32", [0.5, 0, -0.25, 0.6]),
                 "bias": _values("FLOAT32", [0.1, -0.1, 0.05, 0]), "sequence": _zeros("FLOAT32", 6),
                 "last": _zeros("FLOAT32", 2)}
    bindings = {"InputTensor": "x", "WeightTensor": "w", "RecurrenceTensor": "r", "BiasTensor": "bias",
                "OutputSequenceTensor": "sequence", "OutputSingleTensor": "last"}
    return _model(resources, "DML_OPERATOR_RNN", desc, bindings, ["sequence", "last"])


def _reduce():
    desc = {"Function": "DML_REDUCE_FUNCTION_MAX", "InputTensor": _tensor("FLOAT32", [1, 1, 2, 3]),
            "OutputTensor": _tensor("FLOAT32", [1, 1, 1, 3]), "AxisCount": 1, "Axes": [2]}
    resources = {"x": _values("FLOAT32", [2, -7, 9, 4, 1, -3]), "y": _zeros("FLOAT32", 3)}
    return _model(resources, "REDUCE", desc, {"InputTensor": "x", "OutputTensor": "y"}, ["y"])


def _clip1_float16():
    # Min as a number (rounded to FLOAT16 through float), Max as its 16 bits (0x3A00 = 0.75)
    desc = {"InputTensor": _tensor("FLOAT16", [1, 1, 2, 4]), "OutputTensor": _tensor("FLOAT16", [1, 1, 2, 4]),
            "MinMaxDataType": "FLOAT16", "Min": -0.3, "Max": {"UInt16": 0x3A00}}
    resources = {"x": _values("FLOAT16", [-1, -0.5, -0.25, 0, 0.5, 0.7, 0.8, 3]), "y": _zeros("FLOAT16", 8)}
    return _model(resources, "DML_OPERATOR_ELEMENT_WISE_CLIP1", desc, {"InputTensor": "x", "OutputTensor": "y"},
                  ["y"])


def _fill_value_sequence():
    desc = {"OutputTensor": _tensor("INT32", [1, 1, 2, 3]), "ValueDataType": "INT32", "ValueStart": -4,
            "ValueDelta": 3}
    return _model({"y": _zeros("INT32", 6)}, "DML_OPERATOR_FILL_VALUE_SEQUENCE", desc, {"OutputTensor": "y"}, ["y"])


def _upsample_2d():
    desc = {"InputTensor": _tensor("FLOAT32", [1, 1, 2, 2]), "OutputTensor": _tensor("FLOAT32", [1, 1, 4, 6]),
            "ScaleSize": {"Width": 3, "Height": 2}, "InterpolationMode": "DML_INTERPOLATION_MODE_LINEAR"}
    resources = {"x": _values("FLOAT32", [1, 4, -2, 8]), "y": _zeros("FLOAT32", 24)}
    return _model(resources, "DML_OPERATOR_UPSAMPLE_2D", desc, {"InputTensor": "x", "OutputTensor": "y"}, ["y"])


def _slice():
    desc = {"InputTensor": _tensor("UINT16", [1, 1, 4, 5]), "OutputTensor": _tensor("UINT16", [1, 1, 2, 2]),
            "DimensionCount": 4, "Offsets": [0, 0, 1, 0], "Sizes": [1, 1, 2, 2], "Strides": [1, 1, 2, 3]}
    resources = {"x": {"initialValuesDataType": "UINT16",
                       "initialValues": {"valueCount": 20, "valueStart": 100, "valueDelta": 7}},
                 "y": _zeros("UINT16", 4)}
    return _model(resources, "DML_OPERATOR_SLICE", desc, {"InputTensor": "x", "OutputTensor": "y"}, ["y"])


def _add1_elu():
    desc = {"ATensor": _tensor("FLOAT32", [2, 3]), "BTensor": _tensor("FLOAT32", [2, 3]),
            "OutputTensor": _tensor("FLOAT32", [2, 3]), "FusedActivation": {"Type": "ACTIVATION_ELU", "Alpha": 0.75}}
    resources = {"a": _values("FLOAT32", [-3, -1, 0, 0.5, 2, -0.25]),
                 "b": _values("FLOAT32", [1, -1.5, -2, 0.5, 1, 0]), "out": _zeros("FLOAT32", 6)}
    return _model(resources, "DML_OPERATOR_ELEMENT_WISE_ADD1", desc,
                  {"ATensor": "a", "BTensor": "b", "OutputTensor": "out"}, ["out"])


NAMED = {
    "gemm": _gemm, "convolution": _convolution, "rnn": _rnn, "reduce": _reduce, "clip1_float16": _clip1_float16,
    "fill_value_sequence": _fill_value_sequence, "upsample_2d": _upsample_2d, "slice": _slice,
    "add1_elu": _add1_elu, "owned_weights": lambda: _gemm(owned=True),
}


def named_model(name):
    """A fresh copy of one of the NAMED models."""
    return NAMED[name]()


# ---------------------------------------------------------------- one model per schema

ARRAY_LENGTH = 2  # every array, so every count field is 2
_SCALARS = {"UINT": 1, "UINT64": 1, "INT": -1, "FLOAT": 0.5, "UINT_ARRAY": [1] * ARRAY_LENGTH,
            "INT_ARRAY": [-1, 1], "FLOAT_ARRAY": [0.5, 0.25], "SCALE_BIAS": {"Scale": 2, "Bias": 0.5},
            "SIZE_2D": {"Width": 2, "Height": 3}, "SCALAR_UNION": 1.5, "BOOL": True}
SYNTHETIC_TENSOR = {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 4]}
FUSED = "ACTIVATION_LINEAR"  # an activation with fields of its own (Alpha, Beta)


def synthetic_value(field):
    """A value of the field's type DxDispatch reads: enums by their first name (FLOAT32 for a data type, which a
    scalar union can hold), the UINTs it reads as true/false as true, counts equal to every array's length."""
    if field.type == "TENSOR_DESC":
        return dict(SYNTHETIC_TENSOR)
    if field.type == "TENSOR_DESC_ARRAY":
        return [dict(SYNTHETIC_TENSOR) for _ in range(ARRAY_LENGTH)]
    if field.type == "OPERATOR_DESC":
        return {"Type": schema.PREFIX + FUSED, "Desc": synthetic_desc(schema.schema(FUSED), fused=True)}
    if field.type == "OPERATOR_DESC_ARRAY":
        return [synthetic_value(schema.schema("GEMM").field("FusedActivation")) for _ in range(ARRAY_LENGTH)]
    if field.enum == "DML_TENSOR_DATA_TYPE":
        return "FLOAT32"
    if field.enum is not None:
        return schema.ENUMS[field.enum].names[0]
    if field.reader == "ParseBoolField":
        return True
    if field.counted_arrays:
        return ARRAY_LENGTH
    return _SCALARS[field.type]


def synthetic_desc(operator_schema, fused=False):
    """Every field of the desc (a fused activation's tensors left out, as DxDispatch leaves them null)."""
    return {f.name: synthetic_value(f) for f in operator_schema.fields if not (fused and f.nulled_when_fused)}


def synthetic_model(operator_schema):
    """A model dispatching the operator once, one resource bound to each tensor (one per array element)."""
    desc = synthetic_desc(operator_schema)
    resources, bindings = {}, {}
    for f in operator_schema.inputs + operator_schema.outputs:
        names = [f"{f.name}{i}" for i in range(ARRAY_LENGTH)] if f.is_array else [f.name]
        for name in names:
            resources[name] = _values("FLOAT32", [0.5, -1, 2, 0])
        bindings[f.name] = names if f.is_array else names[0]
    outputs = [name for f in operator_schema.outputs for name in (bindings[f.name] if f.is_array
                                                                   else [bindings[f.name]])]
    return _model(resources, operator_schema.full_name, desc, bindings, outputs)
