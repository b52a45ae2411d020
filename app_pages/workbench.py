"""Descriptor workbench: load, check, run and explain DxDispatch models and tensor descriptors."""

import json
import re

import pandas as pd
import streamlit as st

from ops import DML_TYPES, DescriptorError, load_model, model_notes
from ops.descriptors.dxdispatch import model_run_bytes, parse_model_text, run_byte_budget
from ops.descriptors.export import cpp_snippet
from ops.descriptors.partial import INVALID, NOT_MODELLED, UNKNOWN_KIND, VALID
from ops.guard import element_cap_set_to
from ops.tensor_desc import find_overlap, parse_tensor_desc
from ui import charts, echo, url_state
from ui import workbench_state as wb
from ui import workbench_work as shared_work
from ui.shared import Busy, admitted
from ui.sidebar import DEFAULTS, current_settings
from ui.values import parse_int_list
from viz.export import file_stem
from viz.memory_map_fig import MAX_CELLS, default_columns
from viz.workbench_fig import command_strip

SOURCES = ("Example", "Partly modelled example", "Paste JSON", "Upload a file")
# A model is untrusted data: every tensor and buffer it asks for is held to this many elements.
ELEMENT_CAP = 2**20
# Each dispatch drawn costs a few figures and, when checking, an ONNX Runtime session: a model may hold thousands.
MAX_DRAWN_DISPATCHES = 12
# Each dispatchable reported is a table column, a line and an expander, validated at every feature level.
MAX_REPORTED_DISPATCHABLES = 24
BUILD_HERE = "build one here"
# Translucent, so the report reads on the light and the dark theme alike.
OK_COLOR = "rgba(33, 195, 84, 0.16)"
FAIL_COLOR = "rgba(255, 75, 75, 0.16)"
NOT_MODELLED_COLOR = "rgba(128, 128, 128, 0.16)"
STATUS_COLORS = {VALID: OK_COLOR, INVALID: FAIL_COLOR, NOT_MODELLED: NOT_MODELLED_COLOR, UNKNOWN_KIND: FAIL_COLOR}
SYNTAX_POSITION = re.compile(r"line (\d+), column (\d+)")


def receive_round_trip():
    """An operator page's export arrives in session_state["workbench_model"]; open it as pasted JSON."""
    model = st.session_state.pop("workbench_model", None)
    if model is None:
        return
    try:
        text = json.dumps(model, indent=2)
    except (TypeError, ValueError) as error:
        st.session_state["wb_notice"] = f"The model handed over is not JSON data: {error}"
        return
    edit_example(text)
    st.session_state["wb_notice"] = "Model received from the operator page, unchanged."


def edit_example(text):
    url_state.put_many({"wb_text": text, "wb_source": "Paste JSON"})


def bundled_example(examples, key, folder, help_text):
    """(model text, label) of the bundled example picked in a selectbox bound to the URL under `key`."""
    name = url_state.widget(st.selectbox, "Bundled example", key, next(iter(examples)), options=list(examples),
                            help=help_text)
    text = examples[name].read_text(encoding="utf-8")
    st.button("Edit a copy of this example", key=f"{key}_edit", on_click=edit_example, args=(text,))
    with st.expander(f"{folder}/{name}.json"):
        st.code(text, language="json")
    return text, f"{folder}/{name}.json"


def model_source():
    """(model text or None, label) from the chosen source."""
    source = url_state.widget(st.radio, "Model source", "wb_source", SOURCES[0], options=SOURCES, horizontal=True)
    if source == "Example":
        return bundled_example(wb.strict_examples(), "wb_example", "examples",
                               "One DxDispatch model per operator, including the seed documents' examples; those "
                               "under dxdispatch/ show DxDispatch's own syntax (comments, trailing commas)")
    if source == "Partly modelled example":
        return bundled_example(wb.example_files(wb.PARTIAL_EXAMPLES_DIR), "wb_partial_example", "examples/partial",
                               "Models mixing the operators modelled here with ELEMENT_WISE_ADD, GEMM, CONVOLUTION, "
                               "HLSL shaders and ONNX models: they open in partial mode")
    if source == "Paste JSON":
        text = url_state.widget(st.text_area, "DxDispatch model (JSON)", "wb_text", "", height=300,
                                codec=wb.LINK_CODEC,
                                placeholder='{"resources": {...}, "dispatchables": {...}, "commands": [...]}')
        # Compressing a text past the model cap (a crafted message can carry far more than the box lets one type)
        # would cost more than the model is allowed to; such a text is refused by its size below.
        if len(text) > wb.MAX_MODEL_BYTES or len(wb.LINK_CODEC.encode(text)) > url_state.LINK_VALUE_CHARS:
            st.caption("This model is too large to travel in the page's link: share the file, or trim the model.")
        return text, "pasted model"
    uploaded = st.file_uploader("DxDispatch model file (.json, at most 1 MB)", type=["json"], key="wb_upload",
                                max_upload_size=1)
    st.caption("An uploaded file is not part of the page's link: to share a view, paste the model instead.")
    if uploaded is None:
        st.info("Choose a .json model file.")
        return None, ""
    try:
        return wb.model_text_from_bytes(uploaded.getvalue(), uploaded.name), uploaded.name
    except DescriptorError as error:
        st.error(echo.text(error))
        return None, ""


def show_syntax_error(label, text, message):
    st.error(echo.text(f"{label}: {message}"))
    position = SYNTAX_POSITION.search(message)
    if position and isinstance(text, str):
        line, column = int(position[1]), int(position[2])
        lines = text.splitlines() or [""]
        if line <= len(lines):
            st.code(f"{line:>5} | {lines[line - 1][:200]}\n      | {' ' * (column - 1)}^", language=None)


def show_validation(raw, level):
    rows, details = wb.validation_rows(raw, MAX_REPORTED_DISPATCHABLES)
    if not details:
        st.info("The model has no dispatchables object to validate.")
        return
    count = len(wb.dispatchable_items(raw))
    if count > MAX_REPORTED_DISPATCHABLES:
        st.info(f"The first {MAX_REPORTED_DISPATCHABLES} of {count:,} dispatchables are reported here; loading the "
                "model checks every one at feature level 6_4.")
    st.markdown("Every dispatchable against every feature level: **ok**, or the broken rules with their JSON paths.")
    columns = {name: st.column_config.TextColumn(name, width="large") for name in details}
    columns["feature level"] = st.column_config.TextColumn("feature level", width=90)
    table = pd.DataFrame(rows).style.map(
        lambda cell: f"background-color: {OK_COLOR if cell == 'ok' else FAIL_COLOR}", subset=list(details))
    st.dataframe(table, hide_index=True, column_config=columns, height=(len(rows) + 1) * 35 + 3,
                 key="wb_report_table")
    for name, by_level in details.items():
        valid = [lvl for lvl, problems in by_level.items() if not problems]
        st.markdown(f"{echo.code(name)}: " + (f"valid from feature level **{valid[0]}**" if valid
                                                else "**valid at no feature level**"))
        failing = {lvl: problems for lvl, problems in by_level.items() if problems}
        if failing:
            with st.expander(f"Why {echo.code(name)} fails at {', '.join(failing)}"):
                st.markdown("\n".join(f"- **{lvl}**: {echo.code(p.path)}: {echo.text(p.message)}"
                                       for lvl, problems in failing.items() for p in problems))
    st.markdown(f"##### Problems at feature level {level} (sidebar)")
    problems = [p for by_level in details.values() for p in by_level[level]]
    if not problems:
        st.success(f"Every dispatchable is valid at feature level {level}.")
    for problem in problems:
        st.markdown(f"- {echo.code(problem.path)}: {echo.text(problem.message)}")


def show_heatmap(heatmap):
    charts.show(heatmap.figure, heatmap.key, file_stem("tensor", heatmap.title), heatmap.title)


def show_dispatch(dispatch, checking):
    st.markdown(f"##### commands[{dispatch.index}]: dispatch {echo.code(dispatch.dispatchable)} "
                f"(DML_OPERATOR_{dispatch.operator})")
    for column, heatmap in zip(st.columns(min(len(dispatch.inputs), 4)), dispatch.inputs):
        with column:
            show_heatmap(heatmap)
    for before, after in dispatch.outputs:
        left, right = st.columns(2)
        with left:
            show_heatmap(before)
        with right:
            show_heatmap(after)
    if checking:
        show_cross_check(dispatch.check)


def cross_check_toggle():
    return url_state.widget(st.toggle, "Cross-check every dispatch (on DirectML where it runs it, else ONNX Runtime)",
                            "wb_cross_check", True)


def show_cross_check(check):
    if isinstance(check, str):
        st.warning(f"Cross-check not run: {echo.text(check)}")
        return
    available, matches, provider, note = check
    verdict = "matches" if matches else ("does not match" if available else "not run")
    text = f"Cross-check on {provider or 'no provider'}: **{verdict}**. {echo.text(note)}"
    (st.success if matches else st.warning)(text)


def show_run(model_key, model):
    try:
        with element_cap_set_to(ELEMENT_CAP):
            # The estimate is counted from the descs before anything is allocated (model_run_bytes).
            with admitted(model_run_bytes(model), "this model's run"):
                view = shared_work.run_view(model_key, model, MAX_DRAWN_DISPATCHES)
    except (DescriptorError, Busy) as error:
        st.error(f"The run stopped: {echo.text(error)}")
        return
    st.markdown("##### Printed output")
    st.code("\n".join(view.prints) or "(the model has no print commands)", language=None, wrap_lines=True)
    if view.dxdispatch_prints != view.prints:
        with st.expander("As DxDispatch prints it (UINT8 and INT8 values as characters)"):
            # std::ostream writes int8_t/uint8_t as characters; control characters are shown as their symbols.
            exact = "\n".join(view.dxdispatch_prints).translate({c: 0x2400 + c for c in range(32) if c != 10})
            st.code(exact, language=None, wrap_lines=True)
    checking = cross_check_toggle()
    for dispatch in view.drawn:
        show_dispatch(dispatch, checking)
    not_drawn(view.dispatches)


def not_drawn(count):
    if count > MAX_DRAWN_DISPATCHES:
        st.info(f"{count - MAX_DRAWN_DISPATCHES:,} more dispatches ran; the first {MAX_DRAWN_DISPATCHES} are drawn "
                "(and cross-checked) here.")


def partial_run(model_key, raw):
    """The partial run of a model this project does not model whole, or None when it models every part."""
    try:
        with element_cap_set_to(ELEMENT_CAP):
            # Its strict run of the modelled part is held to one run's budget, so that budget is what it may need.
            with admitted(run_byte_budget(), "this model's partial run"):
                run = shared_work.partial_run(model_key, raw)
    except DescriptorError:
        return None
    return None if run.inspection.fully_modelled else run


def show_status(run):
    inspection = run.inspection
    st.markdown("Every resource and dispatchable: **modelled, valid**; **modelled, invalid** with the rules it "
                "breaks; **not modelled here**, with where DirectML or DxDispatch documents it; or **unknown kind**, "
                "a dispatchable type DxDispatch does not know either. Nothing is computed for a part that is not "
                "modelled.")
    rows = wb.status_rows(inspection)
    table = pd.DataFrame(rows).style.map(lambda cell: f"background-color: {STATUS_COLORS[cell]}", subset=["status"])
    st.dataframe(table, hide_index=True, key="wb_status_table", height=min(len(rows) + 1, 20) * 35 + 3,
                 column_config={"why": st.column_config.TextColumn("why", width="large")})
    links = [f"- {echo.code(part.name)}: [{echo.text(part.documentation)}]({part.url})"
             for part in inspection.dispatchables if part.url]
    if links:
        st.markdown("DirectML's documentation of the operators not modelled here:\n" + "\n".join(links))
    if any(part.status in (INVALID, UNKNOWN_KIND) for part in inspection.dispatchables):
        st.warning("DxDispatch creates every dispatchable before it runs any command, so on DirectML this model "
                   "stops at initialization until the invalid dispatchables are fixed; the partial run (Run tab) "
                   "still runs the commands that do not use them.")


def show_partial_run(model_key, raw, run):
    ran, skipped = run.ran, run.skipped
    if run.refusal:
        st.error(f"Nothing could be run: {echo.text(run.refusal)}")
    elif run.stopped_at is None:
        st.info(f"Ran {len(ran)} of {len(ran) + len(skipped)} commands; the skipped ones change no buffer, so "
                "nothing after them was held back.")
    else:
        st.info(f"Ran {len(ran)} of {len(ran) + len(skipped)} commands, in order up to commands[{run.stopped_at}], "
                "the first dispatch that cannot be run here; every command after it is skipped, since what it would "
                "leave in the buffers is unknown here.")
    charts.show(command_strip(wb.command_steps_partial(raw, run)), "wb_command_strip", "workbench_commands",
                "The model's commands, step by step")
    st.markdown("##### Printed output")
    st.code("\n".join(run.prints) or "(no print command ran)", language=None, wrap_lines=True)
    if skipped:
        st.markdown("##### Skipped commands")
        st.dataframe(pd.DataFrame(wb.skipped_rows(run)), hide_index=True, key="wb_skipped_table",
                     column_config={"why it was skipped": st.column_config.TextColumn(width="large")})
    checking = cross_check_toggle()
    drawn = [step for step in ran if step.kind == "dispatch"]
    for step in drawn[:MAX_DRAWN_DISPATCHES]:
        dispatchable = run.model["dispatchables"][step.record.dispatchable]
        show_dispatch(shared_work.drawn(model_key, step.index, step.record, step.command, dispatchable), checking)
    not_drawn(len(drawn))


def show_partial(model_key, raw, run, label, settings):
    """A model with parts not modelled here: statuses, validation and memory maps of its modelled part, a partial
    run."""
    missing = [part.name for part in run.inspection.parts if part.status == NOT_MODELLED]
    st.warning(f"{echo.text(label)} has parts this project does not model ({', '.join(map(echo.code, missing))}), so "
               "it is open in partial "
               "mode: the statuses of every part, validation and memory maps of the modelled part, and the commands "
               "run in order up to the first dispatch that cannot be run. `ops.run_model` refuses this model.")
    modelled = wb.modelled_part(raw, run.inspection)
    # The open tab is in the link (wb_partial_tab), as the operator pages' panels keep theirs.
    (status, report, ran, explorer, export), _ = url_state.tabs(
        ["Status", "Validation report", "Run (partial)", "Tensor descriptors", "Export"], "wb_partial_tab")
    with status:
        show_status(run)
    with report:
        with element_cap_set_to(ELEMENT_CAP):
            show_validation(modelled, settings.feature_level)
    with ran:
        show_partial_run(model_key, raw, run)
    with explorer:
        show_explorer(modelled, settings.data_type)
    with export:
        st.info("The export writes models this project runs whole; this one has parts not modelled here.")


def apply_preset():
    name = st.session_state["wb_preset"]
    if name in wb.PRESETS:
        url_state.put_many(wb.preset_texts(name))


def built_desc(default_type):
    """(TensorDesc or None, kind) from the builder widgets; problems are shown here."""
    left, middle, right = st.columns(3)
    sizes_default, strides_default = wb.preset_texts(next(iter(wb.PRESETS))).values()
    # The preset box shows which preset the settings match (they live in the URL; the box is only a shortcut).
    st.session_state["wb_preset"] = wb.matching_preset(url_state.peek("wb_sizes", sizes_default),
                                                       url_state.peek("wb_strides", strides_default))
    st.selectbox("Preset", [wb.CUSTOM, *wb.PRESETS], key="wb_preset", on_change=apply_preset)
    data_type = url_state.widget(left.selectbox, "DataType", "wb_dtype", default_type, options=DML_TYPES)
    sizes_text = url_state.widget(middle.text_input, "Sizes", "wb_sizes", sizes_default)
    strides_text = url_state.widget(right.text_input, "Strides (blank: packed)", "wb_strides", strides_default)
    total_text = url_state.widget(left.text_input, "TotalTensorSizeInBytes (blank: implied)", "wb_total", "")
    kind = url_state.widget(middle.radio, "Used as", "wb_role", "input", options=("input", "output"),
                            horizontal=True)
    try:
        obj = {"DataType": data_type, "Sizes": list(parse_int_list(sizes_text, "Sizes"))}
        if strides_text.strip():
            obj["Strides"] = list(parse_int_list(strides_text, "Strides", minimum=0))
        if total_text.strip():
            obj["TotalTensorSizeInBytes"] = parse_int_list(total_text, "TotalTensorSizeInBytes", minimum=0,
                                                           max_count=1)[0]
    except (DescriptorError, IndexError) as error:
        st.error(echo.text(error) if isinstance(error, DescriptorError) else "TotalTensorSizeInBytes: one integer")
        return None, kind
    desc, problems = parse_tensor_desc(obj, "desc")
    for problem in problems:
        st.error(f"{echo.code(problem.path)}: {echo.text(problem.message)}")
    return desc, kind


def show_overlap(desc):
    """An output desc that writes one element twice is refused by DirectML: say which indices collide."""
    try:
        with element_cap_set_to(ELEMENT_CAP):
            overlap = find_overlap(desc.Sizes, desc.Strides)
    except DescriptorError as error:
        st.warning(f"Overlap not checked: {echo.text(error)}")
        return
    if overlap:
        element, a, b = overlap
        st.error(f"Overlap: logical indices {list(a)} and {list(b)} both write element {element}; "
                 "an output tensor must not overlap itself.")


def show_explorer(raw, default_type):
    descs = {path: (desc, kind) for path, desc, kind in wb.tensor_descs(raw)}
    options = [BUILD_HERE, *descs]
    choice = url_state.widget(st.selectbox, "Tensor desc", "wb_desc", options[1] if descs else BUILD_HERE,
                              options=options, help="Any tensor desc of the model, or one built here")
    if choice == BUILD_HERE or choice not in descs:
        desc, kind = built_desc(default_type)
    else:
        desc, kind = descs[choice]
    if desc is None:
        return
    strides = desc.Strides
    lines, implied = wb.size_arithmetic(desc.DataType, desc.Sizes, strides)
    st.markdown(
        f"**{desc.DataType}**, Sizes {list(desc.Sizes)}, Strides {'packed' if strides is None else list(strides)}, "
        f"used as **{kind.rstrip('s')}**"
    )
    declared = desc.TotalTensorSizeInBytes
    lines.append(
        f"TotalTensorSizeInBytes = {declared}"
        + (" (the implied minimum)" if declared == implied else f" (declared; implied minimum {implied})")
    )
    st.code("\n".join(lines), language=None)
    role = "output" if kind.startswith("output") else "input"
    if role == "output":
        show_overlap(desc)
    left, right = st.columns(2)
    unit = url_state.widget(left.radio, "One cell per", "wb_unit", "element", options=("element", "byte"),
                            horizontal=True)
    cell_bytes = 1 if unit == "byte" else desc.element_size
    natural = default_columns(desc.Sizes, strides, desc.buffer_elements) * (desc.element_size if unit == "byte" else 1)
    chosen = url_state.widget(right.number_input, "Cells per row", "wb_columns", 0, minimum=0, maximum=256,
                              help=f"0: the desc's natural width ({min(natural, 256)} here)")
    columns = chosen or min(natural, 256)
    figure = shared_work.memory_map(tuple(desc.Sizes), None if strides is None else tuple(strides), desc.element_size,
                                    declared, role, unit, columns, f"{echo.figure_text(choice)}: {declared:,} bytes")
    charts.show(figure, "wb_memory_map", file_stem("memory_map", choice), f"Memory map of {choice}")
    total_cells = -(-declared // cell_bytes)
    st.caption(
        f"Hover a cell for the logical indices that {'write' if role == 'output' else 'read'} it. "
        f"{min(total_cells, MAX_CELLS):,} of {total_cells:,} cells drawn (at most {MAX_CELLS:,}). "
        + figure.context.reading
    )


def show_export(model, label):
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


def page():
    st.title("Descriptor workbench")
    st.caption(
        "Load a DxDispatch JSON model, check every dispatchable against every feature level, run its commands, "
        "and see how each tensor descriptor lays its elements out in memory. A model is data: it is never used to "
        f"read files, and every tensor is held to {ELEMENT_CAP:,} elements."
    )
    settings = current_settings()
    receive_round_trip()
    if notice := st.session_state.pop("wb_notice", None):
        st.info(echo.text(notice))
    text, label = model_source()
    if text is None:
        return
    if not text.strip():
        st.warning(f"{echo.text(label)}: the model text is empty; paste a DxDispatch model (an object with resources, "
                   "dispatchables and commands) or pick an example.")
        return
    try:
        raw = parse_model_text(text)
    except DescriptorError as error:
        show_syntax_error(label, text, str(error))
        return
    # Runs, heatmaps and cross-checks are shared by every visitor of the same model text (ui.workbench_work).
    model_key = shared_work.digest(text)
    if not isinstance(raw, dict):
        st.error(f"{echo.text(label)} is refused: the root must be a JSON object with resources, dispatchables and "
                 f"commands, not a JSON {wb.json_kind(raw)}")
        return
    model = None
    try:
        with element_cap_set_to(ELEMENT_CAP):
            model = load_model(raw)
    except DescriptorError as error:
        try:
            run = partial_run(model_key, raw)
        except Busy as busy:
            st.error(f"{echo.text(label)}: {busy}")
            return
        if run is not None:
            show_partial(model_key, raw, run, label, settings)
            return
        st.error(echo.text(f"{label} is refused: {error}"))
    else:
        st.success(
            f"{echo.text(label)}: {len(model['resources'])} resources, {len(model['dispatchables'])} dispatchables, "
            f"{len(model['commands'])} commands, valid at feature level 6_4."
        )
        for note in model_notes(raw):
            st.info(f"DxDispatch reads this differently: {echo.text(note)}")

    # The open tab is in the link (wb_tab): a teacher's link opens the tab it was made on.
    (report, run, explorer, export), _ = url_state.tabs(["Validation report", "Run", "Tensor descriptors", "Export"],
                                                        "wb_tab")
    with report:
        with element_cap_set_to(ELEMENT_CAP):
            show_validation(raw, settings.feature_level)
    with run:
        if model is None:
            st.info("The model does not load; fix the problems shown above to run it.")
        else:
            show_run(model_key, model)
    with explorer:
        show_explorer(raw, DEFAULTS["dtype"])
    with export:
        if model is None:
            st.info("The model does not load; the export needs a model that does.")
        else:
            show_export(model, label)


page()
