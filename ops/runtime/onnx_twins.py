"""DirectML operators' ONNX twins: the ONNX node (or small graph) computing what a DirectML desc computes, run on ONNX
Runtime (onnx.reference where ONNX Runtime has no kernel), and DirectML's output compared with it.

`TWINS` maps a schema name to a `Twin`: a builder writing the ONNX nodes from the desc's values (data: an op type
and attribute converters; a few small graphs where ONNX has no single op) and the `Tolerance` its comparison uses.
What every twin shares is done here once, from the schema, never by operator name: a ScaleBias field is applied to
InputTensor first (x * Scale + Bias, two roundings, as DirectML does: docs/directml.md), a fused activation (an
OPERATOR_DESC field) is applied after by its own twin, and each output is reshaped to its DirectML Sizes and cast to
its DataType.

    from ops.runtime import onnx_twins
    result = onnx_twins.compare(desc, inputs, outputs)   # logical arrays by field name, DirectML's outputs by name
    result.agrees, result.max_ulps, result.summary       # True, 0.5, "ONNX twin Gemm on ONNX Runtime agrees ..."

Each Tolerance below says what it allows and why, from the precision rules of what DirectML's shaders run on here:
exact for data movement, selection, comparisons and integer arithmetic; ULPs per element for +, -, * and division;
ULPs of max(|value|, 1) for exp, log, trigonometric functions and what is built on them (Vulkan bounds some of them
absolutely near zero, where an element's own ULP says nothing); ULPs of the output's largest magnitude for sums of
many terms (GEMM, convolution, reductions, normalizations, softmax, pooling averages, recurrences), whose terms may
cancel; one unit for integers rounded from float arithmetic.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping

import numpy as np
import onnx
from onnx import TensorProto, helper

from .. import schema
from ..datatypes import NUMPY_DTYPES
from ..errors import DescriptorError
from .directml.descs import OperatorDesc, pack

OPSET = 21


@dataclasses.dataclass(frozen=True)
class Tolerance:
    """How far DirectML's output may be from the twin's: `ulps` ULPs of float outputs (units of integer ones),
    measured per element (`floor` 0), in ULPs of max(|twin's value|, `floor`) (functions whose error bound is
    absolute near zero), or in ULPs of the output's largest magnitude (`largest`: sums whose terms may cancel)."""

    name: str
    ulps: float
    why: str
    floor: float = 0.0
    largest: bool = False

    @property
    def unit(self) -> str:
        if self.largest:
            return "ULPs of the output's largest magnitude"
        return f"ULPs of max(|value|, {self.floor:g})" if self.floor else "ULPs"


# Precision of the arithmetic DirectML's shaders run on here: Vulkan's "Precision and Operation of SPIR-V
# Instructions" (lavapipe is a Vulkan driver; vkd3d-proton translates DirectML's shaders to SPIR-V), and
# Direct3D's floating-point rules (learn.microsoft.com/windows/win32/direct3d11/floating-point-rules).
EXACT = Tolerance("exact", 0, "data movement, selection, comparisons and integer arithmetic: the same values")
ROUNDED = Tolerance("rounded", 2, "+, - and * are correctly rounded on Vulkan and within 0.5 ULP of the exact "
                                  "result on Direct3D (1 ULP from a correctly rounded one); a chain of two")
DIVIDED = Tolerance("divided", 4, "x / y is within 2.5 ULP on Vulkan, 1 / sqrt within 2, sqrt inherited from "
                                  "1 / inversesqrt(x)")
EXPONENTIAL = Tolerance("exponential", 16, "exp within 3 + 2|x| ULP, log within 3 ULP (2^-21 absolute in [0.5, 2]), "
                                           "pow inherited from exp2(y log2 x); the functions DirectML builds from "
                                           "them (hyperbolic, erf, sigmoid, softplus, ELU, GELU, tanh) inherit "
                                           "absolute error near zero", floor=1.0)
TRIGONOMETRIC = Tolerance("trigonometric", 4096, "sin and cos within 2^-11 absolute in [-pi, pi] (4096 ULPs of 1), "
                                                 "atan within 4096 ULP, asin and acos inherited from atan2, tan "
                                                 "from sin / cos", floor=1.0)
ACCUMULATED = Tolerance("accumulated", 64, "sums of many terms in another order (each addition within 1 ULP of "
                                           "the running sum), with the functions around them", largest=True)
QUANTIZED = Tolerance("quantized", 1, "integers rounded from float arithmetic: a value next to a halfway case may "
                                      "round either way")


@dataclasses.dataclass(frozen=True)
class Twin:
    """How to build the ONNX twin of one operator: `build(g)` adds nodes to the Graph `g` and returns the ONNX
    value of the single output, or {output field: value} (a list for a tensor array); None from `build` or a
    `DescriptorError` it raises means no twin for these settings (the message says why)."""

    build: Callable
    tolerance: Tolerance


class NoTwin(DescriptorError):
    """The operator has no ONNX twin, or none for these settings; the message says why."""


# ---------------------------------------------------------------- the graph a twin is written into


class Graph:
    """The ONNX graph being built for one desc. `v` holds the desc's packed values (enums as values, TensorDescs,
    counts filled in); `x(field)` is an input tensor as an ONNX graph input, `const`, `node` add to the graph."""

    def __init__(self, values, arrays, nodes=None, feeds=None, initializers=None, replaced=None):
        self.v = values
        self.arrays = arrays
        self.nodes = [] if nodes is None else nodes
        self.feeds = {} if feeds is None else feeds
        self.initializers = [] if initializers is None else initializers
        self.replaced = replaced or {}  # a fused activation's InputTensor: its operator's output

    def _name(self, stem):
        return f"{stem}_{len(self.nodes) + len(self.feeds) + len(self.initializers)}"

    def enum(self, field):
        """The member name an enum field holds."""
        return _member(self.v, field)

    def sizes(self, field):
        return tuple(self.v[field].Sizes)

    def given(self, field):
        return self.v.get(field) is not None

    def x(self, field, dtype=None, shape=None, transform=None):
        """Input tensor `field` as an ONNX value: its logical array, cast to `dtype`, reshaped, or transformed by
        `transform` (a function of the array) on the way in; a list for a tensor array."""
        if field in self.replaced:
            return self.replaced[field]
        value = self.arrays[field]
        if isinstance(value, list):
            return [self._feed(a, dtype, shape, transform, field) for a in value]
        return self._feed(value, dtype, shape, transform, field)

    def _feed(self, array, dtype, shape, transform, field):
        array = np.asarray(array)
        if transform is not None:
            array = transform(array)
        if dtype is not None:
            array = array.astype(dtype)
        if shape is not None:
            array = array.reshape(shape)
        name = self._name(field.replace("[", "_").replace("]", ""))
        self.feeds[name] = np.ascontiguousarray(array)
        return name

    def const(self, array, dtype=None):
        array = np.asarray(array, dtype)
        name = self._name("c")
        self.initializers.append(onnx.numpy_helper.from_array(array, name))
        return name

    def node(self, op, inputs, outputs=1, domain="", **attributes):
        names = [self._name(op) + (f"_{i}" if outputs > 1 else "") for i in range(outputs)]
        self.nodes.append(helper.make_node(op, list(inputs), names, domain=domain or None,
                                           **{k: v for k, v in attributes.items() if v is not None}))
        return names if outputs > 1 else names[0]

    def scalar_union(self, field):
        """A scalar union's value, read as the DML_TENSOR_DATA_TYPE its type field holds."""
        op = self.v["__schema__"]
        type_field = op.field(field).scalar_union_type_field
        dtype = NUMPY_DTYPES[_member(self.v, type_field)]
        return np.frombuffer(self.v[field][:dtype.itemsize], dtype)[0]

    def chain(self, *steps, start="InputTensor"):
        """A unary pipeline: each step (op, {attributes}, [constant inputs after the running value])."""
        current = self.x(start)
        for op, attributes, constants in steps:
            current = self.node(op, [current] + [self.const(c, np.float32) for c in constants], **attributes)
        return current


def _member(values, field):
    op = values["__schema__"]
    return schema.ENUMS[op.field(field).enum].member(values[field])


# ---------------------------------------------------------------- twins as data: small builders


def unary(op, **attributes):
    return lambda g: g.node(op, [g.x("InputTensor")], **{k: f(g.v) if callable(f) else f
                                                        for k, f in attributes.items()})


def binary(op, a="ATensor", b="BTensor", **attributes):
    return lambda g: g.node(op, [g.x(a), g.x(b)], **attributes)


def logical(op, inputs=("ATensor", "BTensor")):
    """DirectML's logical operators read 0 as false and anything else as true."""
    return lambda g: g.node(op, [g.x(name, bool) for name in inputs])


def attr(field, convert=None):
    """An attribute converter: the desc's value of `field`, converted."""
    return lambda v: v[field] if convert is None else convert(v[field])


def _float_const(g, field):
    return g.const(np.float32(g.v[field]))


def _clip(g):
    return g.node("Clip", [g.x("InputTensor"), _float_const(g, "Min"), _float_const(g, "Max")])


def _clip1(g):
    dtype = g.arrays["InputTensor"].dtype
    return g.node("Clip", [g.x("InputTensor"), g.const(g.scalar_union("Min"), dtype),
                           g.const(g.scalar_union("Max"), dtype)])


def _round(g):
    if g.enum("RoundingMode") != "HALVES_TO_NEAREST_EVEN":
        raise NoTwin(f"ONNX's Round rounds halves to even; RoundingMode {g.enum('RoundingMode')} has no twin")
    return g.node("Round", [g.x("InputTensor")])


def _is_infinity(g):
    mode = g.enum("InfinityMode")
    return g.node("IsInf", [g.x("InputTensor")], detect_positive=int(mode != "NEGATIVE"),
                  detect_negative=int(mode != "POSITIVE"))


def _zero_point(g, field, like):
    """A zero point input, or 0 of its tensor's type where the desc leaves it out."""
    return g.x(field) if g.given(field) else g.const(np.zeros((), g.arrays[like].dtype if like in g.arrays else
                                                              NUMPY_DTYPES[g.v[like].DataType]))


def _quantize_linear(g):
    # f = clamp(round(x / scale) + zero point): ONNX's QuantizeLinear takes a scalar or per-axis scale, DirectML a
    # tensor of the input's Sizes, so the twin is its formula in ONNX operators.
    out = NUMPY_DTYPES[g.v["OutputTensor"].DataType]
    info = np.iinfo(out)
    rounded = g.node("Round", [g.node("Div", [g.x("InputTensor"), g.x("ScaleTensor")])])
    if g.given("ZeroPointTensor"):
        rounded = g.node("Add", [rounded, g.x("ZeroPointTensor", np.float32)])
    return g.node("Clip", [rounded, g.const(np.float32(info.min)), g.const(np.float32(info.max))])


def _dequantize_linear(g):
    x = g.x("InputTensor", np.float32)
    if g.given("ZeroPointTensor"):
        x = g.node("Sub", [x, g.x("ZeroPointTensor", np.float32)])
    return g.node("Mul", [x, g.x("ScaleTensor")])


def _linear(g):
    return g.chain(("Mul", {}, [g.v["Alpha"]]), ("Add", {}, [g.v["Beta"]]))


def _parametric_softplus(g):
    return g.chain(("Mul", {}, [g.v["Beta"]]), ("Softplus", {}, []), ("Mul", {}, [g.v["Alpha"]]))


def _scaled_tanh(g):
    return g.chain(("Mul", {}, [g.v["Beta"]]), ("Tanh", {}, []), ("Mul", {}, [g.v["Alpha"]]))


def _softplus(g):
    s = g.v["Steepness"]
    return g.chain(("Mul", {}, [s]), ("Softplus", {}, []), ("Div", {}, [s]))


def _swish(g):
    x = g.x("InputTensor")
    scaled = g.node("Mul", [x, _float_const(g, "SigmoidInputScale")])
    return g.node("Mul", [x, g.node("Sigmoid", [scaled])])


def _hard_swish(g):
    x = g.x("InputTensor")
    return g.node("Mul", [x, g.node("HardSigmoid", [x], alpha=g.v["Alpha"], beta=g.v["Beta"])])


def _difference_square(g):
    d = g.node("Sub", [g.x("ATensor"), g.x("BTensor")])
    return g.node("Mul", [d, d])


def _threshold(g):
    return g.node("Max", [g.x("InputTensor"), _float_const(g, "Min")])


def _constant_pow(g):
    return g.node("Pow", [g.x("InputTensor"), _float_const(g, "Exponent")])


def _value_scale_2d(g):
    bias = np.asarray(g.v["Bias"], np.float32).reshape((1, -1) + (1,) * (len(g.sizes("InputTensor")) - 2))
    return g.node("Add", [g.node("Mul", [g.x("InputTensor"), _float_const(g, "Scale")]), g.const(bias)])


def _over_axes(op):
    """Softmax, LogSoftmax, Hardmax over Axes (the 5_1 versions) or the last axis (1_0): ONNX's take one axis, so
    trailing Axes are flattened into one first."""
    def build(g):
        sizes = g.sizes("InputTensor")
        axes = sorted(g.v.get("Axes") or (len(sizes) - 1,))
        if axes != list(range(len(sizes) - len(axes), len(sizes))):
            raise NoTwin(f"Axes {axes} are not the trailing axes: ONNX's {op} normalizes over one axis")
        flat = (math.prod(sizes[:len(sizes) - len(axes)]), math.prod(sizes[len(sizes) - len(axes):]))
        return g.node(op, [g.x("InputTensor", shape=flat)], axis=-1)
    return build


def _gemm(g):
    a, b = g.sizes("ATensor"), g.sizes("BTensor")
    if math.prod(a[:-2]) != 1 or math.prod(b[:-2]) != 1:
        raise NoTwin("batched GEMM: ONNX's Gemm multiplies one pair of matrices")
    inputs = [g.x("ATensor", shape=a[-2:]), g.x("BTensor", shape=b[-2:])]
    if g.given("CTensor"):
        inputs.append(g.x("CTensor", shape=g.sizes("CTensor")[-2:]))
    return g.node("Gemm", inputs, transA=g.v["TransA"], transB=g.v["TransB"], alpha=g.v["Alpha"], beta=g.v["Beta"])


def _flip_spatial(array):
    return np.ascontiguousarray(array[(slice(None), slice(None)) + (slice(None, None, -1),) * (array.ndim - 2)])


def _conv_attributes(g):
    n = g.v["DimensionCount"]
    return dict(strides=list(g.v["Strides"]), dilations=list(g.v["Dilations"]),
                pads=list(g.v["StartPadding"]) + list(g.v["EndPadding"]), group=g.v["GroupCount"],
                kernel_shape=list(g.sizes("FilterTensor")[-n:]))


def _convolution(g):
    # DirectML's CONVOLUTION mode flips the filter in every spatial dimension (DML_CONVOLUTION_MODE's page); ONNX's
    # Conv is a cross-correlation, so the twin reads the filter flipped.
    flip = _flip_spatial if g.enum("Mode") == "CONVOLUTION" else None
    inputs = [g.x("InputTensor"), g.x("FilterTensor", transform=flip)]
    if g.given("BiasTensor"):
        inputs.append(g.x("BiasTensor", shape=(-1,)))
    attributes = _conv_attributes(g)
    if g.enum("Direction") == "BACKWARD":
        return g.node("ConvTranspose", inputs, output_padding=list(g.v["OutputPadding"]), **attributes)
    return g.node("Conv", inputs, **attributes)


def _quantized_scalar(g, field):
    return g.x(field, shape=())


def _convolution_integer(g):
    return g.node("ConvInteger", [g.x("InputTensor"), g.x("FilterTensor"),
                                  _zero_point(g, "InputZeroPointTensor", "InputTensor"),
                                  _zero_point(g, "FilterZeroPointTensor", "FilterTensor")], **_conv_attributes(g))


def _quantized_linear_convolution(g):
    inputs = [g.x("InputTensor"), _quantized_scalar(g, "InputScaleTensor"),
              _zero_point(g, "InputZeroPointTensor", "InputTensor"), g.x("FilterTensor"),
              _quantized_scalar(g, "FilterScaleTensor"), _zero_point(g, "FilterZeroPointTensor", "FilterTensor"),
              _quantized_scalar(g, "OutputScaleTensor"), _zero_point(g, "OutputZeroPointTensor", "OutputTensor")]
    if g.given("BiasTensor"):
        inputs.append(g.x("BiasTensor", shape=(-1,)))
    return g.node("QLinearConv", inputs, **_conv_attributes(g))


def _matrices(g, *fields):
    for field in fields:
        if math.prod(g.sizes(field)[:-2]) != 1:
            raise NoTwin("batched matrices: the twin multiplies one pair")
    return [g.x(field, shape=g.sizes(field)[-2:]) for field in fields]


def _matrix_multiply_integer(g):
    a, b = _matrices(g, "ATensor", "BTensor")
    return g.node("MatMulInteger", [a, b, _zero_point(g, "AZeroPointTensor", "ATensor"),
                                    _zero_point(g, "BZeroPointTensor", "BTensor")])


def _quantized_linear_matrix_multiply(g):
    a, b = _matrices(g, "ATensor", "BTensor")
    return g.node("QLinearMatMul", [a, _quantized_scalar(g, "AScaleTensor"),
                                    _zero_point(g, "AZeroPointTensor", "ATensor"), b,
                                    _quantized_scalar(g, "BScaleTensor"),
                                    _zero_point(g, "BZeroPointTensor", "BTensor"),
                                    _quantized_scalar(g, "OutputScaleTensor"),
                                    _zero_point(g, "OutputZeroPointTensor", "OutputTensor")])


def _matrix_multiply_integer_to_float(g):
    a, b = _matrices(g, "ATensor", "BTensor")
    product = g.node("MatMulInteger", [a, b, _zero_point(g, "AZeroPointTensor", "ATensor"),
                                       _zero_point(g, "BZeroPointTensor", "BTensor")])
    scale = g.node("Mul", [_quantized_scalar(g, "AScaleTensor"), _quantized_scalar(g, "BScaleTensor")])
    result = g.node("Mul", [g.node("Cast", [product], to=TensorProto.FLOAT), scale])
    if g.given("BiasTensor"):
        result = g.node("Add", [result, g.x("BiasTensor")])
    return result


def _dequantized(g, tensor, scale, zero_point):
    return g.node("DequantizeLinear", [g.x(tensor), _quantized_scalar(g, scale), _zero_point(g, zero_point, tensor)])


def _requantized(g, value):
    return g.node("QuantizeLinear", [value, _quantized_scalar(g, "OutputScaleTensor"),
                                     _zero_point(g, "OutputZeroPointTensor", "OutputTensor")])


def _quantized_linear_add(g):
    total = g.node("Add", [_dequantized(g, "ATensor", "AScaleTensor", "AZeroPointTensor"),
                           _dequantized(g, "BTensor", "BScaleTensor", "BZeroPointTensor")])
    return _requantized(g, total)


def _quantized_linear_average_pooling(g):
    pooled = g.node("AveragePool", [_dequantized(g, "InputTensor", "InputScaleTensor", "InputZeroPointTensor")],
                    **_pool_attributes(g), count_include_pad=int(g.v["IncludePadding"]))
    return _requantized(g, pooled)


def _dynamic_quantize_linear(g):
    y, scale, zero_point = g.node("DynamicQuantizeLinear", [g.x("InputTensor")], outputs=3)
    return {"OutputTensor": y, "OutputScaleTensor": scale, "OutputZeroPointTensor": zero_point}


REDUCE_OPS = {"ARGMAX": "ArgMax", "ARGMIN": "ArgMin", "AVERAGE": "ReduceMean", "L1": "ReduceL1", "L2": "ReduceL2",
              "LOG_SUM": "ReduceLogSum", "LOG_SUM_EXP": "ReduceLogSumExp", "MAX": "ReduceMax", "MIN": "ReduceMin",
              "MULTIPLY": "ReduceProd", "SUM": "ReduceSum", "SUM_SQUARE": "ReduceSumSquare"}


def _arg(op, axes, g, last=0):
    if len(axes) != 1:
        raise NoTwin(f"ONNX's {op} takes one axis; Axes {list(axes)}")
    return g.node(op, [g.x("InputTensor")], axis=axes[0], keepdims=1, select_last_index=last)


def _reduce(g):
    op = REDUCE_OPS[g.enum("Function")]
    if op.startswith("Arg"):
        return _arg(op, g.v["Axes"], g)
    return g.node(op, [g.x("InputTensor"), g.const(np.array(g.v["Axes"], np.int64))], keepdims=1)


def _argminmax(op):
    # AxisDirection INCREASING: the first index of the extreme value; DECREASING: the last.
    return lambda g: _arg(op, g.v["Axes"], g, last=int(g.enum("AxisDirection") == "DECREASING"))


def _pool_attributes(g):
    attributes = dict(kernel_shape=list(g.v["WindowSize"]), strides=list(g.v["Strides"]),
                      pads=list(g.v["StartPadding"]) + list(g.v["EndPadding"]))
    if g.v.get("Dilations") is not None:
        attributes["dilations"] = list(g.v["Dilations"])
    return attributes


def _average_pooling(g):
    return g.node("AveragePool", [g.x("InputTensor")], count_include_pad=int(g.v["IncludePadding"]),
                  **_pool_attributes(g))


def _max_pooling(g):
    # ONNX's indices count the whole NCHW tensor's elements, DirectML's are its own: only the values are compared.
    return {"OutputTensor": g.node("MaxPool", [g.x("InputTensor")], **_pool_attributes(g))}


def _lp_pooling(g):
    return g.node("LpPool", [g.x("InputTensor")], p=g.v["P"], **_pool_attributes(g))


def _all_axes(g, field="InputTensor"):
    return g.const(np.arange(len(g.sizes(field)), dtype=np.int64))


def _slice(offsets, sizes, strides, window):
    """SLICE's Sizes count output elements (DML_SLICE_OPERATOR_DESC: the input read at Offsets + i x Strides);
    SLICE1's InputWindowSizes measure the window in the input, which a negative stride reads from its end."""
    def build(g):
        starts, ends = [], []
        for offset, size, stride in zip(g.v[offsets], g.v[sizes], g.v[strides]):
            extent = size if window else (size - 1) * stride + 1
            starts.append(offset + extent - 1 if stride < 0 else offset)
            ends.append((offset - 1 if offset > 0 else -2**63) if stride < 0 else offset + extent)
        return g.node("Slice", [g.x("InputTensor"), g.const(np.array(starts, np.int64)),
                                g.const(np.array(ends, np.int64)), _all_axes(g),
                                g.const(np.array(g.v[strides], np.int64))])
    return build


def _split(g):
    axis = g.v["Axis"]
    parts = [t.Sizes[axis] for t in g.v["OutputTensors"]]
    outputs = g.node("Split", [g.x("InputTensor"), g.const(np.array(parts, np.int64))], outputs=len(parts),
                     axis=axis)
    return {"OutputTensors": outputs if isinstance(outputs, list) else [outputs]}


PAD_MODES = {"CONSTANT": "constant", "EDGE": "edge", "REFLECTION": "reflect"}


def _padding(value):
    def build(g):
        mode = g.enum("PaddingMode")
        if mode not in PAD_MODES:
            raise NoTwin(f"PaddingMode {mode}: ONNX's Pad has constant, edge, reflect and wrap")
        pads = np.array(list(g.v["StartPadding"]) + list(g.v["EndPadding"]), np.int64)
        fill = g.const(value(g), g.arrays["InputTensor"].dtype)
        return g.node("Pad", [g.x("InputTensor"), g.const(pads), fill], mode=PAD_MODES[mode])
    return build


def _resize(g, scales, offsets=None):
    mode = g.enum("InterpolationMode")
    if offsets is not None:
        pairs = set(zip(offsets[0], offsets[1]))
        if pairs != {(0.5, -0.5)} and pairs != {(0.0, 0.0)}:
            raise NoTwin(f"pixel offsets {offsets}: ONNX's Resize has half_pixel (0.5, -0.5) and asymmetric (0, 0)")
    transform = "asymmetric" if offsets is not None and set(zip(*offsets)) == {(0.0, 0.0)} else "half_pixel"
    # The nearest neighbour: RESAMPLE and RESAMPLE1 round the input coordinate to nearest, halves down;
    # RESAMPLE2 rounds it up (RoundingDirection INCREASING) or down (DECREASING), as observed on DirectML 1.13
    # (tests/directml/test_directml_catalogue.py).
    nearest = "round_prefer_floor"
    if "RoundingDirection" in g.v:
        nearest = "ceil" if g.enum("RoundingDirection") == "INCREASING" else "floor"
    return g.node("Resize", [g.x("InputTensor"), "", g.const(np.array(scales, np.float32))],
                  mode="nearest" if mode == "NEAREST_NEIGHBOR" else "linear",
                  coordinate_transformation_mode=transform, nearest_mode=nearest)


def _upsample_2d(g):
    width, height = g.v["ScaleSize"]
    return _resize(g, [1.0] * (len(g.sizes("InputTensor")) - 2) + [height, width])


def _resample(g):
    offsets = None
    if g.v.get("InputPixelOffsets") is not None:
        offsets = (list(g.v["InputPixelOffsets"]), list(g.v["OutputPixelOffsets"]))
    return _resize(g, list(g.v["Scales"]), offsets)


def _index_tail(g, field, count):
    """An index tensor's last `count` dimensions (DirectML pads ranks with leading ones), as int64."""
    return g.x(field, np.int64, shape=g.sizes(field)[len(g.sizes(field)) - count:])


def _gather(g):
    indices = _index_tail(g, "IndicesTensor", g.v["IndexDimensions"])
    return g.node("Gather", [g.x("InputTensor"), indices], axis=g.v["Axis"])


def _nd(op, batch=None):
    def build(g):
        inputs = [g.x("InputTensor", shape=g.sizes("InputTensor")[-g.v["InputDimensionCount"]:]),
                  _index_tail(g, "IndicesTensor", g.v["IndicesDimensionCount"])]
        if op == "ScatterND":
            indices_rank = g.v["IndicesDimensionCount"]
            updates = g.sizes("UpdatesTensor")
            tuple_size = g.sizes("IndicesTensor")[-1]
            kept = indices_rank - 1 + g.v["InputDimensionCount"] - tuple_size
            inputs.append(g.x("UpdatesTensor", shape=updates[len(updates) - kept:]))
        return g.node(op, inputs, batch_dims=None if batch is None else g.v[batch])
    return build


def _elements(op):
    def build(g):
        inputs = [g.x("InputTensor"), g.x("IndicesTensor", np.int64)]
        if op == "ScatterElements":
            inputs.append(g.x("UpdatesTensor"))
        return g.node(op, inputs, axis=g.v["Axis"])
    return build


def _one_hot(g):
    axis = g.v["Axis"]
    sizes = g.sizes("IndicesTensor")
    depth = g.sizes("OutputTensor")[axis]
    indices = g.x("IndicesTensor", np.int64, shape=sizes[:axis] + sizes[axis + 1:])
    return g.node("OneHot", [indices, g.const(np.array(depth, np.int64)), g.x("ValuesTensor", shape=(2,))],
                  axis=axis)


def _depth_space(op, order_field=None):
    def build(g):
        order = "DCR" if order_field is None or g.enum(order_field) == "DEPTH_COLUMN_ROW" else "CRD"
        if op == "SpaceToDepth" and order != "DCR":
            raise NoTwin("ONNX's SpaceToDepth has DCR order only")
        return g.node(op, [g.x("InputTensor")], blocksize=g.v["BlockSize"],
                      **({"mode": order} if op == "DepthToSpace" else {}))
    return build


def _tile(g):
    return g.node("Tile", [g.x("InputTensor"), g.const(np.array(g.v["Repeats"], np.int64))])


def _top_k(g):
    largest = 1 if "AxisDirection" not in g.v else int(g.enum("AxisDirection") == "DECREASING")
    values, indices = g.node("TopK", [g.x("InputTensor"), g.const(np.array([g.v["K"]], np.int64))], outputs=2,
                             axis=g.v["Axis"], largest=largest, sorted=1)
    return {"OutputValueTensor": values, "OutputIndexTensor": indices}


def _per_channel(g, field):
    sizes = g.sizes(field)
    if sizes[0] != 1 or math.prod(sizes[2:]) != 1:
        raise NoTwin(f"{field} {list(sizes)}: ONNX's BatchNormalization takes one value per channel")
    return g.x(field, shape=(-1,))


def _batch_normalization(g):
    if not g.v["Spatial"]:
        raise NoTwin("Spatial false: ONNX's BatchNormalization normalizes per channel")
    return g.node("BatchNormalization", [g.x("InputTensor")] + [_per_channel(g, f) for f in (
        "ScaleTensor", "BiasTensor", "MeanTensor", "VarianceTensor")], epsilon=g.v["Epsilon"])


def _mean_variance_normalization(g):
    rank = len(g.sizes("InputTensor"))
    if "Axes" in g.v:
        axes = list(g.v["Axes"])
    else:
        axes = list(range(1 if g.v["CrossChannel"] else 2, rank))
    x = g.x("InputTensor")
    axes_value = g.const(np.array(axes, np.int64))
    centred = g.node("Sub", [x, g.node("ReduceMean", [x, axes_value], keepdims=1)])
    result = centred
    if g.v["NormalizeVariance"]:
        variance = g.node("ReduceMean", [g.node("Mul", [centred, centred]), axes_value], keepdims=1)
        result = g.node("Div", [centred, g.node("Sqrt", [g.node("Add", [variance, _float_const(g, "Epsilon")])])])
    if g.given("ScaleTensor"):
        result = g.node("Mul", [result, g.x("ScaleTensor")])
    if g.given("BiasTensor"):
        result = g.node("Add", [result, g.x("BiasTensor")])
    return result


def _local_response_normalization(g):
    if not g.v["CrossChannel"]:
        raise NoTwin("CrossChannel false (a window in the plane): ONNX's LRN sums across channels")
    return g.node("LRN", [g.x("InputTensor")], size=g.v["LocalSize"], alpha=g.v["Alpha"], beta=g.v["Beta"],
                  bias=g.v["Bias"])


def _lp_normalization(g):
    # x / sqrt(norm^2 + Epsilon), for P 1 and 2: what DirectML 1.13 computes (its page says only that Epsilon
    # avoids a division by zero; tests/directml/test_directml_catalogue.py tells the forms apart with a large
    # Epsilon). ONNX's LpNormalization has no epsilon, so the twin is the formula in ONNX operators.
    x = g.x("InputTensor")
    norm = g.node("ReduceL1" if g.v["P"] == 1 else "ReduceL2", [x, g.const(np.array([g.v["Axis"]], np.int64))],
                  keepdims=1)
    squared = g.node("Add", [g.node("Mul", [norm, norm]), _float_const(g, "Epsilon")])
    return g.node("Div", [x, g.node("Sqrt", [squared])])


def _cumulative_summation(g):
    return g.node("CumSum", [g.x("InputTensor"), g.const(np.array(g.v["Axis"], np.int64))],
                  exclusive=int(g.v["HasExclusiveSum"]), reverse=int(g.enum("AxisDirection") == "DECREASING"))


def _fill_value_constant(g):
    return g.node("ConstantOfShape", [g.const(np.array(g.sizes("OutputTensor"), np.int64))],
                  value=onnx.numpy_helper.from_array(np.array([g.scalar_union("Value")])))


def _fill_value_sequence(g):
    start, delta = g.scalar_union("ValueStart"), g.scalar_union("ValueDelta")
    count = math.prod(g.sizes("OutputTensor"))
    return g.node("Range", [g.const(start), g.const(start + delta * count, start.dtype), g.const(delta)])


RNN_ACTIVATIONS = {"ACTIVATION_RELU": "Relu", "ACTIVATION_TANH": "Tanh", "ACTIVATION_SIGMOID": "Sigmoid",
                   "ACTIVATION_HARD_SIGMOID": "HardSigmoid", "ACTIVATION_LEAKY_RELU": "LeakyRelu",
                   "ACTIVATION_THRESHOLDED_RELU": "ThresholdedRelu", "ACTIVATION_SCALED_TANH": "ScaledTanh",
                   "ACTIVATION_ELU": "Elu", "ACTIVATION_SOFTSIGN": "Softsign", "ACTIVATION_SOFTPLUS": "Softplus",
                   "ACTIVATION_LINEAR": "Affine"}
RNN_ALPHAS = {"Alpha": "alpha", "Beta": "beta"}


def _recurrent(op):
    """RNN, LSTM, GRU: DirectML's 4-D tensors are ONNX's with a leading 1 (weights, biases, initial states) or its
    sequence, batch, input order itself (DML_RNN_OPERATOR_DESC); the activations are named as ONNX names them."""
    def build(g):
        for field in ("SequenceLengthsTensor", "PeepholeTensor"):
            if g.given(field):
                raise NoTwin(f"{field}: not part of the twin")
        names, alphas, betas = [], [], []
        for activation in g.v["ActivationDescs"]:
            name = schema.schema(activation.type).full_name.removeprefix("DML_OPERATOR_")
            if name not in RNN_ACTIVATIONS:
                raise NoTwin(f"activation {name} has no ONNX recurrent activation")
            names.append(RNN_ACTIVATIONS[name])
            alphas.append(float(activation.fields.get("Alpha", 0.0) or 0.0))
            betas.append(float(activation.fields.get("Beta", 0.0) or 0.0))
        direction = {"FORWARD": "forward", "BACKWARD": "reverse", "BIDIRECTIONAL": "bidirectional"}[
            g.enum("Direction")]
        x = g.x("InputTensor", shape=g.sizes("InputTensor")[1:])
        inputs = [x, g.x("WeightTensor", shape=g.sizes("WeightTensor")[1:]),
                  g.x("RecurrenceTensor", shape=g.sizes("RecurrenceTensor")[1:]),
                  g.x("BiasTensor", shape=g.sizes("BiasTensor")[2:]) if g.given("BiasTensor") else "", "",
                  g.x("HiddenInitTensor", shape=g.sizes("HiddenInitTensor")[1:]) if g.given("HiddenInitTensor")
                  else ""]
        if op == "LSTM":
            inputs.append(g.x("CellMemInitTensor", shape=g.sizes("CellMemInitTensor")[1:])
                          if g.given("CellMemInitTensor") else "")
        extra = {}
        if op == "LSTM":
            extra = dict(input_forget=int(g.v["CoupleInputForget"]),
                         clip=g.v["ClipThreshold"] if g.v["UseClipThreshold"] else None)
        if op == "GRU":
            extra = dict(linear_before_reset=int(g.v["LinearBeforeReset"]))
        hidden = g.sizes("RecurrenceTensor")[-1]
        count = 3 if op == "LSTM" else 2
        outputs = g.node(op, inputs, outputs=count, direction=direction, hidden_size=hidden, activations=names,
                         activation_alpha=alphas, activation_beta=betas, **extra)
        result = {"OutputSequenceTensor": outputs[0], "OutputSingleTensor": outputs[1]}
        if op == "LSTM":
            result["OutputCellSingleTensor"] = outputs[2]
        return result
    return build


def _multihead_attention(g):
    separate = ("QueryTensor", "KeyTensor", "ValueTensor")
    others = [f.name for f in g.v["__schema__"].inputs if f.name not in separate and g.given(f.name)]
    if others or not all(g.given(f) for f in separate) or g.enum("MaskType") != "NONE":
        raise NoTwin("the twin takes Query, Key and Value alone, with no mask, bias or past state")
    heads = g.v["HeadCount"]

    def split_heads(field):
        batch, sequence, width = g.sizes(field)[-3:]
        return g.node("Transpose", [g.x(field, shape=(batch, sequence, heads, width // heads))], perm=[0, 2, 1, 3])

    q, k, v = (split_heads(f) for f in separate)
    scores = g.node("Mul", [g.node("MatMul", [q, g.node("Transpose", [k], perm=[0, 1, 3, 2])]),
                            _float_const(g, "Scale")])
    attended = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
    return g.node("Transpose", [attended], perm=[0, 2, 1, 3])


def _max_unpooling(g):
    inputs, outputs = g.sizes("InputTensor"), g.sizes("OutputTensor")
    kernel = [o // i for i, o in zip(inputs[2:], outputs[2:])]
    return g.node("MaxUnpool", [g.x("InputTensor"), g.x("IndicesTensor", np.int64),
                                g.const(np.array(outputs, np.int64))], kernel_shape=kernel, strides=kernel)


def _roi_pooling(g):
    return g.node("MaxRoiPool", [g.x("InputTensor"), g.x("ROITensor", shape=(-1, 5))],
                  pooled_shape=list(g.v["PooledSize"])[::-1], spatial_scale=g.v["SpatialScale"])


def _diagonal_matrix(g):
    sizes = g.sizes("OutputTensor")
    eye = g.node("EyeLike", [g.const(np.zeros(sizes[-2:], np.float32))], k=g.v["Offset"])
    return g.node("Expand", [g.node("Mul", [eye, _float_const(g, "Value")]), g.const(np.array(sizes, np.int64))])


def _gradient_where(g, passes):
    """The incoming gradient where `passes` (a boolean ONNX value), 0 elsewhere."""
    gradient = g.x("InputGradientTensor")
    zero = g.const(np.zeros((), g.arrays["InputGradientTensor"].dtype))
    return g.node("Where", [passes, gradient, zero])


def _relu_grad(g):
    # The gradient passes where the input is above 0, not at 0 itself (observed on DirectML 1.13:
    # tests/directml/test_directml_catalogue.py).
    x = g.x("InputTensor")
    return _gradient_where(g, g.node("Greater", [x, g.const(np.zeros((), g.arrays["InputTensor"].dtype))]))


def _clip_grad(bound):
    # The gradient passes strictly between Min and Max, not at the bounds (observed, as for RELU_GRAD).
    def build(g):
        x = g.x("InputTensor")
        dtype = g.arrays["InputTensor"].dtype
        low, high = (g.const(np.asarray(bound(g, name), dtype)) for name in ("Min", "Max"))
        inside = g.node("And", [g.node("Greater", [x, low]), g.node("Less", [x, high])])
        return _gradient_where(g, inside)
    return build


def _where(g):
    return g.node("Where", [g.x("ConditionTensor", bool), g.x("ATensor"), g.x("BTensor")])


def _identity(g):
    return g.node("Identity", [g.x("InputTensor")])


def _table():
    t = {}

    def add(names, build, tolerance):
        for name in names.split():
            t[name] = Twin(build, tolerance)

    for name, op in {"ABS": "Abs", "CEIL": "Ceil", "FLOOR": "Floor", "SIGN": "Sign", "NEGATE": "Neg",
                     "IS_NAN": "IsNaN", "BIT_NOT": "BitwiseNot", "IDENTITY": "Identity"}.items():
        add(f"ELEMENT_WISE_{name}", unary(op), EXACT)
    for name, op in {"ACOS": "Acos", "ASIN": "Asin", "ATAN": "Atan", "COS": "Cos", "SIN": "Sin", "TAN": "Tan"}.items():
        add(f"ELEMENT_WISE_{name}", unary(op), TRIGONOMETRIC)
    for name, op in {"EXP": "Exp", "LOG": "Log", "ERF": "Erf", "SINH": "Sinh", "COSH": "Cosh", "TANH": "Tanh",
                     "ASINH": "Asinh", "ACOSH": "Acosh", "ATANH": "Atanh"}.items():
        add(f"ELEMENT_WISE_{name}", unary(op), EXPONENTIAL)
    add("ELEMENT_WISE_RECIP", unary("Reciprocal"), DIVIDED)
    add("ELEMENT_WISE_SQRT", unary("Sqrt"), DIVIDED)
    for name, op in {"MAX": "Max", "MIN": "Min", "LOGICAL_EQUALS": "Equal", "LOGICAL_GREATER_THAN": "Greater",
                     "LOGICAL_LESS_THAN": "Less", "LOGICAL_GREATER_THAN_OR_EQUAL": "GreaterOrEqual",
                     "LOGICAL_LESS_THAN_OR_EQUAL": "LessOrEqual", "BIT_AND": "BitwiseAnd", "BIT_OR": "BitwiseOr",
                     "BIT_XOR": "BitwiseXor"}.items():
        add(f"ELEMENT_WISE_{name}", binary(op), EXACT)
    for name, op in {"ADD": "Add", "ADD1": "Add", "SUBTRACT": "Sub", "MULTIPLY": "Mul", "MEAN": "Mean"}.items():
        add(f"ELEMENT_WISE_{name}", binary(op), ROUNDED)
    add("ELEMENT_WISE_DIVIDE", binary("Div"), DIVIDED)
    add("ELEMENT_WISE_POW", binary("Pow", "InputTensor", "ExponentTensor"), EXPONENTIAL)
    add("ELEMENT_WISE_CONSTANT_POW", _constant_pow, EXPONENTIAL)
    add("ELEMENT_WISE_MODULUS_TRUNCATE", binary("Mod", fmod=1), DIVIDED)
    add("ELEMENT_WISE_MODULUS_FLOOR", binary("Mod", fmod=0), DIVIDED)
    add("ELEMENT_WISE_BIT_SHIFT_LEFT", binary("BitShift", direction="LEFT"), EXACT)
    add("ELEMENT_WISE_BIT_SHIFT_RIGHT", binary("BitShift", direction="RIGHT"), EXACT)
    for name, op in {"AND": "And", "OR": "Or", "XOR": "Xor"}.items():
        add(f"ELEMENT_WISE_LOGICAL_{name}", logical(op), EXACT)
    add("ELEMENT_WISE_LOGICAL_NOT", logical("Not", ("InputTensor",)), EXACT)
    add("ELEMENT_WISE_IS_INFINITY", _is_infinity, EXACT)
    add("ELEMENT_WISE_ROUND", _round, EXACT)
    add("ELEMENT_WISE_CLIP", _clip, EXACT)
    add("ELEMENT_WISE_CLIP1", _clip1, EXACT)
    add("ELEMENT_WISE_THRESHOLD", _threshold, EXACT)
    add("ELEMENT_WISE_IF", _where, EXACT)
    add("ACTIVATION_RELU_GRAD", _relu_grad, EXACT)
    add("ELEMENT_WISE_CLIP_GRAD", _clip_grad(lambda g, name: g.v[name]), EXACT)
    add("ELEMENT_WISE_CLIP_GRAD1", _clip_grad(lambda g, name: g.scalar_union(name)), EXACT)
    add("ELEMENT_WISE_DIFFERENCE_SQUARE", _difference_square, ROUNDED)
    add("ELEMENT_WISE_QUANTIZE_LINEAR", _quantize_linear, QUANTIZED)
    add("ELEMENT_WISE_DEQUANTIZE_LINEAR", _dequantize_linear, ROUNDED)
    add("ELEMENT_WISE_QUANTIZED_LINEAR_ADD", _quantized_linear_add, QUANTIZED)
    # activations
    for name, (op, attributes) in {
            "RELU": ("Relu", {}), "SIGMOID": ("Sigmoid", {}), "TANH": ("Tanh", {}), "SOFTSIGN": ("Softsign", {}),
            "ELU": ("Elu", {"alpha": attr("Alpha")}), "CELU": ("Celu", {"alpha": attr("Alpha")}),
            "LEAKY_RELU": ("LeakyRelu", {"alpha": attr("Alpha")}),
            "THRESHOLDED_RELU": ("ThresholdedRelu", {"alpha": attr("Alpha")}),
            "HARD_SIGMOID": ("HardSigmoid", {"alpha": attr("Alpha"), "beta": attr("Beta")}),
            "SCALED_ELU": ("Selu", {"alpha": attr("Alpha"), "gamma": attr("Gamma")}),
            "SHRINK": ("Shrink", {"bias": attr("Bias"), "lambd": attr("Threshold")}),
            "GELU": ("Gelu", {})}.items():
        add(f"ACTIVATION_{name}", unary(op, **attributes),
            EXACT if name in ("RELU", "LEAKY_RELU", "THRESHOLDED_RELU", "SHRINK") else EXPONENTIAL)
    add("ACTIVATION_IDENTITY", _identity, EXACT)
    add("ACTIVATION_LINEAR", _linear, ROUNDED)
    add("ACTIVATION_PARAMETERIZED_RELU", binary("PRelu", "InputTensor", "SlopeTensor"), ROUNDED)
    add("ACTIVATION_PARAMETRIC_SOFTPLUS", _parametric_softplus, EXPONENTIAL)
    add("ACTIVATION_SCALED_TANH", _scaled_tanh, EXPONENTIAL)
    add("ACTIVATION_SOFTPLUS", _softplus, EXPONENTIAL)
    add("ACTIVATION_SWISH", _swish, EXPONENTIAL)
    add("ACTIVATION_HARD_SWISH", _hard_swish, ROUNDED)
    for names, op, tolerance in (("ACTIVATION_SOFTMAX ACTIVATION_SOFTMAX1", "Softmax", ACCUMULATED),
                                 ("ACTIVATION_LOG_SOFTMAX ACTIVATION_LOG_SOFTMAX1", "LogSoftmax", ACCUMULATED),
                                 ("ACTIVATION_HARDMAX ACTIVATION_HARDMAX1", "Hardmax", EXACT)):
        add(names, _over_axes(op), tolerance)
    # matrices, convolutions, pooling, reductions, normalizations
    add("GEMM", _gemm, ACCUMULATED)
    add("CONVOLUTION", _convolution, ACCUMULATED)
    add("CONVOLUTION_INTEGER", _convolution_integer, EXACT)
    add("QUANTIZED_LINEAR_CONVOLUTION", _quantized_linear_convolution, QUANTIZED)
    add("MATRIX_MULTIPLY_INTEGER", _matrix_multiply_integer, EXACT)
    add("QUANTIZED_LINEAR_MATRIX_MULTIPLY", _quantized_linear_matrix_multiply, QUANTIZED)
    add("MATRIX_MULTIPLY_INTEGER_TO_FLOAT", _matrix_multiply_integer_to_float, ACCUMULATED)
    add("DYNAMIC_QUANTIZE_LINEAR", _dynamic_quantize_linear, QUANTIZED)
    add("QUANTIZED_LINEAR_AVERAGE_POOLING", _quantized_linear_average_pooling, QUANTIZED)
    add("REDUCE", _reduce, ACCUMULATED)
    add("ARGMAX", _argminmax("ArgMax"), EXACT)
    add("ARGMIN", _argminmax("ArgMin"), EXACT)
    add("AVERAGE_POOLING AVERAGE_POOLING1", _average_pooling, ACCUMULATED)
    add("MAX_POOLING MAX_POOLING1 MAX_POOLING2", _max_pooling, EXACT)
    add("LP_POOLING LP_POOLING1", _lp_pooling, ACCUMULATED)
    add("ROI_POOLING", _roi_pooling, EXACT)
    add("MAX_UNPOOLING", _max_unpooling, EXACT)
    add("BATCH_NORMALIZATION", _batch_normalization, ACCUMULATED)
    add("MEAN_VARIANCE_NORMALIZATION MEAN_VARIANCE_NORMALIZATION1", _mean_variance_normalization, ACCUMULATED)
    add("LOCAL_RESPONSE_NORMALIZATION", _local_response_normalization, ACCUMULATED)
    add("LP_NORMALIZATION", _lp_normalization, ACCUMULATED)
    add("CUMULATIVE_SUMMATION", _cumulative_summation, ACCUMULATED)
    add("RNN", _recurrent("RNN"), ACCUMULATED)
    add("LSTM", _recurrent("LSTM"), ACCUMULATED)
    add("GRU", _recurrent("GRU"), ACCUMULATED)
    add("MULTIHEAD_ATTENTION", _multihead_attention, ACCUMULATED)
    # data movement
    add("CAST", _identity, EXACT)
    add("SLICE", _slice("Offsets", "Sizes", "Strides", window=False), EXACT)
    add("SLICE1", _slice("InputWindowOffsets", "InputWindowSizes", "InputWindowStrides", window=True), EXACT)
    add("SPLIT", _split, EXACT)
    add("JOIN", lambda g: g.node("Concat", g.x("InputTensors"), axis=g.v["Axis"]), EXACT)
    add("PADDING", _padding(lambda g: g.v["PaddingValue"]), EXACT)
    add("PADDING1", _padding(lambda g: g.scalar_union("PaddingValue")), EXACT)
    add("VALUE_SCALE_2D", _value_scale_2d, ROUNDED)
    add("UPSAMPLE_2D", _upsample_2d, ROUNDED)
    add("RESAMPLE RESAMPLE1 RESAMPLE2", _resample, ROUNDED)
    add("GATHER", _gather, EXACT)
    add("GATHER_ELEMENTS", _elements("GatherElements"), EXACT)
    add("SCATTER", _elements("ScatterElements"), EXACT)
    add("GATHER_ND", _nd("GatherND"), EXACT)
    add("GATHER_ND1", _nd("GatherND", "BatchDimensionCount"), EXACT)
    add("SCATTER_ND", _nd("ScatterND"), EXACT)
    add("ONE_HOT", _one_hot, EXACT)
    add("SPACE_TO_DEPTH", _depth_space("SpaceToDepth"), EXACT)
    add("DEPTH_TO_SPACE", _depth_space("DepthToSpace"), EXACT)
    add("SPACE_TO_DEPTH1", _depth_space("SpaceToDepth", "Order"), EXACT)
    add("DEPTH_TO_SPACE1", _depth_space("DepthToSpace", "Order"), EXACT)
    add("TILE", _tile, EXACT)
    add("TOP_K TOP_K1", _top_k, EXACT)
    add("FILL_VALUE_CONSTANT", _fill_value_constant, EXACT)
    add("FILL_VALUE_SEQUENCE", _fill_value_sequence, ROUNDED)
    add("DIAGONAL_MATRIX", _diagonal_matrix, EXACT)
    return t


TWINS: dict[str, Twin] = _table()


# ---------------------------------------------------------------- building and running a twin


@dataclasses.dataclass(frozen=True)
class Built:
    """A twin ready to run: the ONNX model, its feeds, and the DirectML output fields it answers, in order."""

    model: onnx.ModelProto
    feeds: dict
    outputs: tuple  # (DirectML output name, ONNX output name)
    tolerance: Tolerance

    @property
    def ops(self) -> str:
        """The ONNX operators of the twin, in order, repeats kept once ("Gemm"; "Mul, Softplus")."""
        return ", ".join(dict.fromkeys(n.op_type for n in self.model.graph.node if n.op_type not in
                                       ("Reshape", "Cast")))


def twin(name) -> Twin | None:
    """The twin of operator `name` (as ops.schema.schema takes it), None where ONNX has none."""
    return TWINS.get(schema.schema(name).name)


def build(desc: OperatorDesc, inputs: Mapping) -> Built:
    """The ONNX twin of `desc` fed with `inputs` (each input tensor's logical array by field name, a list for a
    tensor array); NoTwin saying why where there is none."""
    packed = pack(desc)
    op = packed.schema
    found = TWINS.get(op.name)
    if found is None:
        raise NoTwin(f"{op.full_name} has no ONNX twin here")
    values = dict(packed.values, __schema__=op)
    g = Graph(values, dict(inputs))
    for f in op.fields:  # a ScaleBias applies to the input first: x * Scale + Bias, two roundings as DirectML does
        if f.type == "SCALE_BIAS" and values[f.name] is not None:
            scale, bias = values[f.name]
            x = g.x("InputTensor")
            g.replaced["InputTensor"] = g.node("Add", [g.node("Mul", [x, g.const(np.float32(scale))]),
                                                      g.const(np.float32(bias))])
    result = found.build(g)
    if not isinstance(result, Mapping):
        result = {op.outputs[0].name: result}
    tolerance = found.tolerance
    for f in op.fields:  # a fused activation applies to the output after
        if f.type == "OPERATOR_DESC" and values[f.name] is not None:
            result, tolerance = _fused(g, values[f.name], result, tolerance)
    outputs = []
    for name, tensor in zip(packed.output_names, packed.outputs):
        field, _, index = name.partition("[")
        value = result.get(field)
        if tensor is None or value is None:
            continue
        value = value[int(index[:-1])] if index else value
        shaped = g.node("Reshape", [value, g.const(np.array(tensor.Sizes, np.int64))])
        final = g.node("Cast", [shaped], to=helper.np_dtype_to_tensor_dtype(NUMPY_DTYPES[tensor.DataType]))
        outputs.append((name, final, tensor))
    graph = helper.make_graph(
        g.nodes, op.name.lower(),
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
         for n, a in g.feeds.items()],
        [helper.make_tensor_value_info(final, helper.np_dtype_to_tensor_dtype(NUMPY_DTYPES[t.DataType]),
                                       t.Sizes) for _, final, t in outputs],
        initializer=g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=10)
    return Built(model, g.feeds, tuple((n, final) for n, final, _ in outputs), tolerance)


def _fused(g, activation, result, tolerance):
    op = schema.schema(activation.type)
    found = TWINS.get(op.name)
    if found is None:
        raise NoTwin(f"fused activation {op.full_name} has no ONNX twin here")
    (field, value), = result.items()
    nested = Graph(dict(activation.fields, __schema__=op), g.arrays, g.nodes, g.feeds, g.initializers,
                   {"InputTensor": value})
    worst = max((tolerance, found.tolerance), key=lambda t: (t.largest, t.floor, t.ulps))
    return {field: found.build(nested)}, worst


def run(built: Built) -> tuple[dict, str]:
    """The twin's outputs by DirectML output name, and which ran it: ONNX Runtime, or onnx.reference where ONNX
    Runtime has no kernel for it."""
    names = [onnx_name for _, onnx_name in built.outputs]
    try:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.log_severity_level = 4  # FATAL only: a missing kernel is answered below
        session = ort.InferenceSession(built.model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        values, runtime = session.run(names, built.feeds), "ONNX Runtime"
    except Exception as error:  # no kernel for this type or op (NOT_IMPLEMENTED, INVALID_GRAPH): the reference runs
        from onnx.reference import ReferenceEvaluator

        try:
            values = ReferenceEvaluator(built.model).run(names, built.feeds)
        except Exception as reference_error:
            raise NoTwin(f"neither ONNX Runtime ({str(error).splitlines()[0][:200]}) nor onnx.reference "
                         f"({str(reference_error).splitlines()[0][:200]}) runs the twin") from reference_error
        runtime = "onnx.reference"
    return {name: np.asarray(v) for (name, _), v in zip(built.outputs, values)}, runtime


# ---------------------------------------------------------------- comparing


def ordered(values: np.ndarray) -> np.ndarray:
    """Floats as integers in the order of their values, one apart between neighbouring floats (+0 and -0 equal)."""
    bits = values.view({2: np.int16, 4: np.int32, 8: np.int64}[values.dtype.itemsize]).astype(np.int64)
    magnitude = bits & ((1 << (8 * values.dtype.itemsize - 1)) - 1)
    return np.where(bits < 0, -magnitude, magnitude)


@dataclasses.dataclass(frozen=True)
class Difference:
    """One output compared: the largest difference, in ULPs (floats) or units (integers), where it is and both
    values there."""

    output: str
    ulps: float
    index: tuple | None
    directml: object
    twin: object
    tolerance: Tolerance

    @property
    def agrees(self) -> bool:
        return self.ulps <= self.tolerance.ulps

    @property
    def text(self) -> str:
        if self.index is None:
            return f"{self.output}: equal"
        unit = self.tolerance.unit if isinstance(self.directml, float) else "units"
        where = ", ".join(str(i) for i in self.index)
        return (f"{self.output}: largest difference {self.ulps:g} {unit} at [{where}]: DirectML "
                f"{self.directml!r}, twin {self.twin!r}")


def difference(name, got: np.ndarray, expected: np.ndarray, tolerance: Tolerance) -> Difference:
    got, expected = np.asarray(got), np.asarray(expected).astype(got.dtype)
    if got.shape != expected.shape:
        raise NoTwin(f"{name}: DirectML's output is {got.shape}, the twin's {expected.shape}")
    if got.size == 0:
        return Difference(name, 0.0, None, None, None, tolerance)
    if got.dtype.kind == "f":
        both_nan = np.isnan(got) & np.isnan(expected)
        if tolerance.largest or tolerance.floor:
            magnitude = np.abs(expected.astype(np.float64))
            magnitude = np.where(np.isfinite(magnitude), magnitude, 0.0)
            scale = np.full_like(magnitude, magnitude.max()) if tolerance.largest else \
                np.maximum(magnitude, tolerance.floor)
            spacing = np.spacing(scale.astype(got.dtype)).astype(np.float64)
            spacing = np.where(scale > 0, spacing, float(np.finfo(got.dtype).smallest_subnormal))
            with np.errstate(invalid="ignore"):
                distance = np.abs(got.astype(np.float64) - expected.astype(np.float64)) / spacing
            distance = np.where(np.isinf(got) & (got == expected), 0.0, distance)
        else:
            distance = np.abs(ordered(got) - ordered(expected)).astype(np.float64)
        distance = np.where(both_nan, 0.0, np.where(np.isnan(got) | np.isnan(expected), np.inf, distance))
    else:
        distance = np.abs(got.astype(np.float64) - expected.astype(np.float64))
    flat = int(np.argmax(distance))
    worst = float(distance.reshape(-1)[flat])
    if worst == 0:
        return Difference(name, 0.0, None, None, None, tolerance)
    index = tuple(int(i) for i in np.unravel_index(flat, got.shape))
    as_python = float if got.dtype.kind == "f" else int
    return Difference(name, worst, index, as_python(got[index]), as_python(expected[index]), tolerance)


@dataclasses.dataclass(frozen=True)
class Comparison:
    """DirectML's outputs against the twin's: which ONNX operators, on what, and each output's difference."""

    ops: str
    runtime: str
    differences: tuple

    @property
    def agrees(self) -> bool:
        return all(d.agrees for d in self.differences)

    @property
    def max_ulps(self) -> float:
        return max((d.ulps for d in self.differences), default=0.0)

    @property
    def tolerance(self) -> Tolerance:
        return self.differences[0].tolerance if self.differences else EXACT

    @property
    def summary(self) -> str:
        limit = self.tolerance
        bound = "exact" if limit.ulps == 0 else f"{limit.ulps:g} {limit.unit} ({limit.name})"
        return f"ONNX twin {self.ops} on {self.runtime} {'agrees' if self.agrees else 'DIFFERS'} " \
            f"(tolerance: {bound}); " + "; ".join(d.text for d in self.differences)


def compare(desc: OperatorDesc, inputs: Mapping, outputs: Mapping) -> Comparison:
    """DirectML's `outputs` (logical arrays by output name, "OutputTensor", "OutputTensors[1]", or by field name
    with a list for a tensor array, as a run's DispatchRecord holds them) against the twin of `desc` run on
    `inputs` (the same, by field name); NoTwin where there is none."""
    outputs = {f"{name}[{i}]": v for name, value in outputs.items() if isinstance(value, list)
               for i, v in enumerate(value)} | {n: v for n, v in outputs.items() if not isinstance(v, list)}
    built = build(desc, inputs)
    expected, runtime = run(built)
    differences = tuple(difference(name, outputs[name], expected[name], built.tolerance)
                        for name, _ in built.outputs if name in outputs)
    return Comparison(built.ops, runtime, differences)


__all__ = ["ACCUMULATED", "DIVIDED", "EXACT", "EXPONENTIAL", "QUANTIZED", "ROUNDED", "TRIGONOMETRIC", "TWINS", "Built",
           "Comparison", "Difference", "NoTwin", "Tolerance", "Twin", "build", "compare", "difference", "ordered",
           "run", "twin"]
