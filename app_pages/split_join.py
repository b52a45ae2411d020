"""Split <-> Join page: DML_SPLIT cuts a tensor along Axis, DML_JOIN glues the pieces back (or JOIN alone, set up
from its own inputs). The widgets and the layout are here; what lies between them is ui/split_join_work.py's."""

import functools

import streamlit as st

from ops import DescriptorError, QuizSettings
from ops.descriptors.fixes import split_fixes
from ui import charts, explain, say, url_state, work
from ui import split_join_work as sjw
from ui.errors import remember_valid, typed_values_refused
from ui.operator_page import OperatorPage, Refused, render
from ui.picks import clear_pick, remember_pick
from ui.say import md
from ui.shared import admitted, fragment
from ui.toolbar import drawn_part, group
from ui.values import parse_int_list
from viz.export import file_stem
from viz.split_join_fig import default_view, describe_pick, pick_from_selection

CHART = "sj_figure"
OPERATIONS = {"split": "SPLIT, then JOIN back", "join": "JOIN from its own inputs"}
MODES = {"sizes": "per-output sizes", "even": "even split into K parts"}
DEFAULTS = dict(sj_op="split", sj_sizes="1,1,6,2", sj_axis=2, sj_mode="sizes", sj_split="2,1,3", sj_parts=2,
                sj_inputs=3, sj_join="2,1,3", sj_slice="", sj_row0=0, sj_col0=0)
PARTS_MAX = 1 << 16


def resize_join_sizes():
    """on_change of the number of JOIN inputs: the list of their sizes along Axis grows (by 1s) or shrinks."""
    count = st.session_state["sj_inputs"]
    try:
        sizes = list(parse_int_list(st.session_state.get("sj_join", ""), "Input sizes along Axis", max_count=None))
    except DescriptorError:
        return  # the list's own error names the problem at the next run
    if count >= 1:
        url_state.put("sj_join", ",".join(map(str, (sizes + [1] * count)[:count])))


def show_pick(s, drawn_pick):
    """The picked cell's caption; a pick that no longer fits the tensor is not shown."""
    pick = url_state.value(SplitJoinPage.pick, None)
    described = describe_pick(work.values(s.spec, s.sizes), s.axis, list(s.output_sizes), pick, s.join)
    if described is None:
        if pick is not None:
            url_state.put(SplitJoinPage.pick, None)  # picked under other settings: it no longer means anything
        return  # the page's introduction says what a click does
    left, right = st.columns([5, 1], vertical_alignment="center")
    say.caption(md("Picked: {}", described) + ("" if drawn_pick is not None else md(" (outside the drawn plane)")),
                into=left)
    right.button("Clear highlight", key="sj_clear_pick", on_click=clear_pick, args=(SplitJoinPage.pick,))


def plane_controls(s, view):
    """The drawn plane's settings, in their own group beside the figure: (other dims' indices, first row and
    column drawn)."""
    other_dims = [d for d in range(len(s.sizes)) if d not in view]
    with group("Drawn plane"):
        slice_text = ""
        if other_dims:
            slice_text = url_state.widget(st.text_input, md("Slice indices for dims {}", other_dims), "sj_slice", "",
                                          help="Which index of each dimension outside the drawn plane; empty = all 0")
        window_row, window_col = st.columns(2)
        row0 = url_state.widget(window_row.number_input, "First row drawn", "sj_row0", 0, minimum=0,
                                maximum=max(s.sizes))
        col0 = url_state.widget(window_col.number_input, "First column drawn", "sj_col0", 0, minimum=0,
                                maximum=max(s.sizes))
        say.caption(sjw.plane_caption(s))
    return sjw.slice_indices(slice_text, other_dims), (int(row0), int(col0))


@fragment
def figure(s, drawn, steps_on, speed):
    """The drawn plane and the picked cell: a click reruns only this part of the page."""
    with admitted(s.spec.nbytes(s.sizes) * 3, "this tensor"):
        picture = work.split_picture(*drawn)
        remember_valid("split_join", drawn)
        if steps_on:
            explain.stepper("split_join", [("SPLIT", picture)],
                            lambda title, step: sjw.split_formula(s, step.source), "sj", speed)
            return
        pick = url_state.value(SplitJoinPage.pick, None)
        picked = work.picked("split_join", picture, pick)
        show_pick(s, picked.context.pick)
        operator = "JOIN" if s.join else "SPLIT"
        charts.show(explain.with_speed(picked, speed), CHART, file_stem(operator, s.spec.data_type, *s.sizes,
                                                                        f"axis{s.axis}"),
                    f"{operator}, {s.spec.data_type} {list(s.sizes)}, Axis {s.axis}, parts {list(s.output_sizes)}",
                    on_select=functools.partial(remember_pick, SplitJoinPage.pick, CHART, pick_from_selection))
        if picked.context.pick is not None:
            columns = st.columns(2)
            with columns[0]:
                explain.formula_block("SPLIT: where the picked element goes",
                                      functools.partial(sjw.split_formula, s, pick))
            with columns[1]:
                explain.formula_block("JOIN: where it comes back", functools.partial(sjw.join_formula, s, pick))


def operation_controls():
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
        return sjw.Controls(operation, sizes, int(axis), count=int(count), join_text=join_text)
    mode = url_state.widget(st.radio, "Outputs", "sj_mode", DEFAULTS["sj_mode"], options=list(MODES),
                            format_func=MODES.get, horizontal=True)
    if mode == "sizes":
        split_text = url_state.widget(st.text_input, "Output sizes along Axis", "sj_split",
                                      DEFAULTS["sj_split"], help="One size per output; they must add up to "
                                                                 "the input's size along Axis")
        return sjw.Controls(operation, sizes, int(axis), split_text=split_text)
    parts = url_state.widget(st.number_input, "Parts K", "sj_parts", DEFAULTS["sj_parts"], minimum=1,
                             maximum=PARTS_MAX)
    return sjw.Controls(operation, sizes, int(axis), parts=int(parts))


class SplitJoinPage(OperatorPage):
    key, name, pick = "sj", "split_join", "sj_pick"
    title = "Split <-> Join: DML_SPLIT and DML_JOIN"
    introduction = "A tensor cut along Axis into pieces, and the pieces joined back. Click a cell to follow it."
    groups = ("Operator & sizes",)
    presets = sjw.PRESETS

    def controls(self, boxes, settings):
        with boxes[0]:
            controls = operation_controls()
            st.caption(
                "SPLIT cuts InputTensor along Axis into OutputCount tensors whose sizes along Axis sum to the "
                "input's; every other size stays. JOIN is the inverse (ONNX Concat): set it up from its own inputs, "
                "or see it undo a SPLIT. Each output is a plain copy of its slab. DataType, feature level and values "
                "are below."
            )
        return controls

    def line(self, c, settings):
        return sjw.settings_line(c, settings.data_type)

    def configure(self, c, settings):
        return sjw.configure(c, settings.values)

    def work_bytes(self, s):
        return s.spec.nbytes(s.sizes) * 3 + len(s.output_sizes) * work.PART_BYTES

    def work_seconds(self, s):
        # Each part costs its validation, export and cross-check (ui.work.PART_SECONDS).
        return work.view_seconds(self.work_bytes(s), parts=len(s.output_sizes))

    def work_name(self, s):
        return f"this view ({len(s.output_sizes):,} parts)"

    def compute(self, s):
        if refused := typed_values_refused(s.spec, s.sizes):
            raise Refused(*refused, s)
        try:
            work.split_parts(*s.key)
        except DescriptorError as exc:
            raise Refused(str(exc), split_fixes(s.sizes, s.axis, s.output_sizes), s) from None

    def quiz(self, s):
        return QuizSettings(s.split), functools.partial(sjw.reveal, s)

    def quiz_input(self, s, question):
        return sjw.ask(s, question)

    def figure(self, s, steps_on, speed):
        view = default_view(len(s.sizes), s.axis)
        try:
            fixed, start = plane_controls(s, view)
            drawn = (*s.key, view, tuple(sorted(fixed.items())), start, s.join)
            # Checks the slice indices, and says which index each dimension outside the plane is drawn at (shared
            # work: the figure below draws this same picture).
            fixed = work.split_picture(*drawn).context.fixed
        except DescriptorError as exc:
            raise Refused(str(exc), described=s) from None
        drawn_part(self.row, *sjw.plane_line(s, view, start, fixed))
        figure(s, drawn, steps_on, speed)

    def below_figure(self, s):
        say.markdown(sjw.outcome_text(s))

    def draw_last_valid(self, drawn):
        charts.picture(work.split_picture(*drawn), "sj_last_valid", "Last valid view")

    def panels(self, s, refusal=None):
        return sjw.panels(s, refusal)

    def fix_settings(self, fix, c):
        return sjw.fix_settings(fix, c)


render(SplitJoinPage())
