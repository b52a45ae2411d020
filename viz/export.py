"""Figures leaving the app: one toolbar for every chart, and a self-contained animated HTML file per figure.

The toolbar is plotly.js's mode bar, configured through the chart's `config` (plotly.js config options,
https://plotly.com/javascript/configuration-options/): its camera and disk buttons download the frame on screen as a
slide, PNG at twice the pixels (sharp on a projector) or SVG, named after the settings and without Play, Pause or the
slider (ui/plotly_chart.js adds them: a button is a function, which the JSON config cannot carry); the zoom/pan/select
tools, which make no sense on a grid of cells, are removed. The animated HTML file has the same two buttons.

The HTML file holds plotly.js itself (the copy plotly.py ships, plotly.offline.get_plotlyjs), the figure with all
its frames and its Play/Pause buttons and slider, and the light "plotly_white" template instead of Streamlit's
(whose colors are placeholders the Streamlit frontend swaps for its theme's): it plays from disk, offline, with no
server.
"""

from __future__ import annotations

import functools
import html
import json
import re
from pathlib import Path
from typing import Any

import plotly.io as pio
from plotly.offline import get_plotlyjs

from .spec import SpecFigure

# Mode bar buttons for zooming and selecting regions: a cell grid has nothing to zoom into or lasso.
REMOVED_BUTTONS = ["zoom2d", "pan2d", "select2d", "lasso2d", "zoomIn2d", "zoomOut2d", "autoScale2d",
                   "resetScale2d",
                   # plotly.js >= 3 offers to upload the figure to Plotly Cloud: the app makes no network requests
                   "sendChartToCloud"]
IMAGE_SCALE = 2
# The cell labels' inking, shared with the app's charts (ui/plotly_chart.js): black or white on each cell.
LABEL_INK_JS = Path(__file__).with_name("label_ink.js")


def file_stem(*parts: Any) -> str:
    """A file name from the settings: 'depth_to_space_DCR_UINT32_1x8x2x3'; safe on every file system."""
    text = "_".join(str(p) for p in parts if p not in (None, ""))
    text = re.sub(r"[^A-Za-z0-9-]+", "_", text).strip("_")
    return text[:120] or "figure"


def chart_config(stem: str) -> dict[str, Any]:
    """st.plotly_chart's `config`: the same toolbar on every figure, its PNG named `stem`."""
    return dict(
        displaylogo=False,
        displayModeBar=True,
        modeBarButtonsToRemove=REMOVED_BUTTONS,
        toImageButtonOptions=dict(format="png", filename=stem, scale=IMAGE_SCALE),
    )


@functools.lru_cache(maxsize=1)
def _label_ink_js():
    return LABEL_INK_JS.read_text().replace("</script", "<\\/script")


@functools.lru_cache(maxsize=1)
def _plotly_js():
    # "</script" inside the library would end the inline script early.
    return get_plotlyjs().replace("</script", "<\\/script")


def _script_json(value):
    """JSON safe inside an inline <script>: no '</' that could close it."""
    return pio.to_json(value, validate=False).replace("</", "<\\/")


def standalone_spec(figure: SpecFigure) -> dict[str, Any]:
    """The figure's spec with the light plotly_white template in place of Streamlit's theme template."""
    spec = dict(figure.to_dict())
    layout = dict(spec["layout"])
    layout["template"] = pio.templates["plotly_white"].to_plotly_json()
    spec["layout"] = layout
    return spec


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>body {{ margin: 0; font-family: sans-serif; }} h1 {{ font-size: 1.1rem; margin: 0.6rem 1rem; }}
#figure {{ width: 100%; }}</style>
</head>
<body>
<h1>{title}</h1>
<div id="figure"></div>
<script>{plotly_js}</script>
<script>{label_ink_js}</script>
<script>
(function () {{
  const figure = {figure};
  const stem = {stem};
  // A slide: the frame on screen without Play, Pause and the slider, the bottom margin they took given back to the
  // axes' own labels.
  const download = function (format) {{
    return function (gd) {{
      const shown = gd._fullLayout, bottom = Math.min(shown.margin.b, 20);
      const layout = Object.assign({{}}, gd.layout, {{updatemenus: [], sliders: [], width: shown.width,
        height: shown.height - shown.margin.b + bottom, margin: Object.assign({{}}, gd.layout.margin, {{b: bottom}})}});
      Object.keys(shown).filter(function (key) {{ return /^xaxis\\d*$/.test(key); }}).forEach(function (key) {{
        layout[key] = Object.assign({{}}, gd.layout[key], {{automargin: true}});
      }});
      return Plotly.downloadImage({{data: gd.data, layout: layout, config: {{staticPlot: true}}}},
        {{format: format, filename: stem, scale: format === "png" ? {scale} : 1, width: layout.width,
         height: layout.height}});
    }};
  }};
  figure.config = {{
    displaylogo: false,
    displayModeBar: true,
    responsive: true,
    showSendToCloud: false,
    showEditInChartStudio: false,
    modeBarButtonsToRemove: {removed}.concat(["sendDataToCloud", "editInChartStudio", "toImage"]),
    modeBarButtonsToAdd: [
      {{name: "Download this frame as PNG", icon: Plotly.Icons.camera, click: download("png")}},
      {{name: "Download this frame as SVG", icon: Plotly.Icons.disk, click: download("svg")}}
    ]
  }};
  // Cell labels black or white on their cells, on this page's white (viz/label_ink.js), after every drawing.
  const white = [255, 255, 255, 1];
  Plotly.newPlot("figure", figure).then(function (gd) {{
    inkLabels(gd, white);
    gd.on("plotly_afterplot", function () {{ inkLabels(gd, white); }});
  }});
}})();
</script>
</body>
</html>
"""


def animated_html(figure: SpecFigure, title: str, stem: str) -> str:
    """A self-contained HTML page (str) playing `figure` with its frames, offline: plotly.js inlined."""
    return PAGE.format(
        title=html.escape(title), plotly_js=_plotly_js(), label_ink_js=_label_ink_js(),
        figure=_script_json(standalone_spec(figure)),
        stem=json.dumps(stem), scale=IMAGE_SCALE, removed=json.dumps(REMOVED_BUTTONS),
    )
