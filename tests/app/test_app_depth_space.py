"""The Depth <-> Space page run through app.py as a user reaches it (AppTest), with good and hostile settings."""

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from ops import run_model
from support.app import chart_figures, click_chart, error_texts, run_through_app, shown
from support.figures import row_zero_on_top
from ui.shared import wait_for_background
from viz.depth_space_fig import OUTPUT_POSITION, Column

PAGE = "app_pages/depth_space/page.py"

# SPEC section 2, the seed's worked example (input UINT32 {1,8,2,3}, value 9c + 3h + w, BlockSize 2).
SEED_DCR = np.array([
    [[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56], [3, 21, 4, 22, 5, 23], [39, 57, 40, 58, 41, 59]],
    [[9, 27, 10, 28, 11, 29], [45, 63, 46, 64, 47, 65], [12, 30, 13, 31, 14, 32], [48, 66, 49, 67, 50, 68]],
])
SEED_CRD = np.array([
    [[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29], [3, 12, 4, 13, 5, 14], [21, 30, 22, 31, 23, 32]],
    [[36, 45, 37, 46, 38, 47], [54, 63, 55, 64, 56, 65], [39, 48, 40, 49, 41, 50], [57, 66, 58, 67, 59, 68]],
])


def run_page(**state):
    return run_through_app(PAGE, **state)


def figures(at):
    return chart_figures(at)


def output_points(fig):
    return next(t for t in fig["data"] if t.get("type") == "scatter" and t.get("name") == "output")


def drawn_output(fig):
    """The output tensor as the figure shows it: hover data of the output cells (position, value label)."""
    points = output_points(fig)
    custom = decode(points["customdata"])
    shape = tuple(int(size) + 1 for size in custom[:, OUTPUT_POSITION].max(axis=0))
    out = np.full(shape, -1)
    for row, label in zip(custom, points["text"]):
        out[tuple(row[OUTPUT_POSITION])] = int(label)
    return out


def decode(array):
    """Plotly ships numeric arrays as {dtype, bdata, shape}; lists stay lists."""
    if isinstance(array, dict):
        import base64
        flat = np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
        shape = [int(s) for s in str(array.get("shape", len(flat))).split(",")]
        return flat.reshape(shape)
    return np.array(array)


def texts(elements):
    return " | ".join(str(e.value) for e in elements)


def picked(at):
    """The caption that says where the picked element goes."""
    return " | ".join(shown(c.value) for c in at.caption if c.value.startswith("Picked"))


def test_defaults_run_clean_and_draw_the_seed_dcr_output():
    at = run_page()
    assert not at.exception
    assert not at.error, texts(at.error)
    [fig] = figures(at)
    assert fig["layout"]["meta"]["operator"] == "DEPTH_TO_SPACE1"
    np.testing.assert_array_equal(drawn_output(fig)[0], SEED_DCR)
    assert any("Valid at DML_FEATURE_LEVEL_6_4" in s.value for s in at.success)
    # The one-line verdict fills in when the cross-check, started beside the page, has answered.
    wait_for_background(timeout=120)
    at.run()
    assert any("bit for bit equal to the reference core" in c.value for c in at.caption), texts(at.caption)
    at = run_page(ds_DEPTH_COLUMN_ROW_tab="Cross-check")
    assert any("Match on" in s.value for s in at.success), texts(at.info)


@pytest.mark.parametrize("label, expected", [
    ("Seed example, DEPTH_COLUMN_ROW", {"DEPTH_COLUMN_ROW": SEED_DCR}),
    ("Seed example, COLUMN_ROW_DEPTH", {"COLUMN_ROW_DEPTH": SEED_CRD}),
    ("Seed example, both orders", {"DEPTH_COLUMN_ROW": SEED_DCR, "COLUMN_ROW_DEPTH": SEED_CRD}),
])
def test_seed_presets_reproduce_the_seed_outputs(label, expected):
    # Start from other settings, so the preset has to set every one of them.
    at = run_page(N=2, C=4, H=3, W=3, BlockSize=1, dtype="FLOAT16", pattern="random")
    next(b for b in at.button if b.label == label).click()
    at.run()
    assert not at.exception and not at.error, texts(at.error)
    assert at.session_state["dtype"] == "UINT32" and at.session_state["pattern"] == "coded"
    drawn = {f["layout"]["meta"]["order"]: drawn_output(f)[0] for f in figures(at)}
    assert drawn.keys() == expected.keys()
    for order, array in expected.items():
        np.testing.assert_array_equal(drawn[order], array)


def test_space_to_depth_inverts_the_seed_output():
    """SPACE_TO_DEPTH1 of the seed's DCR output gives back 9c + 3h + w, read from the drawn output cells."""
    at = run_page(direction="space_to_depth", C=2, H=4, W=6, pattern="custom",
                  values=" ".join(str(v) for v in SEED_DCR.ravel()))
    assert not at.exception and not at.error, texts(at.error)
    [fig] = figures(at)
    c, h, w = np.indices((8, 2, 3))
    np.testing.assert_array_equal(drawn_output(fig)[0], 9 * c + 3 * h + w)


HOSTILE = [
    (dict(C=6), "BlockSize 2"),  # 6 channels not divisible by 4
    (dict(BlockSize=0), "BlockSize"),
    (dict(H=0), "size of 0"),
    (dict(N=4096, C=4096, H=64, W=64), "exceed the cap"),
    (dict(pattern="custom", values="1 2 three"), "Values"),
    (dict(direction="space_to_depth", H=3), "height 3"),
]


@pytest.mark.parametrize("state, field", HOSTILE, ids=[f"{i}" for i in range(len(HOSTILE))])
def test_hostile_settings_show_an_error_naming_the_field(state, field):
    at = run_page(**state)
    assert not at.exception
    assert field in texts(at.error), texts(at.error)
    assert not figures(at)
    assert any(tab.label == "Validation" for tab in at.tabs)


def test_validation_panel_lists_descriptor_problems_for_an_invalid_call():
    at = run_page(C=6)
    errors = texts(at.error)
    assert "desc." in errors  # validate() problems start with their JSON path
    assert not at.success


def test_float64_at_level_4_1_is_flagged_on_the_data_type():
    at = run_page(dtype="FLOAT64", level="4_1")
    assert not at.exception
    errors = texts(at.error)
    assert "DataType" in errors and "FLOAT64" in errors, errors
    assert "DataType" in texts(at.warning)
    assert figures(at), "the core still computes a FLOAT64 call; only the descriptor is invalid at 4_1"


def test_level_before_2_1_says_the_operator_does_not_exist():
    at = run_page(level="2_0")
    assert "introduced at 2_1" in texts(at.warning)


def test_figure_json_conventions():
    at = run_page()
    [fig] = figures(at)
    layout = fig["layout"]
    assert row_zero_on_top(layout["yaxis"])
    assert layout["yaxis"]["scaleanchor"] == "x"
    assert 1 <= len(fig["frames"]) <= 64
    assert [b["label"] for b in layout["updatemenus"][0]["buttons"]] == ["Play", "Pause"]
    assert len(layout["sliders"][0]["steps"]) == len(fig["frames"])
    assert "plot_bgcolor" not in layout and "paper_bgcolor" not in layout


def test_picked_cell_is_highlighted_with_its_destination():
    pick = 1 * 6 + 1 * 3 + 2  # input element (0, 1, 1, 2), value 9 + 3 + 2 = 14
    at = run_page(ds_pick=pick)
    [fig] = figures(at)
    names = {s.get("name") for s in fig["layout"]["shapes"]}
    assert {"pick-source", "pick-destination"} <= names
    assert "(0, 1, 1, 2)" in picked(at)
    # The destination is where the seed's DCR output holds the value 14.
    where = tuple(int(i) for i in np.argwhere(SEED_DCR == 14)[0])
    assert f"(0, {where[0]}, {where[1]}, {where[2]})" in picked(at)


def test_a_click_on_an_input_cell_picks_it_and_lands_in_the_link():
    at = run_page()
    [fig] = figures(at)
    assert not {s.get("name") for s in fig["layout"].get("shapes", [])} & {"pick-source", "pick-destination"}
    inputs = next(t for t in fig["data"] if t.get("type") == "scatter" and t.get("name") == "input")
    row = next(r for r in decode(inputs["customdata"]).tolist() if r[Column.IN_FLAT] == 14)  # element (0, 2, 0, 2)
    click_chart(at, "ds_chart_DEPTH_COLUMN_ROW", [{"curve_number": fig["data"].index(inputs), "customdata": row}])
    assert not at.exception
    assert at.query_params["ds_pick"] in ("14", ["14"])
    [fig] = figures(at)
    assert {"pick-source", "pick-destination"} <= {s.get("name") for s in fig["layout"]["shapes"]}
    assert "input (0, 2, 0, 2) (flat 14)" in picked(at)


def test_a_tensor_over_the_drawing_cap_is_drawn_in_part_and_the_part_can_be_chosen():
    at = run_page(N=2, C=64, H=32, W=32, BlockSize=4)
    assert not at.exception and not at.error, texts(at.error)
    [fig] = figures(at)
    assert fig["layout"]["meta"]["cells"] <= 4096
    assert any("Drawn:" in c.value for c in at.caption)
    at.number_input(key="ds_batch").set_value(1)
    at.number_input(key="ds_channel").set_value(3)
    at.run()
    [fig] = figures(at)
    custom = decode(output_points(fig)["customdata"])
    assert set(custom[:, Column.OUT_N].tolist()) == {1}
    assert custom[:, Column.OUT_C].min() == 3  # first output channel drawn


def test_compare_mode_draws_both_orders_and_panels_for_each():
    at = run_page(Order="compare")
    assert not at.exception and not at.error
    assert [f["layout"]["meta"]["order"] for f in figures(at)] == ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"]
    assert sum(1 for t in at.tabs if t.label == "Validation") == 2


def test_exported_model_reproduces_the_page_output():
    at = run_page(Order="COLUMN_ROW_DEPTH", ds_COLUMN_ROW_DEPTH_tab="Export")
    model = next(json.loads(c.value) for c in at.code if c.language == "json" and '"resources"' in c.value)
    buffers = run_model(model)
    np.testing.assert_array_equal(buffers["output"], SEED_CRD.ravel())
    assert any("DML_DEPTH_TO_SPACE1_OPERATOR_DESC" in c.value for c in at.code if c.language == "cpp")


def _mismatch_script():
    import numpy as np

    from ops import CrossCheckReport
    from ui.panels import mismatch_view
    from ui.work import summarize

    expected = np.arange(6, dtype=np.float32).reshape(2, 3)
    actual = expected.copy()
    actual[0, 1], actual[1, 2] = 7, np.nan
    mismatch_view(summarize(CrossCheckReport("DEPTH_TO_SPACE1", "CPUExecutionProvider", True, False, [expected],
                                             [actual], "note", (0, (0, 1)))))


def test_mismatch_view_shows_the_first_difference_and_a_table_of_differences():
    at = AppTest.from_function(_mismatch_script)
    at.run()
    assert not at.exception, at.exception
    assert "index (0, 1)" in texts(at.markdown)
    table = at.dataframe[0].value
    assert table["index"].tolist() == ["(0, 1)", "(1, 2)"]
    assert table["actual (provider)"].tolist() == ["7.0", "nan"]
    assert "2 of 6 elements differ" in texts(at.caption)


def test_cross_check_panel_says_why_when_the_provider_is_unavailable(monkeypatch):
    from ops import CrossCheckReport
    from ui import shared, work

    def unavailable(op, inputs, **attrs):
        return CrossCheckReport(op, "DmlExecutionProvider", False, False, [], [],
                                "DmlExecutionProvider is not available here (CPUExecutionProvider is).")

    monkeypatch.setattr(work, "cross_check", unavailable)
    shared.reset()  # the shared cache may hold the default view's real report from an earlier test
    at = run_page(ds_DEPTH_COLUMN_ROW_tab="Cross-check")
    shared.reset()
    assert not at.exception
    assert "DmlExecutionProvider is not available here" in texts(at.info)


def test_open_in_workbench_hands_over_the_exported_model():
    at = run_page(Order="COLUMN_ROW_DEPTH", ds_COLUMN_ROW_DEPTH_tab="Export")
    at.button(key="ds_COLUMN_ROW_DEPTH_workbench").click()
    at.run()
    assert not at.exception, at.exception
    model = json.loads(at.session_state["wb_text"])  # the workbench takes "workbench_model" into its editor
    np.testing.assert_array_equal(run_model(model)["output"], SEED_CRD.ravel())
    assert "workbench" in at.title[0].value.lower()


def test_the_app_refuses_tensors_over_its_own_cap_of_2_to_the_24():
    at = run_page(N=1, C=64, H=1024, W=512)  # 2^25 elements: within the core's default cap, over the app's
    assert not at.exception
    assert any("33,554,432 elements exceed the cap of 16,777,216" in text for text in error_texts(at)), texts(at.error)
