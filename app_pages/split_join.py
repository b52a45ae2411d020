"""Split <-> Join page: DML_SPLIT cuts a tensor along Axis, DML_JOIN glues the pieces back (or JOIN alone, set up
from its own inputs)."""

import dataclasses
import functools

import streamlit as st

from ops import DescriptorError, QuizSettings, index_formula
from ops.descriptors.fixes import NONE, axis_fixes, count_fixes, even_split_fixes, split_fixes
from ops.guard import check_element_count
from ops.operators.split_join import check_axis
from ui import charts, explain, url_state, work
from ui.errors import last_valid_figure, offer_fixes, remember_valid
from ui.panels import Call, operator_panels, show_busy, show_error
from ui.picks import clear_pick, preset_buttons, remember_pick
from ui.shared import Busy, admitted, fragment
from ui.sidebar import current_settings
from ui.toolbar import braced, intro, summary, toolbar
from ui.values import parse_int_list
from viz.export import file_stem
from viz.split_join_fig import WINDOW, default_view, describe_pick, pick_from_selection, window_bounds

PICK = "sj_pick"
CHART = "sj_figure"
OPERATIONS = {"split": "SPLIT, then JOIN back", "join": "JOIN from its own inputs"}
MODES = {"sizes": "per-output sizes", "even": "even split into K parts"}
DEFAULTS = dict(sj_op="split", sj_sizes="1,1,6,2", sj_axis=2, sj_mode="sizes", sj_split="2,1,3", sj_parts=2,
                sj_inputs=3, sj_join="2,1,3", sj_slice="", sj_row0=0, sj_col0=0)
PARTS_MAX = 1 << 16

# The seed's examples: FLOAT32 {1,1,6,2} holding 1..12.
SEED_INPUT = dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0, sj_sizes="1,1,6,2", sj_slice="",
                  sj_row0=0, sj_col0=0)
PRESETS = {
    "Seed: Axis 2 into {1,1,2,2}, {1,1,1,2}, {1,1,3,2}": dict(SEED_INPUT, sj_axis=2, sj_mode="sizes",
                                                            sj_split="2,1,3"),
    "Seed: Axis 3 into two {1,1,6,1}": dict(SEED_INPUT, sj_axis=3, sj_mode="even", sj_parts=2),
    "JOIN {1,1,2,2}, {1,1,1,2}, {1,1,3,2} along Axis 2": dict(SEED_INPUT, sj_op="join", sj_axis=2, sj_inputs=3,
                                                            sj_join="2,1,3"),
}
PRESETS = {name: dict({"sj_op": "split"}, **values) for name, values in PRESETS.items()}


class Refused(DescriptorError):
    """Settings the core refuses, with the nearest valid ones (ops.descriptors.fixes) and what can still be
    described: the input sizes and axis, for the panels' Validation tab."""

    def __init__(self, message, fixes=NONE, configuration=None):
        super().__init__(message)
        self.fixes = fixes
        self.configuration = configuration


@dataclasses.dataclass(frozen=True)
class Controls:
    operation: str
    sizes_text: str
    axis: int
    split_text: str | None = None
    parts: int | None = None
    count: int | None = None
    join_text: str | None = None


def show_pick(x, axis, output_sizes, drawn_pick, join):
    """The picked cell's caption; a pick that no longer fits the tensor is not shown."""
    pick = url_state.value(PICK, None)
    described = describe_pick(x, axis, output_sizes, pick, join)
    if described is None:
        if pick is not None:
            url_state.put(PICK, None)  # picked under other settings: it no longer means anything
        st.caption("Click a cell of the output or of an input to highlight where it comes from or goes." if join
                   else "Click a cell of the input or of an output to highlight where it goes or comes from.")
        return
    left, right = st.columns([5, 1], vertical_alignment="center")
    left.caption(f"Picked: {described}" + ("" if drawn_pick is not None else " (outside the drawn plane)"))
    right.button("Clear highlight", key="sj_clear_pick", on_click=clear_pick, args=(PICK,))


def even_sizes(total, parts, axis, configuration):
    if total % parts:
        raise Refused(f"Parts K = {parts}: the input's size {total} along Axis {axis} is not divisible by {parts}",
                      even_split_fixes(total, parts, axis), configuration)
    return [total // parts] * parts


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
        raise DescriptorError(
            f"Slice indices {list(values)}: need {len(other_dims)} (one each for dims {other_dims})"
        )
    return dict(zip(other_dims, values))


def controls(box):
    """The settings, drawn in the toolbar's popover `box`."""
    with box:
        st.caption(
            "SPLIT cuts InputTensor along Axis into OutputCount tensors whose sizes along Axis sum to the input's; "
            "every other size stays. JOIN is the inverse (ONNX Concat): set it up from its own inputs, or see it "
            "undo a SPLIT. Each output is a plain copy of its slab. DataType, feature level and values are in the "
            "sidebar."
        )
        operation = url_state.widget(st.radio, "Operator", "sj_op", DEFAULTS["sj_op"], options=list(OPERATIONS),
                                     format_func=OPERATIONS.get, horizontal=True)
        joining = operation == "join"
        sizes = url_state.widget(st.text_input, "Sizes", "sj_sizes", DEFAULTS["sj_sizes"],
                                 help="Every input's sizes; the entry at Axis is each input's own (below)" if joining
                                 else "InputTensor sizes: 1 to 8 whole numbers separated by commas")
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
            split_text = url_state.widget(st.text_input, "Output sizes along Axis", "sj_split", DEFAULTS["sj_split"],
                                          help="One size per output; they must add up to the input's size along "
                                               "Axis")
            parts = None
        else:
            parts = url_state.widget(st.number_input, "Parts K", "sj_parts", DEFAULTS["sj_parts"], minimum=1,
                                     maximum=PARTS_MAX)
            split_text = None
    return Controls(operation, sizes, int(axis), split_text=split_text, parts=parts)


def settings_line(controls, data_type):
    """The settings as one readable line: SPLIT · FLOAT32 {1,1,6,2} · Axis 2 · sizes 2,1,3."""
    if controls.operation == "join":
        return ["JOIN", f"{controls.count} inputs, sizes {controls.join_text.strip()} along Axis {controls.axis}",
                f"{data_type} {braced(controls.sizes_text)}"]
    outputs = f"sizes {controls.split_text.strip()}" if controls.split_text is not None else f"{controls.parts} parts"
    return ["SPLIT, then JOIN", f"{data_type} {braced(controls.sizes_text)}", f"Axis {controls.axis}", outputs]


def configuration(controls):
    """(sizes, axis, output sizes) the settings describe, JOIN's output and inputs read as the SPLIT that undoes
    it; Refused (a DescriptorError naming the field, with fixes) otherwise."""
    sizes = parse_int_list(controls.sizes_text, "Sizes")
    check_element_count(sizes, "Sizes")
    axis = controls.axis
    try:
        axis = check_axis(axis, len(sizes))
    except DescriptorError as exc:
        raise Refused(str(exc), axis_fixes(axis, len(sizes))) from None
    if controls.operation == "join":
        join_sizes = parse_int_list(controls.join_text, "Input sizes along Axis", max_count=None)
        if controls.count != len(join_sizes):
            raise Refused(f"Number of inputs {controls.count}: Input sizes along Axis {list(join_sizes)} name "
                          f"{len(join_sizes)}", count_fixes(controls.count, join_sizes))
        sizes = (*sizes[:axis], sum(join_sizes), *sizes[axis + 1:])
        output_sizes = join_sizes
    elif controls.split_text is not None:
        output_sizes = parse_int_list(controls.split_text, "Output sizes along Axis", max_count=None)
    else:
        output_sizes = even_sizes(sizes[axis], int(controls.parts), axis, (tuple(sizes), axis, None))
    check_element_count(sizes, "Sizes")
    return tuple(sizes), axis, tuple(output_sizes)


def fix_settings(fix, sizes, axis):
    """A core fix as this page's settings (URL keys and the texts of its inputs)."""
    text = ",".join
    settings = {}
    for name, value in fix.changes:
        if name == "axis_size":
            settings["sj_sizes"] = text(str(s) for s in (*sizes[:axis], value, *sizes[axis + 1:]))
        else:
            key = {"output_sizes": "sj_split", "sizes": "sj_sizes", "parts": "sj_parts", "axis": "sj_axis",
                   "count": "sj_inputs", "join_sizes": "sj_join"}[name]
            settings[key] = text(map(str, value)) if isinstance(value, tuple) else value
    return settings


def part_shapes(sizes, axis, output_sizes):
    return [sizes[:axis] + (s,) + sizes[axis + 1:] for s in output_sizes]


def split_formula(sizes, axis, output_sizes, cell):
    return index_formula("SPLIT", None, None, [sizes, *part_shapes(sizes, axis, output_sizes)], cell, axis=axis)


def join_formula(sizes, axis, output_sizes, cell):
    """JOIN's formula for the same element, read from the output of SPLIT it sits in."""
    destination = split_formula(sizes, axis, output_sizes, cell).destination
    return index_formula("JOIN", None, None, part_shapes(sizes, axis, output_sizes), destination, axis=axis)


def step_formula(sizes, axis, output_sizes, title, step):
    return split_formula(sizes, axis, output_sizes, step.source)


def reveal(spec, sizes, axis, output_sizes, question):
    """The question's element outlined in the input and in its output, in the plane and window that hold it."""
    index = question.source
    view = default_view(len(sizes), axis)
    fixed = tuple((d, int(index[d])) for d in range(len(sizes)) if d not in view)
    row_dim, col_dim = view
    start = (0 if row_dim is None else index[row_dim] // WINDOW * WINDOW, index[col_dim] // WINDOW * WINDOW)
    picture = work.split_picture(spec, sizes, axis, output_sizes, view, fixed, start)
    return work.picked("split_join", picture, tuple(int(i) for i in index))


@fragment
def figure(spec, sizes, axis, output_sizes, join, steps_on, speed):
    """The drawn plane and the picked cell: changing either reruns only this part of the page."""
    with admitted(spec.nbytes(sizes) * 3, "this tensor"):
        x = work.values(spec, sizes)
        view = default_view(len(sizes), axis)
        other_dims = [d for d in range(len(sizes)) if d not in view]
        row, (plane_box,) = toolbar("Drawn plane")
        with plane_box:
            slice_text = ""
            if other_dims:
                slice_text = url_state.widget(st.text_input, f"Slice indices for dims {other_dims}", "sj_slice", "",
                                              help="Which index of each dimension outside the drawn plane; "
                                                   "empty = all 0")
            window_row, window_col = st.columns(2)
            row0 = url_state.widget(window_row.number_input, "First row drawn", "sj_row0", 0, minimum=0,
                                    maximum=max(sizes))
            col0 = url_state.widget(window_col.number_input, "First column drawn", "sj_col0", 0, minimum=0,
                                    maximum=max(sizes))
        pick = url_state.value(PICK, None)
        try:
            fixed = tuple(sorted(slice_indices(slice_text, other_dims).items()))
            start = (int(row0), int(col0))
            drawn = (spec, sizes, axis, output_sizes, view, fixed, start, join)
            picture = work.picked("split_join", work.split_picture(*drawn), pick)
        except DescriptorError as exc:
            show_error(exc)
            return
        row0, row1, col0, col1 = window_bounds(sizes, view, start)
        row_dim, col_dim = view
        rows_text = "one row (1-D tensor)" if row_dim is None else f"rows = dim {row_dim}, indices {row0} to {row1 - 1}"
        meta = picture.to_dict()["layout"]["meta"]
        fixed_text = ", ".join(f"dim {d} = {i}" for d, i in meta["fixed"]) or "none"
        plane_box.caption(
            f"At most 64 x 64 cells. The plane always contains Axis {axis}, so the cut shows. " + (
                "Colors = which input an element comes from; hover gives its index in that input and in the "
                "output. The inputs hold consecutive slabs of the sidebar's value pattern over the output, so each "
                "value spells where it lands. Play shows the output cut into its inputs and the inputs joined (JOIN)."
            ) if join else (
                "Colors = which output an element goes to; hover gives its index in the input and in that output. "
                "Play peels the outputs off one by one (SPLIT) and then joins them back (JOIN)."
            )
        )
        summary(row, [f"Drawn plane: {rows_text}; columns = dim {col_dim}, indices {col0} to {col1 - 1}",
                      f"other dims fixed at: {fixed_text}"])
        remember_valid("split_join", drawn)
        if steps_on:
            explain.stepper("split_join", [("SPLIT", picture)],
                            functools.partial(step_formula, sizes, axis, output_sizes), "sj", speed)
            return
        show_pick(x, axis, list(output_sizes), meta["pick"], join)
        charts.show(explain.with_speed(picture, speed), CHART,
                    file_stem("JOIN" if join else "SPLIT", spec.data_type, *sizes, f"axis{axis}"),
                    f"{'JOIN' if join else 'SPLIT'}, {spec.data_type} {list(sizes)}, Axis {axis}, "
                    f"parts {list(output_sizes)}",
                    on_select=functools.partial(remember_pick, PICK, CHART, pick_from_selection))
        if meta["pick"] is not None:
            columns = st.columns(2)
            with columns[0]:
                explain.formula_block("SPLIT: where the picked element goes",
                                      functools.partial(split_formula, sizes, axis, output_sizes, pick))
            with columns[1]:
                explain.formula_block("JOIN: where it comes back",
                                      functools.partial(join_formula, sizes, axis, output_sizes, pick))


def draw_last_valid(drawn):
    charts.picture(work.split_picture(*drawn), "sj_last_valid", "Last valid view")


def inputs_of(spec, sizes):
    return [work.values(spec, sizes)]


def parts_of(spec, sizes, axis, output_sizes):
    return list(work.split_parts(spec, sizes, axis, output_sizes))


def joined_of(spec, sizes, axis, output_sizes):
    return [work.joined(spec, sizes, axis, output_sizes)]


def panels(settings, spec, sizes, axis, output_sizes, operation, refusal=None):
    """SPLIT's and JOIN's panels (JOIN's alone when it is set up from its inputs); refused settings still get
    their Validation tab."""
    configuration_key = (spec, sizes, axis, output_sizes)
    pieces = tuple((*sizes[:axis], s, *sizes[axis + 1:]) for s in output_sizes)
    if operation == "split":
        st.subheader("SPLIT")
        operator_panels(Call("SPLIT", (sizes,), (("axis", axis), ("sizes", output_sizes)),
                             ("split", *configuration_key), functools.partial(inputs_of, spec, sizes),
                             functools.partial(parts_of, *configuration_key), refusal),
                        settings, key="sj_split_panels")
    st.subheader("JOIN")
    operator_panels(Call("JOIN", pieces, (("axis", axis),), ("join", *configuration_key),
                         functools.partial(parts_of, *configuration_key),
                         functools.partial(joined_of, *configuration_key), refusal),
                    settings, key="sj_join_panels")


def refused(exc, settings, spec, controls):
    """The refusal with its nearest fixes beside the last valid figure (greyed), then the panels that can
    still describe the settings."""
    try:
        sizes = parse_int_list(controls.sizes_text, "Sizes")
    except DescriptorError:
        sizes = None
    left, right = st.columns([2, 3])
    with left:
        offer_fixes(str(exc), exc.fixes if isinstance(exc, Refused) else NONE, "sj",
                    lambda fix: fix_settings(fix, sizes, controls.axis), PICK)
    with right:
        last_valid_figure("split_join", draw_last_valid)
    described = exc.configuration if isinstance(exc, Refused) else None
    if described is not None and described[2] is not None:
        panels(settings, spec, *described, controls.operation, refusal=str(exc))


def page():
    settings = current_settings()
    st.title("Split <-> Join: DML_SPLIT and DML_JOIN")
    intro("A tensor cut along Axis into pieces, and the pieces joined back. Click a cell to follow it.")
    row, (operator_box, preset_box, play_box) = toolbar("Operator & sizes", "Presets", "Play & explain")
    with preset_box:
        preset_buttons(PRESETS.items(), "sj_preset", PICK)
    spec = settings.values
    controls_now = controls(operator_box)
    with play_box:
        quiz_on, steps_on, speed = explain.mode_bar("sj")
    summary(row, settings_line(controls_now, settings.data_type))
    joining = controls_now.operation == "join"
    try:
        sizes, axis, output_sizes = configuration(controls_now)
        # Each part costs its validation, export and cross-check: 65,536 parts took 32 s a view, 119 s checked.
        with admitted(spec.nbytes(sizes) * 3, f"this view ({len(output_sizes):,} parts)",
                      seconds=work.view_seconds(spec.nbytes(sizes) * 3, parts=len(output_sizes))):
            x = work.values(spec, sizes)
            try:
                outputs = work.split_parts(spec, sizes, axis, output_sizes)
            except DescriptorError as exc:
                raise Refused(str(exc), split_fixes(sizes, axis, output_sizes), (sizes, axis, output_sizes)) from None
            same = work.joined(spec, sizes, axis, output_sizes).tobytes() == x.tobytes()
            if quiz_on:
                explain.quiz(QuizSettings("SPLIT", sizes, axis=axis, part_sizes=output_sizes), "sj",
                             functools.partial(reveal, spec, sizes, axis, output_sizes))
                return
            figure(spec, sizes, axis, output_sizes, joining, steps_on, speed)
            shapes = ", ".join(f"[{k}] {list(o.shape)}" for k, o in enumerate(outputs))
            st.markdown(
                f"InputCount {len(outputs)}: {shapes} → OutputTensor {list(x.shape)}." if joining else
                f"OutputCount {len(outputs)}: {shapes}. JOIN(SPLIT(x)) reproduces x bit for bit: **{same}**."
            )
            panels(settings, spec, sizes, axis, output_sizes, controls_now.operation)
    except DescriptorError as exc:
        refused(exc, settings, spec, controls_now)
    except Busy as busy:
        show_busy(busy)


page()
