"""Every view is its URL, in Chromium: each preset and Overview button is pressed from a non-default view, the
address it leaves is opened in a fresh browser context, and what the plots draw and every input's value must be
the same there (the inputs of the page's groups of settings too, which are on the page open or not)."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from support.browser import click_until, open_group, wait_until_settled
from support.links import AWAY, OVERVIEW_BUTTONS, PRESET_COUNTS
from ui.url_state import query_of

pytestmark = pytest.mark.browser

TIMEOUT = 60_000
# The overview's buttons by label, in the order of OVERVIEW_BUTTONS.
OVERVIEW_LABELS = ["Seed example, both orders", "Space → depth, BlockSize 3", "FLOAT32 1.0 | 2.0 = +inf",
                   "Seed: Axis 3 into two {1,1,6,1}"]
PREFIX = {"depth_space": "ds", "bitwise_or": "or", "split_join": "sj", "layouts": "ly"}

# What the user sees, read off the page: every plot's traces (the data plotly draws) and outlines, and every
# input's value (number and text inputs, text areas, select boxes, radio and check boxes), in page order.
VIEW = """() => {
    const plots = [...document.querySelectorAll('.js-plotly-plot')].map(gd => JSON.stringify([
        gd.data.map(t => [t.type, t.name, t.z, t.text, t.customdata, t.x, t.y, t.x0, t.y0]),
        (gd.layout.shapes || []).map(s => [s.name, s.path, s.x0, s.y0]),
        (gd.layout.annotations || []).map(a => a.text)]));
    const inputs = [...document.querySelectorAll('input, textarea')]
        .filter(e => e.type !== 'file' && e.type !== 'hidden')
        .map(e => (e.type === 'radio' || e.type === 'checkbox')
            ? [(e.closest('[role="radiogroup"]')?.getAttribute('aria-label') || '') + ': ' +
               (e.closest('label')?.innerText || ''), e.checked]
            : [e.getAttribute('aria-label') || e.type, e.value]);
    return {path: location.pathname, plots, inputs};
}"""


def address_changed(page, before):
    """Waits (for `timeout` ms) until the address is no longer `before`."""
    return lambda timeout: page.wait_for_function("(before) => location.href !== before", arg=before, timeout=timeout)


def settle(page):
    """Until the run the last action started has finished: something is drawn and nothing runs."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=TIMEOUT)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=TIMEOUT)
    wait_until_settled(page)


def view(page):
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not page.js_errors, page.js_errors
    return page.evaluate(VIEW)


def reopen(browser, address, expected):
    """The view a fresh browser draws from `address`, once it shows `expected` or a minute has passed: the sidebar's
    widgets mount after the figure is drawn (their chunks load on a fresh browser) and a text area may take its value
    a render after it mounts, so neither a settled figure nor the count of inputs means the settings are drawn."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    fresh = context.new_page()
    fresh.js_errors = []
    fresh.on("pageerror", lambda error: fresh.js_errors.append(str(error)))
    fresh.goto(address)
    settle(fresh)
    try:
        fresh.wait_for_function(f"(expected) => JSON.stringify(({VIEW})()) === JSON.stringify(expected)",
                                arg=expected, timeout=TIMEOUT)
    except PlaywrightTimeout:
        pass  # the comparison below shows what still differs
    wait_until_settled(fresh)
    seen = view(fresh)
    context.close()
    return seen


def start(page, app_url, path, settings):
    query = "&".join(f"{k}={v}" for k, v in query_of(settings).items())
    page.goto(f"{app_url}/{path}?{query}")
    settle(page)


CASES = [(path, index) for path, count in PRESET_COUNTS.items() for index in range(count)]


@pytest.mark.parametrize("path, index", CASES, ids=[f"{p}-{i}" for p, i in CASES])
def test_a_preset_leaves_a_link_that_a_fresh_browser_opens_to_the_same_view(page, browser, app_url, path, index):
    start(page, app_url, path, AWAY[path])
    before = page.evaluate("location.href")
    open_group(page, "Presets")
    click_until(page.locator(f".st-key-{PREFIX[path]}_preset_{index} button").click, address_changed(page, before))
    settle(page)
    seen = view(page)
    assert reopen(browser, page.evaluate("location.href"), seen) == seen


@pytest.mark.parametrize("key, label", list(zip(OVERVIEW_BUTTONS, OVERVIEW_LABELS)))
def test_an_overview_button_leaves_a_link_that_a_fresh_browser_opens_to_the_same_view(page, browser, app_url,
                                                                                       key, label):
    start(page, app_url, "", dict(dtype="FLOAT64", pattern="random", seed=11, level="3_1"))
    # The Overview reads none of the shared settings, so its own link drops them (the session keeps them): wait
    # for that address, or the button's new one could not be told from it.
    page.wait_for_function("() => location.search === ''", timeout=TIMEOUT)
    before = page.evaluate("location.href")
    click_until(page.locator(f".st-key-{key} button").click, address_changed(page, before))
    settle(page)
    # The Overview's sidebar is empty: the target page's run has drawn once its sidebar holds inputs.
    page.wait_for_selector('[data-testid="stSidebar"] input', timeout=TIMEOUT)
    settle(page)
    seen = view(page)
    assert seen["path"] != "/"
    assert page.locator('[data-testid="stAlert"]').filter(has_text="values given").count() == 0
    assert reopen(browser, page.evaluate("location.href"), seen) == seen
