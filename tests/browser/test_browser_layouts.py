"""The Layouts page in Chromium: loads cleanly, Play animates the copy, a preset lands in the link and the link
restores it."""

import re

import pytest
from playwright.sync_api import expect

from support.browser import click_until_address_has, open_animated_page, open_group, wait_until_settled

pytestmark = pytest.mark.browser

RECORD_FRAMES = """() => {
    const plot = document.querySelectorAll('.js-plotly-plot')[3];
    window.__frames = [];
    plot.on('plotly_animatingframe', event => window.__frames.push(event.name));
}"""


def assert_clean(page):
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.js_errors == []


def test_layouts_default_plays_and_nhwc_preset_is_a_link(page, app_url, screenshot_dir):
    open_animated_page(page, f"{app_url}/layouts")
    assert page.get_by_text("Valid at DML_FEATURE_LEVEL_6_4").count() == 1
    assert page.locator(".js-plotly-plot").count() == 4  # two memory maps, the logical tensor, the copy
    assert_clean(page)
    page.screenshot(path=str(screenshot_dir / "layouts_default.png"))

    page.evaluate(RECORD_FRAMES)
    copy = page.locator(".js-plotly-plot").nth(3)
    copy.scroll_into_view_if_needed()
    copy.locator(".updatemenu-button").first.click()
    page.wait_for_function("window.__frames.length >= 2", timeout=30_000)
    frames = page.evaluate("window.__frames")
    assert frames[0] != frames[1]
    copy.screenshot(path=str(screenshot_dir / "layouts_copy_playing.png"))

    # Streamlit draws the label's "->" as an arrow.
    open_group(page, "Presets")
    click_until_address_has(page, page.get_by_role("button", name=re.compile("^NCHW")),
                            "ly_out_strides=24%2C1%2C12%2C3")
    page.get_by_text("byte-identical").first.wait_for(timeout=30_000)
    wait_until_settled(page)
    assert_clean(page)
    page.screenshot(path=str(screenshot_dir / "layouts_nchw_nhwc.png"))
    for number, name in ((0, "maps"), (3, "copy")):
        page.locator(".js-plotly-plot").nth(number).scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / f"layouts_nchw_nhwc_{name}.png"))

    link = page.url
    fresh = page.context.new_page()
    fresh.js_errors = []
    fresh.on("pageerror", lambda error: fresh.js_errors.append(str(error)))
    open_animated_page(fresh, link)
    # A widget shows the value the server gave it a moment after it appears: expect() waits for that, and the blank
    # fields are checked once the other field of their group shows its value.
    for side, sizes, strides in (("InputTensor", "1,3,2,4", ""), ("OutputTensor", "", "24,1,12,3")):
        body = open_group(fresh, side)
        expected = {"Sizes": sizes, "Strides (in elements)": strides}
        for label, value in sorted(expected.items(), key=lambda item: not item[1]):
            expect(body.locator(f"input[aria-label='{label}']")).to_have_value(value)
    assert_clean(fresh)
