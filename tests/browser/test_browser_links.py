"""Every view is its URL, in Chromium: each preset and Overview button is pressed from a non-default view, the
address it leaves is opened in a fresh browser context, and what the plots draw and every input's value must be
the same there (the inputs of the page's groups of settings too, which are on the page open or not)."""

import pytest

from support.browser import click_until, open_group, reopen, settle, view
from support.links import AWAY, OVERVIEW_BUTTONS, PRESET_COUNTS, PRESET_KEYS
from ui.url_state import query_of

pytestmark = pytest.mark.browser

TIMEOUT = 60_000
# The overview's buttons by label, in the order of OVERVIEW_BUTTONS.
OVERVIEW_LABELS = ["Seed example, both orders", "Space → depth, BlockSize 3", "FLOAT32 1.0 | 2.0 = +inf",
                   "Seed: Axis 3 into two {1,1,6,1}", "GATHER Example 2", "SCATTER Example 1", "SLICE1 Example 2",
                   "PADDING1 Example 3"]

def address_changed(page, before):
    """Waits (for `timeout` ms) until the address is no longer `before`."""
    return lambda timeout: page.wait_for_function("(before) => location.href !== before", arg=before, timeout=timeout)


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
    click_until(page.locator(f".st-key-{PRESET_KEYS[path]}_preset_{index} button").click, address_changed(page, before))
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
