"""Cell labels as Chromium shows them, in the light and the dark theme: each label's color against the pixels of its
cell where it stands (a screenshot with the labels hidden) is at least 4.5:1, on every operator page at its default
and in the middle of Play; a slide downloaded from the toolbar inks its labels as the page does
(ui/plotly_chart.js inkLabels; tests/figures/test_contrast.py computes the same from the figures' JSON)."""

import io
import re

import numpy as np
import pytest
from PIL import Image

from support.browser import LOAD_TIMEOUT, wait_for_app
from support.contrast import MINIMUM, THEMES, rgba
from viz.colorblind import contrast_ratio

pytestmark = pytest.mark.browser

PAGES = ["depth_space", "bitwise_or", "split_join", "layouts"]
# Every drawn cell label in the window: its text, the color it is drawn in and its box in CSS pixels.
LABELS = """() => [...document.querySelectorAll('.dml-chart g.heatmap-label text')].filter(t => t.textContent)
    .map(t => { const box = t.getBoundingClientRect();
                return {text: t.textContent, fill: getComputedStyle(t).fill,
                        box: [box.left, box.top, box.right, box.bottom].map(Math.round)}; })
    .filter(l => !l.fill.startsWith('rgba(0, 0, 0, 0)') && l.box[0] >= 0 && l.box[1] >= 0
                 && l.box[2] < innerWidth && l.box[3] < innerHeight)"""
HIDE = """hidden => document.querySelectorAll('g.heatmap-label')
    .forEach(g => { g.style.visibility = hidden ? 'hidden' : ''; })"""
# A label under the Depth page's grey "not yet written" cover (92% opaque, during Play) shows through at 8%: no
# pixel of its box changes by more than 20 levels of 255. A label drawn on top changes its glyphs' pixels by more
# unless it is near 1:1 (plotly.js's #444 on the dark theme's mantissa zeros: 53 levels).
COVERED = 21
# The first figure with Play, and its state.
PLAYER = "[...document.querySelectorAll('.dml-chart')].find(c => c.querySelector('.updatemenu-button'))"


def screenshot(page, hidden):
    page.evaluate(HIDE, hidden)
    shot = np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"), dtype=float)
    page.evaluate(HIDE, False)
    return shot


def unreadable(page):
    """(text, ink, contrast) of each label in the window whose ink is under 4.5:1 on its cell (the cell's pixel at
    the label's center, in a screenshot with the labels hidden), and how many labels were under a cover."""
    labels = page.evaluate(LABELS)
    assert labels
    with_labels, without = screenshot(page, False), screenshot(page, True)
    worst, covered = [], 0
    for label in labels:
        left, top, right, bottom = label["box"]
        if np.abs(with_labels[top:bottom, left:right] - without[top:bottom, left:right]).max() < COVERED:
            covered += 1
            continue
        cell = without[(top + bottom) // 2, (left + right) // 2] / 255
        contrast = contrast_ratio(rgba(label["fill"])[0], cell)
        if contrast < MINIMUM:
            worst.append((label["text"], label["fill"], round(contrast, 2)))
    return worst, covered


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", PAGES)
def test_every_cell_label_reads_on_its_cell(browser, app_url, path, theme):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=theme)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/{path}")
        wait_for_app(page)
        background = page.evaluate("getComputedStyle(document.querySelector('.stApp')).backgroundColor")
        assert np.allclose(rgba(background)[0], rgba(THEMES[theme][0])[0], atol=1 / 255)  # the theme measured
        page.locator(".dml-chart").first.scroll_into_view_if_needed()
        assert unreadable(page) == ([], 0)  # nothing covers a label before Play
        # In the middle of Play, a frame's cells (the Bitwise page's output grid, Layouts' buffers) drawn anew.
        page.locator(".dml-chart .updatemenu-button").filter(has_text="Play").first.click()
        page.wait_for_function(f"() => {PLAYER}.__dmlPlaying", timeout=LOAD_TIMEOUT)
        page.locator(".dml-chart .updatemenu-button").filter(has_text="Pause").first.click()
        page.wait_for_function(f"() => !{PLAYER}.__dmlPlaying", timeout=LOAD_TIMEOUT)
        assert unreadable(page)[0] == []
    finally:
        context.close()


def test_a_slide_inks_its_labels_as_the_page_does(browser, app_url, tmp_path):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark",
                                  accept_downloads=True)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/depth_space")
        wait_for_app(page)
        shown = page.evaluate("""() => [...document.querySelector('.dml-chart').querySelectorAll(
            'g.heatmap-label text')].map(t => getComputedStyle(t).fill)""")
        button = page.locator('.dml-chart .modebar-btn[data-title^="Download this frame as SVG"]').first
        with page.expect_download(timeout=LOAD_TIMEOUT) as download:
            button.dispatch_event("click")
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        svg = saved.read_text()
        labels = re.findall(r'<g class="heatmap-label"><text[^>]*style="[^"]*fill: ([^;"]+)', svg)
        assert labels and [fill.replace(" ", "") for fill in labels] == [f.replace(" ", "") for f in shown]
        assert set(shown) != {"rgb(68, 68, 68)"}  # not plotly.js's own #444
    finally:
        context.close()
