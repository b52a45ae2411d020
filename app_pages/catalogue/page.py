"""Operator catalogue: every DirectML operator, its desc's fields and enums, and its minimal example run on DirectML
in one click, against its ONNX twin."""

import json
import time

import pandas as pd
import streamlit as st

from app_pages.catalogue import work
from app_pages.registry import PAGES
from app_pages.workbench import directml
from ops import DescriptorError, directml_status, schema
from ops.schema import OperatorSchema
from ui import handoff, say, url_state
from ui.say import Markdown, md
from ui.shared import Busy
from ui.toolbar import intro

DEFAULT_OPERATOR = "GEMM"
RAN = "catalogue_ran"  # session state: {operator: seconds its one-click run took on this page}


def filters() -> tuple[str, str]:
    """(search text, narrowing) from the widgets over the table."""
    left, right = st.columns([2, 3])
    query = url_state.widget(left.text_input, "Search an operator, a field or a tensor", "cat_q", "",
                             max_chars=work.MAX_QUERY_CHARS, placeholder="GEMM, Strides, FusedActivation ...")
    show = url_state.widget(right.radio, "Show", "cat_show", "all", options=list(work.SHOWN),
                            format_func=work.SHOWN.get, horizontal=True)
    return query, show


def overview(names: list[str]) -> None:
    rows = [row for row in work.overview_rows() if row["operator"] in set(names)]
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="cat_table", height=min(len(rows) + 1, 12) * 35 + 3,
                 column_config={"inputs": st.column_config.TextColumn(width="medium"),
                                "outputs": st.column_config.TextColumn(width="medium")})


def facts(op: OperatorSchema) -> None:
    page = next((p for p in PAGES if op.name in p.operators), None)
    modelled = (md("the core models it (page **{}**), and DirectML runs it too", page.title) if page
                else md("the core models it") if work.core_models(op.name)
                else md("the core does not model it: DirectML alone computes it"))
    twin = work.twin_tolerance(op.name)
    say.markdown(md("{:code}, DML_OPERATOR_TYPE {}, introduced in feature level **{}**{}; {}. ONNX twin: {}.",
                    op.desc_struct, op.code, op.level, md(", may run in place") if op.in_place else md(""), modelled,
                    md("yes, compared within the **{}** tolerance", twin) if twin else md("none")))


def why_not_here(op: OperatorSchema) -> Markdown | None:
    """Why DirectML cannot run the operator here (not set up, or a feature level past this build's), or None."""
    status = directml_status()
    if not status.available:
        return md("DirectML cannot run it here: {}", status.reason)
    supported = status.max_feature_level
    if supported is not None and work.above_level(op.level, supported):
        return md("This DirectML build supports feature levels up to {}; {} came in {}, so it cannot run here.",
                  supported, op.name, op.level)
    return None


def fields(op: OperatorSchema) -> None:
    rows = work.field_rows(op.name)
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="cat_fields", height=(len(rows) + 1) * 35 + 3)
    for enum in work.enums(op.name):
        flags = md(", flags combined by OR") if enum.flags else md("")
        with st.expander(md("{} ({} members{})", enum.name, len(enum.members), flags)):
            st.dataframe(pd.DataFrame([{"member": enum.prefix + name, "value": value} for name, value in enum.members]),
                         hide_index=True)


def run_on_directml(name: str, text: str) -> None:
    """The example's run on DirectML, drawn as the workbench draws a run; the seconds it took on this page."""
    started = time.monotonic()
    try:
        ran = directml.run_text(text)
    except (DescriptorError, Busy) as error:
        say.error(md("{} did not run on DirectML: {}", name, error))
        return
    took = st.session_state.setdefault(RAN, {}).setdefault(name, time.monotonic() - started)
    say.caption(md("Ran on DirectML in its worker process; this page had the answer in {:.2f} s (a run already made "
                   "for any visitor is shared).", took))
    directml.show_run(ran)


def example(op: OperatorSchema) -> None:
    text = work.example_text(op.name)
    say.markdown(md("##### Its minimal example"))
    say.caption(md("Generated from the schema (ops.catalogue): every field a value of its type, with the rules of "
                   "{:code} where DirectML needs more. {:,} characters of DxDispatch JSON.", "ops/catalogue/rules.py",
                   len(text)))
    left, right = st.columns(2)
    refusal = why_not_here(op)
    run = left.button("Run on DirectML", key="cat_run", type="primary", icon=":material/play_arrow:",
                      disabled=refusal is not None)
    if refusal is not None:
        say.info(refusal)
    if right.button("Open in the Descriptor workbench", key="cat_open", icon=":material/open_in_new:"):
        handoff.open_model(json.loads(text))
    with st.expander("The model (DxDispatch JSON)"):
        st.code(text, language="json")
    if run:
        st.session_state.setdefault(RAN, {}).pop(op.name, None)
        st.session_state["catalogue_shown"] = op.name
    if refusal is None and st.session_state.get("catalogue_shown") == op.name:
        run_on_directml(op.name, text)


def page() -> None:
    st.title("Operator catalogue")
    intro(md("Every operator of DirectML's schema ({} of them, from microsoft/DirectML at {:code}): its desc's fields "
             "with their kind, type and optionality, its enums, the feature level that introduced it and whether the "
             "core models it; its minimal example opens in the Descriptor workbench and runs on DirectML itself in "
             "one click, compared with its ONNX twin.", len(schema.SCHEMAS), schema.COMMIT[:7]))
    query, show = filters()
    names = work.shown_names(query, show)
    if not names:
        say.info(md("No operator matches {:code} ({}).", query, work.SHOWN[show]))
        return
    say.caption(md("{} of {} operators.", len(names), len(schema.SCHEMAS)))
    overview(names)
    chosen = url_state.widget(st.selectbox, "Operator", "cat_op",
                              DEFAULT_OPERATOR if DEFAULT_OPERATOR in names else names[0], options=names,
                              format_func=lambda name: f"DML_OPERATOR_{name}")
    op = schema.schema(chosen)
    say.subheader(md("DML_OPERATOR_{}", op.name))
    facts(op)
    fields(op)
    example(op)


page()
