"""The Bitwise page: DirectML's bitwise family on the bits of any DirectML type, with broadcast and in-place;
DML_ELEMENT_WISE_BIT_OR by default. The Operation setting offers every operator of the family (from the registry);
what the page makes of its settings, never from the operators' names, is in settings.py."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.bitwise import work
from app_pages.bitwise.settings import (
    B_SOURCES,
    DEFAULTS,
    OPERATIONS,
    PICK,
    PRESETS,
    Configuration,
    Controls,
    configure,
    in_place_note,
    input_names,
    operation_label,
    output_attribute,
    short_name,
    support_text,
    takes_floats,
)
from ops import DescriptorError, QuizSettings, numpy_dtype
from ops.operators.bitwise import Bitwise
from ops.operators.lessons import Formula
from ops.teaching.quiz import Question
from ui import charts, say, url_state
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.say import Markdown, md
from ui.sidebar import TYPED_MAX_CHARS, SidebarSettings, show_value_notes
from ui.toolbar import drawn_part, group
from viz import bitwise_fig
from viz.bitwise_fig import FIT_HEIGHT, decode_rows, describe_pick, drawn_range
from viz.common import MAX_CELLS
from viz.operator_figure import Pick, Step
from viz.spec import SpecFigure

ROWS_MAX = MAX_CELLS // 8  # the most elements a grid can hold (8-bit types)
Drawn = tuple[Configuration, int, int]  # the configuration and the drawn elements: first, stop


def drawn_elements(c: Configuration) -> tuple[int, int, str]:
    """The drawn range of elements, in its own group beside the figure: (first, stop) of the rows the grids show,
    said on the line over the figure."""
    count, width = math.prod(c.operands.sizes), c.operands.widest_bits()
    with group("Drawn elements"):
        first_asked = url_state.widget(st.number_input, "First element drawn", "or_first", 0, minimum=0,
                                       maximum=max(0, count - 1))
        rows_asked = url_state.widget(st.number_input, "Elements drawn", "or_rows", DEFAULTS["or_rows"], minimum=1,
                                      maximum=ROWS_MAX)
        say.caption(md("A grid holds at most {:,} cells = {} elements of this type. Every element is computed, and "
                       "the cross-check compares them all (its tab says where it ran).", MAX_CELLS, MAX_CELLS // width))
    first, stop = drawn_range(count, numpy_dtype(f"UINT{width}"), first_asked, rows_asked)
    return first, stop, f"Drawing elements {first} to {stop - 1} of {count:,} (row-major), {width} bits each"


def b_controls(operator: Bitwise) -> tuple[str | None, str]:
    """B's values and broadcast, for a binary operator: (typed text or None, broadcast dims text)."""
    meaning = f" ({operator.lesson.second})" if operator.lesson.second else ""
    source = url_state.widget(st.radio, md("B values{}", meaning), "or_b_source", DEFAULTS["or_b_source"],
                              options=list(B_SOURCES), format_func=B_SOURCES.get)
    b_text = None
    if source == "typed":
        b_text = url_state.widget(st.text_area, md("B typed values{}", meaning), "or_b_text", DEFAULTS["or_b_text"],
                                  max_chars=TYPED_MAX_CHARS,
                                  help="B's stored values, row-major; with broadcast dims B stores size 1 along them")
    bcast = url_state.widget(st.text_input, "Broadcast B along dims", "or_bcast", DEFAULTS["or_bcast"],
                             help="e.g. 0 or 0,1: B stores size 1 there and its descriptor strides are 0")
    return b_text, bcast


class BitwisePage(OperatorPage[Controls, Configuration, Drawn]):
    key, pick_key, figures = "or", PICK, bitwise_fig
    groups = ("Operands",)

    # The operator's name goes under the title: as one 23-letter word it broke mid-word in a 800 px window.
    @property
    def title(self) -> str:
        """'Bitwise OR' (every link older than the Operation setting), 'Bitwise SHIFT LEFT': the chosen operation's
        DirectML name after ELEMENT_WISE_BIT_. Read from the link before the Operation widget is drawn."""
        return "Bitwise " + short_name(self.operation).replace("_", " ")

    @property
    def operation(self) -> str:
        return url_state.ahead("bw_op", DEFAULTS["bw_op"], OPERATIONS)

    @property
    def introduction(self) -> Markdown:
        """The chosen operation by its DirectML name."""
        operator = OPERATIONS[self.operation]
        return md("**DML_{}**, one of DirectML's bitwise family (the Operation, under Operands), on each element's "
                  "raw bits. Click a bit to follow it through {} and Output.", operator.name,
                  " and ".join(input_names(operator)))

    def presets(self, sidebar: SidebarSettings) -> Mapping[str, Mapping[str, Any]]:
        return PRESETS

    def controls(self, boxes: Sequence[DeltaGenerator], sidebar: SidebarSettings) -> Controls:
        with boxes[0]:
            # Labelled by what tells them apart: the full names were cut at "ELEMENT_WISE_BIT_SHIF", where they
            # start to differ.
            name = url_state.widget(st.selectbox, "Operation (DML_ELEMENT_WISE_BIT_...)", "bw_op", DEFAULTS["bw_op"],
                                    options=list(OPERATIONS), format_func=operation_label,
                                    help="DirectML's bitwise operators, DML_OPERATOR_ELEMENT_WISE_BIT_ and the name "
                                         "shown; OR is the default")
            operator = OPERATIONS[name]
            attrs: tuple[tuple[str, str], ...] = ()
            chosen = output_attribute(operator)
            if chosen is not None:
                attribute, choices, default = chosen
                output_type = url_state.widget(st.radio, "Output DataType", "bw_out_type", default,
                                               options=list(choices), horizontal=True,
                                               help=md("{} writes its count as one of these types", operator.name))
                attrs = ((attribute, output_type),)
            names = " and ".join(input_names(operator))
            sizes = url_state.widget(st.text_input, "Sizes", "or_sizes", DEFAULTS["or_sizes"],
                                     help=md("1 to 8 sizes separated by commas; {} and Output share them", names))
            b_text, bcast = None, ""
            if operator.arity[0] == 2:
                b_text, bcast = b_controls(operator)
            in_place = False
            if operator.in_place:
                in_place = url_state.widget(st.checkbox, "In place: Output aliases A's buffer", "or_inplace",
                                            DEFAULTS["or_inplace"])
            # The float clause only where floats are taken: it was shown for the shifts too.
            if takes_floats(operator):
                say.caption(md("{}: the DataType only sets the width (8 to 64 bits), so on floats it works on the "
                               "sign, exponent and mantissa fields alike. Input types by {}. DataType, feature level "
                               "and value pattern of A are below.", operator.summary, support_text(operator)))
            else:
                say.caption(md("{}: unsigned integers only, the DataType setting their width (8 to 64 bits). Input "
                               "types by {}. DataType, feature level and value pattern of A are below.",
                               operator.summary, support_text(operator)))
        return Controls(sizes, b_text, bcast, bool(in_place), name, attrs)

    def line(self, c: Controls, sidebar: SidebarSettings) -> list[str]:
        return c.line(sidebar.data_type)

    def notes(self, c: Controls, sidebar: SidebarSettings) -> None:
        if c.b_text is not None:
            show_value_notes(c.b_text, sidebar.data_type, "B typed values")

    def configure(self, c: Controls, sidebar: SidebarSettings) -> Configuration:
        try:
            return configure(c, sidebar.values)
        except DescriptorError as exc:
            raise Refused(str(exc), c.field_fixes()) from None

    def work_bytes(self, c: Configuration) -> int:
        return c.work_bytes()

    def compute(self, c: Configuration) -> None:
        try:
            work.output(c.operands)
        except DescriptorError as exc:
            raise Refused(str(exc), c.operands.values_fixes(), described=c) from None

    def calls(self, c: Configuration, refusal: str | None = None) -> list[Panels]:
        return [Panels(c.operands.unchecked_call(), work.panel_arrays(c.operands, refusal), "or_panels")]

    def quiz(self, c: Configuration) -> tuple[QuizSettings, Callable[[Question], SpecFigure]]:
        return work.quiz_settings(c), functools.partial(work.reveal, c)

    def quiz_input(self, c: Configuration, question: Question) -> SpecFigure:
        return work.ask(c, question)

    def drawn_part(self, c: Configuration) -> Drawn:
        first, stop, drawn = drawn_elements(c)
        drawn_part(self.row, [drawn], whole=stop - first == math.prod(c.operands.sizes))
        return c, first, stop

    def pictures(self, drawn: Drawn) -> list[tuple[str, SpecFigure]]:
        c, first, stop = drawn
        return [("", work.picture(c.operands, first, stop, c.in_place, charts.height_for_screen(FIT_HEIGHT)))]

    def chart(self, drawn: Drawn, title: str) -> tuple[list[Any], str]:
        c, first, stop = drawn
        operands, data_type = c.operands, c.operands.values.data_type
        return ([operands.op, data_type, *operands.sizes, f"from{first}"],
                f"{operands.op}, {data_type} {list(operands.sizes)}, elements {first} to {stop - 1}")

    def describe_pick(self, drawn: Drawn, pick: Pick) -> str | None:
        operands = drawn[0].operands
        a, _, b = work.arrays(operands)
        return describe_pick(pick, a, b, work.output(operands), op=operands.op)

    def undrawn_pick(self, drawn: Drawn, pick: Pick) -> str | None:
        _, first, stop = drawn
        return None if first <= pick[0] < stop else "not among the drawn elements"

    def pick_formulas(self, drawn: Drawn, pick: Pick) -> list[tuple[str, Callable[[], Formula]]]:
        return [("The formula for the picked bit", functools.partial(work.bit_formula, drawn[0].operands, *pick))]

    def step_element(self, drawn: Drawn, pick: Pick | None) -> int:
        # The bits of the picked element (or the first drawn one), from the most significant down.
        return pick[0] if pick is not None else drawn[1]

    def step_formula(self, drawn: Drawn, title: str, step: Step) -> Formula:
        return work.bit_formula(drawn[0].operands, *step.source)

    def under_figure(self, drawn: Drawn, pick: Pick | None) -> None:
        c, first, stop = drawn
        a, _, b = work.arrays(c.operands)
        st.dataframe(decode_rows(a, b, work.output(c.operands), first, stop), hide_index=True, key="or_table")

    def below_figure(self, c: Configuration) -> None:
        """The descs and the dispatch's bindings, with what a broadcast or an in-place binding means."""
        operands, in_place = c.operands, c.in_place
        with st.expander("Descriptors and bindings", expanded=bool(operands.broadcast) or in_place):
            descs = operands.descriptors()
            st.code(json.dumps(descs, indent=1), language="json")
            if operands.broadcast and operands.binary:
                say.markdown(operands.broadcast_note(descs))
            st.code(json.dumps(operands.dispatch(in_place), indent=1), language="json")
            if in_place:
                say.markdown(in_place_note(c.operator))


render(BitwisePage())
