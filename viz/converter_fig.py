"""The DCR <-> CRD converter drawn: which channel of x each channel of x[:, P] is, as a two-row mapping.

Row 0 (at the top) is x, the channels the source order reads; the row below is x[:, P], the channels fed to the
target order; a line joins x's channel P[k] to position k. Every cell prints its index, and cell and line are
colored by the block position (bh, bw) the channel lands at in depth_to_space's output, which both orders agree
on: so the colors show how each order groups the channels (CRD: a channel's block position varies fastest; DCR:
it varies slowest), and the indices carry everything the colors do for readers who cannot tell them apart.
"""

from __future__ import annotations

import numpy as np
from plotly.colors import sample_colorscale, sequential

from ops.operators.depth_space import order_name

from .colorblind import ink_on
from .common import empty_figure, trace
from .spec import SpecFigure, figure_spec

MAX_DRAWN_CHANNELS = 64  # beyond this the printed indices no longer fit across a page
# Okabe and Ito's palette for color vision deficiencies ("Color Universal Design", 2008), without its black,
# which the indices printed on the cells would not show on.
CVD_SAFE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
TOP, BOTTOM = 0, 3  # canvas rows of x and x[:, P]; the rows between hold the lines
SHORT = {"DEPTH_COLUMN_ROW": "DCR", "COLUMN_ROW_DEPTH": "CRD"}


def group_colors(count: int) -> list[str]:
    """One color per block position: the palette while it lasts, then evenly spaced cividis (made for color
    vision deficiencies too)."""
    if count <= len(CVD_SAFE):
        return list(CVD_SAFE[:count])
    return sample_colorscale(sequential.Cividis, [i / (count - 1) for i in range(count)], colortype="rgb")


def block_positions(channels: int, block_size: int, order: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every depth channel under `order`: (output channel c', block row bh, block column bw)."""
    order = order_name(order)
    c_out, index = channels // (block_size * block_size), np.arange(channels)
    if order == "DEPTH_COLUMN_ROW":  # (bh, bw, c') with c' fastest
        return index % c_out, index // c_out // block_size, index // c_out % block_size
    return index // (block_size * block_size), index // block_size % block_size, index % block_size


def converter_figure(permutation: np.ndarray, block_size: int, source: str, target: str,
                     width_px: int = 1100) -> SpecFigure:
    """The mapping x -> x[:, P] for P = channel_permutation(len(P), block_size, source, target)."""
    p = np.asarray(permutation, dtype=np.int64)
    channels = p.size
    source, target = order_name(source), order_name(target)
    if channels > MAX_DRAWN_CHANNELS:
        return empty_figure(f"{channels} channels: the figure draws up to {MAX_DRAWN_CHANNELS}; "
                            "the lists and downloads hold all of P.")
    c_out, bh, bw = block_positions(channels, block_size, source)
    group = bh * block_size + bw  # block position of x's channel i, which x[:, P]'s channel k = P^-1[i] shares
    colors = group_colors(block_size * block_size)
    cell_color = [colors[g] for g in group]
    ink = [ink_on(c) for c in cell_color]  # on the cell, and on its hover box, which takes the cell's color

    def where(c: int) -> str:
        return f"output channel {c_out[c]}, block (row {bh[c]}, column {bw[c]})"

    top_hover = [f"x channel {i}<br>{SHORT[source]} puts it at {where(i)}" for i in range(channels)]
    bottom_hover = [f"x[:, P] channel {k} = x channel {p[k]}<br>{SHORT[target]} puts it at {where(p[k])}"
                    for k in range(channels)]
    data = []
    marker_size = max(8, min(40, int(width_px / max(channels, 1) * 0.8)))
    for g, color in enumerate(colors):
        members = np.flatnonzero(group[p] == g)  # positions k of x[:, P] whose channel sits at block position g
        if members.size == 0:
            continue
        xs, ys = [], []
        for k in members:
            xs += [int(p[k]), int(k), None]
            ys += [TOP + 0.5, BOTTOM - 0.5, None]
        label = f"block ({g // block_size}, {g % block_size})"
        data.append(trace("scatter", x=xs, y=ys, mode="lines", line=dict(color=color, width=2), name=label,
                          legendgroup=label, hoverinfo="skip"))
    for row, hover, colored in ((TOP, top_hover, cell_color), (BOTTOM, bottom_hover, [cell_color[i] for i in p])):
        ink_row = ink if row == TOP else [ink[i] for i in p]
        data.append(trace(
            "scatter", x=list(range(channels)), y=[row] * channels, mode="markers+text",
            text=[str(i) for i in range(channels)], textfont=dict(color=ink_row, size=max(8, marker_size // 2)),
            marker=dict(symbol="square", size=marker_size, color=colored, line=dict(width=0)),
            hovertext=hover, hoverinfo="text", hoverlabel=dict(font=dict(color=ink_row)), showlegend=False,
            name="x" if row == TOP else "x[:, P]",
        ))
    cell_px = marker_size / 0.8
    layout = dict(
        xaxis=dict(visible=False, range=[-0.6, channels - 0.4]),
        yaxis=dict(autorange="reversed", tickvals=[TOP, BOTTOM],
                   ticktext=[f"x  ({SHORT[source]} reads)", f"x[:, P]  ({SHORT[target]} reads)"],
                   showgrid=False, zeroline=False),
        height=int(max(220, 4 * cell_px + 130)),
        margin=dict(l=10, r=10, t=40, b=10),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0, title=dict(text="lands at")),
        hovermode="closest",
        showlegend=block_size > 1,
    )
    return SpecFigure(figure_spec(data, layout))
