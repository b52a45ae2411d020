"""The Gather & Scatter page's settings: their URL keys and defaults, its presets (every worked example of the family's
API pages), the configuration the core accepts, and how a call becomes the page's link.

The data tensor the output copies (InputTensor; ONE_HOT's ValuesTensor) takes the sidebar's values; the indices and
a scatter's UpdatesTensor are typed on the page, since they are what the lesson is about.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from ops import Call, Operator, operator
from ops.operators.fixes import Fix, Fixes
from ops.operators.gather_scatter import OPERATORS, GatherScatter
from ops.operators.gather_scatter.core import INDEX_DTYPES
from ops.operators.gather_scatter.examples import EXAMPLES
from ui.values import Values, parse_int_list, parse_values
from ui.work import tensor
from viz.provenance_fig import Sources

OPERATOR_NAMES = tuple(op.name for op in OPERATORS)
INDEX_TYPES = tuple(INDEX_DTYPES)
PICK = "gs_pick"  # the picked element: (tensor number, flat index)
TYPED_MAX_CHARS = 4000  # typed indices and updates: as the sidebar's typed values
# Each attribute the family's operators take, and its URL key (the indices' type has a widget of its own).
ATTRIBUTE_KEYS = {"axis": "gs_axis", "index_dimensions": "gs_index_dims", "input_dimensions": "gs_input_dims",
                  "indices_dimensions": "gs_indices_dims", "batch_dimensions": "gs_batch_dims", "depth": "gs_depth"}
DEFAULTS: dict[str, Any] = dict(gs_op="GATHER", gs_sizes="3,2", gs_indices_sizes="1,4", gs_indices="0 1 1 2",
                                gs_indices_type="UINT32", gs_second_sizes="", gs_second="", gs_axis=0,
                                gs_index_dims=1, gs_input_dims=1, gs_indices_dims=1, gs_batch_dims=0, gs_depth=2)


def _text(values: Sequence[Any]) -> str:
    return " ".join(str(v) for v in values)


def _sizes(sizes: Sequence[int]) -> str:
    return ",".join(str(int(s)) for s in sizes)


def example_settings(example: Any) -> dict[str, Any]:
    """The page's URL settings (and the sidebar's) that show one worked example exactly."""
    op = operator(example.op)
    labels = op.input_labels(len(example.inputs))
    indices = example.inputs[labels.index("IndicesTensor")]
    data = [t for label, t in zip(labels, example.inputs) if label != "IndicesTensor"]
    settings: dict[str, Any] = dict(gs_op=op.name, dtype=data[0].data_type, pattern="custom",
                                    values=_text(data[0].values), gs_sizes=_sizes(data[0].sizes),
                                    gs_indices_sizes=_sizes(indices.sizes),
                                    gs_indices=_text(indices.values), gs_indices_type=indices.data_type,
                                    gs_second_sizes=_sizes(data[1].sizes) if len(data) > 1 else "",
                                    gs_second=_text(data[1].values) if len(data) > 1 else "")
    settings.update({ATTRIBUTE_KEYS[name]: value for name, value in example.attrs})
    return settings


PRESETS = {f"{e.op} {e.title}": example_settings(e) for e in EXAMPLES}


def attributes_of(op: Operator) -> list[Any]:
    """The operator's attributes a visitor sets (its indices' type has a widget of its own)."""
    return [a for a in op.attributes if a.name in ATTRIBUTE_KEYS]


@dataclasses.dataclass(frozen=True)
class Configuration:
    """One call: the operator, the data tensor's values (the sidebar's) and sizes, the indices and a second data
    tensor as typed, and the attributes as (name, value) pairs."""

    op: str
    values: Values
    sizes: tuple[int, ...]
    indices_sizes: tuple[int, ...]
    indices_text: str
    indices_type: str
    second_sizes: tuple[int, ...]
    second_text: str
    attrs: tuple[tuple[str, Any], ...]

    @property
    def operator(self) -> Operator:
        return operator(self.op)

    @property
    def labels(self) -> list[str]:
        return self.operator.input_labels(self.operator.arity[1])

    def input_sizes(self) -> tuple[tuple[int, ...], ...]:
        """Each input's sizes in the descriptor's order."""
        data = iter((self.sizes, self.second_sizes))
        return tuple(self.indices_sizes if label == "IndicesTensor" else next(data) for label in self.labels)

    @property
    def call(self) -> Call:
        return Call.of(self.op, self.input_sizes(), self.values.data_type, indices_type=self.indices_type,
                       **dict(self.attrs))

    def unchecked_call(self) -> Call:
        return Call(self.operator, self.values.data_type, self.input_sizes(),
                    tuple({**dict(self.attrs), "indices_type": self.indices_type}.items()))

    def inputs(self) -> list[np.ndarray]:
        dtype = np.dtype(self.values.data_type.lower())
        arrays, data = [], 0
        for label, sizes in zip(self.labels, self.input_sizes()):
            if label == "IndicesTensor":
                arrays.append(parse_values(self.indices_text, sizes, INDEX_DTYPES[self.indices_type], field=label))
            elif data == 0:
                arrays.append(tensor(self.values, sizes))
                data += 1
            else:
                arrays.append(parse_values(self.second_text, sizes, dtype, field=label))
        return arrays

    def sources(self, inputs: Sequence[np.ndarray]) -> Sources:
        found = cast(GatherScatter, self.operator).provenance(list(inputs), **dict(self.attrs))
        landing = None if found.landing is None else found.landing.ravel()
        return Sources(found.which.ravel(), found.flat.ravel(), found.chooser.ravel(),
                       self.labels.index("IndicesTensor"), None if found.hits is None else found.hits.ravel(),
                       landing, None if landing is None else len(inputs) - 1)

    def given(self, inputs: Sequence[np.ndarray]) -> dict[str, Any]:
        return {"indices": inputs[self.labels.index("IndicesTensor")]}

    def fixes(self) -> Fixes:
        return self.operator.fixes(self.input_sizes(), {**dict(self.attrs), "indices_type": self.indices_type})

    def line(self) -> list[str]:
        shapes = ", ".join(f"{label} {list(s)}" for label, s in zip(self.labels, self.input_sizes()))
        attrs = ", ".join(f"{a.label} {dict(self.attrs)[a.name]}" for a in attributes_of(self.operator))
        return [self.op, shapes, attrs, f"{self.values.data_type}, indices {self.indices_type}"]


def link_query(call: Call, stored: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The page's URL settings showing `call` (its indices: zeros, which every call admits; values are not part of
    a call)."""
    labels = call.operator.input_labels(len(call.input_sizes))
    sizes = dict(zip(labels, call.input_sizes))
    data = [s for label, s in zip(labels, call.input_sizes) if label != "IndicesTensor"]
    indices = sizes["IndicesTensor"]
    query = dict(gs_op=call.op, gs_sizes=_sizes(data[0]), gs_indices_sizes=_sizes(indices),
                 gs_indices=_text([0] * math.prod(indices)), gs_indices_type=call.attr("indices_type"),
                 gs_second_sizes=_sizes(data[1]) if len(data) > 1 else "",
                 gs_second=_text([0] * math.prod(data[1])) if len(data) > 1 else "")
    query.update({ATTRIBUTE_KEYS[name]: value for name, value in call.attrs if name in ATTRIBUTE_KEYS})
    return query




# A core fix's setting (ops/operators/gather_scatter/fixes.py) -> this page's URL key: a data tensor's sizes go to
# the field that tensor has here (ONE_HOT's ValuesTensor is the page's first data tensor).
FIX_SIZES = {"sizes": "gs_sizes", "values_sizes": "gs_sizes", "indices_sizes": "gs_indices_sizes",
             "updates_sizes": "gs_second_sizes"}


def fix_settings(fix: Fix) -> dict[str, Any]:
    """A core fix as the page's URL settings."""
    settings = {}
    for name, value in fix.changes:
        if name in FIX_SIZES:
            settings[FIX_SIZES[name]] = _sizes(value)
        elif name in ATTRIBUTE_KEYS:
            settings[ATTRIBUTE_KEYS[name]] = value
    return settings


def data_labels(op: Operator) -> list[str]:
    """The inputs the output copies from, the first taking the sidebar's values."""
    return [label for label in op.input_labels(op.arity[1]) if label != "IndicesTensor"]


def configure(settings: Mapping[str, Any], values: Values) -> Configuration:
    """The configuration the page's settings (URL key -> value) describe, not yet checked by the core (its `call`
    is); DescriptorError naming the field for sizes that are no sizes."""
    op = operator(settings["gs_op"])
    first, *second = data_labels(op)
    second_sizes = parse_int_list(settings["gs_second_sizes"], f"{second[0]} Sizes") if second else ()
    return Configuration(op.name, values, parse_int_list(settings["gs_sizes"], f"{first} Sizes"),
                         parse_int_list(settings["gs_indices_sizes"], "IndicesTensor Sizes"), settings["gs_indices"],
                         settings["gs_indices_type"], second_sizes, settings["gs_second"] if second else "",
                         tuple((a.name, settings[ATTRIBUTE_KEYS[a.name]]) for a in attributes_of(op)))
