"""DirectML's gather and scatter family: GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SCATTER (DirectML.h also
names it SCATTER_ELEMENTS), SCATTER_ND and ONE_HOT. Each reads or writes elements at addresses its IndicesTensor
chooses; core.py computes those addresses as DirectML does, past the tensor's end included.

Fields, tensor constraints and support tables are each operator's API page's
(https://learn.microsoft.com/windows/win32/api/directml/ns-directml-dml_<name>_operator_desc; MicrosoftDocs/sdk-api
sdk-api-src/content/directml/ns-directml-dml_<name>_operator_desc.md). Where a page is silent or wrong DirectML 1.13
itself decided, observed here (docs/directml.md, "Gather and scatter"; tests/directml/test_directml_gather_scatter.py):

- GATHER_ELEMENTS, GATHER_ND and GATHER_ND1's pages have no DML_FEATURE_LEVEL_4_1 row; DirectML's release notes
  (microsoft/DirectML Releases.md, DirectML 1.7.0: "Supports 64-bit data type for operators: ... GATHER,
  GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SCATTER, SCATTER_ND, ... ONE_HOT") give them every type at 4_1, as the
  other pages of the family do.
- SCATTER's page says "introduced in DML_FEATURE_LEVEL_1_0"; the feature-level history lists DML_OPERATOR_SCATTER
  among 2_0's new operators and DML_OPERATOR_TYPE numbers it (94) in 2_0's block, so its first row is 2_0 here.
- GATHER's IndexDimensions "ranging [0, IndicesTensor.DimensionCount)" is wrong both ways: its own Example 1 takes
  1 of 1 dimension, and DirectML aborts its process (SIGABRT in CreateOperator) for any IndexDimensions above
  Axis + 1, which the core refuses. The output's dimensions beyond the DimensionCount are cut off whatever their
  size (the page says "leading 1 values"), and DirectML reads the input at coordinate 0 there.
- The ND operators' batch sizes may differ between InputTensor and IndicesTensor (the pages say they are the same
  batches); the output takes IndicesTensor's and the input is read at the same batch coordinates, past its end
  included. ONE_HOT's ValuesTensor may have any DimensionCount. SCATTER's IndicesTensor may be shorter than the
  input along Axis, never longer; GATHER_ELEMENTS' may be either.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ...datatypes import type_name
from ...errors import DescriptorError
from ...levels import SupportRow
from ...tensor_desc import Problem, join_path
from ..base import ALL_TYPES, INPUT, NO_64_BIT, OUTPUT, UINT, Attribute, Field, Operator
from . import core, detective, teaching
from .fixes import nearest_fixes
from .frameworks import (
    GatherElementsForms,
    GatherForms,
    GatherNdForms,
    OneHotForms,
    ScatterForms,
    ScatterNdForms,
)

FLOATS_32_16 = ("FLOAT32", "FLOAT16")
INDEX_TYPES = ("INT64", "INT32", "UINT64", "UINT32")
DIRECTML_ABORTS = "DirectML 1.13 aborts its process on more instead of refusing (docs/directml.md)"


def _rows(name, rows, indices="IndicesTensor"):
    """SupportRows from (level, min dims, max dims, data types, index types[, source])."""
    return tuple(SupportRow(name, level, low, high, types, *source, tensor_types=((indices, index_types),))
                 for level, low, high, types, index_types, *source in rows)


# Every page of the family: 4 dimensions and UINT32 indices until 3_0, then 1 to 8 dimensions and INT64, INT32,
# UINT64 or UINT32 indices; the eight 8-to-32-bit types from 2_1 (FLOAT32 and FLOAT16 before), all eleven from 4_1.
_FROM_2_1 = (("2_1", 4, 4, NO_64_BIT, ("UINT32",)), ("3_0", 1, 8, NO_64_BIT, INDEX_TYPES))
_RELEASE_4_1 = ("Source: DirectML's release notes (Releases.md, DirectML 1.7.0, DML_FEATURE_LEVEL_4_1: 64-bit data "
                "types for GATHER_ELEMENTS, GATHER_ND, GATHER_ND1 and the rest of the family); this operator's own "
                "page stops at 3_0.")
_ALL_4_1 = ("4_1", 1, 8, ALL_TYPES, INDEX_TYPES)
_SCATTER_2_0 = ("Source: DirectML's feature-level history (2_0 added DML_OPERATOR_SCATTER) and DML_OPERATOR_TYPE's "
                "order (94, in 2_0's block); SCATTER's page says 1_0 for this row.")


def _count(label):
    """A check for a UINT field: a non-negative integer (its range depends on the tensors: the operator's rules)."""

    def check(value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
            raise DescriptorError(f"{label} {value!r}: must be a non-negative integer")
        return int(value)

    return check


def _index_type(value):
    name = type_name(value, "IndicesTensor DataType")
    if name not in INDEX_TYPES:
        raise DescriptorError(f"IndicesTensor DataType {name}: indices are {', '.join(INDEX_TYPES)}")
    return name


def _depth(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise DescriptorError(f"depth {value!r}: OutputTensor.Sizes[Axis] must be a positive integer")
    return int(value)


INDICES_TYPE = Attribute("indices_type", "IndicesTensor DataType", _index_type, "UINT32")


def _field_path(path, field):
    """The JSON path of a rule's field ("IndicesTensor.Sizes") inside the desc at `path`."""
    for part in field.split("."):
        path = join_path(path, part)
    return path


def _sizes_text(sizes):
    return f"[{', '.join(str(int(s)) for s in sizes)}]"


class GatherScatter(Operator):
    """What the family shares: every tensor has one DimensionCount, the indices have types of their own, and each
    operator's rules (`rules`) name the field they concern, once for the core and once for a parsed descriptor."""

    dims = (1, 8)
    arity = (2, 2)
    # Its teaching (teaching.py): each formula and question takes IndicesTensor's values; its fixes (fixes.py).
    formula, question, fixes = teaching.formula, teaching.question, nearest_fixes
    describe = detective.describe
    # ONNX Runtime's kernels of the family copy elements whole; a type they lack runs as the unsigned integer of its
    # width, never as bytes (the indices would have to be rewritten).
    byte_axis = None

    def sizes_by_field(self, input_shapes):
        return dict(zip(self.input_labels(len(input_shapes)), (tuple(int(s) for s in shape)
                                                                for shape in input_shapes)))

    def rules(self, sizes, attrs):
        """[(field, message)] for every rule these input sizes and attributes break, in the order they matter."""
        labels = list(sizes)
        rank = len(sizes[labels[0]])
        return [(f"{label}.DimensionCount", f"{label}.DimensionCount {len(sizes[label])}: must equal "
                                            f"{labels[0]}.DimensionCount {rank} (every tensor of {self.name} has "
                                            "the same DimensionCount)")
                for label in labels[1:] if len(sizes[label]) != rank and label in self.same_rank_inputs]

    @property
    def same_rank_inputs(self):
        return [f.name for f in self.fields if f.kind == INPUT]

    def output_sizes(self, sizes, attrs):
        raise NotImplementedError

    def output_shapes(self, input_shapes, attrs):
        sizes = self.sizes_by_field(input_shapes)
        broken = self.rules(sizes, attrs)
        if broken:
            raise DescriptorError(broken[0][1])
        return [self.output_sizes(sizes, attrs)]

    def implied_output_shapes(self, input_shapes, attrs):
        try:
            return super().implied_output_shapes(input_shapes, attrs)
        except (IndexError, ValueError):
            return None

    def shape_problems(self, parsed, path):
        inputs = [f.name for f in self.fields if f.kind == INPUT]
        sizes = {name: tuple(parsed.tensors[name].Sizes) for name in inputs}
        attrs = {f.attribute: parsed.scalars.get(f.name) for f in self.scalar_fields() if f.attribute}
        if any(value is None for value in attrs.values()):
            return []
        attrs.update(self.attrs_from_output(parsed))
        broken = self.rules(sizes, attrs)
        if broken:
            return [Problem(_field_path(path, field), message) for field, message in broken]
        output = parsed.tensors["OutputTensor"]
        expected = self.output_sizes(sizes, attrs)
        if tuple(output.Sizes) == tuple(expected):
            return []
        message = (f"OutputTensor.Sizes {_sizes_text(output.Sizes)}: must be {_sizes_text(expected)} "
                   f"({self.output_rule})")
        return [Problem(_field_path(path, "OutputTensor.Sizes"), message)]

    def attrs_from_output(self, parsed):
        """Attributes a descriptor keeps in its OutputTensor rather than a field of its own (ONE_HOT's depth)."""
        return {}

    def updates_rule(self, sizes, attrs):
        """A scatter's UpdatesTensor has the sizes its indices and input give (`expected_updates`)."""
        expected = tuple(self.expected_updates(sizes, attrs))
        if sizes["UpdatesTensor"] == expected:
            return []
        return [("UpdatesTensor.Sizes", f"UpdatesTensor.Sizes {_sizes_text(sizes['UpdatesTensor'])}: must be "
                                        f"{_sizes_text(expected)} ({self.updates_text})")]

    def check_axis(self, attrs, rank, field="Axis"):
        axis = attrs["axis"]
        if axis >= rank:
            return [(field, f"Axis {axis}: must be in [0, {rank - 1}] (InputTensor.DimensionCount - 1)")]
        return []

    def compute(self, inputs, attrs):
        return [self.function(*inputs, **{name: attrs[name] for name in self.core_attributes})]

    def provenance(self, inputs, **attrs):
        """Where every output element of this call comes from (core.Provenance): which input, which element there,
        which index chose it, and for a scatter where each update lands and which collide. The indices' values
        decide it, so unlike `index_map` it takes the arrays (only the data inputs' sizes and types matter)."""
        inputs = self.check_inputs(inputs)
        attrs = self.canonical_attrs(self.attrs_with_input_types(inputs, attrs))
        [sizes] = self.output_shapes([a.shape for a in inputs], attrs)
        found = self.sources(inputs, attrs)
        reshaped = {name: getattr(found, name).reshape(sizes) for name in ("which", "flat", "chooser", "hits")
                    if getattr(found, name) is not None}
        if found.landing is not None:
            updates = inputs[-1].shape
            reshaped.update(landing=found.landing.reshape(updates), overwritten=found.overwritten.reshape(updates))
        return dataclasses.replace(found, **reshaped)

    def sources(self, inputs, attrs):
        """core.Provenance of checked inputs, its arrays in the plan's sizes."""
        x = inputs[0]
        plan = self.plan(x.shape, inputs[1], attrs)
        if len(inputs) == 3:
            return core.write_sources(x.shape, x.itemsize, plan)
        return core.read_sources(x.shape, x.itemsize, plan)

    def index_map(self, input_shapes, **attrs):
        raise DescriptorError(f"op {self.name}: where each element comes from depends on IndicesTensor's values; "
                              "provenance(inputs, ...) takes them")


# ---------------------------------------------------------------- GATHER


class Gather(GatherScatter):
    name = "GATHER"
    code = 67
    summary = ("output[...] = input[..., indices[...], ...]: InputTensor's slices along Axis, in the order "
               "IndicesTensor names them")
    onnx = "Gather"
    core_name = "gather"
    function = staticmethod(core.gather)
    core_attributes = ("axis", "index_dimensions")
    attributes = (Attribute("axis", "Axis", _count("Axis")),
                  Attribute("index_dimensions", "IndexDimensions", _count("IndexDimensions")), INDICES_TYPE)
    fields = (Field("InputTensor", INPUT, resource="input"),
              Field("IndicesTensor", INPUT, "indices_type", resource="indices"),
              Field("OutputTensor", OUTPUT, resource="output"), Field("Axis", UINT, "axis"),
              Field("IndexDimensions", UINT, "index_dimensions"))
    # DML_GATHER_OPERATOR_DESC's "Tensor support": FLOAT32 and FLOAT16 in 4 dimensions at 1_0, eight types at 2_1.
    support = _rows("GATHER", (("1_0", 4, 4, FLOATS_32_16, ("UINT32",)), *_FROM_2_1, _ALL_4_1))
    output_rule = ("InputTensor.Sizes before Axis, the last IndexDimensions IndicesTensor.Sizes, InputTensor.Sizes "
                   "after Axis, right-aligned to the DimensionCount")
    frameworks = GatherForms()

    def rules(self, sizes, attrs):
        broken = super().rules(sizes, attrs)
        if broken:
            return broken
        rank, k = len(sizes["InputTensor"]), attrs["index_dimensions"]
        broken = self.check_axis(attrs, rank)
        if broken:
            return broken
        if k > attrs["axis"] + 1:
            return [("IndexDimensions", f"IndexDimensions {k}: must be at most Axis + 1 = {attrs['axis'] + 1}; "
                                        f"{DIRECTML_ABORTS}")]
        indices = sizes["IndicesTensor"]
        if any(s != 1 for s in indices[:rank - k]):
            return [("IndicesTensor.Sizes", f"IndicesTensor.Sizes {_sizes_text(indices)}: the first "
                                            f"DimensionCount - IndexDimensions = {rank - k} must be 1 (the indices "
                                            "are the last IndexDimensions)")]
        return []

    def output_sizes(self, sizes, attrs):
        return core.gather_sizes(sizes["InputTensor"], sizes["IndicesTensor"], attrs["axis"],
                                 attrs["index_dimensions"])

    def plan(self, input_sizes, indices, attrs):
        return core.gather_plan(input_sizes, indices, attrs["axis"], attrs["index_dimensions"])

    index_candidates = detective.gather_candidates

    def identity_call(self, x, attrs):
        flat = x.reshape(-1)
        return [flat, np.arange(flat.size, dtype=np.uint32)], {"axis": 0, "index_dimensions": 1}

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        from .onnx_forms import gather_graph

        return gather_graph(helper, attrs, shapes)

    def onnx_text(self, attrs, input_count):
        return (f"ONNX Gather (axis {attrs['axis']} of the input's last dimensions, the IndicesTensor's last "
                f"{attrs['index_dimensions']} dimensions as indices, cast to INT64)")


# ---------------------------------------------------------------- GATHER_ELEMENTS and SCATTER


class Elements(GatherScatter):
    """GATHER_ELEMENTS and SCATTER: each IndicesTensor element chooses the Axis coordinate at its own coordinates."""

    core_attributes = ("axis",)
    attributes = (Attribute("axis", "Axis", _count("Axis")), INDICES_TYPE)

    def plan(self, input_sizes, indices, attrs):
        return core.elements_plan(input_sizes, indices, attrs["axis"])

    def rules(self, sizes, attrs):
        broken = super().rules(sizes, attrs) or self.check_axis(attrs, len(sizes["InputTensor"]))
        if broken:
            return broken
        axis, whole, indices = attrs["axis"], sizes["InputTensor"], sizes["IndicesTensor"]
        for d, (size, index_size) in enumerate(zip(whole, indices)):
            if d != axis and size != index_size:
                return [("IndicesTensor.Sizes", f"IndicesTensor.Sizes[{d}] = {index_size}: must equal "
                                                f"InputTensor.Sizes[{d}] = {size} (only Axis {axis} may differ)")]
        return self.axis_rule(whole[axis], indices[axis], axis)

    def axis_rule(self, size, index_size, axis):
        return []


class GatherElements(Elements):
    name = "GATHER_ELEMENTS"
    code = 107
    summary = "output[i, j, k] = input[i, indices[i, j, k], k] (Axis 1): one element for every IndicesTensor element"
    onnx = "GatherElements"
    core_name = "gather_elements"
    function = staticmethod(core.gather_elements)
    fields = (Field("InputTensor", INPUT, resource="input"),
              Field("IndicesTensor", INPUT, "indices_type", resource="indices"),
              Field("OutputTensor", OUTPUT, resource="output"), Field("Axis", UINT, "axis"))
    support = _rows("GATHER_ELEMENTS", (*_FROM_2_1, (*_ALL_4_1, _RELEASE_4_1)))
    output_rule = "IndicesTensor.Sizes"
    index_candidates = detective.elements_candidates
    frameworks = GatherElementsForms()

    def output_sizes(self, sizes, attrs):
        return sizes["IndicesTensor"]

    def identity_call(self, x, attrs):
        flat = x.reshape(-1)
        return [flat, np.arange(flat.size, dtype=np.uint32)], {"axis": 0}

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        from .onnx_forms import elements_graph

        return elements_graph(helper, "GatherElements", attrs, shapes)

    def onnx_text(self, attrs, input_count):
        return f"ONNX GatherElements (axis {attrs['axis']}, indices cast to INT64)"


class Scatter(Elements):
    name = "SCATTER"
    aliases = ("SCATTER_ELEMENTS",)
    code = 94
    summary = ("output = input, then output[i, indices[i, j, k], k] = updates[i, j, k] (Axis 1); DirectML.h also "
               "names it SCATTER_ELEMENTS")
    onnx = "ScatterElements"
    core_name = "scatter_elements"
    arity = (3, 3)
    function = staticmethod(core.scatter_elements)
    fields = (Field("InputTensor", INPUT, resource="input"),
              Field("IndicesTensor", INPUT, "indices_type", resource="indices"),
              Field("UpdatesTensor", INPUT, resource="updates"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("Axis", UINT, "axis"))
    support = _rows("SCATTER", (("2_0", 4, 4, FLOATS_32_16, ("UINT32",), _SCATTER_2_0), *_FROM_2_1, _ALL_4_1))
    output_rule = "InputTensor.Sizes"
    updates_text = "IndicesTensor.Sizes"
    frameworks = ScatterForms()

    def axis_rule(self, size, index_size, axis):
        if index_size > size:
            return [("IndicesTensor.Sizes", f"IndicesTensor.Sizes[{axis}] = {index_size}: must be at most "
                                            f"InputTensor.Sizes[{axis}] = {size} (DirectML refuses more updates along "
                                            "Axis than the output has places)")]
        return []

    def rules(self, sizes, attrs):
        return super().rules(sizes, attrs) or self.updates_rule(sizes, attrs)

    def output_sizes(self, sizes, attrs):
        return sizes["InputTensor"]

    def expected_updates(self, sizes, attrs):
        return sizes["IndicesTensor"]

    def identity_call(self, x, attrs):
        flat = x.reshape(-1)
        return [np.zeros_like(flat), np.arange(flat.size, dtype=np.uint32), flat], {"axis": 0}

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        from .onnx_forms import elements_graph

        return elements_graph(helper, "ScatterElements", attrs, shapes)

    def onnx_text(self, attrs, input_count):
        return f"ONNX ScatterElements (axis {attrs['axis']}, reduction none, indices cast to INT64)"


# ---------------------------------------------------------------- GATHER_ND, GATHER_ND1, SCATTER_ND


class Nd(GatherScatter):
    """Tuples of coordinates: IndicesTensor's last dimension holds t coordinates of the input's meaningful
    dimensions (the last InputDimensionCount), after the batch ones."""

    batch = False  # GATHER_ND1 counts batch dimensions

    @property
    def core_attributes(self):
        return ("input_dimensions", "indices_dimensions") + (("batch_dimensions",) if self.batch else ())

    def rules(self, sizes, attrs):
        broken = super().rules(sizes, attrs)
        if broken:
            return broken
        whole, indices = sizes["InputTensor"], sizes["IndicesTensor"]
        m, q, b = attrs["input_dimensions"], attrs["indices_dimensions"], attrs.get("batch_dimensions", 0)
        for label, tensor, count, field in (("InputTensor", whole, m, "InputDimensionCount"),
                                            ("IndicesTensor", indices, q, "IndicesDimensionCount")):
            rank = len(tensor)
            if not 1 <= count <= rank:
                return [(field, f"{field} {count}: must be in [1, {rank}] ({label}.DimensionCount)")]
            if any(s != 1 for s in tensor[:rank - count]):
                return [(f"{label}.Sizes", f"{label}.Sizes {_sizes_text(tensor)}: the first DimensionCount - {field}"
                                           f" = {rank - count} must be 1 (only the last {field} count)")]
        if b >= q:
            return [("BatchDimensionCount", f"BatchDimensionCount {b}: must be below IndicesDimensionCount {q} (the "
                                            "last indices dimension holds the coordinates)")]
        t = indices[-1]
        if b + t > m:
            return [("IndicesTensor.Sizes", f"IndicesTensor.Sizes[{len(indices) - 1}] = {t} coordinates per index: "
                                            f"at most InputDimensionCount - BatchDimensionCount = {m - b}")]
        needed = len(core.nd_meaningful(whole, indices, m, q, b))
        rank = len(sizes[self.result_field]) if self.result_field in sizes else len(whole)
        if needed > rank:
            return [(f"{self.result_field}.DimensionCount",
                     f"{self.result_field} needs {needed} dimensions (IndicesDimensionCount - 1 + InputDimensionCount "
                     f"- BatchDimensionCount - {t} coordinates), more than its DimensionCount {rank}; DirectML "
                     "refuses it")]
        return self.more_rules(sizes, attrs)

    def more_rules(self, sizes, attrs):
        return []

    def plan(self, input_sizes, indices, attrs):
        return core.nd_plan(input_sizes, indices, attrs["input_dimensions"], attrs["indices_dimensions"],
                            attrs.get("batch_dimensions", 0))

    def result_sizes(self, sizes, attrs, rank):
        return core.nd_sizes(sizes["InputTensor"], sizes["IndicesTensor"], attrs["input_dimensions"],
                             attrs["indices_dimensions"], attrs.get("batch_dimensions", 0), rank)

    @staticmethod
    def _tuples(x):
        """x as {n, 1} and the tuples {n, 1} that read it whole."""
        flat = x.reshape(-1, 1)
        return flat, np.arange(flat.shape[0], dtype=np.uint32).reshape(-1, 1)

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        from .onnx_forms import nd_graph

        return nd_graph(helper, self.onnx, attrs, shapes)


class GatherNd(Nd):
    name = "GATHER_ND"
    code = 108
    summary = "output[...] = input[indices[...]]: each tuple of coordinates in IndicesTensor's last dimension reads "\
              "one element or slice"
    onnx = "GatherND"
    core_name = "gather_nd"
    function = staticmethod(core.gather_nd)
    result_field = "OutputTensor"
    attributes = (Attribute("input_dimensions", "InputDimensionCount", _count("InputDimensionCount")),
                  Attribute("indices_dimensions", "IndicesDimensionCount", _count("IndicesDimensionCount")),
                  INDICES_TYPE)
    fields = (Field("InputTensor", INPUT, resource="input"),
              Field("IndicesTensor", INPUT, "indices_type", resource="indices"),
              Field("OutputTensor", OUTPUT, resource="output"),
              Field("InputDimensionCount", UINT, "input_dimensions"),
              Field("IndicesDimensionCount", UINT, "indices_dimensions"))
    support = _rows("GATHER_ND", (*_FROM_2_1, (*_ALL_4_1, _RELEASE_4_1)))
    frameworks = GatherNdForms(batch=False)
    output_rule = ("IndicesTensor's meaningful sizes but the last, then the meaningful InputTensor.Sizes after the "
                   "batch and coordinate dimensions, right-aligned with leading 1s")

    def output_sizes(self, sizes, attrs):
        return self.result_sizes(sizes, attrs, len(sizes["InputTensor"]))

    def identity_call(self, x, attrs):
        return list(self._tuples(x)), {"input_dimensions": 2, "indices_dimensions": 2,
                                       **({"batch_dimensions": 0} if self.batch else {})}

    def onnx_text(self, attrs, input_count):
        batch = attrs.get("batch_dimensions", 0)
        return f"ONNX GatherND (batch_dims {batch}, on the meaningful dimensions, indices cast to INT64)"


class GatherNd1(GatherNd):
    name = "GATHER_ND1"
    code = 140
    summary = ("output[batch, ...] = input[batch, indices[batch, ...], ...]: GATHER_ND with BatchDimensionCount "
               "leading dimensions gathered batch by batch")
    core_name = "gather_nd1"
    function = staticmethod(core.gather_nd1)
    batch = True
    attributes = GatherNd.attributes[:2] + (
        Attribute("batch_dimensions", "BatchDimensionCount", _count("BatchDimensionCount"), 0), INDICES_TYPE)
    fields = GatherNd.fields + (Field("BatchDimensionCount", UINT, "batch_dimensions"),)
    # DML_GATHER_ND1_OPERATOR_DESC's page has one table (3_0); 4_1 from the release notes.
    support = _rows("GATHER_ND1", (("3_0", 1, 8, NO_64_BIT, INDEX_TYPES), (*_ALL_4_1, _RELEASE_4_1)))
    frameworks = GatherNdForms(batch=True)


class ScatterNd(Nd):
    name = "SCATTER_ND"
    code = 109
    summary = "output = input, then output[indices[...]] = updates[...]: each tuple of coordinates writes one element "\
              "or slice"
    onnx = "ScatterND"
    core_name = "scatter_nd"
    arity = (3, 3)
    function = staticmethod(core.scatter_nd)
    result_field = "UpdatesTensor"
    attributes = GatherNd.attributes
    fields = (Field("InputTensor", INPUT, resource="input"),
              Field("IndicesTensor", INPUT, "indices_type", resource="indices"),
              Field("UpdatesTensor", INPUT, resource="updates"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("InputDimensionCount", UINT, "input_dimensions"),
              Field("IndicesDimensionCount", UINT, "indices_dimensions"))
    support = _rows("SCATTER_ND", (*_FROM_2_1, _ALL_4_1))
    updates_text = GatherNd.output_rule
    frameworks = ScatterNdForms()
    output_rule = "InputTensor.Sizes"
    # Observed: DirectML takes each tensor's own DimensionCount (its page's example scatters {4, 1} indices into an
    # {8} input), right-aligned; the page says they all match.
    same_rank_inputs = ()

    def expected_updates(self, sizes, attrs):
        return self.result_sizes(sizes, attrs, len(sizes["UpdatesTensor"]))

    def more_rules(self, sizes, attrs):
        return self.updates_rule(sizes, attrs)

    def output_sizes(self, sizes, attrs):
        return sizes["InputTensor"]

    def identity_call(self, x, attrs):
        flat, tuples = self._tuples(x)
        return [np.zeros_like(flat), tuples, flat], {"input_dimensions": 2, "indices_dimensions": 2}

    def onnx_text(self, attrs, input_count):
        return "ONNX ScatterND (reduction none, on the meaningful dimensions, indices cast to INT64)"


# ---------------------------------------------------------------- ONE_HOT


class OneHot(GatherScatter):
    name = "ONE_HOT"
    code = 95
    summary = ("OffValue everywhere but OnValue at each sequence's index along Axis: ValuesTensor's elements 0 and 1, "
               "IndicesTensor's positions")
    onnx = "OneHot"
    core_name = "one_hot"
    function = staticmethod(core.one_hot)
    core_attributes = ("axis", "depth")
    attributes = (Attribute("axis", "Axis", _count("Axis")), Attribute("depth", "OutputTensor.Sizes[Axis]", _depth),
                  INDICES_TYPE)
    fields = (Field("IndicesTensor", INPUT, "indices_type", resource="indices"),
              Field("ValuesTensor", INPUT, resource="values"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("Axis", UINT, "axis"))
    # DML_ONE_HOT_OPERATOR_DESC's "Tensor support": introduced at 2_0.
    support = _rows("ONE_HOT", (("2_0", 4, 4, FLOATS_32_16, ("UINT32",)), *_FROM_2_1, _ALL_4_1))
    frameworks = OneHotForms()
    output_rule = "IndicesTensor.Sizes with the depth at Axis"
    # Observed: DirectML takes a ValuesTensor of any DimensionCount (its page says they all match).
    same_rank_inputs = ("IndicesTensor",)

    def rules(self, sizes, attrs):
        indices, values = sizes["IndicesTensor"], sizes["ValuesTensor"]
        axis = attrs["axis"]
        if axis >= len(indices):
            return [("Axis", f"Axis {axis}: must be in [0, {len(indices) - 1}] (IndicesTensor.DimensionCount - 1)")]
        if indices[axis] != 1:
            return [("IndicesTensor.Sizes", f"IndicesTensor.Sizes[{axis}] = {indices[axis]}: must be 1 (one index per "
                                            "sequence along Axis)")]
        if math.prod(values) < 2:
            return [("ValuesTensor.Sizes", f"ValuesTensor.Sizes {_sizes_text(values)}: must hold at least 2 elements "
                                           "(OffValue, OnValue)")]
        return []

    def output_sizes(self, sizes, attrs):
        out = list(sizes["IndicesTensor"])
        out[attrs["axis"]] = attrs["depth"]
        return tuple(out)

    def sources(self, inputs, attrs):
        return core.one_hot_sources(inputs[0], attrs["axis"], attrs["depth"])

    def attrs_from_output(self, parsed):
        axis, output = parsed.scalars["Axis"], parsed.tensors["OutputTensor"]
        return {"depth": output.Sizes[axis]} if axis < output.DimensionCount else {"depth": 1}

    def attrs_of(self, parsed):
        return self.canonical_attrs({"axis": parsed.scalars["Axis"], **self.attrs_from_output(parsed),
                                     "indices_type": parsed.tensors["IndicesTensor"].DataType})

    def identity_call(self, x, attrs):
        return None  # its output holds two values, OffValue and OnValue

    def route_probes(self, x, attrs):
        """Every pair of x's elements as (OffValue, OnValue) of one call each."""
        pairs = x.reshape(-1)[: x.size // 2 * 2].reshape(-1, 2)
        indices = np.array([[1], [0]], np.int64)
        return [([indices, pair], {"axis": 1, "depth": 2}) for pair in pairs]

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        from .onnx_forms import one_hot_graph

        return one_hot_graph(helper, attrs, shapes)

    def onnx_text(self, attrs, input_count):
        return f"ONNX OneHot (axis {attrs['axis']}, depth {attrs['depth']}, values [off, on])"


GATHER = Gather()
GATHER_ELEMENTS = GatherElements()
GATHER_ND = GatherNd()
GATHER_ND1 = GatherNd1()
SCATTER = Scatter()
SCATTER_ND = ScatterNd()
ONE_HOT = OneHot()
OPERATORS = (GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SCATTER, SCATTER_ND, ONE_HOT)
