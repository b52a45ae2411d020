"""DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1: the page's settings, its tile figures, and its calls' panels."""

import functools

import numpy as np
import streamlit as st

from ops import Call, DescriptorError, QuizSettings
from ops.descriptors.fixes import inverse_shape
from ops.operators.depth_space import DIMENSION_NAMES, DIRECTIONS, ORDERS
from ui import charts, explain, say, url_state, work
from ui import depth_space_work as dsw
from ui.errors import remember_valid, typed_values_refused
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.panels import Arrays
from ui.picks import clear_pick, remember_pick
from ui.say import md
from ui.shared import admitted, fragment
from ui.toolbar import group, summary
from viz.depth_space_fig import drawn_window, side_shapes
from viz.export import file_stem

DEFAULTS = {"direction": "depth_to_space", "N": 1, "C": 8, "H": 2, "W": 3, "BlockSize": 2, "Order": ORDERS[0]}
# Radio options are their own labels: the value names keep links short and readable; the explanations go in the
# captions.
ORDER_CAPTIONS = ["ONNX DepthToSpace DCR", "ONNX DepthToSpace CRD", "both orders, one above the other"]
SIZE_MAX = 1 << 20
BLOCK_MAX = 64  # one 64x64 block is the whole drawing budget


def carry_shape_over():
    """on_change of Direction: the input becomes the previous direction's output, so the new direction undoes
    the old one ({1,8,2,3} under DEPTH_TO_SPACE1, BlockSize 2, becomes {1,2,4,6} under SPACE_TO_DEPTH1)."""
    new = st.session_state["direction"]
    old = next(d for d in DIRECTIONS if d != new)
    sizes = [st.session_state.get(name, DEFAULTS[name]) for name in DIMENSION_NAMES]
    shape = inverse_shape(old, sizes, st.session_state.get("BlockSize", DEFAULTS["BlockSize"]))
    if shape is not None:  # invalid settings have no output to carry over: they stay, with their fixes
        url_state.put_many(dict(zip(DIMENSION_NAMES, shape), **dsw.START_OVER))
    url_state.put(DepthSpacePage.pick, None)


def window_controls(depth_shape, block_size, direction):
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


def show_pick(s):
    """The picked input element's caption, or None when nothing is picked (or the pick no longer fits)."""
    pick = url_state.value(DepthSpacePage.pick, None)
    lines = None if pick is None else dsw.pick_lines(s, pick)
    if lines is None:
        if pick is not None:
            url_state.put(DepthSpacePage.pick, None)  # picked under other settings: it no longer means anything
        return None  # the page's introduction says what a click does
    left, right = st.columns([5, 1])
    say.info(say.lines(lines), into=left, icon=":material/ads_click:")
    right.button("Clear highlight", key="ds_clear_pick", on_click=clear_pick, args=(DepthSpacePage.pick,))
    return pick[0]


@fragment
def figures(s, window, steps_on, speed):
    """The drawn window and the picked cell: a click reruns only this part of the page."""
    with admitted(s.work_bytes(), "this tensor"):
        if steps_on:
            pictures = [(order, work.depth_space_picture(s.spec, s.shape, s.block_size, order, s.direction, window,
                                                         dsw.FIGURE_WIDTH)) for order in s.orders]
            # Step k is the same output cell under both orders: one Play shows where each order reads it from.
            explain.stepper("depth_space", pictures, lambda order, step: dsw.element_formula(s, order, step.source),
                            "ds", speed)
            return
        drawn = (s, window)
        draw_figures(drawn, show_pick(s), speed)
        remember_valid("depth_space", drawn)


def draw_figures(drawn, pick=None, speed=None, interactive=True):
    """The figure of each order; `interactive` ones take clicks and explain the pick (the greyed last valid view
    does neither)."""
    s, window = drawn
    # Both orders one above the other, each as wide as the page: side by side their cells were too small to number.
    for order in s.orders:
        chart_key = f"ds_chart_{order}" if interactive else f"ds_last_valid_{order}"
        if len(s.orders) > 1:
            say.subheader(order)
        picture = work.depth_space_picture(s.spec, s.shape, s.block_size, order, s.direction, window,
                                           dsw.FIGURE_WIDTH)
        figure = work.picked("depth_space", picture, pick)
        if not interactive:
            charts.picture(figure, chart_key, f"Last valid view: {order}")
            continue
        charts.show(explain.with_speed(figure, speed), chart_key,
                    file_stem(s.op, order, s.spec.data_type, *s.shape, f"bs{s.block_size}"),
                    f"{s.op} {order}, {s.spec.data_type} {list(s.shape)}, BlockSize {s.block_size}",
                    on_select=functools.partial(remember_pick, DepthSpacePage.pick, chart_key, dsw.picked_input))
        if pick is not None:
            explain.formula_block(f"{order}: the index formula for the picked element",
                                  functools.partial(dsw.element_formula, s, order, np.unravel_index(pick, s.shape)))


class DepthSpacePage(OperatorPage):
    key, name, pick = "ds", "depth_space", "ds_pick"
    title = "Depth ↔ Space"
    introduction = ("Where every element goes when channels become space (or space becomes channels). "
                    "Click a cell to follow it.")
    groups = ("Shape", "Order")
    presets = dsw.PRESETS

    def controls(self, boxes, settings):
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
            order = url_state.widget(st.radio, "Order", "Order", DEFAULTS["Order"], options=[*ORDERS, dsw.COMPARE],
                                     captions=ORDER_CAPTIONS)
            st.caption("The Order decides which channel lands where: DEPTH_COLUMN_ROW reads the depth as (row, "
                       "column, channel), COLUMN_ROW_DEPTH as (channel, row, column). Each cell is colored by its "
                       "input channel.")
        orders = tuple(ORDERS) if order == dsw.COMPARE else (order,)
        return dsw.Settings(settings.values, tuple(int(s) for s in sizes), int(block_size), orders, direction)

    def line(self, s, settings):
        return dsw.line(s, settings.data_type)

    def configure(self, s, settings):
        negative = dsw.negative_sizes(s)
        if negative:  # the inputs have no lower bound (see controls)
            raise Refused(negative, s.fixes(), s)
        return s

    def work_bytes(self, s):
        return s.work_bytes()

    def compute(self, s):
        if refused := typed_values_refused(s.spec, s.shape):
            raise Refused(*refused, s)
        try:
            for order in s.orders:
                dsw.outputs_of(s, order)
        except DescriptorError as exc:
            raise Refused(str(exc), s.fixes(), s) from None

    def quiz(self, s):
        # Compare mode quizzes on the first order; the prompt names it.
        return QuizSettings(s.call(s.orders[0])), functools.partial(dsw.reveal, s)

    def quiz_input(self, s, question):
        return dsw.ask(s, question)

    def figure(self, s, steps_on, speed):
        depth_shape, _ = side_shapes(s.shape, s.block_size, s.direction)
        try:
            window = window_controls(depth_shape, s.block_size, s.direction)
        except DescriptorError as exc:
            raise Refused(str(exc), s.fixes(), s) from None
        if not window.is_whole(depth_shape):
            summary(self.row, ["Drawn: " + window.describe(depth_shape, s.direction)])
        figures(s, window, steps_on, speed)

    def draw_last_valid(self, drawn):
        draw_figures(drawn, interactive=False)

    def panels(self, s, refusal=None):
        return [Panels(Call(s.op, s.spec.data_type, (s.shape,), (("block_size", s.block_size), ("order", order))),
                       Arrays(("depth_space", s.spec, s.shape, s.block_size, order, s.direction),
                              functools.partial(dsw.inputs_of, s), functools.partial(dsw.outputs_of, s, order),
                              refusal),
                       f"ds_{order}", f"Panels: {order}" if len(s.orders) > 1 else None) for order in s.orders]

    def fix_settings(self, fix, s):
        return dict(fix.as_dict, **dsw.START_OVER)


render(DepthSpacePage())
