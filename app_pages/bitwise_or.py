"""Bitwise page: DirectML's bitwise family on the bits of any DirectML type, with broadcast and in-place;
DML_ELEMENT_WISE_BIT_OR by default. The Operation setting offers every operator of the family (from the registry);
what the page works out from its settings, never from the operators' names, is in ui/bitwise_work.py.
"""

import functools
import json
import math

import streamlit as st

from ops import DescriptorError, numpy_dtype
from ui import bitwise_work as bw
from ui import charts, explain, say, url_state, work
from ui.errors import remember_valid
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.picks import clear_pick, remember_pick
from ui.say import md
from ui.shared import admitted, fragment
from ui.sidebar import TYPED_MAX_CHARS, show_value_notes
from ui.toolbar import drawn_part, group
from viz.bitwise_fig import FIT_HEIGHT, MAX_CELLS, decode_rows, describe_pick, drawn_range, pick_from_selection
from viz.export import file_stem

CHART = "or_figure"
B_SOURCES = {"derived": "from the sidebar pattern (random: seed + 1; sequence: continued; otherwise A reversed)",
             "typed": "typed here"}
DEFAULTS = dict(or_sizes="2,3", or_b_source="derived", or_b_text="1", or_bcast="", or_inplace=False, or_first=0,
                or_rows=16, bw_op=bw.OPERATOR)
ROWS_MAX = MAX_CELLS // 8  # the most elements a grid can hold (8-bit types)


def show_pick(operands, first, stop):
    """The picked bit's caption; a pick that no longer fits the tensors is dropped. Returns the pick when its
    element is drawn, else None: the cached figure is then the plain one."""
    pick = url_state.value(BitwisePage.pick, None)
    a, _, b = work.or_operands(operands)
    described = describe_pick(pick, a, b, work.or_output(operands), op=operands.op)
    if described is None:
        if pick is not None:
            url_state.put(BitwisePage.pick, None)  # picked under other settings: it no longer means anything
        return None  # the page's introduction says what a click does
    left, right = st.columns([5, 1], vertical_alignment="center")
    drawn = first <= pick[0] < stop
    say.caption(md("Picked: {}", described) + ("" if drawn else md(" (not among the drawn elements)")), into=left)
    right.button("Clear highlight", key="or_clear_pick", on_click=clear_pick, args=(BitwisePage.pick,))
    return tuple(pick) if drawn else None


def drawn_elements(s):
    """The drawn range of elements, in its own group beside the figure: (first, stop) of the rows the grids show,
    said on the line over the figure."""
    count, width = math.prod(s.operands.sizes), bw.widest_bits(s.operands)
    with group("Drawn elements"):
        first_asked = url_state.widget(st.number_input, "First element drawn", "or_first", 0, minimum=0,
                                       maximum=max(0, count - 1))
        rows_asked = url_state.widget(st.number_input, "Elements drawn", "or_rows", DEFAULTS["or_rows"], minimum=1,
                                      maximum=ROWS_MAX)
        say.caption(md("A grid holds at most {:,} cells = {} elements of this type. Every element is computed, and "
                       "the cross-check compares them all (its tab says where it ran).", MAX_CELLS, MAX_CELLS // width))
    first, stop = drawn_range(count, numpy_dtype(f"UINT{width}"), first_asked, rows_asked)
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
                            lambda title, step: bw.bit_formula(operands, *step.source), "or", speed, element=element)
        else:
            data_type = operands.spec.data_type
            charts.show(explain.with_speed(picture, speed), CHART,
                        file_stem(operands.op, data_type, *operands.sizes, f"from{first}"),
                        f"{operands.op}, {data_type} {list(operands.sizes)}, elements {first} to {stop - 1}",
                        on_select=functools.partial(remember_pick, BitwisePage.pick, CHART, pick_from_selection))
            if pick is not None:
                explain.formula_block("The formula for the picked bit",
                                      functools.partial(bw.bit_formula, operands, *pick))
        st.dataframe(decode_rows(a, b, work.or_output(operands), first, stop), hide_index=True, key="or_table")


class BitwisePage(OperatorPage):
    key, name, pick = "or", "bitwise", "or_pick"
    # The operator's name goes under the title: as one 23-letter word it broke mid-word in a 800 px window.
    @property
    def title(self):
        """'Bitwise OR' (every link older than the Operation setting), 'Bitwise SHIFT LEFT': the chosen operation's
        DirectML name after ELEMENT_WISE_BIT_. Read from the link before the Operation widget is drawn."""
        return "Bitwise " + bw.short_name(self.operation).replace("_", " ")

    @property
    def operation(self):
        return url_state.ahead("bw_op", DEFAULTS["bw_op"], bw.OPERATIONS)

    @property
    def introduction(self):
        """The chosen operation by its DirectML name (the subtitle said BIT_OR whatever the operation was)."""
        op = bw.OPERATIONS[self.operation]
        return md("**DML_{}**, one of DirectML's bitwise family (the Operation, under Operands), on each element's "
                  "raw bits. Click a bit to follow it through {} and Output.", op.name,
                  " and ".join(bw.input_names(op)))
    groups = ("Operands",)
    presets = bw.PRESETS

    def controls(self, boxes, settings):
        with boxes[0]:
            # Labelled by what tells them apart: the full names were cut at "ELEMENT_WISE_BIT_SHIF", where they
            # start to differ.
            name = url_state.widget(st.selectbox, "Operation (DML_ELEMENT_WISE_BIT_...)", "bw_op", DEFAULTS["bw_op"],
                                    options=list(bw.OPERATIONS), format_func=bw.operation_label,
                                    help="DirectML's bitwise operators, DML_OPERATOR_ELEMENT_WISE_BIT_ and the name "
                                         "shown; OR is the default")
            op = bw.OPERATIONS[name]
            attrs = ()
            chosen = bw.output_attribute(op)
            if chosen is not None:
                attribute, choices, default = chosen
                output_type = url_state.widget(st.radio, "Output DataType", "bw_out_type", default,
                                               options=list(choices), horizontal=True,
                                               help=md("{} writes its count as one of these types", op.name))
                attrs = ((attribute, output_type),)
            inputs = " and ".join(bw.input_names(op))
            sizes = url_state.widget(st.text_input, "Sizes", "or_sizes", DEFAULTS["or_sizes"],
                                     help=md("1 to 8 sizes separated by commas; {} and Output share them", inputs))
            b_text, bcast = None, ""
            if bw.is_binary(op):
                b_text, bcast = self.b_controls(op)
            in_place = False
            if op.in_place:
                in_place = url_state.widget(st.checkbox, "In place: Output aliases A's buffer", "or_inplace",
                                            DEFAULTS["or_inplace"])
            # The float clause only where floats are taken: it was shown for the shifts too.
            if bw.takes_floats(op):
                say.caption(md("{}: the DataType only sets the width (8 to 64 bits), so on floats it works on the "
                               "sign, exponent and mantissa fields alike. Input types by {}. DataType, feature level "
                               "and value pattern of A are below.", op.summary, bw.support_text(op)))
            else:
                say.caption(md("{}: unsigned integers only, the DataType setting their width (8 to 64 bits). Input "
                               "types by {}. DataType, feature level and value pattern of A are below.", op.summary,
                               bw.support_text(op)))
        return bw.Controls(sizes, b_text, bcast, bool(in_place), name, attrs)

    def b_controls(self, op):
        """B's values and broadcast, for a binary operator: (typed text or None, broadcast dims text)."""
        meaning = f" ({op.lesson.second})" if op.lesson.second else ""
        source = url_state.widget(st.radio, md("B values{}", meaning), "or_b_source", DEFAULTS["or_b_source"],
                                  options=list(B_SOURCES), format_func=B_SOURCES.get)
        b_text = None
        if source == "typed":
            b_text = url_state.widget(st.text_area, md("B typed values{}", meaning), "or_b_text", DEFAULTS["or_b_text"],
                                      max_chars=TYPED_MAX_CHARS,
                                      help="B's stored values, row-major; with broadcast dims B stores size 1 "
                                           "along them")
        bcast = url_state.widget(st.text_input, "Broadcast B along dims", "or_bcast", DEFAULTS["or_bcast"],
                                 help="e.g. 0 or 0,1: B stores size 1 there and its descriptor strides are 0")
        return b_text, bcast

    def line(self, c, settings):
        return bw.settings_line(c, settings.data_type)

    def notes(self, c, settings):
        if c.b_text is not None:
            show_value_notes(c.b_text, settings.data_type, "B typed values")

    def configure(self, c, settings):
        try:
            return bw.configuration(c, settings.values)
        except DescriptorError as exc:
            raise Refused(str(exc), bw.field_fixes(c)) from None

    def work_bytes(self, s):
        return s.work_bytes()

    def compute(self, s):
        try:
            work.or_output(s.operands)
        except DescriptorError as exc:
            raise Refused(str(exc), bw.values_fixes(s.operands), described=s) from None

    def quiz(self, s):
        return bw.quiz_settings(s), functools.partial(bw.reveal, s)

    def quiz_input(self, s, question):
        return bw.ask(s, question)

    def figure(self, s, steps_on, speed):
        first, stop, drawn = drawn_elements(s)
        drawn_part(self.row, [drawn], whole=stop - first == math.prod(s.operands.sizes))
        figure(s, first, stop, steps_on, speed)

    def below_figure(self, s):
        """The descs and the dispatch's bindings, with what a broadcast or an in-place binding means."""
        operands, in_place = s.operands, s.in_place
        with st.expander("Descriptors and bindings", expanded=bool(operands.broadcast) or in_place):
            descs = bw.descriptors(operands)
            st.code(json.dumps(descs, indent=1), language="json")
            if operands.broadcast and operands.binary:
                say.markdown(bw.broadcast_note(operands, descs))
            st.code(json.dumps(bw.dispatch(operands, in_place), indent=1), language="json")
            if in_place:
                say.markdown(bw.in_place_note(s.operator))

    def draw_last_valid(self, drawn):
        s, first, stop = drawn
        charts.picture(work.or_picture(s.operands, first, stop, s.in_place), "or_last_valid", "Last valid view")

    def panels(self, s, refusal=None):
        return [Panels(bw.unchecked_call(s.operands), bw.arrays(s.operands, refusal), "or_panels")]


render(BitwisePage())
