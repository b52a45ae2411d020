"""Split <-> Join page: DML_SPLIT cuts a tensor along Axis, DML_JOIN glues the pieces back (or JOIN alone, set up
from its own inputs)."""

import dataclasses
import functools
import math

import streamlit as st

from ops import Call, DescriptorError, QuizSettings, index_formula
from ops.descriptors.fixes import axis_fixes, count_fixes, even_split_fixes, split_fixes
from ops.guard import check_element_count
from ops.operators.base import check_axis
from ui import charts, explain, url_state, work
from ui.errors import remember_valid
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.panels import Arrays
from ui.picks import clear_pick, remember_pick
from ui.shared import admitted, fragment
from ui.toolbar import braced, drawn_part, group
from ui.values import parse_int_list
from viz.export import file_stem
from viz.split_join_fig import (
    WINDOW,
    default_view,
    describe_pick,
    input_only,
    pick_from_selection,
    window_bounds,
)

CHART = "sj_figure"
OPERATIONS = {"split": "SPLIT, then JOIN back", "join": "JOIN from its own inputs"}
MODES = {"sizes": "per-output sizes", "even": "even split into K parts"}
DEFAULTS = dict(sj_op="split", sj_sizes="1,1,6,2", sj_axis=2, sj_mode="sizes", sj_split="2,1,3", sj_parts=2,
                sj_inputs=3, sj_join="2,1,3", sj_slice="", sj_row0=0, sj_col0=0)
PARTS_MAX = 1 << 16
# The seed's examples: FLOAT32 {1,1,6,2} holding 1..12.
SEED_INPUT = dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0, sj_sizes="1,1,6,2", sj_slice="",
                  sj_row0=0, sj_col0=0)
PRESETS = {name: dict({"sj_op": "split"}, **values) for name, values in {
    "Seed: Axis 2 into {1,1,2,2}, {1,1,1,2}, {1,1,3,2}": dict(SEED_INPUT, sj_axis=2, sj_mode="sizes",
                                                            sj_split="2,1,3"),
    "Seed: Axis 3 into two {1,1,6,1}": dict(SEED_INPUT, sj_axis=3, sj_mode="even", sj_parts=2),
    "JOIN {1,1,2,2}, {1,1,1,2}, {1,1,3,2} along Axis 2": dict(SEED_INPUT, sj_op="join", sj_axis=2, sj_inputs=3,
                                                            sj_join="2,1,3"),
}.items()}
# A fix's setting -> this page's URL key (the axis size is written into the Sizes text instead).
FIX_KEYS = {"output_sizes": "sj_split", "sizes": "sj_sizes", "parts": "sj_parts", "axis": "sj_axis",
            "count": "sj_inputs", "join_sizes": "sj_join"}


@dataclasses.dataclass(frozen=True)
class Controls:
    operation: str
    sizes_text: str
    axis: int
    split_text: str | None = None
    parts: int | None = None
    count: int | None = None
    join_text: str | None = None


@dataclasses.dataclass(frozen=True)
class Settings:
    """What the page draws: the whole tensor (JOIN's output read as the SPLIT that undoes it), Axis and the parts'
    sizes along it."""

    spec: object  # ui.work.ValueSpec
    sizes: tuple
    axis: int
    output_sizes: tuple
    join: bool

    @property
    def key(self):
        return self.spec, self.sizes, self.axis, self.output_sizes

    @property
    def split(self):
        return Call.of("SPLIT", [self.sizes], self.spec.data_type, axis=self.axis, sizes=self.output_sizes)

    @property
    def joining(self):
        return Call.of("JOIN", self.pieces, self.spec.data_type, axis=self.axis)

    @property
    def pieces(self):
        return tuple((*self.sizes[:self.axis], s, *self.sizes[self.axis + 1:]) for s in self.output_sizes)


def resize_join_sizes():
    """on_change of the number of JOIN inputs: the list of their sizes along Axis grows (by 1s) or shrinks."""
    count = st.session_state["sj_inputs"]
    try:
        sizes = list(parse_int_list(st.session_state.get("sj_join", ""), "Input sizes along Axis", max_count=None))
    except DescriptorError:
        return  # the list's own error names the problem at the next run
    if count >= 1:
        url_state.put("sj_join", ",".join(map(str, (sizes + [1] * count)[:count])))


def slice_indices(text, other_dims):
    """Indices for the dims outside the drawn plane, in dim order; empty text means all 0."""
    if not other_dims or not text.strip():
        return {}
    values = parse_int_list(text, "Slice indices", minimum=0)
    if len(values) != len(other_dims):
        raise DescriptorError(f"Slice indices {list(values)}: need {len(other_dims)} (one each for dims {other_dims})")
    return dict(zip(other_dims, values))


def show_pick(s, drawn_pick):
    """The picked cell's caption; a pick that no longer fits the tensor is not shown."""
    pick = url_state.value(SplitJoinPage.pick, None)
    described = describe_pick(work.values(s.spec, s.sizes), s.axis, list(s.output_sizes), pick, s.join)
    if described is None:
        if pick is not None:
            url_state.put(SplitJoinPage.pick, None)  # picked under other settings: it no longer means anything
        return  # the page's introduction says what a click does
    left, right = st.columns([5, 1], vertical_alignment="center")
    left.caption(f"Picked: {described}" + ("" if drawn_pick is not None else " (outside the drawn plane)"))
    right.button("Clear highlight", key="sj_clear_pick", on_click=clear_pick, args=(SplitJoinPage.pick,))


def split_formula(s, cell):
    return index_formula(s.split, cell)


def join_formula(s, cell):
    """JOIN's formula for the same element, read from the output of SPLIT it sits in."""
    return index_formula(s.joining, split_formula(s, cell).destination)


def picture_holding(s, index):
    """The figure of the plane and window that hold input element `index` (the first ones when None)."""
    view = default_view(len(s.sizes), s.axis)
    index = index or (0,) * len(s.sizes)
    fixed = tuple((d, int(index[d])) for d in range(len(s.sizes)) if d not in view)
    row_dim, col_dim = view
    start = (0 if row_dim is None else index[row_dim] // WINDOW * WINDOW, index[col_dim] // WINDOW * WINDOW)
    return work.split_picture(*s.key, view, fixed, start)


def reveal(s, question):
    """The question's element outlined in the input and in its output, in the plane and window that hold it."""
    return work.picked("split_join", picture_holding(s, question.source), tuple(int(i) for i in question.source))


def ask(s, question):
    """The input a question is about, without the answer: the element outlined when it is the input's."""
    cell = tuple(int(i) for i in question.cell) if question.kind == "where" else None
    return input_only(picture_holding(s, cell), cell)


def plane_controls(s, view):
    """The drawn plane's settings, in their own group beside the figure: (other dims' indices, first row and
    column drawn)."""
    other_dims = [d for d in range(len(s.sizes)) if d not in view]
    with group("Drawn plane"):
        slice_text = ""
        if other_dims:
            slice_text = url_state.widget(st.text_input, f"Slice indices for dims {other_dims}", "sj_slice", "",
                                          help="Which index of each dimension outside the drawn plane; empty = all 0")
        window_row, window_col = st.columns(2)
        row0 = url_state.widget(window_row.number_input, "First row drawn", "sj_row0", 0, minimum=0,
                                maximum=max(s.sizes))
        col0 = url_state.widget(window_col.number_input, "First column drawn", "sj_col0", 0, minimum=0,
                                maximum=max(s.sizes))
        st.caption(plane_caption(s))
    return slice_indices(slice_text, other_dims), (int(row0), int(col0))


def plane_line(s, view, start, fixed):
    """What the drawn plane is, for the line over the figure."""
    row0, row1, col0, col1 = window_bounds(s.sizes, view, start)
    row_dim, col_dim = view
    rows_text = "one row (1-D tensor)" if row_dim is None else f"rows = dim {row_dim}, indices {row0} to {row1 - 1}"
    return [f"Drawn plane: {rows_text}; columns = dim {col_dim}, indices {col0} to {col1 - 1}",
            f"other dims fixed at: {fixed_text(fixed)}"]


def fixed_text(fixed):
    return ", ".join(f"dim {d} = {i}" for d, i in sorted(fixed.items())) or "none"


def plane_caption(s):
    return "At most 64 x 64 cells. The plane always contains Axis {}, so the cut shows. ".format(s.axis) + (
        "Colors = which input an element comes from; hover gives its index in that input and in the output. The "
        "inputs hold consecutive slabs of the sidebar's value pattern over the output, so each value spells where "
        "it lands. Play shows the output cut into its inputs and the inputs joined (JOIN)." if s.join else
        "Colors = which output an element goes to; hover gives its index in the input and in that output. Play "
        "peels the outputs off one by one (SPLIT) and then joins them back (JOIN).")


@fragment
def figure(s, drawn, steps_on, speed):
    """The drawn plane and the picked cell: a click reruns only this part of the page."""
    with admitted(s.spec.nbytes(s.sizes) * 3, "this tensor"):
        picture = work.split_picture(*drawn)
        remember_valid("split_join", drawn)
        if steps_on:
            explain.stepper("split_join", [("SPLIT", picture)], lambda title, step: split_formula(s, step.source),
                            "sj", speed)
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
                explain.formula_block("SPLIT: where the picked element goes", functools.partial(split_formula, s, pick))
            with columns[1]:
                explain.formula_block("JOIN: where it comes back", functools.partial(join_formula, s, pick))


def inputs_of(s):
    return [work.values(s.spec, s.sizes)]


def parts_of(s):
    return list(work.split_parts(*s.key))


def joined_of(s):
    return [work.joined(*s.key)]


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


class SplitJoinPage(OperatorPage):
    key, name, pick = "sj", "split_join", "sj_pick"
    title = "Split <-> Join: DML_SPLIT and DML_JOIN"
    introduction = "A tensor cut along Axis into pieces, and the pieces joined back. Click a cell to follow it."
    groups = ("Operator & sizes",)
    presets = PRESETS

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
        if c.operation == "join":
            return ["JOIN", f"{c.count} inputs, sizes {c.join_text.strip()} along Axis {c.axis}",
                    f"{settings.data_type} {braced(c.sizes_text)}"]
        outputs = f"sizes {c.split_text.strip()}" if c.split_text is not None else f"{c.parts} parts"
        return ["SPLIT, then JOIN", f"{settings.data_type} {braced(c.sizes_text)}", f"Axis {c.axis}", outputs]

    def configure(self, c, settings):
        """JOIN's output and inputs read as the SPLIT that undoes it."""
        sizes = parse_int_list(c.sizes_text, "Sizes")
        check_element_count(sizes, "Sizes")
        try:
            axis = check_axis(c.axis, len(sizes))
        except DescriptorError as exc:
            raise Refused(str(exc), axis_fixes(c.axis, len(sizes))) from None
        if c.operation == "join":
            join_sizes = parse_int_list(c.join_text, "Input sizes along Axis", max_count=None)
            if c.count != len(join_sizes):
                raise Refused(f"Number of inputs {c.count}: Input sizes along Axis {list(join_sizes)} name "
                              f"{len(join_sizes)}", count_fixes(c.count, join_sizes))
            sizes, output_sizes = (*sizes[:axis], sum(join_sizes), *sizes[axis + 1:]), join_sizes
        elif c.split_text is not None:
            output_sizes = parse_int_list(c.split_text, "Output sizes along Axis", max_count=None)
        elif sizes[axis] % c.parts:
            raise Refused(f"Parts K = {c.parts}: the input's size {sizes[axis]} along Axis {axis} is not divisible "
                          f"by {c.parts}", even_split_fixes(sizes[axis], c.parts, axis))
        else:
            output_sizes = [sizes[axis] // c.parts] * c.parts
        check_element_count(sizes, "Sizes")
        return Settings(settings.values, tuple(sizes), axis, tuple(output_sizes), c.operation == "join")

    def work_bytes(self, s):
        return s.spec.nbytes(s.sizes) * 3

    def work_seconds(self, s):
        # Each part costs its validation, export and cross-check: 65,536 parts took 32 s a view, 119 s checked.
        return work.view_seconds(self.work_bytes(s), parts=len(s.output_sizes))

    def work_name(self, s):
        return f"this view ({len(s.output_sizes):,} parts)"

    def compute(self, s):
        work.values(s.spec, s.sizes)
        try:
            work.split_parts(*s.key)
        except DescriptorError as exc:
            raise Refused(str(exc), split_fixes(s.sizes, s.axis, s.output_sizes), s) from None

    def quiz(self, s):
        return QuizSettings(s.split), functools.partial(reveal, s)

    def quiz_input(self, s, question):
        return ask(s, question)

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
        row0, row1, col0, col1 = window_bounds(s.sizes, view, start)
        whole = (row1 - row0) * (col1 - col0) == math.prod(s.sizes)
        drawn_part(self.row, plane_line(s, view, start, fixed), whole)
        figure(s, drawn, steps_on, speed)

    def below_figure(self, s):
        outputs = work.split_parts(*s.key)
        shapes = ", ".join(f"[{k}] {list(o.shape)}" for k, o in enumerate(outputs))
        if s.join:
            st.markdown(f"InputCount {len(outputs)}: {shapes} → OutputTensor {list(s.sizes)}.")
            return
        same = work.joined(*s.key).tobytes() == work.values(s.spec, s.sizes).tobytes()
        st.markdown(f"OutputCount {len(outputs)}: {shapes}. JOIN(SPLIT(x)) reproduces x bit for bit: **{same}**.")

    def draw_last_valid(self, drawn):
        charts.picture(work.split_picture(*drawn), "sj_last_valid", "Last valid view")

    def panels(self, s, refusal=None):
        """SPLIT's and JOIN's panels (JOIN's alone when it is set up from its inputs)."""
        data_type = s.spec.data_type
        join = Panels(Call("JOIN", data_type, s.pieces, (("axis", s.axis),)),
                      Arrays(("join", *s.key), functools.partial(parts_of, s), functools.partial(joined_of, s),
                             refusal),
                      "sj_join_panels", "JOIN")
        if s.join:
            return [join]
        split = Panels(Call("SPLIT", data_type, (s.sizes,), (("axis", s.axis), ("sizes", s.output_sizes))),
                       Arrays(("split", *s.key), functools.partial(inputs_of, s), functools.partial(parts_of, s),
                              refusal), "sj_split_panels", "SPLIT")
        return [split, join]

    def fix_settings(self, fix, c):
        """A core fix as this page's settings: the axis size goes into the Sizes text."""
        settings = {}
        for name, value in fix.changes:
            if name == "axis_size":
                sizes = parse_int_list(c.sizes_text, "Sizes")
                settings["sj_sizes"] = ",".join(str(s) for s in (*sizes[:c.axis], value, *sizes[c.axis + 1:]))
            else:
                settings[FIX_KEYS[name]] = ",".join(map(str, value)) if isinstance(value, tuple) else value
        return settings


render(SplitJoinPage())
