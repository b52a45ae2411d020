"""What DirectML needs beyond the schema's defaults, per operator, as data. Each rule says where it comes from:
"page" is the operator's API page (MicrosoftDocs/sdk-api, sdk-api-src/content/directml/
ns-directml-dml_<name>_operator_desc.md, read through the search tools in November 2026), "twin" the ONNX operator
whose shapes the rule takes where the page gives none (most pages of the 1_0 operators list no shapes), "observed"
DirectML 1.13's own answers here (CreateOperator's E_INVALIDARG without the rule), "math" the function's domain.

A Rule gives, by field name: `shapes` (a tensor's Sizes; a tensor array's list of them; "*" every tensor of the
operator; an optional tensor given a shape is included), `types` (DML_TENSOR_DATA_TYPE names, "*" all tensors),
`strides` (a broadcast tensor), `fields` (attribute values), `values` (an input's values: (low, high), or its
buffer's elements; "*" all inputs).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..runtime.directml.descs import OperatorDesc

DEFAULT_SHAPE = (1, 2, 2, 3)
# An array's elements by field name where no rule gives them: the identity geometry (a 1 x 1 window, stride and
# dilation 1, no padding, scale 1, pixel centres at half-pixel offsets), the last axis.
ARRAY_DEFAULTS = {"Strides": 1, "Dilations": 1, "WindowSize": 1, "StartPadding": 0, "EndPadding": 0,
                  "OutputPadding": 0, "Scales": 1.0, "InputPixelOffsets": 0.5, "OutputPixelOffsets": -0.5,
                  "Axes": 3}
# An array's length where no rule gives it: 2 (the spatial dimensions of DEFAULT_SHAPE), one axis for Axes.
ARRAY_LENGTHS = {"Axes": 1}
ONE = (1, 1, 1, 1)


@dataclasses.dataclass(frozen=True)
class Rule:
    source: str
    shapes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    types: Mapping[str, str] = dataclasses.field(default_factory=dict)
    strides: Mapping[str, tuple] = dataclasses.field(default_factory=dict)
    fields: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    values: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def _rules():
    rules = {}

    def rule(names, source, **kw):
        for name in names.split():
            rules[name] = Rule(source, **kw)

    # ---- element-wise math outside [-1, 1)
    rule("ELEMENT_WISE_LOG ELEMENT_WISE_SQRT ELEMENT_WISE_RECIP", "math: defined for positive inputs",
         values={"InputTensor": (0.125, 4.0)})
    rule("ELEMENT_WISE_ACOSH", "math: acosh(x) is defined for x >= 1", values={"InputTensor": (1.0, 4.0)})
    rule("ELEMENT_WISE_POW", "math: a negative base to a fractional exponent is NaN",
         values={"InputTensor": (0.125, 4.0), "ExponentTensor": (-2.0, 2.0)})
    rule("ELEMENT_WISE_CONSTANT_POW", "math: a negative base to a fractional exponent is NaN",
         values={"InputTensor": (0.125, 4.0)}, fields={"Exponent": 1.5})
    rule("ELEMENT_WISE_DIVIDE ELEMENT_WISE_MODULUS_FLOOR ELEMENT_WISE_MODULUS_TRUNCATE",
         "math: a / b needs b not zero", values={"BTensor": (0.25, 2.0)})
    rule("ELEMENT_WISE_CLIP ELEMENT_WISE_CLIP_GRAD ELEMENT_WISE_CLIP1 ELEMENT_WISE_CLIP_GRAD1",
         "math: Min <= Max (the 5_0 versions' written as MinMaxDataType)", fields={"Min": -0.5, "Max": 0.5})
    rule("ACTIVATION_SOFTPLUS", "page: Steepness cannot be less than 1", fields={"Steepness": 1.0})
    rule("ACTIVATION_SOFTMAX ACTIVATION_LOG_SOFTMAX ACTIVATION_HARDMAX",
         "observed: the 1_0 versions refuse 4-D tensors and take {batch, n}, normalizing along n",
         shapes={"*": (2, 3)})
    # ---- logical, comparison, bitwise, casts: integer tensors
    rule("ELEMENT_WISE_LOGICAL_AND ELEMENT_WISE_LOGICAL_OR ELEMENT_WISE_LOGICAL_XOR ELEMENT_WISE_LOGICAL_NOT",
         "observed: FLOAT32 tensors are refused; UINT8 reads 0 as false, anything else as true", types={"*": "UINT8"})
    rule("ELEMENT_WISE_LOGICAL_EQUALS ELEMENT_WISE_LOGICAL_GREATER_THAN ELEMENT_WISE_LOGICAL_LESS_THAN "
         "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL "
         "ELEMENT_WISE_IS_NAN ELEMENT_WISE_IS_INFINITY", "observed: a FLOAT32 output is refused; UINT8 holds 1 or 0",
         types={"OutputTensor": "UINT8"})
    rule("ELEMENT_WISE_BIT_AND ELEMENT_WISE_BIT_OR ELEMENT_WISE_BIT_XOR ELEMENT_WISE_BIT_NOT",
         "observed: FLOAT32 tensors are refused", types={"*": "UINT32"}, values={"*": (0, 2**31)})
    rule("ELEMENT_WISE_BIT_COUNT", "observed: an integer input, a UINT8 output", types={"InputTensor": "UINT32",
                                                                      "OutputTensor": "UINT8"})
    rule("ELEMENT_WISE_BIT_SHIFT_LEFT ELEMENT_WISE_BIT_SHIFT_RIGHT",
         "observed: integer tensors; shifts kept below the width", types={"*": "UINT32"},
         values={"ATensor": (0, 2**16), "BTensor": (0, 8)})
    rule("ELEMENT_WISE_IF", "observed: ConditionTensor UINT8, 0 false", types={"ConditionTensor": "UINT8"},
         values={"ConditionTensor": (0, 2)})
    rule("CAST", "choice: FLOAT32 to INT32 shows how a cast rounds", types={"OutputTensor": "INT32"},
         values={"InputTensor": (-4.0, 4.0)})
    # ---- quantization
    rule("ELEMENT_WISE_QUANTIZE_LINEAR", "page: Input, Scale, ZeroPoint and Output of the same Sizes (Scale "
         "broadcast by strides 0); Output UINT8", types={"OutputTensor": "UINT8"},
         strides={"ScaleTensor": (0, 0, 0, 0)}, values={"ScaleTensor": (0.125, 0.25)})
    rule("ELEMENT_WISE_DEQUANTIZE_LINEAR", "page (QUANTIZE_LINEAR's, the other way): the same Sizes; Input UINT8",
         types={"InputTensor": "UINT8"}, strides={"ScaleTensor": (0, 0, 0, 0)},
         values={"InputTensor": (0, 256), "ScaleTensor": (0.125, 0.25)})
    rule("DYNAMIC_QUANTIZE_LINEAR", "page: OutputScaleTensor and OutputZeroPointTensor hold 1 element; Output "
         "and ZeroPoint UINT8", shapes={"OutputScaleTensor": ONE, "OutputZeroPointTensor": ONE},
         types={"OutputTensor": "UINT8", "OutputZeroPointTensor": "UINT8"})
    mm8, conv8 = {"ATensor": "UINT8", "BTensor": "UINT8"}, {"InputTensor": "UINT8", "FilterTensor": "UINT8"}
    mm_bytes, conv_bytes = {"ATensor": (0, 256), "BTensor": (0, 256)}, {"InputTensor": (0, 256),
                                                                         "FilterTensor": (0, 256)}
    mm_scales = {"AScaleTensor": (0.125, 0.25), "BScaleTensor": (0.125, 0.25), "OutputScaleTensor": (2.0, 4.0)}
    conv_scales = {"InputScaleTensor": (0.125, 0.25), "FilterScaleTensor": (0.125, 0.25),
                   "OutputScaleTensor": (2.0, 4.0)}
    matrices = {"ATensor": (1, 1, 2, 3), "BTensor": (1, 1, 3, 4), "OutputTensor": (1, 1, 2, 4)}
    convolution = {"InputTensor": (1, 2, 3, 4), "FilterTensor": (2, 2, 2, 2), "OutputTensor": (1, 2, 2, 3)}
    rule("ELEMENT_WISE_QUANTIZED_LINEAR_ADD", "twin: DequantizeLinear, Add, QuantizeLinear with one scale per "
         "tensor (Sizes 1 x 1 x 1 x 1); UINT8 tensors", shapes={"AScaleTensor": ONE, "BScaleTensor": ONE,
         "OutputScaleTensor": ONE}, types={**mm8, "OutputTensor": "UINT8"},
         values={**mm_bytes, **mm_scales, "OutputScaleTensor": (0.25, 0.5)})
    rule("MATRIX_MULTIPLY_INTEGER", "twin: MatMulInteger, A {M, K} x B {K, N} as 4-D; UINT8 in, INT32 out",
         shapes=matrices, types={**mm8, "OutputTensor": "INT32"}, values=mm_bytes)
    rule("QUANTIZED_LINEAR_MATRIX_MULTIPLY", "twin: QLinearMatMul with one scale per tensor; UINT8 tensors",
         shapes={**matrices, "AScaleTensor": ONE, "BScaleTensor": ONE, "OutputScaleTensor": ONE},
         types={**mm8, "OutputTensor": "UINT8"}, values={**mm_bytes, **mm_scales})
    rule("MATRIX_MULTIPLY_INTEGER_TO_FLOAT", "twin: MatMulInteger scaled by AScale x BScale; UINT8 in, FLOAT32 out",
         shapes={**matrices, "AScaleTensor": ONE, "BScaleTensor": ONE}, types=mm8,
         values={**mm_bytes, "AScaleTensor": (0.125, 0.25), "BScaleTensor": (0.125, 0.25)})
    rule("CONVOLUTION_INTEGER", "twin: ConvInteger, filter {output channels, input channels, 2, 2}; INT32 out",
         shapes=convolution, types={**conv8, "OutputTensor": "INT32"}, values=conv_bytes, fields={"GroupCount": 1})
    rule("QUANTIZED_LINEAR_CONVOLUTION", "twin: QLinearConv with one scale per tensor; UINT8 tensors",
         shapes={**convolution, "InputScaleTensor": ONE, "FilterScaleTensor": ONE, "OutputScaleTensor": ONE},
         types={**conv8, "OutputTensor": "UINT8"}, values={**conv_bytes, **conv_scales}, fields={"GroupCount": 1})
    rule("QUANTIZED_LINEAR_AVERAGE_POOLING", "twin: DequantizeLinear, AveragePool, QuantizeLinear; UINT8 tensors",
         shapes={"InputScaleTensor": ONE, "OutputScaleTensor": ONE}, types={"InputTensor": "UINT8",
         "OutputTensor": "UINT8"}, values={"InputTensor": (0, 256), "InputScaleTensor": (0.125, 0.25),
                                           "OutputScaleTensor": (0.125, 0.25)})
    # ---- matrices, convolutions, reductions
    rule("GEMM", "twin: Gemm, A {M, K} x B {K, N} as 4-D tensors",
         shapes=matrices)
    rule("CONVOLUTION", "twin: Conv, Filter {output channels, input channels / groups, height, width}, "
         "Output (Input - Filter) / Strides + 1 per spatial dimension", shapes=convolution)
    rule("REDUCE", "observed: each reduced axis keeps size 1 in the output; ARGMAX (the enum's first member) "
         "writes UINT32 indices", shapes={"OutputTensor": (1, 2, 2, 1)}, types={"OutputTensor": "UINT32"})
    rule("ARGMAX ARGMIN", "observed: OutputTensor UINT32, each reduced axis size 1",
         shapes={"OutputTensor": (1, 2, 2, 1)}, types={"OutputTensor": "UINT32"})
    rule("TOP_K TOP_K1", "twin: TopK, both outputs K elements along Axis; indices UINT32", fields={"Axis": 3, "K": 2},
         shapes={"OutputValueTensor": (1, 2, 2, 2), "OutputIndexTensor": (1, 2, 2, 2)},
         types={"OutputIndexTensor": "UINT32"})
    channel = (1, 2, 1, 1)
    rule("BATCH_NORMALIZATION", "twin: BatchNormalization, per channel (Spatial true), Mean, Variance, Scale and "
         "Bias {1, C, 1, 1}; Epsilon 0.00001, not the 0.5 default, which would dominate a unit variance",
         fields={"Spatial": True, "Epsilon": 1e-5}, shapes={"MeanTensor": channel, "VarianceTensor": channel,
                                                            "ScaleTensor": channel, "BiasTensor": channel},
         values={"VarianceTensor": (0.25, 2.0)})
    rule("LOCAL_RESPONSE_NORMALIZATION", "twin: LRN sums LocalSize neighbouring channels, which DirectML does with "
         "CrossChannel (otherwise a LocalSize x LocalSize window in the plane)", shapes={"*": (1, 4, 2, 3)},
         fields={"CrossChannel": True, "LocalSize": 3, "Alpha": 0.25, "Beta": 0.75, "Bias": 1.0})
    rule("LP_NORMALIZATION", "page: Epsilon avoids a division by zero, 0.00001 recommended; P 1 or 2",
         fields={"Epsilon": 1e-5, "P": 2})
    # ---- recurrent networks: {1, sequence, batch, input}, {1, directions, gates x hidden, input}
    recurrent = {"InputTensor": (1, 3, 2, 4), "OutputSequenceTensor": (3, 1, 2, 5)}
    rule("RNN", "twin: ONNX's RNN with a leading 1: Weight {1, directions, hidden, input}, Recurrence "
         "{1, directions, hidden, hidden}; one activation per direction",
         shapes={**recurrent, "WeightTensor": (1, 1, 5, 4), "RecurrenceTensor": (1, 1, 5, 5)},
         fields={"ActivationDescs": [OperatorDesc("ACTIVATION_TANH")]})
    rule("LSTM", "twin: ONNX's LSTM, four gates (4 x hidden rows); three activations per direction (f, g, h)",
         shapes={**recurrent, "WeightTensor": (1, 1, 20, 4), "RecurrenceTensor": (1, 1, 20, 5)},
         fields={"ActivationDescs": [OperatorDesc("ACTIVATION_SIGMOID"), OperatorDesc("ACTIVATION_TANH"),
                                     OperatorDesc("ACTIVATION_TANH")]})
    rule("GRU", "twin: ONNX's GRU, three gates (3 x hidden rows); two activations per direction (f, g)",
         shapes={**recurrent, "WeightTensor": (1, 1, 15, 4), "RecurrenceTensor": (1, 1, 15, 5)},
         fields={"ActivationDescs": [OperatorDesc("ACTIVATION_SIGMOID"), OperatorDesc("ACTIVATION_TANH")]})
    rule("MULTIHEAD_ATTENTION", "twin: Query {batch, sequence, hidden}, Key and Value {batch, key sequence, "
         "hidden}; the stacked and optional tensors left out", shapes={"QueryTensor": (1, 2, 4),
                                                                     "KeyTensor": (1, 3, 4), "ValueTensor": (1, 3, 4),
                                                                     "OutputTensor": (1, 2, 4)})
    # ---- data movement
    window = {"OutputTensor": (1, 2, 2, 2)}
    rule("SLICE", "twin: Slice, one offset, output size and stride per input dimension",
         fields={"Offsets": [0, 0, 0, 0], "Sizes": [1, 2, 2, 2], "Strides": [1, 1, 1, 2]}, shapes=window)
    rule("SLICE1", "twin: Slice with a negative step, which reads the window from its end", fields={
         "InputWindowOffsets": [0, 0, 0, 1], "InputWindowSizes": [1, 2, 2, 2], "InputWindowStrides": [1, 1, 1, -1]},
         shapes=window)
    rule("SLICE_GRAD", "observed: InputGradientTensor has the window's shape, OutputGradientTensor the input's",
         fields={"InputWindowOffsets": [0, 0, 0, 1], "InputWindowSizes": [1, 2, 2, 2],
                 "InputWindowStrides": [1, 1, 1, 1]}, shapes={"InputGradientTensor": (1, 2, 2, 2)})
    rule("SPLIT", "twin: Split, the outputs' sizes along Axis adding up to the input's", fields={"Axis": 1},
         shapes={"OutputTensors": [(1, 1, 2, 3), (1, 1, 2, 3)]})
    rule("JOIN", "twin: Concat, the inputs' sizes along Axis adding up to the output's", fields={"Axis": 1},
         shapes={"InputTensors": [(1, 1, 2, 3), (1, 1, 2, 3)]})
    padding = {"StartPadding": [0, 0, 1, 1], "EndPadding": [0, 0, 1, 0]}
    rule("PADDING", "twin: Pad, one start and end padding per dimension",
         fields=padding, shapes={"OutputTensor": (1, 2, 4, 4)})
    rule("PADDING1", "twin: Pad, PaddingValue written as PaddingValueDataType",
         fields={**padding, "PaddingValue": 0.5}, shapes={"OutputTensor": (1, 2, 4, 4)})
    rule("VALUE_SCALE_2D", "observed: ChannelCount (Bias's length) 2 is refused, 3 (an image's channels) runs",
         shapes={"*": (1, 3, 2, 3)}, fields={"Bias": [0.5, -0.25, 1.0]})
    rule("TILE", "twin: Tile, one repeat per input dimension", fields={"Repeats": [1, 1, 2, 2]},
         shapes={"OutputTensor": (1, 2, 4, 6)})
    resampled = {"OutputTensor": (1, 2, 4, 6)}
    offsets = {"InputPixelOffsets": [0.5] * 4, "OutputPixelOffsets": [-0.5] * 4}
    rule("RESAMPLE", "twin: Resize, one scale per dimension", fields={"Scales": [1.0, 1.0, 2.0, 2.0]},
         shapes=resampled)
    rule("RESAMPLE1 RESAMPLE2", "twin: Resize, one scale and pixel offset per dimension (0.5 and -0.5: "
         "half-pixel centres)", fields={"Scales": [1.0, 1.0, 2.0, 2.0], **offsets}, shapes=resampled)
    rule("RESAMPLE_GRAD RESAMPLE_GRAD1", "observed: InputGradientTensor has the resampled shape",
         fields={"Scales": [1.0, 1.0, 2.0, 2.0], **offsets}, shapes={"InputGradientTensor": (1, 2, 4, 6)})
    rule("GATHER", "page: Output's rank q + (r - 1), the indices' last IndexDimensions dimensions in place of Axis",
         shapes={"InputTensor": (1, 1, 4, 3), "IndicesTensor": (1, 1, 1, 2), "OutputTensor": (1, 1, 2, 3)},
         types={"IndicesTensor": "UINT32"}, fields={"Axis": 2}, values={"IndicesTensor": (0, 4)})
    rule("GATHER_ELEMENTS", "twin: GatherElements, indices of the output's shape within the input's Axis",
         types={"IndicesTensor": "UINT32"}, fields={"Axis": 1}, values={"IndicesTensor": (0, 2)})
    rule("SCATTER", "twin: ScatterElements; no index written twice (the result would depend on the order)",
         shapes={"InputTensor": (1, 1, 3, 3), "IndicesTensor": (1, 1, 2, 3), "UpdatesTensor": (1, 1, 2, 3),
                 "OutputTensor": (1, 1, 3, 3)}, types={"IndicesTensor": "UINT32"}, fields={"Axis": 2},
         values={"IndicesTensor": [0, 2, 1, 2, 0, 0]})
    nd = {"InputTensor": (1, 1, 2, 3), "IndicesTensor": (1, 1, 2, 1), "OutputTensor": (1, 1, 2, 3)}
    nd_fields = {"InputDimensionCount": 2, "IndicesDimensionCount": 2}
    rule("GATHER_ND", "page: example 1 (rows remapped), with leading ones", shapes=nd, fields=nd_fields,
         types={"IndicesTensor": "UINT32"}, values={"IndicesTensor": [1, 0]})
    rule("GATHER_ND1", "page: GATHER_ND's example 1, no batch dimensions", shapes=nd, types={"IndicesTensor":
         "UINT32"}, fields={**nd_fields, "BatchDimensionCount": 0}, values={"IndicesTensor": [1, 0]})
    rule("SCATTER_ND", "twin: ScatterND, GATHER_ND's shapes the other way", shapes={**nd, "UpdatesTensor":
         (1, 1, 2, 3)}, types={"IndicesTensor": "UINT32"}, fields=nd_fields, values={"IndicesTensor": [1, 0]})
    rule("ONE_HOT", "twin: OneHot; the indices have size 1 at Axis, where the output has the depth; Values "
         "{off, on}", shapes={"IndicesTensor": (1, 1, 3, 1), "ValuesTensor": (1, 1, 1, 2),
                              "OutputTensor": (1, 1, 3, 4)}, types={"IndicesTensor": "UINT32"}, fields={"Axis": 3},
         values={"IndicesTensor": [2, 0, 3], "ValuesTensor": [0.0, 1.0]})
    rule("MAX_UNPOOLING", "twin: MaxUnpool, each index the element's position in its output plane",
         shapes={"InputTensor": (1, 1, 2, 2), "IndicesTensor": (1, 1, 2, 2), "OutputTensor": (1, 1, 4, 4)},
         types={"IndicesTensor": "UINT32"}, values={"IndicesTensor": [0, 3, 9, 14]})
    rule("REVERSE_SUBSEQUENCES", "observed: SequenceLengthsTensor UINT32, the input's Sizes with 1 at Axis",
         shapes={"SequenceLengthsTensor": (1, 2, 2, 1)}, fields={"Axis": 3}, types={"SequenceLengthsTensor": "UINT32"},
         values={"SequenceLengthsTensor": (0, 4)})
    rule("NONZERO_COORDINATES", "observed: OutputCountTensor UINT32 {1, 1, 1, 1}; OutputCoordinatesTensor UINT32 "
         "{1, 1, elements, rank}", shapes={"OutputCountTensor": ONE, "OutputCoordinatesTensor": (1, 1, 12, 4)},
         types={"OutputCountTensor": "UINT32", "OutputCoordinatesTensor": "UINT32"})
    # ---- regions of interest
    regions = {"InputTensor": (1, 2, 4, 4), "ROITensor": (1, 1, 2, 4), "BatchIndicesTensor": (1, 1, 1, 2),
               "OutputTensor": (2, 2, 2, 2)}
    roi = dict(types={"BatchIndicesTensor": "UINT32"}, values={"ROITensor": [0, 0, 3, 3, 1, 1, 2, 3],
                                                               "BatchIndicesTensor": [0, 0]},
               fields={"SpatialScaleX": 1.0, "SpatialScaleY": 1.0, "ReductionFunction": "AVERAGE"})
    rule("ROI_POOLING", "twin: MaxRoiPool, each ROI [batch, x1, y1, x2, y2]; Output {ROIs, C, PooledSize}",
         shapes={"InputTensor": (1, 2, 4, 4), "ROITensor": (1, 1, 2, 5), "OutputTensor": (2, 2, 2, 2)},
         fields={"SpatialScale": 1.0, "PooledSize": (2, 2)}, values={"ROITensor": [0, 0, 0, 3, 3, 0, 1, 1, 2, 3]})
    rule("ROI_ALIGN ROI_ALIGN1", "page: ROITensor {1, 1, ROIs, 4} as [x1, y1, x2, y2], BatchIndicesTensor UINT32 "
         "{1, 1, 1, ROIs}, ReductionFunction AVERAGE or MAX", shapes=regions, **roi)
    rule("ROI_ALIGN_GRAD", "page (ROI_ALIGN's): the forward's shapes with the gradients swapped",
         shapes={"InputGradientTensor": (2, 2, 2, 2), "ROITensor": (1, 1, 2, 4), "BatchIndicesTensor": (1, 1, 1, 2),
                 "OutputGradientTensor": (1, 2, 4, 4)}, **roi)
    # ---- the rest
    rule("RANDOM_GENERATOR", "page: InputStateTensor UINT32 {1, 1, 1, 6}, a 128-bit counter then a 64-bit key; "
         "OutputTensor UINT32", shapes={"InputStateTensor": (1, 1, 1, 6)}, types={"*": "UINT32"},
         values={"InputStateTensor": [0, 0, 0, 0, 0x1234, 0x5678]})
    rule("ADAM_OPTIMIZER", "observed: TrainingStepTensor UINT32 {1, 1, 1, 1}", shapes={"TrainingStepTensor": ONE},
         types={"TrainingStepTensor": "UINT32"}, values={"TrainingStepTensor": [1]})
    rule("QUANTIZE DEQUANTIZE", "not run here (6_3): a scale per tensor",
         shapes={"QuantizationTensors": [ONE]})
    return rules


RULES: dict[str, Rule] = _rules()
