"""DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1 as pictures.

Both tensors are drawn as one tile per channel, input on the left and output on the right. Every cell
is colored by the input channel it comes from, so the block shuffle reads as a color pattern, and the
frames fill the output one depth-side channel at a time: under DEPTH_COLUMN_ROW the first channels
land on the same block position of every output channel, under COLUMN_ROW_DEPTH they fill one output
channel's blocks first.

Coordinates: the "depth side" is {N, C*bs^2, H, W} and the "space side" {N, C, H*bs, W*bs};
depth-to-space reads the depth side, space-to-depth reads the space side. The drawn window is chosen
in depth-side terms (batch, space-side channels, block rows, block columns) so both sides show the
same elements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from ops import DescriptorError
from ops.operators.depth_space import DIRECTIONS, depth_to_space_shape, order_name, space_to_depth_shape
from ops.operators.index_maps import depth_to_space_map, space_to_depth_map

from .common import (
    LABEL_CELLS,
    MAX_CELLS,
    MAX_FRAMES,
    PICK_COLOR,
    band_legend,
    band_marks,
    canvas_axes,
    canvas_extent,
    cell_square_path,
    channel_colorscale,
    click_targets,
    color_range,
    cover_colorscale,
    figure_height,
    format_values,
    play_controls,
    rect_outline_xy,
    selected_customdata,
    smallest_uint,
    squarish_columns,
    tile_origins,
    trace,
)
from .operator_figure import (
    ARROW,
    Pick,
    Step,
    array_of,
    clamped,
    element_labels,
    index_text,
    outline,
    overlay,
    trace_of,
)
from .spec import SpecFigure, figure_spec

STEP_NOUN = "element"

SIDE_GAP = 3  # empty columns between the input and the output
MAX_TILE_LABELS = 256  # beyond this the channel labels cost more than they tell; hover still names them
TILE_ASPECT = 2.5
NARROW_SHARE = 0.4  # a 800 px window leaves a chart about 440 of the 1100 px it gets in a wide one
MIN_FONT = 8


def label_font(cell_px: float, characters: int) -> int:
    """The largest font (px, at most 14) whose `characters` digits fit a cell of `cell_px` across and down:
    a digit is about 0.6 em wide and a line 1.25 em high."""
    return int(min(14, cell_px * 0.9 / (0.6 * max(characters, 1)), cell_px / 1.25))


def direction_name(direction: str) -> str:
    if direction not in DIRECTIONS:
        raise DescriptorError(f"direction {direction!r}: expected one of {', '.join(DIRECTIONS)}")
    return direction


def side_shapes(input_shape: Sequence[int], block_size: int,
                direction: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(depth-side shape, space-side shape) for an input of `input_shape`; raises DescriptorError."""
    input_shape = tuple(int(s) for s in input_shape)
    if direction_name(direction) == "depth_to_space":
        return input_shape, depth_to_space_shape(input_shape, block_size)
    return space_to_depth_shape(input_shape, block_size), input_shape


@dataclass(frozen=True)
class Window:
    """The drawn part, in depth-side coordinates: batch, space-side channels, block rows, block columns."""

    batch: int
    channels: range
    rows: range
    cols: range
    block_size: int

    @property
    def cells(self) -> int:
        return len(self.channels) * self.block_size**2 * len(self.rows) * len(self.cols)

    def is_whole(self, depth_shape: Sequence[int]) -> bool:
        n, cd, hd, wd = depth_shape
        return n == 1 and len(self.channels) * self.block_size**2 == cd and len(self.rows) == hd \
            and len(self.cols) == wd

    def describe(self, depth_shape: Sequence[int], direction: str) -> str:
        """What is drawn, in the terms of the input tensor."""
        bs = self.block_size
        c0, c1 = self.channels.start, self.channels.stop - 1
        parts = [f"batch {self.batch}"]
        if direction == "depth_to_space":
            parts.append(f"output channels {c0}..{c1} (and the {len(self.channels) * bs * bs} input channels "
                         "that feed them)")
            parts.append(f"input rows {self.rows.start}..{self.rows.stop - 1}, "
                         f"columns {self.cols.start}..{self.cols.stop - 1}")
        else:
            parts.append(f"input channels {c0}..{c1}")
            parts.append(f"input rows {self.rows.start * bs}..{self.rows.stop * bs - 1}, "
                         f"columns {self.cols.start * bs}..{self.cols.stop * bs - 1}")
        return ", ".join(parts) + f": {self.cells:,} of {math.prod(depth_shape):,} elements"


def drawn_window(depth_shape: Sequence[int], block_size: int, batch: int = 0, first_channel: int = 0,
                 first_row: int = 0, first_col: int = 0, cap: int = MAX_CELLS) -> Window:
    """The largest window starting at the given place whose element count stays within `cap`.

    The spatial extent is kept whole when one channel's plane fits, otherwise cut to a square, then
    as many channels as fit are added, so small tensors are always drawn whole. Out-of-range starts
    are clamped, so a stale URL still draws something.
    """
    n, cd, hd, wd = (int(s) for s in depth_shape)
    bs2 = block_size * block_size
    if bs2 > cap:
        raise DescriptorError(f"BlockSize {block_size}: one block of {bs2:,} cells exceeds the drawing cap of {cap:,}")
    cs = cd // bs2
    batch = min(max(0, int(batch)), n - 1)
    c0 = min(max(0, int(first_channel)), cs - 1)
    r0 = min(max(0, int(first_row)), hd - 1)
    q0 = min(max(0, int(first_col)), wd - 1)
    blocks = cap // bs2
    if (hd - r0) * (wd - q0) <= blocks:
        kr, kq = hd - r0, wd - q0
    else:
        kq = min(wd - q0, max(1, math.isqrt(blocks)))
        kr = min(hd - r0, blocks // kq)
    kc = min(cs - c0, blocks // (kq * kr))
    return Window(batch, range(c0, c0 + kc), range(r0, r0 + kr), range(q0, q0 + kq), block_size)


@dataclass(frozen=True)
class Pairs:
    """Every drawn element as a (depth-side position, space-side position) pair, global coordinates."""

    depth: tuple  # (n, c, h, w) arrays
    space: tuple


def window_pairs(depth_shape: Sequence[int], block_size: int, order: str, direction: str, window: Window) -> Pairs:
    """Pairs for the window, from the core's index maps run on the window's rows and columns.

    The shuffle is local in H and W, so a spatial crop with every channel kept maps exactly like the
    whole tensor; that bounds the work by the window, not the tensor.
    """
    _, cd, _, _ = depth_shape
    bs = block_size
    kr, kq = len(window.rows), len(window.cols)
    depth_sub = (1, cd, kr, kq)
    space_sub = (1, cd // (bs * bs), kr * bs, kq * bs)
    if direction == "depth_to_space":
        flat = depth_to_space_map(depth_sub, bs, order)[0, window.channels.start:window.channels.stop]
        sc, sh, sw = np.indices(flat.shape).reshape(3, -1)
        sc = sc + window.channels.start
        dc, dh, dw = np.unravel_index(flat.ravel(), depth_sub[1:])
    else:
        flat = space_to_depth_map(space_sub, bs, order)[0]
        dc, dh, dw = np.indices(flat.shape).reshape(3, -1)
        sc, sh, sw = np.unravel_index(flat.ravel(), space_sub[1:])
        keep = (sc >= window.channels.start) & (sc < window.channels.stop)
        dc, dh, dw, sc, sh, sw = (a[keep] for a in (dc, dh, dw, sc, sh, sw))
    n = np.full(dc.shape, window.batch)
    depth = (n, dc, dh + window.rows.start, dw + window.cols.start)
    space = (n, sc, sh + window.rows.start * bs, sw + window.cols.start * bs)
    return Pairs(depth, space)


class Column(IntEnum):
    """The customdata columns of the click targets: where an element is read, where it is written, both flat."""

    IN_N = 0
    IN_C = 1
    IN_H = 2
    IN_W = 3
    OUT_N = 4
    OUT_C = 5
    OUT_H = 6
    OUT_W = 7
    IN_FLAT = 8
    OUT_FLAT = 9


INPUT_POSITION = slice(Column.IN_N, Column.IN_W + 1)  # the (n, c, h, w) columns of the element read
OUTPUT_POSITION = slice(Column.OUT_N, Column.OUT_W + 1)  # and of where it is written


class Trace(IntEnum):
    """The figure's traces, in order: frames name the ones they change (COVER, STEP) by these positions."""

    INPUT = 0  # heatmap of the input's tiles
    OUTPUT = 1  # heatmap of the output's tiles
    COVER = 2  # grey over the output cells not yet written
    INPUT_CELLS = 3  # click targets over the input, carrying the hover (Column)
    OUTPUT_CELLS = 4
    STEP = 5  # outline of the tiles the current frame writes


@dataclass(frozen=True)
class _Side:
    """One tensor's tiles on the canvas: which channels, where each drawn element sits."""

    channels: np.ndarray  # drawn channel ids, sorted
    tile_rows: np.ndarray
    tile_cols: np.ndarray
    tile_h: int
    tile_w: int
    height: int
    width: int
    row: np.ndarray  # canvas row / column of each pair's element on this side
    col: np.ndarray
    gutter: np.ndarray  # the empty canvas row under each pair's tile (a pick's link runs there)

    @property
    def x0(self):
        return int(self.tile_cols.min())


def _layout_side(position, local_row, local_col, tile_h, tile_w, col_offset):
    channels = np.unique(position)
    ncols = squarish_columns(len(channels), tile_h, tile_w, TILE_ASPECT)
    tile_rows, tile_cols = tile_origins(len(channels), tile_h, tile_w, ncols)
    tile_cols = tile_cols + col_offset
    height, width = canvas_extent(len(channels), tile_h, tile_w, ncols)
    tile = np.searchsorted(channels, position)
    return _Side(channels, tile_rows, tile_cols, tile_h, tile_w, height, width,
                 tile_rows[tile] + local_row, tile_cols[tile] + local_col, tile_rows[tile] + tile_h)


@dataclass(frozen=True)
class _Canvas:
    """Both tensors on one canvas: the input's tiles on the left, the output's on the right, and every drawn
    element as a pair (where it is read, where it is written) in tensor positions, flat indices and cells."""

    direction: str
    input_shape: tuple
    output_shape: tuple
    pairs: Pairs
    in_pos: tuple  # (n, c, h, w) arrays of each pair's input element
    out_pos: tuple
    in_flat: np.ndarray
    out_flat: np.ndarray
    left: _Side
    right: _Side

    @property
    def height(self):
        return max(self.left.height, self.right.height)

    @property
    def width(self):
        return self.right.x0 + self.right.width

    @property
    def depth_side(self):
        return self.left if self.direction == "depth_to_space" else self.right

    def grid(self, side, values, fill=np.nan, dtype=float):
        """A canvas-high grid of one side's width holding `values` (one per pair) at their cells."""
        grid = np.full((self.height, side.width), fill, dtype=dtype)
        grid[side.row, side.col - side.x0] = values
        return grid


def _canvas(x_shape, block_size, order, direction, window):
    depth_shape, space_shape = side_shapes(x_shape, block_size, direction)
    pairs = window_pairs(depth_shape, block_size, order, direction, window)
    bs = block_size
    depth_flat = np.ravel_multi_index(pairs.depth, depth_shape)
    space_flat = np.ravel_multi_index(pairs.space, space_shape)
    depth_tile, space_tile = (len(window.rows), len(window.cols)), (len(window.rows) * bs, len(window.cols) * bs)
    depth_local = (pairs.depth[2] - window.rows.start, pairs.depth[3] - window.cols.start)
    space_local = (pairs.space[2] - window.rows.start * bs, pairs.space[3] - window.cols.start * bs)
    if direction == "depth_to_space":
        read, written = (pairs.depth, depth_flat, depth_local, depth_tile), (pairs.space, space_flat, space_local,
                                                                                space_tile)
        output_shape = space_shape
    else:
        read, written = (pairs.space, space_flat, space_local, space_tile), (pairs.depth, depth_flat, depth_local,
                                                                                depth_tile)
        output_shape = depth_shape
    left = _layout_side(read[0][1], *read[2], *read[3], col_offset=0)
    right = _layout_side(written[0][1], *written[2], *written[3], col_offset=left.width + SIDE_GAP)
    return _Canvas(direction, tuple(x_shape), output_shape, pairs, read[0], written[0], read[1], written[1], left,
                   right)


@dataclass(frozen=True)
class _Labels:
    """The cells' value labels and the font they are drawn in (text None: too many cells, hover only)."""

    values: list
    font: int
    text: np.ndarray | None  # the labels, as an object array in pair order, when they are drawn

    def grid(self, canvas, side, mask=None):
        if self.text is None:
            return None
        shown = self.text if mask is None else np.where(mask, self.text, "")
        return canvas.grid(side, shown, fill="", dtype=object)


def _labels(values, canvas_w, width_px):
    """Labels sized to fit their cells in a 800 px window (the chart gets about NARROW_SHARE of width_px there);
    where even that is under MIN_FONT, sized for width_px. Hover names every cell either way; the browser fits
    the font to the cells it draws (ui/plotly_chart.js)."""
    labels = format_values(values)
    longest = max((len(label) for label in labels), default=1)
    font = label_font(width_px * NARROW_SHARE / max(canvas_w, 1), longest)
    if font < MIN_FONT:
        font = label_font(min(44.0, width_px / max(canvas_w, 1)), longest)
    shown = len(labels) <= LABEL_CELLS and font >= MIN_FONT
    return _Labels(labels, max(font, MIN_FONT), np.asarray(labels, dtype=object) if shown else None)


def _heatmap(canvas, side, z, text, name, font_size):
    count = len(canvas.left.channels)
    zmin, zmax = color_range(count)
    return trace(
        "heatmap", z=canvas.grid(side, z).astype(np.float32), x0=side.x0, dx=1, y0=0, dy=1, name=name,
        zmin=zmin, zmax=zmax, colorscale=channel_colorscale(count), showscale=False, hoverinfo="skip", xgap=1,
        ygap=1, text=text, texttemplate="%{text}" if text is not None else None, textfont=dict(size=font_size),
    )


def _hovertemplate(name):
    def cells(*columns):
        return ",".join(f"%{{customdata[{int(column)}]}}" for column in columns)

    read = cells(Column.IN_N, Column.IN_C, Column.IN_H, Column.IN_W)
    written = cells(Column.OUT_N, Column.OUT_C, Column.OUT_H, Column.OUT_W)
    return (f"{name} value %{{text}}<br>input (n,c,h,w) = ({read}) flat {cells(Column.IN_FLAT)}<br>"
            f"output (n,c,h,w) = ({written}) flat {cells(Column.OUT_FLAT)}<extra></extra>")


def _points(canvas, side, labels, name):
    """Invisible markers on every cell: they carry the hover text and make cells clickable (customdata: Column)."""
    custom = np.column_stack([*canvas.in_pos, *canvas.out_pos, canvas.in_flat, canvas.out_flat])
    custom = custom.astype(smallest_uint(custom.max()))
    return click_targets(name, custom, _hovertemplate(name), x=side.col, y=side.row, text=labels.values)


@dataclass(frozen=True)
class _Fill:
    """Play's frames: the output written one depth-side channel (or group of channels) at a time."""

    step: np.ndarray  # each pair's frame number
    count: int
    depth_channels: np.ndarray  # drawn depth-side channels, in the order they are written
    per_frame: int


def _fill(canvas, max_frames):
    depth_channels = np.unique(canvas.pairs.depth[1])
    per_frame = math.ceil(len(depth_channels) / max_frames)
    step = np.searchsorted(depth_channels, canvas.pairs.depth[1]) // per_frame
    return _Fill(step, int(step.max()) + 1, depth_channels, per_frame)


def _traces(canvas, values, labels, fill):
    """Trace by trace in Trace's order. Only the gray cover changes during Play: its z is each cell's frame and
    each frame moves the colorscale's transparent threshold, so a frame costs a few bytes, not a canvas."""
    color = np.searchsorted(canvas.left.channels, canvas.in_pos[1]).astype(float)
    right = canvas.right
    data = {
        Trace.INPUT: _heatmap(canvas, canvas.left, color, labels.grid(canvas, canvas.left), "input", labels.font),
        Trace.OUTPUT: _heatmap(canvas, right, color, labels.grid(canvas, right), "output", labels.font),
        Trace.COVER: trace("heatmap", z=canvas.grid(right, fill.step).astype(np.float32), x0=right.x0, dx=1, y0=0,
                           dy=1, name="not yet written", zmin=-0.5, zmax=fill.count - 0.5,
                           colorscale=cover_colorscale(fill.count - 1, fill.count), showscale=False,
                           hoverinfo="skip", xgap=1, ygap=1),
        Trace.INPUT_CELLS: _points(canvas, canvas.left, labels, "input"),
        Trace.OUTPUT_CELLS: _points(canvas, right, labels, "output"),
        Trace.STEP: trace("scatter", x=[], y=[], mode="lines", name="step", line=dict(width=3, color="#888"),
                          hoverinfo="skip", showlegend=False),
    }
    # After the roles: where channels outnumber the colors, each cell's band mark (viz.common.band_marks).
    marks = [band_marks(side.row, side.col, color, len(canvas.left.channels), f"{name} bands")
             for side, name in ((canvas.left, "input"), (right, "output"))]
    return [data[role] for role in Trace] + [mark for mark in marks if mark is not None]


def _frames(canvas, fill, width_px):
    """One frame per step: the cover's threshold and the outline of the tiles written; the Play controls."""
    side = canvas.depth_side
    tiles = np.searchsorted(side.channels, fill.depth_channels)
    channels, per = fill.depth_channels, fill.per_frame
    frames: list[dict[str, Any]] = []
    step_labels: list[str] = []
    for k in range(fill.count):
        current = tiles[k * per:(k + 1) * per]
        xs, ys = rect_outline_xy(side.tile_rows[current].tolist(), side.tile_cols[current].tolist(),
                                 [side.tile_h] * len(current), [side.tile_w] * len(current))
        frames.append(dict(name=f"step{k}", traces=[int(Trace.COVER), int(Trace.STEP)], data=[
            trace("heatmap", colorscale=cover_colorscale(k, fill.count)),
            trace("scatter", x=xs, y=ys),
        ]))
        first, last = channels[k * per], channels[min((k + 1) * per, len(channels)) - 1]
        step_labels.append(f"c{first}" if first == last else f"c{first}-{last}")
    menus, sliders = play_controls([f["name"] for f in frames], step_labels, active=fill.count - 1,
                                   width_px=width_px)
    noun = "input" if canvas.direction == "depth_to_space" else "output"
    sliders[0]["currentvalue"]["prefix"] = f"{noun} channel "
    return frames, menus, sliders


def _annotations(canvas, font_size):
    """The sides' titles over the canvas and each tile's channel label over the tile."""
    left, right = canvas.left, canvas.right
    annotations = [
        dict(text=f"<b>input</b> {list(canvas.input_shape)}", x=(left.width - 1) / 2, y=1.0, xref="x", yref="paper",
             yanchor="bottom", showarrow=False),
        dict(text=f"<b>output</b> {list(canvas.output_shape)}", x=right.x0 + (right.width - 1) / 2, y=1.0,
             xref="x", yref="paper", yanchor="bottom", showarrow=False),
    ]
    for side in (left, right):
        if len(side.channels) > MAX_TILE_LABELS:
            continue
        for ch, r, c in zip(side.channels.tolist(), side.tile_rows.tolist(), side.tile_cols.tolist()):
            annotations.append(dict(text=f"c{ch}", x=c - 0.5, y=r - 1, xanchor="left", showarrow=False,
                                    font=dict(size=font_size)))
    return annotations


@dataclass(frozen=True)
class PickCells:
    """Where each drawn input element sits and where it lands on the canvas, and the gutters a link between them
    runs in: what a pick (or a step) needs to be drawn."""

    in_flat: np.ndarray
    source: tuple  # (rows, cols)
    destination: tuple
    source_gutter: np.ndarray  # the empty row under each source's tile, and under each destination's
    destination_gutter: np.ndarray
    gap_x: float  # the column between the input's tiles and the output's

    def index(self, pick: int) -> int | None:
        """The pair of input flat index `pick`, or None when it is not drawn."""
        hit = np.flatnonzero(self.in_flat == pick)
        return int(hit[0]) if len(hit) else None

    def link(self, i: int) -> str:
        """The path from pair i's source cell to its destination cell through the gutters only, so that it crosses
        no cell's number: down its tile's column to the empty row under the tile, along it to the gap between the
        sides, along that to the destination tile's empty row, and up its column into the tile."""
        (src_r, src_c), (dst_r, dst_c) = self.cells(i)
        down, up = float(self.source_gutter[i]), float(self.destination_gutter[i])
        return (f"M{src_c},{down - 0.5} L{src_c},{down} L{self.gap_x},{down} L{self.gap_x},{up} L{dst_c},{up} "
                f"L{dst_c},{up - 0.5}")

    def cells(self, i: int) -> tuple[tuple[int, int], tuple[int, int]]:
        return ((int(self.source[0][i]), int(self.source[1][i])),
                (int(self.destination[0][i]), int(self.destination[1][i])))


def depth_space_figure(x: np.ndarray, y: np.ndarray, block_size: int, order: str, direction: str,
                       window: Window | None = None, pick: Pick | None = None, max_frames: int = MAX_FRAMES,
                       width_px: int = 1100) -> SpecFigure:
    """Figure of input x and output y of DEPTH_TO_SPACE1 (direction "depth_to_space") or SPACE_TO_DEPTH1.

    window: the drawn part (default: drawn_window from batch 0); pick: (flat input index,) to highlight
    with its destination; width_px: about how wide the chart will be, to size its height.
    Animation frames fill the output one depth-side channel (or group of channels, to stay within
    max_frames) at a time. A SpecFigure: with_pick(figure, pick) redraws the pick on a shared copy.
    """
    direction = direction_name(direction)
    order = order_name(order)
    depth_shape, _ = side_shapes(x.shape, block_size, direction)
    canvas = _canvas(x.shape, block_size, order, direction, window or drawn_window(depth_shape, block_size))
    values = x[canvas.in_pos]
    labels = _labels(values, canvas.width, width_px)
    fill = _fill(canvas, max_frames)
    frames, menus, sliders = _frames(canvas, fill, width_px)
    cells = PickCells(canvas.in_flat, (canvas.left.row, canvas.left.col), (canvas.right.row, canvas.right.col),
                      canvas.left.gutter, canvas.right.gutter, canvas.left.width + (SIDE_GAP - 1) / 2)
    layout = dict(
        annotations=_annotations(canvas, labels.font), updatemenus=menus, sliders=sliders,
        height=figure_height(canvas.height, canvas.width, width_px), margin=dict(l=10, r=10, t=40, b=90),
        hovermode="closest", clickmode="event+select", dragmode=False,
        meta=dict(operator=DIRECTIONS[direction], order=order, cells=len(labels.values), steps=fill.count),
        # One row more than the tiles: the gutter under the last row of tiles, where a pick's link runs.
        **canvas_axes(canvas.height + 1, canvas.width),
    )
    legend = band_legend(layout, len(canvas.left.channels), lambda first, last: f"c{first}–c{last}")
    shapes = pick_shapes(pick, cells)
    if shapes:  # go.Figure leaves an empty shapes list out
        layout["shapes"] = shapes
    return SpecFigure(figure_spec(_traces(canvas, values, labels, fill) + legend, layout, frames), context=cells)


def with_pick(figure: SpecFigure, pick: Pick | None) -> SpecFigure:
    """`figure` (from depth_space_figure) with `pick` = (flat input index,) outlined instead of its own pick.

    Shares everything else with `figure`, so a cached figure without a pick serves every click.
    """
    return figure.with_overlay(layout=dict(shapes=pick_shapes(pick, figure.context) or None))


def input_only(figure: SpecFigure, pick: Pick | None = None) -> SpecFigure:
    """`figure` (from depth_space_figure) cut to its input, for a quiz that asks where an input element goes: the
    input's tiles and their labels, `pick` = (flat input index,) outlined; no output, no click targets or hover that
    would name it, no Play."""
    spec, cells = figure.to_dict(), figure.context
    layout = spec["layout"]
    left_width = cells.gap_x - (SIDE_GAP - 1) / 2
    shapes = [s for s in pick_shapes(pick, cells) if s["name"] == "pick-source"]
    trimmed = {key: value for key, value in layout.items() if key not in ("updatemenus", "sliders", "shapes", "meta")}
    trimmed.update(annotations=[a for a in layout["annotations"] if a["x"] < left_width],
                   xaxis={**layout["xaxis"], "range": [-0.5, left_width - 0.5]},
                   margin={**layout["margin"], "b": 10}, height=layout["height"] - layout["margin"]["b"] + 10,
                   hovermode=False)
    if shapes:
        trimmed["shapes"] = shapes
    return SpecFigure(figure_spec([{**spec["data"][Trace.INPUT], "hoverinfo": "skip"}], trimmed), cells)


def pick_shapes(pick: Pick | None, cells: PickCells) -> list[dict[str, Any]]:
    """Outlines around the picked input element, pick = (flat input index,), and where it lands, linked through the
    gutters (PickCells)."""
    i = None if pick is None or len(pick) != 1 else cells.index(pick[0])
    if i is None:
        return []
    src, dst = cells.cells(i)
    style = dict(line=dict(color=PICK_COLOR, width=3), layer="above")
    return [
        dict(type="path", name="pick-source", path=cell_square_path([src[0]], [src[1]]), **style),
        dict(type="path", name="pick-destination", path=cell_square_path([dst[0]], [dst[1]]), **style),
        dict(type="path", name="pick-link", path=cells.link(i), line=dict(color=PICK_COLOR, width=2, dash="dot"),
             layer="above"),
    ]


def pick_from_selection(selection: dict[str, Any] | None) -> Pick | None:
    """(flat input index,) of the clicked cell from the chart's selection state, or None."""
    custom = selected_customdata(selection)
    return None if custom is None or len(custom) < len(Column) else (int(custom[Column.IN_FLAT]),)


def describe_pick(pick: Pick | None, x_shape: tuple[int, ...], block_size: int, order: str,
                  direction: str) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """(input position, output position, output flat index) of `pick` = (flat input index,), or None when it does
    not fit.

    Maps only the one block position holding the element, so it costs the channel count, not the tensor.
    """
    x_shape = tuple(int(s) for s in x_shape)
    if pick is None or len(pick) != 1 or not 0 <= pick[0] < math.prod(x_shape):
        return None
    flat = int(pick[0])
    order = order_name(order)
    depth_shape, space_shape = side_shapes(x_shape, block_size, direction)
    n, c, h, w = np.unravel_index(flat, x_shape)
    if direction == "space_to_depth":
        h, w = h // block_size, w // block_size
    window = Window(int(n), range(depth_shape[1] // block_size**2), range(h, h + 1), range(w, w + 1), block_size)
    pairs = window_pairs(depth_shape, block_size, order, direction, window)
    src, dst = (pairs.depth, pairs.space) if direction == "depth_to_space" else (pairs.space, pairs.depth)
    out_shape = space_shape if direction == "depth_to_space" else depth_shape
    i = int(np.flatnonzero(np.ravel_multi_index(src, x_shape) == flat)[0])
    source = tuple(int(a[i]) for a in src)
    destination = tuple(int(a[i]) for a in dst)
    return source, destination, int(np.ravel_multi_index(destination, out_shape))


# ---------------------------------------------------------------- step by step


def step_count(figure: SpecFigure, element: int | None = None) -> int:
    """The drawn output cells: the steps walk them in the output's row-major order."""
    return len(array_of(trace_of(figure, Trace.OUTPUT_CELLS)["x"]))


def step_labels(figure: SpecFigure, count: int) -> list[str]:
    return element_labels(count)


def with_step(figure: SpecFigure, number: int, element: int | None = None) -> tuple[SpecFigure, Step]:
    """Step `number`: an arrow from the input cell to the output cell on the one canvas. In compare mode step k is
    the same output cell under both orders, so the two arrows show which input channel each order reads."""
    count = step_count(figure)
    number = clamped(number, count)
    inputs = trace_of(figure, Trace.INPUT_CELLS)
    custom = array_of(inputs["customdata"]).reshape(count, -1).astype(np.int64)
    # The steps walk the output's row-major order; the click targets are in the order of the figure's pairs.
    i = int(np.argsort(custom[:, Column.OUT_FLAT], kind="stable")[number])
    cells = figure.context
    src, dst = cells.cells(i)
    source, destination = tuple(custom[i, INPUT_POSITION].tolist()), tuple(custom[i, OUTPUT_POSITION].tolist())
    label = f"input {index_text(source)} → output {index_text(destination)}"
    # The link runs through the gutters, as a pick's does (PickCells.link), and ends in an arrowhead pointing up the
    # destination's column: a straight arrow struck through the numbers of every cell on its way.
    up = float(cells.destination_gutter[i])
    head = dict(name="step-arrow", x=dst[1], y=up - 0.5, ax=dst[1], ay=up, xref="x", yref="y", axref="x", ayref="y",
                text="", **{**ARROW, "arrowwidth": 2})
    shapes = [outline(src[0], src[1], "step-source"), outline(dst[0], dst[1], "step-destination"),
              dict(type="path", name="step-link", path=cells.link(i), line=dict(color=PICK_COLOR, width=2),
                   layer="above")]
    return overlay(figure, [head], shapes), Step(number, count, label, source, destination)
