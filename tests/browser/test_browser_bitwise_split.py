"""Bitwise OR and Split <-> Join in Chromium: load cleanly, Play animates, deep links restore settings."""

import pytest
from playwright.sync_api import expect

from support.browser import click_until, click_until_address_has, open_animated_page, open_group, wait_until_settled

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
    open_animated_page(page, f"{app_url}/{path}")
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
    open_animated_page(page, f"{app_url}/bitwise_or")
    open_group(page, "Presets")
    # The preset lands in the shareable link.
    click_until_address_has(page, page.get_by_role("button", name="float32 1.0 | 2.0 = +inf"), "or_sizes=1")
    page.get_by_text("0x7F800000").first.wait_for(timeout=30_000)
    wait_until_settled(page)
    assert_clean(page)
    shoot(page, screenshot_dir / "bitwise_or_preset_inf.png")


def test_split_join_deep_link_restores_settings(page, app_url, screenshot_dir):
    open_animated_page(page, f"{app_url}/split_join?sj_sizes=2,6,4&sj_axis=1&sj_split=1,2,3&dtype=INT16")
    page.get_by_text("OutputCount 3: [0] [2, 1, 4], [1] [2, 2, 4], [2] [2, 3, 4]").wait_for(timeout=30_000)
    # A widget given its value by the server shows it a moment after it appears: expect() waits for that.
    open_group(page, "Operator & sizes")
    expect(page.get_by_role("textbox", name="Sizes", exact=True)).to_have_value("2,6,4")
    expect(page.get_by_role("textbox", name="Output sizes along Axis")).to_have_value("1,2,3")
    assert_clean(page)
    shoot(page, screenshot_dir / "split_join_deep_link.png")


def test_bitwise_deep_link_restores_settings(page, app_url):
    open_animated_page(page, f"{app_url}/bitwise_or?or_sizes=4&or_bcast=0&dtype=UINT8")
    page.get_by_text("Drawing elements 0 to 3 of 4").wait_for(timeout=30_000)
    open_group(page, "Operands")
    expect(page.get_by_role("textbox", name="Broadcast B along dims")).to_have_value("0")
    assert_clean(page)


# Every cell label plotly adds to the page, counted from before the page's scripts run: a label drawn again (the
# figure drawn a second time after plotly grew a margin, or its font fitted after drawing) is added again.
COUNT_LABELS = """
window.__labelsAdded = 0;
const counted = new WeakSet();
new MutationObserver(records => records.forEach(record => record.addedNodes.forEach(node => {
    if (node.nodeType !== 1) return;
    for (const label of [node, ...node.querySelectorAll('g.heatmap-label')]) {
        if (label.matches('g.heatmap-label') && !counted.has(label)) { counted.add(label); window.__labelsAdded++; }
    }
}))).observe(document, {childList: true, subtree: true});
"""
# Each grid as drawn: its row labels and its cells' labels in drawing order (row by row), with the figure's margins
# as given and as plotly drew them.
DRAWN_GRIDS = """() => { const gd = document.querySelector('.dml-chart'), layout = gd._fullLayout;
    return {given: [layout.margin.l, layout.margin.b], drawn: [layout._size.l, layout._size.b],
            added: window.__labelsAdded,
            grids: [...gd.querySelectorAll('g.hm')].map(group => {
                const trace = group.__data__[0].trace;
                return {rows: layout['yaxis' + trace.yaxis.slice(1)].ticktext,
                        bits: [...group.querySelectorAll('g.heatmap-label text')].map(text => text.textContent)};
            })}; }"""


def test_bitwise_default_figure_labels_every_bit_with_its_value_drawn_once(page, app_url):
    page.add_init_script(COUNT_LABELS)
    open_animated_page(page, f"{app_url}/bitwise_or")
    drawn = page.evaluate(DRAWN_GRIDS)
    # The margins the row labels and the Play controls take were given before drawing (ui/plotly_chart.js,
    # withRowLabelMargin; bitwise_fig.CONTROLS_PX): plotly grows a margin that is too small only by drawing the whole
    # figure again, its 576 labels included.
    assert drawn["drawn"] == drawn["given"]
    assert [len(grid["bits"]) for grid in drawn["grids"]] == [6 * 32] * 3
    for grid in drawn["grids"]:
        for row, label in enumerate(grid["rows"]):  # '#1  1 0x00000001': the element's bit pattern, at the end
            assert "".join(grid["bits"][row * 32:(row + 1) * 32]) == format(int(label.split()[-1], 16), "032b"), label
    assert drawn["added"] == 3 * 6 * 32  # each label drawn once
    assert_clean(page)


CELL_POINT = """([xaxis, yaxis, col, row]) => {
    const gd = document.querySelector('.js-plotly-plot');
    const xa = gd._fullLayout[xaxis], ya = gd._fullLayout[yaxis];
    const box = gd.getBoundingClientRect();
    return [box.left + xa._offset + xa.l2p(col), box.top + ya._offset + ya.l2p(row)];
}"""

PICK_SHAPES = """() => {
    const gd = document.querySelector('.js-plotly-plot');
    return (gd.layout.shapes || []).filter(s => (s.name || '').startsWith('pick')).map(s => [s.name, s.path]);
}"""


def click_cell(page, xaxis, yaxis, col, row):
    """Click the middle of one heatmap cell, found from the plot's own axes, once plotly hovers a marker there."""
    # The run a previous click started may still be adding elements above the chart (the pick's explanation):
    # the point is taken once no run is under way and every figure is drawn.
    wait_until_settled(page)
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    point = page.evaluate(CELL_POINT, [xaxis, yaxis, col, row])
    page.mouse.move(*point)
    page.wait_for_function("() => (document.querySelector('.js-plotly-plot')._hoverdata || []).length > 0",
                           timeout=30_000)
    page.mouse.click(*point)


def pick_cell(page, xaxis, yaxis, col, row, said):
    """Click a cell until the page says `said` about it: a click that lands while the chart is being replaced (a
    fragment's rerun) is lost, and a second click on the same cell picks the same element."""
    click_until(lambda: click_cell(page, xaxis, yaxis, col, row),
                lambda timeout: page.get_by_text(said).wait_for(timeout=timeout))


def wait_for_pick_shapes(page, count, containing=""):
    page.wait_for_function(
        """([count, containing]) => { const gd = document.querySelector('.js-plotly-plot');
               const picks = (gd && gd.layout.shapes || []).filter(s => (s.name || '').startsWith('pick'));
               return picks.length === count && picks.some(s => s.path.includes(containing)); }""",
        arg=[count, containing], timeout=30_000)


def test_split_join_click_an_input_then_an_output_cell(page, app_url, screenshot_dir):
    open_animated_page(page, f"{app_url}/split_join?sj_sizes=1,1,6,2&sj_axis=2&sj_split=2,1,3")
    # Input cell row 3, column 1 -> OutputTensors[2] (rows 3..5), its row 0.
    pick_cell(page, "xaxis", "yaxis", 1, 3, "Picked: InputTensor[0, 0, 3, 1] → OutputTensors[2][0, 0, 0, 1]")
    wait_for_pick_shapes(page, 2)
    # At rest the right panel shows the outputs apart: [2] starts at row 3 + 2 gaps, so row 0 of it is row 5.
    assert dict(page.evaluate(PICK_SHAPES)) == {
        "pick-source": "M0.5,2.5 L1.5,2.5 L1.5,3.5 L0.5,3.5 Z",
        "pick-destination": "M0.5,4.5 L1.5,4.5 L1.5,5.5 L0.5,5.5 Z",
    }
    assert_clean(page)
    shoot(page, screenshot_dir / "split_join_pick.png")
    # Output cell: right panel row 6, column 0 is OutputTensors[2][0, 0, 1, 0], from input row 4.
    pick_cell(page, "xaxis2", "yaxis2", 0, 6, "Picked: InputTensor[0, 0, 4, 0] → OutputTensors[2][0, 0, 1, 0]")
    wait_for_pick_shapes(page, 2, "M-0.5,3.5")
    assert_clean(page)


def test_bitwise_click_a_bit_highlights_it_in_a_b_and_output(page, app_url, screenshot_dir):
    open_animated_page(page, f"{app_url}/bitwise_or?dtype=FLOAT32")
    # Output grid: element 1, second bit from the left = bit 30
    pick_cell(page, "xaxis3", "yaxis3", 1, 1, "Picked: element #1, bit 30 (exponent)")
    wait_for_pick_shapes(page, 3)
    assert {path for _, path in page.evaluate(PICK_SHAPES)} == {"M0.5,0.5 L1.5,0.5 L1.5,1.5 L0.5,1.5 Z"}
    assert_clean(page)
    shoot(page, screenshot_dir / "bitwise_or_pick.png")


def test_bitwise_values_error_keeps_the_greyed_picture_names_the_operand_and_fixes_it(page, app_url, screenshot_dir):
    open_animated_page(page, f"{app_url}/bitwise_or?pattern=custom&values=1&or_sizes=1")
    box = open_group(page, "Operands").get_by_label("Sizes", exact=True)
    box.fill("4")
    box.press("Enter")
    # The refusal, in its error box (the Validation tab's note repeats it).
    page.get_by_test_id("stAlertContentError").get_by_text(
        "A's values (Values, in the sidebar): 1 values given, but Sizes [4] hold 4").wait_for(timeout=30_000)
    wait_until_settled(page)
    expect(page.locator(".st-key-greyed-last-valid .js-plotly-plot")).to_have_count(1)  # the picture stays, greyed
    expect(page.get_by_role("tab", name="Validation")).to_have_count(1)  # and so do the panels
    page.screenshot(path=str(screenshot_dir / "bitwise_or_values_error.png"))
    page.get_by_role("button", name="Sizes 1").click()  # the Fix
    expect(page.locator(".st-key-greyed-last-valid")).to_have_count(0, timeout=30_000)
    wait_until_settled(page)
    assert page.locator('[data-testid="stAlert"]').filter(has_text="values given").count() == 0
    assert_clean(page)
