"""Bitwise OR page: DML_ELEMENT_WISE_BIT_OR on the bits of any DirectML type, with broadcast and in-place."""

import functools
import json
import math

import streamlit as st

from ops import DescriptorError, QuizSettings, buffer_tensor_size, index_formula
from ops import Call as OperatorCall
from ops.tensor_desc import packed_strides
from ops.guard import check_element_count
from ui import charts, explain, url_state, work
from ui.panels import Call, operator_panels, show_busy, show_error
from ui.picks import clear_pick, preset_buttons, remember_pick
from ui.shared import Busy, admitted, fragment
from ui.sidebar import TYPED_MAX_CHARS, current_settings, show_value_notes
from ui.toolbar import braced, intro, summary, toolbar
from ui.values import parse_int_list
from viz.export import file_stem
from viz.bitwise_fig import (
    MAX_CELLS,
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
DEFAULTS = dict(or_sizes="2,3", or_b_source="derived", or_b_text="1", or_bcast="", or_inplace=False, or_first=0,
                or_rows=16)
ROWS_MAX = MAX_CELLS // 8  # the most elements a grid can hold (8-bit types)

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


def controls(box):
    """The page's settings, read from their widgets (and so from the URL), drawn in the toolbar's popover `box`."""
    with box:
        st.caption(
            "Output = A | B on each element's raw bits: the DataType only sets the width (8 to 64 bits), so on "
            "floats the OR mixes sign, exponent and mantissa fields. Feature level 3_0 allows UINT8/16/32 only; 4_1 "
            "allows every type. DataType, feature level and value pattern of A are in the sidebar."
        )
        sizes = url_state.widget(st.text_input, "Sizes", "or_sizes", DEFAULTS["or_sizes"],
                                 help="1 to 8 sizes separated by commas; A, B and Output share them")
        source = url_state.widget(st.radio, "B values", "or_b_source", DEFAULTS["or_b_source"],
                                  options=list(B_SOURCES), format_func=B_SOURCES.get)
        b_text = None
        if source == "typed":
            b_text = url_state.widget(st.text_area, "B typed values", "or_b_text", DEFAULTS["or_b_text"],
                                      max_chars=TYPED_MAX_CHARS,
                                      help="B's stored values, row-major; with broadcast dims B stores size 1 "
                                           "along them")
        bcast = url_state.widget(st.text_input, "Broadcast B along dims", "or_bcast", DEFAULTS["or_bcast"],
                                 help="e.g. 0 or 0,1: B stores size 1 there and its descriptor strides are 0")
        in_place = url_state.widget(st.checkbox, "In place: Output aliases A's buffer", "or_inplace",
                                    DEFAULTS["or_inplace"])
    return sizes, b_text, bcast, bool(in_place)


def settings_line(data_type, sizes_text, b_text, bcast_text, in_place):
    """The settings as one readable line: ELEMENT_WISE_BIT_OR · UINT32 {2,3} · B from the pattern · ..."""
    return ["ELEMENT_WISE_BIT_OR", f"{data_type} {braced(sizes_text)}",
            "B typed" if b_text is not None else "B from the pattern",
            f"B broadcast along {bcast_text.strip()}" if bcast_text.strip() else "",
            "in place" if in_place else ""]


def operands_of(settings, sizes_text, b_text, bcast_text):
    """The OrOperands the settings describe; DescriptorError naming the field otherwise."""
    sizes = parse_int_list(sizes_text, "Sizes")
    check_element_count(sizes, "Sizes")
    broadcast = set(parse_int_list(bcast_text, "Broadcast dims", minimum=0)) if bcast_text.strip() else set()
    for d in sorted(broadcast):
        if d >= len(sizes):
            raise DescriptorError(f"Broadcast dims: dim {d} is not in [0, {len(sizes) - 1}] for Sizes {list(sizes)}")
    return work.OrOperands(settings.values, tuple(sizes), tuple(sorted(broadcast)), b_text)


def show_pick(operands, first, stop):
    """The picked bit's caption; a pick that no longer fits the tensors is dropped.

    Returns the pick when its element is drawn, else None: the cached figure is then the plain one.
    """
    pick = url_state.value(PICK, None)
    a, _, b = work.or_operands(operands)
    described = describe_pick(pick, a, b, work.or_output(operands))
    if described is None:
        if pick is not None:
            url_state.put(PICK, None)  # picked under other settings: it no longer means anything
        st.caption("Click a bit in A, B or Output to follow that bit of the element through all three.")
        return None
    left, right = st.columns([5, 1], vertical_alignment="center")
    drawn = first <= pick[0] < stop
    left.caption(f"Picked: {described}" + ("" if drawn else " (not among the drawn elements)"))
    right.button("Clear highlight", key="or_clear_pick", on_click=clear_pick, args=(PICK,))
    return tuple(pick) if drawn else None


QUIZ_ELEMENTS = 64  # questions pick among the first elements


def bits_of(array):
    """The elements' bit patterns as Python ints (the OR works on these, whatever the type)."""
    return array.reshape(-1).view(f"u{array.dtype.itemsize}")


def b_strides(operands):
    """B's descriptor strides when it is broadcast (0 along the broadcast dims), else None (packed)."""
    if not operands.broadcast:
        return None
    return b_descriptor(operands.spec.data_type, operands.sizes, operands.broadcast)["Strides"]


def or_call(operands):
    return OperatorCall.of("ELEMENT_WISE_BIT_OR", [operands.sizes] * 2, operands.spec.data_type)


def bit_formula(operands, element, bit):
    a, _, b = work.or_operands(operands)
    values = (int(bits_of(a)[element]), int(bits_of(b)[element]))
    return index_formula(or_call(operands), (element, bit), values=values, b_strides=b_strides(operands))


def step_formula(operands, title, step):
    return bit_formula(operands, *step.source)


def quiz_settings(operands):
    a, _, b = work.or_operands(operands)
    return QuizSettings(or_call(operands), tuple(tuple(int(v) for v in bits_of(x)[:QUIZ_ELEMENTS]) for x in (a, b)))


def reveal(operands, in_place, question):
    """The question's element drawn alone, with the bit its explanation works through outlined."""
    element, bit = question.source
    return work.picked("bitwise", work.or_picture(operands, element, element + 1, in_place), (element, bit))


@fragment
def figure(operands, in_place, steps_on, speed):
    """The drawn elements and the picked bit: changing either reruns only this part of the page."""
    with admitted(work_bytes(operands), "this tensor"):
        a, _, _ = work.or_operands(operands)
        count = a.size
        row, (drawn_box,) = toolbar("Drawn elements")
        with drawn_box:
            first_asked = url_state.widget(st.number_input, "First element drawn", "or_first", 0, minimum=0,
                                           maximum=max(0, count - 1))
            rows_asked = url_state.widget(st.number_input, "Elements drawn", "or_rows", DEFAULTS["or_rows"],
                                          minimum=1, maximum=ROWS_MAX)
        first, stop = drawn_range(count, a.dtype, first_asked, rows_asked)
        width = a.dtype.itemsize * 8
        drawn_box.caption(f"A grid holds at most {MAX_CELLS:,} cells = {MAX_CELLS // width} elements of this type. "
                          "Every element is computed and cross-checked.")
        summary(row, [f"Drawing elements {first} to {stop - 1} of {count:,} (row-major), {width} bits each"])
        pick = show_pick(operands, first, stop)
        if steps_on:
            # The bits of the picked element (or the first drawn one), from the most significant down.
            element = pick[0] if pick is not None else first
            picture = work.picked("bitwise", work.or_picture(operands, first, stop, in_place), pick)
            explain.stepper("bitwise", [(f"element #{element}", picture)],
                            functools.partial(step_formula, operands), "or", speed, element=element)
        else:
            figure = work.picked("bitwise", work.or_picture(operands, first, stop, in_place), pick)
            data_type = operands.spec.data_type
            charts.show(explain.with_speed(figure, speed), CHART,
                        file_stem("ELEMENT_WISE_BIT_OR", data_type, *operands.sizes, f"from{first}"),
                        f"ELEMENT_WISE_BIT_OR, {data_type} {list(operands.sizes)}, elements {first} to {stop - 1}",
                        on_select=functools.partial(remember_pick, PICK, CHART, pick_from_selection))
            if pick is not None:
                explain.formula_block("The formula for the picked bit",
                                      functools.partial(bit_formula, operands, *pick))
        a, b_stored, b = work.or_operands(operands)
        st.dataframe(decode_rows(a, b, work.or_output(operands), first, stop), hide_index=True, key="or_table")


def work_bytes(operands):
    """Memory a run may hold at once: A, B, the output and the cross-check's copy."""
    return operands.spec.nbytes(operands.sizes) * 4


def b_descriptor(data_type, sizes, broadcast):
    """B's DML_BUFFER_TENSOR_DESC: full Sizes, 0 strides along the broadcast dims."""
    stored = [1 if d in broadcast else s for d, s in enumerate(sizes)]
    strides = [0 if d in broadcast else s for d, s in enumerate(packed_strides(stored))]
    return dict(DataType=data_type, Sizes=list(sizes), Strides=strides,
                TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes, strides))


def plain_descriptor(data_type, sizes):
    return dict(DataType=data_type, Sizes=list(sizes),
                TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes))


def descriptors(operands, in_place):
    data_type, sizes, broadcast = operands.spec.data_type, operands.sizes, operands.broadcast
    with st.expander("Descriptors and bindings", expanded=bool(broadcast) or in_place):
        descs = {
            "ATensor": plain_descriptor(data_type, sizes),
            "BTensor": b_descriptor(data_type, sizes, broadcast) if broadcast else plain_descriptor(data_type, sizes),
            "OutputTensor": plain_descriptor(data_type, sizes),
        }
        st.code(json.dumps(descs, indent=1), language="json")
        if broadcast:
            st.markdown(
                f"**Broadcast.** DirectML has no implicit broadcasting: A, B and Output must have equal Sizes. B "
                f"stores only {list(operands.b_sizes)} ({math.prod(operands.b_sizes)} values) and its descriptor "
                f"says Sizes {list(sizes)} with Strides {descs['BTensor']['Strides']}: a 0 stride reads the same "
                "element again for every index along that dim. Here B is np.broadcast_to(B stored, Sizes), then "
                "A | B."
            )
        bindings = {"ATensor": "A", "BTensor": "B", "OutputTensor": "A" if in_place else "Output"}
        st.code(json.dumps({"type": "dispatch", "dispatchable": "bit_or", "bindings": bindings}, indent=1),
                language="json")
        if in_place:
            st.markdown(
                "**In place.** OutputTensor is bound to A's buffer, so no Output buffer is allocated: after the "
                "dispatch A's buffer holds A | B and A's old values are gone. BIT_OR allows this because each "
                "output element depends only on the same element of A and B."
            )


def inputs_of(operands):
    a, _, b = work.or_operands(operands)
    return [a, b]


def outputs_of(operands):
    return [work.or_output(operands)]


def page():
    settings = current_settings()
    # The operator's name goes under the title: as one 23-letter word it broke mid-word in a 800 px window.
    st.title("Bitwise OR")
    intro("**DML_ELEMENT_WISE_BIT_OR**: Output = A | B on each element's raw bits. Click a bit to follow it.")
    row, (operand_box, preset_box, play_box) = toolbar("Operands", "Presets", "Play & explain")
    with preset_box:
        preset_buttons(PRESETS.items(), "or_preset", PICK)
    sizes_text, b_text, bcast_text, in_place = controls(operand_box)
    with play_box:
        quiz_on, steps_on, speed = explain.mode_bar("or")
    summary(row, settings_line(settings.data_type, sizes_text, b_text, bcast_text, in_place))
    if b_text is not None:
        show_value_notes(b_text, settings.data_type, "B typed values")
    try:
        operands = operands_of(settings, sizes_text, b_text, bcast_text)
        with admitted(work_bytes(operands), "this tensor"):
            work.or_output(operands)
            if quiz_on:
                explain.quiz(quiz_settings(operands), "or", functools.partial(reveal, operands, in_place))
                return
            figure(operands, in_place, steps_on, speed)
            descriptors(operands, in_place)
            call = Call("ELEMENT_WISE_BIT_OR", (operands.sizes, operands.sizes), (), ("bit_or", operands),
                        functools.partial(inputs_of, operands), functools.partial(outputs_of, operands),
                        elsewhere=(("b_sizes", operands.b_sizes),))
            operator_panels(call, settings, key="or_panels")
    except DescriptorError as exc:
        show_error(exc)
    except Busy as busy:
        show_busy(busy)


page()
