"""Debian's Chromium driven by Playwright, and what the browser tests wait for."""

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
# The graph div of a chart ui.charts.show drew (ui/plotly_chart.js makes it; plotly adds js-plotly-plot once drawn)
CHART = ".dml-chart.js-plotly-plot"

LOAD_TIMEOUT = 60_000


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


def wait_for_app(page):
    """Until the script has finished running (no running indicator) and something is drawn."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=LOAD_TIMEOUT)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=LOAD_TIMEOUT)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LOAD_TIMEOUT)


def assert_clean(page):
    """No exception element on the page and no JavaScript error (page.js_errors, recorded by the page fixture)."""
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not page.js_errors, page.js_errors
