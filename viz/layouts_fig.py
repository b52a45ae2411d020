"""Figures of the Layouts page: the logical tensor, and DML_ELEMENT_WISE_IDENTITY's copy animated element by element.

The copy is drawn in the output's memory order (ascending destination offset): the output buffer fills from its
first cell to its last while the read position jumps around the input buffer as the two layouts dictate. Both
buffers are grids of cells, one per element, `columns` per row, row 0 at the top; the colors are the memory map's
(viz/memory_map_fig.py): grey for cells not (yet) touched, blue for cells done, orange for the cells of this step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
from plotly.colors import sequential

from .colors import stepwise_colorscale
from .common import MAX_CELLS, MAX_FRAMES, format_values, named_colorscale, play_controls, subplot_layout, trace
from .memory_map_fig import COLORS, MAX_COLUMNS, ONCE, SHARED, UNTOUCHED, default_columns
from .spec import SpecFigure, figure_spec

LABEL_CELLS = 256
NOW = SHARED  # this step's cells use the memory map's "more than once" color: orange against blue and grey
PAST_END = 3  # grid cells after the buffer's last element: drawn transparent
# One byte per cell in every frame (a float grid would be 4 to 8): codes, not values, are what the frames animate.
CODES = np.uint8


def _index_text(index):
    return "[" + ", ".join(map(str, index)) + "]"


def logical_figure(logical: np.ndarray, sources: np.ndarray, destinations: np.ndarray) -> SpecFigure:
    """The logical tensor as a grid: one row per index of the leading dimensions, the last dimension across.

    Each cell shows its value; hover gives its index and the input and output element offsets (in elements) it
    is read from and written to. Colors are by input offset, so elements read from one broadcast cell match.
    """
    sizes = logical.shape
    width = sizes[-1]
    rows = math.prod(sizes[:-1])
    if rows * width > MAX_CELLS:
        raise ValueError(f"{rows * width} cells: the logical tensor figure draws at most {MAX_CELLS}")
    labels = np.array(format_values(logical), dtype=object).reshape(rows, width)
    index = np.stack(np.unravel_index(np.arange(rows * width), sizes), axis=1).tolist()
    hover = np.array([f"index {_index_text(i)}<br>value {v}<br>read from input element {s}<br>"
                      f"written to output element {d}"
                      for i, v, s, d in zip(index, labels.ravel(), sources.ravel().tolist(),
                                            destinations.ravel().tolist())], dtype=object).reshape(rows, width)
    row_labels = [_index_text(i[:-1]) if len(sizes) > 1 else "" for i in index[::width]]
    heat = trace("heatmap", z=sources.reshape(rows, width).astype(np.float64),
                 colorscale=named_colorscale(sequential.Cividis), showscale=False, customdata=hover, text=labels,
                 hovertemplate="%{customdata}<extra></extra>", xgap=1, ygap=1)
    if rows * width <= LABEL_CELLS:
        heat.update(texttemplate="%{text}")
    layout = dict(
        # Short subtitle lines: an SVG text never wraps, and an 800 px page is about 90 characters of it wide.
        title=dict(text=f"Logical tensor {list(sizes)}<br><sup>rows: leading indices; columns: the last dimension"
                        "<br>color: the input element it is read from</sup>"),
        xaxis=dict(title=dict(text=f"index in dim {len(sizes) - 1}"), automargin=True, showgrid=False, zeroline=False,
                   constrain="domain", **({"dtick": 1} if width <= 16 else {})),
        yaxis=dict(tickmode="array", tickvals=list(range(rows)), ticktext=row_labels, autorange="reversed",
                   scaleanchor="x", showgrid=False, zeroline=False, constrain="domain"),
        height=int(min(700, max(260, rows * 36 + 170))), margin=dict(l=90, r=10, t=95, b=60),
    )
    return SpecFigure(figure_spec([heat], layout))


def layout_columns(sizes: Sequence[int], strides: Sequence[int], cells: int) -> int:
    """Cells per row for a buffer: the pitch of the dimension next to the fastest-moving one, so that a row of the
    drawing is a row of the layout (3 for a transposed 3 x 4, W*C for NHWC); the memory map's default when every
    stride but one is 0."""
    moving = sorted({int(s) for n, s in zip(sizes, strides) if n > 1 and s > 0})
    pitches = moving[1:]
    if not pitches:
        return default_columns(sizes, strides, cells)
    fitting = [p for p in pitches if cells <= 2 * p * p]
    return min(MAX_COLUMNS, fitting[0] if fitting else pitches[-1])


def frame_steps(count: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """Elements copied by the end of each frame: 0, then evenly up to `count`, at most `max_frames` frames."""
    per = max(1, math.ceil(count / (max_frames - 1)))
    return [0] + list(range(per, count, per)) + [count]


class Trace(IntEnum):
    """The copy figure's traces, in order: the frames change the two buffers' heatmaps; the legend names each
    state's color."""

    INPUT = 0
    OUTPUT = 1
    KEY_UNTOUCHED = 2
    KEY_COPIED = 3
    KEY_NOW = 4


@dataclass(frozen=True)
class _Buffers:
    """Both buffers as grids of cells (the first MAX_CELLS of each) and what each step reads and writes."""

    in_cells: int
    out_cells: int
    in_shape: tuple  # (rows, columns) of each grid
    out_shape: tuple
    in_text: np.ndarray  # the input's values, grid-shaped
    before_text: list  # the output's values before and after the copy (its first out_cells)
    after_text: list
    sources: np.ndarray  # each step's input and output element offsets
    destinations: np.ndarray

    def state(self, copied: int, previous: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(input codes, output codes, output text) once `copied` steps are done, steps since `previous` marked."""
        read = np.full(self.in_shape[0] * self.in_shape[1], PAST_END, dtype=CODES)
        written = np.full(self.out_shape[0] * self.out_shape[1], PAST_END, dtype=CODES)
        read[:self.in_cells] = UNTOUCHED
        written[:self.out_cells] = UNTOUCHED
        text = np.full(written.size, "", dtype=object)
        text[:self.out_cells] = self.before_text
        for codes, offsets, cells in ((read, self.sources, self.in_cells), (written, self.destinations,
                                                                           self.out_cells)):
            codes[offsets[:copied][offsets[:copied] < cells]] = ONCE
            now = offsets[previous:copied]
            codes[now[now < cells]] = NOW
        shown = self.destinations[:copied][self.destinations[:copied] < self.out_cells]
        text[shown] = [self.after_text[d] for d in shown.tolist()]
        return read.reshape(self.in_shape), written.reshape(self.out_shape), text.reshape(self.out_shape)


def _grid_shape(cells, columns):
    return -(-cells // columns), columns


def _buffers(steps, in_values, out_before, in_columns, out_columns):
    in_cells, out_cells = min(in_values.size, MAX_CELLS), min(out_before.size, MAX_CELLS)
    in_shape = _grid_shape(in_cells, max(1, min(in_columns, in_cells)))
    out_shape = _grid_shape(out_cells, max(1, min(out_columns, out_cells)))
    in_text = np.full(in_shape[0] * in_shape[1], "", dtype=object)
    in_text[:in_cells] = format_values(in_values[:in_cells])
    out_after = out_before.copy()
    for step in steps:
        out_after[step.destination] = in_values[step.source]
    return _Buffers(in_cells, out_cells, in_shape, out_shape, in_text.reshape(in_shape),
                    format_values(out_before[:out_cells]), format_values(out_after[:out_cells]),
                    np.array([s.source for s in steps], dtype=np.int64),
                    np.array([s.destination for s in steps], dtype=np.int64))


def _copy_hover(steps, buffers):
    """Per cell of each grid: which logical elements read it, which one wrote it."""
    hover_in = np.full(buffers.in_shape[0] * buffers.in_shape[1], "", dtype=object)
    hover_out = np.full(buffers.out_shape[0] * buffers.out_shape[1], "", dtype=object)
    for step in steps:
        if step.source < buffers.in_cells:
            hover_in[step.source] += f"read for {_index_text(step.index)}<br>"
        if step.destination < buffers.out_cells:
            hover_out[step.destination] = f"written by {_index_text(step.index)} from input element {step.source}"
    hover_in[:buffers.in_cells] = [f"input element {i}<br>{h or 'never read'}"
                                   for i, h in enumerate(hover_in[:buffers.in_cells])]
    hover_out[:buffers.out_cells] = [f"output element {i}<br>{h or 'never written: keeps its bytes'}"
                                     for i, h in enumerate(hover_out[:buffers.out_cells])]
    return hover_in.reshape(buffers.in_shape), hover_out.reshape(buffers.out_shape)


def _copy_traces(steps, buffers, done, labelled):
    """The buffers as they end, then a legend entry per state, in Trace's order."""
    hover_in, hover_out = _copy_hover(steps, buffers)
    scale = stepwise_colorscale([COLORS[c] for c in (UNTOUCHED, ONCE, SHARED)] + ["rgba(0,0,0,0)"])
    common = dict(zmin=-0.5, zmax=3.5, colorscale=scale, showscale=False, xgap=1, ygap=1,
                  hovertemplate="%{customdata}<extra></extra>", texttemplate="%{text}" if labelled else None)
    last_read, last_written, last_text = buffers.state(len(steps), done[-2] if len(done) > 1 else 0)
    data = [
        trace("heatmap", z=last_read, text=buffers.in_text, customdata=hover_in, xaxis="x", yaxis="y", **common),
        trace("heatmap", z=last_written, text=last_text, customdata=hover_out, xaxis="x2", yaxis="y2", **common),
    ]
    return data + [trace("scatter", x=[None], y=[None], mode="markers", name=name,
                         marker=dict(symbol="square", size=12, color=COLORS[code]))
                   for code, name in ((UNTOUCHED, "not touched (yet)"), (ONCE, "copied"), (NOW, "this step"))]


def _copy_frames(buffers, done, labelled):
    frames = []
    for number, (previous, copied) in enumerate(zip([0] + done[:-1], done)):
        read, written, text = buffers.state(copied, previous)
        # Values are drawn (and so change per frame) only while cells are few enough to label.
        output = trace("heatmap", z=written, text=text if labelled else None)
        frames.append(dict(name=str(number), traces=[int(Trace.INPUT), int(Trace.OUTPUT)],
                           data=[trace("heatmap", z=read), output]))
    return frames


def _copy_axes(buffers, in_size, out_size):
    # Titles short enough for half of an 800 px page; the row length goes to the row axis, as on the memory maps.
    axes, titles = subplot_layout([f"Input buffer: {in_size:,} elements", f"Output buffer: {out_size:,} elements"],
                                  spacing=0.08, stacked=False)
    for suffix, (grid_rows, grid_columns) in (("", buffers.in_shape), ("2", buffers.out_shape)):
        axes[f"xaxis{suffix}"].update(showgrid=False, zeroline=False, constrain="domain", title=dict(text="column"))
        axes[f"yaxis{suffix}"].update(showgrid=False, zeroline=False, autorange="reversed", constrain="domain",
                                      scaleanchor=f"x{suffix}", title=dict(text=f"row ({grid_columns} each)"))
        if grid_columns <= 16:
            axes[f"xaxis{suffix}"]["dtick"] = 1
        if grid_rows <= 16:
            axes[f"yaxis{suffix}"]["dtick"] = 1
    return axes, titles


def copy_figure(steps: Sequence[Any], in_values: np.ndarray, out_before: np.ndarray, in_columns: int,
                out_columns: int, max_frames: int = MAX_FRAMES) -> SpecFigure:
    """Input and output buffers side by side, animated through `steps` (ops.copy_order) a few elements a frame.

    in_values / out_before: the whole input buffer and the output buffer before the copy (1-D, same dtype). Only
    the first MAX_CELLS cells of each buffer are drawn; steps outside them still count.
    """
    buffers = _buffers(steps, in_values, out_before, in_columns, out_columns)
    done = frame_steps(len(steps), max_frames)
    labelled = max(buffers.in_cells, buffers.out_cells) <= LABEL_CELLS
    frames = _copy_frames(buffers, done, labelled)
    axes, titles = _copy_axes(buffers, in_values.size, out_before.size)
    menus, sliders = play_controls([f["name"] for f in frames], [str(copied) for copied in done],
                                   active=len(frames) - 1, duration=max(150, min(700, 12000 // len(frames))),
                                   pad_top=60)
    sliders[0]["currentvalue"]["prefix"] = "elements copied: "
    rows = max(buffers.in_shape[0], buffers.out_shape[0])
    layout = dict(**axes, annotations=titles, updatemenus=menus, sliders=sliders,
                  # At the figure's top edge, above the subplot titles (in plot coordinates it met them).
                  legend=dict(orientation="h", yref="container", yanchor="top", y=1, x=0),
                  height=int(min(900, max(400, rows * 40 + 260))), margin=dict(l=50, r=10, t=90, b=140),
                  meta=dict(frames=len(frames), steps=len(steps), done=done))
    return SpecFigure(figure_spec(_copy_traces(steps, buffers, done, labelled), layout, frames))
