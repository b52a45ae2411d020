"""The Split <-> Join page's settings: their URL keys and defaults, its presets and how a core fix becomes its URL
settings, the controls as read and the configuration the core accepts (JOIN read as the SPLIT that undoes it), the
texts about them and the drawn plane, and how a call becomes the page's link."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any, cast

from ops import Call, DescriptorError, index_formula, operator
from ops.descriptors.fixes import axis_fixes, count_fixes, even_split_fixes
from ops.guard import check_element_count
from ops.operators.base import check_axis
from ops.operators.fixes import Fix
from ops.operators.lessons import Formula
from ops.operators.split_join import SplitJoin
from ui.operator_page import Refused
from ui.toolbar import braced, sizes_text
from ui.values import Values, parse_int_list
from viz.split_join_fig import window_bounds

OPERATIONS = {"split": "SPLIT, then JOIN back", "join": "JOIN from its own inputs"}
MODES = {"sizes": "per-output sizes", "even": "even split into K parts"}
DEFAULTS: dict[str, Any] = dict(sj_op="split", sj_sizes="1,1,6,2", sj_axis=2, sj_mode="sizes", sj_split="2,1,3",
                                sj_parts=2, sj_inputs=3, sj_join="2,1,3", sj_slice="", sj_row0=0, sj_col0=0)
PARTS_MAX = 1 << 16
PICK = "sj_pick"  # the picked input element: its multi-index
# The drawn plane: the view (row dim or None for a 1-D tensor, column dim), the index of each other dim, the first
# row and column drawn.
Plane = tuple[tuple[int | None, int], tuple[tuple[int, int], ...], tuple[int, int]]
# The seed's examples: FLOAT32 {1,1,6,2} holding 1..12.
SEED_INPUT = dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0, sj_sizes="1,1,6,2", sj_slice="",
                  sj_row0=0, sj_col0=0)
PRESETS = {name: dict({"sj_op": "split"}, **values) for name, values in {
    "Seed: Axis 2 into {1,1,2,2}, {1,1,1,2}, {1,1,3,2}": dict(SEED_INPUT, sj_axis=2, sj_mode="sizes",
                                                            sj_split="2,1,3"),
    "Seed: Axis 3 into two {1,1,6,1}": dict(SEED_INPUT, sj_axis=3, sj_mode="even", sj_parts=2),
    "JOIN {1,1,2,2}, {1,1,1,2}, {1,1,3,2} along Axis 2": dict(SEED_INPUT, sj_op="join", sj_axis=2, sj_inputs=3,
                                                            sj_join="2,1,3"),
}.items()}
# A fix's setting -> this page's URL key (the axis size is written into the Sizes text instead).
FIX_KEYS = {"output_sizes": "sj_split", "sizes": "sj_sizes", "parts": "sj_parts", "axis": "sj_axis",
            "count": "sj_inputs", "join_sizes": "sj_join"}


@dataclasses.dataclass(frozen=True)
class Controls:
    operation: str
    sizes_text: str
    axis: int
    split_text: str | None = None
    parts: int | None = None
    count: int | None = None
    join_text: str | None = None

    def line(self, data_type: str) -> list[str]:
        """The controls as the parts of the line over the figure."""
        if self.operation == "join":
            return ["JOIN", f"{self.count} inputs, sizes {(self.join_text or '').strip()} along Axis {self.axis}",
                    f"{data_type} {self.joined_sizes_text()}"]
        outputs = f"sizes {self.split_text.strip()}" if self.split_text is not None else f"{self.parts} parts"
        return ["SPLIT, then JOIN", f"{data_type} {braced(self.sizes_text)}", f"Axis {self.axis}", outputs]

    def joined_sizes_text(self) -> str:
        """JOIN's output sizes for the line over the figure: the Sizes field with the inputs' sizes along Axis summed
        there (the field's own entry at Axis is no size of anything); the field as typed, when it does not parse."""
        try:
            sizes = parse_int_list(self.sizes_text, "Sizes")
            joined = sum(parse_int_list(self.join_text or "", "Input sizes along Axis", max_count=None))
        except DescriptorError:
            return braced(self.sizes_text)
        if not 0 <= self.axis < len(sizes):
            return braced(self.sizes_text)
        return "output " + sizes_text((*sizes[:self.axis], joined, *sizes[self.axis + 1:]))

    def fix_settings(self, fix: Fix) -> dict[str, Any]:
        """A core fix as this page's settings: the axis size goes into the Sizes text."""
        settings = {}
        for name, value in fix.changes:
            if name == "axis_size":
                sizes = parse_int_list(self.sizes_text, "Sizes")
                settings["sj_sizes"] = ",".join(str(s) for s in (*sizes[:self.axis], value, *sizes[self.axis + 1:]))
            else:
                # A fix names this page's settings, or the sidebar's own (the value pattern) by their keys.
                settings[FIX_KEYS.get(name, name)] = ",".join(map(str, value)) if isinstance(value, tuple) else value
        return settings


@dataclasses.dataclass(frozen=True)
class Configuration:
    """What the page draws: the whole tensor (JOIN's output read as the SPLIT that undoes it), Axis and the parts'
    sizes along it."""

    values: Values
    sizes: tuple[int, ...]
    axis: int
    output_sizes: tuple[int, ...]
    join: bool

    @property
    def key(self) -> tuple[Values, tuple[int, ...], int, tuple[int, ...]]:
        """The arguments of the page's shared work."""
        return self.values, self.sizes, self.axis, self.output_sizes

    @property
    def split(self) -> Call:
        return Call.of("SPLIT", [self.sizes], self.values.data_type, axis=self.axis, sizes=self.output_sizes)

    @property
    def joining(self) -> Call:
        return Call.of("JOIN", self.pieces, self.values.data_type, axis=self.axis)

    @property
    def pieces(self) -> tuple[tuple[int, ...], ...]:
        return tuple((*self.sizes[:self.axis], s, *self.sizes[self.axis + 1:]) for s in self.output_sizes)

    def work_bytes(self) -> int:
        return self.values.nbytes(self.sizes) * 3

    def split_formula(self, cell: Sequence[int]) -> Formula:
        return index_formula(self.split, tuple(cell))

    def join_formula(self, cell: Sequence[int]) -> Formula:
        """JOIN's formula for the same element, read from the output of SPLIT it sits in."""
        return index_formula(self.joining, self.split_formula(cell).destination)

    def unchecked_calls(self) -> tuple[Call, Call]:
        """(SPLIT, JOIN) made without Call.of's checks: refused settings still describe them."""
        data_type = self.values.data_type
        split = Call(operator("SPLIT"), data_type, (self.sizes,), (("axis", self.axis), ("sizes", self.output_sizes)))
        return split, Call(operator("JOIN"), data_type, self.pieces, (("axis", self.axis),))

    def plane_caption(self) -> str:
        return f"At most 64 x 64 cells. The plane always contains Axis {self.axis}, so the cut shows. " + (
            "Colors = which input an element comes from; hover gives its index in that input and in the output. The "
            "inputs hold consecutive slabs of the sidebar's value pattern over the output, so each value spells "
            "where it lands. Play shows the output cut into its inputs and the inputs joined (JOIN)." if self.join
            else "Colors = which output an element goes to; hover gives its index in the input and in that output. "
            "Play peels the outputs off one by one (SPLIT) and then joins them back (JOIN).")

    def plane_line(self, view: tuple[int | None, int], start: tuple[int, int],
                   fixed: dict[int, int]) -> tuple[list[str], bool]:
        """What the drawn plane is, for the line over the figure, and whether it is the whole tensor."""
        row0, row1, col0, col1 = window_bounds(self.sizes, view, start)
        row_dim, col_dim = view
        rows_text = ("one row (1-D tensor)" if row_dim is None
                     else f"rows = dim {row_dim}, indices {row0} to {row1 - 1}")
        fixed_text = ", ".join(f"dim {d} = {i}" for d, i in sorted(fixed.items())) or "none"
        parts = [f"Drawn plane: {rows_text}; columns = dim {col_dim}, indices {col0} to {col1 - 1}",
                 f"other dims fixed at: {fixed_text}"]
        return parts, (row1 - row0) * (col1 - col0) == math.prod(self.sizes)


def configure(c: Controls, values: Values) -> Configuration:
    """The Configuration the controls describe, with `values` (the sidebar's); JOIN's output and inputs read as the
    SPLIT that undoes it. Refused (or DescriptorError) naming the field otherwise."""
    sizes: tuple[int, ...] = parse_int_list(c.sizes_text, "Sizes")
    check_element_count(sizes, "Sizes")
    try:
        axis = check_axis(c.axis, len(sizes))
    except DescriptorError as exc:
        raise Refused(str(exc), axis_fixes(c.axis, len(sizes))) from None
    if c.operation == "join":
        join_sizes = parse_int_list(c.join_text or "", "Input sizes along Axis", max_count=None)
        if c.count != len(join_sizes):
            raise Refused(f"Number of inputs {c.count}: Input sizes along Axis {list(join_sizes)} name "
                          f"{len(join_sizes)}", count_fixes(c.count, join_sizes))
        sizes, output_sizes = (*sizes[:axis], sum(join_sizes), *sizes[axis + 1:]), join_sizes
    elif c.split_text is not None:
        output_sizes = parse_int_list(c.split_text, "Output sizes along Axis", max_count=None)
    elif c.parts is None or sizes[axis] % c.parts:
        raise Refused(f"Parts K = {c.parts}: the input's size {sizes[axis]} along Axis {axis} is not divisible "
                      f"by {c.parts}", even_split_fixes(sizes[axis], c.parts, axis))
    else:
        output_sizes = (sizes[axis] // c.parts,) * c.parts
    check_element_count(sizes, "Sizes")
    return Configuration(values, tuple(sizes), axis, tuple(output_sizes), c.operation == "join")


def slice_indices(text: str, other_dims: Sequence[int]) -> dict[int, int]:
    """Indices for the dims outside the drawn plane, in dim order; empty text means all 0."""
    if not other_dims or not text.strip():
        return {}
    values = parse_int_list(text, "Slice indices", minimum=0)
    if len(values) != len(other_dims):
        raise DescriptorError(f"Slice indices {list(values)}: need {len(other_dims)} (one each for dims "
                              f"{other_dims})")
    return dict(zip(other_dims, values))


def _joined(values: Sequence[int]) -> str:
    return ",".join(str(int(v)) for v in values)


def link_query(call: Call, stored: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The page's URL settings showing `call`: a JOIN opens as the SPLIT that undoes it, the page shows both."""
    whole, parts = cast(SplitJoin, call.operator).whole_and_parts(call)
    return dict(sj_sizes=_joined(whole), sj_axis=call.attr("axis"), sj_mode="sizes", sj_split=_joined(parts))
