"""The Split <-> Join page run through app.py as a user sees it (Streamlit AppTest)."""

import pytest

from support.app import chart_figures, click_button, click_chart, error_texts, run_through_app, shown
from support.figures import plotly_array

PAGE = "app_pages/split_join/page.py"


@pytest.fixture
def at():
    app = run_through_app(PAGE)
    assert not app.exception
    return app


def drawn_outputs(app):
    """Values of each output as the figure draws them, by trace name."""
    figure = chart_figures(app)[0]
    return {t["name"]: plotly_array(t["text"]).astype(float).tolist()
            for t in figure["data"] if t["name"].startswith("OutputTensors")}


def test_defaults_are_clean(at):
    assert not error_texts(at)
    assert any("JOIN(SPLIT(x)) reproduces x bit for bit: **True**" in m.value for m in at.markdown)
    assert sum("Valid at DML_FEATURE_LEVEL" in s.value for s in at.success) == 2  # SPLIT and JOIN


def test_seed_example_axis_2(at):
    click_button(at, "Seed: Axis 2")
    assert not at.exception and not error_texts(at)
    assert drawn_outputs(at) == {
        "OutputTensors[0]": [[1, 2], [3, 4]],
        "OutputTensors[1]": [[5, 6]],
        "OutputTensors[2]": [[7, 8], [9, 10], [11, 12]],
    }
    assert any("[0] [1, 1, 2, 2], [1] [1, 1, 1, 2], [2] [1, 1, 3, 2]" in shown(m.value) for m in at.markdown)
    assert at.session_state["dtype"] == "FLOAT32"


def test_seed_example_axis_3(at):
    click_button(at, "Seed: Axis 3")
    assert not at.exception and not error_texts(at)
    outputs = drawn_outputs(at)
    assert [row[0] for row in outputs["OutputTensors[0]"]] == [1, 3, 5, 7, 9, 11]
    assert [row[0] for row in outputs["OutputTensors[1]"]] == [2, 4, 6, 8, 10, 12]
    assert any("[0] [1, 1, 6, 1], [1] [1, 1, 6, 1]" in shown(m.value) for m in at.markdown)


@pytest.mark.parametrize("key, value, field", [
    ("sj_split", "2,1,2", "OutputTensors Sizes along Axis"),  # 5 != 6
    ("sj_split", "2,0,4", "Output sizes along Axis"),
    ("sj_split", "two", "Output sizes along Axis"),
    ("sj_sizes", "1,0,6,2", "Sizes"),
    ("sj_sizes", "1,1,1,1,1,1,1,6,2", "Sizes"),
    ("sj_sizes", "abc", "Sizes"),
    ("sj_sizes", "8192,8193", "Sizes"),  # over the element cap, refused before allocating
])
def test_hostile_text_names_the_field(at, key, value, field):
    at.text_input(key=key).set_value(value).run()
    assert not at.exception
    assert any(field in e for e in error_texts(at)), error_texts(at)


@pytest.mark.parametrize("axis", [4, -1])
def test_axis_out_of_range(at, axis):
    at.number_input(key="sj_axis").set_value(axis).run()
    assert not at.exception
    assert any(e.startswith(f"Axis {axis}") for e in error_texts(at)), error_texts(at)


def test_even_split_that_does_not_divide(at):
    at.radio(key="sj_mode").set_value("even").run()
    at.number_input(key="sj_parts").set_value(4).run()
    assert any("Parts K" in e for e in error_texts(at)), error_texts(at)


def test_garbage_pasted_values(at):
    at.session_state["pattern"] = "custom"
    at.session_state["values"] = "1, 2, oops"
    at.run()
    assert not at.exception
    assert any("Values" in e for e in error_texts(at)), error_texts(at)


def test_slice_of_a_higher_dimensional_tensor(at):
    at.text_input(key="sj_sizes").set_value("3,2,6,2").run()
    at.text_input(key="sj_slice").set_value("2,1").run()
    assert not error_texts(at)
    assert any("dim 0 = 2, dim 1 = 1" in c.value for c in at.caption)
    at.text_input(key="sj_slice").set_value("7,0").run()
    assert any("Slice index for dim 0" in e for e in error_texts(at)), error_texts(at)


def pick_shapes(app):
    figure = chart_figures(app)[0]
    return {s["name"]: s for s in figure["layout"].get("shapes", []) if s.get("name", "").startswith("pick")}


def picked_captions(app):
    return [shown(c.value) for c in app.caption if c.value.startswith("Picked")]


def test_a_pick_shows_its_caption_and_outlines(at):
    click_button(at, "Seed: Axis 2")
    at.query_params["sj_pick"] = "0,0,3,1"  # the link after a click on the 8
    at.run()
    assert not at.exception and not error_texts(at)
    # The seed: OutputTensors[2] = {7, 8, 9, 10, 11, 12} as {1,1,3,2}, so the 8 is its [0, 0, 0, 1].
    assert picked_captions(at) == ["Picked: InputTensor[0, 0, 3, 1] → OutputTensors[2][0, 0, 0, 1], value 8.0"]
    shapes = pick_shapes(at)
    assert set(shapes) == {"pick-source", "pick-destination"}
    assert (shapes["pick-source"]["xref"], shapes["pick-destination"]["xref"]) == ("x", "x2")
    next(b for b in at.button if b.label == "Clear highlight").click().run()
    assert not picked_captions(at) and not pick_shapes(at)


def test_a_click_on_an_input_cell_picks_it_and_lands_in_the_link(at):
    click_button(at, "Seed: Axis 2")
    figure = chart_figures(at)[0]
    cells = next(t for t in figure["data"] if t.get("name") == "input cells")
    custom = next(c for c in plotly_array(cells["customdata"]).tolist() if c == [0, 0, 3, 1])  # the 8
    click_chart(at, "sj_chart", [{"curve_number": figure["data"].index(cells), "customdata": custom}])
    assert not at.exception
    assert at.query_params["sj_pick"] in ("0,0,3,1", ["0,0,3,1"])
    assert picked_captions(at) == ["Picked: InputTensor[0, 0, 3, 1] → OutputTensors[2][0, 0, 0, 1], value 8.0"]
    assert set(pick_shapes(at)) == {"pick-source", "pick-destination"}


def test_a_pick_that_no_longer_fits_is_dropped_silently(at):
    click_button(at, "Seed: Axis 2")
    at.query_params["sj_pick"] = "0,0,5,1"
    at.run()
    assert picked_captions(at)
    at.text_input(key="sj_sizes").set_value("1,1,3,2").run()
    at.text_input(key="sj_split").set_value("1,2").run()
    assert not at.exception and not error_texts(at)
    assert "sj_pick" not in at.query_params
    assert not picked_captions(at) and not pick_shapes(at)


def test_a_preset_clears_the_pick(at):
    at.query_params["sj_pick"] = "0,0,0,0"
    at.run()
    assert picked_captions(at)
    click_button(at, "Seed: Axis 3")
    assert not picked_captions(at) and not pick_shapes(at)
