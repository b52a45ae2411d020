"""Where every output element comes from, for operators whose output elements are copies chosen by index
arithmetic or by an indices tensor (gather, scatter, one-hot, slice, pad, tile, reversal, nearest upsampling).

Every tensor of the call is drawn as a grid, side by side: the inputs in the descriptor's order, then the output.
A tensor of any rank reads as its 2-D view: one row per index of all but the last dimension (row 0 at the top), one
column per index of the last, as numpy prints it. The data inputs take colors from sequences safe for colour-vision
deficiencies (viridis for InputTensor, Okabe and Ito's vermillion to orange for a second data tensor: a scatter's
updates, ONE_HOT's values), and each output cell takes the color of the element it copies, so a gather's rows, a
reflection's mirror and a tile's repeats read as color patterns; an indices tensor is drawn in light grey with its
values, an output element copied from nothing (a constant pad's value) in Okabe and Ito's grey. Play fills the
output in source order: every element once its source element is reached (a scatter: InputTensor's copy first, then
the updates in row-major order). Output cells where several updates of a scatter land are marked: DirectML keeps one
of them and guarantees no particular one.

The figure is built once for a call (shared by every visitor) from the core's provenance (`Sources`); a pick, a
step or the quiz's input-only view are cheap copies drawn on top (viz.operator_figure). A pick is
(tensor number, flat index), the tensor numbered in the descriptor's order with the output last.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
from plotly.colors import sequential

from . import common
from .colors import GREY, ORANGE, VERMILLION
from .operator_figure import ARROW, Pick, Step, clamped, element_labels, index_text, outline, overlay
from .spec import SpecFigure, figure_spec

STEP_NOUN = "element"
GAP = 2  # empty columns between two tensors
GUTTER = 1  # an empty row over every tensor: a pick's links run there, striking through no cell's number
INDEX_COLOR = "#D9D9D9"  # an indices tensor's cells: light, so their numbers read; not a data color
MIN_FONT, MAX_FONT = 8, 16
# Color positions on the one scale every heatmap of the figure shares (z in [0, 1]).
FIRST_DATA, SECOND_DATA, INDICES, NOTHING = (0.0, 0.44), (0.5, 0.84), 0.9, 0.97


def _scale() -> list[list[Any]]:
    """The shared colorscale: viridis over FIRST_DATA, vermillion to orange over SECOND_DATA, then the indices'
    grey and the grey of 'copied from nothing'. Viridis spans most hues, so the second ramp keeps to the two
    Okabe-Ito colors farthest from all of it under every simulated vision: at least 6 CIEDE2000 apart (a ramp to
    yellow ended 0.4 from viridis' own yellow); tests/figures/test_figures_provenance.py measures it."""
    viridis = sequential.Viridis
    low, high = FIRST_DATA
    scale = [[low + (high - low) * i / (len(viridis) - 1), color] for i, color in enumerate(viridis)]
    scale += [[SECOND_DATA[0], VERMILLION], [SECOND_DATA[1], ORANGE], [0.87, INDEX_COLOR], [0.93, INDEX_COLOR],
              [0.95, GREY], [1.0, GREY]]
    return scale


SCALE = _scale()


@dataclass(frozen=True)
class Sources:
    """The core's provenance of one call, flat and in the output's row-major order: for each output element the
    tensor it copies (its number among the inputs, -1: none), the flat element there, the flat IndicesTensor element
    that chose it (-1: none), and how many updates addressed it (a scatter's; None otherwise); the position of the
    indices tensor among the inputs (None: the index arithmetic alone chooses). A scatter's also: for each element of
    its updates tensor (input `updates_input`), the flat output element it addresses (`landing`; at or past the
    output's size: its buffer's padding, -1: dropped), whether it kept it or not."""

    which: np.ndarray
    flat: np.ndarray
    chooser: np.ndarray
    indices_input: int | None = None
    hits: np.ndarray | None = None
    landing: np.ndarray | None = None
    updates_input: int | None = None


class Role(IntEnum):
    """The figure's traces, in order; frames change COVER and STEP by these positions."""

    INPUTS = 0  # one heatmap over every input's grid
    OUTPUT = 1
    COVER = 2  # grey over the output cells not yet written
    INPUT_CELLS = 3  # click targets over the inputs: (tensor, flat)
    OUTPUT_CELLS = 4  # and over the output: (tensor, flat, source tensor, source flat, chooser, hits)
    STEP = 5  # outline of the cells the current frame writes
    COLLISIONS = 6  # marks on output cells several updates address


class Column(IntEnum):
    """The customdata columns of the click targets (an input cell fills TENSOR and FLAT, the rest -1)."""

    TENSOR = 0
    FLAT = 1
    SOURCE_TENSOR = 2
    SOURCE_FLAT = 3
    CHOOSER = 4
    HITS = 5


@dataclass(frozen=True)
class Grid:
    """One tensor on the canvas: its 2-D view, the part drawn (the first `rows` rows, `cols` columns) and where. A
    tensor of 3 or more dimensions leaves an empty row after each of its planes (each shape[-2] rows), so that its
    matrices read apart."""

    name: str
    shape: tuple[int, ...]
    x0: int
    rows: int
    cols: int

    @property
    def width(self) -> int:
        return max(1, self.shape[-1] if self.shape else 1)

    @property
    def all_rows(self) -> int:
        return math.prod(self.shape[:-1]) if len(self.shape) > 1 else 1

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def whole(self) -> bool:
        return self.rows == self.all_rows and self.cols == self.width

    @property
    def plane(self) -> int:
        """Rows of one plane where planes are set apart (0: they are not)."""
        return self.shape[-2] if len(self.shape) >= 3 else 0

    def canvas_row(self, row: np.ndarray) -> np.ndarray:
        """The canvas row of 2-D view row `row` (under the gutter, planes set apart)."""
        return row + (row // self.plane if self.plane else 0) + GUTTER

    @property
    def height(self) -> int:
        """Canvas rows the drawn part takes, the gutter included."""
        return int(self.canvas_row(np.int64(self.rows - 1))) + 1

    def place(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(drawn?, canvas row, canvas column) of flat elements (an element past the tensor is never drawn)."""
        flat = np.asarray(flat, np.int64)
        row, col = flat // self.width, flat % self.width
        drawn = (flat >= 0) & (flat < self.size) & (row < self.rows) & (col < self.cols)
        return drawn, self.canvas_row(row), col + self.x0

    def drawn_flat(self) -> np.ndarray:
        rows, cols = np.indices((self.rows, self.cols)).reshape(2, -1)
        return rows * self.width + cols

    def describe(self) -> str:
        """What is drawn of the tensor, when not all of it is."""
        return f"{self.name}: rows 0..{self.rows - 1} of {self.all_rows}, columns 0..{self.cols - 1} of {self.width}"


def grids(names: Sequence[str], shapes: Sequence[Sequence[int]], cap: int = common.MAX_CELLS) -> list[Grid]:
    """Each tensor's Grid, left to right, each drawing at most its share of `cap` cells (whole rows first)."""
    share = max(1, cap // len(shapes))
    placed, x0 = [], 0
    for name, shape in zip(names, shapes):
        shape = tuple(int(s) for s in shape)
        width = max(1, shape[-1] if shape else 1)
        cols = min(width, share)
        rows = min(math.prod(shape[:-1]) if len(shape) > 1 else 1, max(1, share // cols))
        placed.append(Grid(name, shape, x0, rows, cols))
        x0 += cols + GAP
    return placed


@dataclass(frozen=True)
class Context:
    """What a pick, a step or the quiz's view need of a built figure: the grids (inputs, then the output), the
    drawn output elements (ascending) with their sources and in fill order, and the canvas's size. Only the drawn
    elements' sources are kept: the figure is cached by its JSON's size, which the whole output's would dwarf."""

    grids: tuple[Grid, ...]
    drawn: np.ndarray  # flat output elements drawn, ascending
    sources: Sources  # of the drawn elements, in `drawn`'s order
    order: np.ndarray  # flat output elements drawn, in the order Play writes them
    height: int
    width: int

    def position(self, flat: int) -> int | None:
        """The place of output element `flat` among the drawn ones, or None when it is not drawn."""
        i = int(np.searchsorted(self.drawn, flat))
        return i if i < len(self.drawn) and self.drawn[i] == flat else None

    @property
    def output(self) -> Grid:
        return self.grids[-1]

    def cell(self, tensor: int, flat: int) -> tuple[int, int] | None:
        """Canvas (row, col) of element `flat` of tensor `tensor`, or None when it is not drawn."""
        if not 0 <= tensor < len(self.grids):
            return None
        drawn, row, col = self.grids[tensor].place(np.array([flat]))
        return (int(row[0]), int(col[0])) if drawn[0] else None

    def related(self, pick: Pick) -> list[tuple[int, int]]:
        """The (tensor, flat) elements linked to `pick`: an output element's source and the index that chose it; an
        input element's (or an index's) output elements, at most LINKS_SHOWN."""
        tensor, flat = pick
        out = len(self.grids) - 1
        s = self.sources
        if tensor == out:
            i = self.position(flat)
            if i is None:
                return []
            found = []
            if s.which[i] >= 0:
                found.append((int(s.which[i]), int(s.flat[i])))
            if s.indices_input is not None and s.chooser[i] >= 0:
                found.append((s.indices_input, int(s.chooser[i])))
            return found
        if tensor == s.updates_input and s.landing is not None:
            # Where the update lands, whether or not it is the one the output keeps there.
            lands = int(s.landing[flat]) if 0 <= flat < len(s.landing) else -1
            return [(out, lands)] if self.position(lands) is not None else []
        chosen = s.chooser == flat if tensor == s.indices_input else (s.which == tensor) & (s.flat == flat)
        return [(out, int(f)) for f in self.drawn[chosen][:LINKS_SHOWN]]

    def collided_updates(self) -> np.ndarray:
        """The flat elements of the updates tensor that address an output element another update addresses too."""
        s = self.sources
        if s.landing is None or s.hits is None:
            return np.zeros(0, np.int64)
        lands = s.landing
        inside = np.flatnonzero((lands >= 0) & np.isin(lands, self.drawn[s.hits > 1]))
        return inside


LINKS_SHOWN = 64


def _fill_order(sources: Sources, drawn: np.ndarray) -> np.ndarray:
    """The drawn output elements (`sources` theirs) in the order their sources are reached: by source tensor
    (InputTensor, then a second data tensor; copies of nothing last), then by the source element's flat index."""
    rank = np.where(sources.which < 0, np.iinfo(np.int64).max, sources.which)
    return drawn[np.lexsort((drawn, sources.flat, rank))]


def _colors(grid: Grid, data_rank: int | None) -> np.ndarray:
    """z of each drawn element of an input: its place along its data tensor's color sequence, or the indices' grey."""
    flat = grid.drawn_flat()
    if data_rank is None:
        return np.full(flat.shape, INDICES)
    low, high = FIRST_DATA if data_rank == 0 else SECOND_DATA
    return low + (high - low) * flat / max(grid.size - 1, 1)


def _where(flat: int, shape: Sequence[int]) -> str:
    """The multi-index of flat element `flat` of a tensor of `shape`, as text: (1, 2)."""
    return index_text([int(i) for i in np.unravel_index(int(flat), tuple(shape))])


def _hover(name: str, shape: tuple[int, ...], flat: np.ndarray, values: list[str]) -> list[str]:
    return [f"{name} {_where(int(f), shape) if shape else '()'} = {v}"
            for f, v in zip(flat.tolist(), values)]


def _source_text(grids: Sequence[Grid], sources: Sources, i: int) -> str:
    """Where the output element of `sources` at place `i` comes from, in words."""
    which = int(sources.which[i])
    if which < 0:
        return "from no input element (a constant)"
    grid = grids[which]
    where = int(sources.flat[i])
    text = (f"from {grid.name} {_where(where, grid.shape)}" if where < grid.size
            else f"from {grid.name}'s buffer past its end (element {where})")
    if sources.indices_input is not None and sources.chooser[i] >= 0:
        indices = grids[sources.indices_input]
        text += f", chosen by {indices.name} {_where(int(sources.chooser[i]), indices.shape)}"
    if sources.hits is not None and sources.hits[i] > 1:
        text += f"; {int(sources.hits[i])} updates land here (DirectML keeps one, no particular one)"
    return text


def provenance_figure(names: Sequence[str], arrays: Sequence[np.ndarray], sources: Sources, operator: str,
                      data_inputs: Sequence[int] = (0,), cap: int = common.MAX_CELLS,
                      max_frames: int = common.MAX_FRAMES, width_px: int = 1100) -> SpecFigure:
    """The figure of one call: `names` and `arrays` of every input in the descriptor's order and the output last,
    `sources` the core's provenance of the output, `data_inputs` the inputs whose elements the output copies (the
    others are index tensors, drawn grey). At most `cap` cells are drawn, each tensor its share, whole rows first.
    """
    placed = grids(names, [a.shape for a in arrays], cap)
    out_grid = placed[-1]
    height = max(g.height for g in placed)
    width = out_grid.x0 + out_grid.cols
    cells = sum(g.rows * g.cols for g in placed)
    labels_on = cells <= common.LABEL_CELLS
    cell_px = min(44.0, width_px / max(width, 1))

    in_z = np.full((height, out_grid.x0), np.nan)
    in_text = np.full((height, out_grid.x0), "", dtype=object)
    input_points: dict[str, list[Any]] = dict(x=[], y=[], custom=[], hover=[])
    longest = 1
    for k, (grid, array) in enumerate(zip(placed[:-1], arrays[:-1])):
        flat = grid.drawn_flat()
        _, row, col = grid.place(flat)
        values = common.format_values(np.asarray(array).reshape(-1)[flat])
        longest = max([longest, *map(len, values)])
        in_z[row, col] = _colors(grid, data_inputs.index(k) if k in data_inputs else None)
        in_text[row, col] = values
        input_points["x"] += col.tolist()
        input_points["y"] += row.tolist()
        input_points["custom"] += [[k, int(f), -1, -1, -1, -1] for f in flat.tolist()]
        input_points["hover"] += _hover(grid.name, grid.shape, flat, values)

    out_flat = out_grid.drawn_flat()
    _, out_row, out_col = out_grid.place(out_flat)
    out_values = common.format_values(np.asarray(arrays[-1]).reshape(-1)[out_flat])
    longest = max([longest, *map(len, out_values)])
    out_z = np.full((height, out_grid.cols), np.nan)
    out_text = np.full((height, out_grid.cols), "", dtype=object)
    sources = Sources(sources.which[out_flat], sources.flat[out_flat], sources.chooser[out_flat],
                      sources.indices_input, None if sources.hits is None else sources.hits[out_flat],
                      sources.landing, sources.updates_input)
    which, source_flat = sources.which, sources.flat
    z = np.full(out_flat.shape, NOTHING)
    for rank, k in enumerate(data_inputs):
        mine = which == k
        low, high = FIRST_DATA if rank == 0 else SECOND_DATA
        z[mine] = low + (high - low) * np.minimum(source_flat[mine], placed[k].size - 1) / max(placed[k].size - 1, 1)
    out_z[out_row, out_col - out_grid.x0] = z
    out_text[out_row, out_col - out_grid.x0] = out_values

    order = _fill_order(sources, out_flat)
    per_frame = math.ceil(len(order) / min(max_frames, max(len(order), 1)))
    steps = max(1, math.ceil(len(order) / per_frame))
    step_of = np.empty(len(order), np.int64)
    step_of[np.searchsorted(out_flat, order)] = np.arange(len(order)) // per_frame
    cover = np.full((height, out_grid.cols), np.nan)
    cover[out_row, out_col - out_grid.x0] = step_of

    font = int(max(MIN_FONT, min(MAX_FONT, cell_px * 0.9 / (0.6 * longest), cell_px / 1.25)))
    shown = dict(texttemplate="%{text}", textfont=dict(size=font)) if labels_on else {}
    heat = dict(zmin=0.0, zmax=1.0, colorscale=SCALE, showscale=False, hoverinfo="skip", xgap=1, ygap=1, dx=1, y0=0,
                dy=1)
    hits = sources.hits if sources.hits is not None else np.zeros(out_flat.shape, np.int64)
    out_custom = np.column_stack([np.full(out_flat.shape, len(placed) - 1), out_flat, which, source_flat,
                                  sources.chooser, hits]).astype(np.int64)
    out_hover = [f"OutputTensor {_where(int(f), out_grid.shape)} = {v}<br>"
                 f"{_source_text(placed, sources, i)}" for i, (f, v) in enumerate(zip(out_flat.tolist(), out_values))]
    collided = hits > 1
    context = Context(tuple(placed), out_flat, sources, order, height, width)
    # Marked: output cells several updates address, and those updates (where drawn).
    losers = context.collided_updates()
    shown_update, update_rows, update_cols = (
        placed[sources.updates_input].place(losers) if sources.updates_input is not None
        else (np.zeros(0, bool), np.zeros(0, np.int64), np.zeros(0, np.int64)))
    marked_rows = np.concatenate([out_row[collided], update_rows[shown_update]])
    marked_cols = np.concatenate([out_col[collided], update_cols[shown_update]])
    data = [
        common.trace("heatmap", z=in_z.astype(np.float32), x0=0, name="inputs",
              text=in_text if labels_on else None, **shown, **heat),
        common.trace("heatmap", z=out_z.astype(np.float32), x0=out_grid.x0, name="output",
              text=out_text if labels_on else None, **shown, **heat),
        common.trace("heatmap", z=cover.astype(np.float32), x0=out_grid.x0, dx=1, y0=0, dy=1, name="not yet written",
              zmin=-0.5, zmax=steps - 0.5, colorscale=common.cover_colorscale(steps - 1, steps), showscale=False,
              hoverinfo="skip", xgap=1, ygap=1),
        common.click_targets("input cells", np.array(input_points["custom"], np.int64).reshape(-1, len(Column)),
                      "%{hovertext}<extra></extra>", x=np.array(input_points["x"]), y=np.array(input_points["y"]),
                      hovertext=input_points["hover"]),
        common.click_targets("output cells", out_custom, "%{hovertext}<extra></extra>", x=out_col, y=out_row,
                      hovertext=out_hover),
        common.trace("scatter", x=[], y=[], mode="lines", name="step", line=dict(width=3, color=common.PICK_COLOR),
              hoverinfo="skip", showlegend=False),
        common.trace("scatter", x=marked_cols + 0.3, y=marked_rows - 0.3, mode="markers", name="collisions",
              hoverinfo="skip", showlegend=False,
              marker=dict(symbol="x", size=8, color="#0E1117", line=dict(width=1, color="#FFFFFF"))),
    ]
    frames: list[dict[str, Any]] = []
    labels: list[str] = []
    for k in range(steps):
        written = order[k * per_frame:(k + 1) * per_frame]
        _, rows, cols = out_grid.place(written)
        xs, ys = common.rect_outline_xy(rows.tolist(), cols.tolist(), [1] * len(rows), [1] * len(rows))
        frames.append(dict(name=f"step{k}", traces=[int(Role.COVER), int(Role.STEP)], data=[
            common.trace("heatmap", colorscale=common.cover_colorscale(k, steps)),
            common.trace("scatter", x=xs, y=ys)]))
        labels.append(f"{k * per_frame + 1}-{k * per_frame + len(written)}" if len(written) > 1
                      else f"{k * per_frame + 1}")
    menus, sliders = common.play_controls([f["name"] for f in frames], labels, active=steps - 1, width_px=width_px)
    sliders[0]["currentvalue"]["prefix"] = "written: "
    annotations = [dict(text=f"<b>{g.name}</b> {list(g.shape)}", x=g.x0 + (g.cols - 1) / 2, y=1.0, xref="x",
                        yref="paper", yanchor="bottom", showarrow=False) for g in placed]
    layout = dict(
        annotations=annotations, updatemenus=menus, sliders=sliders,
        height=common.figure_height(height, width, width_px), margin=dict(l=10, r=10, t=40, b=90), hovermode="closest",
        clickmode="event+select", dragmode=False,
        meta=dict(operator=operator, cells=cells, steps=steps, collisions=int(collided.sum()),
                  whole=all(g.whole for g in placed)),
        **common.canvas_axes(height, width))
    return SpecFigure(figure_spec(data, layout, frames), context=context)


# ---------------------------------------------------------------- the pick


def pick_shapes(pick: Pick | None, context: Context) -> list[dict[str, Any]]:
    """Outlines around the picked element and the elements it is linked to (Context.related), dotted lines between
    them."""
    if pick is None or len(pick) != 2:
        return []
    here = context.cell(*pick)
    if here is None:
        return []
    style: dict[str, Any] = dict(line=dict(color=common.PICK_COLOR, width=3), layer="above")
    shapes: list[dict[str, Any]] = [dict(type="path", name="pick", path=common.cell_square_path([here[0]], [here[1]]),
                                         **style)]
    for tensor, flat in context.related(pick):
        there = context.cell(tensor, flat)
        if there is None:
            continue
        shapes.append(dict(type="path", name="pick-link-end", path=common.cell_square_path([there[0]], [there[1]]),
                           **style))
        shapes.append(dict(type="path", name="pick-link", path=link_path(here, there),
                           line=dict(color=common.PICK_COLOR, width=2, dash="dot"), layer="above"))
    return shapes


def link_path(here: tuple[int, int], there: tuple[int, int]) -> str:
    """A path between two cells that crosses no cell's middle: up the left edge of one cell's column to the gutter
    over the tensors, along it, and down the left edge of the other's."""
    (r0, c0), (r1, c1) = here, there
    top = GUTTER - 1  # the gutter row's middle
    return (f"M{c0 - 0.5},{r0 - 0.5} L{c0 - 0.5},{top} L{c1 - 0.5},{top} L{c1 - 0.5},{r1 - 0.5}")


def with_pick(figure: SpecFigure, pick: Pick | None) -> SpecFigure:
    """`figure` with `pick` = (tensor, flat) outlined, and what it links to; shares the rest."""
    return figure.with_overlay(layout=dict(shapes=pick_shapes(pick, figure.context) or None))


def input_only(figure: SpecFigure, pick: Pick | None = None) -> SpecFigure:
    """The inputs alone, for a quiz question: no output, no hover or click targets that would name the answer, no
    Play; `pick` outlined when it is an input's element."""
    spec, context = figure.to_dict(), figure.context
    layout = spec["layout"]
    right = context.output.x0 - GAP
    here = None if pick is None or pick[0] >= len(context.grids) - 1 else context.cell(*pick)
    trimmed = {key: value for key, value in layout.items() if key not in ("updatemenus", "sliders", "shapes", "meta")}
    trimmed.update(annotations=[a for a in layout["annotations"] if a["x"] < right],
                   xaxis={**layout["xaxis"], "range": [-0.5, right - 0.5]}, margin={**layout["margin"], "b": 10},
                   height=layout["height"] - layout["margin"]["b"] + 10, hovermode=False)
    if here is not None:
        trimmed["shapes"] = [outline(here[0], here[1], "pick")]
    return SpecFigure(figure_spec([spec["data"][Role.INPUTS]], trimmed), context)


def pick_from_selection(selection: dict[str, Any] | None) -> Pick | None:
    """(tensor, flat) of the clicked cell, or None."""
    custom = common.selected_customdata(selection)
    return None if custom is None or len(custom) < len(Column) else (custom[Column.TENSOR], custom[Column.FLAT])


def describe(context: Context, pick: Pick) -> str | None:
    """The pick in words: the element, and where it comes from or goes; None when it names no element of these
    tensors (a pick made under other settings)."""
    if len(pick) != 2 or not 0 <= pick[0] < len(context.grids):
        return None
    tensor, flat = int(pick[0]), int(pick[1])
    grid = context.grids[tensor]
    if not 0 <= flat < grid.size:
        return None
    where = f"{grid.name} {_where(flat, grid.shape)}"
    if tensor == len(context.grids) - 1:
        i = context.position(flat)
        return where if i is None else f"{where}, {_source_text(context.grids, context.sources, i)}"
    out = context.output
    reached = [_where(f, out.shape) for _, f in context.related((tensor, flat))]
    s = context.sources
    if tensor == s.updates_input and s.landing is not None:
        lands = int(s.landing[flat])
        if lands < 0 or lands >= out.size:
            return f"{where} lands past OutputTensor's elements: it changes none"
        i = context.position(lands)
        shared = "" if i is None or s.hits is None or s.hits[i] < 2 else (
            f", where {int(s.hits[i])} updates land: DirectML keeps one of them, no particular one")
        return f"{where} lands on OutputTensor {_where(lands, out.shape)}{shared}"
    if not reached:
        return f"{where}: copied to no drawn output element"
    more = " (the first shown)" if len(reached) == LINKS_SHOWN else ""
    verb = "chooses" if tensor == s.indices_input else "copied to"
    return f"{where} {verb} OutputTensor {', '.join(reached[:8])}{' ...' if len(reached) > 8 else ''}{more}"


def undrawn(context: Context, pick: Pick) -> str | None:
    return None if context.cell(*pick) is not None else "not among the drawn elements"


# ---------------------------------------------------------------- step by step


def step_count(figure: SpecFigure, element: int | None = None) -> int:
    """The drawn output elements: the steps walk them in Play's order."""
    return max(1, len(figure.context.order))


def step_labels(figure: SpecFigure, count: int) -> list[str]:
    return element_labels(count)


def with_step(figure: SpecFigure, number: int, element: int | None = None) -> tuple[SpecFigure, Step]:
    """Step `number`: the output element written then, its source and the index that chose it outlined, an arrow
    from the source to it."""
    context = figure.context
    count = step_count(figure)
    number = clamped(number, count)
    out = len(context.grids) - 1
    flat = int(context.order[number])
    dst = context.cell(out, flat)
    assert dst is not None  # the order holds drawn elements only
    shapes = [outline(dst[0], dst[1], "step-destination")]
    annotations = []
    source: tuple[int, ...] = ()
    for tensor, where in context.related((out, flat)):
        there = context.cell(tensor, where)
        grid = context.grids[tensor]
        if tensor != context.sources.indices_input and where < grid.size:
            source = (tensor, *np.unravel_index(where, grid.shape))
        if there is None:
            continue
        shapes.append(outline(there[0], there[1], f"step-source-{tensor}"))
        if tensor != context.sources.indices_input:
            # The way from the source through the gutter, as a pick's link runs, its head on the destination's edge.
            shapes.append(dict(type="path", name="step-link", path=link_path(there, dst),
                               line=dict(color=common.PICK_COLOR, width=2), layer="above"))
            annotations.append(dict(name="step-arrow", x=dst[1] - 0.5, y=dst[0] - 0.5, ax=dst[1] - 0.5,
                                    ay=GUTTER - 1, xref="x", yref="y", axref="x", ayref="y", text="",
                                    **{**ARROW, "arrowwidth": 2}))
    destination = tuple(int(i) for i in np.unravel_index(flat, context.output.shape))
    place = context.position(flat)
    assert place is not None
    label = f"OutputTensor {index_text(destination)} {_source_text(context.grids, context.sources, place)}"
    return overlay(figure, annotations, shapes), Step(number, count, label, tuple(int(i) for i in source),
                                                      destination)
