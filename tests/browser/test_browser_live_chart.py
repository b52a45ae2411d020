"""ui/plotly_chart.js in Chromium: one graph per chart, redrawn in place; a click redraws only the pick."""

import pytest

from support.browser import assert_clean, click_until_address_has, open_group, wait_for_app, wait_until_settled
from support.links import AWAY
from ui.url_state import query_of

pytestmark = pytest.mark.browser

# Plotly emits plotly_react after Plotly.react (the whole figure recomputed), plotly_relayout after a relayout and
# plotly_afterplot after each drawing of the traces.
TAG = """() => { const gd = document.querySelector('.js-plotly-plot');
                  gd.dataset.tagged = 'yes'; gd.querySelector('.main-svg').dataset.tagged = 'yes';
                  window.__drawn = [];
                  if (!gd.__tested) { gd.__tested = true;
                    ['plotly_react', 'plotly_relayout', 'plotly_restyle', 'plotly_afterplot']
                        .forEach(e => gd.on(e, () => window.__drawn.push(e))); } }"""
STATE = """() => { const gd = document.querySelector('.js-plotly-plot');
                    return {graph: gd.dataset.tagged || null, drawn: window.__drawn,
                            svg: gd.querySelector('.main-svg').dataset.tagged || null,
                            title: gd.layout.annotations[0].text,
                            png: gd._context.toImageButtonOptions.filename,
                            picked: (gd.layout.shapes || []).some(s => s.name === 'pick-destination')}; }"""


def change_c(page, value):
    box = open_group(page, "Shape").locator('input[aria-label="C"]')
    box.fill(str(value))
    box.press("Enter")
    page.wait_for_function(f"() => document.querySelector('.js-plotly-plot').layout.annotations[0].text"
                           f".includes('[1, {value}, 2, 3]')", timeout=60_000)
    wait_until_settled(page)


def click_input_cell(page):
    point = page.evaluate(
        """() => { const gd = document.querySelector('.js-plotly-plot'); gd.scrollIntoView({block: 'center'});
                   const t = gd._fullData.find(t => t.type === 'scatter' && t.name === 'input');
                   const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
                   return [box.left + xa._offset + xa.l2p(t.x[4]), box.top + ya._offset + ya.l2p(t.y[4])]; }""")
    page.mouse.click(*point)
    page.wait_for_function("() => (document.querySelector('.js-plotly-plot').layout.shapes || [])"
                           ".some(s => s.name === 'pick-destination')", timeout=60_000)
    wait_until_settled(page)


def test_a_change_redraws_the_same_graph_and_a_click_only_its_pick(page, app_url):
    page.goto(app_url + "/depth_space")
    wait_for_app(page)
    page.evaluate(TAG)
    change_c(page, 16)
    state = page.evaluate(STATE)
    # st.plotly_chart mounted a new graph for every new figure; here the graph stays and its cells are redrawn.
    # Redrawn in its own SVG, once: a changed config (the PNG's name) made Plotly.react start over with newPlot, and
    # labels fitted to the cells after the drawing would draw them again (plotly_chart.js fits them before).
    assert state["graph"] == "yes" and state["svg"] == "yes"
    assert state["drawn"] == ["plotly_afterplot", "plotly_react"]
    assert state["title"] == "<b>input</b> [1, 16, 2, 3]"
    assert "1_16_2_3" in state["png"]  # the PNG's name follows the settings
    page.evaluate(TAG)
    click_input_cell(page)
    state = page.evaluate(STATE)
    assert state["picked"] and state["graph"] == "yes" and state["drawn"] == ["plotly_relayout"]
    assert_clean(page)



# Each graph's axes as plotly drew them: range and domain, rounded past float noise.
AXES = """() => [...document.querySelectorAll('.dml-chart')].map(gd => Object.entries(gd._fullLayout)
    .filter(([key]) => /^[xy]axis\\d*$/.test(key))
    .map(([key, axis]) => [key, ...[axis.range, axis.domain].map(pair => pair.map(v => +(+v).toFixed(6)))]))"""


def test_a_new_figure_draws_its_own_axes_not_the_constraints_of_the_last(page, browser, app_url):
    # A memory map of 5 columns, then a preset's of 3: Plotly.react restored the 5 columns' range on the input
    # buffer's scale-anchored x axis (plotly_chart.js forgetConstraints), ticks 3 and 4 beside 3 columns of cells.
    page.goto(app_url + "/layouts?" + "&".join(f"{k}={v}" for k, v in query_of(AWAY["layouts"]).items()))
    wait_for_app(page)
    open_group(page, "Presets")
    click_until_address_has(page, page.locator(".st-key-ly_preset_0 button"), "ly_in_sizes=2")
    wait_until_settled(page)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    fresh = context.new_page()
    fresh.goto(page.url)
    wait_for_app(fresh)
    expected = fresh.evaluate(AXES)
    context.close()
    assert page.evaluate(AXES) == expected
    assert_clean(page)
