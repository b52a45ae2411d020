"""Bitwise OR page: DML_ELEMENT_WISE_BIT_OR on the bits of any DirectML type, with broadcast and in-place."""

import functools
import json
import math

import numpy as np
import streamlit as st

from ops import DescriptorError, bit_or, buffer_tensor_size, numpy_dtype
from ops.guard import check_element_count
from ops.descriptors.tensor_desc import packed_strides
from ui.panels import operator_panels, show_error
from ui.picks import apply_preset, clear_pick, remember_pick
from ui.sidebar import current_settings
from ui.values import make_values, parse_int_list, parse_values
from viz.bitwise_fig import (
    MAX_CELLS,
    bitwise_figure,
    decode_rows,
    describe_pick,
    drawn_range,
    pick_from_selection,
)

PICK = "or_pick"
CHART = "or_figure"
B_SOURCES = {
    "derived": "from the sidebar pattern (random: seed + 1; sequence: continued; otherwise A reversed)",
    "typed": "typed here",
}

PRESETS = {
    "float32 1.0 | 2.0 = +inf": dict(
        dtype="FLOAT32", pattern="custom", values="1.0", or_sizes="1", or_b_source="typed", or_b_text="2.0",
        or_bcast="", or_inplace=False, or_first=0,
    ),
    "uint8 mask: set bit 7 of every byte": dict(
        dtype="UINT8", pattern="custom", values="0x00 0x0F 0x30 0x55 0x7F 0x80 0xA5 0xFF", or_sizes="2,4",
        or_b_source="typed", or_b_text="0x80", or_bcast="0,1", or_inplace=True, or_first=0,
    ),
    "NaN payload": dict(
        dtype="FLOAT32", pattern="custom", values="0x7F800000 0x7FC00000 0x3F800000", or_sizes="3",
        or_b_source="typed", or_b_text="0x00000001 0x00001234 0x7F800000", or_bcast="", or_inplace=False,
        or_first=0,
    ),
}


def show_pick(a, b, output, first, stop):
    """The picked bit's caption; a pick that no longer fits the tensors is dropped.

    Returns the pick when its element is drawn, else None: the cached figure is then the plain one.
    """
    pick = st.session_state.get(PICK)
    described = describe_pick(pick, a, b, output)
    if described is None:
        st.session_state.pop(PICK, None)
        st.caption("Click a bit in A, B or Output to follow that bit of the element through all three.")
        return None
    left, right = st.columns([5, 1], vertical_alignment="center")
    drawn = first <= pick[0] < stop
    left.caption(f"Picked: {described}" + ("" if drawn else " (not among the drawn elements)"))
    right.button("Clear highlight", key="or_clear_pick", on_click=clear_pick, args=(PICK,))
    return tuple(pick) if drawn else None


def derived_b(a, b_sizes, broadcast, settings):
    """A second operand that differs from A but follows the same pattern."""
    kwargs = settings.value_kwargs()
    if settings.pattern in ("random", "random_bytes"):
        kwargs["seed"] = settings.seed + 1
        return make_values(settings.pattern, b_sizes, settings.data_type, **kwargs)
    if settings.pattern == "sequence":
        kwargs["start"] = settings.start + settings.delta * a.size
        return make_values("sequence", b_sizes, settings.data_type, **kwargs)
    first_slice = tuple(slice(0, 1) if d in broadcast else slice(None) for d in range(a.ndim))
    return np.flip(a[first_slice]).copy()


@st.cache_resource(max_entries=32, show_spinner=False)
def drawn_figure(a_window, b_window, out_window, first, in_place, pick):
    """The bit-grid figure of the drawn window, kept across reruns: plotly builds its frames slowly."""
    return bitwise_figure(a_window, b_window, out_window, in_place=in_place, index_offset=first, pick=pick)


def b_descriptor(data_type, sizes, broadcast):
    """B's DML_BUFFER_TENSOR_DESC: full Sizes, 0 strides along the broadcast dims."""
    stored = [1 if d in broadcast else s for d, s in enumerate(sizes)]
    strides = [0 if d in broadcast else s for d, s in enumerate(packed_strides(stored))]
    return dict(DataType=data_type, Sizes=list(sizes), Strides=strides,
                TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes, strides))


def plain_descriptor(data_type, sizes):
    return dict(DataType=data_type, Sizes=list(sizes),
                TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes))


settings = current_settings()
st.title("Bitwise OR: DML_ELEMENT_WISE_BIT_OR")
st.caption(
    "Output = A | B on each element's raw bits: the DataType only sets the width (8 to 64 bits), so on floats "
    "the OR mixes sign, exponent and mantissa fields. Feature level 3_0 allows UINT8/16/32 only; 4_1 allows "
    "every type. DataType, feature level and value pattern of A are in the sidebar."
)

preset_columns = st.columns(len(PRESETS))
for column, name in zip(preset_columns, PRESETS):
    column.button(name, key=f"or_preset_{list(PRESETS).index(name)}", on_click=apply_preset, args=(PRESETS[name], PICK),
                  use_container_width=True)

left, right = st.columns(2)
with left:
    st.text_input("Sizes", "2,3", key="or_sizes", bind="query-params",
                  help="1 to 8 sizes separated by commas; A, B and Output share them")
    st.radio("B values", list(B_SOURCES), key="or_b_source", bind="query-params", format_func=B_SOURCES.get,
             horizontal=True)
    if st.session_state.get("or_b_source") == "typed":
        st.text_area("B typed values", "1", key="or_b_text", bind="query-params",
                     help="B's stored values, row-major; with broadcast dims B stores size 1 along them")
with right:
    st.text_input("Broadcast B along dims", "", key="or_bcast", bind="query-params",
                  help="e.g. 0 or 0,1: B stores size 1 there and its descriptor strides are 0")
    st.checkbox("In place: Output aliases A's buffer", False, key="or_inplace", bind="query-params")
    draw_first, draw_rows = st.columns(2)
    draw_first.number_input("First element drawn", min_value=0, value=0, key="or_first", bind="query-params")
    draw_rows.number_input("Elements drawn", min_value=1, value=16, key="or_rows", bind="query-params")

state = st.session_state
try:
    sizes = parse_int_list(state.get("or_sizes", ""), "Sizes")
    check_element_count(sizes, "Sizes")
    broadcast = set(parse_int_list(state.get("or_bcast", ""), "Broadcast dims", minimum=0)) \
        if state.get("or_bcast", "").strip() else set()
    for d in sorted(broadcast):
        if d >= len(sizes):
            raise DescriptorError(f"Broadcast dims: dim {d} is not in [0, {len(sizes) - 1}] for Sizes {list(sizes)}")
    a = make_values(settings.pattern, sizes, settings.data_type, **settings.value_kwargs())
    b_sizes = tuple(1 if d in broadcast else s for d, s in enumerate(sizes))
    if state.get("or_b_source") == "typed":
        b_stored = parse_values(state.get("or_b_text", ""), b_sizes, numpy_dtype(settings.data_type),
                                field="B typed values")
    else:
        b_stored = derived_b(a, b_sizes, broadcast, settings)
    # DirectML reads B through 0 strides, as broadcast_to does; the figure, the cross-check and the export
    # all want B's full values, so they are spelled out once here.
    b = np.ascontiguousarray(np.broadcast_to(b_stored, sizes))
    output = bit_or(a, b)
except DescriptorError as exc:
    show_error(exc)
    st.stop()

in_place = bool(state.get("or_inplace"))
count = math.prod(sizes)
first, stop = drawn_range(count, a.dtype, state.get("or_first", 0), state.get("or_rows", 16))
width = a.dtype.itemsize * 8
st.caption(
    f"Drawing elements {first} to {stop - 1} of {count:,} (row-major), {width} bits each; a grid holds at most "
    f"{MAX_CELLS:,} cells = {MAX_CELLS // width} elements of this type. Every element is computed and "
    "cross-checked."
)
pick = show_pick(a, b, output, first, stop)
figure = drawn_figure(*(x.reshape(-1)[first:stop] for x in (a, b, output)), first, in_place, pick)
st.plotly_chart(figure, theme="streamlit", key=CHART, config={"displaylogo": False}, selection_mode="points",
                on_select=functools.partial(remember_pick, PICK, CHART, pick_from_selection))
st.dataframe(decode_rows(a, b, output, first, stop), hide_index=True, key="or_table")

with st.expander("Descriptors and bindings", expanded=bool(broadcast) or in_place):
    descs = {
        "ATensor": plain_descriptor(settings.data_type, sizes),
        "BTensor": b_descriptor(settings.data_type, sizes, broadcast) if broadcast
        else plain_descriptor(settings.data_type, sizes),
        "OutputTensor": plain_descriptor(settings.data_type, sizes),
    }
    st.code(json.dumps(descs, indent=1), language="json")
    if broadcast:
        st.markdown(
            f"**Broadcast.** DirectML has no implicit broadcasting: A, B and Output must have equal Sizes. B stores "
            f"only {list(b_sizes)} ({b_stored.size} values) and its descriptor says Sizes {list(sizes)} with "
            f"Strides {descs['BTensor']['Strides']}: a 0 stride reads the same element again for every index "
            "along that dim. Here B is np.broadcast_to(B stored, Sizes), then A | B."
        )
    bindings = {"ATensor": "A", "BTensor": "B", "OutputTensor": "A" if in_place else "Output"}
    st.code(json.dumps({"type": "dispatch", "dispatchable": "bit_or", "bindings": bindings}, indent=1),
            language="json")
    if in_place:
        st.markdown(
            "**In place.** OutputTensor is bound to A's buffer, so no Output buffer is allocated: after the "
            "dispatch A's buffer holds A | B and A's old values are gone. BIT_OR allows this because each output "
            "element depends only on the same element of A and B."
        )

operator_panels("ELEMENT_WISE_BIT_OR", [a, b], {}, settings, outputs=[output],
                key="or_panels")
