"""Open an ONNX model: its DepthToSpace, SpaceToDepth, BitwiseOr, Split and Concat nodes as DirectML settings, the
risky constructions flagged, each node opened in its operator page or cross-checked alone on ONNX Runtime."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from app_pages.onnx_model import work
from app_pages.registry import operator_link
from ops import Call, DescriptorError
from ops.frameworks.onnx_models import (
    ONNX_BYTE_CAP,
    OPERATOR_NODES,
    ModelNode,
    OnnxModelReport,
    Rearrangement,
    open_bytes,
)
from ui import say, url_state
from ui.output_budget import and_more, few
from ui.panels import show_busy, show_error
from ui.say import md
from ui.shared import Busy, admitted, digest

SOURCES = {"example": "the example upscaler", "upload": "upload an .onnx file"}
DEFAULTS = dict(onx_source="example", onx_check=-1, onx_first=0)
# Node cards drawn at once: a model may hold thousands of listed nodes; the table lists them all.
CARDS = 40
UPLOAD_MB = ONNX_BYTE_CAP // 10**6  # the upload box's megabytes: 10^6 bytes (outside Windows)


def choose_check(index: int) -> None:
    url_state.put("onx_check", index)


def model_bytes(source: str) -> tuple[str, bytes] | None:
    """(cache key, bytes) of the model to open, or None when nothing is uploaded yet."""
    if source == "example":
        st.caption("A small super-resolution network built with onnx.helper when the page opens: PixelUnshuffle "
                   "exported as SpaceToDepth, a Split and Concat, PixelShuffle(4) as DepthToSpace CRD, a "
                   "PixelShuffle(2) written as Reshape -> Transpose -> Reshape, and a BitwiseOr on a mask.")
        return work.EXAMPLE_KEY, work.example_model()
    uploaded = st.file_uploader(md("ONNX model (.onnx, at most {} MB, weights inside the file)", UPLOAD_MB),
                                type=["onnx"],
                                key="onx_upload", max_upload_size=UPLOAD_MB)
    st.caption("The model is read, never run: only one extracted node runs, on ONNX Runtime, when you ask for its "
               "cross-check. External data files and custom operator domains are refused. An uploaded file is not "
               "part of the page's link.")
    if uploaded is None:
        return None
    data = uploaded.getvalue()
    return digest(data), data


def _shape_text(shape: Sequence[int | str | None] | None) -> str:
    if shape is None:
        return "unknown"
    return "[" + ", ".join("?" if s is None else str(s) for s in shape) + "]"


# The table's input sizes column already gives these: the DirectML column leaves them out, to fit.
TABLE_LEAVES_OUT = ("Sizes", "InputSizes", "ASizes")


def _settings_text(settings: dict[str, Any] | None, leave_out: Sequence[str] = ()) -> str:
    if settings is None:
        return ""
    return ", ".join(f"{k} {v}" for k, v in settings.items() if k not in ("operator", "DataType", *leave_out))


def node_table(report: OnnxModelReport) -> None:
    # DirectML's settings beside the node's op, the widest column: last, they ran past the page's right edge.
    rows = [{
        "#": n.index, "node": n.name, "op": n.op_type,
        "DirectML": (n.settings["operator"] + " " + _settings_text(n.settings, TABLE_LEAVES_OUT)) if n.settings
        else n.problem,
        "input sizes": "; ".join(_shape_text(s) for s in n.input_shapes),
        "attributes": ", ".join(f"{k}={v}" for k, v in n.attributes.items()),
        "risks": len(n.risks),
        "types": ", ".join(str(t) for t in n.input_types),
    } for n in report.nodes]
    st.dataframe(rows, hide_index=True, width="stretch",
                 column_config={"node": st.column_config.TextColumn(width="medium"),
                                "DirectML": st.column_config.TextColumn(width="large")})


def open_link(call: Call, stored: Sequence[Sequence[int]] | None = None, label: str = "Open in its operator page"
              ) -> None:
    page, query = operator_link(call, stored)
    st.page_link(page.path, label=md("{} ({})", label, page.title), query_params=query, icon=":material/open_in_new:")


def node_card(key: str, report: OnnxModelReport, node: ModelNode, check_index: int) -> None:
    with st.container(border=True):
        # Names, attributes and the notes quoting them come from the uploaded model: inert text (ui.echo).
        attributes = ", ".join(f"{k}={v}" for k, v in node.attributes.items())
        say.markdown(md("**#{} {:code}** — {}", node.index, node.name, node.op_type)
                     + (md(" ({})", attributes) if node.attributes else ""))
        # A shape's dims may be a dim_param, a name the model's author chose: data, as the names are.
        inputs = say.join(", ", (md("{:code} {} {}", name, _shape_text(shape), kind) for name, shape, kind
                                 in zip(node.inputs, node.input_shapes, node.input_types) if name))
        say.caption(md("Inputs: {}", inputs))
        for risk in node.risks:
            say.warning(risk, icon=":material/warning:")
        if node.settings is None or node.call is None:  # the two go together
            say.info(md("No DirectML settings: {}", node.problem), icon=":material/info:")
            return
        say.markdown(md("DirectML: **{}**, {}, {}", node.settings["operator"], node.settings["DataType"],
                        _settings_text(node.settings)))
        left, right = st.columns(2, vertical_alignment="center")
        with left:
            open_link(node.call, node.stored)
        right.button("Cross-check this node on ONNX Runtime", key=f"onx_check_{node.index}",
                     on_click=choose_check, args=(node.index,), icon=":material/fact_check:")
        if check_index == node.index:
            try:
                with admitted(work.node_check_bytes(node.settings), "this node's cross-check"):
                    result = work.node_check(key, report, node.index)
            except DescriptorError as exc:
                show_error(exc)
                return
            note = result["note"]
            if result["available"] and result["matches"]:
                say.success(note, icon=":material/check_circle:")
            elif result["available"]:
                say.error(note, icon=":material/error:")
            else:
                say.info(note, icon=":material/info:")


def rearrangement_card(chain: Rearrangement) -> None:
    with st.container(border=True):
        say.markdown(md("**{}** ({:code} -> {:code})", say.join(" -> ", map(say.code, chain.names)), chain.input,
                        chain.output))
        say.markdown(chain.note)
        for risk in chain.risks:
            say.warning(risk, icon=":material/warning:")
        if chain.call is not None:
            open_link(chain.call, label="Open what it computes")


def page() -> None:
    st.title("Open an ONNX model")
    # The operators come from the list the model is read with (it said five: DepthToSpace, SpaceToDepth, BitwiseOr,
    # Split and Concat, while BitwiseAnd, BitwiseXor, BitwiseNot and BitShift were listed too).
    say.markdown(md(
        "Every node of a model whose ONNX operator DirectML has here ({}), with its input sizes (ONNX shape "
        "inference) and attributes as the DirectML operator's settings. Constructions known to go wrong between "
        "frameworks are flagged, such as a PixelUnshuffle exported as SpaceToDepth (always DCR in ONNX, CRD in "
        "PyTorch). Open any node in its operator page, or run it alone on ONNX Runtime against the reference core.",
        ", ".join(OPERATOR_NODES)))
    source = url_state.widget(st.radio, "Model", "onx_source", DEFAULTS["onx_source"], options=list(SOURCES),
                              format_func=SOURCES.get, horizontal=True)
    check_index = url_state.value("onx_check", DEFAULTS["onx_check"], minimum=-1)
    try:
        chosen = model_bytes(source)
        if chosen is None:
            st.info("Upload a model to list its nodes, or open the example upscaler.", icon=":material/upload:")
            return
        key, data = chosen
        # Counted from the file's protobuf fields before it is parsed (a refusal names the cap it passes).
        nbytes = open_bytes(data)
        with admitted(nbytes, "this model"):
            report = work.model_report(key, data, nbytes)
    except DescriptorError as exc:
        show_error(exc)
        return
    except Busy as busy:
        show_busy(busy)
        return
    producer = md(", produced by {:code}", report.producer) if report.producer else md("")
    say.markdown(md("Opset {}, IR version {}{}: {} nodes, {} of them DirectML operators shown here, {} Reshape -> "
                    "Transpose -> Reshape chain(s).", report.opset, report.ir_version, producer, report.node_count,
                    len(report.nodes), len(report.rearrangements)))
    for note in report.notes:
        say.info(note, icon=":material/info:")
    if not report.nodes and not report.rearrangements:
        say.info(md("This model has none of these operators: {}.", ", ".join(OPERATOR_NODES)), icon=":material/info:")
        return
    flagged = sum(len(n.risks) for n in report.nodes) + sum(len(c.risks) for c in report.rearrangements)
    if flagged:
        say.warning(md("{} risk flag(s): see the nodes below.", flagged), icon=":material/warning:")
    node_table(report)
    nodes = report.nodes
    if len(nodes) > CARDS:
        first = url_state.widget(st.number_input, md("First node shown below (of {}, {} at a time)", len(nodes), CARDS),
                                 "onx_first", DEFAULTS["onx_first"], minimum=0, maximum=len(nodes) - 1, step=CARDS)
        nodes = nodes[int(first):int(first) + CARDS]
    try:
        for node in nodes:
            node_card(key, report, node, check_index)
    except Busy as busy:
        show_busy(busy)
    if report.rearrangements:
        st.subheader("Reshape -> Transpose -> Reshape chains")
        chains, more = few(report.rearrangements, CARDS)
        for chain in chains:
            rearrangement_card(chain)
        if more:
            say.caption(and_more(more, "chains, not drawn here"))


page()
