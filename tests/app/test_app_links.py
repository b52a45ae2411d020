"""Every view is its URL: after any preset or Overview button, pressed from a non-default view, the address bar
alone reproduces the view in a fresh session (every widget's value, every figure's data), and defaults stay out.

AppTest plays the browser's address bar (`at.query_params`); tests/browser/test_browser_links.py does the same in
Chromium.
"""

import pytest

from app_pages.registry import PAGES as ALL_PAGES
from support.app import chart_figures, run_through_app, shown
from support.links import AWAY, OVERVIEW_BUTTONS, PRESET_COUNTS
from ui import url_state

PAGES = {page.url_path: page.path for page in ALL_PAGES if page.url_path in AWAY}
WIDGET_KINDS = ("number_input", "text_input", "text_area", "radio", "selectbox", "checkbox", "toggle")


def view(at):
    """What the user sees: the page, every keyed widget's value, every figure's data and shapes, every message."""
    widgets = {w.key: w.value for kind in WIDGET_KINDS for w in at.get(kind) if w.key}
    figures = []
    for spec in chart_figures(at):
        figures.append((spec["data"], spec["layout"].get("shapes"), spec["layout"].get("annotations")))
    messages = [e.value for e in [*at.error, *at.warning]]
    return at.title[0].value, widgets, figures, messages


def reopened(at, page):
    """A fresh session opening the address `at` shows now."""
    fresh = run_through_app(page, query=dict(at.query_params))
    assert not fresh.exception, fresh.exception
    return fresh


CASES = [(page, index) for page, count in PRESET_COUNTS.items() for index in range(count)]


@pytest.mark.parametrize("page, index", CASES, ids=[f"{p}-{i}" for p, i in CASES])
def test_a_preset_pressed_away_from_it_leaves_a_link_that_reopens_the_same_view(page, index):
    at = run_through_app(PAGES[page], **AWAY[page])
    assert not at.exception, at.exception
    assert dict(at.query_params), "the starting view should not be the default one"
    [preset] = [b.key for b in at.button if b.key and b.key.endswith(f"_preset_{index}")]
    at.button(key=preset).click().run()
    assert not at.exception, at.exception
    seen = view(at)
    fresh = reopened(at, PAGES[page])
    assert view(fresh) == seen
    assert dict(fresh.query_params) == dict(at.query_params)  # the reopened view writes the same link back


def test_every_preset_and_overview_button_is_covered():
    for page, count in PRESET_COUNTS.items():
        keys = [b.key for b in run_through_app(PAGES[page]).button if b.key and "_preset_" in b.key]
        assert len(keys) == count, (page, keys)
    overview = [b.key for b in run_through_app().button if b.key and b.key.startswith("overview_") and
                not b.key.startswith("overview_fig")]
    assert sorted(overview) == sorted(OVERVIEW_BUTTONS)




@pytest.mark.parametrize("key", OVERVIEW_BUTTONS)
def test_an_overview_button_leaves_a_link_that_reopens_the_same_view(key):
    at = run_through_app(dtype="FLOAT64", pattern="random", seed=11, level="3_1")
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    assert at.title[0].value != "DirectML operator visualizer", "the button opens its page"
    seen = view(at)
    landed = {"Depth": "depth_space", "Bitwise": "bitwise_or", "Split": "split_join", "Gather": "gather_scatter",
              "Slice": "slice_pad", "Layouts": "layouts"}
    name = next(v for k, v in landed.items() if seen[0].startswith(k))
    fresh = reopened(at, PAGES[name])
    assert view(fresh) == seen
    assert not seen[3], seen[3]  # e.g. "Values: 0 values given" when the typed values were lost


def test_defaults_stay_out_of_the_link_and_every_change_goes_in():
    at = run_through_app(PAGES["depth_space"])
    assert dict(at.query_params) == {}
    at.number_input(key="C").set_value(18).run()
    at.number_input(key="BlockSize").set_value(3).run()
    assert dict(at.query_params) == {"C": "18", "BlockSize": "3"}
    at.number_input(key="C").set_value(8).run()
    at.number_input(key="BlockSize").set_value(2).run()
    assert dict(at.query_params) == {}


def test_a_typed_value_hidden_behind_another_choice_stays_out_of_the_link_but_returns_with_it():
    at = run_through_app(PAGES["bitwise_or"], dtype="FLOAT32", pattern="custom", values="1.5 2 3 4 5 6")
    assert dict(at.query_params)["values"] == "1.5 2 3 4 5 6"
    at.selectbox(key="pattern").set_value("coded").run()
    assert "values" not in at.query_params  # not part of this view
    at.selectbox(key="pattern").set_value("custom").run()
    assert at.text_area(key="values").value == "1.5 2 3 4 5 6"
    assert dict(at.query_params)["values"] == "1.5 2 3 4 5 6"


@pytest.mark.parametrize("query, field", [
    ({"C": "many"}, "C=`many` must be a whole number"),
    ({"BlockSize": "999"}, "BlockSize=`999` must be at most 64"),
    ({"Order": "DIAGONAL"}, "Order=`DIAGONAL` must be one of DEPTH_COLUMN_ROW, COLUMN_ROW_DEPTH, compare"),
    ({"dtype": "FLOAT8"}, "dtype=`FLOAT8` must be one of"),
    ({"ds_pick": "1,x"}, "ds_pick=`1,x` must be whole numbers separated by commas"),
])
def test_a_link_with_a_value_the_page_cannot_take_says_which_and_why(query, field):
    at = run_through_app(PAGES["depth_space"], query=query)
    assert not at.exception
    notes = [shown(w.value) for w in at.warning]
    assert any(field in n for n in notes), notes
    assert not set(query) & set(at.query_params)  # the default took its place, so the link drops it


def test_history_navigation_reopens_the_older_view():
    at = run_through_app(PAGES["depth_space"])
    at.number_input(key="C").set_value(18).run()
    first = dict(at.query_params)
    at.number_input(key="H").set_value(5).run()
    at.query_params.clear()  # the browser's Back: the address changes under the session
    for key, text in first.items():
        at.query_params[key] = text
    at.run()
    assert at.number_input(key="H").value == 2 and at.number_input(key="C").value == 18


def test_the_link_value_text_rule():
    rule = url_state.Rule(0, minimum=0, maximum=9)
    assert rule.parse("7") == 7
    with pytest.raises(ValueError, match="at most 9"):
        rule.parse("10")
    assert url_state.Rule(None).parse("1,2,3") == (1, 2, 3)
    assert url_state.Rule(1.0).parse("2.5") == 2.5
    with pytest.raises(ValueError, match="finite"):
        url_state.Rule(1.0).parse("nan")
    assert url_state.Rule(False).parse("TRUE") is True
    assert url_state.query_of({"x": True, "p": (1, 2), "s": "a b"}) == {"x": "true", "p": "1,2", "s": "a b"}
