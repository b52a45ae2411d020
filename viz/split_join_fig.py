"""DML_SPLIT / DML_JOIN drawn on a 2-D view of the input: each cell colored by the output it goes to.

The left panel is the input; the right panel starts joined, peels the outputs off one by one (Split) and
glues them back (Join). The index maps come from ops.split_map / ops.join_map, so the picture shows what
the operators do rather than a re-derivation.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ops import DescriptorError
from ops.operators.index_maps import join_map, split_map

from . import operator_figure as steps
from .colors import categorical, stepwise_colorscale
from .common import (
    MAX_CELLS,
    MAX_FRAMES,
    band_legend,
    band_marks,
    click_targets,
    pick_outline,
    play_controls,
    selected_customdata,
    smallest_uint,
    subplot_layout,
    trace,
)
from .spec import SpecFigure, figure_spec

STEP_NOUN = "element"
WINDOW = 64
ROW_PX = 40
INPUT_COLOR = "rgba(127,127,127,0.25)"  # the input's cells when their colors would give an answer away


def default_view(ndim: int, axis: int) -> tuple[int | None, int]:
    """(row dim, column dim) of the drawn plane; it always contains Axis so the cut is visible.

    1-D tensors are drawn as one row (row dim None).
    """
    if ndim == 1:
        return None, 0
    if axis >= ndim - 2:
        return ndim - 2, ndim - 1
    return axis, ndim - 1


def check_fixed(sizes: Sequence[int], view: tuple[int | None, int], fixed: dict[int, int] | None) -> dict[int, int]:
    """Indices for the dimensions outside the view, checked against Sizes; missing ones are 0."""
    fixed = dict(fixed or {})
    full = {}
    for d, size in enumerate(sizes):
        if d in view:
            continue
        index = int(fixed.get(d, 0))
        if not 0 <= index < size:
            raise DescriptorError(f"Slice index for dim {d}: {index} must be in [0, {size - 1}]")
        full[d] = index
    return full


def window_bounds(sizes: Sequence[int], view: tuple[int | None, int], start: tuple[int, int] = (0, 0),
                  window: int = WINDOW, max_cells: int = MAX_CELLS) -> tuple[int, int, int, int]:
    """(row0, row1, col0, col1) of the drawn window: at most `window` along each view dim, max_cells cells."""
    row_dim, col_dim = view
    rows = 1 if row_dim is None else sizes[row_dim]
    cols = sizes[col_dim]
    height = min(rows, window)
    width = min(cols, window, max(1, max_cells // height))
    row0 = min(max(0, int(start[0])), rows - height)
    col0 = min(max(0, int(start[1])), cols - width)
    return row0, row0 + height, col0, col0 + width


def _pieces(offsets, sizes, lo, hi):
    """Output number and its [start, stop) inside the window [lo, hi) along Axis."""
    pieces = []
    for k, (offset, size) in enumerate(zip(offsets, sizes)):
        start, stop = max(lo, offset), min(hi, offset + size)
        if start < stop:
            pieces.append((k, start, stop))
    return pieces


def _fmt(value):
    return str(value[()]) if isinstance(value, np.ndarray) else str(value)


@dataclass(frozen=True)
class PlaneCells:
    """Everything the figure draws of the plane, as plain arrays: the window, each cell's output, indices and
    values."""

    dest: np.ndarray  # output number of each window cell
    text: np.ndarray  # the values, as text
    index: np.ndarray  # each cell's input multi-index, shape plane + (ndim,)
    input_index: np.ndarray  # multi-indices as text
    output_index: np.ndarray
    pieces: list  # [(k, start, stop)] along Axis inside the window
    bounds: tuple  # (row0, row1, col0, col1)
    view: tuple  # (row dim or None, column dim)
    fixed: dict  # index of every dimension outside the plane
    axis_is_rows: bool


def layout_cells(x: np.ndarray, axis: int, sizes: Sequence[int], view: tuple[int | None, int] | None = None,
                 fixed: dict[int, int] | None = None, start: tuple[int, int] = (0, 0), max_cells: int = MAX_CELLS,
                 pieces_name: str = "OutputTensors") -> PlaneCells:
    """The PlaneCells of the window of x's plane `view` that starts at `start`."""
    shape = x.shape
    view = view or default_view(x.ndim, axis)
    fixed = check_fixed(shape, view, fixed)
    row0, row1, col0, col1 = window_bounds(shape, view, start, max_cells=max_cells)
    offsets = [int(o) for o in np.cumsum([0] + list(sizes))[:-1]]
    axis_is_rows = view[0] == axis
    lo, hi = (row0, row1) if axis_is_rows else (col0, col1)
    pieces = _pieces(offsets, sizes, lo, hi)
    plane = (row1 - row0, col1 - col0)
    cell_index = _cell_index(plane, x.ndim, view, fixed, (row0, col0))
    dest, out_index = _destinations(cell_index, plane, axis, axis_is_rows, pieces, offsets)
    values = x[tuple(cell_index[..., d] for d in range(x.ndim))]
    text = np.array([_fmt(v) for v in values.ravel()], dtype=object).reshape(plane)
    flat_index = cell_index.reshape(-1, x.ndim).tolist()
    input_index = np.array([str(i) for i in flat_index], dtype=object).reshape(plane)
    output_index = np.array([f"{pieces_name}[{k}]{out}" for k, out in
                             zip(dest.ravel().tolist(), out_index.reshape(-1, x.ndim).tolist())],
                            dtype=object).reshape(plane)
    return PlaneCells(dest, text, cell_index, input_index, output_index, pieces, (row0, row1, col0, col1), view,
                      fixed, axis_is_rows)


def _cell_index(plane, ndim, view, fixed, origin):
    """Each window cell's input multi-index."""
    rows, cols = np.indices(plane)
    cell_index = np.empty(plane + (ndim,), dtype=np.int64)
    for d, i in fixed.items():
        cell_index[..., d] = i
    if view[0] is not None:
        cell_index[..., view[0]] = origin[0] + rows
    cell_index[..., view[1]] = origin[1] + cols
    return cell_index


def _destinations(cell_index, plane, axis, axis_is_rows, pieces, offsets):
    """(output number, index in that output) of every window cell.

    The window cut along Axis is itself a Split whose outputs are the visible parts of the real outputs; join_map
    of those parts says, for every window cell, which part it lands in and where."""
    axis_in_plane = 0 if axis_is_rows else 1
    parts = split_map(plane, axis_in_plane, [stop - begin for _, begin, stop in pieces])
    part_of, flat_in_part = join_map([p.shape for p in parts], axis_in_plane)
    # Each part is a 2-D slab of the plane: a flat index in it unravels by the part's width.
    part_width = np.array([p.shape[1] for p in parts])[part_of]
    along = flat_in_part // part_width if axis_in_plane == 0 else flat_in_part % part_width
    piece = np.array(pieces)
    dest = piece[part_of, 0]
    out_index = cell_index.copy()
    out_index[..., axis] = piece[part_of, 1] - np.array(offsets)[dest] + along
    return dest, out_index


def peel_steps(piece_count: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """Gaps opened in each frame: 0, 1, .., K-1 (outputs peeled off) then back down to 0 (joined)."""
    gaps = max(0, piece_count - 1)
    if gaps == 0:
        return [0]
    per = math.ceil(gaps / ((max_frames - 1) // 2))
    up = list(range(0, gaps, per)) + [gaps]
    return up + up[-2::-1]


def _colorscale(count):
    """One colorblind-safe color per visible output (viz.colors): neighbours along Axis always differ."""
    return stepwise_colorscale(categorical(count))


def _label_annotations(pieces, peeled, axis_is_rows, xref, yref):
    """'[k]' beside each piece, following it as it moves: piece i sits after min(i, peeled) gaps."""
    notes = []
    lo = pieces[0][1]
    for i, (k, begin, stop) in enumerate(pieces):
        pos = begin - lo + min(i, peeled) + (stop - begin - 1) / 2
        notes.append(dict(xref=xref, yref=yref, showarrow=False, font=dict(size=11), text=f"[{k}]",
                          x=-0.6 if axis_is_rows else pos, y=pos if axis_is_rows else -0.6,
                          xanchor="right" if axis_is_rows else "center",
                          yanchor="middle" if axis_is_rows else "bottom"))
    return notes


def _piece_offset(pieces, i, peeled):
    """Where piece i starts along Axis in the right panel: its window position plus the gaps before it."""
    return pieces[i][1] - pieces[0][1] + min(i, peeled)


def _line_pieces(pieces):
    """For each window line across Axis (a row when Axis runs down the rows), the position of its piece."""
    lo = pieces[0][1]
    return [i for i, (_, begin, stop) in enumerate(pieces) for _ in range(begin - lo, stop - lo)]


def locate_pick(shape: Sequence[int], axis: int, sizes: Sequence[int],
                pick: steps.Pick | None) -> tuple[int, tuple[int, ...]] | None:
    """(k, index in OutputTensors[k]) of the input element at multi-index `pick`; None when it does not fit."""
    if pick is None or len(pick) != len(shape) or not all(0 <= int(i) < s for i, s in zip(pick, shape)):
        return None
    ends = np.cumsum(sizes)
    if len(ends) == 0 or ends[-1] != shape[axis]:
        return None
    k = int(np.searchsorted(ends, pick[axis], side="right"))
    out = [int(i) for i in pick]
    out[axis] -= int(ends[k] - sizes[k])
    return k, tuple(out)


def describe_pick(x: np.ndarray, axis: int, sizes: Sequence[int], pick: steps.Pick | None,
                  join: bool = False) -> str | None:
    """'InputTensor[..] → OutputTensors[k][..], value v' for the picked element (for JOIN, 'InputTensors[k][..] →
    OutputTensor[..]'), or None when it does not fit."""
    located = locate_pick(x.shape, axis, sizes, pick)
    if located is None or pick is None:
        return None
    k, out = located
    index = tuple(int(i) for i in pick)
    if join:
        return f"InputTensors[{k}]{list(out)} → OutputTensor{list(index)}, value {_fmt(x[index])}"
    return f"InputTensor{list(index)} → OutputTensors[{k}]{list(out)}, value {_fmt(x[index])}"


def pick_from_selection(selection: dict[str, Any] | None) -> steps.Pick | None:
    """The clicked cell's input multi-index from the chart's selection state, or None."""
    custom = selected_customdata(selection)
    return None if custom is None else tuple(custom)


@dataclass(frozen=True)
class Traces:
    """Where each role sits among the figure's traces: the input's heatmap, one heatmap per drawn output, the
    input's click targets, then one row of click targets per line across Axis (they move with the outputs)."""

    outputs: int
    lines: int
    input: int = 0

    def output(self, i: int) -> int:
        return 1 + i

    @property
    def input_cells(self) -> int:
        return 1 + self.outputs

    def line(self, line: int) -> int:
        return 2 + self.outputs + line

    @property
    def moving(self) -> list[int]:
        """The traces Play moves: every output heatmap and every line of output click targets."""
        return [self.output(i) for i in range(self.outputs)] + [self.line(n) for n in range(self.lines)]


@dataclass(frozen=True)
class Peel:
    """What with_pick needs to redraw a pick, and what a caption says of the drawing: the drawn plane, how each
    frame moves the outputs, where each trace is, and the pick outlined (None when none is drawn)."""

    ndim: int
    fixed: dict  # index of every dimension outside the plane
    bounds: tuple  # (row0, row1, col0, col1) of the window
    view: tuple  # (row dim or None, column dim)
    pieces: list  # [(k, start, stop)] along Axis inside the window
    line_piece: list  # _line_pieces
    axis_is_rows: bool
    steps: list  # gaps open in each frame
    rest: int  # gaps open in the figure at rest
    traces: Traces
    pick: tuple | None = None  # the input multi-index outlined, when it is drawn


def _pick_cell(peel, pick):
    """Window (row, column) of the picked input element, or None when it is not drawn."""
    if pick is None or len(pick) != peel.ndim:
        return None
    if any(int(pick[d]) != i for d, i in peel.fixed.items()):
        return None
    row0, row1, col0, col1 = peel.bounds
    row_dim, col_dim = peel.view
    r = 0 if row_dim is None else int(pick[row_dim]) - row0
    c = int(pick[col_dim]) - col0
    if not (0 <= r < row1 - row0 and 0 <= c < col1 - col0):
        return None
    return r, c


def _pick_shapes(cell, line_piece, axis_is_rows, peeled):
    """Outline the picked cell in the input and where it sits in the right panel after `peeled` gaps."""
    if cell is None:
        return []
    r, c = cell
    line = r if axis_is_rows else c
    shift = min(line_piece[line], peeled)
    out_r, out_c = (r + shift, c) if axis_is_rows else (r, c + shift)
    return [pick_outline([r], [c], "pick-source"),
            pick_outline([out_r], [out_c], "pick-destination", xref="x2", yref="y2")]


def _pick_overlay(peel, pick):
    """(shapes at rest, shapes of each frame, the pick drawn) for `pick`; shapes are None when it is not drawn."""
    cell = _pick_cell(peel, pick)
    if cell is None:
        return None, [None] * len(peel.steps), None

    def shapes(peeled):
        return _pick_shapes(cell, peel.line_piece, peel.axis_is_rows, peeled)

    return shapes(peel.rest), [shapes(peeled) for peeled in peel.steps], tuple(int(i) for i in pick)


def _colors_and_hover(cells, join):
    """Each cell's color (its output's position in the window, so neighbours differ; hover names the real
    output) and hover text."""
    whole = "OutputTensor" if join else "InputTensor"
    position = {k: i for i, (k, _, _) in enumerate(cells.pieces)}
    color = np.vectorize(position.get, otypes=[float])(cells.dest)
    hover = np.array([
        (f"{o} -> {whole}{i}" if join else f"{whole}{i} -> {o}") + f"<br>value {v}"
        for i, o, v in zip(cells.input_index.ravel(), cells.output_index.ravel(), cells.text.ravel())
    ], dtype=object).reshape(color.shape)
    return color, hover


def _heatmaps(cells, color, names, rest):
    """The input's heatmap (left) and one heatmap per drawn output at rest, `rest` gaps apart (right)."""
    whole, pieces_name = names
    pieces, axis_is_rows = cells.pieces, cells.axis_is_rows
    count = len(pieces)
    show_text = color.size <= 24 * 24
    common = dict(zmin=-0.5, zmax=count - 0.5, colorscale=_colorscale(count), showscale=False, xgap=1, ygap=1,
                  hoverinfo="skip")

    def text_kw(text):
        return dict(text=text, texttemplate="%{text}") if show_text else {}

    data = [trace("heatmap", z=color, name=whole, **text_kw(cells.text), **common, xaxis="x", yaxis="y")]
    lo = pieces[0][1]
    for i, (k, begin, stop) in enumerate(pieces):
        part = slice(begin - lo, stop - lo)
        window = (part, slice(None)) if axis_is_rows else (slice(None), part)
        offset = _piece_offset(pieces, i, rest)
        place = dict(y0=offset, dy=1, x0=0, dx=1) if axis_is_rows else dict(x0=offset, dx=1, y0=0, dy=1)
        data.append(trace("heatmap", z=color[window], name=f"{pieces_name}[{k}]", **text_kw(cells.text[window]),
                          **place, **common, xaxis="x2", yaxis="y2"))
    return data


def _click_layers(cells, hover, line_piece, rest):
    """Invisible markers over the input's cells, then one row of them per line across Axis of the outputs: the
    rows move with their outputs as the heatmaps do. customdata: the input multi-index."""
    height, width = cells.dest.shape
    ndim = cells.index.shape[-1]
    index = cells.index.astype(smallest_uint(int(cells.index.max(initial=0))))
    template = "%{text}<extra></extra>"
    rows, cols = np.indices((height, width))
    data = [click_targets("input cells", index.reshape(-1, ndim), template, x=cols.ravel(), y=rows.ravel(),
                          text=hover.ravel(), xaxis="x", yaxis="y")]
    for line, i in enumerate(line_piece):
        across = (line, slice(None)) if cells.axis_is_rows else (slice(None), line)
        place = dict(y0=line + min(i, rest), dy=0, x=np.arange(width)) if cells.axis_is_rows \
            else dict(x0=line + min(i, rest), dx=0, y=np.arange(height))
        data.append(click_targets(f"output cells {line}", index[across], template, text=hover[across], **place,
                                  xaxis="x2", yaxis="y2"))
    return data


def _plane_axes(layout, cells, rest):
    """Square cells in both panels, row 0 at the top; the input's axes number its rows and columns."""
    height, width = cells.dest.shape
    axis_is_rows = cells.axis_is_rows
    row_extent = height + (rest if axis_is_rows else 0)
    col_extent = width + (0 if axis_is_rows else rest)
    for suffix, rows_, cols_ in (("", height, width), ("2", row_extent, col_extent)):
        layout[f"yaxis{suffix}"].update(range=[rows_ - 0.5, -1.5], autorange=False, constrain="domain",
                                        showgrid=False, zeroline=False)
        layout[f"xaxis{suffix}"].update(range=[-1.5 if axis_is_rows else -0.5, cols_ - 0.5],
                                        scaleanchor=f"y{suffix}", scaleratio=1, constrain="domain",
                                        showgrid=False, zeroline=False)
    row0, _, col0, _ = cells.bounds
    row_dim, col_dim = cells.view
    layout["yaxis"].update(tickmode="array", tickvals=list(range(height)),
                           ticktext=[str(row0 + r) for r in range(height)],
                           title=dict(text="" if row_dim is None else f"dim {row_dim}"))
    layout["xaxis"].update(tickmode="array", tickvals=list(range(width)),
                           ticktext=[str(col0 + c) for c in range(width)], title=dict(text=f"dim {col_dim}"))
    layout["xaxis2"].update(showticklabels=False, ticks="")
    layout["yaxis2"].update(showticklabels=False, ticks="")
    return max(height, row_extent)


def _peel_frames(peel, titles, frame_shapes):
    """One frame per step: the outputs and their click targets moved `peeled` gaps apart, their labels along."""
    key = "y0" if peel.axis_is_rows else "x0"
    pieces, count = peel.pieces, len(peel.pieces)
    frames = []
    for number, (peeled, peeled_shapes) in enumerate(zip(peel.steps, frame_shapes)):
        frame_layout = dict(annotations=titles + _label_annotations(pieces, peeled, peel.axis_is_rows, "x2", "y2"))
        if peeled_shapes is not None:
            frame_layout["shapes"] = peeled_shapes
        frames.append(dict(
            data=[{key: _piece_offset(pieces, i, peeled), "type": "heatmap"} for i in range(count)]
            + [{key: line + min(i, peeled), "type": "scatter"} for line, i in enumerate(peel.line_piece)],
            layout=frame_layout, name=str(number), traces=peel.traces.moving,
        ))
    return frames


def split_join_figure(x: np.ndarray, axis: int, sizes: Sequence[int], *, view: tuple[int | None, int] | None = None,
                      fixed: dict[int, int] | None = None, start: tuple[int, int] = (0, 0),
                      pick: steps.Pick | None = None,
                      max_cells: int = MAX_CELLS, max_frames: int = MAX_FRAMES, join: bool = False) -> SpecFigure:
    """Input view colored by destination output (left) and the outputs peeled off then joined back (right).

    The right panel holds one heatmap per visible output; frames only move them (x0 or y0), so the
    animation costs a few numbers per frame whatever the tensor size. Invisible markers make the cells
    clickable; on the right they form one trace per line across Axis, moved by x0/y0 like the heatmaps.
    pick: an input multi-index to outline in the input and in its output, when it is drawn.
    join: the same picture read as DML_JOIN, x being its OutputTensor and the pieces its InputTensors.
    A SpecFigure whose context (Peel) says what is drawn; with_pick(figure, pick) redraws the pick on a shared copy.
    """
    names = ("OutputTensor", "InputTensors") if join else ("InputTensor", "OutputTensors")
    cells = layout_cells(x, axis, sizes, view, fixed, start, max_cells, names[1])
    count = len(cells.pieces)
    steps = peel_steps(count, max_frames)
    rest = count - 1  # the figure at rest shows the outputs apart
    color, hover = _colors_and_hover(cells, join)
    line_piece = _line_pieces(cells.pieces)
    data = _heatmaps(cells, color, names, rest) + _click_layers(cells, hover, line_piece, rest)
    # Where outputs outnumber the colors, the input's cells carry their output's band mark (the outputs are labelled
    # [k] beside them).
    rows, cols = np.indices(color.shape)
    marks = band_marks(rows, cols, color.astype(int), count, "input bands", xaxis="x", yaxis="y")
    data += [marks] if marks is not None else []
    layout, titles = subplot_layout((f"{names[0]} {list(x.shape)}", f"{count} {names[1]} (drawn part)"), 0.08,
                                    stacked=False)
    rows = _plane_axes(layout, cells, rest)
    peel = Peel(x.ndim, cells.fixed, cells.bounds, cells.view, cells.pieces, line_piece, cells.axis_is_rows, steps,
                rest, Traces(count, len(line_piece)))
    shapes, frame_shapes, picked = _pick_overlay(peel, pick)
    frames = _peel_frames(peel, titles, frame_shapes)
    layout.update(
        annotations=titles + _label_annotations(cells.pieces, rest, cells.axis_is_rows, "x2", "y2"),
        # 40 px a row: at 22 px the cells of a small tensor were tiny in a wide window (values at 6 px).
        height=int(min(900, max(360, ROW_PX * rows + 200))), margin=dict(l=10, r=10, t=60, b=140),
        hovermode="closest", clickmode="event+select", dragmode=False,
        meta=dict(bounds=list(cells.bounds), view=list(cells.view), pieces=[list(p) for p in cells.pieces],
                  fixed=[list(item) for item in sorted(cells.fixed.items())], steps=steps,
                  pick=None if picked is None else list(picked)),
    )
    frame_names = [f["name"] for f in frames]
    layout["updatemenus"], layout["sliders"] = play_controls(frame_names, frame_names, active=steps.index(rest),
                                                             duration=max(150, min(700, 12000 // len(frames))),
                                                             pad_top=60)
    data += band_legend(layout, count, lambda first, last: f"[{first}]–[{last}]")
    if shapes is not None:  # last, where with_pick would add it
        layout["shapes"] = shapes
    return SpecFigure(figure_spec(data, layout, frames), context=dataclasses.replace(peel, pick=picked))


def input_only(figure: SpecFigure, pick: steps.Pick | None = None) -> SpecFigure:
    """`figure` (from split_join_figure) cut to its input, for a quiz that asks where an input element goes: the
    input's cells with their values in one color (its colors name each element's output, the answer), `pick` (an
    input multi-index) outlined; no outputs, no hover, no Play."""
    spec, peel = figure.to_dict(), figure.context
    layout = spec["layout"]
    heatmap = {**spec["data"][peel.traces.input], "z": [[0] * len(row) for row in _rows(peel)],
               "colorscale": [[0.0, INPUT_COLOR], [1.0, INPUT_COLOR]], "zmin": 0, "zmax": 1, "hoverinfo": "skip"}
    kept = {key: value for key, value in layout.items()
            if key not in ("updatemenus", "sliders", "shapes", "meta", "xaxis2", "yaxis2")}
    kept.update(annotations=[{**layout["annotations"][0], "x": 0.5}], xaxis={**layout["xaxis"], "domain": [0.0, 1.0]},
                margin={**layout["margin"], "b": 60}, height=layout["height"] - layout["margin"]["b"] + 60,
                hovermode=False)
    cell = _pick_cell(peel, pick)
    if cell is not None:
        kept["shapes"] = [pick_outline([cell[0]], [cell[1]], "pick-source")]
    return SpecFigure(figure_spec([heatmap], kept), peel)


def _rows(peel):
    row0, row1, col0, col1 = peel.bounds
    return [range(col1 - col0)] * (row1 - row0)


def with_pick(figure: SpecFigure, pick: steps.Pick | None) -> SpecFigure:
    """`figure` (from split_join_figure) with input multi-index `pick` outlined instead of its own pick, at rest
    and in every frame, and named in layout.meta and the context. Shares everything else with `figure`, so a
    cached figure without a pick serves every click.
    """
    shapes, frame_shapes, picked = _pick_overlay(figure.context, pick)
    meta = {**figure.to_dict()["layout"]["meta"], "pick": None if picked is None else list(picked)}
    return figure.with_overlay(layout=dict(shapes=shapes, meta=meta),
                               frames=[dict(shapes=peeled) for peeled in frame_shapes],
                               context=dataclasses.replace(figure.context, pick=picked))


# ---------------------------------------------------------------- step by step


def step_count(figure: SpecFigure, element: int | None = None) -> int:
    """The drawn input cells: the steps walk them row-major."""
    return len(steps.array_of(steps.trace_of(figure, figure.context.traces.input_cells)["x"]))


def step_labels(figure: SpecFigure, count: int) -> list[str]:
    return steps.element_labels(count)


def with_step(figure: SpecFigure, number: int, element: int | None = None) -> tuple[SpecFigure, steps.Step]:
    """Step `number`: input and outputs are separate subplots, and plotly draws an annotation's arrow inside one
    subplot only (its tail may only use the head's axes), so each side gets its own arrow, labelled with the other
    side's index."""
    count = step_count(figure)
    number = steps.clamped(number, count)
    peel = figure.context
    targets = steps.trace_of(figure, peel.traces.input_cells)
    index = steps.array_of(targets["customdata"]).reshape(count, peel.ndim).astype(np.int64)[number]
    row, col = int(steps.array_of(targets["y"])[number]), int(steps.array_of(targets["x"])[number])
    # Where the element sits in the right panel at rest: moved along Axis by the gaps opened before its output.
    line = row if peel.axis_is_rows else col
    shift = min(peel.line_piece[line], peel.rest)
    out_row, out_col = (row + shift, col) if peel.axis_is_rows else (row, col + shift)
    row_dim, col_dim = peel.view
    axis_dim = row_dim if peel.axis_is_rows else col_dim
    k, begin = _piece_of(peel.pieces, int(index[axis_dim]))
    out_index = list(index.tolist())
    out_index[axis_dim] -= begin
    source, destination = tuple(index.tolist()), (k, *out_index)
    label = f"InputTensor {steps.index_text(source)} → OutputTensors[{k}] {steps.index_text(out_index)}"
    arrows = [
        # Tails to the right of each cell: left of the input are its row labels, above are the titles.
        dict(name="step-arrow-source", x=col, y=row, xref="x", yref="y", ax=70, ay=0, xanchor="left",
             text=f"to [{k}] {steps.index_text(out_index)}", **steps.ARROW),
        dict(name="step-arrow-destination", x=out_col, y=out_row, xref="x2", yref="y2", ax=70, ay=0,
             xanchor="left", text=f"from {steps.index_text(source)}", **steps.ARROW),
    ]
    shapes = [steps.outline(row, col, "step-source"), steps.outline(out_row, out_col, "step-destination", "x2", "y2")]
    return steps.overlay(figure, arrows, shapes), steps.Step(number, count, label, source, destination)


def _piece_of(pieces: list, i: int) -> tuple[int, int]:
    """(output number k, first index of output k along Axis) of the output holding index i along Axis."""
    for k, begin, stop in pieces:
        if begin <= i < stop:
            return int(k), int(begin)
    raise ValueError(f"index {i} along Axis is not in a drawn output")
