"""No JavaScript errors while playing (Bitwise OR page, Chromium): Pause during Play, Play again, the slider and a
rerun during Play each interrupt a Plotly animation, whose rejected promise plotly.js never catches
(ui/plotly_chart.js handles exactly those); any other unhandled rejection still reaches the page's errors."""

import pytest

from support.browser import open_popover

pytestmark = pytest.mark.browser

BUTTONS = ".js-plotly-plot .updatemenu-button"
RECORD = """() => {
    window.__frames = 0;
    document.querySelector('.js-plotly-plot').on('plotly_animatingframe', () => { window.__frames += 1; });
}"""


def ready(page):
    page.wait_for_selector(BUTTONS, timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)


def play(page):
    page.evaluate(RECORD)
    page.locator(BUTTONS).first.click()
    page.wait_for_function("window.__frames >= 1", timeout=30_000)  # the animation is running


@pytest.fixture
def bitwise(page, app_url):
    page.goto(f"{app_url}/bitwise_or")
    ready(page)
    return page


def test_pause_during_play(bitwise):
    play(bitwise)
    bitwise.locator(BUTTONS).nth(1).click()
    bitwise.wait_for_timeout(800)
    frames = bitwise.evaluate("window.__frames")
    bitwise.wait_for_timeout(1500)
    assert bitwise.evaluate("window.__frames") == frames  # paused: no frame after Pause
    assert bitwise.js_errors == []


def test_play_again_and_the_slider_during_play(bitwise):
    play(bitwise)
    bitwise.locator(BUTTONS).first.click()
    bitwise.wait_for_timeout(500)
    bitwise.locator(".js-plotly-plot .slider-grip-rect").first.click()
    bitwise.wait_for_timeout(800)
    assert bitwise.js_errors == []


def test_rerun_during_play(bitwise):
    play(bitwise)
    bitwise.get_by_role("tab", name="Export").click()  # the page reruns and redraws the figure mid-animation
    bitwise.get_by_text("Download model JSON").wait_for(timeout=30_000)
    ready(bitwise)
    play(bitwise)
    open_popover(bitwise, "Drawn elements")
    bitwise.get_by_role("spinbutton", name="Elements drawn").fill("3")
    bitwise.keyboard.press("Enter")
    bitwise.get_by_text("Drawing elements 0 to 2").wait_for(timeout=30_000)
    bitwise.wait_for_timeout(800)
    assert bitwise.js_errors == []


def test_other_rejections_still_surface(bitwise):
    bitwise.evaluate("() => { Promise.reject(new Error('not an animation')); }")
    bitwise.evaluate("() => { Promise.reject(); }")  # no reason, but no animation was interrupted
    bitwise.wait_for_timeout(300)
    assert len(bitwise.js_errors) == 2 and "not an animation" in bitwise.js_errors[0]
