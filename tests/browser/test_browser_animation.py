"""No JavaScript errors while playing (Bitwise OR page, Chromium): Pause during Play, Play again, the slider and a
rerun during Play each interrupt a Plotly animation, whose rejected promise plotly.js never catches
(ui/plotly_chart.js handles exactly those); any other unhandled rejection still reaches the page's errors.

Each test records, in the page, the frames plotly animates, the interruptions it reports, and every unhandled
rejection with whether the page's handler took it, so that it asserts the interruption it is named after happened
and was handled, not only that no error surfaced."""

import pytest

from support.browser import open_group, wait_until_settled

pytestmark = pytest.mark.browser

BUTTONS = ".js-plotly-plot .updatemenu-button"
# Registered after ui/plotly_chart.js's own handler, so each rejection is seen once that handler has had its say.
RECORD = """() => {
    const gd = document.querySelector('.js-plotly-plot');
    window.__frames = [];
    window.__interruptions = 0;
    window.__rejections = [];
    gd.on('plotly_animatingframe', event => window.__frames.push(event.name));
    gd.on('plotly_animationinterrupted', () => { window.__interruptions += 1; });
    window.addEventListener('unhandledrejection', event => window.__rejections.push(
        {reason: String(event.reason), handled: event.defaultPrevented}));
}"""
# Nothing animates once paused: plotly's queue of frames is empty and its animation loop is not scheduled.
STOPPED = """() => { const gd = document.querySelector('.js-plotly-plot');
    return gd._transitionData._frameQueue.length === 0 && !gd._transitionData._animationRaf; }"""


def ready(page):
    page.wait_for_selector(BUTTONS, timeout=60_000)
    wait_until_settled(page)
    page.evaluate(RECORD)


def play(page, at_least=1):
    page.locator(BUTTONS).filter(has_text="Play").first.click()
    page.wait_for_function(f"window.__frames.length >= {at_least}", timeout=30_000)  # the animation is running


def interrupted(page, count):
    """Until plotly has reported `count` interruptions, and the rejection each one left behind was handled."""
    page.wait_for_function(f"window.__interruptions >= {count} && window.__rejections.length >= {count}",
                           timeout=30_000)
    rejections = page.evaluate("window.__rejections")
    assert rejections and all(r["handled"] for r in rejections), rejections


@pytest.fixture
def bitwise(page, app_url):
    page.goto(f"{app_url}/bitwise_or")
    ready(page)
    return page


def test_pause_during_play(bitwise):
    play(bitwise)
    bitwise.locator(BUTTONS).filter(has_text="Pause").click()
    interrupted(bitwise, 1)
    bitwise.wait_for_function(STOPPED, timeout=30_000)
    frames = bitwise.evaluate("window.__frames.length")
    assert 0 < frames < len(bitwise.evaluate("document.querySelector('.js-plotly-plot')._transitionData._frames"))
    assert bitwise.js_errors == []


def test_play_again_and_the_slider_during_play(bitwise):
    play(bitwise, at_least=2)
    bitwise.locator(BUTTONS).filter(has_text="Play").first.click()  # Play again: the animation starts over
    interrupted(bitwise, 1)
    first = bitwise.evaluate("document.querySelector('.js-plotly-plot')._transitionData._frames[0].name")
    bitwise.wait_for_function(f"window.__frames.slice(2).includes({first!r})", timeout=30_000)
    # The slider's first step, clicked while Play runs on: it interrupts Play and shows that step.
    bitwise.locator(".js-plotly-plot .slider-rail-touch-rect").first.click(position={"x": 2, "y": 10})
    interrupted(bitwise, 2)
    bitwise.wait_for_function("document.querySelector('.js-plotly-plot')._fullLayout.sliders[0].active === 0",
                              timeout=30_000)
    bitwise.wait_for_function(STOPPED, timeout=30_000)
    assert bitwise.js_errors == []


def test_rerun_during_play(bitwise):
    play(bitwise)
    bitwise.get_by_role("tab", name="Export").click()  # the page reruns and redraws the figure mid-animation
    bitwise.get_by_text("Download model JSON").wait_for(timeout=30_000)
    ready(bitwise)
    play(bitwise)
    open_group(bitwise, "Drawn elements")
    bitwise.get_by_role("spinbutton", name="Elements drawn").fill("3")
    bitwise.keyboard.press("Enter")
    bitwise.get_by_text("Drawing elements 0 to 2").wait_for(timeout=30_000)
    wait_until_settled(bitwise)
    assert bitwise.js_errors == []


def test_other_rejections_still_surface(bitwise):
    with bitwise.expect_event("pageerror", timeout=30_000):
        bitwise.evaluate("() => { Promise.reject(new Error('not an animation')); }")
    with bitwise.expect_event("pageerror", timeout=30_000):
        bitwise.evaluate("() => { Promise.reject(); }")  # no reason, but no animation was interrupted
    assert len(bitwise.js_errors) == 2 and "not an animation" in bitwise.js_errors[0]
    assert [r["handled"] for r in bitwise.evaluate("window.__rejections")] == [False, False]
