"""Pieces every tensor figure shares: caps, tile grids, colors, value labels, play controls, highlights.

Conventions: one canvas of cells per figure, row 0 at the top, square cells, and a color range fixed
for the whole figure so animation frames stay comparable. No background colors: the Streamlit theme
supplies them, so the figures follow light and dark mode.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .colors import BAND_SIZE, band, categorical, stepwise_colorscale
from .spec import SpecFigure, figure_spec, typed_array

MAX_CELLS = 4096  # cells per heatmap: beyond this the browser gets slow and the figure large
MAX_FRAMES = 64
LABEL_CELLS = 600  # value labels only while they stay readable
TILE_GAP = 1  # empty cells between tiles
UNWRITTEN = "rgba(128,128,128,0.92)"  # reads as "not yet written" on light and dark themes


def tile_origins(count: int, tile_h: int, tile_w: int, ncols: int,
                 gap: int = TILE_GAP) -> tuple[np.ndarray, np.ndarray]:
    """Top-left canvas (row, col) of each of `count` tiles laid out row-major in `ncols` columns.

    Each tile row starts with one empty row that holds the tiles' labels.
    """
    ncols = max(1, min(count, ncols))
    index = np.arange(count)
    rows = (index // ncols) * (tile_h + 1 + gap) + 1
    cols = (index % ncols) * (tile_w + gap)
    return rows, cols


def canvas_extent(count: int, tile_h: int, tile_w: int, ncols: int, gap: int = TILE_GAP) -> tuple[int, int]:
    """(height, width) in cells of the canvas holding the tiles and their label rows."""
    ncols = max(1, min(count, ncols))
    nrows = math.ceil(count / ncols)
    return nrows * (tile_h + 1) + (nrows - 1) * gap, ncols * tile_w + (ncols - 1) * gap


def squarish_columns(count: int, tile_h: int, tile_w: int, aspect: float = 1.6) -> int:
    """Tile columns that make the canvas about `aspect` times wider than high."""
    best = round(math.sqrt(count * aspect * tile_h / max(tile_w, 1)))
    return max(1, min(count, best))


def named_colorscale(colors: Sequence[str]) -> list[list[Any]]:
    """A named plotly scale (plotly.colors.sequential.Viridis, ...) as the [position, color] list go.Figure
    expands it to (_plotly_utils/basevalidators.py, ColorscaleValidator.validate_coerce, plotly 7.1.0)."""
    last = len(colors) - 1
    return [[(1.0 * i) / (1.0 * last), color] for i, color in enumerate(colors)]


def channel_colorscale(count: int) -> list[list[Any]]:
    """One flat band per channel 0..count-1 in the colorblind-safe categorical palette (viz.colors)."""
    return stepwise_colorscale(categorical(count))


# The mark of each band of categories after the first (viz.colors.band): dark shapes edged in white, which read on
# every color of the palette. Beyond these, marks repeat (hover still names every category).
BAND_SYMBOLS = ("circle", "x", "diamond", "triangle-up", "square", "star", "cross")
BAND_MARKS = "band-marks"  # the marks' trace meta: the browser sizes them to the cells (ui/plotly_chart.js)


def band_marks(rows: Any, cols: Any, categories: Any, count: int, name: str = "band",
               **axes: Any) -> dict[str, Any] | None:
    """A trace marking each cell (rows, cols) whose category (one per cell, of `count`) is past the palette's first
    band, or None when none is: its color and this mark together name the category when colors repeat."""
    bands = np.asarray([band(int(c), count) for c in np.ravel(categories)], dtype=np.int64)
    marked = bands > 0
    if not marked.any():
        return None
    symbols = [BAND_SYMBOLS[(b - 1) % len(BAND_SYMBOLS)] for b in bands[marked].tolist()]
    # In the cell's top right corner, out of the way of the centered label.
    return trace("scatter", x=np.ravel(cols)[marked] + 0.28, y=np.ravel(rows)[marked] - 0.28, mode="markers",
                 name=name, meta=BAND_MARKS, hoverinfo="skip", showlegend=False,
                 marker=dict(symbol=symbols, size=6, color=MARK_COLOR, line=dict(width=1, color=MARK_EDGE)), **axes)


MARK_COLOR, MARK_EDGE = "#0E1117", "#FFFFFF"
BAND_LEGEND_PX = 26  # the row at the top of a figure that a band legend takes
LEGEND_RANGES = 3  # category ranges named per mark in a band legend


def band_legend(layout: dict[str, Any], count: int, name: Callable[[int, int], str]) -> list[dict[str, Any]]:
    """Legend entries saying which categories each band mark stands for (viz.colors.band): one per mark, named by the
    categories it marks (`name(first, last)`, e.g. "c8–c15"; marks repeat past len(BAND_SYMBOLS) bands, and so do
    their ranges in its name), as traces to add to the figure; [] when `count` categories need no marks.

    `layout` (the figure's, with its height and margin set) gets the legend as one row over the figure, its title
    naming the categories left unmarked, and BAND_LEGEND_PX more height and top margin for it.
    """
    last_band = band(count - 1, count)
    if last_band == 0:
        return []
    bands: dict[str, list[str]] = {}
    for symbol_number, symbol in enumerate(BAND_SYMBOLS[:last_band]):
        # The bands this mark stands for are every len(BAND_SYMBOLS)-th: a few are named, the rest counted, so that
        # the legend of a million categories is as short to build and to read as one of a hundred.
        numbers = range(symbol_number + 1, last_band + 1, len(BAND_SYMBOLS))
        names = [name(n * BAND_SIZE, min(count, (n + 1) * BAND_SIZE) - 1) for n in numbers[:LEGEND_RANGES]]
        if len(numbers) > LEGEND_RANGES:
            names.append(f"… {len(numbers) - LEGEND_RANGES:,} more")
        bands[symbol] = names
    margin = layout.get("margin", {})
    layout.update(
        height=layout["height"] + BAND_LEGEND_PX, margin={**margin, "t": margin.get("t", 0) + BAND_LEGEND_PX},
        showlegend=True, legend=dict(
            orientation="h", xref="container", x=0, xanchor="left", yref="container", y=1, yanchor="top",
            title=dict(text=f"marks ({name(0, BAND_SIZE - 1)} unmarked):", side="left"), itemclick=False,
            itemdoubleclick=False))
    return [trace("scatter", x=[None], y=[None], mode="markers", name=", ".join(names), hoverinfo="skip",
                  marker=dict(symbol=symbol, size=10, color=MARK_COLOR, line=dict(width=1, color=MARK_EDGE)))
            for symbol, names in bands.items()]


def color_range(count: int) -> tuple[float, float]:
    """zmin/zmax for a stepwise scale over `count` channel indices 0..count-1."""
    if count == 1:
        return -0.5, 0.5
    return -0.5, count - 0.5


def format_value(value: Any) -> str:
    """Short label: integers exactly, floats to 4 significant digits (nan, inf kept)."""
    if isinstance(value, (np.integer, int)):
        return str(int(value))
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    return f"{value:.4g}"


def format_values(values: Any) -> list[str]:
    flat = np.asarray(values).ravel()
    if flat.dtype.kind == "f":
        return [format_value(v) for v in flat.tolist()]
    return [str(v) for v in flat.tolist()]


def smallest_uint(largest: int) -> type[np.unsignedinteger]:
    """The narrowest unsigned dtype holding 0..largest: figures ship arrays as raw bytes, so width is size."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if largest <= np.iinfo(dtype).max:
            return dtype
    return np.uint64


def cell_square_path(rows: Sequence[float], cols: Sequence[float], pad: float = 0.5) -> str:
    """One SVG path outlining each (row, col) cell: a highlight shape that scales with the axes."""
    return " ".join(
        f"M{c - pad},{r - pad} L{c + pad},{r - pad} L{c + pad},{r + pad} L{c - pad},{r + pad} Z"
        for r, c in zip(np.ravel(rows).tolist(), np.ravel(cols).tolist())
    )


def rect_outline_xy(top: Sequence[float], left: Sequence[float], height: Sequence[float],
                    width: Sequence[float]) -> tuple[list[float | None], list[float | None]]:
    """x and y lists drawing rectangle outlines (cells [top, top+height) x [left, left+width)), None-separated."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for t, lft, h, w in zip(top, left, height, width):
        x0, x1, y0, y1 = lft - 0.5, lft + w - 0.5, t - 0.5, t + h - 0.5
        xs += [x0, x1, x1, x0, x0, None]
        ys += [y0, y0, y1, y1, y0, None]
    return xs, ys


def play_controls(frame_names: Sequence[str], labels: Sequence[str], active: int, duration: int = 600,
                  width_px: int = 1100, y: float = 0.0, pad_top: int = 8) -> tuple[list[dict[str, Any]],
                                                                                  list[dict[str, Any]]]:
    """Play/Pause buttons and a slider over the named frames; `active` is the step shown first.

    The slider starts right of the buttons (about 110 px), whatever the chart's width.
    """
    start = min(0.4, 115 / width_px)
    play = dict(frame=dict(duration=duration, redraw=True), transition=dict(duration=0),
                fromcurrent=False, mode="immediate")
    pause = dict(frame=dict(duration=0, redraw=False), transition=dict(duration=0), mode="immediate")
    menu = dict(
        type="buttons", direction="left", showactive=False, x=0.0, y=y, xanchor="left", yanchor="top",
        pad=dict(t=pad_top, r=8),
        buttons=[dict(label="Play", method="animate", args=[list(frame_names), play]),
                 dict(label="Pause", method="animate", args=[[None], pause])],
    )
    slider = dict(
        active=active, x=start, len=1 - start, y=y, yanchor="top", pad=dict(t=pad_top),
        currentvalue=dict(prefix="step: ", xanchor="right"),
        steps=[dict(label=label, method="animate",
                    args=[[name], dict(frame=dict(duration=0, redraw=True), mode="immediate",
                                       transition=dict(duration=0))])
               for name, label in zip(frame_names, labels)],
    )
    return [menu], [slider]


def cover_colorscale(done: int, steps: int) -> list[list[Any]]:
    """Transparent for steps 0..done, gray for the later steps (z holds each cell's step)."""
    if steps == 1:
        return [[0.0, "rgba(0,0,0,0)"], [1.0, "rgba(0,0,0,0)"]]
    clear = "rgba(0,0,0,0)"
    edge = (done + 1) / steps
    if edge >= 1:
        return [[0.0, clear], [1.0, clear]]
    return [[0.0, clear], [edge, clear], [edge, UNWRITTEN], [1.0, UNWRITTEN]]


def canvas_axes(height: int, width: int) -> dict[str, dict[str, Any]]:
    """Layout axes for row 0 at the top, square cells, no grid: the canvas reads like the tensor printed. Fixed
    ranges: autorange would pad them for the click targets' markers and shrink the cells."""
    return dict(xaxis=dict(visible=False, range=[-0.5, width - 0.5], constrain="domain"),
                yaxis=dict(visible=False, range=[height - 0.5, -0.5], autorange=False, scaleanchor="x", scaleratio=1,
                           constrain="domain"))


def subplot_layout(titles: Sequence[str], spacing: float, stacked: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Axes and title annotations of make_subplots with one subplot per title, stacked in one column
    (vertical_spacing=spacing) or side by side in one row (horizontal_spacing=spacing).

    Same arithmetic as plotly/_subplots.py (plotly 7.1.0): sizes lines 577 and 595, the grid 643-650, domains
    685-737 (subplot 1 at the top, paper y growing upwards), title annotations 1169-1230.
    """
    count = len(titles)
    sizes = [(1.0 - spacing * (count - 1)) / count] * count
    layout, annotations = {}, []
    for k, title in enumerate(titles):
        place = count - 1 - k if stacked else k
        start = sum(sizes[:place]) + place * spacing
        domain = [max(0.0, start), min(1.0, start + sizes[place])]
        x_domain, y_domain = ([0.0, 1.0], domain) if stacked else (domain, [0.0, 1.0])
        suffix = "" if k == 0 else str(k + 1)
        layout[f"xaxis{suffix}"] = dict(anchor=f"y{suffix}", domain=x_domain)
        layout[f"yaxis{suffix}"] = dict(anchor=f"x{suffix}", domain=y_domain)
        annotations.append(dict(font=dict(size=16), showarrow=False, text=title, x=sum(x_domain) / 2.0,
                                xanchor="center", xref="paper", y=y_domain[1], yanchor="bottom", yref="paper"))
    return layout, annotations


def figure_height(canvas_h: int, canvas_w: int, width_px: int = 1100, extra: int = 150) -> int:
    """Pixel height that shows square cells of the canvas across about `width_px` pixels."""
    cell = min(44.0, width_px / max(canvas_w, 1))
    return int(min(900, max(260, canvas_h * cell + extra)))


def empty_figure(message: str, context: Any = None) -> SpecFigure:
    """A figure with only a centered note, for a state with nothing to draw; `context` as its builder's would be."""
    return SpecFigure(figure_spec([], dict(
        annotations=[dict(showarrow=False, text=message, x=0.5, xref="paper", y=0.5, yref="paper")],
        xaxis=dict(visible=False), yaxis=dict(visible=False), height=200,
    )), context=context)


def trace(kind: str, **props: Any) -> dict[str, Any]:
    """One trace as go.Figure.to_dict writes it: None means unset, numpy arrays become typed arrays."""
    spec = {"type": kind}
    for key, value in props.items():
        if value is None:
            continue
        if isinstance(value, np.ndarray):
            value = typed_array(value)
        elif isinstance(value, np.generic):
            value = value.item()
        spec[key] = value
    return spec


PICK_COLOR = "#E4002B"  # the picked cell's outline, as on the Depth <-> Space page


def click_targets(name: str, customdata: Any, hovertemplate: Any, **place: Any) -> dict[str, Any]:
    """Invisible square markers, one per cell: plotly can select scatter points but not heatmap cells, so
    these make the cells clickable through st.plotly_chart(on_select=...) and carry the hover.

    place: x and y per cell, or x0/dx (y0/dy) for a line of cells that animation frames move as one.
    """
    return trace(
        "scatter", mode="markers", name=name, customdata=customdata, hovertemplate=hovertemplate,
        marker=dict(symbol="square", size=12, opacity=0),
        selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0)),
        showlegend=False, **place,
    )


def selected_customdata(selection: dict[str, Any] | None) -> list[int] | None:
    """customdata of the first clicked point in st.plotly_chart's selection state, as a list of ints, or None.

    customdata travels as a typed array, which the browser sends back as an object keyed "0", "1", ...
    """
    for point in (selection or {}).get("points") or []:
        custom = point.get("customdata")
        if isinstance(custom, dict):
            custom = [custom.get(str(i)) for i in range(len(custom))]
        if isinstance(custom, (list, tuple)) and custom and all(v is not None for v in custom):
            return [int(v) for v in custom]
    return None


def pick_outline(rows: Sequence[float], cols: Sequence[float], name: str, xref: str = "x",
                 yref: str = "y") -> dict[str, Any]:
    """A thick outline around the picked cell(s) of one subplot, drawn above the heatmap."""
    return dict(type="path", name=name, path=cell_square_path(rows, cols), xref=xref, yref=yref,
                line=dict(color=PICK_COLOR, width=3), layer="above")


# A 1280x720 projector less what presentation mode keeps over the first figure: the title and one line (ui/toolbar.py).
PROJECTOR_HEIGHT = 560
PROJECTOR_SCALE = 1.35  # annotation text (titles, channel labels) grows by this much


def _bigger_annotations(annotations):
    return [{**note, "font": {**note.get("font", {}),
                              "size": round(note.get("font", {}).get("size", 12) * PROJECTOR_SCALE)}}
            for note in annotations]


def for_projector(figure: SpecFigure) -> SpecFigure:
    """`figure` for presentation mode: larger titles and labels, at most PROJECTOR_HEIGHT pixels high.

    Tick labels and the play controls keep their size: the builders size ticks to the rows they label, and larger
    controls would push the plot area smaller than the builders planned. A shared copy (SpecFigure.with_overlay):
    only the layout's height and annotations, and the annotations frames carry, are replaced; traces and frames'
    data are the cached figure's.
    """
    layout = figure.to_dict()["layout"]
    changes = dict(height=min(layout.get("height", PROJECTOR_HEIGHT), PROJECTOR_HEIGHT))
    if layout.get("annotations"):
        changes["annotations"] = _bigger_annotations(layout["annotations"])
    frames = figure.to_dict().get("frames") or []
    frame_changes = [dict(annotations=_bigger_annotations(f["layout"]["annotations"]))
                     if f.get("layout", {}).get("annotations") else {} for f in frames]
    return figure.with_overlay(layout=changes, frames=frame_changes if frames else None)
