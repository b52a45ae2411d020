"""Figures on screens and projectors, in Chromium: the figure starts in the top 70% of the window, nothing overlaps
or truncates at 800 px or in presentation mode at 1280x720, and the "Download animated HTML" file plays from disk
with the network cut off, its PNG and SVG slides without Play. (tests/browser/test_browser_picture.py: the figure in
sight while its settings change, the projector's fit, the size of cell numbers.)"""

import os
from pathlib import Path

import pytest

from support.browser import wait_until_settled
from support.paths import SCREENSHOTS

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 60_000
OPERATOR_PAGES = ("depth_space", "bitwise_or", "split_join", "layouts")
# The pages that draw a figure at their default settings. The ONNX page draws none until asked.
DRAWING_PAGES = (*OPERATOR_PAGES, "converter", "detective", "")
TOP_SHARE = 0.7  # the figure's top edge is within this share of the window's height: the picture is the page
SIZES = {  # name: (viewport, query)
    "1400": ((1400, 1000), ""),
    "800": ((800, 900), ""),
    "present": ((1280, 720), "present=true"),
}
SHOTS = Path(os.environ.get("COLORS_SHOTS", SCREENSHOTS))

# Every text element of each Plotly SVG: (kind, box). Kinds: titles and axis titles, annotations (subplot titles,
# channel and field labels), tick labels, slider and button labels, legend entries, and the cells' own text.
TEXT_BOXES = """() => [...document.querySelectorAll('.js-plotly-plot')].map(plot => {
    const svg = plot.querySelector('.main-svg').getBoundingClientRect();
    const kind = el => {
        for (const [name, selector] of [['title', '.g-gtitle'], ['axis-title', '[class*="title"]'],
                ['annotation', '.annotation'], ['tick', '.xtick, .ytick, .x2tick, .y2tick, .x3tick, .y3tick'],
                ['slider', '.slider-container'], ['button', '.updatemenu-container'], ['legend', '.legend'],
                ['cell', '.heatmaplayer, .hm']]) {
            if (el.closest(selector)) return name;
        }
        return 'other';
    };
    const texts = [...plot.querySelectorAll('svg text')].filter(t => t.textContent.trim() &&
        getComputedStyle(t).display !== 'none' && getComputedStyle(t).visibility !== 'hidden' &&
        Number(getComputedStyle(t).opacity) > 0);
    return {svg: [svg.left, svg.top, svg.right, svg.bottom], texts: texts.map(t => {
        const r = t.getBoundingClientRect(), name = kind(t), size = parseFloat(getComputedStyle(t).fontSize);
        // A cell's number is its digits (0.72 em high, around its box's middle), not its 1.4 em line box, which
        // overlaps the next row's wherever rows are under 1.4 em apart although the digits stand clear.
        const middle = (r.top + r.bottom) / 2;
        const [top, bottom] = name === 'cell' ? [middle - 0.36 * size, middle + 0.36 * size] : [r.top, r.bottom];
        return {kind: name, text: t.textContent, box: [r.left, top, r.right, bottom]};
    }).filter(t => t.box[2] > t.box[0] && t.box[3] > t.box[1])};
})"""

# Streamlit's own text: a heading word broken over two lines, a button label cut off with an ellipsis.
PAGE_PROBLEMS = """() => {
    const problems = [];
    for (const heading of document.querySelectorAll('h1, h2, h3')) {
        const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const re = /\\S+/g;
            let match;
            while ((match = re.exec(node.textContent))) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (lines.size > 1) problems.push(`heading word broken over lines: ${match[0]}`);
            }
        }
    }
    for (const label of document.querySelectorAll('button p, button div')) {
        if (label.scrollWidth > label.clientWidth + 1 && getComputedStyle(label).overflow !== 'visible')
            problems.push(`button label cut off: ${label.textContent}`);
    }
    return problems;
}"""


def overlaps(texts, tolerance=1.0):
    """Pairs of text boxes that overlap by more than `tolerance` pixels in both directions."""
    found = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            dx = min(a["box"][2], b["box"][2]) - max(a["box"][0], b["box"][0])
            dy = min(a["box"][3], b["box"][3]) - max(a["box"][1], b["box"][1])
            if dx > tolerance and dy > tolerance:
                found.append((a["kind"], a["text"], b["kind"], b["text"]))
    return found


def outside(plot, tolerance=1.0):
    """Text cut by the figure's edge."""
    left, top, right, bottom = plot["svg"]
    return [(t["kind"], t["text"]) for t in plot["texts"]
            if t["box"][0] < left - tolerance or t["box"][2] > right + tolerance
            or t["box"][1] < top - tolerance or t["box"][3] > bottom + tolerance]


def open_view(browser, url, viewport):
    context = browser.new_context(viewport=dict(zip(("width", "height"), viewport)), accept_downloads=True)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    page.goto(url)
    # The first figure of a page may sit in a closed tab: any figure drawn on screen will do.
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .main-svg')].some("
                           "svg => svg.getBoundingClientRect().width > 0)", timeout=LOAD_TIMEOUT)
    wait_until_settled(page, timeout=LOAD_TIMEOUT)
    return context, page


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("path", OPERATOR_PAGES)
def test_the_figure_starts_near_the_top(browser, app_url, path, size):
    viewport, query = SIZES[size]
    context, page = open_view(browser, f"{app_url}/{path}{'?' + query if query else ''}", viewport)
    try:
        top = page.evaluate("document.querySelector('.js-plotly-plot').getBoundingClientRect().top")
        assert top <= TOP_SHARE * viewport[1], f"the first figure starts at {top:.0f} px of {viewport[1]}"
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("path", DRAWING_PAGES)
def test_no_label_overlaps_or_truncates(browser, app_url, path, size):
    viewport, query = SIZES[size]
    context, page = open_view(browser, f"{app_url}/{path}{'?' + query if query else ''}", viewport)
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"colors_{path}_{size}.png"))
        chart = page.locator(".js-plotly-plot:visible").first
        chart.scroll_into_view_if_needed()
        chart.screenshot(path=str(SHOTS / f"colors_{path}_{size}_figure.png"))
        plots = page.evaluate(TEXT_BOXES)
        assert plots
        for plot in plots:
            assert not overlaps(plot["texts"]), overlaps(plot["texts"])
            assert not outside(plot), outside(plot)
        assert page.evaluate(PAGE_PROBLEMS) == []
        if size == "present":
            assert page.get_by_role("switch", name="Presentation mode").count() == 1
            assert page.evaluate("""() => { const bar = document.querySelector('[data-testid="stSidebar"]');
                                            return !bar || bar.getBoundingClientRect().right <= 1; }""")
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


RECORD_PLAY = """() => {
    const plot = document.querySelector('.js-plotly-plot');
    window.__frames = 0;
    window.__interruptions = 0;
    plot.on('plotly_animatingframe', () => { window.__frames += 1; });
    plot.on('plotly_animationinterrupted', () => { window.__interruptions += 1; });
}"""
# Nothing animates once paused: plotly's queue of frames is empty and its animation loop is not scheduled.
STOPPED = """() => { const gd = document.querySelector('.js-plotly-plot');
    return gd._transitionData._frameQueue.length === 0 && !gd._transitionData._animationRaf; }"""


def test_k_plays_and_pauses_the_figure_on_a_projector(browser, app_url):
    context, page = open_view(browser, f"{app_url}/depth_space?present=true&speed=250", SIZES["present"][0])
    try:
        page.evaluate(RECORD_PLAY)
        page.keyboard.press("k")
        page.wait_for_function("window.__frames >= 2", timeout=LOAD_TIMEOUT)
        page.keyboard.press("k")
        page.wait_for_function("window.__interruptions >= 1", timeout=LOAD_TIMEOUT)  # K paused the animation
        page.wait_for_function(STOPPED, timeout=LOAD_TIMEOUT)
        played = page.evaluate("window.__frames")
        assert played < len(page.evaluate("document.querySelector('.js-plotly-plot')._transitionData._frames"))
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


RECORD_FRAMES = """() => {
    const plot = document.querySelector('.js-plotly-plot');
    window.__frames = [];
    window.__played = false;
    plot.on('plotly_animatingframe', event => window.__frames.push(event.name));
    plot.on('plotly_animated', () => { window.__played = true; });
}"""


# One page end to end (each file is 5 MB of plotly.js, so the three pages cost 2 minutes); the other figures' files
# differ only in the figure JSON, which tests/figures/test_figure_export.py checks for every page.
@pytest.mark.parametrize("path", ["depth_space"])
def test_downloaded_html_plays_offline_and_saves_png_and_svg(browser, app_url, tmp_path, path):
    context, page = open_view(browser, f"{app_url}/{path}", (1400, 1000))
    try:
        button = page.get_by_role("button", name="Download animated HTML").first
        button.scroll_into_view_if_needed()
        with page.expect_download(timeout=LOAD_TIMEOUT) as download:
            button.click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert saved.suffix == ".html" and saved.stat().st_size > 1_000_000  # plotly.js is inside
        # The app's own toolbar: slide buttons, PNG and SVG (tests/browser/test_browser_picture.py downloads them).
        assert page.locator('.js-plotly-plot .modebar-btn[data-title^="Download this frame as PNG"]').count() >= 1
    finally:
        context.close()

    offline = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 800})
    fetched = []

    def refuse(route):
        fetched.append(route.request.url)
        route.abort()

    offline.route(lambda url: not url.startswith(("file:", "data:", "blob:")), refuse)  # only the network is cut
    try:
        page = offline.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(saved.as_uri())
        page.wait_for_selector(".js-plotly-plot .updatemenu-button", timeout=LOAD_TIMEOUT)
        # Its cell labels are inked as the app's (viz/label_ink.js): black or white, never plotly.js's #444.
        fills = page.evaluate("[...document.querySelectorAll('g.heatmap-label text')]"
                              ".map(t => getComputedStyle(t).fill)")
        assert fills and set(fills) <= {"rgb(0, 0, 0)", "rgb(255, 255, 255)"}, set(fills)
        page.evaluate(RECORD_FRAMES)
        page.locator(".updatemenu-button").filter(has_text="Play").click()
        page.wait_for_function("window.__frames.length >= 3", timeout=LOAD_TIMEOUT)
        frames = page.evaluate("window.__frames")
        assert len(set(frames)) >= 3  # frames advance
        page.wait_for_function("window.__played", timeout=LOAD_TIMEOUT)
        assert page.evaluate("[...document.querySelectorAll('.modebar-btn')].map(b => b.dataset.title)") == [
            "Download this frame as PNG", "Download this frame as SVG"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"colors_{path}_exported_html.png"))
        for title, suffix, start in (("Download this frame as PNG", ".png", b"\x89PNG"),
                                     ("Download this frame as SVG", ".svg", b"<svg")):
            with page.expect_download(timeout=LOAD_TIMEOUT) as image:
                page.locator(f'.modebar-btn[data-title="{title}" i]').dispatch_event("click")
            target = tmp_path / image.value.suggested_filename
            image.value.save_as(target)
            assert target.suffix == suffix and target.read_bytes().startswith(start)
            assert target.stem == saved.stem
        assert ">Play<" not in target.read_text() and "slider" not in target.read_text()  # a slide: no controls
        assert fetched == [] and errors == []
    finally:
        offline.close()
