"""Error states that help (AppTest through app.py): the rule, the nearest fixes as buttons that make the settings
valid, the last valid figure kept (greyed) beside the message, and the panels still there."""

import json

from conftest import click_button, error_texts, run_through_app

DEPTH = "app_pages/depth_space.py"
SPLIT = "app_pages/split_join.py"


def charts(at):
    return at.get("plotly_chart")


def captions(at):
    return " | ".join(str(c.value) for c in at.caption)


def fix_labels(at):
    return [b.label for b in at.button if b.key and "_fix_" in b.key]


def tab_labels(at):
    return [t.label for t in at.tabs]


def test_blocksize_that_does_not_divide_offers_the_nearest_fixes():
    at = run_through_app(DEPTH, C=16, H=2, W=2, BlockSize=3)
    assert any("16 is not divisible by BlockSize² = 9: use BlockSize 2 or 4, or C = 18" in e for e in error_texts(at))
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
