"""The overview page, the app's default page, run through app.py (AppTest)."""

import pytest

from support.app import chart_figures, run_through_app
from support.figures import row_zero_on_top


@pytest.fixture
def app():
    return run_through_app()


def test_overview_is_the_default_page_and_runs_clean(app):
    assert not app.exception
    assert not app.error
    assert app.title[0].value == "DirectML operator visualizer"
    subheaders = " ".join(s.value for s in app.subheader)
    for name in ("DML_DEPTH_TO_SPACE1", "DML_SPACE_TO_DEPTH1", "DML_ELEMENT_WISE_BIT_OR", "DML_SPLIT", "DML_JOIN",
                 "DML_GATHER", "SCATTER_ND", "ONE_HOT", "DML_SLICE1", "PADDING1", "REVERSE_SUBSEQUENCES"):
        assert name in subheaders


def test_each_installed_operator_page_has_a_picture(app):
    charts = chart_figures(app)
    assert len(charts) == 6
    depth = next(c for c in charts if c["layout"].get("meta", {}).get("operator") == "DEPTH_TO_SPACE1")
    assert row_zero_on_top(depth["layout"]["yaxis"])


def test_the_facts_match_the_spec(app):
    text = " ".join(m.value for m in app.markdown)
    assert "{N, C/BlockSize², H·BlockSize, W·BlockSize}" in text
    assert "0x7F800000 = +inf" in text
    assert "Feature level 2_1" in text and "3_0" in text


@pytest.mark.parametrize("label, expected", [
    ("Seed example, both orders", dict(direction="depth_to_space", C=8, H=2, W=3, BlockSize=2, Order="compare")),
    ("Space → depth, BlockSize 3", dict(direction="space_to_depth", C=2, H=6, W=6, BlockSize=3, Order="compare")),
])
def test_preset_buttons_open_the_depth_page_with_the_preset(app, label, expected):
    app.session_state["dtype"] = "FLOAT16"  # the preset must reset the sidebar too
    app.run()
    next(b for b in app.button if b.label == label).click()
    app.run()
    assert not app.exception, app.exception
    assert app.title[0].value == "Depth ↔ Space"
    widgets = {w.key: w.value for w in [*app.number_input, *app.radio] if w.key in expected}
    assert widgets == expected
    assert app.session_state["dtype"] == "UINT32"
    charts = chart_figures(app)
    assert [c["layout"]["meta"]["order"] for c in charts] == ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"]


@pytest.mark.parametrize("label, page_title_word, state", [
    ("FLOAT32 1.0 | 2.0 = +inf", "OR", dict(dtype="FLOAT32", or_b_text="2.0")),
    ("Seed: Axis 3 into two {1,1,6,1}", "Split", dict(sj_axis=3, sj_sizes="1,1,6,2")),
])
def test_presets_for_the_other_pages_land_there_with_their_settings(app, label, page_title_word, state):
    if not any(b.label == label for b in app.button):
        pytest.skip("that page is not installed")
    next(b for b in app.button if b.label == label).click()
    app.run()
    assert not app.exception, app.exception
    assert page_title_word in app.title[0].value
    assert {k: app.session_state[k] for k in state} == state


def test_layouts_preset_opens_the_nhwc_copy(app):
    next(b for b in app.button if b.label == "NCHW → NHWC").click()
    app.run()
    assert not app.exception, app.exception
    assert app.title[0].value == "Layouts"
    assert app.text_input(key="ly_out_strides").value == "24,1,12,3"
    assert any("byte-identical" in s.value for s in app.success)
