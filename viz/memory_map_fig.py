"""Memory map of one buffer tensor: which logical element reads or writes each cell of the buffer.

Broadcasting (a 0 stride) shows as one cell used many times, padding as cells nobody touches, and
two logical elements of an output landing on one cell as a conflict.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ops.tensor_desc import packed_strides

from .colors import BLUE, GREY, ORANGE, stepwise_colorscale
from .common import MAX_CELLS, empty_figure, trace
from .spec import SpecFigure, figure_spec

MAX_LOGICAL_ELEMENTS = 2**20
MAX_COLUMNS = 64
HOVER_INDICES = 4
LABELLED_CELLS = 400
# How to read a labelled map, for the page's caption (MapReading): too long for a subtitle.
CELL_TEXT = "A cell shows its logical index (size-1 dimensions left out) or ×N for N users."

UNTOUCHED, ONCE, SHARED = 0, 1, 2
# Okabe-Ito (viz.colors): grey for padding, blue and orange for one and several users.
COLORS = {UNTOUCHED: GREY, ONCE: BLUE, SHARED: ORANGE}


def logical_offsets(sizes: Sequence[int], strides: Sequence[int] | None = None) -> np.ndarray | None:
    """Element offset of every logical index, in row-major order of the logical indices."""
    sizes = [int(s) for s in sizes]
    strides = packed_strides(sizes) if strides is None else [int(s) for s in strides]
    count = math.prod(sizes)
    if count > MAX_LOGICAL_ELEMENTS:
        return None
    index = np.indices(sizes, dtype=np.int64).reshape(len(sizes), -1)
    return (index * np.array(strides, dtype=np.int64)[:, None]).sum(axis=0)


def default_columns(sizes: Sequence[int], strides: Sequence[int] | None = None, cells: int | None = None) -> int:
    """Row width: the pitch of an outer dimension, so padding lines up at the row ends.

    Candidates are the strides of outer dimensions that clear one innermost row; the smallest one that
    keeps the map at most twice as tall as wide wins (the largest if none does).
    """
    sizes = [int(s) for s in sizes]
    strides = packed_strides(sizes) if strides is None else [int(s) for s in strides]
    last_extent = (sizes[-1] - 1) * strides[-1] + 1
    pitches = sorted({stride for size, stride in zip(sizes[:-1], strides[:-1]) if size > 1 and stride >= last_extent})
    cells = cells or (sum((size - 1) * stride for size, stride in zip(sizes, strides)) + 1)
    fitting = [pitch for pitch in pitches if cells <= 2 * pitch * pitch]
    columns = fitting[0] if fitting else pitches[-1] if pitches else last_extent
    return max(1, min(MAX_COLUMNS, columns))


def _index_label(index):
    return "[" + ", ".join(str(i) for i in index) + "]"


def _logical_indices(users, sizes):
    """{flat: multi-index as a list} of every user a label or a hover names, unravelled in one call."""
    named = sorted({int(flat) for who in users for flat in who[:HOVER_INDICES]})
    if not named:
        return {}
    return dict(zip(named, np.stack(np.unravel_index(named, sizes), axis=1).tolist()))


def _cell_users(offsets, cell_of_offset, cells):
    """For each drawn cell: the logical flat indices that touch it (in logical order)."""
    users: list[list[int]] = [[] for _ in range(cells)]
    cell = cell_of_offset(offsets)
    for flat in np.flatnonzero((cell >= 0) & (cell < cells)):
        users[cell[flat]].append(flat)
    return users


@dataclass(frozen=True)
class MapReading:
    """What a page's caption says beside a memory map: how to read its cells ("" when they carry no labels)."""

    reading: str = ""


@dataclass(frozen=True)
class _Grid:
    """The drawn cells of a buffer: `columns` per row, each cell's users (the logical elements touching it)."""

    users: list
    columns: int
    rows: int
    total_cells: int
    unit: str  # "element" or "byte"


def _grid(sizes, strides, offsets, element_size, total_bytes, unit, columns, max_cells):
    byte_cells = unit == "byte"
    total_cells = -(-total_bytes // (1 if byte_cells else element_size))
    drawn = min(total_cells, max_cells)
    if not columns:
        elements_per_row = default_columns(sizes, strides, -(-total_bytes // element_size))
        columns = elements_per_row * (element_size if byte_cells else 1)
    columns = max(1, min(int(columns), drawn))
    if byte_cells:
        # Each element covers element_size consecutive bytes; users of a byte are the users of its element.
        element_users = _cell_users(offsets, lambda o: o, -(-drawn // element_size))
        users = [element_users[b // element_size] for b in range(drawn)]
    else:
        users = _cell_users(offsets, lambda o: o, drawn)
    return _Grid(users, columns, -(-drawn // columns), total_cells, unit)


def _cell_traces(grid, sizes, element_size, verb, names):
    """The map's heatmap (codes UNTOUCHED / ONCE / SHARED, hover and labels per cell), then one legend entry per
    code present."""
    indices = _logical_indices(grid.users, sizes)
    size = grid.rows * grid.columns
    codes, hover, labels = np.full(size, np.nan), [""] * size, [""] * size
    for cell, who in enumerate(grid.users):
        codes[cell] = UNTOUCHED if not who else ONCE if len(who) == 1 else SHARED
        hover[cell] = _hover(cell, who, indices, element_size, grid.unit == "byte", verb)
        labels[cell] = _cell_label(who, sizes, indices)
    shape = (grid.rows, grid.columns)
    heatmap = trace(
        "heatmap", z=codes.reshape(shape), zmin=-0.5, zmax=2.5, showscale=False,
        colorscale=stepwise_colorscale([COLORS[c] for c in (UNTOUCHED, ONCE, SHARED)]),
        customdata=np.array(hover, dtype=object).reshape(shape), text=np.array(labels, dtype=object).reshape(shape),
        hovertemplate="%{customdata}<extra></extra>", xgap=1, ygap=1,
    )
    if len(grid.users) <= LABELLED_CELLS:
        heatmap.update(texttemplate="%{text}")  # plotly picks black or white text for each cell's color
    present = sorted({int(c) for c in codes[~np.isnan(codes)]})
    return [heatmap] + [trace("scatter", x=[None], y=[None], mode="markers", name=names[code],
                              marker=dict(symbol="square", size=12, color=COLORS[code])) for code in present]


def _map_layout(grid, heading, outside):
    """Title and subtitle (what is drawn), legend over the map, square cells with row 0 at the top."""
    drawn = len(grid.users)
    drawn_note = (f"all {grid.total_cells:,} {grid.unit}s drawn" if drawn == grid.total_cells
                  else f"first {drawn:,} of {grid.total_cells:,} {grid.unit}s drawn")
    # Short lines: a subtitle is one SVG text that never wraps, and half of an 800 px page is about 45 characters.
    subtitle = f"{drawn_note}, {grid.columns} per row"
    if outside:
        subtitle += f"<br>{outside:,} logical elements fall outside the buffer"
    xaxis = dict(title=dict(text=f"{grid.unit} offset within row"), automargin=True, showgrid=False, zeroline=False,
                 range=[-0.5, grid.columns - 0.5], constrain="domain")
    yaxis = dict(title=dict(text=f"row ({grid.columns} {grid.unit}s each)"), showgrid=False, zeroline=False,
                 autorange="reversed", scaleanchor="x", scaleratio=1, constrain="domain")
    if grid.columns <= 16:
        xaxis["dtick"] = 1
    if grid.rows <= 16:
        yaxis["dtick"] = 1
    return dict(title=dict(text=f"{heading}<br><sup>{subtitle}</sup>"), showlegend=True,
                legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), height=_height(grid.rows, grid.columns),
                margin=dict(l=50, r=10, t=110, b=60), xaxis=xaxis, yaxis=yaxis)


def memory_map_figure(sizes: Sequence[int], strides: Sequence[int] | None, element_size: int, total_bytes: int, *,
                      role: str = "input", unit: str = "element", columns: int | None = None,
                      max_cells: int = MAX_CELLS, title: str | None = None) -> SpecFigure:
    """One square cell per element (or byte) of a buffer of total_bytes, colored by how often it is used.

    role "input": a cell used by several logical elements is a broadcast read; role "output": a conflict.
    The title says how many cells are drawn out of how many; the context (MapReading) how to read the cells.
    """
    sizes = [int(s) for s in sizes]
    element_size, total_bytes = int(element_size), int(total_bytes)
    offsets = logical_offsets(sizes, strides)
    if offsets is None:
        return empty_figure(
            f"{math.prod(sizes):,} logical elements: too many to map (the map draws up to {MAX_LOGICAL_ELEMENTS:,})",
            context=MapReading(),
        )
    grid = _grid(sizes, strides, offsets, element_size, total_bytes, unit, columns, max_cells)
    verb = "written" if role == "output" else "read"
    shared_name = "written more than once: conflict" if role == "output" else "read many times: broadcast"
    names = {UNTOUCHED: "never touched: padding", ONCE: f"{verb} once", SHARED: shared_name}
    outside = int(np.count_nonzero((offsets + 1) * element_size > total_bytes))
    layout = _map_layout(grid, title or f"Buffer of {total_bytes:,} bytes", outside)
    reading = MapReading(CELL_TEXT if len(grid.users) <= LABELLED_CELLS else "")
    return SpecFigure(figure_spec(_cell_traces(grid, sizes, element_size, verb, names), layout), context=reading)


def _height(rows, columns):
    """Pixels for square cells of at most 48 px across about 900 px, plus title, legend and axes."""
    cell = max(6.0, min(48.0, 900 / columns))
    return int(min(1000, max(320, rows * cell + 180)))


def _cell_label(who, sizes, indices):
    """Short in-cell label: the one logical index (dimensions of size 1 left out), or ×N for N users."""
    if not who:
        return ""
    if len(who) > 1:
        return f"×{len(who)}"
    kept = [str(i) for i, size in zip(indices[int(who[0])], sizes) if size > 1]
    return ",".join(kept) or "0"


def _hover(cell, who, indices, element_size, byte_cells, verb):
    if byte_cells:
        element, byte = divmod(cell, element_size)
        where = f"byte {cell} (byte {byte} of element {element})"
    else:
        where = f"element {cell} (bytes {cell * element_size}..{cell * element_size + element_size - 1})"
    if not who:
        return f"{where}<br>never touched"
    labels = ", ".join(_index_label(indices[int(flat)]) for flat in who[:HOVER_INDICES])
    more = f" and {len(who) - HOVER_INDICES} more" if len(who) > HOVER_INDICES else ""
    return f"{where}<br>{verb} by {len(who)}: {labels}{more}"
