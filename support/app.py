"""The app as a user sees it, without a browser: AppTest runs of app.py and what they drew."""

import json
import re

from .paths import ROOT


def run_through_app(page=None, query=None, session=None, **settings):
    """The app as a user sees it (AppTest): app.py's router and sidebar, then `page` (a registry Page, its script's
    path or its url path; default: the first page).

    `query` plays the URL's query parameters as texts; `settings` are the same given as values (the URL is how a
    view's settings arrive); `session` is session state set before the first run (a hand-over between pages).
    """
    from streamlit.testing.v1 import AppTest

    from ui.url_state import query_of

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in {**(query or {}), **query_of(settings)}.items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    if page:
        open_page(at, page)
    at.run()
    return at


def open_page(at, page):
    """Make the next run of `at` open `page` (a registry Page, its script's path or its url path) as its address
    does. Streamlit
    finds a page by the hash of its url path (st.Page); AppTest.switch_page derives it from the script's file name
    before the first run, which a page folder's page.py does not carry."""
    from streamlit.util import calc_hash

    from app_pages.registry import PAGES

    found = page if not isinstance(page, str) else next(p for p in PAGES if page in (p.path, p.url_path))
    if found.url_path:
        assert hasattr(at, "_page_hash"), "AppTest no longer keeps the page it opens in _page_hash"
        at._page_hash = calc_hash(found.url_path)


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def shown(markdown):
    """The text a reader sees of Markdown that ui.echo made inert: its backslash escapes resolved and its invisible
    word joiners dropped (AppTest hands over an element's Markdown source)."""
    return _ESCAPED.sub(r"\1", markdown).replace("\u2060", "")


def error_texts(at):
    return [shown(e.value) for e in at.error]


def charts(at):
    """Every chart on the page, in page order (ui.charts draws them all as components; the hidden one that loads
    plotly.js early is none)."""
    from ui.charts import PRELOAD_KEY

    return [node for block in (at.main, at.sidebar) for node in block
            if node.type == "bidi_component" and node.key != PRELOAD_KEY]


def chart_figures(at):
    """The figure dict of every chart on the page, in page order."""
    from ui.charts import figure_of

    return [figure_of(node) for node in charts(at)]


def chart_figure(at, key):
    """The figure dict of the chart ui.charts.show drew with `key` (AssertionError when none is on the page)."""
    from ui.charts import figure_of

    return figure_of(_chart_node(at, key))


def _chart_node(at, key):
    drawn = [node for node in at.get("bidi_component") if node.key == key]
    assert len(drawn) == 1, f"{len(drawn)} charts with key {key!r} on the page"
    return drawn[0]


def click_chart(at, key, points):
    """Click the chart ui.charts.show drew with `key` on `points`, and rerun: the "select" trigger value that
    ui/plotly_chart.js sends ({"points": [...]}), which calls the chart's on_select.

    AppTest has no API for a component's triggers, so this adds the widget state the browser would send: one JSON
    list of {event, value} under the component's trigger aggregator id (streamlit/components/v2/bidi_component/main.py).
    """
    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    states = at._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(_chart_node(at, key).proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": "select", "value": {"points": points}}])
    return at._run(states)


def send_text(at, key, text):
    """Rerun with `text` as the value of the text widget `key`, as a crafted websocket message would send it: past the
    widget's max_chars, which the browser (and AppTest's input) enforce."""
    states = at._tree.get_widget_states()
    widget_id = at.text_area(key=key).id
    state = next((s for s in states.widgets if s.id == widget_id), None) or states.widgets.add()
    state.id = widget_id
    state.string_value = text
    return at._run(states)


def uploader(at):
    """The page's one file uploader (the detective's key follows the input's sizes and type, so that new sizes clear
    the files of the old: it is found by kind, not by key)."""
    [found] = at.get("file_uploader")
    return found


def click_button(at, label_start):
    next(b for b in at.button if shown(b.label).startswith(label_start)).click().run()
