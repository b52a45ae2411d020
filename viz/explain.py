"""Step-by-step mode: one element at a time, an arrow from where it is read to where it is written.

Each function takes a finished (shared, read-only) operator figure and returns a cheap copy with the step drawn
on top (SpecFigure.with_overlay), so the cached figure serves every step of every visitor.

- Depth <-> Space: the steps walk the drawn output cells in the output's row-major order; the arrow runs from
  the input cell to the output cell on the one canvas. In compare mode step k is the same output cell under
  both orders, so the two arrows show which input channel each order reads.
- Split <-> Join: the steps walk the drawn input cells row-major; input and outputs are separate subplots,
  and plotly draws an annotation's arrow inside one subplot only (its tail may only use the head's axes), so
  each side gets its own arrow, labelled with the other side's index.
- Bitwise OR: the steps walk one element's bits from the most significant down (31..0, or 63..0), so a step's
  number is the bit it shows; the arrow points at the output bit, labelled with the OR that made it.
"""

from dataclasses import dataclass

import numpy as np

from . import bitwise_fig, depth_space_fig
from .common import PICK_COLOR, cell_square_path
from .depth_space_fig import INPUT_POSITION, OUTPUT_POSITION
from .spec import decode_typed_array, is_typed_array

KINDS = ("depth_space", "split_join", "bitwise")
# The step's note sits on a box at least 85% white whatever the theme: black on it, not the page's text color (the
# dark theme's light text was 1.15:1 there).
ARROW = dict(showarrow=True, arrowhead=2, arrowsize=1.2, arrowwidth=3, arrowcolor=PICK_COLOR,
             font=dict(size=13, color="#000000"), bgcolor="rgba(255,255,255,0.85)", bordercolor=PICK_COLOR,
             borderpad=3)


@dataclass(frozen=True)
class Step:
    """What step `number` of `count` shows: the element read and where it is written, in tensor indices."""

    number: int
    count: int
    label: str
    source: tuple
    destination: tuple


def _array(value):
    return decode_typed_array(value) if is_typed_array(value) else np.asarray(value)


def _trace(figure, role):
    """The figure's trace at position `role` (its builder's Trace, or its context's traces)."""
    return figure.to_dict()["data"][role]


def _outline(row, col, name, xref="x", yref="y"):
    return dict(type="path", name=name, path=cell_square_path([row], [col]), xref=xref, yref=yref,
                line=dict(color=PICK_COLOR, width=3), layer="above")


def _overlay(figure, annotations, shapes, **changes):
    """The step drawn over `figure`; the figure's own Play and slider are left out, since the page's one Play
    (and one slider) drives every figure of step mode at once."""
    layout = figure.to_dict()["layout"]
    return figure.with_overlay(layout=dict(annotations=list(layout.get("annotations", [])) + annotations,
                                           shapes=list(layout.get("shapes", [])) + shapes,
                                           updatemenus=None, sliders=None, **changes))


def step_count(kind, figure, element=None):
    """How many steps the figure's drawn elements make (bitwise: the bits of one element)."""
    if kind == "depth_space":
        return len(_array(_trace(figure, depth_space_fig.Trace.OUTPUT_CELLS)["x"]))
    if kind == "split_join":
        return len(_array(_trace(figure, figure.context.traces.input_cells)["x"]))
    if kind == "bitwise":
        return int(figure.context.width)
    raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")


def _index_text(index):
    return "(" + ", ".join(str(int(i)) for i in index) + ")"


def _depth_space(figure, number, count):
    inputs = _trace(figure, depth_space_fig.Trace.INPUT_CELLS)
    custom = _array(inputs["customdata"]).reshape(count, -1).astype(np.int64)
    # The steps walk the output's row-major order; the click targets are in the order of the figure's pairs.
    i = int(np.argsort(custom[:, depth_space_fig.Column.OUT_FLAT], kind="stable")[number])
    cells = figure.context
    src, dst = cells.cells(i)
    source, destination = tuple(custom[i, INPUT_POSITION].tolist()), tuple(custom[i, OUTPUT_POSITION].tolist())
    label = f"input {_index_text(source)} → output {_index_text(destination)}"
    # The link runs through the gutters, as a pick's does (PickCells.link), and ends in an arrowhead pointing up the
    # destination's column: a straight arrow struck through the numbers of every cell on its way.
    up = float(cells.destination_gutter[i])
    head = dict(name="step-arrow", x=dst[1], y=up - 0.5, ax=dst[1], ay=up, xref="x", yref="y", axref="x", ayref="y",
                text="", **{**ARROW, "arrowwidth": 2})
    shapes = [_outline(*src, "step-source"), _outline(*dst, "step-destination"),
              dict(type="path", name="step-link", path=cells.link(i), line=dict(color=PICK_COLOR, width=2),
                   layer="above")]
    return _overlay(figure, [head], shapes), Step(number, count, label, source, destination)


def _split_join(figure, number, count):
    peel = figure.context
    targets = _trace(figure, peel.traces.input_cells)
    ndim = peel.ndim
    index = _array(targets["customdata"]).reshape(count, ndim).astype(np.int64)[number]
    row, col = int(_array(targets["y"])[number]), int(_array(targets["x"])[number])
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
    label = f"InputTensor {_index_text(source)} → OutputTensors[{k}] {_index_text(out_index)}"
    arrows = [
        # Tails to the right of each cell: left of the input are its row labels, above are the titles.
        dict(name="step-arrow-source", x=col, y=row, xref="x", yref="y", ax=70, ay=0, xanchor="left",
             text=f"to [{k}] {_index_text(out_index)}", **ARROW),
        dict(name="step-arrow-destination", x=out_col, y=out_row, xref="x2", yref="y2", ax=70, ay=0,
             xanchor="left", text=f"from {_index_text(source)}", **ARROW),
    ]
    shapes = [_outline(row, col, "step-source"), _outline(out_row, out_col, "step-destination", "x2", "y2")]
    return _overlay(figure, arrows, shapes), Step(number, count, label, source, destination)


def _piece_of(pieces, i):
    """(output number k, first index of output k along Axis) of the output holding index i along Axis."""
    for k, begin, stop in pieces:
        if begin <= i < stop:
            return int(k), int(begin)
    raise ValueError(f"index {i} along Axis is not in a drawn output")


def _bitwise(figure, number, count, element):
    grid = figure.context
    element = grid.first if element is None else int(element)
    row = element - grid.first
    if not 0 <= row < grid.count:
        raise ValueError(f"element {element} is not drawn (elements {grid.first}..{grid.first + grid.count - 1})")
    bit = grid.width - 1 - number
    # The click targets carry bitwise_fig.Column for every cell, row-major: each input's bits of the element.
    columns, inputs = len(bitwise_fig.Column), len(grid.names) - 1
    values = []
    for panel, width in zip(range(inputs), grid.widths):
        bits = _array(_trace(figure, inputs + 1 + panel)["customdata"]).reshape(-1, columns)[:, bitwise_fig.Column.BIT]
        values.append(int("".join(str(int(v)) for v in bits[row * width:(row + 1) * width]), 2))
    worked = bitwise_fig.OPERATORS[grid.op].lesson.bit_text(tuple(values), bit, grid.width, grid.names[:inputs])
    label = f"element #{element}, bit {bit}: {worked}"
    out_width, out_suffix = grid.widths[-1], grid.suffixes[-1]
    # The Output's bit of the same number, or its bit 0 when it has none (a count of wider elements).
    out_column = out_width - 1 - bit if bit < out_width else out_width - 1
    arrow = dict(name="step-arrow", x=out_column, y=row, xref=f"x{out_suffix}", yref=f"y{out_suffix}", ax=0, ay=-44,
                 text=f"bit {bit}: {worked}", **ARROW)
    shapes = [_outline(row, width - 1 - bit, f"step-{panel}", f"x{suffix}", f"y{suffix}")
              for panel, width, suffix in zip(grid.names, grid.widths, grid.suffixes) if bit < width]
    # The grids' ranges are fixed (bitwise_fig): the arrow's tail leaves them as they are.
    return _overlay(figure, [arrow], shapes), Step(number, count, label, (element, bit), (element, bit))


def with_step(kind, figure, number, element=None):
    """(copy of `figure` with step `number` drawn, the Step); number is clamped into the steps.

    element: bitwise only, the element whose bits are walked (default: the first drawn).
    """
    count = step_count(kind, figure, element)
    number = min(max(0, int(number)), count - 1)
    if kind == "depth_space":
        return _depth_space(figure, number, count)
    if kind == "split_join":
        return _split_join(figure, number, count)
    return _bitwise(figure, number, count, element)
