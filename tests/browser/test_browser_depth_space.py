"""The overview and Depth <-> Space pages in Debian's Chromium: they load clean, animate, deep-link, highlight."""

import json
import re

import pytest
from playwright.sync_api import expect

from ops.operators.depth_space import depth_to_space
from support.browser import click_until_address_has, open_group, wait_for_app
from support.visitor import served_app
from ui.values import make_values
from viz.depth_space_fig import Column, Trace, depth_space_figure

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 60_000


def assert_clean(page):
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not page.js_errors, page.js_errors


def plot_state(page, index=0):
    """The 'not yet written' cover's colorscale and the slider position of the index-th chart."""
    return page.evaluate(
        """([i, cover]) => { const gd = document.querySelectorAll('.js-plotly-plot')[i];
                    return JSON.stringify([gd.data[cover].colorscale, gd._fullLayout.sliders[0].active]); }""",
        [index, int(Trace.COVER)],
    )


def test_overview_loads_clean(page, app_url, screenshot_dir):
    page.goto(app_url)
    wait_for_app(page)
    page.get_by_text("DirectML operator visualizer").first.wait_for()
    assert page.locator(".js-plotly-plot").count() >= 1
    page.screenshot(path=str(screenshot_dir / "overview.png"), full_page=True)
    assert_clean(page)


def test_depth_page_play_changes_the_drawn_frame(page, app_url, screenshot_dir):
    page.goto(app_url + "/depth_space")
    wait_for_app(page)
    page.screenshot(path=str(screenshot_dir / "depth_space_default.png"), full_page=True)
    before = plot_state(page)
    page.locator(".js-plotly-plot .updatemenu-button").filter(has_text="Play").first.click()
    page.wait_for_function(
        """([before, cover]) => { const gd = document.querySelector('.js-plotly-plot');
                         const now = [gd.data[cover].colorscale, gd._fullLayout.sliders[0].active];
                         return JSON.stringify(now) !== before; }""",
        arg=[before, int(Trace.COVER)], timeout=LOAD_TIMEOUT,
    )
    page.screenshot(path=str(screenshot_dir / "depth_space_playing.png"), full_page=True)
    assert plot_state(page) != before
    assert_clean(page)


def test_deep_link_restores_settings(page, app_url, screenshot_dir):
    page.goto(app_url + "/depth_space?N=2&C=18&H=2&W=2&BlockSize=3&Order=compare&dtype=FLOAT16")
    wait_for_app(page)
    open_group(page, "Shape")
    expect(page.locator('input[aria-label="C"]')).to_have_value("18")
    expect(page.locator('input[aria-label="BlockSize"]')).to_have_value("3")
    assert page.locator(".js-plotly-plot").count() == 2
    expect(page.locator('input[aria-label="DataType"]')).to_have_value("FLOAT16")  # the shared settings too
    titles = page.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => gd.layout.annotations[0].text)")
    assert titles == ["<b>input</b> [2, 18, 2, 2]"] * 2
    page.screenshot(path=str(screenshot_dir / "depth_space_deep_link.png"), full_page=True)
    assert_clean(page)


def test_clicking_a_cell_highlights_source_and_destination(page, app_url, screenshot_dir):
    page.goto(app_url + "/depth_space")
    wait_for_app(page)
    # Canvas position of the input cell (c=1, h=1, w=2), flat index 11, from the same figure builder.
    x = make_values("coded", (1, 8, 2, 3), "UINT32")
    fig = depth_space_figure(x, depth_to_space(x, 2, "DEPTH_COLUMN_ROW"), 2, "DEPTH_COLUMN_ROW", "depth_to_space")
    inputs = next(t for t in fig.data if t.type == "scatter" and t.name == "input")
    i = [int(row[Column.IN_FLAT]) for row in inputs.customdata].index(11)
    point = page.evaluate(
        """([cx, cy]) => { const gd = document.querySelector('.js-plotly-plot');
                   const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
                   const box = gd.getBoundingClientRect();
                   return [box.left + xa._offset + xa.l2p(cx), box.top + ya._offset + ya.l2p(cy)]; }""",
        [float(inputs.x[i]), float(inputs.y[i])])
    page.mouse.click(*point)
    page.wait_for_function(
        """() => { const gd = document.querySelector('.js-plotly-plot');
                   return !!gd && (gd.layout.shapes || []).some(s => s.name === 'pick-destination'); }""",
        timeout=LOAD_TIMEOUT,
    )
    page.get_by_text("(0, 1, 1, 2)").first.wait_for()
    page.screenshot(path=str(screenshot_dir / "depth_space_pick.png"), full_page=True)
    assert_clean(page)


def test_overview_preset_opens_the_depth_page_with_its_settings(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    # st.switch_page changes the URL with the history API: there is no load event to wait for.
    click_until_address_has(page, page.get_by_role("button", name="Space → depth, BlockSize 3"), "/depth_space")
    wait_for_app(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')].filter(gd => gd.layout).length === 2",
        timeout=LOAD_TIMEOUT)
    page.wait_for_function("() => location.search.includes('BlockSize=3')", timeout=LOAD_TIMEOUT)
    open_group(page, "Shape")
    expect(page.locator('input[aria-label="BlockSize"]')).to_have_value("3")
    metas = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => gd.layout.meta)")
    assert [m["operator"] for m in metas] == ["SPACE_TO_DEPTH1"] * 2, json.dumps(metas)
    assert_clean(page)


def test_in_page_preset_updates_the_url_and_dark_theme_draws(browser, app_url, screenshot_dir):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(app_url + "/depth_space?C=4&H=3&W=3")
        wait_for_app(page)
        open_group(page, "Presets")
        click_until_address_has(page, page.get_by_role("button", name="Seed example, both orders"), "Order=compare")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.js-plotly-plot')].filter(gd => gd.layout).length === 2",
            timeout=LOAD_TIMEOUT)
        assert "C=4" not in page.url  # back to the seed's C=8, the default, which the URL leaves out
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor")
        assert background != "rgb(255, 255, 255)"
        page.screenshot(path=str(screenshot_dir / "depth_space_dark_compare.png"), full_page=True)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert not errors, errors
    finally:
        context.close()


def test_open_in_workbench_from_a_page_with_settings_in_its_url(page, app_url):
    page.goto(app_url + "/depth_space?Order=COLUMN_ROW_DEPTH&dtype=FLOAT32")
    wait_for_app(page)
    page.get_by_role("tab", name="Export").click()
    page.get_by_role("button", name="Open in Descriptor workbench").click()
    page.wait_for_function("() => location.pathname.endsWith('/workbench')", timeout=LOAD_TIMEOUT)
    page.get_by_text("Model received from the operator page").first.wait_for(timeout=LOAD_TIMEOUT)
    # The workbench does not read the shared DataType, so its sidebar leaves it out; the session keeps it for the
    # operator pages.
    expect(page.locator('[data-testid="stSidebar"] input[aria-label="DataType"]')).to_have_count(0)
    page.get_by_role("link", name=re.compile("^Depth . Space$")).click()
    expect(page.locator('input[aria-label="DataType"]')).to_have_value("FLOAT32", timeout=LOAD_TIMEOUT)
    assert_clean(page)


# Streamlit treats a folder named pages/ beside the entry script as an old-style multipage app and runs
# a deep-linked page without app.py until "/" has been served once; the pages live in app_pages/ for that.
def test_a_deep_link_as_the_first_request_after_a_server_start_runs_through_app_py(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    # served_app only asks /_stcore/health before yielding: no page has been served yet.
    with served_app() as (url, _):
        try:
            page = context.new_page()
            page.goto(f"{url}/depth_space?C=4&dtype=FLOAT16")
            wait_for_app(page)
            page.locator('input[aria-label="DataType"]').wait_for(timeout=10_000)
            expect(page.locator('input[aria-label="DataType"]')).to_have_value("FLOAT16")
        finally:
            context.close()
