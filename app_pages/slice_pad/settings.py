"""The Slice, Pad & Tile page's settings: their URL keys and defaults, its presets (every worked example of the
family's API pages), the configuration the core accepts, and how a call becomes the page's link.

InputTensor takes the sidebar's values; REVERSE_SUBSEQUENCES' lengths are typed on the page, since they decide the
moves.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ops import Call, Operator, operator, type_name
from ops.operators.fixes import Fix, Fixes
from ops.operators.slice_pad import OPERATORS, lengths_shape
from ops.operators.slice_pad.core import PADDING_MODES
from ops.operators.slice_pad.examples import EXAMPLES
from ui.values import Values, parse_int_list, parse_values
from ui.work import tensor
from viz.provenance_fig import Sources

OPERATOR_NAMES = tuple(op.name for op in OPERATORS)
LENGTH_TYPES = ("UINT32", "UINT64")
PICK = "sp_pick"  # the picked element: (tensor number, flat index)
TYPED_MAX_CHARS = 4000
STRIDE_MIN = -(1 << 31)  # INT strides; zero gets the core's message
# Each attribute a visitor sets: its URL key and how its text reads (a list's smallest entry; None: a number).
LISTS = {"window_offsets": ("sp_offsets", 0), "window_sizes": ("sp_window", 1), "window_strides": ("sp_strides",
         STRIDE_MIN), "output_sizes": ("sp_out", 1), "start_padding": ("sp_start", 0), "end_padding": ("sp_end", 0),
         "repeats": ("sp_repeats", 1), "scale_size": ("sp_scale", 1)}
NUMBERS = {"axis": "sp_axis", "padding_value": "sp_value"}
# Choices by their field's name: UPSAMPLE_2D's InterpolationMode is NEAREST_NEIGHBOR, the one mode the core models.
CHOICES = {"PaddingMode": ("sp_mode", PADDING_MODES), "SequenceLengthsTensor DataType": ("sp_lengths_type",
                                                                                         LENGTH_TYPES)}
DEFAULTS: dict[str, Any] = dict(sp_op="PADDING1", sp_sizes="1,1,4,4", sp_offsets="0,0,0,1", sp_window="1,1,4,3",
                                sp_strides="1,1,-2,2", sp_out="", sp_mode="REFLECTION", sp_value=0.0,
                                sp_start="0,0,1,2", sp_end="0,0,3,4", sp_repeats="1,1,3,3", sp_axis=3,
                                sp_lengths="2 4 3", sp_lengths_type="UINT32", sp_scale="2,2")


def _text(values: Any) -> str:
    return " ".join(str(v) for v in np.asarray(values).ravel().tolist())


def _list(values: Sequence[int]) -> str:
    return ",".join(str(int(v)) for v in values)


def attribute_settings(op: Operator, attrs: Mapping[str, Any]) -> dict[str, Any]:
    """A call's attributes (those given) as the page's URL settings."""
    settings: dict[str, Any] = {}
    for attribute in attributes_of(op):
        name = attribute.name
        if name not in attrs:
            continue
        value = attrs[name]
        if name in LISTS:
            settings[LISTS[name][0]] = "" if value is None else _list(value)
        elif name in NUMBERS:
            settings[NUMBERS[name]] = float(value) if name == "padding_value" else int(value)
        else:
            settings[CHOICES[attribute.label][0]] = value
    return settings


def example_settings(example: Any) -> dict[str, Any]:
    """The page's URL settings (and the sidebar's) that show one worked example exactly."""
    x = example.inputs[0]
    settings = dict(sp_op=example.op, dtype=type_name(x.dtype), pattern="custom", values=_text(x),
                    sp_sizes=_list(x.shape), **attribute_settings(operator(example.op), example.attrs))
    if len(example.inputs) > 1:
        settings["sp_lengths"] = _text(example.inputs[1])
        settings["sp_lengths_type"] = type_name(example.inputs[1].dtype)
    return settings


def attributes_of(op: Operator) -> list[Any]:
    """The operator's attributes a visitor sets (UPSAMPLE_2D's mode is NEAREST_NEIGHBOR, the one the core models)."""
    return [a for a in op.attributes if a.name in LISTS or a.name in NUMBERS or a.label in CHOICES]


PRESETS = {f"{e.op} {e.name}": example_settings(e) for e in EXAMPLES}


@dataclasses.dataclass(frozen=True)
class Configuration:
    """One call: the operator, InputTensor's values (the sidebar's) and sizes, the lengths as typed (a reversal's),
    and the attributes as (name, value) pairs."""

    op: str
    values: Values
    sizes: tuple[int, ...]
    lengths_text: str
    attrs: tuple[tuple[str, Any], ...]

    @property
    def operator(self) -> Operator:
        return operator(self.op)

    @property
    def reverses(self) -> bool:
        """Whether a second input, SequenceLengthsTensor, decides the moves."""
        return self.operator.arity[1] > 1

    def input_sizes(self) -> tuple[tuple[int, ...], ...]:
        if not self.reverses:
            return (self.sizes,)
        return self.sizes, lengths_shape(self.sizes, dict(self.attrs)["axis"])

    @property
    def call(self) -> Call:
        return Call.of(self.op, self.input_sizes(), self.values.data_type, **dict(self.attrs))

    def unchecked_call(self) -> Call:
        return Call(self.operator, self.values.data_type, self.input_sizes(), self.attrs)

    def inputs(self) -> list[np.ndarray]:
        arrays = [tensor(self.values, self.sizes)]
        if self.reverses:
            dtype = np.dtype(dict(self.attrs)["lengths_type"].lower())
            arrays.append(parse_values(self.lengths_text, self.input_sizes()[1], dtype,
                                       field="SequenceLengthsTensor"))
        return arrays

    def sources(self, inputs: Sequence[np.ndarray]) -> Sources:
        [(which, flat)] = self.operator.index_map([a.shape for a in inputs], **dict(self.attrs),
                                                  **self.given(inputs))
        if not self.reverses:
            return Sources(which.ravel(), flat.ravel(), np.full(which.size, -1, np.int64))
        # Each output element's line reads its length at the line's SequenceLengthsTensor element.
        axis, lengths = dict(self.attrs)["axis"], inputs[1]
        coordinates = list(np.indices(which.shape).reshape(which.ndim, -1))
        coordinates[axis] = np.zeros_like(coordinates[axis])
        chooser = np.ravel_multi_index(coordinates, lengths.shape)
        return Sources(which.ravel(), flat.ravel(), chooser.astype(np.int64), 1)

    def given(self, inputs: Sequence[np.ndarray]) -> dict[str, Any]:
        return {"lengths": inputs[1]} if self.reverses else {}

    def fixes(self) -> Fixes:
        return self.operator.fixes(self.input_sizes(), dict(self.attrs))

    def line(self) -> list[str]:
        attrs = dict(self.attrs)
        # Lists in DirectML's braces and PaddingValue only where a CONSTANT pad uses it: the line fits beside the
        # projector's K hint (PADDING1's default line wrapped, and pushed its 8-row figure past 720 px).
        shown = ", ".join(f"{a.label} {_shown(attrs[a.name])}" for a in attributes_of(self.operator)
                          if a.name != "padding_value" or attrs.get("mode") == "CONSTANT")
        return [self.op, f"InputTensor {_shown(self.sizes)}", shown, self.values.data_type]


def _shown(value: Any) -> str:
    if value is None:
        return "all"
    return "{" + _list(value) + "}" if isinstance(value, (list, tuple)) else str(value)


def fix_settings(fix: Fix, op: Operator) -> dict[str, Any]:
    """A core fix (ops/operators/slice_pad/fixes.py: the attributes by name, the input's Sizes as "sizes") as the
    page's URL settings."""
    changes = fix.as_dict
    settings = {"sp_sizes": _list(changes.pop("sizes"))} if "sizes" in changes else {}
    return {**settings, **attribute_settings(op, changes)}


def configure(settings: Mapping[str, Any], values: Values) -> Configuration:
    """The configuration the page's settings (URL key -> value) describe, not yet checked by the core (its `call`
    is); DescriptorError naming the field for lists that are no lists of whole numbers."""
    op = operator(settings["sp_op"])
    attrs: dict[str, Any] = {}
    for attribute in attributes_of(op):
        name = attribute.name
        if name in LISTS:
            key, minimum = LISTS[name]
            text = settings[key]
            attrs[name] = None if name == "output_sizes" and not str(text).strip() else \
                parse_int_list(text, attribute.label, minimum=minimum)
        elif name in NUMBERS:
            attrs[name] = settings[NUMBERS[name]]
        else:
            attrs[name] = settings[CHOICES[attribute.label][0]]
    return Configuration(op.name, values, parse_int_list(settings["sp_sizes"], "InputTensor Sizes"),
                         settings["sp_lengths"] if op.arity[1] > 1 else "", tuple(attrs.items()))


def link_query(call: Call, stored: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The page's URL settings showing `call` (a reversal's lengths: zeros, which reverse nothing)."""
    query = dict(sp_op=call.op, sp_sizes=_list(call.input_sizes[0]),
                 **attribute_settings(call.operator, call.attributes))
    if len(call.input_sizes) > 1:
        query["sp_lengths"] = _text([0] * math.prod(call.input_sizes[1]))
    return query
