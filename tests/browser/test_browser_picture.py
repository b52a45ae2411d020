"""A classroom picture (issue 22), in Chromium: the first figure stays in sight while its settings change, at
1400x1000 and in an 800 px window; on a 1280x720 projector the whole first figure and its Play fit the window;
cell numbers are never under 10 px (12 on a projector) nor run into each other; slides leave Play out."""

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from support.browser import SETTINGS_GROUPS, open_group, visible_share, wait_until_settled
from support.paths import SCREENSHOTS

pytestmark = pytest.mark.browser

TIMEOUT = 60_000
WINDOWS = {"1400": (1400, 1000), "800": (800, 900)}
PROJECTOR = (1280, 720)
IN_SIGHT = 0.9  # the share of the first figure a learner sees while changing a setting

# The cell numbers drawn on screen (labels plotly_chart.js leaves out are transparent): font size and the box of each
# one's digits. A text's own box is its line box, 1.4 em high, which overlaps the next row's wherever rows are under
# 1.4 em apart although the digits (0.72 em high, around the box's middle) stand clear of each other: the digits'
# box is what a reader sees run together.
CELL_NUMBERS = """() => [...document.querySelectorAll('.dml-chart.js-plotly-plot')].map(plot =>
    [...plot.querySelectorAll('.heatmaplayer text')]
        .filter(t => t.textContent.trim() && Number(getComputedStyle(t).fillOpacity) > 0
                     && getComputedStyle(t).fill !== 'rgba(0, 0, 0, 0)')
        .map(t => { const r = t.getBoundingClientRect(), size = parseFloat(getComputedStyle(t).fontSize);
                    const middle = (r.top + r.bottom) / 2;
                    return {size, text: t.textContent,
                            box: [r.left, middle - 0.36 * size, r.right, middle + 0.36 * size]}; }))"""
FIRST_FIGURE = """() => { const plot = document.querySelector('.dml-chart.js-plotly-plot');
    const box = plot.getBoundingClientRect();
    const play = [...plot.querySelectorAll('.updatemenu-button')].find(b => b.textContent.trim() === 'Play');
    return {top: box.top, bottom: box.bottom, play: play ? play.getBoundingClientRect().bottom : null}; }"""


def window(browser, url, size, **options):
    context = browser.new_context(viewport=dict(zip(("width", "height"), size)), **options)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector(".dml-chart.js-plotly-plot .main-svg", timeout=TIMEOUT)
    wait_until_settled(page)
    return context, page


def shoot(page, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"picture_{name}.png"))


@pytest.mark.parametrize("size", list(WINDOWS))
@pytest.mark.parametrize("path", list(SETTINGS_GROUPS))
def test_the_first_figure_stays_in_sight_with_any_group_of_settings_open(browser, app_url, path, size):
    context, page = window(browser, f"{app_url}/{path}", WINDOWS[size])
    try:
        for label in SETTINGS_GROUPS[path]:
            open_group(page, label)
            share = visible_share(page)
            assert share >= IN_SIGHT, f"{label} open: {share:.0%} of the first figure in sight"
        shoot(page, f"{path}_{size}_groups_open")
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


# (page, group, field, value typed, what the first figure then draws): a change made with its group open.
CHANGES = [
    ("depth_space", "Shape", "C", "16", "<b>input</b> [1, 16, 2, 3]"),
    ("layouts", "InputTensor", "Sizes", "2,4", "all 8 elements drawn"),
]
TITLES = """() => { const gd = document.querySelector('.dml-chart.js-plotly-plot');
    return [gd.layout.title?.text || '', ...(gd.layout.annotations || []).map(a => a.text)].join(' | '); }"""


@pytest.mark.parametrize("size", list(WINDOWS))
@pytest.mark.parametrize("path, label, field, value, drawn", CHANGES, ids=[c[0] for c in CHANGES])
def test_the_figure_redraws_while_its_group_stays_open(browser, app_url, size, path, label, field, value, drawn):
    context, page = window(browser, f"{app_url}/{path}", WINDOWS[size])
    try:
        group = open_group(page, label)
        box = group.get_by_label(field, exact=True)
        box.fill(value)
        box.press("Enter")
        page.wait_for_function(f"() => ({TITLES})().includes({drawn!r})", timeout=TIMEOUT)
        wait_until_settled(page)
        assert group.locator("details[open]").count() == 1  # still open: the learner watched it change
        assert visible_share(page) >= IN_SIGHT
        shoot(page, f"{path}_{size}_changed_with_{label.replace(' ', '_')}_open")
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


@pytest.mark.parametrize("path", list(SETTINGS_GROUPS))
def test_a_projector_shows_the_whole_first_figure_its_play_and_the_k_hint(browser, app_url, path):
    context, page = window(browser, f"{app_url}/{path}?present=true", PROJECTOR)
    try:
        # What the projector shows once the page has come to rest: in one clean-clone run the whole page still sat
        # 18 px lower when the figure was drawn (cause not found; never seen here). Wait for the figure to fit (a
        # minute at most), then check.
        try:
            page.wait_for_function(f"() => ({FIRST_FIGURE})().bottom <= {PROJECTOR[1]}", timeout=TIMEOUT)
        except PlaywrightTimeout:
            pass  # the assertions below say what does not fit
        shoot(page, f"{path}_projector")
        figure = page.evaluate(FIRST_FIGURE)
        assert 0 <= figure["top"] and figure["bottom"] <= PROJECTOR[1], figure
        if figure["play"] is not None:  # Layouts' first figure, a memory map, has no Play
            assert figure["play"] <= PROJECTOR[1], figure
        assert page.evaluate("""() => { const bar = document.querySelector('[data-testid="stSidebar"]');
                                        return !bar || bar.getBoundingClientRect().right <= 1; }""")
        assert page.get_by_text(re.compile("K plays and pauses")).first.is_visible()
        numbers = page.evaluate(CELL_NUMBERS)[0]
        assert numbers and min(n["size"] for n in numbers) >= 12, sorted({n["size"] for n in numbers})
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


def overlapping(numbers):
    """Pairs of cell numbers whose boxes overlap: numbers that run into each other."""
    found = []
    for i, a in enumerate(numbers):
        for b in numbers[i + 1:]:
            dx = min(a["box"][2], b["box"][2]) - max(a["box"][0], b["box"][0])
            dy = min(a["box"][3], b["box"][3]) - max(a["box"][1], b["box"][1])
            if dx > 0.5 and dy > 0.5:
                found.append((a["text"], b["text"]))
    return found


VIEWS = {  # name: address
    "depth_space": "depth_space",
    "depth_space_16_channels": "depth_space?C=16&H=4&W=4",
    "depth_space_compare": "depth_space?Order=compare",
    "depth_space_64_channels": "depth_space?N=2&C=64&H=32&W=32&BlockSize=4",
    "bitwise_or": "bitwise_or",
    "bitwise_or_float64": "bitwise_or?dtype=FLOAT64",
    "split_join": "split_join",
    "layouts": "layouts",
}


@pytest.mark.parametrize("size", list(WINDOWS))
@pytest.mark.parametrize("view", list(VIEWS))
def test_cell_numbers_are_never_under_10_px_nor_run_together(browser, app_url, view, size):
    context, page = window(browser, f"{app_url}/{VIEWS[view]}", WINDOWS[size])
    try:
        for numbers in page.evaluate(CELL_NUMBERS):
            assert all(n["size"] >= 10 for n in numbers), sorted({n["size"] for n in numbers})
            assert not overlapping(numbers), overlapping(numbers)[:5]
        page.locator(".dml-chart.js-plotly-plot").first.screenshot(
            path=str(SCREENSHOTS / f"picture_{view}_{size}_figure.png"))
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


def test_at_16_channels_the_numbers_that_fit_are_drawn_and_the_marks_named(browser, app_url):
    """16 channels of 4 x 4, values 0 to 255: in a 1400 px window three digits do not fit a cell at 10 px, one and
    two do. Those are drawn, in the input and in the output (one label too long hid them all), and the legend names
    the mark of channels 8 to 15."""
    context, page = window(browser, f"{app_url}/depth_space?C=16&H=4&W=4", WINDOWS["1400"])
    try:
        numbers = page.evaluate(CELL_NUMBERS)[0]
        assert sorted(int(n["text"]) for n in numbers) == sorted(2 * list(range(100)))
        assert not overlapping(numbers) and min(n["size"] for n in numbers) >= 10
        legend = page.locator(".dml-chart .legend")
        assert legend.locator(".legendtext").all_text_contents() == ["c8–c15"]
        assert "c0–c7 unmarked" in legend.locator(".legendtitletext").text_content()
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


# The slide buttons of the app's toolbar (ui/plotly_chart.js): the frame on screen, without Play or slider.
SLIDE = '.js-plotly-plot .modebar-btn[data-title^="Download this frame as {}"]'


def test_a_slide_leaves_out_play_pause_and_the_slider(browser, app_url, tmp_path):
    context, page = window(browser, f"{app_url}/bitwise_or", WINDOWS["1400"], accept_downloads=True)
    try:
        assert page.locator('.js-plotly-plot .modebar-btn[data-title="Download plot as a png" i]').count() == 0
        for format in ("SVG", "PNG"):
            button = page.locator(SLIDE.format(format)).first
            with page.expect_download(timeout=TIMEOUT) as download:
                button.dispatch_event("click")
            saved = tmp_path / download.value.suggested_filename
            download.value.save_as(saved)
            assert saved.suffix == f".{format.lower()}" and saved.stem.startswith("ELEMENT_WISE_BIT_OR")
        svg = saved.with_suffix(".svg").read_text()
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
        assert "Play" not in texts and "Pause" not in texts and "step: bit 0" not in " ".join(texts)
        assert "slider" not in svg and "updatemenu" not in svg
        assert any(t.startswith("#0") for t in texts)  # row labels whole: the margin widens to fit them
        assert not page.js_errors, page.js_errors
    finally:
        context.close()
