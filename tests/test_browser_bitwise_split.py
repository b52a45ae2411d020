"""Bitwise OR and Split <-> Join in Chromium: load cleanly, Play animates, deep links restore settings."""

import pytest

pytestmark = pytest.mark.browser

PAGES = {
    "bitwise_or": "DML_ELEMENT_WISE_BIT_OR",
    "split_join": "DML_SPLIT and DML_JOIN",
}

RECORD_FRAMES = """() => {
    const plot = document.querySelector('.js-plotly-plot');
    window.__frames = [];
    plot.on('plotly_animatingframe', event => window.__frames.push(event.name));
}"""


def open_page(page, url):
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .updatemenu-button", timeout=60_000)
    page.wait_for_load_state("networkidle")


def shoot(page, path):
    """The page top and, separately, the figure: Streamlit scrolls inside its own container."""
    page.screenshot(path=str(path.with_suffix(".png")))
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    chart.screenshot(path=str(path.with_name(path.stem + "_figure.png")))


def assert_clean(page):
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.js_errors == []


@pytest.mark.parametrize("path", list(PAGES))
def test_page_loads_and_play_animates(page, app_url, screenshot_dir, path):
    open_page(page, f"{app_url}/{path}")
    assert page.get_by_text(PAGES[path]).count() >= 1
    assert_clean(page)
    shoot(page, screenshot_dir / f"{path}_default.png")
    page.evaluate(RECORD_FRAMES)
    page.locator(".js-plotly-plot .updatemenu-button").first.click()
    page.wait_for_function("window.__frames.length >= 2", timeout=30_000)
    page.locator(".js-plotly-plot").first.screenshot(path=str(screenshot_dir / f"{path}_playing.png"))
    frames = page.evaluate("window.__frames")
    assert frames[0] != frames[1]
    assert_clean(page)


def test_bitwise_preset_screenshot(page, app_url, screenshot_dir):
    open_page(page, f"{app_url}/bitwise_or")
    page.get_by_role("button", name="float32 1.0 | 2.0 = +inf").click()
    page.get_by_text("0x7F800000").first.wait_for(timeout=30_000)
    page.wait_for_load_state("networkidle")
    assert "or_sizes=1" in page.url  # the preset lands in the shareable link
    assert_clean(page)
    shoot(page, screenshot_dir / "bitwise_or_preset_inf.png")


def test_split_join_deep_link_restores_settings(page, app_url, screenshot_dir):
    open_page(page, f"{app_url}/split_join?sj_sizes=2,6,4&sj_axis=1&sj_split=1,2,3&dtype=INT16")
    page.get_by_text("OutputCount 3: [0] [2, 1, 4], [1] [2, 2, 4], [2] [2, 3, 4]").wait_for(timeout=30_000)
    assert page.get_by_role("textbox", name="Sizes", exact=True).input_value() == "2,6,4"
    assert page.get_by_role("textbox", name="Output sizes along Axis").input_value() == "1,2,3"
    assert_clean(page)
    shoot(page, screenshot_dir / "split_join_deep_link.png")


def test_bitwise_deep_link_restores_settings(page, app_url):
    open_page(page, f"{app_url}/bitwise_or?or_sizes=4&or_bcast=0&dtype=UINT8")
    page.get_by_text("Drawing elements 0 to 3 of 4").wait_for(timeout=30_000)
    assert page.get_by_role("textbox", name="Broadcast B along dims").input_value() == "0"
    assert_clean(page)
