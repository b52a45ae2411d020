"""DirectML's window, pad and repeat family: SLICE1, PADDING1, TILE, REVERSE_SUBSEQUENCES and UPSAMPLE_2D in
NEAREST_NEIGHBOR mode. Each output element is a copy of one input element (or a constant pad's value), chosen by
index arithmetic alone (core.py), so each is a pure index map, drawn like depth-to-space.

Fields, support tables and rules are each operator's API page's (MicrosoftDocs/sdk-api,
sdk-api-src/content/directml/ns-directml-dml_<name>_operator_desc.md; REVERSE_SUBSEQUENCES' file is
ns-directml-dml_reverse_subsequences_desc.md), DML_OPERATOR_TYPE values DirectML's (ops.schema). Where a page is
silent or wrong, DirectML 1.13 itself decided, as docs/directml.md ("Slice, pad and tile") records byte for byte.

RESAMPLE1 is not here although its NEAREST_NEIGHBOR mode also copies elements: which element it copies comes from
float32 arithmetic on the device ((o - OutputPixelOffset) / Scale - InputPixelOffset, rounded half up), and on
DirectML 1.13 here a Scale of 0.3 picked element 5 for output 1, where IEEE float32 division gives 4.4999998 and so
element 4: an index map exact on one device only, not a rule a picture can state.
"""

import numpy as np

from ...datatypes import DML_TYPES, scalar_value, type_name
from ...datatypes import PREFIX as DATA_TYPE_PREFIX
from ...errors import DescriptorError
from ...levels import SupportRow
from ...tensor_desc import Problem, join_path
from ..base import (
    ALL_TYPES,
    COUNT,
    ENUM,
    INPUT,
    INT_ARRAY,
    NO_64_BIT,
    OUTPUT,
    SCALAR_UNION,
    SIZE_2D,
    UINT,
    UINT_ARRAY,
    UINT_MAX,
    Attribute,
    Enum,
    Field,
    Operator,
    check_axis,
    check_dimension_count,
    check_int_array,
    check_uint_array,
    support_rows,
)
from . import core, detective, teaching
from .examples import EXAMPLES
from .fixes import padding_fixes, reverse_fixes, slice_fixes, tile_fixes, upsample_fixes
from .frameworks import PaddingForms, ReverseForms, SliceForms, TileForms, UpsampleForms

_FLOATS = ("FLOAT32", "FLOAT16")
# DML_TENSOR_DATA_TYPE as DirectML.h declares it: UNKNOWN, the eleven types in enum order, then the 4-bit types of
# feature level 6_3, which no tensor here holds (tests/unit/test_schema.py checks it against the schema).
DATA_TYPE = Enum(DATA_TYPE_PREFIX, ("UNKNOWN", *DML_TYPES, "UINT4", "INT4"), label="DataType")
PADDING_MODE = Enum("DML_PADDING_MODE_", core.PADDING_MODES, label="PaddingMode")
INTERPOLATION_MODE = Enum("DML_INTERPOLATION_MODE_", ("NEAREST_NEIGHBOR", "LINEAR"), label="InterpolationMode")


def _problem_path(path, message):
    """The JSON path of the field a core message starts with ("InputWindowSizes[2] 5: ..."), else the desc's."""
    field = message.split(" ", 1)[0]
    name, _, index = field.partition("[")
    if not name.isidentifier():
        return path
    return join_path(path, name) + (f"[{index}" if index else "")


class Movement(Operator):
    """What the family shares: outputs of one input's type, every element a copy; the rules between a descriptor's
    tensors are the rules the core applies to a call (output_shapes), and the output's Sizes must be the ones they
    give. All but REVERSE_SUBSEQUENCES work axis by axis (`axis_sources`); it works `along_axis` Axis instead."""

    along_axis = False
    # A type ONNX Runtime has no kernel for (Pad's 16-bit integers), or one that changes its bits (its FLOAT16 Pad and
    # Resize quiet signalling NaNs), runs as UINT8 bytes along a last axis of their own, which the call leaves alone:
    # a window, pad or repeat of it that keeps it whole (widened_attrs).
    byte_axis = "new"
    # Its teaching and what the layout detective asks of it: teaching.py (each operator's `lesson`), detective.py
    # (each operator's `read_lines`); its nearest fixes are each operator's, fixes.py.
    formula, question = teaching.formula, teaching.question
    inferred, describe = detective.inferred, detective.describe

    @property
    def examples(self):
        """Its API page's worked examples (examples.py): what an operator page opens as presets."""
        return tuple(e for e in EXAMPLES if e.op == self.name)

    def axis_sources(self, call):
        """The input index each output index reads, per axis (core.py), for an operator that works axis by axis."""
        raise NotImplementedError

    def shape_problems(self, parsed, path):
        if any(parsed.scalars.get(f.name) is None for f in self.scalar_fields() if f.attribute):
            return []  # a field that did not parse is named already
        inputs = [desc for _, desc, kind in parsed.tensor_list() if kind.startswith("input")]
        try:
            attrs = self.attrs_of(parsed)
            expected = self.output_shapes([d.Sizes for d in inputs], attrs)
        except DescriptorError as error:
            return [Problem(_problem_path(path, str(error)), str(error))]
        out = parsed.tensors["OutputTensor"]
        if tuple(out.Sizes) == tuple(expected[0]):
            return []
        return [Problem(join_path(join_path(path, "OutputTensor"), "Sizes"),
                        f"OutputTensor.Sizes {list(out.Sizes)}: must be {list(expected[0])} ({self.output_rule})")]

    def index_map(self, input_shapes, **attrs):
        """Where each output element comes from: (0, its flat index in the input), or (-1, -1) for a constant pad's
        value, which comes from no input element."""
        [(which, flat)] = super().index_map(input_shapes, **attrs)
        return [(np.where(flat < 0, -1, which), flat)]


# ---------------------------------------------------------------- SLICE1


def _offsets(value):
    return check_uint_array(value, "InputWindowOffsets")


def _window_sizes(value):
    return check_uint_array(value, "InputWindowSizes", minimum=1)


def _strides(value):
    return check_int_array(value, "InputWindowStrides", nonzero=True)


def _output_sizes(value):
    return None if value is None else check_uint_array(value, "OutputTensor Sizes", minimum=1)


def slice_output_shape(shape, attrs):
    """The output's sizes (OutputTensor Sizes as given, else every element the window yields), after the page's
    rules: the window inside the input (DirectML refuses one running off it, even where the elements read are
    inside), and at most MaxCopiedElements per dimension."""
    n = len(shape)
    for name, label in (("window_offsets", "InputWindowOffsets"), ("window_sizes", "InputWindowSizes"),
                        ("window_strides", "InputWindowStrides")):
        check_dimension_count(attrs[name], label, n)
    wanted = attrs["output_sizes"]
    if wanted is not None:
        check_dimension_count(wanted, "OutputTensor Sizes", n)
    out = []
    for d, (size, offset, window, stride) in enumerate(zip(shape, attrs["window_offsets"], attrs["window_sizes"],
                                                           attrs["window_strides"])):
        if offset + window > size:
            raise DescriptorError(f"InputWindowOffsets[{d}] {offset}: the window [{offset}, {offset + window}) "
                                  f"runs past InputTensor.Sizes[{d}] = {size}; InputWindowOffsets + InputWindowSizes "
                                  "must not exceed the input's size")
        copied = core.slice_copied(window, stride)
        if wanted is not None and wanted[d] > copied:
            raise DescriptorError(f"OutputTensor Sizes[{d}] {wanted[d]}: a window of {window} at stride {stride} "
                                  f"yields at most {copied} (MaxCopiedElements = 1 + ({window} - 1) div |{stride}|)")
        out.append(copied if wanted is None else wanted[d])
    return tuple(out)


class Slice1(Movement):
    name = "SLICE1"
    code = 111
    summary = ("copies a window of the input, every |stride|-th element, from the window's end where a stride is "
               "negative")
    output_rule = "OutputTensor.Sizes[i] <= 1 + (InputWindowSizes[i] - 1) div |InputWindowStrides[i]|"
    onnx = "Slice"
    core_name = "slice1"
    attributes = (Attribute("window_offsets", "InputWindowOffsets", _offsets),
                  Attribute("window_sizes", "InputWindowSizes", _window_sizes),
                  Attribute("window_strides", "InputWindowStrides", _strides),
                  Attribute("output_sizes", "OutputTensor Sizes", _output_sizes, None))
    window = ("InputWindowOffsets", "InputWindowSizes", "InputWindowStrides")
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("DimensionCount", COUNT, counts=window),
              Field("InputWindowOffsets", UINT_ARRAY, "window_offsets"),
              Field("InputWindowSizes", UINT_ARRAY, "window_sizes"),
              Field("InputWindowStrides", INT_ARRAY, "window_strides"))
    # Its page's "Tensor support": 4 to 5 dimensions at 2_1, 1 to 8 from 3_0, the 64-bit types from 4_1.
    support = support_rows("SLICE1", ("2_1", 4, 5, NO_64_BIT), ("3_0", 1, 8, NO_64_BIT), ("4_1", 1, 8, ALL_TYPES))
    frameworks = SliceForms()
    lesson, fixes, read_lines = teaching.SLICE, slice_fixes, staticmethod(detective.slice_candidates)

    def axis_sources(self, call):
        return [core.slice_sources(*w) for w in zip(call.attr("window_offsets"), call.attr("window_sizes"),
                                                     call.attr("window_strides"), call.output_sizes[0])]

    def output_shapes(self, input_shapes, attrs):
        return [slice_output_shape(tuple(input_shapes[0]), attrs)]

    def compute(self, inputs, attrs):
        x = inputs[0]
        out = slice_output_shape(x.shape, attrs)
        return [core.slice1(x, attrs["window_offsets"], attrs["window_sizes"], attrs["window_strides"], out)]

    def attrs_of(self, parsed):
        return {**super().attrs_of(parsed), "output_sizes": tuple(parsed.tensors["OutputTensor"].Sizes)}

    def implied_output_shapes(self, input_shapes, attrs):
        if attrs.get("output_sizes") is not None:
            return [list(attrs["output_sizes"])]
        return super().implied_output_shapes(input_shapes, attrs)

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper, numpy_helper

        starts, ends = [], []
        for size, *window in zip(shapes[0], attrs["window_offsets"], attrs["window_sizes"], attrs["window_strides"],
                                 slice_output_shape(tuple(shapes[0]), attrs)):
            sources = core.slice_sources(*window)
            step = window[2]
            end = int(sources[-1]) + (1 if step > 0 else -1)
            starts.append(int(sources[0]))
            # ONNX adds the dimension to a negative end: -(size + 1) is "before index 0" for a negative step.
            ends.append(end if end >= 0 else -(size + 1))
        n = len(shapes[0])
        arrays = {"starts": starts, "ends": ends, "axes": list(range(n)), "steps": list(attrs["window_strides"])}
        return ([helper.make_node("Slice", ["x0", *arrays], ["y0"])],
                [numpy_helper.from_array(np.array(v, np.int64), name) for name, v in arrays.items()])

    def onnx_text(self, attrs, input_count):
        return f"ONNX Slice (steps {list(attrs['window_strides'])})"

    def widened_attrs(self, attrs, k, ndim):
        return {**attrs, "window_offsets": attrs["window_offsets"] + (0,),
                "window_sizes": attrs["window_sizes"] + (k,), "window_strides": attrs["window_strides"] + (1,),
                "output_sizes": None if attrs["output_sizes"] is None else attrs["output_sizes"] + (k,)}

    def identity_call(self, x, attrs):
        return [x], self.canonical_attrs({"window_offsets": (0,) * x.ndim, "window_sizes": x.shape,
                                          "window_strides": (1,) * x.ndim})


# ---------------------------------------------------------------- PADDING1


def _padding_mode(value):
    if isinstance(value, str) and value.upper().removeprefix(PADDING_MODE.prefix) == "WRAP":
        raise DescriptorError(f"PaddingMode {value!r}: WRAP came with DML_FEATURE_LEVEL_6_4 (DirectML 1.15); DirectML "
                              "1.13 here refuses it (CreateOperator: E_INVALIDARG), so the core does too")
    return PADDING_MODE.name(value, "PaddingMode")


def _padding_value(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise DescriptorError(f"PaddingValue {value!r:.40}: must be a number")
    return value.item() if isinstance(value, np.generic) else value


def _start_padding(value):
    return check_uint_array(value, "StartPadding")


def _end_padding(value):
    return check_uint_array(value, "EndPadding")


def padding_output_shape(shape, attrs):
    check_dimension_count(attrs["start_padding"], "StartPadding", len(shape))
    check_dimension_count(attrs["end_padding"], "EndPadding", len(shape))
    out = tuple(s + a + b for s, a, b in zip(shape, attrs["start_padding"], attrs["end_padding"]))
    for d, size in enumerate(out):
        if size > UINT_MAX:
            raise DescriptorError(f"EndPadding[{d}] {attrs['end_padding'][d]}: the output's size {size:,} along "
                                  f"dimension {d} would not fit a UINT")
    return out


class Padding1(Movement):
    name = "PADDING1"
    code = 155
    summary = ("surrounds the input with StartPadding and EndPadding elements per dimension: a constant, the edge, "
               "or the input mirrored without (REFLECTION) or with (SYMMETRIC) its edge")
    output_rule = "OutputTensor.Sizes[i] = InputTensor.Sizes[i] + StartPadding[i] + EndPadding[i]"
    onnx = "Pad"
    core_name = "padding1"
    attributes = (Attribute("mode", "PaddingMode", _padding_mode, "CONSTANT"),
                  Attribute("padding_value", "PaddingValue", _padding_value, 0),
                  Attribute("start_padding", "StartPadding", _start_padding),
                  Attribute("end_padding", "EndPadding", _end_padding))
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("PaddingMode", ENUM, "mode", enum=PADDING_MODE),
              Field("PaddingValueDataType", ENUM, enum=DATA_TYPE, type_of="OutputTensor"),
              Field("PaddingValue", SCALAR_UNION, "padding_value", type_field="PaddingValueDataType"),
              Field("DimensionCount", COUNT, counts=("StartPadding", "EndPadding")),
              Field("StartPadding", UINT_ARRAY, "start_padding"), Field("EndPadding", UINT_ARRAY, "end_padding"))
    # Its page: introduced at 5_0 with every type and 1 to 8 dimensions, all four modes.
    support = support_rows("PADDING1", ("5_0", 1, 8, ALL_TYPES))
    frameworks = PaddingForms()
    lesson, fixes, read_lines = teaching.PADDING, padding_fixes, staticmethod(detective.padding_candidates)

    def axis_sources(self, call):
        return [core.padding_sources(n, a, b, call.attr("mode"))
                for n, a, b in zip(call.input_sizes[0], call.attr("start_padding"), call.attr("end_padding"))]

    def output_shapes(self, input_shapes, attrs):
        return [padding_output_shape(tuple(input_shapes[0]), attrs)]

    def check_data_type(self, data_type, attrs):
        scalar_value(attrs["padding_value"], data_type, "PaddingValue")

    def compute(self, inputs, attrs):
        x = inputs[0]
        padding_output_shape(x.shape, attrs)
        value = scalar_value(attrs["padding_value"], type_name(x.dtype), "PaddingValue")
        return [core.padding1(x, attrs["mode"], attrs["start_padding"], attrs["end_padding"], value)]

    def index_map(self, input_shapes, **attrs):
        # Run on flat indices, a constant pad writes -1: from no input element.
        return super().index_map(input_shapes, **{**attrs, "padding_value": -1})

    def shape_problems(self, parsed, path):
        problems = super().shape_problems(parsed, path)
        value_type, out = parsed.scalars.get("PaddingValueDataType"), parsed.tensors["OutputTensor"]
        if value_type is not None and value_type != out.DataType:
            problems.append(Problem(join_path(path, "PaddingValueDataType"),
                                    f"PaddingValueDataType {value_type}: must equal OutputTensor.DataType "
                                    f"{out.DataType}"))
        return problems

    def onnx_missing(self, attrs):
        if attrs["mode"] == "SYMMETRIC":
            return ("ONNX Pad has no symmetric mode (constant, reflect, edge and wrap only: "
                    "https://onnx.ai/onnx/operators/onnx__Pad.html), so ONNX Runtime cannot cross-check a SYMMETRIC "
                    "pad; DirectML itself can, where it runs")
        return None

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper, numpy_helper

        pads = np.array(attrs["start_padding"] + attrs["end_padding"], np.int64)
        value = np.array(scalar_value(attrs["padding_value"], type_name(dtype), "PaddingValue"))
        mode = {"CONSTANT": "constant", "EDGE": "edge", "REFLECTION": "reflect"}[attrs["mode"]]
        return ([helper.make_node("Pad", ["x0", "pads", "value"], ["y0"], mode=mode)],
                [numpy_helper.from_array(pads, "pads"), numpy_helper.from_array(value, "value")])

    def onnx_text(self, attrs, input_count):
        mode = {"CONSTANT": "constant", "EDGE": "edge", "REFLECTION": "reflect"}[attrs["mode"]]
        return f"ONNX Pad (mode {mode})"

    def widened_attrs(self, attrs, k, ndim):
        return {**attrs, "start_padding": attrs["start_padding"] + (0,), "end_padding": attrs["end_padding"] + (0,)}

    def reinterpreted_attrs(self, attrs, dtype, as_dtype):
        """The padding value with the same bits in `as_dtype`: a FLOAT16 1.5 padding UINT16 bit patterns is 0x3E00;
        padding single bytes, a value whose bytes are all one byte (a pad writes one value)."""
        value = np.array([scalar_value(attrs["padding_value"], type_name(dtype), "PaddingValue")]).view(as_dtype)
        if attrs["mode"] == "CONSTANT" and len(set(value.tolist())) > 1:
            raise DescriptorError(f"PaddingValue {attrs['padding_value']!r}: its bytes differ, so a pad of single "
                                  "bytes cannot write it")
        return {**attrs, "padding_value": value[0].item()}

    def identity_call(self, x, attrs):
        return [x], self.canonical_attrs({"start_padding": (0,) * x.ndim, "end_padding": (0,) * x.ndim})


# ---------------------------------------------------------------- TILE


def _repeats(value):
    return check_uint_array(value, "Repeats", minimum=1)


def tile_output_shape(shape, attrs):
    check_dimension_count(attrs["repeats"], "Repeats", len(shape))
    return tuple(s * r for s, r in zip(shape, attrs["repeats"]))


class Tile(Movement):
    name = "TILE"
    code = 70
    summary = "repeats the whole input Repeats[i] times along each dimension i, one copy after another"
    output_rule = "OutputTensor.Sizes[i] = InputTensor.Sizes[i] * Repeats[i]"
    onnx = "Tile"
    core_name = "tile"
    attributes = (Attribute("repeats", "Repeats", _repeats),)
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("RepeatsCount", COUNT, counts="Repeats"), Field("Repeats", UINT_ARRAY, "repeats"))
    # Its page: FLOAT32 and FLOAT16 in 4 dimensions at 1_0, the other 32-bit and narrower types at 2_1, 1 to 8
    # dimensions at 3_1, INT64 and UINT64 (not FLOAT64) at 4_1.
    support = support_rows("TILE", ("1_0", 4, 4, _FLOATS), ("2_1", 4, 4, NO_64_BIT), ("3_1", 1, 8, NO_64_BIT),
                           ("4_1", 1, 8, tuple(t for t in ALL_TYPES if t != "FLOAT64")))
    frameworks = TileForms()
    lesson, fixes, read_lines = teaching.TILE, tile_fixes, staticmethod(detective.tile_candidates)

    def axis_sources(self, call):
        return [core.tile_sources(n, r) for n, r in zip(call.input_sizes[0], call.attr("repeats"))]

    def output_shapes(self, input_shapes, attrs):
        return [tile_output_shape(tuple(input_shapes[0]), attrs)]

    def compute(self, inputs, attrs):
        tile_output_shape(inputs[0].shape, attrs)
        return [core.tile(inputs[0], attrs["repeats"])]

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper, numpy_helper

        return ([helper.make_node("Tile", ["x0", "repeats"], ["y0"])],
                [numpy_helper.from_array(np.array(attrs["repeats"], np.int64), "repeats")])

    def onnx_text(self, attrs, input_count):
        return f"ONNX Tile (repeats {list(attrs['repeats'])})"

    def widened_attrs(self, attrs, k, ndim):
        return {**attrs, "repeats": attrs["repeats"] + (1,)}

    def identity_call(self, x, attrs):
        return [x], self.canonical_attrs({"repeats": (1,) * x.ndim})


# ---------------------------------------------------------------- REVERSE_SUBSEQUENCES


def _axis(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise DescriptorError(f"Axis {value!r}: must be a non-negative integer")
    return int(value)


_LENGTH_TYPES = ("UINT32", "UINT64")


def _lengths_type(value):
    name = type_name(value, "SequenceLengthsTensor DataType")
    if name not in _LENGTH_TYPES:
        raise DescriptorError(f"SequenceLengthsTensor DataType {name}: REVERSE_SUBSEQUENCES reads UINT32 or UINT64 "
                              "lengths")
    return name


def lengths_shape(shape, axis):
    """The SequenceLengthsTensor's sizes: the input's, with 1 along Axis."""
    return tuple(1 if d == axis else s for d, s in enumerate(shape))


# Its page's table stops at 4_0 (UINT32 lengths, no 64-bit types); DirectML's Releases.md gives REVERSE_SUBSEQUENCES
# the 64-bit types at 5_0 (DirectML 1.8.0), and DirectML 1.13 takes INT64 and UINT64 data and UINT64 lengths.
_REVERSE_5_0_SOURCE = ("Source: DirectML's Releases.md (1.8.0, DML_FEATURE_LEVEL_5_0: 64-bit data types for "
                       "REVERSE_SUBSEQUENCES); its page's table stops at 4_0. UINT64 lengths: observed on DirectML "
                       "1.13, which reads their low 32 bits.")


class ReverseSubsequences(Movement):
    name = "REVERSE_SUBSEQUENCES"
    code = 106
    summary = ("reverses the first L elements along Axis of every line, L read from SequenceLengthsTensor; the rest "
               "of the line stays")
    output_rule = "OutputTensor.Sizes = InputTensor.Sizes"
    onnx = "ReverseSequence"
    core_name = "reverse_subsequences"
    arity = (2, 2)
    attributes = (Attribute("axis", "Axis", _axis),
                  Attribute("lengths_type", "SequenceLengthsTensor DataType", _lengths_type, "UINT32"))
    fields = (Field("InputTensor", INPUT, resource="input"),
              Field("SequenceLengthsTensor", INPUT, "lengths_type", resource="sequence_lengths"),
              Field("OutputTensor", OUTPUT, resource="output"), Field("Axis", UINT, "axis"))
    support = (SupportRow("REVERSE_SUBSEQUENCES", "2_1", 4, 4, NO_64_BIT,
                          tensor_types=(("SequenceLengthsTensor", ("UINT32",)),)),
               SupportRow("REVERSE_SUBSEQUENCES", "3_0", 4, 5, NO_64_BIT,
                          tensor_types=(("SequenceLengthsTensor", ("UINT32",)),)),
               SupportRow("REVERSE_SUBSEQUENCES", "4_0", 1, 8, NO_64_BIT,
                          tensor_types=(("SequenceLengthsTensor", ("UINT32",)),)),
               SupportRow("REVERSE_SUBSEQUENCES", "5_0", 1, 8, ALL_TYPES, _REVERSE_5_0_SOURCE,
                          tensor_types=(("SequenceLengthsTensor", _LENGTH_TYPES),)))
    frameworks = ReverseForms()
    lesson, fixes, along_axis = teaching.REVERSE, reverse_fixes, True
    # The detective takes one x to one y; a reversal's lengths are a second input it would have to invent.
    inferred = Operator.inferred

    def output_shapes(self, input_shapes, attrs):
        shape = tuple(input_shapes[0])
        axis = check_axis(attrs["axis"], len(shape))
        wanted = lengths_shape(shape, axis)
        if len(input_shapes) > 1 and tuple(input_shapes[1]) != wanted:
            raise DescriptorError(f"SequenceLengthsTensor Sizes {list(input_shapes[1])}: must be {list(wanted)}, the "
                                  f"input's Sizes with 1 along Axis {axis}")
        return [shape]

    def compute(self, inputs, attrs):
        x, lengths = inputs
        self.output_shapes([x.shape, lengths.shape], attrs)
        return [core.reverse_subsequences(x, lengths, attrs["axis"])]

    def index_map(self, input_shapes, lengths=None, **attrs):
        """Where each output element comes from: (0, its flat index in InputTensor). The lengths decide it, so they
        are given as an array (`lengths`); none are moved themselves."""
        attrs = self.canonical_attrs(attrs)
        shape = tuple(input_shapes[0])
        if lengths is None:
            raise DescriptorError("lengths: REVERSE_SUBSEQUENCES' index map needs the SequenceLengthsTensor's values")
        lengths = np.asarray(lengths)
        self.output_shapes([shape, lengths.shape], attrs)
        flat = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        moved = core.reverse_subsequences(flat, lengths, attrs["axis"])
        return [(np.zeros(shape, dtype=np.int64), moved)]

    def onnx_graph(self, attrs, shapes, dtype):
        """ONNX ReverseSequence reverses along one time axis of a [batch, time] pair: Axis moved last and every other
        dimension folded into one batch, the lengths cast to INT64 and laid out alike, and back."""
        from onnx import helper, numpy_helper

        shape, axis = list(shapes[0]), attrs["axis"]
        order = [d for d in range(len(shape)) if d != axis] + [axis]
        moved = [shape[d] for d in order]
        batch = int(np.prod(moved[:-1]))
        back = [order.index(d) for d in range(len(shape))]
        lengths = lengths_shape(shape, axis)
        # Lengths with fewer dimensions than the data (its bytes along a last axis of their own, when it runs as
        # UINT8) serve every byte of an element: one more axis of 1, then expanded over it.
        widened = [*shapes[1], *[1] * (len(shape) - len(shapes[1]))]
        initializers = [numpy_helper.from_array(np.array([batch, shape[axis]], np.int64), "rows"),
                        numpy_helper.from_array(np.array([batch], np.int64), "batch"),
                        numpy_helper.from_array(np.array(moved, np.int64), "moved"),
                        numpy_helper.from_array(np.array(lengths, np.int64), "every_line"),
                        numpy_helper.from_array(np.array(widened, np.int64), "lengths_widened")]
        nodes = [helper.make_node("Transpose", ["x0"], ["axis_last"], perm=order),
                 helper.make_node("Reshape", ["axis_last", "rows"], ["lines"]),
                 helper.make_node("Cast", ["x1"], ["lengths_int64"], to=helper.np_dtype_to_tensor_dtype(
                     np.dtype(np.int64))),
                 helper.make_node("Reshape", ["lengths_int64", "lengths_widened"], ["lengths_as_data"]),
                 helper.make_node("Expand", ["lengths_as_data", "every_line"], ["lengths_full"]),
                 helper.make_node("Transpose", ["lengths_full"], ["lengths_last"], perm=order),
                 helper.make_node("Reshape", ["lengths_last", "batch"], ["lengths"]),
                 helper.make_node("ReverseSequence", ["lines", "lengths"], ["reversed"], batch_axis=0, time_axis=1),
                 helper.make_node("Reshape", ["reversed", "moved"], ["reversed_moved"]),
                 helper.make_node("Transpose", ["reversed_moved"], ["y0"], perm=back)]
        return nodes, initializers

    def onnx_text(self, attrs, input_count):
        return (f"an ONNX Transpose -> Reshape -> ReverseSequence -> Reshape -> Transpose graph (Axis {attrs['axis']} "
                "as its time axis, every other dimension one batch; ONNX Runtime refuses lengths past the axis, "
                "which DirectML reads in its own way)")

    def identity_call(self, x, attrs):
        # Lengths of 0 reverse nothing.
        return [x, np.zeros(lengths_shape(x.shape, 0), np.uint32)], self.canonical_attrs({"axis": 0})


# ---------------------------------------------------------------- UPSAMPLE_2D


def _scale_size(value):
    pair = (value.get("Width"), value.get("Height")) if isinstance(value, dict) and set(value) == {"Width", "Height"} \
        else tuple(value) if isinstance(value, (tuple, list)) else ()
    if len(pair) != 2:
        raise DescriptorError(f"ScaleSize {value!r:.60}: expected {{Width, Height}} (a DML_SIZE_2D) or a (Width, "
                              "Height) pair")
    width, height = check_uint_array(pair, "ScaleSize", minimum=1)
    return width, height


def _interpolation_mode(value):
    mode = INTERPOLATION_MODE.name(value, "InterpolationMode")
    if mode == "LINEAR":
        raise DescriptorError("InterpolationMode LINEAR: averages neighbouring elements into new values; the core "
                              "models UPSAMPLE_2D's NEAREST_NEIGHBOR mode, which copies them (DirectML itself runs "
                              "LINEAR: ops.run_model(model, runtime=\"directml\"))")
    return mode


def upsample_output_shape(shape, attrs):
    width, height = attrs["scale_size"]
    out = (*shape[:-2], shape[-2] * height, shape[-1] * width)
    for name, scale, size in (("Height", height, shape[-2]), ("Width", width, shape[-1])):
        if scale * size > UINT_MAX:
            raise DescriptorError(f"ScaleSize {name} {scale}: must be at most UINT_MAX / {size} (the page's "
                                  f"0 < ScaleSize.{name} <= UINT_MAX / Input{name})")
    return out


class Upsample2D(Movement):
    name = "UPSAMPLE_2D"
    code = 66
    summary = ("repeats every element over a ScaleSize.Height x ScaleSize.Width block of the last two dimensions "
               "(NEAREST_NEIGHBOR)")
    output_rule = "{..., H * ScaleSize.Height, W * ScaleSize.Width}"
    onnx = "Resize"
    core_name = "upsample_2d"
    dims = (4, 5)
    attributes = (Attribute("scale_size", "ScaleSize", _scale_size),
                  Attribute("mode", "InterpolationMode", _interpolation_mode, "NEAREST_NEIGHBOR"))
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("ScaleSize", SIZE_2D, "scale_size"),
              Field("InterpolationMode", ENUM, "mode", enum=INTERPOLATION_MODE))
    # Its page: FLOAT32 and FLOAT16, 4 or 5 dimensions, at every level (DirectML 1.13 refuses every integer type).
    support = support_rows("UPSAMPLE_2D", ("1_0", 4, 5, _FLOATS))
    frameworks = UpsampleForms()
    lesson, fixes, read_lines = teaching.UPSAMPLE, upsample_fixes, staticmethod(detective.upsample_candidates)

    def axis_sources(self, call):
        width, height = call.attr("scale_size")
        scales = [1] * (len(call.input_sizes[0]) - 2) + [height, width]
        return [core.upsample_sources(n, s) for n, s in zip(call.input_sizes[0], scales)]

    def output_shapes(self, input_shapes, attrs):
        return [upsample_output_shape(tuple(input_shapes[0]), attrs)]

    def compute(self, inputs, attrs):
        upsample_output_shape(inputs[0].shape, attrs)
        width, height = attrs["scale_size"]
        return [core.upsample_2d(inputs[0], height, width)]

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper, numpy_helper

        width, height = attrs["scale_size"]
        trailing = attrs.get("byte_axis", 0)  # a last axis of bytes, when the data runs as UINT8 (widened_attrs)
        scales = np.array([1.0] * (len(shapes[0]) - 2 - trailing) + [height, width] + [1.0] * trailing, np.float32)
        # Output o reads floor(o / scale): ONNX Resize's asymmetric coordinates with nearest_mode floor.
        return ([helper.make_node("Resize", ["x0", "", "scales"], ["y0"], mode="nearest", nearest_mode="floor",
                                  coordinate_transformation_mode="asymmetric")],
                [numpy_helper.from_array(scales, "scales")])

    def onnx_text(self, attrs, input_count):
        width, height = attrs["scale_size"]
        return f"ONNX Resize (nearest, asymmetric coordinates, floor; scales {height} x {width})"

    def widened_attrs(self, attrs, k, ndim):
        return {**attrs, "byte_axis": 1}

    def models(self, desc):
        """LINEAR mode averages, which the core does not model: such a dispatchable is DirectML's alone."""
        try:
            return INTERPOLATION_MODE.name(desc.get("InterpolationMode", "NEAREST_NEIGHBOR")) != "LINEAR"
        except DescriptorError:
            return True  # the registry's validation names what is wrong with it

    def identity_call(self, x, attrs):
        return [x.reshape(1, 1, 1, x.size)], self.canonical_attrs({"scale_size": (1, 1)})


SLICE1 = Slice1()
PADDING1 = Padding1()
TILE = Tile()
REVERSE_SUBSEQUENCES = ReverseSubsequences()
UPSAMPLE_2D = Upsample2D()
OPERATORS = (SLICE1, PADDING1, TILE, REVERSE_SUBSEQUENCES, UPSAMPLE_2D)
