"""What the operators do, a small picture of each, and ways into each page with a telling preset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from app_pages.overview.section import Section
from app_pages.registry import CONVERTER, DETECTIVE, ONNX_MODEL, PAGES, Page
from ui import charts, say, url_state
from ui.say import md

GOTO = "overview_goto"


def choose_preset(page: str, values: Mapping[str, Any]) -> None:
    """Button callback: the target page's settings travel as the query of the switch, so the page opens from its
    URL exactly as a shared link would (st.switch_page cannot be called from a callback: the next run does it)."""
    st.session_state[GOTO] = (page, url_state.query_of(values))


def section(page: Page, shown: Section, index: int) -> None:
    """An operator page's section `shown` (its folder declares it): the picture first and across the page (in a column
    beside the text it was 280 px wide in an 800 px window, too narrow for its cell labels), what the operators do,
    a link to the page and its telling presets."""
    say.subheader(shown.title)
    charts.show(shown.picture(), f"overview_fig_{index}", f"overview_{index + 1}", shown.title)
    say.markdown(shown.text)
    st.page_link(page.path, label="Open the page", icon=":material/arrow_forward:")
    for number, (label, values) in enumerate(shown.presets):
        st.button(say.plain(label), key=f"overview_{index}_{number}", icon=":material/play_arrow:",
                  on_click=choose_preset, args=(page.path, values))


if GOTO in st.session_state:
    page, params = st.session_state.pop(GOTO)
    st.switch_page(page, query_params=params)
st.title("DirectML operator visualizer")
# Counted from the pages' operators, so that the number follows the registry (the README names them instead).
shown = sorted({name for page in PAGES for name in page.operators})
say.markdown(md(
    "{} DirectML tensor operators ({}), computed by a pure-numpy reference core with DirectML's exact rules, drawn "
    "cell by cell, validated against the feature-level support tables, cross-checked on DirectML itself where it "
    "can run here and on ONNX Runtime, and exported as DxDispatch JSON or C++. The sidebar holds the settings the "
    "operator pages share (DataType, feature level, value pattern); every setting is in the URL, so a link "
    "reproduces a view.", len(shown), ", ".join(shown)))
for i, (page, declared) in enumerate((page, page.overview) for page in PAGES if page.overview is not None):
    section(page, declared, i)
st.subheader("Between frameworks: DCR ↔ CRD")
st.markdown(
    "PyTorch's pixel_shuffle is COLUMN_ROW_DEPTH, TensorFlow's depth_to_space and ONNX's SpaceToDepth are "
    "DEPTH_COLUMN_ROW: mixing them up in a conversion scrambles the channels. The converter gives the channel "
    "permutation that turns one into the other, and how to fold it into the convolution before; each operator "
    "page's Elsewhere tab gives the same call in numpy, einops, ONNX, PyTorch and TensorFlow."
)
st.page_link(CONVERTER.path, label="Open the DCR ↔ CRD converter", icon=":material/swap_horiz:")

st.subheader("Bring your own operator or model")
st.markdown(
    "The **layout detective** takes what your framework made of an origin-coded input and names the descriptor that "
    "does the same, or the channel permutation that is missing; **Open an ONNX model** lists a model's depth/space, "
    "bitwise, split and concat nodes with their settings and flags the risky ones."
)
links = st.container(horizontal=True, wrap=True)
links.page_link(DETECTIVE.path, label="The layout detective", icon=":material/search:")
links.page_link(DETECTIVE.path, label="A DCR/CRD mix-up, found", icon=":material/play_arrow:",
                query_params={"dt_example": "mixed_up"})
links.page_link(ONNX_MODEL.path, label="Open an ONNX model", icon=":material/account_tree:")
