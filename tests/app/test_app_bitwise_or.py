"""The Bitwise OR page run through app.py as a user sees it (Streamlit AppTest)."""

import json

import numpy as np
import pytest

from support.app import chart_figures, click_button, click_chart, error_texts, run_through_app
from support.figures import bits_of, plotly_array
from viz.bitwise_fig import Column, Trace

PAGE = "app_pages/bitwise/page.py"


@pytest.fixture
def at():
    app = run_through_app(PAGE)
    assert not app.exception
    return app


def table(app):
    return app.dataframe[0].value


def chart(app):
    return chart_figures(app)[0]


def test_defaults_are_clean(at):
    assert not error_texts(at)
    assert table(at).shape[0] == 6  # Sizes 2,3
    assert any("Valid at DML_FEATURE_LEVEL" in s.value for s in at.success)


def test_preset_one_or_two_is_plus_inf(at):
    click_button(at, "float32 1.0 | 2.0")
    assert not at.exception and not error_texts(at)
    row = table(at).iloc[0]
    assert (row["A bits"], row["B bits"], row["Output bits"]) == ("0x3F800000", "0x40000000", "0x7F800000")
    assert row["Output class"] == "+inf"
    output = bits_of(chart(at)["data"][Trace.OUTPUT]["z"])[0]
    assert output.tolist() == [int(c) for c in f"{0x7F800000:032b}"]


def test_preset_uint8_mask_broadcasts_with_zero_strides(at):
    click_button(at, "uint8 mask")
    assert not at.exception and not error_texts(at)
    a = [0x00, 0x0F, 0x30, 0x55, 0x7F, 0x80, 0xA5, 0xFF]
    assert table(at)["Output value"].astype(int).tolist() == [v | 0x80 for v in a]
    descs = json.loads(next(c.value for c in at.code if "BTensor" in c.value and "Strides" in c.value))
    assert descs["BTensor"]["Strides"] == [0, 0]
    assert descs["BTensor"]["Sizes"] == [2, 4]
    bindings = json.loads(next(c.value for c in at.code if '"bindings"' in c.value))["bindings"]
    assert bindings["OutputTensor"] == "A"  # the preset runs in place


def test_preset_nan_payload(at):
    click_button(at, "NaN payload")
    rows = table(at)
    assert rows["Output bits"].tolist() == ["0x7F800001", "0x7FC01234", "0x7F800000"]
    assert rows["Output class"].tolist() == ["sNaN", "qNaN", "+inf"]


def test_broadcast_along_dim_zero_repeats_b(at):
    at.text_input(key="or_bcast").set_value("0").run()
    assert not error_texts(at)
    descs = json.loads(next(c.value for c in at.code if "Strides" in c.value))
    assert descs["BTensor"]["Strides"] == [0, 1]
    rows = table(at)
    assert rows["B bits"].tolist()[:3] == rows["B bits"].tolist()[3:]


@pytest.mark.parametrize("key, value, field", [
    ("or_sizes", "2,a", "Sizes"),
    ("or_sizes", "2;3.5", "Sizes"),
    ("or_sizes", "", "Sizes"),
    ("or_sizes", "2,0", "Sizes"),
    ("or_sizes", "1,1,1,1,1,1,1,1,2", "Sizes"),
    ("or_sizes", "8192,8193", "Sizes"),  # over the 2^26 element cap: refused before allocating
    ("or_bcast", "5", "Broadcast dims"),
    ("or_bcast", "zero", "Broadcast dims"),
])
def test_hostile_text_inputs_name_the_field(at, key, value, field):
    at.text_input(key=key).set_value(value).run()
    assert not at.exception
    assert any(field in e for e in error_texts(at)), error_texts(at)


# AppTest does not list the sidebar's widgets after switch_page, so sidebar settings go through session state.
def test_garbage_pasted_values_name_the_field(at):
    at.session_state["pattern"] = "custom"
    at.session_state["values"] = "1 2 3 zz 5 6"
    at.run()
    assert not at.exception
    assert any("Values" in e for e in error_texts(at)), error_texts(at)


def test_garbage_b_values_name_the_field(at):
    at.radio(key="or_b_source").set_value("typed").run()
    at.text_area(key="or_b_text").set_value("1 2").run()
    assert not at.exception
    assert any("B typed values" in e for e in error_texts(at)), error_texts(at)


def test_float_at_level_3_0_is_refused_by_validation(at):
    at.session_state["dtype"] = "FLOAT32"
    at.session_state["level"] = "3_0"
    at.run()
    assert not at.exception
    assert any("DataType" in e for e in error_texts(at)), error_texts(at)


def test_in_place_is_explained(at):
    at.checkbox(key="or_inplace").check().run()
    assert any("In place" in m.value for m in at.markdown)
    assert "in place" in chart(at)["layout"]["annotations"][2]["text"]


def test_draw_window_follows_inputs(at):
    at.text_input(key="or_sizes").set_value("100").run()
    at.number_input(key="or_first").set_value(40).run()
    at.number_input(key="or_rows").set_value(3).run()
    assert table(at)["element"].tolist() == [40, 41, 42]
    assert any("Drawing elements 40 to 42 of 100" in c.value for c in at.caption)
    assert np.asarray(bits_of(chart(at)["data"][0]["z"])).shape == (3, 32)


def pick_shapes(app):
    return {s["name"]: s for s in chart(app)["layout"].get("shapes", []) if s.get("name", "").startswith("pick-")}


def picked_captions(app):
    return [c.value for c in app.caption if c.value.startswith("Picked:")]


def test_a_pick_shows_its_caption_and_the_bit_in_all_three_grids(at):
    click_button(at, "float32 1.0 | 2.0")
    at.query_params["or_pick"] = "0,30"  # the link after a click on bit 30 of element 0
    at.run()
    assert not at.exception and not error_texts(at)
    # 1.0 = 0x3F800000 has bit 30 clear, 2.0 = 0x40000000 has it set: the OR that makes +inf.
    assert picked_captions(at) == ["Picked: element #0, bit 30 (exponent): A 0 | B 1 = 1"]
    shapes = pick_shapes(at)
    assert sorted(shapes) == ["pick-A", "pick-B", "pick-Output"]
    assert {s["path"] for s in shapes.values()} == {"M0.5,-0.5 L1.5,-0.5 L1.5,0.5 L0.5,0.5 Z"}  # column 1, row 0
    next(b for b in at.button if b.label == "Clear highlight").click().run()
    assert not picked_captions(at) and not pick_shapes(at)


def test_a_click_on_a_bit_picks_it_and_lands_in_the_link(at):
    click_button(at, "float32 1.0 | 2.0")
    figure = chart(at)
    cells = figure["data"][Trace.OUTPUT_CELLS]
    custom = next(c for c in plotly_array(cells["customdata"]).tolist()
                  if (c[Column.ELEMENT], c[Column.BIT_NUMBER]) == (0, 30))
    click_chart(at, "or_chart", [{"curve_number": figure["data"].index(cells), "customdata": custom}])
    assert not at.exception
    assert at.query_params["or_pick"] in ("0,30", ["0,30"])
    assert picked_captions(at) == ["Picked: element #0, bit 30 (exponent): A 0 | B 1 = 1"]
    assert sorted(pick_shapes(at)) == ["pick-A", "pick-B", "pick-Output"]


def test_a_pick_that_no_longer_fits_is_dropped_silently(at):
    at.query_params["or_pick"] = "5,3"
    at.run()
    assert picked_captions(at)
    at.text_input(key="or_sizes").set_value("2").run()
    assert not at.exception and not error_texts(at)
    assert "or_pick" not in at.query_params
    assert not picked_captions(at) and not pick_shapes(at)


def test_a_pick_outside_the_drawn_elements_is_named_but_not_drawn(at):
    at.text_input(key="or_sizes").set_value("100").run()
    at.number_input(key="or_first").set_value(40).run()
    at.number_input(key="or_rows").set_value(3).run()
    at.query_params["or_pick"] = "10,0"
    at.run()
    assert picked_captions(at)[0].endswith("(not among the drawn elements)")
    assert not pick_shapes(at)
    at.query_params["or_pick"] = "41,0"
    at.run()
    assert sorted(pick_shapes(at)) == ["pick-A", "pick-B", "pick-Output"]
