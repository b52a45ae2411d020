"""The panels under every operator's figures: Validation, Cross-check and Export.

`operator_panels(op, inputs, attrs, settings)` takes the operator's DirectML name (DEPTH_TO_SPACE1,
SPACE_TO_DEPTH1, ELEMENT_WISE_BIT_OR, SPLIT, JOIN), its input arrays and the core function's keyword
arguments. The inputs may describe an invalid call (a size of 0, an over-cap tensor as a zero-stride
view): the Validation tab still shows the descriptor and every problem, the other tabs say why they
cannot run.
"""

import functools
import hashlib
import io
import json

import numpy as np
import pandas as pd
import streamlit as st

from ops import (
    DescriptorError,
    bit_or,
    cross_check,
    depth_to_space,
    join,
    space_to_depth,
    split,
    validate,
)
from ops.datatypes import type_name
from ops.operators.depth_space import order_name
from ops.descriptors.export import cpp_snippet, model_for
from ops.descriptors.levels import OPERATOR_PREFIX, introduced_level, support_row

WORKBENCH_PAGE = "app_pages/workbench.py"
WORKBENCH_KEY = "workbench_model"
_DIFF_ROWS = 20
SHOWN_MODEL_ELEMENTS = 4096  # larger models are offered as a download only, built on click
WORKBENCH_ELEMENTS = 65536  # the workbench edits the model as text: beyond this it is a download's job


def show_error(exc):
    """A DescriptorError (or any ValueError from the core) as an error box, never a traceback."""
    st.error(str(exc), icon=":material/error:")


def _tensor(shape, data_type):
    return {"DataType": data_type, "Sizes": [int(s) for s in shape]}


def _output_shapes(op, shapes, attrs):
    """The output sizes the settings imply, even when they break a rule (validate then names it)."""
    first = list(shapes[0])
    if op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1") and len(first) == 4:
        bs = attrs.get("block_size")
        if isinstance(bs, int) and bs > 0:
            n, c, h, w = first
            if op == "DEPTH_TO_SPACE1":
                return [[n, c // (bs * bs), h * bs, w * bs]]
            return [[n, c * bs * bs, h // bs, w // bs]]
        return [first]
    axis = attrs.get("axis")
    in_range = isinstance(axis, int) and 0 <= axis < len(first)
    if op == "SPLIT":
        sizes = attrs.get("sizes") or []
        if not in_range:
            return [first for _ in sizes]
        return [first[:axis] + [int(s)] + first[axis + 1:] for s in sizes]
    if op == "JOIN" and in_range:
        return [first[:axis] + [sum(int(s[axis]) for s in shapes if len(s) > axis)] + first[axis + 1:]]
    return [first]


def settings_dispatchable(op, shapes, data_type, attrs):
    """The DxDispatch dispatchable the page's settings describe (shapes: the inputs' sizes)."""
    data_type = type_name(data_type)
    outputs = [_tensor(s, data_type) for s in _output_shapes(op, shapes, attrs)]
    inputs = [_tensor(s, data_type) for s in shapes]
    if op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        desc = {"InputTensor": inputs[0], "OutputTensor": outputs[0], "BlockSize": attrs.get("block_size"),
                "Order": order_name(attrs.get("order", "DEPTH_COLUMN_ROW"))}
    elif op == "ELEMENT_WISE_BIT_OR":
        desc = {"ATensor": inputs[0], "BTensor": inputs[1], "OutputTensor": outputs[0]}
    elif op == "SPLIT":
        desc = {"InputTensor": inputs[0], "OutputCount": len(outputs), "OutputTensors": outputs,
                "Axis": attrs.get("axis")}
    else:
        desc = {"InputCount": len(inputs), "InputTensors": inputs, "OutputTensor": outputs[0],
                "Axis": attrs.get("axis")}
    return {"type": OPERATOR_PREFIX + op, "desc": desc}


def core_outputs(op, inputs, attrs):
    """The reference core's outputs (a list), or DescriptorError."""
    if op == "DEPTH_TO_SPACE1":
        return [depth_to_space(inputs[0], **attrs)]
    if op == "SPACE_TO_DEPTH1":
        return [space_to_depth(inputs[0], **attrs)]
    if op == "ELEMENT_WISE_BIT_OR":
        return [bit_or(*inputs)]
    if op == "SPLIT":
        return split(inputs[0], **attrs)
    return [join(list(inputs), **attrs)]


def inputs_digest(inputs):
    """A digest of every byte, type and shape of the inputs.

    Streamlit's own cache key samples arrays of 500,000 elements or more, so two different large inputs
    could share a stale report; this key never does.
    """
    digest = hashlib.blake2b(digest_size=32)
    for x in inputs:
        digest.update(f"{x.dtype.str}{x.shape}".encode())
        digest.update(np.ascontiguousarray(x).view(np.uint8).data)
    return digest.hexdigest()


@st.cache_data(show_spinner="Running ONNX Runtime...", max_entries=64)
def _cached_cross_check(op, digest, attrs_json, _inputs):
    """One ONNX Runtime run per (operator, input bytes, attributes): reruns reuse the report."""
    return cross_check(op, list(_inputs), **json.loads(attrs_json))


def operator_panels(op, inputs, attrs, settings, outputs=None, key="panels"):
    """Validation, Cross-check and Export tabs for one operator call; `key` keeps widget keys unique."""
    inputs = list(inputs)
    validation, check, export = st.tabs(["Validation", "Cross-check", "Export"])
    with validation:
        validation_panel(op, inputs, attrs, settings)
    if outputs is None:
        try:
            outputs = core_outputs(op, inputs, attrs)
        except DescriptorError as exc:
            outputs = exc
    with check:
        cross_check_panel(op, inputs, attrs, outputs)
    with export:
        export_panel(op, inputs, attrs, outputs, key)


def validation_panel(op, inputs, attrs, settings):
    level = settings.feature_level
    try:
        dispatchable = settings_dispatchable(op, [x.shape for x in inputs], settings.data_type, attrs)
    except DescriptorError as exc:
        show_error(exc)
        return
    left, right = st.columns([3, 2])
    with left:
        st.caption("The descriptor these settings describe, as a DxDispatch dispatchable")
        st.code(json.dumps(dispatchable, indent=2), language="json")
    with right:
        row = support_row(op, level)
        st.caption(f"Support table row in force at DML_FEATURE_LEVEL_{level}")
        if row is None:
            st.warning(f"{OPERATOR_PREFIX}{op} does not exist at feature level {level}: "
                       f"it was introduced at {introduced_level(op)}.")
        else:
            st.markdown(f"**{OPERATOR_PREFIX}{op}**, row from feature level **{row.level}**  \n"
                        f"DimensionCount: {row.dims_text}  \nDataType: {', '.join(row.types)}")
        try:
            problems = validate(dispatchable, level)
        except DescriptorError as exc:
            show_error(exc)
            return
        for problem in problems:
            st.error(problem, icon=":material/error:")
        if not problems:
            st.success(f"Valid at DML_FEATURE_LEVEL_{level}.", icon=":material/check_circle:")


def cross_check_panel(op, inputs, attrs, outputs):
    if isinstance(outputs, Exception):
        st.info(f"Nothing to cross-check: the reference core refuses this call. {outputs}")
        return
    try:
        report = _cached_cross_check(op, inputs_digest(inputs), json.dumps(attrs, sort_keys=True), tuple(inputs))
    except DescriptorError as exc:
        show_error(exc)
        return
    if not report.available:
        st.info(report.note)
        return
    version = f"onnxruntime {report.ort_version}" if report.ort_version else "onnxruntime"
    if report.matches:
        st.success(f"Match on {report.provider} ({version}): the provider's output equals the reference "
                   "core's bit for bit.", icon=":material/check_circle:")
    else:
        st.error(f"Mismatch on {report.provider} ({version}).", icon=":material/error:")
    st.caption(report.note)
    if not report.matches:
        mismatch_view(report)


def mismatch_view(report):
    """Where the provider and the core first disagree, and a table of the first differing elements."""
    output, index = report.first_mismatch if report.first_mismatch else (0, None)
    expected = np.asarray(report.expected[output])
    actual = np.asarray(report.actual[output]) if output < len(report.actual) else None
    if index is None or actual is None or actual.shape != expected.shape:
        shape = None if actual is None else list(actual.shape)
        st.markdown(f"Output {output}: shapes differ, expected {list(expected.shape)}, got {shape}.")
        return
    st.markdown(f"First differing element: output {output}, index {tuple(int(i) for i in index)}.")
    width = f"u{expected.dtype.itemsize}"
    differ = expected.view(width) != actual.view(width)
    where = np.argwhere(differ)[:_DIFF_ROWS]
    st.dataframe(pd.DataFrame({
        "index": [str(tuple(int(i) for i in w)) for w in where],
        "expected (core)": [str(expected[tuple(w)]) for w in where],
        "actual (provider)": [str(actual[tuple(w)]) for w in where],
    }), hide_index=True)
    st.caption(f"{int(differ.sum()):,} of {differ.size:,} elements differ; the first {len(where)} are listed.")


def npy_bytes(array):
    """The array as .npy bytes; object arrays are refused (allow_pickle=False), so no pickle ever ships."""
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(array), allow_pickle=False)
    return buffer.getvalue()


def _model_json(op, inputs, attrs):
    return json.dumps(model_for(op, inputs, **attrs), indent=2)


def export_panel(op, inputs, attrs, outputs, key):
    if isinstance(outputs, Exception):
        st.info(f"Nothing to export: the reference core refuses this call. {outputs}")
        return
    data_type = type_name(inputs[0].dtype)
    try:
        dispatchable = settings_dispatchable(op, [x.shape for x in inputs], data_type, attrs)
        cpp = cpp_snippet(dispatchable)
    except DescriptorError as exc:
        show_error(exc)
        return
    name = op.lower()
    elements = sum(x.size for x in inputs)
    st.caption("DxDispatch model: running it prints the outputs shown above")
    if elements <= SHOWN_MODEL_ELEMENTS:
        st.code(_model_json(op, inputs, attrs), language="json", height=300)
    else:
        st.caption(f"The inputs hold {elements:,} values: the model is only offered as a download.")
    buttons = st.columns(2)
    buttons[0].download_button("Download model JSON", functools.partial(_model_json, op, inputs, attrs),
                               f"{name}.json", "application/json", key=f"{key}_model_json", on_click="ignore")
    refusal = None
    if elements > WORKBENCH_ELEMENTS:
        refusal = f"{elements:,} input values: the workbench takes models up to {WORKBENCH_ELEMENTS:,}"
    if buttons[1].button("Open in Descriptor workbench", key=f"{key}_workbench", disabled=refusal is not None,
                         help=refusal):
        st.session_state[WORKBENCH_KEY] = model_for(op, inputs, **attrs)
        # query_params={} rather than the default None: clearing the URL the default way raises while
        # this page's bound widgets own some of its parameters; an empty dict replaces them quietly.
        st.switch_page(WORKBENCH_PAGE, query_params={})
    st.caption("C++: the descriptor structs for IDMLDevice::CreateOperator")
    st.code(cpp, language="cpp")
    st.caption("Arrays as .npy (numpy.load reads them; no pickle)")
    arrays = [(f"input{i}" if len(inputs) > 1 else "input", x) for i, x in enumerate(inputs)]
    arrays += [(f"output{i}" if len(outputs) > 1 else "output", y) for i, y in enumerate(outputs)]
    columns = st.columns(min(4, len(arrays)))
    for i, (label, array) in enumerate(arrays):
        columns[i % len(columns)].download_button(
            f"{label}.npy {list(array.shape)}", functools.partial(npy_bytes, array), f"{name}_{label}.npy",
            "application/octet-stream", key=f"{key}_{label}_npy", on_click="ignore")
