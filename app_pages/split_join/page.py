"""The Split <-> Join page: DML_SPLIT cuts a tensor along Axis, DML_JOIN glues the pieces back (or JOIN alone, set up
from its own inputs): its widgets and its hooks into the operator-page skeleton."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.split_join import work
from app_pages.split_join.settings import (
    DEFAULTS,
    MODES,
    OPERATIONS,
    PARTS_MAX,
    PICK,
    PRESETS,
    Configuration,
    Controls,
    Plane,
    configure,
    slice_indices,
)
from ops import DescriptorError, QuizSettings
from ops.descriptors.fixes import split_fixes
from ops.operators.fixes import Fix
from ops.operators.lessons import Formula
from ops.teaching.quiz import Question
from ui import say, url_state
from ui.errors import typed_values_refused
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.panels import Arrays
from ui.say import md
from ui.sidebar import SidebarSettings
from ui.toolbar import drawn_part, group
from ui.values import parse_int_list
from ui.work import PART_BYTES, tensor, view_seconds
from viz import split_join_fig
from viz.operator_figure import Pick, Step
from viz.spec import SpecFigure
from viz.split_join_fig import default_view, describe_pick

Drawn = tuple[Configuration, Plane]  # the configuration and its drawn plane


def resize_join_sizes() -> None:
    """on_change of the number of JOIN inputs: the list of their sizes along Axis grows (by 1s) or shrinks."""
    count = st.session_state["sj_inputs"]
    try:
        sizes = list(parse_int_list(st.session_state.get("sj_join", ""), "Input sizes along Axis", max_count=None))
    except DescriptorError:
        return  # the list's own error names the problem at the next run
    if count >= 1:
        url_state.put("sj_join", ",".join(map(str, (sizes + [1] * count)[:count])))


def plane_controls(c: Configuration, view: tuple[int | None, int]) -> tuple[dict[int, int], tuple[int, int]]:
    """The drawn plane's settings, in their own group beside the figure: (other dims' indices, first row and
    column drawn)."""
    other_dims = [d for d in range(len(c.sizes)) if d not in view]
    with group("Drawn plane"):
        slice_text = ""
        if other_dims:
            slice_text = url_state.widget(st.text_input, md("Slice indices for dims {}", other_dims), "sj_slice", "",
                                          help="Which index of each dimension outside the drawn plane; empty = all 0")
        window_row, window_col = st.columns(2)
        row0 = url_state.widget(window_row.number_input, "First row drawn", "sj_row0", 0, minimum=0,
                                maximum=max(c.sizes))
        col0 = url_state.widget(window_col.number_input, "First column drawn", "sj_col0", 0, minimum=0,
                                maximum=max(c.sizes))
        say.caption(c.plane_caption())
    return slice_indices(slice_text, other_dims), (int(row0), int(col0))


def operation_controls() -> Controls:
    """The operator and its sizes, read from their widgets."""
    operation = url_state.widget(st.radio, "Operator", "sj_op", DEFAULTS["sj_op"], options=list(OPERATIONS),
                                 format_func=OPERATIONS.get, horizontal=True)
    joining = operation == "join"
    sizes = url_state.widget(st.text_input, "Sizes", "sj_sizes", DEFAULTS["sj_sizes"],
                             help="Every input's sizes; the entry at Axis is each input's own (below)"
                             if joining else "InputTensor sizes: 1 to 8 whole numbers separated by commas")
    # Not bounded here: an axis out of range gets check_axis's message, which names the rule.
    axis = url_state.widget(st.number_input, "Axis", "sj_axis", DEFAULTS["sj_axis"], step=1,
                            help="The dimension that is cut (0 = outermost)")
    if joining:
        count = url_state.widget(st.number_input, "Number of inputs", "sj_inputs", DEFAULTS["sj_inputs"],
                                 maximum=PARTS_MAX, on_change=resize_join_sizes, help="InputCount")
        join_text = url_state.widget(st.text_input, "Input sizes along Axis", "sj_join", DEFAULTS["sj_join"],
                                     help="One size per input: InputTensors[k].Sizes[Axis]")
        return Controls(operation, sizes, int(axis), count=int(count), join_text=join_text)
    mode = url_state.widget(st.radio, "Outputs", "sj_mode", DEFAULTS["sj_mode"], options=list(MODES),
                            format_func=MODES.get, horizontal=True)
    if mode == "sizes":
        split_text = url_state.widget(st.text_input, "Output sizes along Axis", "sj_split",
                                      DEFAULTS["sj_split"], help="One size per output; they must add up to "
                                                                 "the input's size along Axis")
        return Controls(operation, sizes, int(axis), split_text=split_text)
    parts = url_state.widget(st.number_input, "Parts K", "sj_parts", DEFAULTS["sj_parts"], minimum=1,
                             maximum=PARTS_MAX)
    return Controls(operation, sizes, int(axis), parts=int(parts))


class SplitJoinPage(OperatorPage[Controls, Configuration, Drawn]):
    key, pick_key, figures = "sj", PICK, split_join_fig
    title = "Split <-> Join: DML_SPLIT and DML_JOIN"
    introduction = "A tensor cut along Axis into pieces, and the pieces joined back. Click a cell to follow it."
    groups = ("Operator & sizes",)

    def presets(self, sidebar: SidebarSettings) -> Mapping[str, Mapping[str, Any]]:
        return PRESETS

    def controls(self, boxes: Sequence[DeltaGenerator], sidebar: SidebarSettings) -> Controls:
        with boxes[0]:
            controls = operation_controls()
            st.caption(
                "SPLIT cuts InputTensor along Axis into OutputCount tensors whose sizes along Axis sum to the "
                "input's; every other size stays. JOIN is the inverse (ONNX Concat): set it up from its own inputs, "
                "or see it undo a SPLIT. Each output is a plain copy of its slab. DataType, feature level and values "
                "are below."
            )
        return controls

    def line(self, c: Controls, sidebar: SidebarSettings) -> list[str]:
        return c.line(sidebar.data_type)

    def configure(self, c: Controls, sidebar: SidebarSettings) -> Configuration:
        return configure(c, sidebar.values)

    def fix_settings(self, fix: Fix, c: Controls) -> dict[str, Any]:
        return c.fix_settings(fix)

    def work_bytes(self, c: Configuration) -> int:
        return c.work_bytes() + len(c.output_sizes) * PART_BYTES

    def work_seconds(self, c: Configuration) -> float:
        # Each part costs its validation, export and cross-check (ui.work.PART_SECONDS).
        return view_seconds(self.work_bytes(c), parts=len(c.output_sizes))

    def work_name(self, c: Configuration) -> str:
        return f"this view ({len(c.output_sizes):,} parts)"

    def compute(self, c: Configuration) -> None:
        if refused := typed_values_refused(c.values, c.sizes):
            raise Refused(*refused, c)
        try:
            work.parts(*c.key)
        except DescriptorError as exc:
            raise Refused(str(exc), split_fixes(c.sizes, c.axis, c.output_sizes), c) from None

    def calls(self, c: Configuration, refusal: str | None = None) -> list[Panels]:
        """SPLIT's and JOIN's panels (JOIN's alone when it is set up from its inputs)."""
        split, join = c.unchecked_calls()
        joined = Panels(join, Arrays(("join", *c.key), functools.partial(work.parts_of, c),
                                     functools.partial(work.joined_of, c), refusal), "sj_join_panels", "JOIN")
        if c.join:
            return [joined]
        return [Panels(split, Arrays(("split", *c.key), functools.partial(work.inputs_of, c),
                                     functools.partial(work.parts_of, c), refusal), "sj_split_panels", "SPLIT"),
                joined]

    def quiz(self, c: Configuration) -> tuple[QuizSettings, Callable[[Question], SpecFigure]]:
        return QuizSettings(c.split), functools.partial(work.reveal, c)

    def quiz_input(self, c: Configuration, question: Question) -> SpecFigure:
        return work.ask(c, question)

    def drawn_part(self, c: Configuration) -> Drawn:
        view = default_view(len(c.sizes), c.axis)
        try:
            fixed, start = plane_controls(c, view)
            plane = (view, tuple(sorted(fixed.items())), start)
            # Checks the slice indices, and says which index each dimension outside the plane is drawn at (shared
            # work: the figure draws this same picture).
            fixed = work.plane_picture(c, plane).context.fixed
        except DescriptorError as exc:
            raise Refused(str(exc), described=c) from None
        drawn_part(self.row, *c.plane_line(view, start, fixed))
        return c, plane

    def pictures(self, drawn: Drawn) -> list[tuple[str, SpecFigure]]:
        c, plane = drawn
        return [("", work.plane_picture(c, plane))]

    def chart(self, drawn: Drawn, title: str) -> tuple[list[Any], str]:
        c, _ = drawn
        operator = "JOIN" if c.join else "SPLIT"
        return ([operator, c.values.data_type, *c.sizes, f"axis{c.axis}"],
                f"{operator}, {c.values.data_type} {list(c.sizes)}, Axis {c.axis}, parts {list(c.output_sizes)}")

    def describe_pick(self, drawn: Drawn, pick: Pick) -> str | None:
        c, _ = drawn
        return describe_pick(tensor(c.values, c.sizes), c.axis, list(c.output_sizes), pick, c.join)

    def undrawn_pick(self, drawn: Drawn, pick: Pick) -> str | None:
        shown = split_join_fig.with_pick(self.pictures(drawn)[0][1], pick).context.pick
        return None if shown is not None else "outside the drawn plane"

    def pick_formulas(self, drawn: Drawn, pick: Pick) -> list[tuple[str, Callable[[], Formula]]]:
        c, _ = drawn
        return [("SPLIT: where the picked element goes", functools.partial(c.split_formula, pick)),
                ("JOIN: where it comes back", functools.partial(c.join_formula, pick))]

    def step_formula(self, drawn: Drawn, title: str, step: Step) -> Formula:
        return drawn[0].split_formula(step.source)

    def below_figure(self, c: Configuration) -> None:
        say.markdown(work.outcome_text(c))


render(SplitJoinPage())
