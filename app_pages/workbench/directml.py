"""The workbench as DxDispatch for Linux: a model of any DirectML operator run on DirectML itself, who answers each
dispatch, every tensor drawn, and each dispatch's output against its ONNX twin in ULPs.

A model the core does not model whole (a GEMM, a convolution, an RNN ...) runs with
`ops.run_model(model, runtime="directml")` in DirectML's worker process (ops/runtime/directml): the page never loads
DirectML itself, so a crash there never takes the page down. Before any work the model is held to the workbench's
element cap and admitted to the work budget (its bytes counted from its descs), and on_directml checks every
dispatchable's feature level and costs its work (sizes, kernels, fills, recurrences) against DirectML's budgets. A
run is kept as what the page shows of it, once for the whole server per model text (work.py's reasons).
The Operator catalogue's one-click run is the workbench's run of the operator's example: it draws it from here too
(run_text, show_run).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from ops import DescriptorError, directml_status, inspect_model, load_model
from ops.descriptors.dxdispatch import DispatchRecord, model_run_bytes, run_model_detailed
from ops.descriptors.on_directml import runtime_desc
from ops.descriptors.partial import DIRECTML_ONLY, REFUSED, VALID, ModelInspection
from ops.descriptors.validate import read_dispatchable
from ops.guard import element_cap_set_to
from ops.runtime import onnx_twins
from ui import say, url_state
from ui.say import md
from ui.shared import CACHE, Busy, admitted, digest

from .settings import ELEMENT_CAP
from .view import show_printed, show_tensors
from .work import MAX_DRAWN_DISPATCHES, DispatchTensors, tensor_heatmaps

# A model may hold thousands of dispatches: the table lists this many.
MAX_ANSWER_ROWS = 100
RUNTIMES = {"directml": "DirectML itself (DxDispatch for Linux)", "core": "the core, as far as it models the model"}


@dataclasses.dataclass(frozen=True)
class TwinCheck:
    """One dispatch's outputs against its ONNX twin: the comparison, or why there is none."""

    comparison: onnx_twins.Comparison | None
    no_twin: str = ""


@dataclasses.dataclass(frozen=True)
class DirectMLDispatch(DispatchTensors):
    """A dispatch DirectML ran, drawn, and its twin's comparison."""

    twin: TwinCheck


@dataclasses.dataclass(frozen=True)
class DirectMLRun:
    prints: tuple[str, ...]
    drawn: tuple[DirectMLDispatch, ...]
    dispatches: int  # how many dispatches ran


def runs_on_directml(model: dict[str, Any]) -> bool:
    """Whether the page runs `model` (loaded, with dispatches the core does not model) on DirectML: the visitor's
    choice (wb_runtime, in the link), when DirectML runs here; else it says why not and the core runs what it
    models."""
    runtime = url_state.widget(st.radio, "Run on", "wb_runtime", "directml", options=list(RUNTIMES),
                               format_func=RUNTIMES.get, horizontal=True,
                               help="The core computes only the operators it models; DirectML computes any operator "
                                    "this DirectML build supports, in its own worker process")
    if runtime != "directml":
        return False
    status = directml_status()
    if not status.available:
        say.info(md("DirectML cannot run here ({}), so the core runs what it models of this model.", status.reason))
        return False
    return True


def show_refusal(label: str, refusal: DescriptorError | None, inspection: ModelInspection) -> None:
    """Say why a model of DirectML operators alone (inspection: ops.inspect_model's) is refused before any work
    (the run's memory, the element cap), which the partial mode it opens in would not say."""
    if refusal is not None and all(part.status in (VALID, DIRECTML_ONLY) for part in inspection.parts):
        say.error(md("{} is refused before any work, on DirectML as on the core: {}", label, refusal))


def answers(key: str, raw: dict[str, Any]) -> list[dict[str, str]]:
    """One row per dispatch command: who answers it (ops.inspect_model(...).answers()), and why anything is left
    out; kept per model text, since inspecting checks every dispatchable."""
    def rows():
        return [{"command": f"commands[{a.index}]", "dispatchable": a.dispatchable, "answered by": a.answer,
                 "why": a.reason} for a in inspect_model(raw).answers()]

    with element_cap_set_to(ELEMENT_CAP):
        return CACHE.get(("wb_answers", key), rows)


def show_answers(key: str, raw: dict[str, Any]) -> None:
    try:
        rows = answers(key, raw)
    except DescriptorError as error:
        say.warning(md("Who answers each dispatch is not known: {}", error))
        return
    if not rows:
        return
    st.markdown("##### Who answers each dispatch")
    st.dataframe(pd.DataFrame(rows[:MAX_ANSWER_ROWS]), hide_index=True, key="wb_answers_table",
                 column_config={"why": st.column_config.TextColumn("why", width="large")})
    if len(rows) > MAX_ANSWER_ROWS:
        say.caption(md("The first {} of {:,} dispatches are listed.", MAX_ANSWER_ROWS, len(rows)))
    if any(row["answered by"] == REFUSED for row in rows):
        st.warning("A refused dispatch stops the run there: the reasons are in the table.")


def _twin(record: DispatchRecord, dispatchable: dict[str, Any]) -> TwinCheck:
    read, problems = read_dispatchable(dispatchable, strict=True, notes=[])
    if read is None:
        return TwinCheck(None, str(problems[0]) if problems else "the dispatchable cannot be read")
    try:
        return TwinCheck(onnx_twins.compare(runtime_desc(read.desc), record.inputs, record.outputs))
    except DescriptorError as error:  # NoTwin among them
        return TwinCheck(None, str(error))


def run(key: str, model: dict[str, Any]) -> DirectMLRun:
    """The DirectMLRun of the loaded model whose text has digest `key`, its first MAX_DRAWN_DISPATCHES dispatches
    drawn and compared with their twins; DescriptorError when DirectML refuses it (the stage and HRESULT) or it
    cannot run, Busy when the work budget cannot hold it."""
    def view() -> DirectMLRun:
        result = run_model_detailed(model, runtime="directml")
        shown = []
        for record in result.dispatches[:MAX_DRAWN_DISPATCHES]:
            dispatchable = model["dispatchables"][record.dispatchable]
            inputs, outputs = tensor_heatmaps(record, model["commands"][record.command_index], dispatchable)
            shown.append(DirectMLDispatch(record.command_index, record.dispatchable, record.operator, inputs, outputs,
                                          _twin(record, dispatchable)))
        return DirectMLRun(tuple(result.prints), tuple(shown), len(result.dispatches))

    with element_cap_set_to(ELEMENT_CAP):
        with admitted(model_run_bytes(model), "this model's run on DirectML"):
            return CACHE.get(("wb_directml_run", key), view)


def run_text(text: str) -> DirectMLRun:
    """The DirectMLRun of a model's text, loaded under the workbench's element cap: an example run from another page
    is the same run, shared, as the workbench's of the same text."""
    with element_cap_set_to(ELEMENT_CAP):
        model = load_model(text)
    return run(digest(text), model)


def difference_rows(comparison: onnx_twins.Comparison) -> list[dict[str, Any]]:
    """One row per output compared: its largest distance from the twin, where, both values there, the tolerance."""
    return [{"output": d.output, "largest distance": d.ulps,
             "unit": d.tolerance.unit if d.index is None or isinstance(d.directml, float) else "units",
             "at": "" if d.index is None else str(list(d.index)),
             "DirectML": "" if d.index is None else repr(d.directml),
             "twin": "" if d.index is None else repr(d.twin),
             "allowed": d.tolerance.ulps, "agrees": d.agrees} for d in comparison.differences]


def show_twin(check: TwinCheck) -> None:
    comparison = check.comparison
    if comparison is None:
        say.info(md("No ONNX twin compared: {}", check.no_twin))
        return
    limit = comparison.tolerance
    bound = md("exact") if limit.ulps == 0 else md("{:g} {} ({})", limit.ulps, limit.unit, limit.name)
    verdict = md("**agrees**") if comparison.agrees else md("**differs**")
    (say.success if comparison.agrees else say.warning)(md(
        "ONNX twin {:code} on {}: {}, largest distance {:g} (tolerance: {}).", comparison.ops, comparison.runtime,
        verdict, comparison.max_ulps, bound))
    st.dataframe(pd.DataFrame(difference_rows(comparison)), hide_index=True)
    say.caption(md("Why this tolerance: {}", limit.why))


def show_dispatch(dispatch: DirectMLDispatch) -> None:
    say.markdown(md("##### commands[{}]: dispatch {:code} (DML_OPERATOR_{}), run on DirectML", dispatch.index,
                    dispatch.dispatchable, dispatch.operator))
    show_tensors(dispatch.inputs, dispatch.outputs)
    show_twin(dispatch.twin)


def show_run(ran: DirectMLRun) -> None:
    show_printed(ran.prints, "(the model has no print commands)")
    for dispatch in ran.drawn:
        show_dispatch(dispatch)
    if ran.dispatches > MAX_DRAWN_DISPATCHES:
        say.info(md("{:,} more dispatches ran on DirectML; the first {} are drawn (and compared) here.",
                    ran.dispatches - MAX_DRAWN_DISPATCHES, MAX_DRAWN_DISPATCHES))


def run_tab(key: str, raw: dict[str, Any], model: dict[str, Any]) -> None:
    """The Run tab of a model running on DirectML: who answers each dispatch, then the run."""
    show_answers(key, raw)
    try:
        ran = run(key, model)
    except (DescriptorError, Busy) as error:
        say.error(md("The run on DirectML stopped: {}", error))
        return
    show_run(ran)
