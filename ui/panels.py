"""The panels under every operator's figures: Validation, Cross-check, Export and Elsewhere.

`operator_panels(call, arrays, settings)` takes an ops Call (the operator, its data type, input sizes and
attributes) and the page's Arrays (shared work functions that rebuild its arrays). The call may be invalid (a size
of 0, an over-cap tensor, a BlockSize that does not divide): made without Call.of's checks, it still gets its
Validation tab, with the descriptor and every problem; the other tabs say why they cannot run.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from ops import Call, DescriptorError, cpp_snippet, model_for, operator, type_name, validate
from ops.levels import OPERATOR_PREFIX
from serve.budget import Busy

from . import handoff, say, url_state, work
from .output_budget import and_more, few
from .say import Markdown, md
from .shared import shared
from .sidebar import SidebarSettings, valid_at
from .work import CheckSummary, CrossChecks

SHOWN_MODEL_ELEMENTS = 4096  # larger models are offered as a download only, built on click
WORKBENCH_ELEMENTS = 65536  # the workbench edits the model as text: beyond this it is a download's job
PROBLEMS_LISTED = 20  # a SPLIT of thousands of parts can break a rule in every one


def show_error(exc: Exception) -> None:
    """A DescriptorError (or any ValueError from the core) as an error box, never a traceback; the message quotes
    values a visitor typed or linked, so it is shown as plain text."""
    say.error(exc, icon=":material/error:")


def show_busy(busy: Busy) -> None:
    """The work budget's refusal (ui.shared.Busy): other visitors hold it, so this view waits for a retry."""
    say.warning(busy, icon=":material/hourglass_top:")


def _output_shapes(op: str, shapes: Sequence[Sequence[int]], attrs: dict[str, Any]) -> list[list[int]] | None:
    return operator(op).implied_output_shapes(shapes, attrs)


def settings_dispatchable(op: str, shapes: Sequence[Sequence[int]], data_type: str, attrs: dict[str, Any],
                          placeholder_output: bool = False) -> dict[str, Any]:
    """The DxDispatch dispatchable the page's settings describe (shapes: the inputs' sizes).

    Settings with no output shape leave OutputTensor out rather than invent one; `placeholder_output` puts the
    input's sizes there instead, only so that validate can parse the rest and name the broken rule."""
    output_shapes = _output_shapes(op, shapes, attrs)
    if output_shapes is None and placeholder_output:
        output_shapes = [list(shapes[0])]
    return operator(op).dispatchable(shapes, type_name(data_type), attrs, output_shapes)


@shared
def settings_problems(op: str, shapes: tuple[tuple[int, ...], ...], data_type: str,
                      attrs: tuple[tuple[str, Any], ...], level: str) -> tuple[str, ...]:
    """Every problem of the settings' descriptor at `level` (validate's messages, each with its JSON path); `attrs`
    as (name, value) pairs. Shared: every page run asks twice (the banner over the figure, the Validation tab)."""
    return tuple(validate(settings_dispatchable(op, shapes, data_type, dict(attrs), placeholder_output=True), level))


@dataclasses.dataclass(frozen=True)
class Arrays:
    """How a page makes one call's arrays: shared work functions bound to small settings, so a download button that
    keeps them for the session keeps no tensor. `key` says how the inputs are made (the cross-check's cache key);
    `refusal` is the core's refusal of the call, if any; `elsewhere` holds settings only other frameworks' code
    needs (B's stored sizes, which DirectML reads through 0 strides and numpy broadcasts)."""

    key: tuple[Any, ...]
    make_inputs: Callable[[], Sequence[np.ndarray]]
    make_outputs: Callable[[], Sequence[np.ndarray]]
    refusal: str | None = None
    elsewhere: tuple[tuple[str, Any], ...] = ()


def _elements(call):
    return sum(math.prod(shape) for shape in call.input_sizes)


PANELS = ("Validation", "Cross-check", "Export", "Elsewhere")
FRAMEWORK_TITLES = {"numpy": "numpy", "einops": "einops", "onnx": "ONNX (run on ONNX Runtime)", "pytorch": "PyTorch",
                    "tensorflow": "TensorFlow", "directml": "DirectML descriptor (C++)"}


def operator_panels(call: Call, arrays: Arrays, settings: SidebarSettings, key: str = "panels") -> None:
    """Validation, Cross-check, Export and Elsewhere tabs for one operator call; `key` keeps widget keys unique.

    Only the open tab is drawn (it is a setting of the view, in the URL as `<key>_tab`): the others would cost a
    class's server their ONNX Runtime runs, C++ and JSON on every page run, and the browser their elements.
    """
    verdict(call, arrays)
    containers, opened = url_state.tabs(PANELS, f"{key}_tab")
    with containers[PANELS.index(opened)]:
        if opened == "Validation":
            validation_panel(call.op, call.input_sizes, call.attrs, settings, arrays.refusal)
        elif opened == "Cross-check":
            cross_check_panel(call, arrays)
        elif opened == "Export":
            export_panel(call, arrays, settings, key)
        else:
            elsewhere_panel(call, arrays, settings)


def validation_panel(op: str, shapes: tuple[tuple[int, ...], ...], attrs: tuple[tuple[str, Any], ...],
                     settings: SidebarSettings, refusal: str | None = None) -> None:
    """The descriptor and its problems at the sidebar's level (`attrs`: (name, value) pairs); `refusal`: the page's
    refusal of the settings (their values, say), which no descriptor rule covers: the tab then says so instead of a
    green "valid" beside the page's red error."""
    level = settings.feature_level
    attributes = dict(attrs)
    try:
        dispatchable = settings_dispatchable(op, shapes, settings.data_type, attributes)
    except DescriptorError as exc:
        show_error(exc)
        return
    left, right = st.columns([3, 2])
    with left:
        st.caption("The descriptor these settings describe, as a DxDispatch dispatchable")
        if _output_shapes(op, shapes, attributes) is None:
            st.caption(":material/help: OutputTensor is left out: these settings have no output shape (the "
                       "BlockSize rule below says why).")
        st.code(json.dumps(dispatchable, indent=2), language="json")
    with right:
        row = operator(op).support_row(level)
        say.caption(md("Support table row in force at DML_FEATURE_LEVEL_{}", level))
        if row is None:
            say.warning(md("{}{} does not exist at feature level {}: it was introduced at {}.", OPERATOR_PREFIX, op,
                           level, operator(op).introduced))
        else:
            say.markdown(md("**{}{}**, row from feature level **{}**  \nDimensionCount: {}  \nDataType: {}",
                            OPERATOR_PREFIX, op, row.level, row.dims_text, ", ".join(row.types)))
            if row.source:
                say.caption(row.source)
        try:
            problems = settings_problems(op, shapes, settings.data_type, attrs, level)
        except DescriptorError as exc:
            show_error(exc)
            return
        shown, more = few(problems, PROBLEMS_LISTED)
        for problem in shown:
            say.error(problem, icon=":material/error:")
        if more:
            say.caption(and_more(more, "problems"))
        if not problems and refusal is None:
            say.success(valid_at(level), icon=":material/check_circle:")
        elif not problems:
            say.warning(md("The descriptor's rules hold at DML_FEATURE_LEVEL_{}, but the page refuses these settings: "
                           "{}", level, refusal), icon=":material/warning:")


def ran_on(summary: CheckSummary) -> str | None:
    """Who computed a runtime's result, as the panel names it."""
    if summary.runtime == "directml":
        return summary.provider
    version = f"onnxruntime {summary.ort_version}" if summary.ort_version else "onnxruntime"
    return f"ONNX Runtime {summary.provider} ({version})"


def verdict_line(checks: CrossChecks) -> Markdown:
    """One line: the runtime that ran (DirectML when it could), its verdict, and what the other one says."""
    first, second = ((checks.directml, checks.onnxruntime) if checks.directml.available
                     else (checks.onnxruntime, checks.directml))
    if not first.available:
        return md(":material/help: Not cross-checked: {}", first.note)
    if not first.matches:
        return md(":material/error: Cross-check on {} found a mismatch: see the Cross-check tab.", ran_on(first))
    line = md(":material/check_circle: Cross-checked on {}: bit for bit equal to the reference core", ran_on(first))
    if second.available:
        return line + (md("; ONNX Runtime agrees.") if second.matches
                       else md("; {} does NOT: see the Cross-check tab.", ran_on(second)))
    if second.runtime == "directml" and second.transient:
        return line + md(". DirectML itself was busy: it is asked again when the view is opened again.")
    if second.runtime == "directml":
        return line + md(". DirectML itself could not run this call (see the Cross-check tab).")
    return line + md(".")


CHECKING = ":material/pending: Cross-checking on DirectML itself and on ONNX Runtime..."
# How often a page waiting for its verdict looks again: a first DirectML compile takes 0.4-0.5 s.
VERDICT_POLL_SECONDS = 0.5


def verdict(call: Call, arrays: Arrays) -> None:
    """The cross-check's outcome in one line above the tabs: every result is checked, whichever tab is open. The
    figure above never waits for it: while DirectML and ONNX Runtime work, the line says so and a small fragment
    looks again; once the verdict is in, the page runs again and shows it."""
    if arrays.refusal is not None:
        return
    try:
        checks = work.check_soon(call, arrays.key, arrays.make_inputs)
    except DescriptorError:
        return  # the Cross-check tab names the refusal
    if checks is None:
        _awaiting_verdict(call, arrays.key, arrays.make_inputs)
    else:
        say.caption(verdict_line(checks))


@st.fragment(run_every=VERDICT_POLL_SECONDS)
def _awaiting_verdict(call, key, make_inputs):
    try:
        ready = work.check_soon(call, key, make_inputs) is not None
    except DescriptorError:
        ready = True  # the refusal is cached too; the full run says what the tab does
    if ready:
        url_state.rerun()
    st.caption(CHECKING)


def runtime_section(summary: CheckSummary, title: str) -> None:
    say.markdown(md("##### {}", title))
    if not summary.available:
        say.info(summary.note)
        return
    if summary.matches:
        say.success(md("Match on {}: the output equals the reference core's bit for bit.", ran_on(summary)),
                    icon=":material/check_circle:")
    else:
        say.error(md("Mismatch on {}.", ran_on(summary)), icon=":material/error:")
    say.caption(summary.note)
    if not summary.matches:
        mismatch_view(summary)


def cross_check_panel(call: Call, arrays: Arrays) -> None:
    if arrays.refusal is not None:
        say.info(md("Nothing to cross-check: the reference core refuses this call. {}", arrays.refusal))
        return
    try:
        checks = work.check(call.op, arrays.key, arrays.make_inputs, call.attrs)
    except DescriptorError as exc:
        show_error(exc)
        return
    runtime_section(checks.directml, "DirectML itself (docs/directml.md)")
    runtime_section(checks.onnxruntime, "ONNX Runtime")


def mismatch_view(summary: CheckSummary) -> None:
    """Where the provider and the core first disagree, and a table of the first differing elements."""
    output, index = summary.first_mismatch if summary.first_mismatch else (0, None)
    if not summary.rows:
        expected, actual = summary.shapes or (None, None)
        say.markdown(md("Output {}: shapes differ, expected {}, got {}.", output, list(expected or []),
                        None if actual is None else list(actual)))
        return
    say.markdown(md("First differing element: output {}, index {}.", output, tuple(int(i) for i in index)))
    st.dataframe(pd.DataFrame(list(summary.rows), columns=["index", "expected (core)", "actual (provider)"]),
                 hide_index=True)
    say.caption(md("{:,} of {:,} elements differ; the first {} are listed.", summary.differing, summary.total,
                   len(summary.rows)))


def npy_bytes(array: np.ndarray) -> bytes:
    """The array as .npy bytes; object arrays are refused (allow_pickle=False), so no pickle ever ships."""
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(array), allow_pickle=False)
    return buffer.getvalue()


def _model_json(op, make_inputs, attrs):
    return json.dumps(model_for(op, list(make_inputs()), **attrs), indent=2)


def _npy_download(make_arrays, index):
    return npy_bytes(make_arrays()[index])


def export_panel(call: Call, arrays: Arrays, settings: SidebarSettings, key: str) -> None:
    if arrays.refusal is not None:
        say.info(md("Nothing to export: the reference core refuses this call. {}", arrays.refusal))
        return
    op, attrs = call.op, call.attributes
    try:
        dispatchable = settings_dispatchable(op, call.input_sizes, settings.data_type, attrs)
        cpp = cpp_snippet(dispatchable)
    except DescriptorError as exc:
        show_error(exc)
        return
    name = op.lower()
    elements = _elements(call)
    model_json = functools.partial(_model_json, op, arrays.make_inputs, attrs)
    st.caption("DxDispatch model: running it prints the outputs shown above")
    if elements <= SHOWN_MODEL_ELEMENTS:
        st.code(model_json(), language="json", height=300)
    else:
        say.caption(md("The inputs hold {:,} values: the model is only offered as a download.", elements))
    # A wrapping row of buttons as wide as their labels: equal columns cut them off in a 800 px window.
    buttons = st.container(horizontal=True, wrap=True)
    buttons.download_button("Download model JSON", model_json, f"{name}.json", "application/json",
                            key=f"{key}_model_json", on_click="ignore")
    buttons.download_button("Download the C++", cpp, f"{name}.cpp", "text/x-c++src", key=f"{key}_cpp",
                            on_click="ignore", help="The descriptor structs shown below, as a file")
    refusal = None
    if elements > WORKBENCH_ELEMENTS:
        refusal = f"{elements:,} input values: the workbench takes models up to {WORKBENCH_ELEMENTS:,}"
    if buttons.button("Open in Descriptor workbench", key=f"{key}_workbench", disabled=refusal is not None,
                      help=None if refusal is None else say.plain(refusal)):
        handoff.open_model(model_for(op, list(arrays.make_inputs()), **attrs))
    st.caption("C++: the descriptor structs for IDMLDevice::CreateOperator")
    st.code(cpp, language="cpp")
    st.caption("Arrays as .npy (numpy.load reads them; no pickle)")
    output_shapes = _output_shapes(op, call.input_sizes, attrs) or []
    files = [(f"input{i}" if len(call.input_sizes) > 1 else "input", arrays.make_inputs, i, shape)
             for i, shape in enumerate(call.input_sizes)]
    files += [(f"output{i}" if len(output_shapes) > 1 else "output", arrays.make_outputs, i, shape)
              for i, shape in enumerate(output_shapes)]
    columns = st.columns(min(4, len(files)))
    for i, (label, make, index, shape) in enumerate(files):
        columns[i % len(columns)].download_button(
            say.plain(f"{label}.npy {list(shape)}"), functools.partial(_npy_download, make, index),
            f"{name}_{label}.npy",
            "application/octet-stream", key=f"{key}_{label}_npy", on_click="ignore")


def inputs_text(names: Sequence[str]) -> Markdown:
    """The snippets' input variables in words: `x`; `a` and `b`; `input`, `indices` and `updates`; the list `xs`."""
    if tuple(names) == ("xs",):
        return md("the list {:code}", "xs")
    *first, last = [md("{:code}", name) for name in names]
    if not first:
        return last
    joined = first[0]
    for name in first[1:]:
        joined = joined + md(", ") + name
    return joined + md(" and ") + last


def elsewhere_panel(call: Call, arrays: Arrays, settings: SidebarSettings) -> None:
    """The same operation in other frameworks, generated from the settings: one copyable snippet each."""
    try:
        snippets = work.snippets(call.op, call.input_sizes, settings.data_type,
                                 tuple(sorted(call.attrs + arrays.elsewhere)))
    except DescriptorError as exc:
        show_error(exc)
        return
    python = next(s for s in snippets if s.language == "python")
    say.caption(md(
        "The same call, {}, in other frameworks: each Python snippet reads numpy arrays from {} and leaves its result "
        "in {:code}. The project's tests run every numpy, einops and ONNX snippet against the reference core bit for "
        "bit, and the PyTorch and TensorFlow ones wherever those frameworks are installed.",
        settings.data_type, inputs_text(python.inputs), python.result))
    for snippet in snippets:
        title = md("**{}**", FRAMEWORK_TITLES[snippet.framework])
        say.markdown(title + md(": {}", snippet.order) if snippet.order else title)
        if snippet.code is None:
            say.info(snippet.note, icon=":material/block:")
            continue
        say.caption(snippet.note)
        st.code(snippet.code, language=snippet.language)
