"""Error states that help (AppTest through app.py): the rule, the nearest fixes as buttons that make the settings
valid, the last valid figure kept (greyed) beside the message, and the panels still there."""

import json

import pytest

from support.app import chart_figures, charts, click_button, error_texts, run_through_app, shown
from ui.sidebar import DEFAULTS as SHARED

DEPTH = "app_pages/depth_space/page.py"
SPLIT = "app_pages/split_join/page.py"


def captions(at):
    return " | ".join(str(c.value) for c in at.caption)


def fix_labels(at):
    return [b.label for b in at.button if b.key and "_fix_" in b.key]


def tab_labels(at):
    return [t.label for t in at.tabs]


def test_blocksize_that_does_not_divide_offers_the_nearest_fixes():
    at = run_through_app(DEPTH, C=16, H=2, W=2, BlockSize=3)
    assert any("channel count 16 is not divisible" in e and "Nearest valid settings: use BlockSize 2 or 4, or C = 18."
               in e for e in error_texts(at))
    assert fix_labels(at) == ["BlockSize 2", "BlockSize 4", "C = 18"]
    assert "Validation" in tab_labels(at) and "Export" in tab_labels(at)
    click_button(at, "BlockSize 4")
    assert not error_texts(at)
    assert at.number_input(key="BlockSize").value == 4
    assert len(charts(at)) == 1
    assert at.query_params["BlockSize"] in ("4", ["4"])  # the fix lands in the link


def test_channel_fix_makes_the_settings_valid():
    at = run_through_app(DEPTH, C=16, H=2, W=2, BlockSize=3)
    click_button(at, "C = 18")
    assert not error_texts(at)
    assert at.number_input(key="C").value == 18


def test_last_valid_figure_stays_greyed_beside_the_message():
    at = run_through_app(DEPTH)
    assert len(charts(at)) == 1 and "Last valid view" not in captions(at)
    at.number_input(key="BlockSize").set_value(3).run()
    assert error_texts(at)
    assert "Last valid view" in captions(at)
    kept = charts(at)
    assert len(kept) == 1 and kept[0].key == "ds_last_valid_DEPTH_COLUMN_ROW"
    assert at.html and any("greyed" in h.value for h in at.html)
    click_button(at, "BlockSize 2")
    assert not error_texts(at) and "Last valid view" not in captions(at)


def test_negative_size_is_named_and_fixed():
    at = run_through_app(DEPTH, C=-4)
    assert any("C = -4" in e for e in error_texts(at))
    click_button(at, "C = 1")
    assert at.number_input(key="C").value == 1


def test_space_to_depth_fix_rounds_height_and_width():
    at = run_through_app(DEPTH, direction="space_to_depth", C=2, H=3, W=5, BlockSize=2)
    assert "H = 4, W = 6" in fix_labels(at)
    click_button(at, "H = 4, W = 6")
    assert not error_texts(at)


def test_switching_direction_carries_the_output_shape_over():
    at = run_through_app(DEPTH)  # {1,8,2,3}, BlockSize 2, DEPTH_TO_SPACE1
    at.radio(key="direction").set_value("space_to_depth").run()
    assert [at.number_input(key=k).value for k in "NCHW"] == [1, 2, 4, 6]
    assert not error_texts(at)
    at.radio(key="direction").set_value("depth_to_space").run()
    assert [at.number_input(key=k).value for k in "NCHW"] == [1, 8, 2, 3]


def test_descriptor_invents_no_output_shape():
    at = run_through_app(DEPTH, C=16, H=4, W=4, BlockSize=3)
    descriptor = json.loads(next(c.value for c in at.code if '"InputTensor"' in c.value))
    assert "OutputTensor" not in descriptor["desc"]
    assert "OutputTensor is left out" in captions(at)
    # validate still names the rule, with its path
    assert any("desc.BlockSize" in e and "not divisible" in e for e in error_texts(at))


def test_split_sum_keeps_panels_and_offers_fixes():
    at = run_through_app(SPLIT, sj_split="2,1,4")
    errors = error_texts(at)
    assert any("2 + 1 + 4 = 7" in e and "use output sizes 2,1,3, or input Sizes 1,1,7,2" in e for e in errors)
    assert tab_labels(at).count("Validation") == 2 and tab_labels(at).count("Export") == 2  # SPLIT and JOIN
    assert any("they must sum exactly" in e for e in errors)  # the Validation tab names the rule with its path
    click_button(at, "output sizes 2,1,3")
    assert not error_texts(at)
    assert at.text_input(key="sj_split").value == "2,1,3"


def test_split_sum_fix_can_grow_the_input():
    at = run_through_app(SPLIT, sj_split="2,1,4")
    click_button(at, "input Sizes 1,1,7,2")
    assert not error_texts(at)
    assert at.text_input(key="sj_sizes").value == "1,1,7,2"


def test_split_error_keeps_the_last_valid_figure():
    at = run_through_app(SPLIT)
    at.text_input(key="sj_split").set_value("2,1,4").run()
    assert "Last valid view" in captions(at)
    assert [c.key for c in charts(at)] == ["sj_last_valid"]


def test_even_split_and_axis_fixes():
    at = run_through_app(SPLIT, sj_mode="even", sj_parts=4)
    assert fix_labels(at)[:2] == ["Parts K = 3", "Parts K = 6"]
    click_button(at, "Parts K = 3")
    assert not error_texts(at) and at.number_input(key="sj_parts").value == 3
    at = run_through_app(SPLIT, sj_sizes="1,1,2,6", sj_axis=7)
    click_button(at, "Axis 3")
    assert not error_texts(at) and at.number_input(key="sj_axis").value == 3


def join_trace_names(at):
    figure = chart_figures(at)[0]
    return [t["name"] for t in figure["data"] if t.get("type") == "heatmap"]


def test_join_from_its_own_inputs():
    at = run_through_app(SPLIT, sj_op="join", sj_sizes="2,5,3", sj_axis=1, sj_inputs=2, sj_join="1,3")
    assert not error_texts(at)
    assert any("InputCount 2: [0] [2, 1, 3], [1] [2, 3, 3] → OutputTensor [2, 4, 3]" in shown(m.value)
               for m in at.markdown)
    assert join_trace_names(at) == ["OutputTensor", "InputTensors[0]", "InputTensors[1]"]
    assert [s.value for s in at.subheader] == ["JOIN"]  # no SPLIT panels: JOIN stands alone
    descriptor = json.loads(next(c.value for c in at.code if '"InputTensors"' in c.value))
    assert [t["Sizes"] for t in descriptor["desc"]["InputTensors"]] == [[2, 1, 3], [2, 3, 3]]
    assert descriptor["desc"]["OutputTensor"]["Sizes"] == [2, 4, 3]
    at.number_input(key="sj_inputs").set_value(3).run()
    assert at.text_input(key="sj_join").value == "1,3,1"
    assert any("→ OutputTensor [2, 5, 3]" in shown(m.value) for m in at.markdown)
    assert at.query_params["sj_join"] in ("1,3,1", ["1,3,1"])  # bound to the link


def test_join_count_mismatch_offers_both_fixes():
    at = run_through_app(SPLIT, sj_op="join", sj_inputs=2, sj_join="2,1,3")
    assert fix_labels(at) == ["3 inputs", "sizes along Axis 2,1"]
    click_button(at, "sizes along Axis 2,1")
    assert not error_texts(at)
    assert any("→ OutputTensor [1, 1, 3, 2]" in shown(m.value) for m in at.markdown)


def warnings(at):
    return [shown(w.value) for w in at.warning]


def test_out_of_range_typed_value_says_what_it_became():
    at = run_through_app("app_pages/bitwise/page.py", dtype="FLOAT32", pattern="custom", values="1e40 1 1e-50",
                         or_sizes="3")
    notes = " ".join(warnings(at))
    assert "Values[0] 1e40 became +inf: FLOAT32's largest finite value is 3.4028235e+38 (overflow)" in notes
    assert "Values[2] 1e-50 became 0" in notes and "(underflow)" in notes
    assert not error_texts(at) and not at.exception


def test_out_of_range_typed_b_value_is_named_on_the_bitwise_page():
    at = run_through_app("app_pages/bitwise/page.py", dtype="FLOAT16", or_sizes="1", or_b_source="typed",
                         or_b_text="70000")
    assert any("B typed values[0] 70000 became +inf: FLOAT16's largest finite value is 65504 (overflow)" in w
               for w in warnings(at)), warnings(at)


def test_values_that_fit_get_no_note():
    at = run_through_app("app_pages/bitwise/page.py", dtype="FLOAT32", pattern="custom", values="1e38 -0 1e-45 inf",
                         or_sizes="4")
    assert not [w for w in warnings(at) if "became" in w]


def sidebar_labels(at):
    """Labels of the shared settings the sidebar shows (the page's own groups sit there too, beside the figure)."""
    return [w.label for kind in ("selectbox", "number_input", "text_area") for w in at.sidebar.get(kind)
            if w.key in SHARED]


def test_sidebar_shows_only_what_the_page_reads():
    assert sidebar_labels(run_through_app(DEPTH)) == ["DataType", "Feature level", "Values"]
    workbench = run_through_app("app_pages/workbench/page.py", dtype="FLOAT16")
    assert sidebar_labels(workbench) == ["Feature level"]
    assert "dtype" not in workbench.query_params  # a setting the page does not read stays out of its link
    assert sidebar_labels(run_through_app()) == []  # the Overview reads none


@pytest.mark.parametrize("page, settings", [
    (DEPTH, dict(BlockSize=-2)),
    (DEPTH, dict(N=0, C=-3, BlockSize=0)),
    (DEPTH, dict(direction="space_to_depth", H=-1, BlockSize=3)),
    (SPLIT, dict(sj_op="join", sj_inputs=0)),
    (SPLIT, dict(sj_op="join", sj_inputs=-2, sj_join="1,1")),
    (SPLIT, dict(sj_op="join", sj_join="2,x")),
    (SPLIT, dict(sj_op="join", sj_join="0,2", sj_inputs=2)),
    (SPLIT, dict(sj_op="join", sj_axis=9)),
])
def test_hostile_settings_name_the_rule_and_raise_nothing(page, settings):
    at = run_through_app(page, **settings)
    assert not at.exception, at.exception
    assert error_texts(at)
    for label in fix_labels(at):  # every offered fix leads to settings the page accepts, or to the next rule
        fixed = run_through_app(page, **settings)
        click_button(fixed, label)
        assert not fixed.exception, (label, fixed.exception)


@pytest.mark.parametrize("page", [DEPTH, SPLIT, "app_pages/bitwise/page.py"])
def test_the_cpp_on_screen_is_a_download_too(page):
    at = run_through_app(page, query={"ds_DEPTH_COLUMN_ROW_tab": "Export", "sj_split_panels_tab": "Export",
                                      "or_panels_tab": "Export"})
    assert "Download the C++" in [b.proto.label for b in at.get("download_button")]


def test_a_workbench_link_opens_the_tab_it_was_made_on():
    at = run_through_app("app_pages/workbench/page.py", query={"wb_tab": "Tensor descriptors"})
    assert not at.exception
    assert at.session_state["wb_tab"] == "Tensor descriptors" and at.query_params["wb_tab"] in (
        "Tensor descriptors", ["Tensor descriptors"])


def test_a_values_error_on_bitwise_or_names_the_operand_and_offers_sizes_that_hold_them():
    at = run_through_app("app_pages/bitwise/page.py", dtype="UINT32", pattern="custom", values="1", or_sizes="4")
    [error] = error_texts(at)
    assert error.startswith("A's values (Values, in the sidebar): 1 values given, but Sizes [4] hold 4")
    at = run_through_app("app_pages/bitwise/page.py", dtype="UINT32", or_sizes="4", or_b_source="typed",
                         or_b_text="1 2")
    [error] = error_texts(at)
    assert error.startswith("B typed values: 2 values given")
    click_button(at, "B from the pattern")
    assert not error_texts(at) and chart_figures(at)
