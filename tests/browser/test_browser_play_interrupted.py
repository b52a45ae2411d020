"""Issue 30: the figure is always the settings' figure. On every operator page, in Chromium: Play starts, a setting
changes (or a preset is pressed) while the animation runs, and what the page then draws (every plot's traces,
outlines and SVG text, and every input) must equal what a fresh browser draws from the same address. Before, the old
animation's frames went on writing into the new figure (Bitwise's grid kept a FLOAT32 OR's bits under a UINT8
SHIFT_LEFT title)."""

import pytest

from support.browser import click_until, open_group, reopen, settle, view
from support.paths import SCREENSHOTS

pytestmark = pytest.mark.browser

PLAYING = "() => [...document.querySelectorAll('.dml-chart')].some(graph => graph.__dmlPlaying)"


def preset(prefix, index):
    """Press the page's preset `index` (its Presets group open), until the address changes."""
    def change(page):
        before = page.evaluate("location.href")
        button = page.locator(f".st-key-{prefix}_preset_{index} button")
        click_until(button.click, lambda timeout: page.wait_for_function(
            "(before) => location.href !== before", arg=before, timeout=timeout))
    return change


def channels(count):
    """Type C = `count` into the Shape group (open at first) and leave the field."""
    def change(page):
        field = page.locator('[data-testid="stSidebar"] input[aria-label="C"]')
        field.fill(str(count))
        field.press("Enter")
        page.wait_for_function("(part) => location.href.includes(part)", arg=f"C={count}", timeout=60_000)
    return change


# (page, its starting query, what changes during Play)
CASES = {
    "depth_space": ("", channels(4)),
    # The issue's own: Play on a FLOAT32 OR, then the preset "uint8 0x8B << 7, 8, 32, 33".
    "bitwise_or": ("dtype=FLOAT32&pattern=custom&values=1.0&or_sizes=1&or_b_source=typed&or_b_text=2.0",
                   preset("or", 3)),
    "split_join": ("", preset("sj", 1)),
    "layouts": ("", preset("ly", 1)),
}


@pytest.mark.parametrize("path", list(CASES))
def test_a_change_during_play_draws_the_new_figure_whole(page, browser, app_url, path):
    query, change = CASES[path]
    page.goto(f"{app_url}/{path}?{query}")
    settle(page)
    if path != "depth_space":
        open_group(page, "Presets")  # before Play: the change then comes while the animation runs
    play = page.locator(".dml-chart .updatemenu-button").filter(has_text="Play").first
    play.scroll_into_view_if_needed()
    play.click()
    page.wait_for_function(PLAYING, timeout=30_000)
    change(page)
    settle(page)
    seen = view(page)
    page.screenshot(path=SCREENSHOTS / f"play_interrupted_{path}.png")
    fresh = reopen(browser, page.evaluate("location.href"), seen)
    assert fresh == seen
    assert page.evaluate(PLAYING) is False
