"""Heatmap of one bound tensor, laid out in the shape its descriptor gives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from plotly.colors import sequential

from .colorblind import ink_on
from .common import (
    MAX_CELLS,
    canvas_axes,
    canvas_extent,
    figure_height,
    format_values,
    named_colorscale,
    squarish_columns,
    tile_origins,
    trace,
)
from .spec import SpecFigure, figure_spec

MAX_LABELLED_CELLS = 600
MAX_TILE_LABELS = 64


def color_limits(*arrays: np.ndarray) -> tuple[float, float]:
    """(zmin, zmax) over the finite values of several arrays, so before/after share one color scale."""
    parts = [a[np.isfinite(a)] for a in (np.asarray(x, dtype=np.float64).ravel() for x in arrays)]
    finite = np.concatenate(parts) if parts else np.array([])
    if not finite.size:
        return 0.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def _tiles(values, max_cells):
    """(tiles, leading indices, drawn element count): the 2-D planes of the last two dimensions, capped."""
    shape = values.shape
    plane = values.reshape(-1, *shape[-2:]) if values.ndim >= 2 else values.reshape(1, 1, -1)
    tile_h, tile_w = plane.shape[1:]
    tile_w_drawn = min(tile_w, max_cells)
    tile_h_drawn = max(1, min(tile_h, max_cells // tile_w_drawn))
    count = max(1, min(plane.shape[0], max_cells // (tile_h_drawn * tile_w_drawn)))
    leading = list(np.ndindex(*shape[:-2])) if values.ndim > 2 else [()]
    return plane[:count, :tile_h_drawn, :tile_w_drawn], leading[:count]


def tensor_heatmap(values: np.ndarray, title: str = "", zrange: tuple[float, float] | None = None,
                   max_cells: int = MAX_CELLS) -> SpecFigure:
    """A tensor as tiles: one tile per index of the leading dimensions, each the plane of the last two.

    Row 0 of each tile is on top and cells are square. Values are written in the cells while they
    stay readable; NaN and infinities get no color. `zrange` fixes the color scale (for comparing
    figures). At most max_cells elements are drawn and the title says so.
    """
    values = np.asarray(values)
    if values.ndim == 0:
        values = values.reshape(1)
    tiles, leading = _tiles(values, max_cells)
    count, tile_h, tile_w = tiles.shape
    labelled = values.ndim > 2
    ncols = squarish_columns(count, tile_h, tile_w) if labelled else 1
    if labelled:
        height, width = canvas_extent(count, tile_h, tile_w, ncols)
        top, left = tile_origins(count, tile_h, tile_w, ncols)
    else:
        height, width, top, left = tile_h, tile_w, np.array([0]), np.array([0])

    z = np.full((height, width), np.nan)
    text = np.full((height, width), "", dtype=object)
    hover = np.full((height, width), "", dtype=object)
    with np.errstate(invalid="ignore", over="ignore"):
        numeric = tiles.astype(np.float64)
    labels = np.array(format_values(tiles), dtype=object).reshape(tiles.shape)
    for t, (row, col) in enumerate(zip(top, left)):
        window = (slice(row, row + tile_h), slice(col, col + tile_w))
        z[window] = np.where(np.isfinite(numeric[t]), numeric[t], np.nan)
        text[window] = labels[t]
        prefix = ", ".join(str(int(i)) for i in leading[t])
        hover[window] = [[f"[{prefix + ', ' if prefix else ''}{r}, {c}] = {labels[t][r, c]}"
                          if values.ndim >= 2 else f"[{c}] = {labels[t][r, c]}"
                          for c in range(tile_w)] for r in range(tile_h)]

    shown = tiles.size
    heading = title
    if shown < values.size:
        heading += f"<br><sup>first {shown:,} of {values.size:,} elements drawn</sup>"
    zmin, zmax = zrange or color_limits(tiles)
    heatmap = trace(
        "heatmap", z=z, text=text, customdata=hover, colorscale=named_colorscale(sequential.Viridis),
        zmin=zmin, zmax=zmax, showscale=False, xgap=1, ygap=1, hovertemplate="%{customdata}<extra></extra>",
        hoverongaps=False, texttemplate="%{text}" if shown <= MAX_LABELLED_CELLS else None,
    )
    annotations = []
    if labelled and count <= MAX_TILE_LABELS:
        for t, (row, col) in enumerate(zip(top.tolist(), left.tolist())):
            index = ", ".join(str(int(i)) for i in leading[t])
            annotations.append(dict(font=dict(size=11), showarrow=False, text=f"[{index}, :, :]", x=col - 0.5,
                                    xanchor="left", y=row - 1, yanchor="middle"))
    layout = dict(
        title=dict(text=heading),
        height=figure_height(height, width, width_px=600, extra=70 if "<br>" not in heading else 90),
        margin=dict(l=10, r=10, t=60 if "<br>" in heading else 40, b=10),
        **canvas_axes(height, width),
    )
    if annotations:
        layout["annotations"] = annotations
    return SpecFigure(figure_spec([heatmap], layout))


# A partial run's commands: shape and color both tell the state (Okabe-Ito colors, which stay distinct under the
# common color-vision deficiencies), and the legend names it.
RAN, STOPPED, AFTER_STOP, PASSED_OVER = "ran", "could not run: the run stops here", "not run: after the stop", \
    "skipped: changes no buffer"
COMMAND_STATES = {
    RAN: ("#0072B2", "square"),
    STOPPED: ("#D55E00", "diamond"),
    AFTER_STOP: ("#999999", "square-open"),
    PASSED_OVER: ("#E69F00", "circle-open"),
}


LABELLED_COMMANDS = 12  # up to this many commands, each is labelled with its type and name, not only its index


def _command_text(step, count):
    index, label = step[0], step[1]
    return f"{index} {label.replace(' ', '<br>', 1)}" if count <= LABELLED_COMMANDS else str(index)


def command_strip(steps: Sequence[Any], max_commands: int = MAX_CELLS) -> SpecFigure:
    """The model's commands left to right, each marked with what the partial run did with it.

    `steps` is [(command index, label, state, reason)] in command order; at most max_commands are drawn and the
    title says so.
    """
    shown = steps[:max_commands]
    traces = []
    for state, (color, symbol) in COMMAND_STATES.items():
        picked = [step for step in shown if step[2] == state]
        if not picked:
            continue
        traces.append(trace(
            "scatter", name=state, mode="markers+text", x=[step[0] for step in picked], y=[0] * len(picked),
            text=[_command_text(step, len(shown)) for step in picked], textposition="bottom center",
            customdata=[f"commands[{i}] {label}<br>{state}" + (f": {reason[:160]}" if reason else "")
                        for i, label, _, reason in picked],
            hovertemplate="%{customdata}<extra></extra>",
            marker=dict(color=color, symbol=symbol, size=22, line=dict(color=color, width=2)),
            hoverlabel=dict(font=dict(color=ink_on(color))),  # the hover box takes the marker's color
        ))
    title = "Commands in order: what the partial run did"
    if len(shown) < len(steps):
        title += f"<br><sup>first {len(shown):,} of {len(steps):,} commands drawn</sup>"
    layout = dict(
        title=dict(text=title), height=210, margin=dict(l=10, r=10, t=70, b=10), showlegend=True,
        legend=dict(orientation="h", y=1.0, yanchor="bottom", x=0, xanchor="left"),
        xaxis=dict(visible=False, range=[-0.7, max(len(shown), 1) - 0.3]),
        yaxis=dict(visible=False, range=[-1.4, 0.6], fixedrange=True),
    )
    return SpecFigure(figure_spec(traces, layout))
