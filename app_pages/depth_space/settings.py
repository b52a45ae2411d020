"""The Depth <-> Space page's settings: their URL keys and defaults, its presets, the configuration the core accepts
(its line over the figure, its refusal of negative sizes and nearest fixes, its calls and formulas), the words of a
pick, and how a call becomes the page's link."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, cast

from ops import Call, Operator, index_formula, operator
from ops.descriptors.fixes import depth_space_fixes, inverse_shape
from ops.operators.depth_space import DIMENSION_NAMES, DIRECTIONS, ORDERS, DepthSpace
from ops.operators.fixes import Fixes
from ops.operators.lessons import Formula
from ui.toolbar import sizes_text
from ui.values import Values
from viz.depth_space_fig import describe_pick
from viz.operator_figure import Pick

DEFAULTS: dict[str, Any] = {"direction": "depth_to_space", "N": 1, "C": 8, "H": 2, "W": 3, "BlockSize": 2,
                            "Order": ORDERS[0]}
COMPARE = "compare"  # the Order that shows both orders, one above the other
SIZE_MAX = 1 << 20
BLOCK_MAX = 64  # one 64x64 block is the whole drawing budget
PICK = "ds_pick"  # the picked input element: (flat index,)
WINDOW_KEYS = ("ds_batch", "ds_channel", "ds_row", "ds_col")
START_OVER = dict.fromkeys(WINDOW_KEYS, 0)  # a preset or a fix starts the drawn window over
SEED = dict(N=1, C=8, H=2, W=3, BlockSize=2, direction="depth_to_space", dtype="UINT32", pattern="coded")
PRESETS = {label: dict(values, **START_OVER) for label, values in {
    "Seed example, DEPTH_COLUMN_ROW": dict(SEED, Order="DEPTH_COLUMN_ROW"),
    "Seed example, COLUMN_ROW_DEPTH": dict(SEED, Order="COLUMN_ROW_DEPTH"),
    "Seed example, both orders": dict(SEED, Order=COMPARE),
    "Space → depth of {1,2,4,6}": dict(SEED, C=2, H=4, W=6, direction="space_to_depth", Order=COMPARE),
    "Bigger than the drawing: {2,64,32,32}, BlockSize 4": dict(SEED, N=2, C=64, H=32, W=32, BlockSize=4,
                                                               Order="DEPTH_COLUMN_ROW"),
}.items()}


@dataclasses.dataclass(frozen=True)
class Configuration:
    """One input shape, one direction, one or both orders, the input's values from the sidebar."""

    values: Values
    shape: tuple[int, ...]
    block_size: int
    orders: tuple[str, ...]
    direction: str

    @property
    def op(self) -> str:
        return DIRECTIONS[self.direction]

    @property
    def operator(self) -> Operator:
        return operator(self.op)

    def call(self, order: str) -> Call:
        """The ops Call of one order (checked: only for settings the core accepted)."""
        return Call.of(self.op, [self.shape], self.values.data_type, block_size=self.block_size, order=order)

    def unchecked_call(self, order: str) -> Call:
        """The call of one order made without Call.of's checks: refused settings still describe it."""
        return Call(self.operator, self.values.data_type, (self.shape,),
                    (("block_size", self.block_size), ("order", order)))

    def work_bytes(self) -> int:
        """The input, each order's output and its cross-check copy."""
        return self.values.nbytes(self.shape) * (1 + 2 * len(self.orders))

    def fixes(self) -> Fixes:
        """The nearest valid settings, for a refusal of these."""
        return depth_space_fixes(self.direction, self.shape, self.block_size)

    def line(self) -> list[str]:
        """The parts of the line over the figure: the operator, the shapes, BlockSize, the order(s), the type."""
        output = inverse_shape(self.direction, self.shape, self.block_size)
        shapes = sizes_text(self.shape) + (f" → {sizes_text(output)}" if output is not None else "")
        return [self.op, shapes, f"BlockSize {self.block_size}",
                "both orders" if len(self.orders) > 1 else self.orders[0], self.values.data_type]

    def negative_sizes(self) -> str | None:
        """The refusal of negative sizes (numpy would refuse them with a traceback), or None."""
        negative = [f"{name} = {size}" for name, size in zip(DIMENSION_NAMES, self.shape) if size < 0]
        if not negative:
            return None
        return f"InputTensor Sizes {list(self.shape)}: {', '.join(negative)} is not a size (at least 1)"

    def element_formula(self, order: str, cell: Sequence[int]) -> Formula:
        return index_formula(self.call(order), tuple(cell))

    def pick_lines(self, pick: Pick) -> list[str] | None:
        """Where the picked input element goes under each order, one line each; None when the pick does not fit
        these settings (it was made under others)."""
        lines = []
        for order in self.orders:
            described = describe_pick(pick, self.shape, self.block_size, order, self.direction)
            if described is None:
                return None
            source, destination, out_flat = described
            lines.append(f"{order}: input {source} (flat {pick[0]}) → output {destination} (flat {out_flat})")
        return lines


def link_query(call: Call, stored: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The page's URL settings showing `call`."""
    n, c, h, w = call.input_sizes[0]
    direction = cast(DepthSpace, call.operator).direction
    return dict(direction=direction, N=n, C=c, H=h, W=w, BlockSize=call.attr("block_size"), Order=call.attr("order"))
