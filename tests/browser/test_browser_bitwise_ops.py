"""The Bitwise page's Operation setting in Chromium: choosing another operation redraws the bit grids."""

import pytest

from support.browser import CHART, assert_clean, open_animated_page, open_group, wait_until_settled

pytestmark = pytest.mark.browser

# The drawn figure's grid titles and heatmaps, as plotly holds them in the page.
DRAWN = f"""() => {{
    const chart = document.querySelector('{CHART}');
    if (!chart || !chart.layout) return null;
    return {{titles: (chart.layout.annotations || []).filter(a => a.yref === 'paper').map(a => a.text),
             heatmaps: chart.data.filter(t => t.type === 'heatmap').length}};
}}"""


def choose_operation(page, label):
    """Open the Operation selectbox (Operands group) and pick the option `label`."""
    group = open_group(page, "Operands")
    group.get_by_role("combobox", name="Operation").click()
    page.get_by_role("option", name=label).click()


@pytest.mark.parametrize("label, title, heatmaps", [
    ("NOT: ~A", "Output  = ~A", 2),
    ("SHIFT_LEFT: A << B", "Output  = A << B", 3),
])
def test_choosing_an_operation_redraws_the_grids(page, app_url, label, title, heatmaps):
    open_animated_page(page, f"{app_url}/bitwise_or?dtype=UINT8")
    before = page.evaluate(DRAWN)
    assert before["titles"][-1] == "Output  = A | B" and before["heatmaps"] == 3
    choose_operation(page, label)
    # Waits on the figure itself: plotly's layout names the new formula once the rerun has been drawn.
    page.wait_for_function(f"() => ({DRAWN})()?.titles.at(-1) === {title!r}", timeout=60_000)
    wait_until_settled(page)
    after = page.evaluate(DRAWN)
    assert after["heatmaps"] == heatmaps
    assert "bw_op=" in page.url  # the choice lands in the shareable link
    assert page.get_by_role("heading", name="Bitwise " + label.split(":")[0].replace("_", " ")).count() == 1
    assert_clean(page)
