"""Figures for slides and handouts: one toolbar on every chart of every page, and the animated HTML file."""

import json
import re
from html.parser import HTMLParser

import numpy as np
import plotly
import pytest

from ops.operators.depth_space import depth_to_space
from support.app import chart_figures, run_through_app
from support.app import charts as app_charts
from ui.values import make_values
from viz.common import PROJECTOR_HEIGHT, for_projector
from viz.depth_space_fig import depth_space_figure
from viz.export import REMOVED_BUTTONS, animated_html, chart_config, file_stem

PAGES = ["", "depth_space", "bitwise_or", "split_join", "layouts", "converter", "detective", "workbench"]


def seed_figure():
    x = make_values("coded", (1, 8, 2, 3), "UINT32")
    return depth_space_figure(x, depth_to_space(x, 2, "DCR"), 2, "DCR", "depth_to_space")


def page_tags(page):
    """(tag, attributes) of every start tag, as a browser's HTML parser sees them (script text is not parsed)."""
    tags = []

    class Collector(HTMLParser):
        def handle_starttag(self, tag, attrs):
            tags.append((tag, attrs))

    Collector().feed(page)
    return tags


def embedded_figure(page):
    """The figure JSON the HTML file hands to Plotly.newPlot."""
    match = re.search(r"const figure = (\{.*?\});\n  const stem", page, re.S)
    return json.loads(match.group(1).replace("<\\/", "</"))


def test_html_holds_plotly_js_the_frames_and_play():
    figure = seed_figure()
    page = animated_html(figure, "DEPTH_TO_SPACE1 <seed>", "depth_to_space_seed")
    tags = page_tags(page)
    # Nothing is fetched: three inline scripts (plotly.js, the labels' inking, then the figure), no src, no link, no
    # stylesheet import.
    assert [t for t, _ in tags if t == "script"] == ["script", "script", "script"]
    assert "function inkLabels(graph, background)" in page and "inkLabels(gd, white)" in page
    assert not any(dict(attrs).get("src") or dict(attrs).get("href") for _, attrs in tags)
    assert f"plotly.js v{plotly.offline.get_plotlyjs_version()}" in page
    assert "DEPTH_TO_SPACE1 &lt;seed&gt;" in page  # the title is escaped
    spec = embedded_figure(page)
    frames = figure.to_dict()["frames"]
    assert [f["name"] for f in spec["frames"]] == [f["name"] for f in frames] and len(frames) == 8
    assert spec["layout"]["updatemenus"][0]["buttons"][0]["label"] == "Play"
    # Streamlit's template carries placeholder colors only its frontend resolves: the file has plotly_white's.
    assert spec["layout"]["template"]["layout"]["paper_bgcolor"] == "white"
    assert spec["data"] == json.loads(plotly.io.to_json(figure.to_dict(), validate=False))["data"]
    assert '"depth_to_space_seed"' in page and 'download("png")' in page and 'download("svg")' in page
    # Both slides leave Play, Pause and the slider out, and plotly's own PNG button (which keeps them) is gone.
    assert "updatemenus: [], sliders: []" in page and '"toImage"]' in page


def test_script_cannot_be_closed_by_figure_text():
    x = make_values("coded", (1, 4, 1, 1), "UINT32")
    figure = depth_space_figure(x, depth_to_space(x, 2, "DCR"), 2, "DCR", "depth_to_space")
    page = animated_html(figure, "t", "s")
    spec_part = page[page.index("const figure"):]
    assert "</script>" not in spec_part.split("\n</script>")[0]


def test_file_stem_is_safe_and_readable():
    assert file_stem("DEPTH_TO_SPACE1", "DEPTH_COLUMN_ROW", "UINT32", 1, 8, 2, 3, "bs2") == \
        "DEPTH_TO_SPACE1_DEPTH_COLUMN_ROW_UINT32_1_8_2_3_bs2"
    assert file_stem("memory map", "../etc/passwd") == "memory_map_etc_passwd"
    assert file_stem("") == "figure"


def test_projector_version_is_smaller_and_larger_type_and_shares_traces():
    figure = seed_figure()
    shown = for_projector(figure)
    layout = shown.to_dict()["layout"]
    assert layout["height"] <= PROJECTOR_HEIGHT
    assert shown.to_dict()["data"] is figure.to_dict()["data"]
    before = [a.get("font", {}).get("size", 12) for a in figure.to_dict()["layout"]["annotations"]]
    after = [a["font"]["size"] for a in layout["annotations"]]
    assert all(b > a for a, b in zip(before, after))
    assert [a.get("font", {}).get("size", 12) for a in figure.to_dict()["layout"]["annotations"]] == before


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("present", [False, True])
def test_every_chart_has_the_toolbar_and_an_html_download(page, present):
    at = run_through_app(page, query={"present": "true"} if present else None)
    assert not at.exception
    charts = [json.loads(chart.proto.bytes) for chart in app_charts(at)]
    assert charts and len(charts) == len(chart_figures(at))  # every chart of the page goes through ui.charts.show
    for chart in charts:
        config = chart["config"]
        assert config["displayModeBar"] is True and config["displaylogo"] is False
        assert config["modeBarButtonsToRemove"] == REMOVED_BUTTONS
        assert config["toImageButtonOptions"]["format"] == "png" and config["toImageButtonOptions"]["filename"]
        height = chart["figure"]["layout"].get("height", 0)
        assert (height <= PROJECTOR_HEIGHT) if present else True
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels.count("Download animated HTML") == len(charts)


def test_chart_config_names_the_png():
    config = chart_config("x_y")
    assert config["toImageButtonOptions"] == {"format": "png", "filename": "x_y", "scale": 2}


def test_presentation_switch_is_in_the_link():
    at = run_through_app("app_pages/depth_space/page.py")
    toggle = at.toggle(key="present")
    assert toggle.value is False
    toggle.set_value(True).run()
    assert at.query_params.get("present") in ("true", ["true"])
    at = run_through_app("app_pages/depth_space/page.py", query={"present": "true"})
    assert at.toggle(key="present").value is True
    assert np.all([figure["layout"]["height"] <= PROJECTOR_HEIGHT for figure in chart_figures(at)])
