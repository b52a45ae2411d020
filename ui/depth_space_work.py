"""What the Depth <-> Space page makes of its settings: its presets, its Settings (their line over the figure, the
refusal of negative sizes), the arrays of its panels, the figures its quiz shows and the text of a pick, kept here
so that the page only reads its widgets and lays out the result (the computations themselves are ui.work's, shared
between sessions)."""

import dataclasses

import numpy as np

from ops import Call, index_formula
from ops.descriptors.fixes import depth_space_fixes, inverse_shape
from ops.operators.depth_space import DIMENSION_NAMES, DIRECTIONS
from viz.depth_space_fig import describe_pick, drawn_window, input_only, pick_from_selection, side_shapes

from .toolbar import sizes_text
from .work import depth_space, depth_space_picture, picked, values

COMPARE = "compare"  # the Order that shows both orders side by side
FIGURE_WIDTH = 1100
SEED = dict(N=1, C=8, H=2, W=3, BlockSize=2, direction="depth_to_space", dtype="UINT32", pattern="coded")
WINDOW_KEYS = ("ds_batch", "ds_channel", "ds_row", "ds_col")
START_OVER = dict.fromkeys(WINDOW_KEYS, 0)  # a preset or a fix starts the drawn window over
PRESETS = {label: dict(values, **START_OVER) for label, values in {
    "Seed example, DEPTH_COLUMN_ROW": dict(SEED, Order="DEPTH_COLUMN_ROW"),
    "Seed example, COLUMN_ROW_DEPTH": dict(SEED, Order="COLUMN_ROW_DEPTH"),
    "Seed example, both orders": dict(SEED, Order=COMPARE),
    "Space → depth of {1,2,4,6}": dict(SEED, C=2, H=4, W=6, direction="space_to_depth", Order=COMPARE),
    "Bigger than the drawing: {2,64,32,32}, BlockSize 4": dict(SEED, N=2, C=64, H=32, W=32, BlockSize=4,
                                                               Order="DEPTH_COLUMN_ROW"),
}.items()}


@dataclasses.dataclass(frozen=True)
class Settings:
    """The page's settings: one input shape, one direction, one or both orders."""

    spec: object  # ui.work.ValueSpec
    shape: tuple
    block_size: int
    orders: tuple
    direction: str

    @property
    def op(self):
        return DIRECTIONS[self.direction]

    def call(self, order):
        """The ops Call of one order (checked: only for settings the core accepted)."""
        return Call.of(self.op, [self.shape], self.spec.data_type, block_size=self.block_size, order=order)

    def work_bytes(self):
        """The input, each order's output and its cross-check copy."""
        return self.spec.nbytes(self.shape) * (1 + 2 * len(self.orders))

    def fixes(self):
        """The nearest valid settings, for a refusal of these."""
        return depth_space_fixes(self.direction, self.shape, self.block_size)


def line(s, data_type):
    """The settings as the parts of the line over the figure: the operator, the shapes, BlockSize, the order(s)."""
    output = inverse_shape(s.direction, s.shape, s.block_size)
    shapes = sizes_text(s.shape) + (f" → {sizes_text(output)}" if output is not None else "")
    return [s.op, shapes, f"BlockSize {s.block_size}", "both orders" if len(s.orders) > 1 else s.orders[0], data_type]


def negative_sizes(s):
    """The refusal of negative sizes (numpy would refuse them with a traceback), or None."""
    negative = [f"{name} = {size}" for name, size in zip(DIMENSION_NAMES, s.shape) if size < 0]
    return f"InputTensor Sizes {list(s.shape)}: {', '.join(negative)} is not a size (at least 1)" if negative else None


def inputs_of(s):
    return [values(s.spec, s.shape)]


def outputs_of(s, order):
    return [depth_space(s.spec, s.shape, s.block_size, order, s.direction)]


def picked_input(selection):
    flat = pick_from_selection(selection)
    return None if flat is None else (flat,)


def element_formula(s, order, cell):
    return index_formula(s.call(order), cell)


def pick_lines(s, pick):
    """Where the picked input element (a URL pick: a tuple of its flat index) goes under each order, as lines; None
    when the pick does not fit these settings (it was made under others)."""
    described = None if len(pick) != 1 else [
        describe_pick(pick[0], s.shape, s.block_size, order, s.direction) for order in s.orders]
    if described is None or None in described:
        return None
    return [f"{order}: input {source} (flat {pick[0]}) → output {destination} (flat {out_flat})"
            for order, (source, destination, out_flat) in zip(s.orders, described)]


def reveal(s, question):
    """The question's element outlined in the input and where it lands: the whole tensor when it fits the
    drawing, else the window starting at the element."""
    depth_shape, _ = side_shapes(s.shape, s.block_size, s.direction)
    window = drawn_window(depth_shape, s.block_size)
    if not window.is_whole(depth_shape):
        n, c, h, w = question.destination if s.direction == "depth_to_space" else question.source
        window = drawn_window(depth_shape, s.block_size, n, c, h // s.block_size, w // s.block_size)
    picture = depth_space_picture(s.spec, s.shape, s.block_size, s.orders[0], s.direction, window, FIGURE_WIDTH)
    return picked("depth_space", picture, int(np.ravel_multi_index(question.source, s.shape)))


def ask(s, question):
    """The input a question is about, without the answer: the drawn window of the page, the element outlined when
    the question names one of the input's."""
    depth_shape, _ = side_shapes(s.shape, s.block_size, s.direction)
    picture = depth_space_picture(s.spec, s.shape, s.block_size, s.orders[0], s.direction,
                                  drawn_window(depth_shape, s.block_size), FIGURE_WIDTH)
    pick = int(np.ravel_multi_index(question.cell, s.shape)) if question.kind == "where" else None
    return input_only(picture, pick)
