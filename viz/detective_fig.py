"""The layout detective's pictures: where every output cell came from, and a mix-up's diff before and after.

Every tensor is drawn as tiles of its last two dimensions (one row for a 1-D tensor), the leading dimensions
enumerating the tiles, row 0 at the top. The inputs are on the left, each cell labelled with its flat index (its
value, in an origin-coded input) and colored by the tile it sits in; the outputs are on the right, each cell
labelled with the flat index of the input element it came from and colored by that element's tile, so a cell
that moved keeps its source's color and number. Cells whose value is in no input are dark and marked "✗".
Hover gives both indices. Colors are the operator pages' channel colors (viz.colors: distinct under the common
color-vision deficiencies up to twelve tiles, with a band mark in each cell beyond); the labels carry the same
information for every reader.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .colorblind import ink_on
from .common import (
    LABEL_CELLS,
    MAX_CELLS,
    band_legend,
    band_marks,
    canvas_axes,
    channel_colorscale,
    color_range,
    squarish_columns,
    tile_origins,
    trace,
)
from .spec import SpecFigure, figure_spec

MISSING_COLOR = "#1A1A1A"
SAME_COLOR = "rgba(150,150,150,0.35)"
DIFFERS_COLOR = "#D55E00"
TILE_EDGE = 64  # rows and columns drawn per tile at most
SIDE_GAP = 3
TENSOR_GAP = 1
TILE_ASPECT = 2.0
TITLE_ROWS = 2.7  # canvas rows above row 0 holding the side titles


def _height(canvas_h, canvas_w, width_px):
    """Pixel height showing square cells across about `width_px` pixels, with room for titles and margins."""
    cell = min(44.0, width_px / max(canvas_w, 1))
    return int(min(1200, max(160, (canvas_h + TITLE_ROWS) * cell + 20)))


@dataclasses.dataclass(frozen=True)
class _Placed:
    """One tensor's drawn tiles on a side's canvas."""

    name: str
    shape: tuple
    tiles: list  # leading multi-index of each drawn tile
    tile_rows: np.ndarray  # canvas row / column of each drawn tile's top-left cell
    tile_cols: np.ndarray
    h: int
    w: int
    total_tiles: int
    height: int
    width: int


def _tile_shape(shape):
    return (1, shape[0]) if len(shape) == 1 else (shape[-2], shape[-1])


def _place(name, shape, budget, row_offset):
    full_h, full_w = _tile_shape(shape)
    h, w = min(full_h, TILE_EDGE), min(full_w, TILE_EDGE)
    leading = shape[:-2] if len(shape) > 1 else ()
    total = math.prod(leading)
    count = max(1, min(total, budget // (h * w)))
    tiles = [tuple(int(i) for i in np.unravel_index(k, leading)) if leading else () for k in range(count)]
    ncols = squarish_columns(count, h, w, TILE_ASPECT)
    rows, cols = tile_origins(count, h, w, ncols)
    ncols = max(1, min(count, ncols))
    nrows = math.ceil(count / ncols)
    height = nrows * (h + 1) + (nrows - 1)
    width = ncols * w + (ncols - 1)
    return _Placed(name, tuple(shape), tiles, rows + row_offset, cols, h, w, total, height, width)


def _layout(names, shapes):
    budget = max(1, MAX_CELLS // len(shapes))
    placed, offset = [], 0
    for name, shape in zip(names, shapes):
        p = _place(name, shape, budget, offset)
        placed.append(p)
        offset += p.height + TENSOR_GAP
    return placed, offset - TENSOR_GAP


def _cells(p):
    """(tile number, multi-index, canvas row, canvas col) of every drawn cell of a placed tensor, row-major."""
    k, r, c = (a.ravel() for a in np.meshgrid(np.arange(len(p.tiles)), np.arange(p.h), np.arange(p.w),
                                               indexing="ij"))
    if len(p.shape) == 1:
        index = (c,)
    else:
        leading = np.array(p.tiles, dtype=np.int64).reshape(len(p.tiles), -1)[k]
        index = tuple(leading.T) + (r, c)
    return index, p.tile_rows[k] + r, p.tile_cols[k] + c


def _index_text(index, i):
    return "[" + ", ".join(str(int(a[i])) for a in index) + "]"


def _colors(tile_count):
    """Stepwise colorscale (viz.colors, as the operator pages color channels) and z range for tile numbers
    0 .. tile_count - 1."""
    return channel_colorscale(tile_count), color_range(tile_count)


def _tile_of(shapes, starts, flat):
    """(input number, tile number within all inputs' tiles, multi-index) of flat indices counted through inputs."""
    starts = np.asarray(starts, dtype=np.int64)
    which = np.searchsorted(starts, flat, side="right") - 1
    tile_counts = [math.prod(s[:-2]) if len(s) > 1 else 1 for s in shapes]
    tile_starts = np.cumsum([0] + tile_counts)[:-1]
    tile = np.zeros(flat.shape, dtype=np.int64)
    indices: list[tuple[int, ...] | None] = [None] * len(flat)
    for i, shape in enumerate(shapes):
        mine = which == i
        local = flat[mine] - starts[i]
        index = np.unravel_index(local, shape)
        plane = shape[-2] * shape[-1] if len(shape) > 1 else shape[0]
        tile[mine] = tile_starts[i] + local // plane
        for j, position in enumerate(np.flatnonzero(mine)):
            indices[position] = tuple(int(a[j]) for a in index)
    return which, tile, indices


def _tile_labels(placed, col_offset):
    annotations = []
    for p in placed:
        for k, lead in enumerate(p.tiles):
            label = f"{p.name}[{', '.join(map(str, lead))}]" if lead else p.name
            annotations.append(dict(text=label, x=int(p.tile_cols[k]) + col_offset - 0.5, y=int(p.tile_rows[k]) - 1,
                                    xanchor="left", yanchor="middle", showarrow=False, font=dict(size=12)))
    return annotations


def _drawn_note(placed):
    parts = []
    for p in placed:
        full_h, full_w = _tile_shape(p.shape)
        cropped = p.h < full_h or p.w < full_w
        if len(p.tiles) < p.total_tiles or cropped:
            part = f"{p.name}: the first {len(p.tiles)} of {p.total_tiles} tiles"
            parts.append(part + (f", each its first {p.h} x {p.w} cells" if cropped else ""))
    return "; ".join(parts)


@dataclasses.dataclass(frozen=True)
class DrawnPart:
    """What a page's caption says beside the figure: which tiles were left out ("" when everything is drawn)."""

    note: str


class _Cells:
    """The canvas being filled: each cell's tile color (z), its "in no input" mark, its label, and the hover of
    every drawn cell."""

    def __init__(self, height, width):
        self.z = np.full((height, width), np.nan, dtype=np.float32)
        self.missing = np.full((height, width), np.nan, dtype=np.float32)
        self.text = np.full((height, width), "", dtype=object)
        self.hover_x, self.hover_y, self.hover_text = [], [], []

    def hover(self, rows: np.ndarray, cols: np.ndarray, texts: list[str]) -> None:
        self.hover_x += cols.tolist()
        self.hover_y += rows.tolist()
        self.hover_text += texts


def _tile_counts(shapes):
    return [math.prod(s[:-2]) if len(s) > 1 else 1 for s in shapes]


def _draw_inputs(cells, left, input_starts, tile_base):
    """Each input cell labelled with its flat index (counted through all inputs), colored by its tile."""
    for i, p in enumerate(left):
        index, rows, cols = _cells(p)
        flat = np.ravel_multi_index(index, p.shape) + input_starts[i]
        plane = p.shape[-2] * p.shape[-1] if len(p.shape) > 1 else p.shape[0]
        cells.z[rows, cols] = tile_base[i] + (flat - input_starts[i]) // plane
        cells.text[rows, cols] = flat.astype(str)
        cells.hover(rows, cols, [f"{p.name}{_index_text(index, j)}, flat {flat[j]}" for j in range(len(flat))])


def _draw_outputs(cells, right, right_x0, sources, x_shapes, x_names, input_starts, y_values):
    """Each output cell labelled with the flat index of the input element it came from and colored by that
    element's tile; a value in no input is marked."""
    for o, p in enumerate(right):
        index, rows, cols = _cells(p)
        source = np.asarray(sources[o])[index]
        found = source >= 0
        which, tile, src_index = _tile_of(x_shapes, input_starts, np.where(found, source, 0))
        cols = cols + right_x0
        cells.z[rows[found], cols[found]] = tile[found]
        cells.missing[rows[~found], cols[~found]] = 0
        cells.text[rows, cols] = np.where(found, source.astype(str), "✗")
        values = np.asarray(y_values[o])[index] if y_values is not None else None
        texts = []
        for j in range(len(source)):
            where = f"{p.name}{_index_text(index, j)}"
            if found[j]:
                came = f"{x_names[which[j]]}[{', '.join(map(str, src_index[j]))}], flat {source[j]}"
                texts.append(f"{where} came from {came}")
            else:
                shown = f" = {values[j].item()!r}" if values is not None else ""
                texts.append(f"{where}{shown}: this value is in no input")
        cells.hover(rows, cols, texts)


def _detective_traces(cells, tile_count, font_size):
    """The tiles' colors and labels, the "in no input" cells over them, and the hover targets."""
    colorscale, zrange = _colors(tile_count)
    show_text = np.count_nonzero(cells.text != "") <= 2 * LABEL_CELLS
    rows, cols = np.nonzero(~np.isnan(cells.z))
    marks = band_marks(rows, cols, cells.z[rows, cols].astype(int), tile_count, "tile bands")
    return [
        trace("heatmap", z=cells.z, x0=0, dx=1, y0=0, dy=1, name="cells", zmin=zrange[0], zmax=zrange[1],
              colorscale=colorscale, showscale=False, hoverinfo="skip", xgap=1, ygap=1,
              text=cells.text if show_text else None, texttemplate="%{text}" if show_text else None,
              textfont=dict(size=font_size)),  # plotly picks dark or light ink for each cell's color
        trace("heatmap", z=cells.missing, x0=0, dx=1, y0=0, dy=1, name="in no input", zmin=-0.5, zmax=0.5,
              colorscale=[[0.0, MISSING_COLOR], [1.0, MISSING_COLOR]], showscale=False, hoverinfo="skip",
              xgap=1, ygap=1, text=np.where(np.isnan(cells.missing), "", "✗").astype(object),
              texttemplate="%{text}", textfont=dict(size=font_size + 2, color="#FFFFFF")),
        trace("scatter", x=np.array(cells.hover_x, dtype=np.int32), y=np.array(cells.hover_y, dtype=np.int32),
              mode="markers", name="cells", text=cells.hover_text, hovertemplate="%{text}<extra></extra>",
              marker=dict(symbol="square", size=12, opacity=0), showlegend=False),
    ] + ([marks] if marks is not None else [])


def _canvas_layout(height, width, width_px, annotations):
    """Square cells, row 0 at the top, room above row 0 for the side titles."""
    layout = dict(canvas_axes(height, width), annotations=annotations, showlegend=False,
                  height=_height(height, width, width_px), margin=dict(l=10, r=10, t=10, b=10))
    layout["yaxis"]["range"] = [height - 0.5, 0.5 - TITLE_ROWS]
    return layout


def detective_figure(x_shapes: Sequence[Sequence[int]], y_shapes: Sequence[Sequence[int]],
                     sources: Sequence[Any], input_starts: Sequence[int],
                     y_values: Sequence[np.ndarray] | None = None, width_px: int = 1100) -> SpecFigure:
    """Figure of where every drawn output cell came from.

    x_shapes, y_shapes: the inputs' and outputs' sizes; sources: per output an int array of its shape, the flat
    index counted through all inputs (IdentifyReport.source_index, as a list), -1 for a value in no input;
    input_starts: each input's first flat index; y_values: per output its values (hover of cells found nowhere).
    The context (DrawnPart) says what was left out, for the caption.
    """
    x_shapes = [tuple(s) for s in x_shapes]
    x_names = ["x"] if len(x_shapes) == 1 else [f"x{i}" for i in range(len(x_shapes))]
    y_names = ["y"] if len(y_shapes) == 1 else [f"y{i}" for i in range(len(y_shapes))]
    left, left_h = _layout(x_names, x_shapes)
    right, right_h = _layout(y_names, [tuple(s) for s in y_shapes])
    right_x0 = max(p.width for p in left) + SIDE_GAP
    height, width = max(left_h, right_h), right_x0 + max(p.width for p in right)
    cells = _Cells(height, width)
    _draw_inputs(cells, left, input_starts, np.cumsum([0] + _tile_counts(x_shapes)))
    _draw_outputs(cells, right, right_x0, sources, x_shapes, x_names, input_starts, y_values)
    cell_px = min(44.0, width_px / max(width, 1))
    font_size = int(min(13, max(7, cell_px * 0.34)))
    annotations = _tile_labels(left, 0) + _tile_labels(right, right_x0) + [
        dict(text="<b>input</b>", x=-0.5, y=-1.6, xanchor="left", showarrow=False, font=dict(size=13)),
        # The page's caption says what a cell shows: a longer title here left the figure in a 800 px window.
        dict(text="<b>output</b>", x=right_x0 - 0.5, y=-1.6, xanchor="left", showarrow=False, font=dict(size=13)),
    ]
    drawn = DrawnPart("; ".join(filter(None, [_drawn_note(left), _drawn_note(right)])))
    tile_count = sum(_tile_counts(x_shapes))
    layout = _canvas_layout(height, width, width_px, annotations)
    legend = band_legend(layout, tile_count, lambda first, last: f"tiles {first}–{last}")
    return SpecFigure(figure_spec(_detective_traces(cells, tile_count, font_size) + legend, layout), context=drawn)


def diff_figure(before: np.ndarray, after: np.ndarray, before_title: str, after_title: str,
                width_px: int = 1100) -> SpecFigure:
    """Two copies of the output's drawn tiles: the cells that differ from a descriptor as given (before) and once
    the channel permutation is applied (after), "≠" on a differing cell, row 0 at the top."""
    before, after = np.asarray(before, dtype=bool), np.asarray(after, dtype=bool)
    [placed], height = _layout(["y"], [before.shape])
    index, rows, cols = _cells(placed)
    offset = placed.width + SIDE_GAP
    width = offset + placed.width
    z = np.full((height, width), np.nan, dtype=np.float32)
    text = np.full((height, width), "", dtype=object)
    for mask, shift in ((before, 0), (after, offset)):
        differs = mask[index]
        z[rows, cols + shift] = differs.astype(np.float32)
        text[rows, cols + shift] = np.where(differs, "≠", "")
    hover = [f"y{_index_text(index, j)}" for j in range(len(rows))]
    data = [
        trace("heatmap", z=z, x0=0, dx=1, y0=0, dy=1, zmin=-0.5, zmax=1.5, showscale=False, hoverinfo="skip",
              colorscale=[[0.0, SAME_COLOR], [0.5, SAME_COLOR], [0.5, DIFFERS_COLOR], [1.0, DIFFERS_COLOR]],
              xgap=1, ygap=1, text=text, texttemplate="%{text}", textfont=dict(size=13, color=ink_on(DIFFERS_COLOR))),
        trace("scatter", x=np.concatenate([cols, cols + offset]).astype(np.int32),
              y=np.concatenate([rows, rows]).astype(np.int32), mode="markers", showlegend=False,
              text=[f"{h}: {'differs' if d else 'same'} ({t})"
                    for t, m in ((before_title, before), (after_title, after)) for h, d in zip(hover, m[index])],
              hovertemplate="%{text}<extra></extra>", marker=dict(symbol="square", size=12, opacity=0)),
    ]
    annotations = [
        dict(text=f"<b>{before_title}</b>: {int(before.sum())} of {before.size} cells differ", x=-0.5, y=-1.6,
             xanchor="left", showarrow=False, font=dict(size=13)),
        dict(text=f"<b>{after_title}</b>: {int(after.sum())} of {after.size} cells differ", x=offset - 0.5, y=-1.6,
             xanchor="left", showarrow=False, font=dict(size=13)),
    ]
    annotations += _tile_labels([placed], 0) + _tile_labels([placed], offset)
    layout = _canvas_layout(height, width, width_px, annotations)
    return SpecFigure(figure_spec(data, layout), context=DrawnPart(_drawn_note([placed])))
