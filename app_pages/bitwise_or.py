"""Bitwise OR page: DML_ELEMENT_WISE_BIT_OR on the bits of any DirectML type, with broadcast and in-place."""

import dataclasses
import functools
import json
import math

import streamlit as st

from ops import Call, DescriptorError, QuizSettings, buffer_tensor_size, index_formula, numpy_dtype
from ops.guard import check_element_count
from ops.operators.fixes import Fix, Fixes
from ops.tensor_desc import packed_strides
from ui import charts, explain, url_state, work
from ui.errors import remember_valid
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.panels import Arrays
from ui.picks import clear_pick, remember_pick
from ui.shared import admitted, fragment
from ui.sidebar import TYPED_MAX_CHARS, show_value_notes
from ui.toolbar import braced, drawn_part, group
from ui.values import parse_int_list, values_count
from viz.bitwise_fig import (
    FIT_HEIGHT,
    MAX_CELLS,
    decode_rows,
    describe_pick,
    drawn_range,
    input_only,
    pick_from_selection,
)
from viz.export import file_stem

OPERATOR = "ELEMENT_WISE_BIT_OR"
CHART = "or_figure"
B_SOURCES = {
    "derived": "from the sidebar pattern (random: seed + 1; sequence: continued; otherwise A reversed)",
    "typed": "typed here",
}
DEFAULTS = dict(or_sizes="2,3", or_b_source="derived", or_b_text="1", or_bcast="", or_inplace=False, or_first=0,
                or_rows=16)
ROWS_MAX = MAX_CELLS // 8  # the most elements a grid can hold (8-bit types)
QUIZ_ELEMENTS = 64  # questions pick among the first elements
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


@dataclasses.dataclass(frozen=True)
class Controls:
    sizes_text: str
    b_text: str | None  # typed B values, or None: derived from A's pattern
    bcast_text: str
    in_place: bool


@dataclasses.dataclass(frozen=True)
class Settings:
    operands: work.OrOperands
    in_place: bool

    @property
    def call(self):
        return or_call(self.operands)

    def work_bytes(self):
        """A, B, the output and the cross-check's copy."""
        return self.operands.spec.nbytes(self.operands.sizes) * 4


def show_pick(operands, first, stop):
    """The picked bit's caption; a pick that no longer fits the tensors is dropped. Returns the pick when its
    element is drawn, else None: the cached figure is then the plain one."""
    pick = url_state.value(BitwisePage.pick, None)
    a, _, b = work.or_operands(operands)
    described = describe_pick(pick, a, b, work.or_output(operands))
    if described is None:
        if pick is not None:
            url_state.put(BitwisePage.pick, None)  # picked under other settings: it no longer means anything
        return None  # the page's introduction says what a click does
    left, right = st.columns([5, 1], vertical_alignment="center")
    drawn = first <= pick[0] < stop
    left.caption(f"Picked: {described}" + ("" if drawn else " (not among the drawn elements)"))
    right.button("Clear highlight", key="or_clear_pick", on_click=clear_pick, args=(BitwisePage.pick,))
    return tuple(pick) if drawn else None


def bits_of(array):
    """The elements' bit patterns as Python ints (the OR works on these, whatever the type)."""
    return array.reshape(-1).view(f"u{array.dtype.itemsize}")


def b_descriptor(data_type, sizes, broadcast):
    """B's DML_BUFFER_TENSOR_DESC: full Sizes, 0 strides along the broadcast dims; packed without broadcast."""
    if not broadcast:
        return dict(DataType=data_type, Sizes=list(sizes), TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes))
    stored = [1 if d in broadcast else s for d, s in enumerate(sizes)]
    strides = [0 if d in broadcast else s for d, s in enumerate(packed_strides(stored))]
    return dict(DataType=data_type, Sizes=list(sizes), Strides=strides,
                TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes, strides))


def or_call(operands):
    return Call.of(OPERATOR, [operands.sizes] * 2, operands.spec.data_type)


def bit_formula(operands, element, bit):
    a, _, b = work.or_operands(operands)
    values = (int(bits_of(a)[element]), int(bits_of(b)[element]))
    b_strides = b_descriptor(operands.spec.data_type, operands.sizes, operands.broadcast).get("Strides")
    return index_formula(or_call(operands), (element, bit), values=values, b_strides=b_strides)


def reveal(s, question):
    """The question's element drawn alone, with the bit its explanation works through outlined."""
    element, bit = question.source
    return work.picked("bitwise", work.or_picture(s.operands, element, element + 1, s.in_place), (element, bit))


def ask(s, question):
    """The question's element of A and B, without Output (the answer)."""
    element = question.cell[0]
    return input_only(work.or_picture(s.operands, element, element + 1, s.in_place))


def drawn_elements(s):
    """The drawn range of elements, in its own group beside the figure: (first, stop) of the rows the grids show,
    said on the line over the figure."""
    count, data_type = math.prod(s.operands.sizes), s.operands.spec.data_type
    width = numpy_dtype(data_type).itemsize * 8
    with group("Drawn elements"):
        first_asked = url_state.widget(st.number_input, "First element drawn", "or_first", 0, minimum=0,
                                       maximum=max(0, count - 1))
        rows_asked = url_state.widget(st.number_input, "Elements drawn", "or_rows", DEFAULTS["or_rows"], minimum=1,
                                      maximum=ROWS_MAX)
        st.caption(f"A grid holds at most {MAX_CELLS:,} cells = {MAX_CELLS // width} elements of this type. "
                   "Every element is computed and cross-checked.")
    first, stop = drawn_range(count, numpy_dtype(data_type), first_asked, rows_asked)
    return first, stop, f"Drawing elements {first} to {stop - 1} of {count:,} (row-major), {width} bits each"



@fragment
def figure(s, first, stop, steps_on, speed):
    """The drawn elements and the picked bit: a click reruns only this part of the page."""
    operands = s.operands
    with admitted(s.work_bytes(), "this tensor"):
        a, _, b = work.or_operands(operands)
        pick = show_pick(operands, first, stop)
        picture = work.or_picture(operands, first, stop, s.in_place, charts.height_for_screen(FIT_HEIGHT))
        picture = work.picked("bitwise", picture, pick)
        remember_valid("bitwise", (s, first, stop))
        if steps_on:
            # The bits of the picked element (or the first drawn one), from the most significant down.
            element = pick[0] if pick is not None else first
            explain.stepper("bitwise", [(f"element #{element}", picture)],
                            lambda title, step: bit_formula(operands, *step.source), "or", speed, element=element)
        else:
            data_type = operands.spec.data_type
            charts.show(explain.with_speed(picture, speed), CHART,
                        file_stem(OPERATOR, data_type, *operands.sizes, f"from{first}"),
                        f"{OPERATOR}, {data_type} {list(operands.sizes)}, elements {first} to {stop - 1}",
                        on_select=functools.partial(remember_pick, BitwisePage.pick, CHART, pick_from_selection))
            if pick is not None:
                explain.formula_block("The formula for the picked bit",
                                      functools.partial(bit_formula, operands, *pick))
        st.dataframe(decode_rows(a, b, work.or_output(operands), first, stop), hide_index=True, key="or_table")


def descriptors(s):
    """The three descs and the dispatch's bindings, with what a broadcast or an in-place binding means."""
    operands, in_place = s.operands, s.in_place
    data_type, sizes, broadcast = operands.spec.data_type, operands.sizes, operands.broadcast
    with st.expander("Descriptors and bindings", expanded=bool(broadcast) or in_place):
        descs = {"ATensor": b_descriptor(data_type, sizes, ()), "BTensor": b_descriptor(data_type, sizes, broadcast),
                 "OutputTensor": b_descriptor(data_type, sizes, ())}
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


def values_fixes(operands):
    """Fixes for typed values that do not fill their operand: Sizes that hold A's values, B from the pattern."""
    count, options = math.prod(operands.sizes), []
    given = values_count(operands.spec.text) if operands.spec.pattern == "custom" else count
    if 0 < given != count:
        options.append(Fix(f"Sizes {given}", (("or_sizes", str(given)), ("or_bcast", ""))))
    if operands.b_text is not None and values_count(operands.b_text) != math.prod(operands.b_sizes):
        options.append(Fix("B from the pattern", (("or_b_source", "derived"),)))
    return Fixes("typed values", tuple(options)) if options else None


def inputs_of(operands):
    a, _, b = work.or_operands(operands)
    return [a, b]


def outputs_of(operands):
    return [work.or_output(operands)]


class BitwisePage(OperatorPage):
    key, name, pick = "or", "bitwise", "or_pick"
    # The operator's name goes under the title: as one 23-letter word it broke mid-word in a 800 px window.
    title = "Bitwise OR"
    introduction = ("**DML_ELEMENT_WISE_BIT_OR**: Output = A | B on each element's raw bits. Click a bit to follow it "
                    "through A, B and Output.")
    groups = ("Operands",)
    presets = PRESETS

    def controls(self, boxes, settings):
        with boxes[0]:
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
            st.caption(
                "Output = A | B on each element's raw bits: the DataType only sets the width (8 to 64 bits), so on "
                "floats the OR mixes sign, exponent and mantissa fields. Feature level 3_0 allows UINT8/16/32 only; "
                "4_1 allows every type. DataType, feature level and value pattern of A are below."
            )
        return Controls(sizes, b_text, bcast, bool(in_place))

    def line(self, c, settings):
        return [OPERATOR, f"{settings.data_type} {braced(c.sizes_text)}",
                "B typed" if c.b_text is not None else "B from the pattern",
                f"B broadcast along {c.bcast_text.strip()}" if c.bcast_text.strip() else "",
                "in place" if c.in_place else ""]

    def notes(self, c, settings):
        if c.b_text is not None:
            show_value_notes(c.b_text, settings.data_type, "B typed values")

    def configure(self, c, settings):
        sizes = parse_int_list(c.sizes_text, "Sizes")
        check_element_count(sizes, "Sizes")
        broadcast = set(parse_int_list(c.bcast_text, "Broadcast dims", minimum=0)) if c.bcast_text.strip() else set()
        for d in sorted(broadcast):
            if d >= len(sizes):
                raise DescriptorError(f"Broadcast dims: dim {d} is not in [0, {len(sizes) - 1}] for Sizes "
                                      f"{list(sizes)}")
        return Settings(work.OrOperands(settings.values, tuple(sizes), tuple(sorted(broadcast)), c.b_text),
                        c.in_place)

    def work_bytes(self, s):
        return s.work_bytes()

    def compute(self, s):
        try:
            work.or_output(s.operands)
        except DescriptorError as exc:
            raise Refused(str(exc), values_fixes(s.operands), described=s) from None

    def quiz(self, s):
        a, _, b = work.or_operands(s.operands)
        questions = QuizSettings(s.call, tuple(tuple(int(v) for v in bits_of(x)[:QUIZ_ELEMENTS]) for x in (a, b)))
        return questions, functools.partial(reveal, s)

    def quiz_input(self, s, question):
        return ask(s, question)

    def figure(self, s, steps_on, speed):
        first, stop, drawn = drawn_elements(s)
        drawn_part(self.row, [drawn], whole=stop - first == math.prod(s.operands.sizes))
        figure(s, first, stop, steps_on, speed)

    def below_figure(self, s):
        descriptors(s)

    def draw_last_valid(self, drawn):
        s, first, stop = drawn
        charts.picture(work.or_picture(s.operands, first, stop, s.in_place), "or_last_valid", "Last valid view")

    def panels(self, s, refusal=None):
        operands = s.operands
        return [Panels(Call(OPERATOR, operands.spec.data_type, (operands.sizes, operands.sizes)),
                       Arrays(("bit_or", operands), functools.partial(inputs_of, operands),
                              functools.partial(outputs_of, operands), refusal,
                              elsewhere=(("b_sizes", operands.b_sizes),)), "or_panels")]


render(BitwisePage())
