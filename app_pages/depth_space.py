"""DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1: controls, the tile figures, and the standard panels."""

import functools

import numpy as np
import streamlit as st

from ops import ORDERS, DescriptorError, QuizSettings, index_formula
from ops import Call as OperatorCall
from ops.descriptors.fixes import NONE, depth_space_fixes, inverse_shape
from ui import charts, explain, url_state, work
from ui.errors import last_valid_figure, offer_fixes, remember_valid
from ui.panels import Call, operator_panels, settings_problems, show_busy, show_error
from ui.picks import clear_pick, preset_buttons, remember_pick
from ui.shared import Busy, admitted, fragment
from ui.sidebar import current_settings
from ui.toolbar import intro, sizes_text, summary, toolbar
from viz.export import file_stem
from viz.depth_space_fig import (
    DIRECTIONS,
    OPERATORS,
    describe_pick,
    drawn_window,
    pick_from_selection,
    side_shapes,
)

DEFAULTS = {"direction": "depth_to_space", "N": 1, "C": 8, "H": 2, "W": 3, "BlockSize": 2, "Order": ORDERS[0]}
COMPARE = "compare"
PICK = "ds_pick"
# Radio options are their own labels: the value names keep links short and readable; the explanations go in the
# captions.
DIRECTION_CAPTIONS = ["DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"]
ORDER_CAPTIONS = ["ONNX DepthToSpace DCR", "ONNX DepthToSpace CRD", "both orders side by side"]
SIZE_MAX = 1 << 20
BLOCK_MAX = 64  # one 64x64 block is the whole drawing budget
FIGURE_WIDTH = 1100
SEED = dict(N=1, C=8, H=2, W=3, BlockSize=2, direction="depth_to_space", dtype="UINT32", pattern="coded")
PRESETS = {
    "Seed example, DEPTH_COLUMN_ROW": dict(SEED, Order="DEPTH_COLUMN_ROW"),
    "Seed example, COLUMN_ROW_DEPTH": dict(SEED, Order="COLUMN_ROW_DEPTH"),
    "Seed example, both orders": dict(SEED, Order=COMPARE),
    "Space → depth of {1,2,4,6}": dict(SEED, C=2, H=4, W=6, direction="space_to_depth", Order=COMPARE),
    "Bigger than the drawing: {2,64,32,32}, BlockSize 4": dict(SEED, N=2, C=64, H=32, W=32, BlockSize=4,
                                                               Order="DEPTH_COLUMN_ROW"),
}
WINDOW_KEYS = ("ds_batch", "ds_channel", "ds_row", "ds_col")


def carry_shape_over():
    """on_change of Direction: the input becomes the previous direction's output, so the new direction undoes
    the old one ({1,8,2,3} under DEPTH_TO_SPACE1, BlockSize 2, becomes {1,2,4,6} under SPACE_TO_DEPTH1)."""
    new = st.session_state["direction"]
    old = next(d for d in DIRECTIONS if d != new)
    sizes = [st.session_state.get(name, DEFAULTS[name]) for name in "NCHW"]
    shape = inverse_shape(old, sizes, st.session_state.get("BlockSize", DEFAULTS["BlockSize"]))
    if shape is not None:  # invalid settings have no output to carry over: they stay, with their fixes
        url_state.put_many(dict(zip("NCHW", shape), **dict.fromkeys(WINDOW_KEYS, 0)))
    url_state.put(PICK, None)


def controls(shape_box, order_box):
    """The settings, drawn in the toolbar's Shape and Order popovers."""
    with shape_box:
        st.markdown(
            "**DML_DEPTH_TO_SPACE1** moves blocks of channels into BlockSize × BlockSize spatial blocks: "
            "{N, C, H, W} → {N, C/BlockSize², H·BlockSize, W·BlockSize}. **DML_SPACE_TO_DEPTH1** is its inverse."
        )
        direction = url_state.widget(st.radio, "Direction", "direction", DEFAULTS["direction"], options=DIRECTIONS,
                                     horizontal=True, captions=DIRECTION_CAPTIONS, on_change=carry_shape_over)
        columns = st.columns([1, 1, 1, 1, 1.4])  # "BlockSize" whole on one line
        # No lower bound on the inputs: a size or BlockSize below 1 gets a message naming the rule and a fix, where
        # a bounded input would only show a small icon and keep the old value.
        sizes = [
            url_state.widget(column.number_input, name, name, DEFAULTS[name], maximum=SIZE_MAX,
                             help=f"InputTensor Sizes: {help_text}")
            for column, name, help_text in zip(columns, "NCHW", ("batch", "channels", "height", "width"))
        ]
        block_size = url_state.widget(columns[4].number_input, "BlockSize", "BlockSize", DEFAULTS["BlockSize"],
                                      maximum=BLOCK_MAX)
    with order_box:
        st.markdown("The Order decides which channel lands where: DEPTH_COLUMN_ROW reads the depth as (row, column, "
                    "channel), COLUMN_ROW_DEPTH as (channel, row, column). Each cell is colored by its input channel.")
        order = url_state.widget(st.radio, "Order", "Order", DEFAULTS["Order"], options=[*ORDERS, COMPARE],
                                 captions=ORDER_CAPTIONS)
    return tuple(int(s) for s in sizes), int(block_size), order, direction


def settings_line(shape, block_size, order, direction, data_type):
    """The settings as one readable line: DEPTH_TO_SPACE1 · {1,8,2,3} → {1,2,4,6} · BlockSize 2 · ..."""
    output = inverse_shape(direction, shape, block_size)
    shapes = sizes_text(shape) + (f" → {sizes_text(output)}" if output is not None else "")
    return [OPERATORS[direction], shapes, f"BlockSize {block_size}", "both orders" if order == COMPARE else order,
            data_type]


def window_controls(depth_shape, block_size, direction):
    """The drawn part: the whole tensor when it fits, otherwise what the user picks."""
    window = drawn_window(depth_shape, block_size)
    if window.is_whole(depth_shape):
        return window
    n, cd, hd, wd = depth_shape
    bs2 = block_size * block_size
    st.markdown("**Drawn part** — the tensor exceeds the drawing budget of 4,096 cells; "
                "everything is still computed and cross-checked.")
    columns = st.columns(4)
    channel_word = "output channel" if direction == "depth_to_space" else "input channel"
    unit = 1 if direction == "depth_to_space" else block_size
    batch = url_state.widget(columns[0].number_input, "Batch", "ds_batch", 0, minimum=0, maximum=n - 1)
    channel = url_state.widget(columns[1].number_input, f"First {channel_word}", "ds_channel", 0, minimum=0,
                               maximum=cd // bs2 - 1)
    row = url_state.widget(columns[2].number_input, "First block row" if unit > 1 else "First row", "ds_row", 0,
                           minimum=0, maximum=hd - 1, help=f"in blocks of {unit} input rows" if unit > 1 else None)
    col = url_state.widget(columns[3].number_input, "First block column" if unit > 1 else "First column", "ds_col",
                           0, minimum=0, maximum=wd - 1)
    return drawn_window(depth_shape, block_size, batch, channel, row, col)


def show_pick(x_shape, block_size, orders, direction):
    """The picked input element's caption, or None when nothing is picked (or the pick no longer fits)."""
    pick = url_state.value(PICK, None)
    described = None if pick is None or len(pick) != 1 else [
        describe_pick(pick[0], x_shape, block_size, order, direction) for order in orders]
    if described is None or None in described:
        if pick is not None:
            url_state.put(PICK, None)  # picked under other settings: it no longer means anything
        st.caption("Click a cell to see where it comes from and where it goes.")
        return None
    flat = pick[0]
    lines = []
    for order, (source, destination, out_flat) in zip(orders, described):
        lines.append(f"{order}: input {source} (flat {flat}) → output {destination} (flat {out_flat})")
    left, right = st.columns([5, 1])
    left.info("  \n".join(lines), icon=":material/ads_click:")
    right.button("Clear highlight", key="ds_clear_pick", on_click=clear_pick, args=(PICK,))
    return flat


def picked_input(selection):
    flat = pick_from_selection(selection)
    return None if flat is None else (flat,)


def validity_banner(op, shape, block_size, order, settings):
    """One line at the top when the descriptor is invalid at the chosen level; the panel lists every problem."""
    try:
        problems = settings_problems(op, [shape], settings.data_type, dict(block_size=block_size, order=order),
                                     settings.feature_level)
    except DescriptorError as exc:
        problems = [str(exc)]
    if problems:
        more = f" (and {len(problems) - 1} more, see Validation below)" if len(problems) > 1 else ""
        st.warning(f"Not a valid descriptor at feature level {settings.feature_level}: {problems[0]}{more}",
                   icon=":material/warning:")


def work_bytes(spec, shape, orders):
    """Memory a run may hold at once: the input, each order's output and its cross-check copy."""
    return spec.nbytes(shape) * (1 + 2 * len(orders))


def pick_formula(op, shape, block_size, order, pick):
    """The formula of the picked input element (flat index `pick`) under `order`."""
    cell = np.unravel_index(pick, shape)
    return index_formula(OperatorCall.of(op, [shape], block_size=block_size, order=order), cell)


def step_formula(op, shape, block_size, order, step):
    return index_formula(OperatorCall.of(op, [shape], block_size=block_size, order=order), step.source)


def reveal(spec, shape, block_size, order, direction, question):
    """The question's element outlined in the input and where it lands: the whole tensor when it fits the
    drawing, else the window starting at the element."""
    depth_shape, _ = side_shapes(shape, block_size, direction)
    window = drawn_window(depth_shape, block_size)
    if not window.is_whole(depth_shape):
        space_cell = question.destination if direction == "depth_to_space" else question.source
        n, c, h, w = space_cell
        window = drawn_window(depth_shape, block_size, n, c, h // block_size, w // block_size)
    picture = work.depth_space_picture(spec, shape, block_size, order, direction, window, FIGURE_WIDTH)
    return work.picked("depth_space", picture, int(np.ravel_multi_index(question.source, shape)))


@fragment
def figures(spec, shape, block_size, orders, direction, steps_on, speed):
    """The drawn window and the picked cell: changing either reruns only this part of the page."""
    with admitted(work_bytes(spec, shape, orders), "this tensor"):
        depth_shape, _ = side_shapes(shape, block_size, direction)
        try:
            window = window_controls(depth_shape, block_size, direction)
        except DescriptorError as exc:
            show_error(exc)
            return
        if not window.is_whole(depth_shape):
            st.caption("Drawn: " + window.describe(depth_shape, direction))
        op = OPERATORS[direction]
        width = FIGURE_WIDTH // len(orders)
        if steps_on:
            pictures = [(order, work.depth_space_picture(spec, shape, block_size, order, direction, window, width))
                        for order in orders]
            # Step k is the same output cell under both orders: one Play shows where each order reads it from.
            explain.stepper("depth_space", pictures, functools.partial(step_formula, op, shape, block_size), "ds",
                            speed)
            return
        pick = show_pick(shape, block_size, orders, direction)
        drawn = (spec, shape, block_size, orders, direction, window)
        draw_figures(drawn, pick, speed)
        remember_valid("depth_space", drawn)


def draw_figures(drawn, pick=None, speed=None, interactive=True):
    """The figure of each order; `interactive` ones take clicks and explain the pick (the greyed last valid view
    does neither)."""
    spec, shape, block_size, orders, direction, window = drawn
    op = OPERATORS[direction]
    columns = st.columns(len(orders)) if len(orders) > 1 else [st.container()]
    width = FIGURE_WIDTH // len(orders)
    for column, order in zip(columns, orders):
        chart_key = f"ds_chart_{order}" if interactive else f"ds_last_valid_{order}"
        with column:
            if len(orders) > 1:
                st.subheader(order)
            figure = work.picked("depth_space",
                                 work.depth_space_picture(spec, shape, block_size, order, direction, window, width),
                                 pick)
            if not interactive:
                charts.picture(figure, chart_key, f"Last valid view: {order}")
                continue
            charts.show(explain.with_speed(figure, speed), chart_key,
                        file_stem(op, order, spec.data_type, *shape, f"bs{block_size}"),
                        f"{op} {order}, {spec.data_type} {list(shape)}, BlockSize {block_size}",
                        on_select=functools.partial(remember_pick, PICK, chart_key, picked_input))
            if pick is not None:
                explain.formula_block(f"{order}: the index formula for the picked element",
                                      functools.partial(pick_formula, op, shape, block_size, order, pick))


def inputs_of(spec, shape):
    negative = [f"{name} = {size}" for name, size in zip("NCHW", shape) if size < 0]
    if negative:  # the inputs have no lower bound (see controls); numpy would refuse these with a traceback
        raise DescriptorError(f"InputTensor Sizes {list(shape)}: {', '.join(negative)} is not a size (at least 1)")
    return [work.values(spec, shape)]


def outputs_of(spec, shape, block_size, order, direction):
    return [work.depth_space(spec, shape, block_size, order, direction)]


def results(spec, shape, block_size, orders, direction):
    """{order: None or the core's refusal}. The arrays stay in the cache."""
    refusals = {}
    for order in orders:
        try:
            work.depth_space(spec, shape, block_size, order, direction)
            refusals[order] = None
        except DescriptorError as exc:
            refusals[order] = str(exc)
    return refusals


def fix_settings(fix):
    """A core fix as this page's settings: the drawn window starts over, as for a preset."""
    return dict(fix.as_dict, **dict.fromkeys(WINDOW_KEYS, 0))


def refused(refusals, shape, block_size, direction):
    """Every distinct refusal with its nearest fixes, beside the last valid figure (greyed)."""
    left, right = st.columns([2, 3])
    with left:
        fixes = depth_space_fixes(direction, shape, block_size)
        for number, message in enumerate(dict.fromkeys(r for r in refusals.values() if r is not None)):
            offer_fixes(message, fixes if number == 0 else NONE,
                        f"ds_{number}", fix_settings, PICK)
    with right:
        last_valid_figure("depth_space", functools.partial(draw_figures, interactive=False))


def page():
    settings = current_settings()
    st.title("Depth ↔ Space")
    intro("Where every element goes when channels become space (or space becomes channels). "
          "Click a cell to follow it.")
    row, (shape_box, order_box, preset_box, play_box) = toolbar("Shape", "Order", "Presets", "Play & explain")
    with preset_box:
        # A preset starts the drawn window over.
        preset_buttons(((label, dict(values, **dict.fromkeys(WINDOW_KEYS, 0))) for label, values in PRESETS.items()),
                       "ds_preset", PICK)
    shape, block_size, order_choice, direction = controls(shape_box, order_box)
    with play_box:
        quiz_on, steps_on, speed = explain.mode_bar("ds")
    summary(row, settings_line(shape, block_size, order_choice, direction, settings.data_type))
    op = OPERATORS[direction]
    orders = list(ORDERS) if order_choice == COMPARE else [order_choice]
    spec = settings.values
    try:
        with admitted(work_bytes(spec, shape, orders), "this tensor"):
            try:
                inputs_of(spec, shape)
                value_error = None
            except DescriptorError as exc:
                value_error = str(exc)
            refusals = dict.fromkeys(orders, value_error) if value_error else results(
                spec, shape, block_size, orders, direction)
            if any(refusals.values()):
                refused(refusals, shape, block_size, direction)
            else:
                validity_banner(op, shape, block_size, orders[0], settings)
                if quiz_on:
                    # Compare mode quizzes on the first order; the prompt names it.
                    explain.quiz(QuizSettings(OperatorCall.of(op, [shape], block_size=block_size, order=orders[0])),
                                 "ds",
                                 functools.partial(reveal, spec, shape, block_size, orders[0], direction))
                    return
                figures(spec, shape, block_size, tuple(orders), direction, steps_on, speed)
            st.divider()
            for order in orders:
                if len(orders) > 1:
                    st.subheader(f"Panels: {order}")
                attrs = (("block_size", block_size), ("order", order))
                call = Call(op, (shape,), attrs, ("depth_space", spec, shape, block_size, order, direction),
                            functools.partial(inputs_of, spec, shape),
                            functools.partial(outputs_of, spec, shape, block_size, order, direction),
                            refusals[order])
                operator_panels(call, settings, key=f"ds_{order}")
    except Busy as busy:
        show_busy(busy)


page()
