"""Debian's Chromium driven by Playwright, and what the browser tests wait for."""

from playwright.sync_api import TimeoutError as PlaywrightTimeout

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
# Each operator page's groups of settings beside the figure (ui/toolbar.py), those it shows at its default settings
# (the toolbar's popovers had the same labels before issue 22).
SETTINGS_GROUPS = {
    "depth_space": ("Shape", "Order", "Presets", "Play & explain"),
    "bitwise_or": ("Operands", "Presets", "Play & explain", "Drawn elements"),
    "split_join": ("Operator & sizes", "Presets", "Play & explain", "Drawn plane"),
    "gather_scatter": ("Operator", "Tensors", "Presets", "Play & explain"),
    "slice_pad": ("Operator", "Presets", "Play & explain"),
    "layouts": ("Presets", "InputTensor", "OutputTensor", "Memory maps"),
}
# Points on a 30x30 grid over the first figure's box count when they are inside the window and the element drawn
# there is the figure's own.
_VISIBLE_SHARE = """(selector) => {
    const plot = document.querySelector(selector);
    const box = plot.getBoundingClientRect();
    let seen = 0, all = 0;
    for (let i = 0; i < 30; i++) for (let j = 0; j < 30; j++) {
        const x = box.left + (i + 0.5) * box.width / 30, y = box.top + (j + 0.5) * box.height / 30;
        all += 1;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        const hit = document.elementFromPoint(x, y);
        if (hit && plot.contains(hit)) seen += 1;
    }
    return seen / all;
}"""


def group(page, label):
    """The expander of the page's group of settings named `label`, in the sidebar beside the figure (ui/toolbar.py)."""
    return page.locator('[data-testid="stSidebar"] [data-testid="stExpander"]').filter(
        has=page.locator("summary p").get_by_text(label, exact=True)).first


def open_group(page, label):
    """Open the group `label` (its widgets take input only while it is open; they are on the page either way).
    Returns its expander."""
    expander = group(page, label)
    expander.wait_for(timeout=30_000)
    for _ in range(3):  # a click that lands while the sidebar is redrawn is lost: look again, click again
        if expander.locator("details[open]").count():
            return expander
        expander.locator("summary").click()
        try:
            expander.locator("details[open]").wait_for(timeout=10_000)
        except PlaywrightTimeout:
            continue
    expander.locator("details[open]").wait_for(timeout=10_000)
    return expander


def click_until(click, done, tries=3, wait=15_000):
    """Call `click` until `done(timeout)` returns without a PlaywrightTimeout: a click that lands while Streamlit
    redraws its element is lost. Each click must do the same thing again (a preset, a cell, a toggle's opening)."""
    for _ in range(tries - 1):
        click()
        try:
            return done(wait)
        except PlaywrightTimeout:
            continue
    click()
    return done(LOAD_TIMEOUT)


def click_until_address_has(page, locator, part):
    """Click `locator` until the page's address includes `part` (what the click does lands in the link)."""
    return click_until(locator.click, lambda timeout: page.wait_for_function(
        "(part) => location.href.includes(part)", arg=part, timeout=timeout))


# No script run going on, and every figure drawn: ui/plotly_chart.js marks a figure aria-busy from the moment its data
# arrives until plotly has drawn it and fitted its labels.
# A page waiting for its cross-check verdict runs again when it arrives (ui/panels.py): not settled before that.
SETTLED = """() => !document.querySelector('[data-testid="stStatusWidget"]')
    && [...document.querySelectorAll('.dml-chart')].every(chart => chart.getAttribute('aria-busy') === 'false')
    && !document.body.innerText.includes('Cross-checking on DirectML itself')"""


def wait_until_settled(page, timeout=LOAD_TIMEOUT):
    """Until the script's run has finished and every figure on the page is drawn."""
    page.wait_for_function(SETTLED, timeout=timeout)


def open_animated_page(page, url):
    """Open `url` and wait until its first animated figure has drawn its Play button and the page is settled."""
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .updatemenu-button", timeout=LOAD_TIMEOUT)
    wait_until_settled(page)


def wait_for_app(page):
    """Until the script has finished running, something is drawn, and every figure is drawn."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=LOAD_TIMEOUT)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LOAD_TIMEOUT)
    wait_until_settled(page)


def assert_clean(page):
    """No exception element on the page and no JavaScript error (page.js_errors, recorded by the page fixture)."""
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not page.js_errors, page.js_errors


def visible_share(page, chart=CHART):
    """The share of the first figure matching `chart` that is on screen and not covered (0 to 1)."""
    return page.evaluate(_VISIBLE_SHARE, chart)


# What the user sees, read off the page: every plot's traces (the data plotly draws), outlines, notes and the text its
# SVG draws, and every input's value (number and text inputs, text areas, select boxes, radio and check boxes), in
# page order.
VIEW = """() => {
    const plots = [...document.querySelectorAll('.js-plotly-plot')].map(gd => JSON.stringify([
        gd.data.map(t => [t.type, t.name, t.z, t.text, t.customdata, t.x, t.y, t.x0, t.y0]),
        (gd.layout.shapes || []).map(s => [s.name, s.path, s.x0, s.y0]),
        (gd.layout.annotations || []).map(a => a.text),
        [...gd.querySelectorAll('.main-svg text')].map(t => t.textContent).sort()]));
    const inputs = [...document.querySelectorAll('input, textarea')]
        .filter(e => e.type !== 'file' && e.type !== 'hidden')
        .map(e => (e.type === 'radio' || e.type === 'checkbox')
            ? [(e.closest('[role="radiogroup"]')?.getAttribute('aria-label') || '') + ': ' +
               (e.closest('label')?.innerText || ''), e.checked]
            : [e.getAttribute('aria-label') || e.type, e.value]);
    return {path: location.pathname, plots, inputs};
}"""


def settle(page, timeout=LOAD_TIMEOUT):
    """Until the run the last action started has finished: something is drawn and nothing runs."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=timeout)
    wait_until_settled(page, timeout)


def view(page):
    """What the page draws (VIEW), after checking it drew no exception and threw no JavaScript error."""
    assert_clean(page)
    return page.evaluate(VIEW)


def reopen(browser, address, expected, timeout=LOAD_TIMEOUT):
    """The view a fresh browser draws from `address`, once it shows `expected` or `timeout` ms have passed: the
    sidebar's widgets mount after the figure is drawn (their chunks load on a fresh browser) and a text area may take
    its value a render after it mounts, so neither a settled figure nor the count of inputs means the settings are
    drawn."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    fresh = context.new_page()
    fresh.js_errors = []
    fresh.on("pageerror", lambda error: fresh.js_errors.append(str(error)))
    fresh.goto(address)
    settle(fresh, timeout)
    try:
        fresh.wait_for_function(f"(expected) => JSON.stringify(({VIEW})()) === JSON.stringify(expected)",
                                arg=expected, timeout=timeout)
    except PlaywrightTimeout:
        pass  # the comparison the caller makes shows what still differs
    wait_until_settled(fresh, timeout)
    seen = view(fresh)
    context.close()
    return seen
