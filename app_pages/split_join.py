"""Split <-> Join page: DML_SPLIT cuts a tensor along Axis, DML_JOIN glues the pieces back."""

import functools
import math

import streamlit as st

from ops import DescriptorError, join, split
from ops.guard import check_element_count
from ops.operators.split_join import check_axis
from ui.panels import operator_panels, show_error
from ui.picks import apply_preset, clear_pick, remember_pick
from ui.sidebar import current_settings
from ui.values import make_values, parse_int_list
from viz.split_join_fig import (
    default_view,
    describe_pick,
    pick_from_selection,
    split_join_figure,
    window_bounds,
)

PICK = "sj_pick"
CHART = "sj_figure"
MODES = {"sizes": "per-output sizes", "even": "even split into K parts"}

# The seed's examples: FLOAT32 {1,1,6,2} holding 1..12.
SEED_INPUT = dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0, sj_sizes="1,1,6,2", sj_slice="",
                  sj_row0=0, sj_col0=0)
PRESETS = {
    "Seed: Axis 2 into {1,1,2,2}, {1,1,1,2}, {1,1,3,2}": dict(SEED_INPUT, sj_axis=2, sj_mode="sizes",
                                                            sj_split="2,1,3"),
    "Seed: Axis 3 into two {1,1,6,1}": dict(SEED_INPUT, sj_axis=3, sj_mode="even", sj_parts=2),
}


def current_pick(x, axis, output_sizes):
    """(pick, its description); a pick that no longer fits the tensor is dropped silently."""
    pick = st.session_state.get(PICK)
    described = describe_pick(x, axis, output_sizes, pick)
    if described is None:
        st.session_state.pop(PICK, None)
        return None, None
    return tuple(pick), described


def show_pick(described, drawn):
    if described is None:
        st.caption("Click a cell of the input or of an output to highlight where it goes or comes from.")
        return
    left, right = st.columns([5, 1], vertical_alignment="center")
    left.caption(f"Picked: {described}" + ("" if drawn else " (outside the drawn plane)"))
    right.button("Clear highlight", key="sj_clear_pick", on_click=clear_pick, args=(PICK,))


def even_sizes(total, parts, axis):
    if total % parts:
        raise DescriptorError(f"Parts K = {parts}: the input's size {total} along Axis {axis} is not divisible by {parts}")
    return [total // parts] * parts


def slice_indices(text, other_dims):
    """Indices for the dims outside the drawn plane, in dim order; empty text means all 0."""
    if not other_dims or not text.strip():
        return {}
    values = parse_int_list(text, "Slice indices", minimum=0)
    if len(values) != len(other_dims):
        raise DescriptorError(
            f"Slice indices {list(values)}: need {len(other_dims)} (one each for dims {other_dims})"
        )
    return dict(zip(other_dims, values))


settings = current_settings()
st.title("Split <-> Join: DML_SPLIT and DML_JOIN")
st.caption(
    "SPLIT cuts InputTensor along Axis into OutputCount tensors whose sizes along Axis sum to the input's; every "
    "other size stays. JOIN is the inverse (ONNX Concat). Each output is a plain copy of its slab. DataType, "
    "feature level and values are in the sidebar."
)

preset_columns = st.columns(len(PRESETS))
for number, (column, name) in enumerate(zip(preset_columns, PRESETS)):
    column.button(name, key=f"sj_preset_{number}", on_click=apply_preset, args=(PRESETS[name], PICK), use_container_width=True)

left, right = st.columns(2)
with left:
    st.text_input("Sizes", "1,1,6,2", key="sj_sizes", bind="query-params",
                  help="InputTensor sizes: 1 to 8 whole numbers separated by commas")
    st.number_input("Axis", value=2, step=1, key="sj_axis", bind="query-params",
                    help="The dimension that is cut (0 = outermost)")
with right:
    st.radio("Outputs", list(MODES), key="sj_mode", bind="query-params", format_func=MODES.get, horizontal=True)
    if st.session_state.get("sj_mode", "sizes") == "sizes":
        st.text_input("Output sizes along Axis", "2,1,3", key="sj_split", bind="query-params",
                      help="One size per output; they must add up to the input's size along Axis")
    else:
        st.number_input("Parts K", min_value=1, value=2, key="sj_parts", bind="query-params")

state = st.session_state
try:
    sizes = parse_int_list(state.get("sj_sizes", ""), "Sizes")
    check_element_count(sizes, "Sizes")
    axis = check_axis(int(state.get("sj_axis", 2)), len(sizes))
    if state.get("sj_mode", "sizes") == "sizes":
        output_sizes = list(parse_int_list(state.get("sj_split", ""), "Output sizes along Axis", max_count=None))
    else:
        output_sizes = even_sizes(sizes[axis], int(state.get("sj_parts", 2)), axis)
    x = make_values(settings.pattern, sizes, settings.data_type, **settings.value_kwargs())
    outputs = split(x, axis, output_sizes)
    joined = join(outputs, axis)
except DescriptorError as exc:
    show_error(exc)
    st.stop()

view = default_view(len(sizes), axis)
other_dims = [d for d in range(len(sizes)) if d not in view]
with st.expander("What is drawn", expanded=len(sizes) > 2 or math.prod(sizes) > 4096):
    if other_dims:
        st.text_input(f"Slice indices for dims {other_dims}", "", key="sj_slice", bind="query-params",
                      help="Which index of each dimension outside the drawn plane; empty = all 0")
    window_row, window_col = st.columns(2)
    window_row.number_input("First row drawn", min_value=0, value=0, key="sj_row0", bind="query-params")
    window_col.number_input("First column drawn", min_value=0, value=0, key="sj_col0", bind="query-params")
pick, described = current_pick(x, axis, output_sizes)
try:
    fixed = slice_indices(state.get("sj_slice", "") if other_dims else "", other_dims)
    start = (state.get("sj_row0", 0), state.get("sj_col0", 0))
    figure = split_join_figure(x, axis, output_sizes, view=view, fixed=fixed, start=start, pick=pick)
except DescriptorError as exc:
    show_error(exc)
    st.stop()

row0, row1, col0, col1 = window_bounds(sizes, view, start)
row_dim, col_dim = view
rows_text = "one row (1-D tensor)" if row_dim is None else f"rows = dim {row_dim}, indices {row0} to {row1 - 1}"
fixed_text = ", ".join(f"dim {d} = {i}" for d, i in figure.layout.meta["fixed"]) or "none"
st.caption(
    f"Drawn plane: {rows_text}; columns = dim {col_dim}, indices {col0} to {col1 - 1} (at most 64 x 64 cells). "
    f"Other dims fixed at: {fixed_text}. The plane always contains Axis {axis}, so the cut shows. Colors = which "
    "output an element goes to; hover gives its index in the input and in that output. Play peels the outputs "
    "off one by one (SPLIT) and then joins them back (JOIN)."
)
show_pick(described, figure.layout.meta["pick"] is not None)
st.plotly_chart(figure, theme="streamlit", key=CHART, config={"displaylogo": False}, selection_mode="points",
                on_select=functools.partial(remember_pick, PICK, CHART, pick_from_selection))

same = joined.tobytes() == x.tobytes()
st.markdown(
    f"OutputCount {len(outputs)}: " + ", ".join(f"[{k}] {list(o.shape)}" for k, o in enumerate(outputs))
    + f". JOIN(SPLIT(x)) reproduces x bit for bit: **{same}**."
)

st.subheader("SPLIT")
operator_panels("SPLIT", [x], {"axis": axis, "sizes": output_sizes}, settings, outputs=outputs,
                key="sj_split_panels")
st.subheader("JOIN")
operator_panels("JOIN", outputs, {"axis": axis}, settings, outputs=[joined], key="sj_join_panels")
