"""Fixtures shared by the test files: a live app server and a Chromium page for the browser tests."""

import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
# The websocket visitor and the server launcher are shared with the load benchmark.
sys.path.insert(0, str(ROOT / "benchmarks"))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SCREENSHOTS = ROOT / "screenshots"
# The graph div of a chart ui.charts.show drew (ui/plotly_chart.js makes it; plotly adds js-plotly-plot once drawn)
CHART = ".dml-chart.js-plotly-plot"

settings.register_profile("project", max_examples=60, deadline=None)
settings.load_profile("project")


def run_through_app(page=None, query=None, session=None, **settings):
    """The app as a user sees it (AppTest): app.py's router and sidebar, then `page` (default: the first page).

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
        at.switch_page(page)
    at.run()
    return at


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def shown(markdown):
    """The text a reader sees of Markdown that ui.echo made inert: its backslash escapes resolved and its invisible
    word joiners dropped (AppTest hands over an element's Markdown source)."""
    return _ESCAPED.sub(r"\1", markdown).replace("\u2060", "")


def error_texts(at):
    return [shown(e.value) for e in at.error]


def charts(at):
    """Every chart on the page, in page order (ui.charts draws them all as components)."""
    return [node for block in (at.main, at.sidebar) for node in block if node.type == "bidi_component"]


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
    import json

    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    states = at._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(_chart_node(at, key).proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": "select", "value": {"points": points}}])
    return at._run(states)


def click_button(at, label_start):
    next(b for b in at.button if b.label.startswith(label_start)).click().run()


def open_popover(page, label):
    """Open the toolbar popover named `label` (ui/toolbar.py): its widgets are in the page only while it is open.
    Returns its body."""
    page.locator('[data-testid="stPopover"] button').filter(has_text=label).first.click()
    body = page.locator('[data-testid="stPopoverBody"]').last
    body.wait_for(timeout=30_000)
    return body


def close_popover(page):
    page.keyboard.press("Escape")
    page.locator('[data-testid="stPopoverBody"]').first.wait_for(state="detached", timeout=30_000)


def open_animated_page(page, url):
    """Open `url` and wait until its first animated figure has drawn its Play button and the page is idle."""
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .updatemenu-button", timeout=60_000)
    page.wait_for_load_state("networkidle")


@pytest.fixture(scope="session")
def app_url():
    """The app served as the README serves it (serve.launch) on a free loopback port, for as long as the test session lasts."""
    from visitor import served_app

    with served_app() as (url, _):
        yield url


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} missing: apt-get install chromium"
        # CI installs Chromium, so there a missing browser is a failure, not a reason to skip.
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    """A fresh browser page that records JavaScript errors in page.js_errors."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.js_errors = []
    tab.on("pageerror", lambda error: tab.js_errors.append(str(error)))
    yield tab
    context.close()


@pytest.fixture(scope="session")
def screenshot_dir():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def directml():
    """DirectML's status; the test is skipped where it is not set up, except in CI, which must run it."""
    from ops import directml_status

    status = directml_status()
    if not status.available:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run DirectML: {status.reason}")
        pytest.skip(status.reason)
    return status
