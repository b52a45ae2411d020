"""The Elsewhere tab under every operator (Streamlit AppTest): the same call in every framework, generated from the
page's settings, each with the order its framework uses; the open tab is part of the URL."""

import numpy as np
import pytest

import ops
from ops.frameworks.snippets import FRAMEWORKS
from ops.operators.depth_space import depth_to_space
from ops.operators.depth_space.frameworks import ORDER_CONVENTIONS
from support.app import error_texts, run_through_app
from ui.panels import FRAMEWORK_TITLES

DS, OR, SJ = "app_pages/depth_space/page.py", "app_pages/bitwise/page.py", "app_pages/split_join/page.py"


def heading(framework):
    return f"**{FRAMEWORK_TITLES[framework]}**"


def shown_snippets(at):
    """{framework: code shown} for every framework heading on the page, in page order (one tab open)."""
    headings = [m.value for m in at.markdown if any(m.value.startswith(heading(f)) for f in FRAMEWORK_TITLES)]
    return headings, [c.value for c in at.code]


def expected(op, input_sizes, data_type, **settings):
    return ops.framework_snippets(op, input_sizes, data_type, **settings)


def codes_of(snippets):
    return [s.code.rstrip("\n") for s in snippets if s.code is not None]  # st.code drops the last newline


@pytest.mark.parametrize("order", ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"])
@pytest.mark.parametrize("direction, sizes", [("depth_to_space", (2, 18, 2, 3)), ("space_to_depth", (1, 2, 6, 3))])
def test_depth_page_shows_the_call_in_every_framework_with_its_order(direction, sizes, order):
    n, c, h, w = sizes
    at = run_through_app(DS, query={f"ds_{order}_tab": "Elsewhere"}, direction=direction, N=n, C=c, H=h, W=w,
                         BlockSize=3, Order=order, dtype="FLOAT16")
    assert not at.exception and not error_texts(at)
    op = "DEPTH_TO_SPACE1" if direction == "depth_to_space" else "SPACE_TO_DEPTH1"
    snippets = expected(op, sizes, "FLOAT16", block_size=3, order=order)
    headings, codes = shown_snippets(at)
    assert headings == [f"{heading(s.framework)}: {ORDER_CONVENTIONS[s.framework]}" for s in snippets]
    assert codes == codes_of(snippets)
    assert at.query_params[f"ds_{order}_tab"] == "Elsewhere"  # the open tab stays in the link


def test_depth_page_compare_gives_each_order_its_own_tab_and_snippets():
    at = run_through_app(DS, query={"ds_COLUMN_ROW_DEPTH_tab": "Elsewhere"}, Order="compare", dtype="INT8")
    assert not at.exception
    headings, codes = shown_snippets(at)
    # Only the COLUMN_ROW_DEPTH panels have Elsewhere open; the DCR ones still show Validation (a JSON code block).
    crd = codes_of(expected("DEPTH_TO_SPACE1", (1, 8, 2, 3), "INT8", block_size=2, order="CRD"))
    assert codes[-len(crd):] == crd and len(codes) == len(crd) + 1
    assert len(headings) == len(FRAMEWORKS)


def test_the_numpy_snippet_on_the_page_reproduces_the_page_output():
    at = run_through_app(DS, query={"ds_COLUMN_ROW_DEPTH_tab": "Elsewhere"}, Order="COLUMN_ROW_DEPTH",
                         dtype="UINT32", pattern="coded")
    _, codes = shown_snippets(at)
    namespace = {"x": ops.origin_coded_input((1, 8, 2, 3), "UINT32")}
    exec(codes[0], namespace)
    np.testing.assert_array_equal(namespace["y"], depth_to_space(namespace["x"], 2, "COLUMN_ROW_DEPTH"))


@pytest.mark.parametrize("dtype", ["FLOAT32", "UINT8"])
def test_bitwise_page_snippets_carry_b_broadcast(dtype):
    at = run_through_app(OR, query={"or_panels_tab": "Elsewhere"}, or_sizes="2,3,4", or_bcast="0,2", dtype=dtype)
    assert not at.exception and not error_texts(at)
    snippets = expected("ELEMENT_WISE_BIT_OR", (2, 3, 4), dtype, b_sizes=(1, 3, 1))
    headings, codes = shown_snippets(at)
    assert headings == [heading(s.framework) for s in snippets]  # no order to name for OR
    assert all(code in codes for code in codes_of(snippets))
    assert "0 strides" in snippets[-1].note and any("bTensorStrides[3] = {0, 1, 0}" in code for code in codes)
    # einops has no bitwise OR: the tab says so instead of showing code.
    assert any("no bitwise" in i.value for i in at.info)


def test_split_and_join_panels_each_show_their_snippets():
    at = run_through_app(SJ, query={"sj_split_panels_tab": "Elsewhere", "sj_join_panels_tab": "Elsewhere"},
                         dtype="INT16")
    assert not at.exception and not error_texts(at)
    split = expected("SPLIT", (1, 1, 6, 2), "INT16", axis=2, sizes=(2, 1, 3))
    join = expected("JOIN", [(1, 1, 2, 2), (1, 1, 1, 2), (1, 1, 3, 2)], "INT16", axis=2)
    headings, codes = shown_snippets(at)
    assert len(headings) == 2 * len(FRAMEWORKS)
    assert codes == codes_of(split) + codes_of(join)
    assert sum("unequal" in i.value for i in at.info) == 2  # einops splits and joins equal parts only


def test_invalid_settings_name_the_rule_in_the_elsewhere_tab_too():
    at = run_through_app(DS, query={"ds_DEPTH_COLUMN_ROW_tab": "Elsewhere"}, C=6)
    assert not at.exception
    assert any("not divisible" in e for e in error_texts(at))
    assert not shown_snippets(at)[1]


def test_a_tab_name_the_page_does_not_have_falls_back_with_a_note():
    at = run_through_app(OR, query={"or_panels_tab": "Elsewhere'; DROP"})
    assert not at.exception
    assert any("or_panels_tab" in w.value for w in at.warning)
    assert not shown_snippets(at)[0]
