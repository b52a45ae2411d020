"""What DirectML needs beyond the schema's defaults, per operator: data, each rule with the API page it comes from
(MicrosoftDocs/sdk-api, sdk-api-src/content/directml/ns-directml-dml_<name>_operator_desc.md, read at commit
023cd99e; "page" below) and what that page says.

A Rule gives, by field name: `shapes` (a tensor's Sizes; a tensor array's list of them; "*" every tensor of the
operator; an optional tensor given a shape is included), `types` (DML_TENSOR_DATA_TYPE names, "*" for all),
`strides` (a broadcast tensor), `fields` (attribute values, or a tensor's whole TensorDesc), `values` (an input's
values: (low, high), or the buffer's values), and `diagnosis` (why DirectML refuses it here, where it does).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..runtime.directml.descs import OperatorDesc

DEFAULT_SHAPE = (1, 2, 2, 3)
# An array's elements by field name, where the rule does not give them: the identity geometry (a 1 x 1 window,
# stride and dilation 1, no padding, scale 1, pixel centres at half-pixel offsets).
ARRAY_DEFAULTS = {"Strides": 1, "Dilations": 1, "WindowSize": 1, "StartPadding": 0, "EndPadding": 0,
                  "OutputPadding": 0, "Scales": 1.0, "InputPixelOffsets": 0.5, "OutputPixelOffsets": -0.5,
                  "Repeats": 1, "Axes": 3, "Offsets": 0, "Sizes": 1}


@dataclasses.dataclass(frozen=True)
class Rule:
    source: str  # the page(s) and what they say
    shapes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    types: Mapping[str, str] = dataclasses.field(default_factory=dict)
    strides: Mapping[str, tuple] = dataclasses.field(default_factory=dict)
    fields: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    values: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    diagnosis: str = ""


def _rules():
    rules = {}

    def rule(names, source, **kw):
        for name in names.split():
            rules[name] = Rule(source, **kw)

    # ---- element-wise math whose domain is not [-1, 1)
    rule("ELEMENT_WISE_LOG ELEMENT_WISE_SQRT ELEMENT_WISE_RECIP", "page: the result is defined for positive inputs",
         values={"InputTensor": (0.125, 4.0)})
    rule("ELEMENT_WISE_ACOSH", "page: acosh(x) is defined for x >= 1", values={"InputTensor": (1.0, 4.0)})
    rule("ELEMENT_WISE_POW", "page: a negative base to a fractional exponent is NaN",
         values={"InputTensor": (0.125, 4.0), "ExponentTensor": (-2.0, 2.0)})
    rule("ELEMENT_WISE_CONSTANT_POW", "page: a negative base to a fractional exponent is NaN",
         values={"InputTensor": (0.125, 4.0)}, fields={"Exponent": 1.5})
    rule("ELEMENT_WISE_DIVIDE ELEMENT_WISE_MODULUS_FLOOR ELEMENT_WISE_MODULUS_TRUNCATE",
         "page: division by zero is not defined", values={"BTensor": (0.25, 2.0)})
    rule("ELEMENT_WISE_CLIP", "page: Min <= Max", fields={"Min": -0.5, "Max": 0.5})
    rule("ELEMENT_WISE_CLIP_GRAD", "page: Min <= Max", fields={"Min": -0.5, "Max": 0.5})
    rule("ELEMENT_WISE_CLIP1 ELEMENT_WISE_CLIP_GRAD1", "page: Min <= Max, written as MinMaxDataType",
         fields={"Min": -0.5, "Max": 0.5})
    # ---- logical, comparison and bitwise operators: integer tensors
    rule("ELEMENT_WISE_LOGICAL_AND ELEMENT_WISE_LOGICAL_OR ELEMENT_WISE_LOGICAL_XOR ELEMENT_WISE_LOGICAL_NOT",
         "page: tensor support: UINT8 (0 false, otherwise true)", types={"*": "UINT8"})
    rule("ELEMENT_WISE_LOGICAL_EQUALS ELEMENT_WISE_LOGICAL_GREATER_THAN ELEMENT_WISE_LOGICAL_LESS_THAN "
         "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL "
         "ELEMENT_WISE_IS_NAN ELEMENT_WISE_IS_INFINITY",
         "page: tensor support: OutputTensor UINT8", types={"OutputTensor": "UINT8"})
    rule("ELEMENT_WISE_BIT_AND ELEMENT_WISE_BIT_OR ELEMENT_WISE_BIT_XOR ELEMENT_WISE_BIT_NOT",
         "page: tensor support: integer types", types={"*": "UINT32"}, values={"*": (0, 2**31)})
    rule("ELEMENT_WISE_BIT_COUNT", "page: tensor support: OutputTensor UINT8",
         types={"InputTensor": "UINT32", "OutputTensor": "UINT8"})
    rule("ELEMENT_WISE_BIT_SHIFT_LEFT ELEMENT_WISE_BIT_SHIFT_RIGHT", "page: tensor support: integer types",
         types={"*": "UINT32"}, values={"ATensor": (0, 2**16), "BTensor": (0, 8)})
    rule("ELEMENT_WISE_IF", "page: ConditionTensor UINT8", types={"ConditionTensor": "UINT8"},
         values={"ConditionTensor": (0, 2)})
    rule("CAST", "page: any type to any type", types={"OutputTensor": "INT32"}, values={"InputTensor": (-4.0, 4.0)})
    rule("ACTIVATION_SOFTPLUS", "page: Steepness cannot be less than 1", fields={"Steepness": 1.0})
    rule("ACTIVATION_SOFTMAX ACTIVATION_LOG_SOFTMAX ACTIVATION_HARDMAX", "TRY", shapes={"*": (2, 3)})
    rule("ELEMENT_WISE_QUANTIZE_LINEAR", "page: Input, Output, Scale, ZeroPoint the same Sizes; Output UINT8",
         types={"OutputTensor": "UINT8"}, strides={"ScaleTensor": (0, 0, 0, 0)}, values={"ScaleTensor": (0.125, 0.25)})
    rule("ELEMENT_WISE_DEQUANTIZE_LINEAR", "page: Input, Output, Scale, ZeroPoint the same Sizes; Input UINT8",
         types={"InputTensor": "UINT8"}, strides={"ScaleTensor": (0, 0, 0, 0)}, values={"InputTensor": (0, 256)})
    rule("CONVOLUTION", "page: Filter {output channels, input channels / groups, height, width}",
         shapes={"InputTensor": (1, 2, 3, 4), "FilterTensor": (2, 2, 2, 2), "OutputTensor": (1, 2, 2, 3)})
    rule("GEMM", "page: A {.., M, K}, B {.., K, N}, Output {.., M, N}",
         shapes={"ATensor": (1, 1, 2, 3), "BTensor": (1, 1, 3, 4), "OutputTensor": (1, 1, 2, 4)})
    rule("REDUCE", "page: ARGMAX and ARGMIN write UINT32 indices; each reduced axis has size 1 in the output",
         fields={"Axes": [3]}, shapes={"OutputTensor": (1, 2, 2, 1)}, types={"OutputTensor": "UINT32"})
    rule("ARGMAX ARGMIN", "page: OutputTensor UINT32; each reduced axis has size 1 in the output",
         fields={"Axes": [3]}, shapes={"OutputTensor": (1, 2, 2, 1)}, types={"OutputTensor": "UINT32"})
    rule("SLICE", "page: DimensionCount is the input's; Output's Sizes are the window's divided by the strides",
         fields={"Offsets": [0, 0, 0, 1], "Sizes": [1, 2, 2, 2], "Strides": [1, 1, 1, 1]},
         shapes={"OutputTensor": (1, 2, 2, 2)})
    rule("SLICE1", "page: DimensionCount is the input's; a negative stride reads its window backwards",
         fields={"InputWindowOffsets": [0, 0, 0, 1], "InputWindowSizes": [1, 2, 2, 2],
                 "InputWindowStrides": [1, 1, 1, -1]}, shapes={"OutputTensor": (1, 2, 2, 2)})
    rule("SLICE_GRAD", "page: InputGradientTensor has the window's shape, OutputGradientTensor the input's",
         fields={"InputWindowOffsets": [0, 0, 0, 1], "InputWindowSizes": [1, 2, 2, 2],
                 "InputWindowStrides": [1, 1, 1, 1]}, shapes={"InputGradientTensor": (1, 2, 2, 2)})
    rule("SPLIT", "page: the outputs' sizes along Axis add up to the input's", fields={"Axis": 1},
         shapes={"OutputTensors": [(1, 1, 2, 3), (1, 1, 2, 3)]})
    rule("JOIN", "page: the inputs' sizes along Axis add up to the output's", fields={"Axis": 1},
         shapes={"InputTensors": [(1, 1, 2, 3), (1, 1, 2, 3)]})
    rule("PADDING", "page: DimensionCount is the input's; Output = Input + StartPadding + EndPadding",
         fields={"StartPadding": [0, 0, 1, 1], "EndPadding": [0, 0, 1, 0]}, shapes={"OutputTensor": (1, 2, 4, 4)})
    rule("PADDING1", "page: DimensionCount is the input's; Output = Input + StartPadding + EndPadding",
         fields={"StartPadding": [0, 0, 1, 1], "EndPadding": [0, 0, 1, 0], "PaddingValue": 0.5},
         shapes={"OutputTensor": (1, 2, 4, 4)})
    rule("VALUE_SCALE_2D", "TRY", shapes={"*": (1, 3, 2, 3)}, fields={"Bias": [0.5, -0.25, 1.0]})
    rule("GATHER", "page: output rank q + (r - 1); TRY", shapes={"InputTensor": (1, 1, 4, 3), "IndicesTensor": (1, 1, 1, 2),
         "OutputTensor": (1, 1, 2, 3)}, types={"IndicesTensor": "UINT32"}, fields={"Axis": 2},
         values={"IndicesTensor": (0, 4)})
    rule("TILE", "page: RepeatsCount is the input's DimensionCount; Output = Input x Repeats",
         fields={"Repeats": [1, 1, 2, 2]}, shapes={"OutputTensor": (1, 2, 4, 6)})
    rule("TOP_K TOP_K1", "page: the outputs have K along Axis; indices UINT32", fields={"Axis": 3, "K": 2},
         shapes={"OutputValueTensor": (1, 2, 2, 2), "OutputIndexTensor": (1, 2, 2, 2)},
         types={"OutputIndexTensor": "UINT32"})
    rule("RESAMPLE", "page: ScaleCount is the input's DimensionCount; Output = Input x Scales",
         fields={"Scales": [1.0, 1.0, 2.0, 2.0]}, shapes={"OutputTensor": (1, 2, 4, 6)})
    rule("RESAMPLE1 RESAMPLE2", "page: DimensionCount is the input's; Output = Input x Scales",
         fields={"Scales": [1.0, 1.0, 2.0, 2.0], "InputPixelOffsets": [0.5] * 4, "OutputPixelOffsets": [-0.5] * 4},
         shapes={"OutputTensor": (1, 2, 4, 6)})
    rule("RESAMPLE_GRAD RESAMPLE_GRAD1", "page: InputGradientTensor has the resampled shape",
         fields={"Scales": [1.0, 1.0, 2.0, 2.0], "InputPixelOffsets": [0.5] * 4, "OutputPixelOffsets": [-0.5] * 4},
         shapes={"InputGradientTensor": (1, 2, 4, 6)})
    rule("MAX_UNPOOLING", "TRY", shapes={"InputTensor": (1, 1, 2, 2), "IndicesTensor": (1, 1, 2, 2),
         "OutputTensor": (1, 1, 4, 4)}, types={"IndicesTensor": "UINT32"}, values={"IndicesTensor": [0, 3, 9, 14]})
    rule("SCATTER", "TRY", shapes={"InputTensor": (1, 1, 3, 3), "IndicesTensor": (1, 1, 2, 3),
         "UpdatesTensor": (1, 1, 2, 3), "OutputTensor": (1, 1, 3, 3)}, types={"IndicesTensor": "UINT32"},
         fields={"Axis": 2}, values={"IndicesTensor": [0, 2, 1, 2, 0, 0]})
    rule("ONE_HOT", "TRY", shapes={"IndicesTensor": (1, 1, 3, 1), "ValuesTensor": (1, 1, 1, 2),
         "OutputTensor": (1, 1, 3, 4)}, types={"IndicesTensor": "UINT32"}, fields={"Axis": 3},
         values={"IndicesTensor": [2, 0, 3], "ValuesTensor": [0.0, 1.0]})
    rule("GATHER_ELEMENTS", "TRY", types={"IndicesTensor": "UINT32"}, fields={"Axis": 1},
         values={"IndicesTensor": (0, 2)})
    rule("MATRIX_MULTIPLY_INTEGER", "TRY", shapes={"ATensor": (1, 1, 2, 3), "BTensor": (1, 1, 3, 4),
         "OutputTensor": (1, 1, 2, 4)}, types={"ATensor": "UINT8", "BTensor": "UINT8", "OutputTensor": "INT32"},
         values={"ATensor": (0, 256), "BTensor": (0, 256)})
    rule("CONVOLUTION_INTEGER", "TRY", shapes={"InputTensor": (1, 2, 3, 4), "FilterTensor": (2, 2, 2, 2),
         "OutputTensor": (1, 2, 2, 3)}, types={"InputTensor": "UINT8", "FilterTensor": "UINT8", "OutputTensor": "INT32"},
         values={"InputTensor": (0, 256), "FilterTensor": (0, 256)}, fields={"GroupCount": 1})
    rule("DYNAMIC_QUANTIZE_LINEAR", "TRY", shapes={"OutputScaleTensor": (1, 1, 1, 1),
         "OutputZeroPointTensor": (1, 1, 1, 1)}, types={"OutputTensor": "UINT8", "OutputZeroPointTensor": "UINT8"})
    rule("RNN", "TRY", shapes={"InputTensor": (1, 3, 2, 4), "WeightTensor": (1, 1, 5, 4),
         "RecurrenceTensor": (1, 1, 5, 5), "OutputSequenceTensor": (3, 1, 2, 5)},
         fields={"ActivationDescs": [OperatorDesc("ACTIVATION_TANH")]})
    rule("LSTM", "TRY", shapes={"InputTensor": (1, 3, 2, 4), "WeightTensor": (1, 1, 20, 4),
         "RecurrenceTensor": (1, 1, 20, 5), "OutputSequenceTensor": (3, 1, 2, 5)},
         fields={"ActivationDescs": [OperatorDesc("ACTIVATION_SIGMOID"), OperatorDesc("ACTIVATION_TANH"),
                                     OperatorDesc("ACTIVATION_TANH")]})
    rule("GRU", "TRY", shapes={"InputTensor": (1, 3, 2, 4), "WeightTensor": (1, 1, 15, 4),
         "RecurrenceTensor": (1, 1, 15, 5), "OutputSequenceTensor": (3, 1, 2, 5)},
         fields={"ActivationDescs": [OperatorDesc("ACTIVATION_SIGMOID"), OperatorDesc("ACTIVATION_TANH")]})
    one = (1, 1, 1, 1)
    rule("ROI_POOLING", "TRY", shapes={"InputTensor": (1, 2, 4, 4), "ROITensor": (1, 1, 2, 5),
         "OutputTensor": (2, 2, 2, 2)}, fields={"SpatialScale": 1.0, "PooledSize": (2, 2)},
         values={"ROITensor": [0, 0, 0, 3, 3, 0, 1, 1, 2, 3]})
    rule("REVERSE_SUBSEQUENCES", "TRY", shapes={"SequenceLengthsTensor": (1, 2, 2, 1)}, fields={"Axis": 3},
         types={"SequenceLengthsTensor": "UINT32"}, values={"SequenceLengthsTensor": (0, 4)})
    nd = dict(shapes={"InputTensor": (1, 1, 2, 3), "IndicesTensor": (1, 1, 2, 1), "OutputTensor": (1, 1, 2, 3)},
              types={"IndicesTensor": "UINT32"}, values={"IndicesTensor": [1, 0]})
    rule("GATHER_ND", "page: example 1 (1-D remapping), with leading ones", fields={"InputDimensionCount": 2,
         "IndicesDimensionCount": 2}, **nd)
    rule("GATHER_ND1", "page: example 1 (1-D remapping), with leading ones", fields={"InputDimensionCount": 2,
         "IndicesDimensionCount": 2, "BatchDimensionCount": 0}, **nd)
    rule("SCATTER_ND", "TRY", shapes={**nd["shapes"], "UpdatesTensor": (1, 1, 2, 3)}, types=nd["types"],
         values=nd["values"], fields={"InputDimensionCount": 2, "IndicesDimensionCount": 2})
    rule("RANDOM_GENERATOR", "page: InputStateTensor UINT32 {1,1,1,6}; OutputTensor UINT32",
         shapes={"InputStateTensor": (1, 1, 1, 6)}, types={"*": "UINT32"},
         values={"InputStateTensor": [0, 0, 0, 0, 0x1234, 0x5678]})
    rule("NONZERO_COORDINATES", "TRY", shapes={"OutputCountTensor": one, "OutputCoordinatesTensor": (1, 1, 12, 4)},
         types={"OutputCountTensor": "UINT32", "OutputCoordinatesTensor": "UINT32"})
    rule("ADAM_OPTIMIZER", "TRY", shapes={"TrainingStepTensor": one}, types={"TrainingStepTensor": "UINT32"},
         values={"TrainingStepTensor": [1]})
    roi = dict(shapes={"InputTensor": (1, 2, 4, 4), "ROITensor": (1, 1, 2, 4), "BatchIndicesTensor": (1, 1, 1, 2),
                       "OutputTensor": (2, 2, 2, 2)}, types={"BatchIndicesTensor": "UINT32"},
               values={"ROITensor": [0, 0, 3, 3, 1, 1, 2, 3], "BatchIndicesTensor": [0, 0]})
    rule("ROI_ALIGN ROI_ALIGN1", "TRY", **roi, fields={"SpatialScaleX": 1.0, "SpatialScaleY": 1.0, "ReductionFunction": "AVERAGE"})
    rule("ROI_ALIGN_GRAD", "TRY", shapes={"InputGradientTensor": (2, 2, 2, 2), "ROITensor": (1, 1, 2, 4),
         "BatchIndicesTensor": (1, 1, 1, 2), "OutputGradientTensor": (1, 2, 4, 4)}, types=roi["types"],
         values=roi["values"], fields={"SpatialScaleX": 1.0, "SpatialScaleY": 1.0, "ReductionFunction": "AVERAGE"})
    q8 = {"ATensor": "UINT8", "BTensor": "UINT8", "InputTensor": "UINT8", "FilterTensor": "UINT8"}
    rule("ELEMENT_WISE_QUANTIZED_LINEAR_ADD", "TRY", shapes={"AScaleTensor": one, "BScaleTensor": one,
         "OutputScaleTensor": one}, types={**q8, "OutputTensor": "UINT8"}, values={"ATensor": (0, 256),
         "BTensor": (0, 256), "AScaleTensor": (0.125, 0.25), "BScaleTensor": (0.125, 0.25),
         "OutputScaleTensor": (0.25, 0.5)})
    rule("QUANTIZED_LINEAR_MATRIX_MULTIPLY", "TRY", shapes={"ATensor": (1, 1, 2, 3), "BTensor": (1, 1, 3, 4),
         "OutputTensor": (1, 1, 2, 4), "AScaleTensor": one, "BScaleTensor": one, "OutputScaleTensor": one},
         types={**q8, "OutputTensor": "UINT8"}, values={"ATensor": (0, 256), "BTensor": (0, 256),
         "AScaleTensor": (0.125, 0.25), "BScaleTensor": (0.125, 0.25), "OutputScaleTensor": (2.0, 4.0)})
    rule("MATRIX_MULTIPLY_INTEGER_TO_FLOAT", "TRY", shapes={"ATensor": (1, 1, 2, 3), "BTensor": (1, 1, 3, 4),
         "OutputTensor": (1, 1, 2, 4), "AScaleTensor": one, "BScaleTensor": one}, types=q8,
         values={"ATensor": (0, 256), "BTensor": (0, 256)})
    rule("QUANTIZED_LINEAR_CONVOLUTION", "TRY", shapes={"InputTensor": (1, 2, 3, 4), "FilterTensor": (2, 2, 2, 2),
         "OutputTensor": (1, 2, 2, 3), "InputScaleTensor": one, "FilterScaleTensor": one, "OutputScaleTensor": one},
         types={**q8, "OutputTensor": "UINT8"}, values={"InputTensor": (0, 256), "FilterTensor": (0, 256),
         "InputScaleTensor": (0.125, 0.25), "FilterScaleTensor": (0.125, 0.25), "OutputScaleTensor": (2.0, 4.0)},
         fields={"GroupCount": 1})
    rule("QUANTIZED_LINEAR_AVERAGE_POOLING", "TRY", shapes={"InputScaleTensor": one, "OutputScaleTensor": one},
         types={"InputTensor": "UINT8", "OutputTensor": "UINT8"}, values={"InputTensor": (0, 256)})
    rule("MULTIHEAD_ATTENTION", "TRY", shapes={"QueryTensor": (1, 2, 4), "KeyTensor": (1, 3, 4),
         "ValueTensor": (1, 3, 4), "OutputTensor": (1, 2, 4)})
    rule("QUANTIZE DEQUANTIZE", "TRY", shapes={"QuantizationTensors": [one]})
    return rules


RULES: dict[str, Rule] = _rules()
