"""The descriptor workbench's results as it draws them: the validation report, the statuses and progress of a partly
modelled model, a run's printed output and dispatches, a desc's size arithmetic and overlap, the export; and the
callbacks that write its settings.

page.py reads the widgets and lays these out in its tabs. They hold the messages, tables and colors that turn a result
(reading.py, work.py) into what the page shows, so that the page stays the list of what is shown where.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from ops import DescriptorError
from ops.descriptors.dxdispatch import parse_model_text
from ops.descriptors.export import cpp_snippet
from ops.descriptors.partial import DIRECTML_ONLY, INVALID, NOT_MODELLED, UNKNOWN_KIND, VALID, PartialRun
from ops.guard import element_cap_set_to
from ops.tensor_desc import TensorDesc, find_overlap
from ui import charts, echo, handoff, say, url_state
from ui.output_budget import and_more, few
from ui.say import md
from viz.export import file_stem
from viz.memory_map_fig import MAX_CELLS
from viz.workbench_fig import command_strip

from .reading import (
    command_steps_partial,
    dispatchable_items,
    json_kind,
    size_arithmetic,
    skipped_rows,
    status_rows,
    validation_rows,
)
from .settings import ELEMENT_CAP, PRESETS, preset_texts
from .work import MAX_DRAWN_DISPATCHES, Check, DrawnDispatch, Heatmap, RunView, memory_map

# Each dispatchable reported is a table column, a line and an expander, validated at every feature level.
MAX_REPORTED_DISPATCHABLES = 24
# Problems listed one by one, at a level and per dispatchable; a JOIN of thousands of inputs can break a rule in each.
PROBLEMS_LISTED = 50
# Translucent, so the report reads on the light and the dark theme alike.
OK_COLOR = "rgba(33, 195, 84, 0.16)"
FAIL_COLOR = "rgba(255, 75, 75, 0.16)"
NOT_MODELLED_COLOR = "rgba(128, 128, 128, 0.16)"
STATUS_COLORS = {VALID: OK_COLOR, DIRECTML_ONLY: NOT_MODELLED_COLOR, INVALID: FAIL_COLOR,
                 NOT_MODELLED: NOT_MODELLED_COLOR, UNKNOWN_KIND: FAIL_COLOR}
SYNTAX_POSITION = re.compile(r"line (\d+), column (\d+)")


def edit_example(text: str) -> None:
    url_state.put_many({"wb_text": text, "wb_source": "Paste JSON"})


def receive_round_trip() -> str | None:
    """A model handed over from another page (ui.handoff) opens as pasted JSON. The notice to show about it, or None
    when none arrived."""
    model = st.session_state.pop(handoff.KEY, None)
    if model is None:
        return None
    try:
        text = json.dumps(model, indent=2)
    except (TypeError, ValueError) as error:
        return f"The model handed over is not JSON data: {error}"
    edit_example(text)
    return "Model received from the operator page, unchanged."


def apply_preset() -> None:
    name = st.session_state["wb_preset"]
    if name in PRESETS:
        url_state.put_many(preset_texts(name))


def parsed_model(label: str, text: str) -> dict[str, Any] | None:
    """The model text parsed as DxDispatch reads it, or None, having said why: it is empty, not JSON, or not an
    object."""
    if not text.strip():
        say.warning(md("{}: the model text is empty; paste a DxDispatch model (an object with resources, "
                       "dispatchables and commands) or pick an example.", label))
        return None
    try:
        raw = parse_model_text(text)
    except DescriptorError as error:
        show_syntax_error(label, text, str(error))
        return None
    if not isinstance(raw, dict):
        say.error(md("{} is refused: the root must be a JSON object with resources, dispatchables and commands, not "
                     "a JSON {}", label, json_kind(raw)))
        return None
    return raw


def show_syntax_error(label: str, text: str, message: str) -> None:
    say.error(md("{}: {}", label, message))
    position = SYNTAX_POSITION.search(message)
    if position and isinstance(text, str):
        line, column = int(position[1]), int(position[2])
        lines = text.splitlines() or [""]
        if line <= len(lines):
            st.code(f"{line:>5} | {lines[line - 1][:200]}\n      | {' ' * (column - 1)}^", language=None)


def show_loaded(label: str, model: dict[str, Any], notes: list[str]) -> None:
    """What a model that loads holds, and where DxDispatch reads its text differently (`notes`: ops.model_notes)."""
    say.success(md("{}: {} resources, {} dispatchables, {} commands, valid at feature level 6_4.", label,
                   len(model["resources"]), len(model["dispatchables"]), len(model["commands"])))
    listed, more = few(notes)
    for note in listed:
        say.info(md("DxDispatch reads this differently: {}", note))
    if more:
        say.info(md("DxDispatch reads {:,} more places of this model differently (fields it ignores, most likely); the "
                    "first are listed above.", more))


def show_validation(raw: dict[str, Any], level: str, refusal: DescriptorError | None = None) -> None:
    """Every dispatchable of `raw` against every feature level, then the problems at `level`; `refusal`: why the
    model is refused when it is (a binding, a buffer), which no dispatchable's rules say."""
    with element_cap_set_to(ELEMENT_CAP):
        rows, details = validation_rows(raw, MAX_REPORTED_DISPATCHABLES)
        if not details:
            st.info("The model has no dispatchables object to validate.")
            return
        count = len(dispatchable_items(raw))
        if count > MAX_REPORTED_DISPATCHABLES:
            say.info(md("The first {} of {:,} dispatchables are reported here; loading the model checks every one at "
                        "feature level 6_4.", MAX_REPORTED_DISPATCHABLES, count))
        st.markdown("Every dispatchable against every feature level: **ok**, or the broken rules with their JSON "
                    "paths.")
        columns = {name: st.column_config.TextColumn(name, width="large") for name in details}
        columns["feature level"] = st.column_config.TextColumn("feature level", width=90)
        table = pd.DataFrame(rows).style.map(
            lambda cell: f"background-color: {OK_COLOR if cell == 'ok' else FAIL_COLOR}", subset=list(details))
        st.dataframe(table, hide_index=True, column_config=columns, height=(len(rows) + 1) * 35 + 3,
                     key="wb_report_table")
        for name, by_level in details.items():
            valid = [lvl for lvl, problems in by_level.items() if not problems]
            say.markdown(md("{:code}: ", name) + (md("valid from feature level **{}**", valid[0]) if valid
                                                  else md("**valid at no feature level**")))
            failing = {lvl: problems for lvl, problems in by_level.items() if problems}
            if failing:
                with st.expander(md("Why {:code} fails at {}", name, ", ".join(failing))):
                    shown, more = few([(lvl, p) for lvl, problems in failing.items() for p in problems],
                                      PROBLEMS_LISTED)
                    say.markdown(say.join(md("\n"), [md("- **{}**: {:code}: {}", lvl, p.path, p.message)
                                                      for lvl, p in shown] + ([and_more(more, "problems")] if more
                                                                               else [])))
        say.markdown(md("##### Problems at feature level {} (sidebar)", level))
        problems = [p for by_level in details.values() for p in by_level[level]]
        if not problems and refusal is None:
            say.success(md("Every dispatchable is valid at feature level {}.", level))
        elif not problems:
            # The descriptors' rules hold, but the model is refused for what no descriptor rule covers: the page
            # never says "valid" above its refusal.
            say.warning(md("Every dispatchable's descriptor is valid at feature level {}, but the model is refused: "
                           "{}", level, refusal))
        listed, more = few(problems, PROBLEMS_LISTED)
        for problem in listed:
            say.markdown(md("- {:code}: {}", problem.path, problem.message))
        if more:
            say.markdown(and_more(more, "problems"))


def show_heatmap(heatmap: Heatmap) -> None:
    charts.show(heatmap.figure, heatmap.key, file_stem("tensor", heatmap.title), heatmap.title)


def show_tensors(inputs: Sequence[Heatmap], outputs: Sequence[tuple[Heatmap, Heatmap]]) -> None:
    """A dispatch's input heatmaps, up to four a row, then each output's before and after side by side."""
    for column, heatmap in zip(st.columns(min(len(inputs), 4) or 1), inputs):
        with column:
            show_heatmap(heatmap)
    for before, after in outputs:
        left, right = st.columns(2)
        with left:
            show_heatmap(before)
        with right:
            show_heatmap(after)


def show_dispatch(dispatch: DrawnDispatch, checking: bool) -> None:
    say.markdown(md("##### commands[{}]: dispatch {:code} (DML_OPERATOR_{})", dispatch.index, dispatch.dispatchable,
                    dispatch.operator))
    show_tensors(dispatch.inputs, dispatch.outputs)
    if checking:
        show_cross_check(dispatch.check)


def show_cross_check(check: Check) -> None:
    if isinstance(check, str):
        say.warning(md("Cross-check not run: {}", check))
        return
    available, matches, provider, note = check
    verdict = "matches" if matches else ("does not match" if available else "not run")
    (say.success if matches else say.warning)(md("Cross-check on {}: **{}**. {}", provider or "no provider", verdict,
                                                 note))


def show_dispatches(drawn: Iterable[DrawnDispatch], count: int, checking: bool) -> None:
    """The drawn dispatches (work.DrawnDispatch) of `count` that ran, cross-checked when `checking`."""
    for dispatch in drawn:
        show_dispatch(dispatch, checking)
    if count > MAX_DRAWN_DISPATCHES:
        say.info(md("{:,} more dispatches ran; the first {} are drawn (and cross-checked) here.",
                    count - MAX_DRAWN_DISPATCHES, MAX_DRAWN_DISPATCHES))


def show_printed(lines: Sequence[str], when_none: str) -> None:
    st.markdown("##### Printed output")
    st.code("\n".join(lines) or when_none, language=None, wrap_lines=True)


def show_run_prints(view: RunView) -> None:
    """A whole run's printed output (work.RunView), and as DxDispatch prints it where that differs."""
    show_printed(view.prints, "(the model has no print commands)")
    if view.dxdispatch_prints != view.prints:
        with st.expander("As DxDispatch prints it (UINT8 and INT8 values as characters)"):
            # std::ostream writes int8_t/uint8_t as characters; control characters are shown as their symbols.
            exact = "\n".join(view.dxdispatch_prints).translate({c: 0x2400 + c for c in range(32) if c != 10})
            st.code(exact, language=None, wrap_lines=True)


def partial_warning(label: str, run: PartialRun) -> None:
    missing = [part.name for part in run.inspection.parts if part.status in (NOT_MODELLED, DIRECTML_ONLY)]
    say.warning(md("{} has parts this project does not model ({}), so it is open in partial mode: the statuses of "
                   "every part, validation and memory maps of the modelled part, and the commands run in order up to "
                   "the first dispatch that cannot be run. `ops.run_model` refuses this model.",
                   label, say.join(", ", map(say.code, missing))))


def show_status(run: PartialRun) -> None:
    inspection = run.inspection
    st.markdown("Every resource and dispatchable: **modelled, valid** (the core computes it); **DirectML only**, a "
                "DirectML operator the core does not model, valid as far as DirectML's schema knows (its own rules "
                "are DirectML's to judge); **invalid** with the rules it breaks; **not modelled here**, with where "
                "DirectML or DxDispatch documents it; or **unknown kind**, a dispatchable type DxDispatch does not "
                "know either. The core computes nothing for a part it does not model.")
    rows = status_rows(inspection)
    table = pd.DataFrame(rows).style.map(lambda cell: f"background-color: {STATUS_COLORS[cell]}", subset=["status"])
    st.dataframe(table, hide_index=True, key="wb_status_table", height=min(len(rows) + 1, 20) * 35 + 3,
                 column_config={"why": st.column_config.TextColumn("why", width="large")})
    # The addresses are the project's own table of DirectML's documentation (ops.descriptors.partial), never the
    # model's: a link is drawn only to them.
    links = [md("- {:code}: [{}]", part.name, part.documentation) + say.Markdown(f"({part.url})")
             for part in inspection.dispatchables if part.url]
    if links:
        say.markdown(md("DirectML's documentation of the operators the core does not model:\n")
                     + say.join(md("\n"), links))
    if any(part.status in (INVALID, UNKNOWN_KIND) for part in inspection.dispatchables):
        # The partial run stops at the first dispatch it cannot run (show_partial_progress): it said it ran every
        # command that does not use an invalid dispatchable, later ones included.
        st.warning("DxDispatch creates every dispatchable before it runs any command, so on DirectML this model "
                   "stops at initialization until the invalid dispatchables are fixed; the Run (partial) tab still "
                   "runs the commands before the first dispatch of one.")


def show_partial_progress(raw: dict[str, Any], run: PartialRun) -> None:
    """How far a partial run went, its commands step by step, what it printed and why it skipped what it skipped."""
    ran, skipped = run.ran, run.skipped
    if run.refusal:
        say.error(md("Nothing could be run: {}", run.refusal))
    elif run.stopped_at is None:
        say.info(md("Ran {} of {} commands; the skipped ones change no buffer, so nothing after them was held back.",
                    len(ran), len(ran) + len(skipped)))
    else:
        say.info(md("Ran {} of {} commands, in order up to commands[{}], the first dispatch that cannot be run here; "
                    "every command after it is skipped, since what it would leave in the buffers is unknown here.",
                    len(ran), len(ran) + len(skipped), run.stopped_at))
    charts.show(command_strip(command_steps_partial(raw, run)), "wb_command_strip", "workbench_commands",
                "The model's commands, step by step")
    show_printed(run.prints, "(no print command ran)")
    if skipped:
        st.markdown("##### Skipped commands")
        st.dataframe(pd.DataFrame(skipped_rows(run)), hide_index=True, key="wb_skipped_table",
                     column_config={"why it was skipped": st.column_config.TextColumn(width="large")})


def show_desc(desc: TensorDesc, kind: str, role: str) -> None:
    """A desc's fields, its size worked out as DMLCalcBufferTensorSize does, and for an output whether it writes an
    element twice."""
    strides = desc.Strides
    lines, implied = size_arithmetic(desc.DataType, desc.Sizes, strides)
    say.markdown(md("**{}**, Sizes {}, Strides {}, used as **{}**", desc.DataType, list(desc.Sizes),
                    "packed" if strides is None else list(strides), kind.rstrip("s")))
    declared = desc.TotalTensorSizeInBytes
    lines.append(
        f"TotalTensorSizeInBytes = {declared}"
        + (" (the implied minimum)" if declared == implied else f" (declared; implied minimum {implied})")
    )
    st.code("\n".join(lines), language=None)
    if role == "output":
        show_overlap(desc)


def show_overlap(desc: TensorDesc) -> None:
    """An output desc that writes one element twice is refused by DirectML: say which indices collide."""
    try:
        with element_cap_set_to(ELEMENT_CAP):
            overlap = find_overlap(desc.Sizes, desc.Strides)
    except DescriptorError as error:
        say.warning(md("Overlap not checked: {}", error))
        return
    if overlap:
        element, a, b = overlap
        say.error(md("Overlap: logical indices {} and {} both write element {}; an output tensor must not overlap "
                     "itself.", list(a), list(b), element))


def show_memory_map(desc: TensorDesc, name: str, role: str, unit: str, columns: int) -> None:
    """The memory map of the desc called `name` (its JSON path, or the builder's), and how to read it."""
    strides, declared = desc.Strides, desc.TotalTensorSizeInBytes
    figure = memory_map(tuple(desc.Sizes), None if strides is None else tuple(strides), desc.element_size, declared,
                        role, unit, columns, f"{echo.figure_text(name)}: {declared:,} bytes")
    charts.show(figure, "wb_memory_map", file_stem("memory_map", name), f"Memory map of {name}")
    total_cells = -(-declared // (1 if unit == "byte" else desc.element_size))
    say.caption(md("Hover a cell for the logical indices that {} it. {:,} of {:,} cells drawn (at most {:,}). {}",
                   "write" if role == "output" else "read", min(total_cells, MAX_CELLS), total_cells, MAX_CELLS,
                   figure.context.reading))


def show_export(model: dict[str, Any], label: str) -> None:
    text = json.dumps(model, indent=2)
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", label.rsplit("/", 1)[-1].removesuffix(".json")) or "model"
    st.download_button("Download the normalized model (JSON)", text, file_name=f"{stem}.normalized.json",
                       mime="application/json", key="wb_download_json")
    snippet = "\n".join(f"// dispatchable {json.dumps(name)}\n{cpp_snippet(dispatchable)}"
                        for name, dispatchable in model["dispatchables"].items())
    st.download_button("Download the C++ snippet", snippet, file_name=f"{stem}.cpp", mime="text/x-c++src",
                       key="wb_download_cpp")
    st.markdown("##### C++ building the same descriptors")
    st.code(snippet, language="cpp")
    with st.expander("Normalized model (every default filled)"):
        st.code(text, language="json")
