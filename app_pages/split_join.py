"""Split <-> Join page: DML_SPLIT cuts a tensor along Axis, DML_JOIN glues the pieces back."""

import functools
import math

import streamlit as st

from ops import DescriptorError, QuizSettings, index_formula
from ops.guard import check_element_count
from ops.operators.split_join import check_axis
from ui import charts, explain, url_state, work
from ui.panels import Call, operator_panels, show_error
from ui.picks import apply_preset, clear_pick, remember_pick
from ui.shared import Busy, admitted, fragment
from ui.sidebar import current_settings
from ui.values import parse_int_list
from viz.export import file_stem
from viz.split_join_fig import WINDOW, default_view, describe_pick, pick_from_selection, window_bounds

PICK = "sj_pick"
CHART = "sj_figure"
MODES = {"sizes": "per-output sizes", "even": "even split into K parts"}
DEFAULTS = dict(sj_sizes="1,1,6,2", sj_axis=2, sj_mode="sizes", sj_split="2,1,3", sj_parts=2, sj_slice="",
                sj_row0=0, sj_col0=0)
PARTS_MAX = 1 << 16

# The seed's examples: FLOAT32 {1,1,6,2} holding 1..12.
SEED_INPUT = dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0, sj_sizes="1,1,6,2", sj_slice="",
                  sj_row0=0, sj_col0=0)
PRESETS = {
    "Seed: Axis 2 into {1,1,2,2}, {1,1,1,2}, {1,1,3,2}": dict(SEED_INPUT, sj_axis=2, sj_mode="sizes",
                                                            sj_split="2,1,3"),
    "Seed: Axis 3 into two {1,1,6,1}": dict(SEED_INPUT, sj_axis=3, sj_mode="even", sj_parts=2),
}


def show_pick(x, axis, output_sizes, drawn_pick):
    """The picked cell's caption; a pick that no longer fits the tensor is not shown."""
    pick = url_state.value(PICK, None)
    described = describe_pick(x, axis, output_sizes, pick)
    if described is None:
        if pick is not None:
            url_state.put(PICK, None)  # picked under other settings: it no longer means anything
        st.caption("Click a cell of the input or of an output to highlight where it goes or comes from.")
        return
    left, right = st.columns([5, 1], vertical_alignment="center")
    left.caption(f"Picked: {described}" + ("" if drawn_pick is not None else " (outside the drawn plane)"))
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


def controls():
    left, right = st.columns(2)
    with left:
        sizes = url_state.widget(st.text_input, "Sizes", "sj_sizes", DEFAULTS["sj_sizes"],
                                 help="InputTensor sizes: 1 to 8 whole numbers separated by commas")
        # Not bounded here: an axis out of range gets check_axis's message, which names the rule.
        axis = url_state.widget(st.number_input, "Axis", "sj_axis", DEFAULTS["sj_axis"], step=1,
                                help="The dimension that is cut (0 = outermost)")
    with right:
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
    return sizes, int(axis), split_text, parts


def configuration(sizes_text, axis, split_text, parts):
    """(sizes, axis, output sizes) the settings describe; DescriptorError naming the field otherwise."""
    sizes = parse_int_list(sizes_text, "Sizes")
    check_element_count(sizes, "Sizes")
    axis = check_axis(axis, len(sizes))
    if split_text is not None:
        output_sizes = parse_int_list(split_text, "Output sizes along Axis", max_count=None)
    else:
        output_sizes = even_sizes(sizes[axis], int(parts), axis)
    return tuple(sizes), axis, tuple(output_sizes)


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
def figure(spec, sizes, axis, output_sizes, steps_on, speed):
    """The drawn plane and the picked cell: changing either reruns only this part of the page."""
    with admitted(spec.nbytes(sizes) * 3, "this tensor"):
        x = work.values(spec, sizes)
        view = default_view(len(sizes), axis)
        other_dims = [d for d in range(len(sizes)) if d not in view]
        with st.expander("What is drawn", expanded=len(sizes) > 2 or math.prod(sizes) > 4096):
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
            picture = work.picked("split_join", work.split_picture(spec, sizes, axis, output_sizes, view, fixed, start),
                                  pick)
        except DescriptorError as exc:
            show_error(exc)
            return
        row0, row1, col0, col1 = window_bounds(sizes, view, start)
        row_dim, col_dim = view
        rows_text = "one row (1-D tensor)" if row_dim is None else f"rows = dim {row_dim}, indices {row0} to {row1 - 1}"
        meta = picture.to_dict()["layout"]["meta"]
        fixed_text = ", ".join(f"dim {d} = {i}" for d, i in meta["fixed"]) or "none"
        st.caption(
            f"Drawn plane: {rows_text}; columns = dim {col_dim}, indices {col0} to {col1 - 1} (at most 64 x 64 "
            f"cells). Other dims fixed at: {fixed_text}. The plane always contains Axis {axis}, so the cut shows. "
            "Colors = which output an element goes to; hover gives its index in the input and in that output. Play "
            "peels the outputs off one by one (SPLIT) and then joins them back (JOIN)."
        )
        if steps_on:
            explain.stepper("split_join", [("SPLIT", picture)],
                            functools.partial(step_formula, sizes, axis, output_sizes), "sj", speed)
            return
        show_pick(x, axis, list(output_sizes), meta["pick"])
        charts.show(explain.with_speed(picture, speed), CHART,
                    file_stem("SPLIT", spec.data_type, *sizes, f"axis{axis}"),
                    f"SPLIT / JOIN, {spec.data_type} {list(sizes)}, Axis {axis}, outputs {list(output_sizes)}",
                    selection_mode="points",
                    on_select=functools.partial(remember_pick, PICK, CHART, pick_from_selection))
        if meta["pick"] is not None:
            columns = st.columns(2)
            with columns[0]:
                explain.formula_block("SPLIT: where the picked element goes",
                                      functools.partial(split_formula, sizes, axis, output_sizes, pick))
            with columns[1]:
                explain.formula_block("JOIN: where it comes back",
                                      functools.partial(join_formula, sizes, axis, output_sizes, pick))


def inputs_of(spec, sizes):
    return [work.values(spec, sizes)]


def parts_of(spec, sizes, axis, output_sizes):
    return list(work.split_parts(spec, sizes, axis, output_sizes))


def joined_of(spec, sizes, axis, output_sizes):
    return [work.joined(spec, sizes, axis, output_sizes)]


def page():
    settings = current_settings()
    st.title("Split <-> Join: DML_SPLIT and DML_JOIN")
    st.caption(
        "SPLIT cuts InputTensor along Axis into OutputCount tensors whose sizes along Axis sum to the input's; "
        "every other size stays. JOIN is the inverse (ONNX Concat). Each output is a plain copy of its slab. "
        "DataType, feature level and values are in the sidebar."
    )
    # A wrapping row of buttons as wide as their labels: equal columns cut the labels short in narrow windows.
    presets = st.container(horizontal=True, wrap=True)
    for number, name in enumerate(PRESETS):
        presets.button(name, key=f"sj_preset_{number}", on_click=apply_preset, args=(PRESETS[name], PICK),
                       width="content")
    spec = settings.values
    try:
        sizes, axis, output_sizes = configuration(*controls())
        with admitted(spec.nbytes(sizes) * 3, "this tensor"):
            x = work.values(spec, sizes)
            outputs = work.split_parts(spec, sizes, axis, output_sizes)
            same = work.joined(spec, sizes, axis, output_sizes).tobytes() == x.tobytes()
            quiz_on, steps_on, speed = explain.mode_bar("sj")
            if quiz_on:
                explain.quiz(QuizSettings("SPLIT", sizes, axis=axis, part_sizes=output_sizes), "sj",
                             functools.partial(reveal, spec, sizes, axis, output_sizes))
                return
            figure(spec, sizes, axis, output_sizes, steps_on, speed)
            st.markdown(
                f"OutputCount {len(outputs)}: " + ", ".join(f"[{k}] {list(o.shape)}" for k, o in enumerate(outputs))
                + f". JOIN(SPLIT(x)) reproduces x bit for bit: **{same}**."
            )
            configuration_key = (spec, sizes, axis, output_sizes)
            st.subheader("SPLIT")
            operator_panels(Call("SPLIT", (sizes,), (("axis", axis), ("sizes", output_sizes)),
                                 ("split", *configuration_key), functools.partial(inputs_of, spec, sizes),
                                 functools.partial(parts_of, *configuration_key)),
                            settings, key="sj_split_panels")
            st.subheader("JOIN")
            operator_panels(Call("JOIN", tuple(o.shape for o in outputs), (("axis", axis),),
                                 ("join", *configuration_key), functools.partial(parts_of, *configuration_key),
                                 functools.partial(joined_of, *configuration_key)),
                            settings, key="sj_join_panels")
    except DescriptorError as exc:
        show_error(exc)
    except Busy as busy:
        st.warning(str(busy), icon=":material/hourglass_top:")


page()
