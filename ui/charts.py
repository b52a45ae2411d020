"""Every figure of the app goes through show(): one toolbar (viz.export.chart_config), presentation sizing, and a
"Download animated HTML" button whose file is made only when clicked.

Figures are drawn by a small component (plotly_chart.js) that keeps one graph per key and redraws it in place, with
plotly.js served as a static file (its cartesian partial bundle where the set-up fetched it, else the copy the Python
plotly package ships: serve/plotly_bundle.py): the server launcher (serve/launch.py) publishes it with
publish_plotly_js before the server listens; importing this module writes nothing."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st
from plotly.io.json import to_json_plotly
from plotly.offline import get_plotlyjs_version

from serve.plotly_bundle import served_plotly_js
from viz.common import PROJECTOR_HEIGHT, for_projector
from viz.export import LABEL_INK_JS, animated_html, chart_config
from viz.spec import SpecFigure

from .url_state import presenting

PLOTLY_JS = served_plotly_js()  # the cartesian partial bundle where the set-up fetched it (serve/plotly_bundle.py)
# Cell labels, in CSS pixels: the browser fits them to the cells it draws, and leaves out those that would be smaller
# than the minimum (plotly_chart.js, fitCellText); a projector wants them larger.
CELL_TEXT = {"min": 10, "max": 16}
PROJECTOR_CELL_TEXT = {"min": 12, "max": 22}


def publish_plotly_js(static_dir: str | Path) -> None:
    """Put the app's plotly.js in `static_dir`, the folder Streamlit serves at app/static/ (<app.py's folder>/static,
    server.enableStaticServing in .streamlit/config.toml), as plotly.min.js, unless it is there already. A replace,
    so that processes starting together never serve half a file."""
    served = Path(static_dir) / "plotly.min.js"
    if served.exists() and served.stat().st_size == PLOTLY_JS.stat().st_size:
        return
    served.parent.mkdir(exist_ok=True)
    partial = served.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(PLOTLY_JS.read_bytes())
    os.replace(partial, served)


def _without_comments(path):
    """The script without its whole-line comments: it travels with every chart of every rerun."""
    return "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))


# The chart component, with the labels' inking it shares with the animated HTML export (viz/label_ink.js) first.
_chart = st.components.v2.component(
    f"dml_plotly_{get_plotlyjs_version()}",
    js="\n".join(_without_comments(path) for path in (LABEL_INK_JS, Path(__file__).with_name("plotly_chart.js"))),
    isolate_styles=False)


PRELOAD_KEY = "dml_plotly_preload"  # the hidden element's key; its container's is the class the page's CSS hides


def preload_plotly() -> None:
    """Start loading plotly.js as the run starts (app.py), while the server still computes the page's figure: the
    chart component fetches and runs it once, for every chart of the page (a hidden element, no space taken).
    Without it the browser asked for plotly.js only when the first figure arrived, then drew it a second or more
    later (benchmarks/bench_first_figure.py)."""
    with st.container(key=f"{PRELOAD_KEY}_box"):
        _chart(key=PRELOAD_KEY, data=b'{"preload": true}')


def show(figure: Any, key: str, stem: str, title: str, on_select: Callable[[], None] | None = None) -> None:
    """Draw `figure` (a SpecFigure or go.Figure) with the app's toolbar.

    stem: the downloads' file name without extension, from the settings (viz.export.file_stem); title: the
    heading of the HTML file and the chart's accessible name. on_select: called after a click on a point, which
    clicked() then reads.
    """
    figure = _spec(figure)
    data = chart_data(_sized(figure), chart_config(stem), title, on_select is not None, _cell_text())
    if on_select is None:
        _chart(key=key, data=data)
    else:
        _chart(key=key, data=data, on_select_change=on_select)
    st.download_button(
        "Download animated HTML", data=functools.partial(animated_html, figure, title, stem),
        file_name=f"{stem}.html", mime="text/html", key=f"{key}_html", on_click="ignore",
        icon=":material/download:",
        help="One file with the figure, its frames and Play: opens in any browser, offline, no server. "
             "Its toolbar saves the frame on screen as PNG or SVG.",
    )


def picture(figure: Any, key: str, title: str) -> None:
    """Draw `figure` without toolbar, downloads or clicks: step views, quiz reveals, the greyed last valid view.
    They go through the same component as show(), so that stepping redraws in place and the page never loads a
    second plotly.js (st.plotly_chart brings Streamlit's own, about a second the first time)."""
    _chart(key=key, data=chart_data(_sized(_spec(figure)), {"displayModeBar": False}, title, False, _cell_text()))


def _spec(figure):
    """A go.Figure as a SpecFigure (its dict), so that presentation mode can overlay it."""
    return figure if isinstance(figure, SpecFigure) else SpecFigure(figure.to_dict())


def _sized(figure):
    return for_projector(figure) if presenting() else figure


def height_for_screen(height: int) -> int:
    """`height` (px) for a figure builder that fits its rows into the height it is given: on a projector, what
    presentation mode leaves (viz.common.PROJECTOR_HEIGHT)."""
    return min(height, PROJECTOR_HEIGHT) if presenting() else height


def _cell_text():
    return PROJECTOR_CELL_TEXT if presenting() else CELL_TEXT


def chart_data(figure: SpecFigure, config: dict[str, Any], title: str, clickable: bool,
               cell_text: dict[str, int] | None = None) -> bytes:
    """The component's data: one JSON text as bytes (a dict would carry the figure's JSON as an escaped string).
    `cell_text`: the smallest and largest cell label the browser draws (CELL_TEXT unless given).

    "revision" and "frames_revision" name the traces and the frames: with them the browser redraws only what
    changed (plotly_chart.js).
    """
    spec = figure.to_dict()
    traces = to_json_plotly(spec["data"])
    frames = to_json_plotly(spec.get("frames", []))
    layout = to_json_plotly(spec["layout"])
    fields = {"config": config, "title": title, "clickable": clickable, "text": cell_text or CELL_TEXT,
              "revision": _digest(traces), "frames_revision": _digest(frames)}
    drawn = f'{{"data": {traces}, "layout": {layout}, "frames": {frames}}}'
    return f'{{"figure": {drawn}, {json.dumps(fields)[1:]}'.encode()


def _digest(text):
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def figure_of(element: Any) -> dict[str, Any]:
    """The figure (a dict) that show() sent in `element` (an AppTest element), for tests and benchmarks."""
    return json.loads(element.proto.bytes)["figure"]
