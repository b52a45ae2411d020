"""DML_SPLIT and DML_JOIN: cutting a tensor along one axis and gluing the pieces back (SPEC sections 5-6)."""

import numpy as np

from ...errors import DescriptorError
from ...guard import check_element_count, check_positive_int, check_tensor
from ...tensor_desc import Problem, join_path
from .. import parallel
from ..base import (
    ALL_TYPES,
    COUNT,
    INPUT,
    INPUTS,
    NO_64_BIT,
    OUTPUT,
    OUTPUTS,
    UINT,
    Attribute,
    Field,
    Operator,
    check_axis,
    support_rows,
)
from . import detective, teaching
from .fixes import nearest_fixes
from .frameworks import JoinForms, SplitForms

DIMS = (1, 8)
# DML_SPLIT at 1_0 and DML_JOIN at 1_0: these six types (SPEC sections 5-6).
_TYPES_1_0 = ("FLOAT32", "FLOAT16", "INT32", "INT16", "UINT32", "UINT16")
# JOIN's own page (DML_JOIN_OPERATOR_DESC) lists no 3_1 row: it goes from 4 to 5 dimensions at 3_0 straight to
# 1 to 8 at 4_1. DirectML's feature-level history says DML_FEATURE_LEVEL_3_1 raised JOIN to 8 dimensions, so
# the row exists here, with its minimum unconfirmed (SPEC sections 6 and 7).
_JOIN_3_1_SOURCE = (
    "Source: DirectML's feature-level history (3_1: JOIN up to 8 dimensions). JOIN's own page has no 3_1 row "
    "and shows 1 to 8 dimensions only from 4_1, so the minimum of 1 at 3_1 is not confirmed by it."
)


def split(x, axis, sizes):
    check_tensor(x, "InputTensor", dims=DIMS)
    axis = check_axis(axis, x.ndim)
    if isinstance(sizes, (int, np.integer)) or not hasattr(sizes, "__len__"):
        raise DescriptorError(f"OutputTensors sizes {sizes!r}: expected a list of sizes along Axis")
    if len(sizes) == 0:
        raise DescriptorError("OutputCount 0: must be greater than 0")
    sizes = [check_positive_int(s, f"OutputTensors[{i}] Sizes[{axis}]") for i, s in enumerate(sizes)]
    if sum(sizes) != x.shape[axis]:
        raise DescriptorError(
            f"OutputTensors Sizes along Axis {axis}: {' + '.join(map(str, sizes))} = {sum(sizes)}, "
            f"but the input's size along Axis is {x.shape[axis]}"
        )
    bounds = np.cumsum([0] + sizes)
    index = [slice(None)] * x.ndim
    outputs = []
    for start, stop in zip(bounds[:-1], bounds[1:]):
        index[axis] = slice(int(start), int(stop))
        piece = x[tuple(index)]
        outputs.append(np.empty(piece.shape, dtype=x.dtype))
        parallel.copy(outputs[-1], piece)
    return outputs


def join(arrays, axis):
    if isinstance(arrays, np.ndarray) or not hasattr(arrays, "__len__"):
        raise DescriptorError("InputTensors: expected a list of arrays")
    if len(arrays) == 0:
        raise DescriptorError("InputCount 0: must be greater than 0")
    for i, a in enumerate(arrays):
        check_tensor(a, f"InputTensors[{i}]", dims=DIMS)
    first = arrays[0]
    axis = check_axis(axis, first.ndim)
    for i, a in enumerate(arrays[1:], start=1):
        if a.dtype != first.dtype:
            raise DescriptorError(
                f"InputTensors[{i}] DataType {a.dtype}: must equal InputTensors[0] DataType {first.dtype}"
            )
        if a.ndim != first.ndim:
            raise DescriptorError(
                f"InputTensors[{i}] DimensionCount {a.ndim}: must equal InputTensors[0]'s {first.ndim}"
            )
        for d in range(first.ndim):
            if d != axis and a.shape[d] != first.shape[d]:
                raise DescriptorError(
                    f"InputTensors[{i}] Sizes[{d}] = {a.shape[d]}: must equal InputTensors[0] Sizes[{d}] = "
                    f"{first.shape[d]} (only Axis {axis} may differ)"
                )
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=first.dtype)
    index, start = [slice(None)] * first.ndim, 0
    for a in arrays:
        index[axis] = slice(start, start + a.shape[axis])
        parallel.copy(out[tuple(index)], a)
        start += a.shape[axis]
    return out


# ---------------------------------------------------------------- the operators


def _axis(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise DescriptorError(f"Axis {value!r}: must be a non-negative integer")
    return int(value)


def _part_sizes(value):
    if isinstance(value, (int, np.integer, str, bytes)) or not hasattr(value, "__len__"):
        raise DescriptorError(f"OutputTensors sizes {value!r}: expected a list of sizes along Axis")
    if len(value) == 0:
        raise DescriptorError("OutputCount 0: must be greater than 0")
    return tuple(check_positive_int(s, f"OutputTensors[{i}] Sizes along Axis") for i, s in enumerate(value))


class SplitJoin(Operator):
    """What the pair shares: one whole tensor, several parts that agree with it on every dimension but Axis."""

    whole_name: str  # the desc field of the whole tensor
    parts_name: str  # and of the parts
    # Its teaching, its fixes and what the layout detective asks of it: teaching.py, fixes.py, detective.py.
    formula, question, fixes = teaching.formula, teaching.question, nearest_fixes
    candidates, descriptor_settings, describe = detective.candidates, detective.descriptor_settings, detective.describe

    def shape_problems(self, parsed, path):
        whole, parts = parsed.tensors[self.whole_name], parsed.tensors[self.parts_name]
        axis = parsed.scalars.get("Axis")
        if axis is None:
            return []
        if axis >= whole.DimensionCount:
            return [Problem(join_path(path, "Axis"), f"Axis {axis}: must be in [0, {whole.DimensionCount - 1}] "
                                                     f"({self.whole_name}.DimensionCount - 1)")]
        problems, total, aligned = [], 0, True
        for i, part in enumerate(parts):
            label = f"{self.parts_name}[{i}]"
            if part.DimensionCount != whole.DimensionCount:
                problems.append(Problem(join_path(join_path(path, self.parts_name), i) + ".DimensionCount",
                                        f"DimensionCount {part.DimensionCount}: must equal {self.whole_name}."
                                        f"DimensionCount {whole.DimensionCount}"))
                aligned = False
                continue
            problems += [Problem(join_path(join_path(path, self.parts_name), i) + ".Sizes",
                                 f"{label}.Sizes[{d}] = {part.Sizes[d]}: must equal {self.whole_name}.Sizes[{d}] = "
                                 f"{whole.Sizes[d]} (only Axis {axis} may differ)")
                         for d in range(whole.DimensionCount) if d != axis and part.Sizes[d] != whole.Sizes[d]]
            total += part.Sizes[axis]
        if aligned and total != whole.Sizes[axis]:
            terms = " + ".join(str(p.Sizes[axis]) for p in parts)
            problems.append(Problem(join_path(path, self.parts_name),
                                    f"{self.parts_name} sizes along Axis {axis}: {terms} = {total}, but "
                                    f"{self.whole_name}.Sizes[{axis}] is {whole.Sizes[axis]}; they must sum exactly"))
        return problems

    def identity_call(self, x, attrs):
        return [x], self._one_part(x)

    def whole_and_parts(self, call):
        """(the whole tensor's sizes, each part's size along Axis) of a call."""
        raise NotImplementedError


class Split(SplitJoin):
    name = "SPLIT"
    code = 62
    summary = "cuts a tensor along Axis into OutputCount parts whose sizes along Axis add up to the input's"
    onnx = "Split"
    core_name = "split"
    whole_name, parts_name = "InputTensor", "OutputTensors"
    attributes = (Attribute("axis", "Axis", _axis), Attribute("sizes", "OutputTensors sizes along Axis", _part_sizes))
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputCount", COUNT, counts="OutputTensors"),
              Field("OutputTensors", OUTPUTS, resource="output"), Field("Axis", UINT, "axis"))
    support = support_rows("SPLIT", ("1_0", 4, 4, _TYPES_1_0), ("2_1", 4, 4, NO_64_BIT), ("3_0", 1, 8, NO_64_BIT),
                           ("4_1", 1, 8, ALL_TYPES))
    frameworks = SplitForms()

    def output_shapes(self, input_shapes, attrs):
        shape = tuple(input_shapes[0])
        axis = check_axis(attrs["axis"], len(shape))
        sizes = attrs["sizes"]
        if sum(sizes) != shape[axis]:
            raise DescriptorError(f"OutputTensors Sizes along Axis {axis}: {' + '.join(map(str, sizes))} = "
                                  f"{sum(sizes)}, but the input's size along Axis is {shape[axis]}")
        return [shape[:axis] + (s,) + shape[axis + 1:] for s in sizes]

    def compute(self, inputs, attrs):
        return split(inputs[0], attrs["axis"], attrs["sizes"])

    def whole_and_parts(self, call):
        return call.input_sizes[0], call.attr("sizes")

    def attrs_of(self, parsed):
        axis = parsed.scalars["Axis"]
        return {"axis": axis, "sizes": tuple(d.Sizes[axis] for d in parsed.tensors["OutputTensors"])}

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper, numpy_helper

        outputs = [f"y{i}" for i in range(len(attrs["sizes"]))]
        return ([helper.make_node("Split", ["x0", "split"], outputs, axis=attrs["axis"])],
                [numpy_helper.from_array(np.array(attrs["sizes"], np.int64), "split")])

    def onnx_text(self, attrs, input_count):
        return f"ONNX Split (axis {attrs['axis']}, split input {list(attrs['sizes'])})"

    def implied_output_shapes(self, input_shapes, attrs):
        first, sizes, axis = list(input_shapes[0]), attrs.get("sizes") or [], attrs.get("axis")
        if not (isinstance(axis, int) and 0 <= axis < len(first)):
            return [first for _ in sizes]
        return [first[:axis] + [int(s)] + first[axis + 1:] for s in sizes]

    def widened_attrs(self, attrs, k, ndim):
        if attrs["axis"] != ndim - 1:
            return attrs
        return {**attrs, "sizes": tuple(s * k for s in attrs["sizes"])}

    def widening_note(self, k):
        return f" (split sizes along the last axis scaled by {k})"

    @staticmethod
    def _one_part(x):
        return {"axis": 0, "sizes": (x.size,)}


class Join(SplitJoin):
    name = "JOIN"
    code = 63
    summary = "glues InputCount tensors along Axis; they agree on every other dimension"
    onnx = "Concat"
    core_name = "join"
    arity = (1, None)
    whole_name, parts_name = "OutputTensor", "InputTensors"
    attributes = (Attribute("axis", "Axis", _axis),)
    fields = (Field("InputCount", COUNT, counts="InputTensors"), Field("InputTensors", INPUTS, resource="input"),
              Field("OutputTensor", OUTPUT, resource="output"), Field("Axis", UINT, "axis"))
    support = support_rows("JOIN", ("1_0", 4, 4, _TYPES_1_0), ("2_1", 4, 4, NO_64_BIT), ("3_0", 4, 5, NO_64_BIT),
                           ("3_1", 1, 8, NO_64_BIT, _JOIN_3_1_SOURCE), ("4_1", 1, 8, ALL_TYPES))
    frameworks = JoinForms()

    def output_shapes(self, input_shapes, attrs):
        first = tuple(input_shapes[0])
        axis = check_axis(attrs["axis"], len(first))
        for i, shape in enumerate(input_shapes[1:], start=1):
            if len(shape) != len(first):
                raise DescriptorError(f"InputTensors[{i}] DimensionCount {len(shape)}: must equal InputTensors[0]'s "
                                      f"{len(first)}")
            for d in range(len(first)):
                if d != axis and shape[d] != first[d]:
                    raise DescriptorError(f"InputTensors[{i}] Sizes[{d}] = {shape[d]}: must equal InputTensors[0] "
                                          f"Sizes[{d}] = {first[d]} (only Axis {axis} may differ)")
        return [first[:axis] + (sum(s[axis] for s in input_shapes),) + first[axis + 1:]]

    def compute(self, inputs, attrs):
        return [join(inputs, attrs["axis"])]

    def whole_and_parts(self, call):
        axis = call.attr("axis")
        return call.output_sizes[0], tuple(s[axis] for s in call.input_sizes)

    def implied_output_shapes(self, input_shapes, attrs):
        first, axis = list(input_shapes[0]), attrs.get("axis")
        if not (isinstance(axis, int) and 0 <= axis < len(first)):
            return [first]
        return [first[:axis] + [sum(int(s[axis]) for s in input_shapes if len(s) > axis)] + first[axis + 1:]]

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        return [helper.make_node("Concat", [f"x{i}" for i in range(len(shapes))], ["y0"], axis=attrs["axis"])], []

    def onnx_text(self, attrs, input_count):
        return f"ONNX Concat (axis {attrs['axis']}, {input_count} inputs)"

    @staticmethod
    def _one_part(x):
        return {"axis": 0}


SPLIT = Split()
JOIN = Join()
OPERATORS = (SPLIT, JOIN)
