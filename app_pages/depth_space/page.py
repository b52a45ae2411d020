"""DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1: the page's widgets and its hooks into the operator-page skeleton."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.depth_space import work
from app_pages.depth_space.settings import (
    BLOCK_MAX,
    COMPARE,
    DEFAULTS,
    PICK,
    PRESETS,
    SIZE_MAX,
    START_OVER,
    Configuration,
)
from ops import DescriptorError, QuizSettings
from ops.descriptors.fixes import inverse_shape
from ops.operators.depth_space import DIMENSION_NAMES, DIRECTIONS, ORDERS
from ops.operators.fixes import Fix
from ops.operators.lessons import Formula
from ops.teaching.quiz import Question
from ui import say, url_state
from ui.errors import typed_values_refused
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.panels import Arrays
from ui.say import Markdown, md
from ui.sidebar import SidebarSettings
from ui.toolbar import group, summary
from viz import depth_space_fig
from viz.depth_space_fig import Window, drawn_window, side_shapes
from viz.operator_figure import Pick, Step
from viz.spec import SpecFigure

# Radio options are their own labels: the value names keep links short and readable; the explanations go in the
# captions.
ORDER_CAPTIONS = ["ONNX DepthToSpace DCR", "ONNX DepthToSpace CRD", "both orders, one above the other"]
Drawn = tuple[Configuration, Window]  # the configuration and its drawn window


def carry_shape_over() -> None:
    """on_change of Direction: the input becomes the previous direction's output, so the new direction undoes
    the old one ({1,8,2,3} under DEPTH_TO_SPACE1, BlockSize 2, becomes {1,2,4,6} under SPACE_TO_DEPTH1)."""
    new = st.session_state["direction"]
    old = next(d for d in DIRECTIONS if d != new)
    sizes = [st.session_state.get(name, DEFAULTS[name]) for name in DIMENSION_NAMES]
    shape = inverse_shape(old, sizes, st.session_state.get("BlockSize", DEFAULTS["BlockSize"]))
    if shape is not None:  # invalid settings have no output to carry over: they stay, with their fixes
        url_state.put_many(dict(zip(DIMENSION_NAMES, shape), **START_OVER))
    url_state.put(PICK, None)


def window_controls(depth_shape: tuple[int, ...], block_size: int, direction: str) -> Window:
    """The drawn part: the whole tensor when it fits, otherwise what the user picks in its group beside the figure."""
    window = drawn_window(depth_shape, block_size)
    if window.is_whole(depth_shape):
        return window
    n, cd, hd, wd = depth_shape
    channel_word = "output channel" if direction == "depth_to_space" else "input channel"
    unit = 1 if direction == "depth_to_space" else block_size
    with group("Drawn part", expanded=True):
        st.caption("The tensor exceeds the drawing budget of 4,096 cells; every element is still computed, and the "
                   "cross-check compares them all (its tab says where it ran).")
        left, right = st.columns(2)
        batch = url_state.widget(left.number_input, "Batch", "ds_batch", 0, minimum=0, maximum=n - 1)
        channel = url_state.widget(right.number_input, md("First {}", channel_word), "ds_channel", 0, minimum=0,
                                   maximum=cd // (block_size * block_size) - 1)
        row = url_state.widget(left.number_input, "First block row" if unit > 1 else "First row", "ds_row", 0,
                               minimum=0, maximum=hd - 1,
                               help=md("in blocks of {} input rows", unit) if unit > 1 else None)
        col = url_state.widget(right.number_input, "First block column" if unit > 1 else "First column", "ds_col",
                               0, minimum=0, maximum=wd - 1)
    return drawn_window(depth_shape, block_size, batch, channel, row, col)


class DepthSpacePage(OperatorPage[Configuration, Configuration, Drawn]):
    key, pick_key, figures = "ds", PICK, depth_space_fig
    title = "Depth ↔ Space"
    introduction = ("Where every element goes when channels become space (or space becomes channels). "
                    "Click a cell to follow it.")
    groups = ("Shape", "Order")

    def presets(self, sidebar: SidebarSettings) -> Mapping[str, Mapping[str, Any]]:
        return PRESETS

    def controls(self, boxes: Sequence[DeltaGenerator], sidebar: SidebarSettings) -> Configuration:
        shape_box, order_box = boxes
        with shape_box:
            direction = url_state.widget(st.radio, "Direction", "direction", DEFAULTS["direction"],
                                         options=list(DIRECTIONS), horizontal=True,
                                         captions=[say.plain(op) for op in DIRECTIONS.values()],
                                         on_change=carry_shape_over)
            columns = st.columns(2) + st.columns(2)  # N C / H W: wide enough beside the figure
            # No lower bound on the inputs: a size or BlockSize below 1 gets a message naming the rule and a fix,
            # where a bounded input would only show a small icon and keep the old value.
            sizes = [url_state.widget(column.number_input, say.plain(name), name, DEFAULTS[name], maximum=SIZE_MAX,
                                      help=md("InputTensor Sizes: {}", meaning))
                     for column, name, meaning in zip(columns, DIMENSION_NAMES, ("batch", "channels", "height",
                                                                                 "width"))]
            block_size = url_state.widget(st.number_input, "BlockSize", "BlockSize", DEFAULTS["BlockSize"],
                                          maximum=BLOCK_MAX)
            st.caption("**DML_DEPTH_TO_SPACE1** moves blocks of channels into BlockSize × BlockSize spatial blocks: "
                       "{N, C, H, W} → {N, C/BlockSize², H·BlockSize, W·BlockSize}. **DML_SPACE_TO_DEPTH1** is its "
                       "inverse.")
        with order_box:
            order = url_state.widget(st.radio, "Order", "Order", DEFAULTS["Order"], options=[*ORDERS, COMPARE],
                                     captions=ORDER_CAPTIONS)
            st.caption("The Order decides which channel lands where: DEPTH_COLUMN_ROW reads the depth as (row, "
                       "column, channel), COLUMN_ROW_DEPTH as (channel, row, column). Each cell is colored by its "
                       "input channel.")
        orders = tuple(ORDERS) if order == COMPARE else (order,)
        return Configuration(sidebar.values, tuple(int(s) for s in sizes), int(block_size), orders, direction)

    def line(self, c: Configuration, sidebar: SidebarSettings) -> list[str]:
        return c.line()

    def configure(self, c: Configuration, sidebar: SidebarSettings) -> Configuration:
        negative = c.negative_sizes()
        if negative:  # the inputs have no lower bound (see controls)
            raise Refused(negative, c.fixes(), c)
        return c

    def fix_settings(self, fix: Fix, c: Configuration) -> dict[str, Any]:
        return dict(fix.as_dict, **START_OVER)

    def work_bytes(self, c: Configuration) -> int:
        return c.work_bytes()

    def compute(self, c: Configuration) -> None:
        if refused := typed_values_refused(c.values, c.shape):
            raise Refused(*refused, c)
        try:
            for order in c.orders:
                work.outputs_of(c, order)
        except DescriptorError as exc:
            raise Refused(str(exc), c.fixes(), c) from None

    def calls(self, c: Configuration, refusal: str | None = None) -> list[Panels]:
        return [Panels(c.unchecked_call(order),
                       Arrays(("depth_space", c.values, c.shape, c.block_size, order, c.direction),
                              functools.partial(work.inputs_of, c), functools.partial(work.outputs_of, c, order),
                              refusal),
                       f"ds_{order}", f"Panels: {order}" if len(c.orders) > 1 else None) for order in c.orders]

    def quiz(self, c: Configuration) -> tuple[QuizSettings, Callable[[Question], SpecFigure]]:
        # Compare mode quizzes on the first order; the prompt names it.
        return QuizSettings(c.call(c.orders[0])), functools.partial(work.reveal, c)

    def quiz_input(self, c: Configuration, question: Question) -> SpecFigure:
        return work.ask(c, question)

    def drawn_part(self, c: Configuration) -> Drawn:
        depth_shape, _ = side_shapes(c.shape, c.block_size, c.direction)
        try:
            window = window_controls(depth_shape, c.block_size, c.direction)
        except DescriptorError as exc:
            raise Refused(str(exc), c.fixes(), c) from None
        if not window.is_whole(depth_shape):
            summary(self.row, ["Drawn: " + window.describe(depth_shape, c.direction)])
        return c, window

    def pictures(self, drawn: Drawn) -> list[tuple[str, SpecFigure]]:
        c, window = drawn
        return [(order, work.order_picture(c, order, window)) for order in c.orders]

    def chart(self, drawn: Drawn, order: str) -> tuple[list[Any], str]:
        c, _ = drawn
        return ([c.op, order, c.values.data_type, *c.shape, f"bs{c.block_size}"],
                f"{c.op} {order}, {c.values.data_type} {list(c.shape)}, BlockSize {c.block_size}")

    def describe_pick(self, drawn: Drawn, pick: Pick) -> Markdown | None:
        lines = drawn[0].pick_lines(pick)
        return None if lines is None else say.lines(lines)

    def pick_formulas(self, drawn: Drawn, pick: Pick) -> list[tuple[str, Callable[[], Formula]]]:
        c, _ = drawn
        cell = tuple(int(i) for i in np.unravel_index(pick[0], c.shape))
        return [(f"{order}: the index formula for the picked element",
                 functools.partial(c.element_formula, order, cell)) for order in c.orders]

    def step_formula(self, drawn: Drawn, order: str, step: Step) -> Formula:
        # Step k is the same output cell under both orders: one Play shows where each order reads it from.
        return drawn[0].element_formula(order, step.source)


render(DepthSpacePage())
