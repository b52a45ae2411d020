"""DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1: controls, the tile figures, and the standard panels."""

import functools

import numpy as np
import streamlit as st

from ops import (
    ORDERS,
    DescriptorError,
    depth_to_space,
    numpy_dtype,
    space_to_depth,
    validate,
)
from ui.panels import operator_panels, settings_dispatchable, show_error
from ui.picks import apply_preset, clear_pick, remember_pick
from ui.sidebar import current_settings
from ui.values import make_values
from viz.depth_space_fig import (
    DIRECTIONS,
    OPERATORS,
    depth_space_figure,
    describe_pick,
    drawn_window,
    pick_from_selection,
    side_shapes,
)

DEFAULTS = {"direction": "depth_to_space", "N": 1, "C": 8, "H": 2, "W": 3, "BlockSize": 2, "Order": ORDERS[0]}
COMPARE = "compare"
PICK = "ds_pick"
# Radio options are their own labels: a bound widget writes its label into the URL, and the value
# names keep links short and readable; the explanations go in the captions.
DIRECTION_CAPTIONS = ["DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"]
ORDER_CAPTIONS = ["ONNX DepthToSpace DCR", "ONNX DepthToSpace CRD", "both orders side by side"]
SIZE_MAX = 1 << 20
BLOCK_MAX = 64  # one 64x64 block is the whole drawing budget
SEED = dict(N=1, C=8, H=2, W=3, BlockSize=2, direction="depth_to_space", dtype="UINT32", pattern="coded")
PRESETS = {
    "Seed example, DEPTH_COLUMN_ROW": dict(SEED, Order="DEPTH_COLUMN_ROW"),
    "Seed example, COLUMN_ROW_DEPTH": dict(SEED, Order="COLUMN_ROW_DEPTH"),
    "Seed example, both orders": dict(SEED, Order=COMPARE),
    "Space → depth of {1,2,4,6}": dict(SEED, C=2, H=4, W=6, direction="space_to_depth", Order=COMPARE),
    "Bigger than the drawing: {2,64,32,32}, BlockSize 4": dict(SEED, N=2, C=64, H=32, W=32, BlockSize=4,
                                                               Order="DEPTH_COLUMN_ROW"),
}


def controls():
    st.radio("Direction", DIRECTIONS, key="direction", bind="query-params", horizontal=True,
             captions=DIRECTION_CAPTIONS, index=DIRECTIONS.index(DEFAULTS["direction"]))
    columns = st.columns([1, 1, 1, 1, 1, 3])
    for column, name, help_text in zip(columns, "NCHW", ("batch", "channels", "height", "width")):
        column.number_input(name, 0, SIZE_MAX, DEFAULTS[name], key=name, bind="query-params",
                            help=f"InputTensor Sizes: {help_text}")
    columns[4].number_input("BlockSize", 0, BLOCK_MAX, DEFAULTS["BlockSize"], key="BlockSize", bind="query-params")
    order_options = [*ORDERS, COMPARE]
    columns[5].radio("Order", order_options, key="Order", bind="query-params", captions=ORDER_CAPTIONS,
                     horizontal=True, index=order_options.index(DEFAULTS["Order"]))
    state = st.session_state
    return (tuple(int(state[k]) for k in "NCHW"), int(state["BlockSize"]), state["Order"], state["direction"])


def presets():
    row = st.container(horizontal=True, wrap=True, vertical_alignment="center")
    row.markdown("**Presets**")
    for number, (label, values) in enumerate(PRESETS.items()):
        row.button(label, key=f"ds_preset_{number}", on_click=apply_preset, args=(values, PICK), width="content")


def input_values(settings, shape):
    """The input tensor, or (None, error) when the settings cannot build it."""
    try:
        return make_values(settings.pattern, shape, settings.data_type, **settings.value_kwargs()), None
    except DescriptorError as exc:
        return None, exc


def stand_in(shape, data_type):
    """Zero-stride zeros of the requested shape: lets the Validation tab describe a tensor never built."""
    return np.broadcast_to(np.zeros((), numpy_dtype(data_type)), tuple(max(0, s) for s in shape))


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
    batch = columns[0].number_input("Batch", 0, n - 1, 0, key="ds_batch", bind="query-params")
    channel = columns[1].number_input(f"First {channel_word}", 0, cd // bs2 - 1, 0, key="ds_channel",
                                      bind="query-params")
    unit = 1 if direction == "depth_to_space" else block_size
    row = columns[2].number_input("First block row" if unit > 1 else "First row", 0, hd - 1, 0, key="ds_row",
                                  bind="query-params", help=f"in blocks of {unit} input rows" if unit > 1 else None)
    col = columns[3].number_input("First block column" if unit > 1 else "First column", 0, wd - 1, 0, key="ds_col",
                                  bind="query-params")
    return drawn_window(depth_shape, block_size, batch, channel, row, col)


def show_pick(x_shape, block_size, orders, direction):
    pick = st.session_state.get(PICK)
    if pick is None:
        st.caption("Click a cell to see where it comes from and where it goes.")
        return None
    lines = []
    for order in orders:
        described = describe_pick(pick, x_shape, block_size, order, direction)
        if described is None:
            return None
        source, destination, out_flat = described
        lines.append(f"{order}: input {source} (flat {pick}) → output {destination} (flat {out_flat})")
    left, right = st.columns([5, 1])
    left.info("  \n".join(lines), icon=":material/ads_click:")
    right.button("Clear highlight", key="ds_clear_pick", on_click=clear_pick, args=(PICK,))
    return pick


def run(x, block_size, order, direction):
    operator = depth_to_space if direction == "depth_to_space" else space_to_depth
    return operator(x, block_size, order)


def validity_banner(op, shape, block_size, order, settings):
    """One line at the top when the descriptor is invalid at the chosen level; the panel lists every problem."""
    try:
        dispatchable = settings_dispatchable(op, [shape], settings.data_type, dict(block_size=block_size, order=order))
        problems = validate(dispatchable, settings.feature_level)
    except DescriptorError as exc:
        problems = [str(exc)]
    if problems:
        more = f" (and {len(problems) - 1} more, see Validation below)" if len(problems) > 1 else ""
        st.warning(f"Not a valid descriptor at feature level {settings.feature_level}: {problems[0]}{more}",
                   icon=":material/warning:")


def compute(x, block_size, orders, direction):
    """{order: output or DescriptorError}; each distinct error shown once."""
    results = {}
    for order in orders:
        try:
            results[order] = run(x, block_size, order, direction)
        except DescriptorError as exc:
            results[order] = exc
    for message in {str(r) for r in results.values() if isinstance(r, Exception)}:
        show_error(message)
    return results


def draw(x, results, block_size, direction):
    depth_shape, _ = side_shapes(x.shape, block_size, direction)
    try:
        window = window_controls(depth_shape, block_size, direction)
    except DescriptorError as exc:
        show_error(exc)
        return
    if not window.is_whole(depth_shape):
        st.caption("Drawn: " + window.describe(depth_shape, direction))
    orders = list(results)
    pick = show_pick(x.shape, block_size, orders, direction)
    columns = st.columns(len(orders)) if len(orders) > 1 else [st.container()]
    for column, order in zip(columns, orders):
        chart_key = f"ds_chart_{order}"
        with column:
            if len(orders) > 1:
                st.subheader(order)
            fig = depth_space_figure(x, results[order], block_size, order, direction, window, pick,
                                     width_px=1100 // len(orders))
            st.plotly_chart(fig, theme="streamlit", key=chart_key, selection_mode="points",
                            on_select=functools.partial(remember_pick, PICK, chart_key, pick_from_selection), config={"displayModeBar": False})


def page():
    settings = current_settings()
    st.title("Depth ↔ Space")
    st.markdown(
        "**DML_DEPTH_TO_SPACE1** moves blocks of channels into BlockSize × BlockSize spatial blocks: "
        "{N, C, H, W} → {N, C/BlockSize², H·BlockSize, W·BlockSize}. **DML_SPACE_TO_DEPTH1** is its inverse. "
        "The Order decides which channel lands where: DEPTH_COLUMN_ROW reads the depth as (row, column, channel), "
        "COLUMN_ROW_DEPTH as (channel, row, column). Each cell is colored by its input channel."
    )
    presets()
    shape, block_size, order_choice, direction = controls()
    op = OPERATORS[direction]
    orders = list(ORDERS) if order_choice == COMPARE else [order_choice]
    validity_banner(op, shape, block_size, orders[0], settings)

    x, value_error = input_values(settings, shape)
    results = {}
    if value_error is not None:
        show_error(value_error)
    else:
        results = compute(x, block_size, orders, direction)
        if not any(isinstance(r, Exception) for r in results.values()):
            draw(x, results, block_size, direction)

    st.divider()
    inputs = [x] if x is not None else [stand_in(shape, settings.data_type)]
    for order in orders:
        if len(orders) > 1:
            st.subheader(f"Panels: {order}")
        outputs = value_error if value_error is not None else results.get(order)
        outputs = [outputs] if isinstance(outputs, np.ndarray) else outputs
        operator_panels(op, inputs, dict(block_size=block_size, order=order), settings, outputs=outputs,
                        key=f"ds_{order}")


page()
