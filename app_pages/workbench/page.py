"""Descriptor workbench: load, check, run and explain DxDispatch models and tensor descriptors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from app_pages.workbench import directml, view, work
from app_pages.workbench.reading import core_runs, modelled_part, natural_columns, tensor_descs
from app_pages.workbench.settings import (
    CUSTOM,
    DXDISPATCH_MODELS_DIR,
    ELEMENT_CAP,
    LINK_CODEC,
    MAX_MODEL_BYTES,
    PARTIAL_EXAMPLES_DIR,
    PRESETS,
    builder_desc,
    example_files,
    matching_preset,
    model_text_from_bytes,
    preset_texts,
    strict_examples,
    text_cost,
    travels_in_link,
)
from ops import DML_TYPES, DescriptorError, load_model, model_notes
from ops.descriptors.partial import PartialRun
from ops.guard import element_cap_set_to
from ops.tensor_desc import TensorDesc
from ui import say, url_state
from ui.say import md
from ui.shared import Busy, admitted, digest
from ui.sidebar import DEFAULTS, SidebarSettings, current_settings

SOURCES = ("Example", "DxDispatch's models", "Partly modelled example", "Paste JSON", "Upload a file")
BUILD_HERE = "build one here"


def bundled_example(examples: dict[str, Path], key: str, folder: str, help_text: str) -> tuple[str, str]:
    """(model text, label) of the bundled example picked in a selectbox bound to the URL under `key`."""
    name = url_state.widget(st.selectbox, "Bundled example", key, next(iter(examples)), options=list(examples),
                            help=say.plain(help_text))
    text = examples[name].read_text(encoding="utf-8")
    st.button("Edit a copy of this example", key=f"{key}_edit", on_click=view.edit_example, args=(text,))
    with st.expander(say.plain(f"{folder}/{name}.json")):
        st.code(text, language="json")
    return text, f"{folder}/{name}.json"


def model_source() -> tuple[str | None, str]:
    """(model text or None, label) from the chosen source."""
    source = url_state.widget(st.radio, "Model source", "wb_source", SOURCES[0], options=SOURCES, horizontal=True)
    if source == "Example":
        return bundled_example(strict_examples(), "wb_example", "examples",
                               "One DxDispatch model per operator, including the seed documents' examples; those "
                               "under dxdispatch/ show DxDispatch's own syntax (comments, trailing commas)")
    if source == "DxDispatch's models":
        return bundled_example(example_files(DXDISPATCH_MODELS_DIR), "wb_dxdispatch_model",
                               "examples/dxdispatch_models",
                               "Our own models mirroring the 18 DirectML models of DxDispatch's models/ folder "
                               "(GEMM, convolutions, an RNN, reductions, fills ...): they run on DirectML itself")
    if source == "Partly modelled example":
        return bundled_example(example_files(PARTIAL_EXAMPLES_DIR), "wb_partial_example", "examples/partial",
                               "Models mixing the operators modelled here with ELEMENT_WISE_ADD, GEMM, CONVOLUTION, "
                               "HLSL shaders and ONNX models: they open in partial mode")
    if source == "Paste JSON":
        text = url_state.widget(st.text_area, "DxDispatch model (JSON)", "wb_text", "", height=300,
                                codec=LINK_CODEC, max_chars=MAX_MODEL_BYTES,
                                placeholder='{"resources": {...}, "dispatchables": {...}, "commands": [...]}')
        if not travels_in_link(text):
            st.caption("This model is too large to travel in the page's link: share the file, or trim the model.")
        return text, "pasted model"
    uploaded = st.file_uploader("DxDispatch model file (.json, at most 1 MB)", type=["json"], key="wb_upload",
                                max_upload_size=1)
    st.caption("An uploaded file is not part of the page's link: to share a view, paste the model instead.")
    if uploaded is None:
        st.info("Choose a .json model file.")
        return None, ""
    try:
        return model_text_from_bytes(uploaded.getvalue(), uploaded.name), uploaded.name
    except DescriptorError as error:
        say.error(error)
        return None, ""


def cross_check_toggle() -> bool:
    return url_state.widget(st.toggle, "Cross-check every dispatch (on DirectML where it runs it, else ONNX Runtime)",
                            "wb_cross_check", True)


def run_tab(model_key: str, raw: dict[str, Any], model: dict[str, Any]) -> None:
    directml.show_answers(model_key, raw)
    try:
        ran = work.run_view(model_key, model)
    except (DescriptorError, Busy) as error:
        say.error(md("The run stopped: {}", error))
        return
    view.show_run_prints(ran)
    checking = cross_check_toggle()
    view.show_dispatches(ran.drawn, ran.dispatches, checking)


def partial_run_tab(model_key: str, raw: dict[str, Any], run: PartialRun) -> None:
    view.show_partial_progress(raw, run)
    checking = cross_check_toggle()
    drawn, count = work.partial_dispatches(model_key, run)
    view.show_dispatches(drawn, count, checking)


def show_partial(model_key: str, raw: dict[str, Any], run: PartialRun, label: str,
                 settings: SidebarSettings) -> None:
    """A model with parts not modelled here: statuses, validation and memory maps of its modelled part, a partial
    run."""
    view.partial_warning(label, run)
    modelled = modelled_part(raw, run.inspection)
    # The open tab is in the link (wb_partial_tab), as the operator pages' panels keep theirs.
    (status, report, ran, explorer, export), _ = url_state.tabs(
        ["Status", "Validation report", "Run (partial)", "Tensor descriptors", "Export"], "wb_partial_tab")
    with status:
        view.show_status(run)
    with report:
        view.show_validation(modelled, settings.feature_level)
    with ran:
        partial_run_tab(model_key, raw, run)
    with explorer:
        show_explorer(modelled, settings.data_type)
    with export:
        st.info("The export writes models this project runs whole; this one has parts not modelled here.")


def built_desc(default_type: str) -> tuple[TensorDesc | None, str]:
    """(TensorDesc or None, kind) from the builder widgets; problems are shown here."""
    left, middle, right = st.columns(3)
    sizes_default, strides_default = preset_texts(next(iter(PRESETS))).values()
    # The preset box shows which preset the settings match (they live in the URL; the box is only a shortcut).
    st.session_state["wb_preset"] = matching_preset(url_state.peek("wb_sizes", sizes_default),
                                                       url_state.peek("wb_strides", strides_default))
    st.selectbox("Preset", [CUSTOM, *PRESETS], key="wb_preset", on_change=view.apply_preset)
    data_type = url_state.widget(left.selectbox, "DataType", "wb_dtype", default_type, options=DML_TYPES)
    sizes_text = url_state.widget(middle.text_input, "Sizes", "wb_sizes", sizes_default)
    strides_text = url_state.widget(right.text_input, "Strides (blank: packed)", "wb_strides", strides_default)
    total_text = url_state.widget(left.text_input, "TotalTensorSizeInBytes (blank: implied)", "wb_total", "")
    kind = url_state.widget(middle.radio, "Used as", "wb_role", "input", options=("input", "output"),
                            horizontal=True)
    try:
        desc, problems = builder_desc(data_type, sizes_text, strides_text, total_text)
    except DescriptorError as error:
        say.error(error)
        return None, kind
    for problem in problems:
        say.error(md("{:code}: {}", problem.path, problem.message))
    return desc, kind


def show_explorer(raw: dict[str, Any], default_type: str) -> None:
    descs = {path: (desc, kind) for path, desc, kind in tensor_descs(raw)}
    options = [BUILD_HERE, *descs]
    choice = url_state.widget(st.selectbox, "Tensor desc", "wb_desc", options[1] if descs else BUILD_HERE,
                              options=options, help="Any tensor desc of the model, or one built here")
    desc, kind = built_desc(default_type) if choice == BUILD_HERE or choice not in descs else descs[choice]
    if desc is None:
        return
    role = "output" if kind.startswith("output") else "input"
    view.show_desc(desc, kind, role)
    left, right = st.columns(2)
    unit = url_state.widget(left.radio, "One cell per", "wb_unit", "element", options=("element", "byte"),
                            horizontal=True)
    natural = natural_columns(desc, unit)
    chosen = url_state.widget(right.number_input, "Cells per row", "wb_columns", 0, minimum=0, maximum=256,
                              help=md("0: the desc's natural width ({} here)", min(natural, 256)))
    view.show_memory_map(desc, choice, role, unit, chosen or min(natural, 256))


def page() -> None:
    st.title("Descriptor workbench")
    say.caption(md(
        "Load a DxDispatch JSON model, check every dispatchable against every feature level, run its commands, "
        "and see how each tensor descriptor lays its elements out in memory. A model is data: it is never used to "
        "read files, and every tensor is held to {:,} elements.", ELEMENT_CAP))
    settings = current_settings()
    if notice := view.receive_round_trip():
        say.info(notice)
    text, label = model_source()
    if text is None:
        return
    nbytes, seconds = text_cost(text)
    try:
        # Reading a model text (parsing, loading, its notes) costs with its length: admitted as a view is.
        with admitted(nbytes, "this model's text", seconds=seconds):
            raw = view.parsed_model(label, text)
            if raw is None:
                return
            model: dict[str, Any] | None = None
            refusal: DescriptorError | None = None
            notes: list[str] = []
            try:
                with element_cap_set_to(ELEMENT_CAP):
                    model = load_model(raw)
                notes = model_notes(raw)
            except DescriptorError as error:
                refusal = error
    except Busy as busy:
        say.error(md("{}: {}", label, busy))
        return
    # Runs, heatmaps and cross-checks are shared by every visitor of the same model text (work.py).
    model_key = digest(text)
    # DirectML operators the core does not model run on DirectML itself (directml.py) unless the visitor
    # asks for the core or DirectML cannot run here.
    on_directml = model is not None and not core_runs(model) and directml.runs_on_directml(model)
    if (model is None or not core_runs(model)) and not on_directml:
        # Parts the core does not run (operators it does not model, shaders, ONNX models): the partial mode.
        try:
            run = work.partial_run(model_key, raw)
        except Busy as busy:
            say.error(md("{}: {}", label, busy))
            return
        if run is not None:
            directml.show_refusal(label, refusal, run.inspection)
            show_partial(model_key, raw, run, label, settings)
            return
    if model is None:
        say.error(md("{} is refused: {}", label, refusal))
    else:
        view.show_loaded(label, model, notes)

    # The open tab is in the link (wb_tab): a teacher's link opens the tab it was made on.
    (report, run, explorer, export), _ = url_state.tabs(["Validation report", "Run", "Tensor descriptors", "Export"],
                                                        "wb_tab")
    with report:
        view.show_validation(raw, settings.feature_level, refusal)
    with run:
        if model is None:
            st.info("The model does not load; fix the problems shown above to run it.")
        elif on_directml:
            directml.run_tab(model_key, raw, model)
        else:
            run_tab(model_key, raw, model)
    with explorer:
        show_explorer(raw, DEFAULTS["dtype"])
    with export:
        if model is None:
            st.info("The model does not load; the export needs a model that does.")
        else:
            view.show_export(model, label)


page()
