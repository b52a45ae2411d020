"""The Gather & Scatter and Slice, Pad & Tile pages in Debian's Chromium, at a projector's 1280x720: a preset's link
opens clean, a click on an output cell outlines its source (and its index), Play moves the drawn frame."""

import pytest

from app_pages.gather_scatter import settings as gather
from app_pages.provenance import picture
from app_pages.slice_pad import settings as slice_pad
from support.browser import LOAD_TIMEOUT, assert_clean, wait_for_app
from ui.url_state import query_of
from ui.values import Values

pytestmark = pytest.mark.browser

VIEWS = {
    "gather": ("/gather_scatter", gather.PRESETS["GATHER Example 2. 2D output, 1D indices, Axis 0, concatenate rows"],
               5),
    "scatter_collision": ("/gather_scatter", gather.PRESETS["SCATTER Example 1. 1D scatter"], 3),
    "reflection_pad": ("/slice_pad", slice_pad.PRESETS["PADDING1 Example 3 (REFLECTION)"], 0),
}
CONFIGURE = {"/gather_scatter": gather.configure, "/slice_pad": slice_pad.configure}
DEFAULTS = {"/gather_scatter": gather.DEFAULTS, "/slice_pad": slice_pad.DEFAULTS}


def address(path, settings):
    return path + "?" + "&".join(f"{k}={v}" for k, v in query_of(settings).items())


def cell_point(page, path, settings, flat):
    """Where on the screen the output cell with flat index `flat` is drawn: its canvas cell from the same figure."""
    configure = CONFIGURE[path]
    c = configure({**DEFAULTS[path], **settings}, Values("custom", settings["dtype"], text=settings["values"]))
    context = picture(c).context
    row, col = context.cell(len(context.grids) - 1, flat)
    return page.evaluate(
        """([x, y]) => { const gd = document.querySelector('.js-plotly-plot');
               const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
               return [box.left + xa._offset + xa.l2p(x), box.top + ya._offset + ya.l2p(y)]; }""", [col, row])


def slider(page):
    return page.evaluate("() => document.querySelector('.js-plotly-plot')._fullLayout.sliders[0].active")


@pytest.mark.parametrize("name", list(VIEWS))
def test_click_a_cell_then_play(page, app_url, screenshot_dir, name):
    path, settings, flat = VIEWS[name]
    page.set_viewport_size({"width": 1280, "height": 720})  # a projector's
    page.goto(app_url + address(path, settings))
    wait_for_app(page)
    page.mouse.click(*cell_point(page, path, settings, flat))
    page.wait_for_function(
        """() => { const gd = document.querySelector('.js-plotly-plot');
                   return !!gd && (gd.layout.shapes || []).some(s => s.name === 'pick-link-end'); }""",
        timeout=LOAD_TIMEOUT)
    page.get_by_text("Picked: OutputTensor").first.wait_for()
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    page.mouse.move(2, 2)  # the hover label would cover the cells
    page.wait_for_selector(".hoverlayer .hovertext", state="detached", timeout=LOAD_TIMEOUT)
    page.screenshot(path=str(screenshot_dir / f"{name}.png"))
    before = slider(page)
    page.locator(".js-plotly-plot .updatemenu-button").filter(has_text="Play").first.click()
    page.wait_for_function("(before) => document.querySelector('.js-plotly-plot')._fullLayout.sliders[0].active "
                           "!== before", arg=before, timeout=LOAD_TIMEOUT)
    assert_clean(page)
