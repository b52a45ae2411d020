"""The DCR <-> CRD converter in Debian's Chromium: a link with C and BlockSize opens the page with its figure."""

import pytest

import ops
from support.browser import assert_clean, wait_for_app

pytestmark = pytest.mark.browser

# What plotly drew: the two labelled rows (x on top, x[:, P] below) and where each line starts and ends.
DRAWN = """() => { const gd = document.querySelector('.js-plotly-plot');
    const rows = gd.data.filter(t => t.mode === 'markers+text').map(t => [t.name, t.text, [...new Set(t.y)]]);
    const ends = {};
    gd.data.filter(t => t.mode === 'lines').forEach(t => {
        for (let i = 0; i < t.x.length; i += 3) ends[t.x[i + 1]] = t.x[i]; });
    return {rows, ends, texts: [...gd.querySelectorAll('.textpoint')].length}; }"""


def test_a_converter_link_opens_with_the_figure(page, app_url, screenshot_dir):
    page.goto(f"{app_url}/converter?C=8&BlockSize=2")
    wait_for_app(page)
    page.get_by_text("DCR ↔ CRD converter").first.wait_for()
    drawn = page.evaluate(DRAWN)
    labels = [str(i) for i in range(8)]
    assert drawn["rows"] == [["x", labels, [0]], ["x[:, P]", labels, [3]]]
    assert [drawn["ends"][str(k)] for k in range(8)] == ops.channel_permutation(8, 2, "CRD", "DCR").tolist()
    assert drawn["texts"] == 16  # every index printed on the page, not only in the data
    page.screenshot(path=str(screenshot_dir / "converter.png"), full_page=True)
    assert_clean(page)
