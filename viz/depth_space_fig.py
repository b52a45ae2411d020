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

import math
from dataclasses import dataclass

import numpy as np

from ops import DescriptorError
from ops.operators.depth_space import depth_to_space_shape, order_name, space_to_depth_shape
from ops.operators.index_maps import depth_to_space_map, space_to_depth_map

from .common import (
    LABEL_CELLS,
    MAX_CELLS,
    MAX_FRAMES,
    canvas_axes,
    canvas_extent,
    cell_square_path,
    channel_colorscale,
    color_range,
    figure_height,
    format_values,
    play_controls,
    rect_outline_xy,
    smallest_uint,
    squarish_columns,
    tile_origins,
    trace,
)
from .spec import SpecFigure, figure_spec

DIRECTIONS = ("depth_to_space", "space_to_depth")
OPERATORS = {"depth_to_space": "DEPTH_TO_SPACE1", "space_to_depth": "SPACE_TO_DEPTH1"}
SIDE_GAP = 3  # empty columns between the input and the output
MAX_TILE_LABELS = 256  # beyond this the channel labels cost more than they tell; hover still names them
COVER_TRACE, OUTLINE_TRACE = 2, 5
UNWRITTEN = "rgba(128,128,128,0.92)"  # reads as "not yet written" on light and dark themes
TILE_ASPECT = 2.5
NARROW_SHARE = 0.4  # a 800 px window leaves a chart about 440 of the 1100 px it gets in a wide one
MIN_FONT = 8


def label_font(cell_px, characters):
    """The largest font (px, at most 14) whose `characters` digits fit a cell of `cell_px` across and down:
    a digit is about 0.6 em wide and a line 1.25 em high."""
    return int(min(14, cell_px * 0.9 / (0.6 * max(characters, 1)), cell_px / 1.25))


def direction_name(direction):
    if direction not in DIRECTIONS:
        raise DescriptorError(f"direction {direction!r}: expected one of {', '.join(DIRECTIONS)}")
    return direction


def side_shapes(input_shape, block_size, direction):
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
    def cells(self):
        return len(self.channels) * self.block_size**2 * len(self.rows) * len(self.cols)

    def is_whole(self, depth_shape):
        n, cd, hd, wd = depth_shape
        return n == 1 and len(self.channels) * self.block_size**2 == cd and len(self.rows) == hd \
            and len(self.cols) == wd

    def describe(self, depth_shape, direction):
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


def drawn_window(depth_shape, block_size, batch=0, first_channel=0, first_row=0, first_col=0, cap=MAX_CELLS):
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


def window_pairs(depth_shape, block_size, order, direction, window):
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


def _layout_side(position, local_row, local_col, tile_h, tile_w, col_offset):
    channels = np.unique(position)
    ncols = squarish_columns(len(channels), tile_h, tile_w, TILE_ASPECT)
    tile_rows, tile_cols = tile_origins(len(channels), tile_h, tile_w, ncols)
    tile_cols = tile_cols + col_offset
    height, width = canvas_extent(len(channels), tile_h, tile_w, ncols)
    tile = np.searchsorted(channels, position)
    return _Side(channels, tile_rows, tile_cols, tile_h, tile_w, height, width,
                 tile_rows[tile] + local_row, tile_cols[tile] + local_col)


def _canvas(side, values, height, fill=np.nan, dtype=float):
    grid = np.full((height, side.width), fill, dtype=dtype)
    grid[side.row, side.col - side.tile_cols.min()] = values
    return grid


def _heatmap(side, z, text, name, zrange, colorscale, font_size):
    return trace(
        "heatmap", z=z, x0=int(side.tile_cols.min()), dx=1, y0=0, dy=1, name=name,
        zmin=zrange[0], zmax=zrange[1], colorscale=colorscale, showscale=False,
        hoverinfo="skip", xgap=1, ygap=1,
        text=text, texttemplate="%{text}" if text is not None else None, textfont=dict(size=font_size),
    )


def _points(side, positions, flats, labels, name):
    """Invisible markers on every cell: they carry the hover text and make cells clickable.

    customdata per cell: input (n, c, h, w), output (n, c, h, w), input flat index, output flat index.
    """
    custom = np.column_stack([*positions[0], *positions[1], *flats])
    custom = custom.astype(smallest_uint(custom.max()))
    return trace(
        "scatter", x=side.col, y=side.row, mode="markers", name=name, customdata=custom, text=labels,
        marker=dict(symbol="square", size=12, opacity=0),
        selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0)),
        hovertemplate=name + " value %{text}<br>"
        "input (n,c,h,w) = (%{customdata[0]},%{customdata[1]},%{customdata[2]},%{customdata[3]}) "
        "flat %{customdata[8]}<br>"
        "output (n,c,h,w) = (%{customdata[4]},%{customdata[5]},%{customdata[6]},%{customdata[7]}) "
        "flat %{customdata[9]}<extra></extra>",
        showlegend=False,
    )


@dataclass(frozen=True)
class PickCells:
    """Where each drawn input element sits and where it lands on the canvas: what a pick outline needs."""

    in_flat: np.ndarray
    source: tuple  # (rows, cols)
    destination: tuple


def depth_space_figure(x, y, block_size, order, direction, window=None, pick=None, max_frames=MAX_FRAMES,
                       width_px=1100):
    """Figure of input x and output y of DEPTH_TO_SPACE1 (direction "depth_to_space") or SPACE_TO_DEPTH1.

    window: the drawn part (default: drawn_window from batch 0); pick: flat input index to highlight
    with its destination; width_px: about how wide the chart will be, to size its height.
    Animation frames fill the output one depth-side channel (or group of channels, to stay within
    max_frames) at a time. A SpecFigure: with_pick(figure, pick) redraws the pick on a shared copy.
    """
    direction = direction_name(direction)
    order = order_name(order)
    depth_shape, space_shape = side_shapes(x.shape, block_size, direction)
    window = window or drawn_window(depth_shape, block_size)
    pairs = window_pairs(depth_shape, block_size, order, direction, window)
    bs = block_size
    depth_flat = np.ravel_multi_index(pairs.depth, depth_shape)
    space_flat = np.ravel_multi_index(pairs.space, space_shape)
    kr, kq = len(window.rows), len(window.cols)

    if direction == "depth_to_space":
        in_pos, out_pos = pairs.depth, pairs.space
        in_tile, out_tile = (kr, kq), (kr * bs, kq * bs)
        in_local = (pairs.depth[2] - window.rows.start, pairs.depth[3] - window.cols.start)
        out_local = (pairs.space[2] - window.rows.start * bs, pairs.space[3] - window.cols.start * bs)
        in_flat, out_flat = depth_flat, space_flat
    else:
        in_pos, out_pos = pairs.space, pairs.depth
        in_tile, out_tile = (kr * bs, kq * bs), (kr, kq)
        in_local = (pairs.space[2] - window.rows.start * bs, pairs.space[3] - window.cols.start * bs)
        out_local = (pairs.depth[2] - window.rows.start, pairs.depth[3] - window.cols.start)
        in_flat, out_flat = space_flat, depth_flat
    left = _layout_side(in_pos[1], *in_local, *in_tile, col_offset=0)
    right = _layout_side(out_pos[1], *out_local, *out_tile, col_offset=left.width + SIDE_GAP)
    height = max(left.height, right.height)

    values = x[in_pos]
    labels = format_values(values)
    longest = max((len(label) for label in labels), default=1)
    color = np.searchsorted(left.channels, in_pos[1]).astype(float)
    colorscale = channel_colorscale(len(left.channels))
    zrange = color_range(len(left.channels))
    right_x0 = int(right.tile_cols.min())
    canvas_h, canvas_w = height, right_x0 + right.width
    # Labels sized to fit their cells in a 800 px window (the chart gets about NARROW_SHARE of width_px there);
    # where even that is under MIN_FONT, sized for width_px (hover names every cell either way).
    font_size = label_font(width_px * NARROW_SHARE / max(canvas_w, 1), longest)
    if font_size < MIN_FONT:
        font_size = label_font(min(44.0, width_px / max(canvas_w, 1)), longest)
    show_text = len(labels) <= LABEL_CELLS and font_size >= MIN_FONT
    font_size = max(font_size, MIN_FONT)

    def text_grid(side, mask=None):
        if not show_text:
            return None
        shown = np.asarray(labels, dtype=object)
        if mask is not None:
            shown = np.where(mask, shown, "")
        return _canvas(side, shown, height, fill="", dtype=object)

    in_z = _canvas(left, color, height).astype(np.float32)
    out_z = _canvas(right, color, height).astype(np.float32)

    # Frames fill the output in the order of its depth-side channels. Only a gray cover over the
    # output changes: its z is each cell's step and each frame moves the colorscale's transparent
    # threshold, so a frame costs a few bytes instead of a canvas of values.
    depth_channels = np.unique(pairs.depth[1])
    per_frame = math.ceil(len(depth_channels) / max_frames)
    step = np.searchsorted(depth_channels, pairs.depth[1]) // per_frame
    steps = int(step.max()) + 1
    cover_z = _canvas(right, step, height).astype(np.float32)
    data = [
        _heatmap(left, in_z, text_grid(left), "input", zrange, colorscale, font_size),
        _heatmap(right, out_z, text_grid(right), "output", zrange, colorscale, font_size),
        trace("heatmap", z=cover_z, x0=right_x0, dx=1, y0=0, dy=1, name="not yet written",
              zmin=-0.5, zmax=steps - 0.5, colorscale=cover_colorscale(steps - 1, steps), showscale=False,
              hoverinfo="skip", xgap=1, ygap=1),
        _points(left, (in_pos, out_pos), (in_flat, out_flat), labels, "input"),
        _points(right, (in_pos, out_pos), (in_flat, out_flat), labels, "output"),
        trace("scatter", x=[], y=[], mode="lines", name="step", line=dict(width=3, color="#888"),
              hoverinfo="skip", showlegend=False),
    ]
    depth_side = left if direction == "depth_to_space" else right
    depth_tiles = np.searchsorted(depth_side.channels, depth_channels)
    frames, names, step_labels = [], [], []
    noun = "input" if direction == "depth_to_space" else "output"
    for k in range(steps):
        current = depth_tiles[k * per_frame:(k + 1) * per_frame]
        xs, ys = rect_outline_xy(depth_side.tile_rows[current].tolist(), depth_side.tile_cols[current].tolist(),
                                 [depth_side.tile_h] * len(current), [depth_side.tile_w] * len(current))
        first, last = depth_channels[k * per_frame], depth_channels[min((k + 1) * per_frame, len(depth_channels)) - 1]
        name = f"step{k}"
        frames.append(dict(name=name, traces=[COVER_TRACE, OUTLINE_TRACE], data=[
            trace("heatmap", colorscale=cover_colorscale(k, steps)),
            trace("scatter", x=xs, y=ys),
        ]))
        names.append(name)
        step_labels.append(f"c{first}" if first == last else f"c{first}-{last}")
    menus, sliders = play_controls(names, step_labels, active=steps - 1, width_px=width_px)
    sliders[0]["currentvalue"]["prefix"] = f"{noun} channel "

    title_y = 1.0
    annotations = [
        dict(text=f"<b>input</b> {list(x.shape)}", x=(left.width - 1) / 2, y=title_y, xref="x", yref="paper",
             yanchor="bottom", showarrow=False),
        dict(text=f"<b>output</b> {list(space_shape if direction == 'depth_to_space' else depth_shape)}",
             x=right_x0 + (right.width - 1) / 2, y=title_y, xref="x", yref="paper",
             yanchor="bottom", showarrow=False),
    ]
    for side in (left, right):
        if len(side.channels) > MAX_TILE_LABELS:
            continue
        for ch, r, c in zip(side.channels.tolist(), side.tile_rows.tolist(), side.tile_cols.tolist()):
            annotations.append(dict(text=f"c{ch}", x=c - 0.5, y=r - 1, xanchor="left", showarrow=False,
                                    font=dict(size=font_size)))
    cells = PickCells(in_flat, (left.row, left.col), (right.row, right.col))
    layout = dict(
        annotations=annotations, updatemenus=menus, sliders=sliders,
        height=figure_height(canvas_h, canvas_w, width_px), margin=dict(l=10, r=10, t=40, b=90),
        hovermode="closest", clickmode="event+select", dragmode=False,
        meta=dict(operator=OPERATORS[direction], order=order, cells=int(len(labels)), steps=steps),
        **canvas_axes(canvas_h, canvas_w),
    )
    shapes = pick_shapes(pick, cells)
    if shapes:  # go.Figure leaves an empty shapes list out
        layout["shapes"] = shapes
    return SpecFigure(figure_spec(data, layout, frames), context=cells)


def with_pick(figure, pick):
    """`figure` (from depth_space_figure) with flat input index `pick` outlined instead of its own pick.

    Shares everything else with `figure`, so a cached figure without a pick serves every click.
    """
    return figure.with_overlay(layout=dict(shapes=pick_shapes(pick, figure.context) or None))


def cover_colorscale(done, steps):
    """Transparent for steps 0..done, gray for the later steps (z holds each cell's step)."""
    if steps == 1:
        return [[0.0, "rgba(0,0,0,0)"], [1.0, "rgba(0,0,0,0)"]]
    clear = "rgba(0,0,0,0)"
    edge = (done + 1) / steps
    if edge >= 1:
        return [[0.0, clear], [1.0, clear]]
    return [[0.0, clear], [edge, clear], [edge, UNWRITTEN], [1.0, UNWRITTEN]]


def pick_shapes(pick, cells):
    """Outlines around the picked input element and where it lands, joined by a line (PickCells `cells`)."""
    if pick is None:
        return []
    hit = np.flatnonzero(cells.in_flat == pick)
    if not len(hit):
        return []
    i = hit[0]
    src = (int(cells.source[0][i]), int(cells.source[1][i]))
    dst = (int(cells.destination[0][i]), int(cells.destination[1][i]))
    style = dict(line=dict(color="#E4002B", width=3), layer="above")
    return [
        dict(type="path", name="pick-source", path=cell_square_path([src[0]], [src[1]]), **style),
        dict(type="path", name="pick-destination", path=cell_square_path([dst[0]], [dst[1]]), **style),
        dict(type="line", name="pick-link", x0=src[1], y0=src[0], x1=dst[1], y1=dst[0],
             line=dict(color="#E4002B", width=2, dash="dot"), layer="above"),
    ]


def pick_from_selection(selection):
    """Flat input index of the clicked cell from st.plotly_chart's selection state, or None.

    customdata travels as a typed array, which the browser sends back as an object keyed "0", "1", ...
    """
    points = (selection or {}).get("points") or []
    for point in points:
        custom = point.get("customdata")
        if isinstance(custom, dict):
            custom = [custom.get(str(i)) for i in range(len(custom))]
        if isinstance(custom, (list, tuple)) and len(custom) >= 10 and custom[8] is not None:
            return int(custom[8])
    return None


def describe_pick(pick, x_shape, block_size, order, direction):
    """(input position, output position, output flat index) of input flat index `pick`, or None.

    Maps only the one block position holding the element, so it costs the channel count, not the tensor.
    """
    x_shape = tuple(int(s) for s in x_shape)
    if pick is None or not 0 <= pick < math.prod(x_shape):
        return None
    order = order_name(order)
    depth_shape, space_shape = side_shapes(x_shape, block_size, direction)
    n, c, h, w = np.unravel_index(pick, x_shape)
    if direction == "space_to_depth":
        h, w = h // block_size, w // block_size
    window = Window(int(n), range(depth_shape[1] // block_size**2), range(h, h + 1), range(w, w + 1), block_size)
    pairs = window_pairs(depth_shape, block_size, order, direction, window)
    src, dst = (pairs.depth, pairs.space) if direction == "depth_to_space" else (pairs.space, pairs.depth)
    out_shape = space_shape if direction == "depth_to_space" else depth_shape
    i = int(np.flatnonzero(np.ravel_multi_index(src, x_shape) == pick)[0])
    source = tuple(int(a[i]) for a in src)
    destination = tuple(int(a[i]) for a in dst)
    return source, destination, int(np.ravel_multi_index(destination, out_shape))
