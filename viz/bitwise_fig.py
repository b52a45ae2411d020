"""Bit grids for DirectML's bitwise family (ELEMENT_WISE_BIT_OR by default): one row per element, one column per bit
(MSB left), a grid per input and one for the output.

What differs between the operators comes from the registry (ops.OPERATORS): their inputs (A and B, or A alone), the
formula each title names and the caption of a picked bit (the operator's teaching lesson), and whether each output
bit comes from the same bit of the inputs (the sweep then fills bit positions, else whole elements).

Pure functions: arrays in, a figure (viz.spec.SpecFigure) or plain rows out, testable without a browser.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, cast

import numpy as np

from ops import DescriptorError, operator
from ops.operators.bitwise import Bitwise

from .colorblind import parse_color
from .colors import BLUE, ORANGE, PURPLE, VERMILLION
from .common import (
    MAX_CELLS,
    MAX_FRAMES,
    click_targets,
    pick_outline,
    play_controls,
    selected_customdata,
    smallest_uint,
    subplot_layout,
    trace,
)
from .operator_figure import ARROW, Pick, Step, array_of, clamped, outline, overlay, trace_of
from .spec import SpecFigure, figure_spec, typed_array

STEP_NOUN = "bit"
PANELS = ("A", "B", "Output")

# (name, width in bits) from the most significant bit down: IEEE 754 binary16/32/64.
FLOAT_FIELDS = {
    2: (("sign", 1), ("exponent", 5), ("mantissa", 10)),
    4: (("sign", 1), ("exponent", 8), ("mantissa", 23)),
    8: (("sign", 1), ("exponent", 11), ("mantissa", 52)),
}

# Each field gets its own Okabe-Ito hue (viz.colors); a 0 bit is a translucent tint of it, a 1 bit the full hue.
# Fields that sit side by side (sign | exponent | mantissa, sign | value) differ in hue and in lightness under
# every simulated color-vision deficiency (tests/figures/test_colorblind.py). Translucent tints read on light and dark
# themes alike, so no background is hard-coded.
FIELD_HUES = {"sign": VERMILLION, "exponent": BLUE, "mantissa": ORANGE, "value": BLUE}
ZERO_ALPHA = 0.25
FIELD_ORDER = ("sign", "exponent", "mantissa", "value")

ROW_PX_MAX, ROW_PX_MIN = 20, 6  # one element's row in each grid
TITLE_PX = 30  # a grid's title (presentation mode draws it 1.35 times larger)
FIELD_PX = 18  # the field names over grid A
TICK_PX = 26  # bit numbers under each grid (no tick marks: the numbers sit right under the cells)
# Play, Pause and the slider under the grids: what they take in the app's font (Source Sans, 12 px), 120 px, and one
# more. plotly grows a margin too small for them, but only by drawing the axes and controls a second time.
CONTROLS_PX = 121
CONTROLS_PAD = 28  # from the Output grid's bit numbers down to Play
# The figure's height when rows allow; presentation mode asks for viz.common.PROJECTOR_HEIGHT: at its default six
# elements, 18 rows of at least 16 px, so that a bit's digit is drawn at 12 px or more.
FIT_HEIGHT = 600
TICK_FONT, CELL_FONT, FIELD_FONT = 12, 12, 11


def bit_fields(dtype: Any) -> tuple[tuple[str, int], ...]:
    """The named bit fields of one element, MSB first; integers are one 'value' field (signed: sign + value)."""
    dtype = np.dtype(dtype)
    width = dtype.itemsize * 8
    if dtype.kind == "f":
        return FLOAT_FIELDS[dtype.itemsize]
    if dtype.kind == "i":
        return (("sign", 1), ("value", width - 1))
    return (("value", width),)


def field_of_bit(dtype: Any, bit: int) -> str:
    """Name of the field holding bit number `bit` (0 = least significant) of one element."""
    edge = np.dtype(dtype).itemsize * 8
    for name, width in bit_fields(dtype):
        edge -= width
        if bit >= edge:
            return name
    raise DescriptorError(f"bit {bit}: must be in [0, {np.dtype(dtype).itemsize * 8 - 1}] for {np.dtype(dtype)}")


def bit_matrix(values: np.ndarray) -> np.ndarray:
    """(n, bits) array of 0/1, column 0 = most significant bit, of the native encoding of `values`."""
    values = np.ascontiguousarray(values).ravel()
    width = values.dtype.itemsize * 8
    unsigned = values.view(np.dtype(f"u{values.dtype.itemsize}"))
    shifts = np.arange(width - 1, -1, -1, dtype=unsigned.dtype)
    return ((unsigned[:, None] >> shifts) & unsigned.dtype.type(1)).astype(np.int8)


def value_class(value: Any) -> str:
    """normal / subnormal / zero / inf / qNaN / sNaN for floats; 'integer' otherwise.

    A NaN is quiet when the most significant mantissa bit is set and signalling when it is clear (IEEE 754-2008
    section 6.2.1); the OR can turn a signalling NaN quiet, or an infinity into a NaN of either kind.
    """
    value = np.asarray(value)
    if value.dtype.kind != "f":
        return "integer"
    if np.isnan(value):
        mantissa_bits = np.finfo(value.dtype).nmant
        pattern = int(value.reshape(1).view(np.dtype(f"u{value.dtype.itemsize}"))[0])
        return "qNaN" if pattern >> (mantissa_bits - 1) & 1 else "sNaN"
    if np.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if value == 0:
        return "-zero" if np.signbit(value) else "zero"
    if abs(value) < np.finfo(value.dtype).tiny:
        return "subnormal"
    return "normal"


def hex_pattern(value: Any) -> str:
    value = np.asarray(value)
    unsigned = value.reshape(1).view(np.dtype(f"u{value.dtype.itemsize}"))[0]
    return f"0x{int(unsigned):0{value.dtype.itemsize * 2}X}"


def exact_text(value: Any) -> str:
    """The value exactly: an integer whole, a float in numpy's shortest round-trip form for its width."""
    value = np.asarray(value)
    if value.dtype.kind == "f":
        return str(value[()])  # numpy's shortest round-trip form for this width
    return str(int(value))


def describe(value: Any) -> str:
    """'1.0 (normal) 0x3F800000': the decoded value, its class and its bit pattern."""
    cls = value_class(value)
    suffix = "" if cls == "integer" else f" ({cls})"
    return f"{exact_text(value)}{suffix} {hex_pattern(value)}"


def drawn_range(count: int, dtype: Any, first: int = 0, rows: int | None = None,
                max_cells: int = MAX_CELLS) -> tuple[int, int]:
    """Clamp the requested element window to the tensor and to max_cells cells per grid: (first, stop)."""
    width = np.dtype(dtype).itemsize * 8
    limit = max(1, max_cells // width)
    first = min(max(0, int(first)), count - 1)
    rows = limit if rows is None else max(1, min(int(rows), limit))
    return first, min(count, first + rows)


def decode_rows(a: np.ndarray, b: np.ndarray | None, out: np.ndarray, first: int, stop: int) -> list[dict[str, Any]]:
    """One dict per drawn element: index, and for A, B (None: a unary operator's) and Output the value, class and
    bit pattern."""
    rows = []
    arrays = {name: np.ascontiguousarray(x).ravel() for name, x in zip(PANELS, (a, b, out)) if x is not None}
    for i in range(first, stop):
        row: dict[str, Any] = {"element": i}
        for name, flat in arrays.items():
            row[f"{name} value"] = exact_text(flat[i])
            row[f"{name} class"] = value_class(flat[i])
            row[f"{name} bits"] = hex_pattern(flat[i])
        rows.append(row)
    return rows


def sweep_steps(rows: int, width: int, max_frames: int = MAX_FRAMES,
                per_bit: bool = True) -> list[list[tuple[int, int]]]:
    """Cells (row, bit) revealed by each animation step after the empty first frame.

    per_bit (each output bit from the same bit of the inputs, as for AND, OR, XOR, NOT): bit by bit when every cell
    fits in the frame budget; for a few elements, one bit position of every element per step (the operator works on
    each position independently), all 64 positions of a 64-bit type too (the empty first frame then gives way, see
    _sweep). Otherwise (and always for a shift or a count, whose output bits come from other bits) element by
    element, grouping elements when even that would exceed the budget.
    """
    budget = max_frames - 1
    if per_bit and rows * width <= budget:
        return [[(r, c)] for r in range(rows) for c in range(width)]
    if per_bit and rows <= 8 and width <= max_frames:
        return [[(r, c) for r in range(rows)] for c in range(width)]
    per_step = math.ceil(rows / budget)
    return [
        [(r, c) for r in range(start, min(rows, start + per_step)) for c in range(width)]
        for start in range(0, rows, per_step)
    ]


# Codes stay small and non-negative: plotly escapes every "/" of a base64 array as \u002f, and the
# bytes of a negative int8 code (0xFF) are nothing but "/".
NOT_WRITTEN = 0


def _colorscale():
    """Discrete scale: z = 1 + 2 * field index + bit, and NOT_WRITTEN (transparent) for bits still to come."""
    count = 2 * len(FIELD_ORDER)
    bins = count + 1
    stops = [[0.0, "rgba(0,0,0,0)"], [1 / bins, "rgba(0,0,0,0)"]]
    for i in range(count):
        red, green, blue, _ = (round(255 * v) for v in parse_color(FIELD_HUES[FIELD_ORDER[i // 2]]))
        color = f"rgba({red},{green},{blue},{1.0 if i % 2 else ZERO_ALPHA})"
        stops += [[(i + 1) / bins, color], [(i + 2) / bins, color]]
    return stops


def _field_codes(dtype):
    codes = []
    for name, width in bit_fields(dtype):
        codes += [1 + FIELD_ORDER.index(name) * 2] * width
    return np.array(codes, dtype=np.int8)


def _grid(bits, codes, shown=None):
    """Color codes as int8, which plotly ships as 1 byte a cell: frames repeat the grid up to 64 times."""
    z = (bits + codes[None, :]).astype(np.int8)
    if shown is not None:
        z = np.where(shown, z, np.int8(NOT_WRITTEN))
    return z


def _cell_ids(first, count, width, bits):
    """Column's values for every cell, row-major: what a click picks and the hover shows."""
    ids = np.empty((count, width, len(Column)), dtype=smallest_uint(max(first + count, width)))
    ids[..., Column.ELEMENT] = np.arange(first, first + count)[:, None]
    ids[..., Column.BIT_NUMBER] = np.arange(width - 1, -1, -1)[None, :]
    ids[..., Column.BIT] = bits
    return ids.reshape(-1, len(Column))


def pick_from_selection(selection: dict[str, Any] | None) -> Pick | None:
    """(element index, bit number) of the clicked bit from the chart's selection state, or None."""
    custom = selected_customdata(selection)
    return None if custom is None or len(custom) < len(Column) else (custom[Column.ELEMENT],
                                                                      custom[Column.BIT_NUMBER])


def element_patterns(arrays: Sequence[np.ndarray], index: tuple[int, ...]) -> tuple[int, ...]:
    """The bit patterns (Python ints) of the element at `index` in each array, as DirectML reads them."""
    return tuple(int(np.asarray(x[index]).reshape(1).view(f"u{x.dtype.itemsize}")[0]) for x in arrays)


def describe_pick(pick: Pick | None, a: np.ndarray, b: np.ndarray | None, out: np.ndarray, op: str) -> str | None:
    """'element #3, bit 30 (exponent): A 1 | B 0 = 1' (the operator's lesson works the bit out), or None when the
    pick does not fit the tensors.

    a, b, out: the full tensors (any shape, B may be a broadcast view; None for a unary operator); pick: (element,
    bit number of A). op: the operator's registry name.
    """
    if pick is None or len(pick) != 2:
        return None
    element, bit = (int(v) for v in pick)
    width = a.dtype.itemsize * 8
    if not (0 <= element < a.size and 0 <= bit < width):
        return None
    index = tuple(int(i) for i in np.unravel_index(element, a.shape))
    inputs = [x for x in (a, b) if x is not None]
    drawn = cast(Bitwise, operator(op))
    worked = drawn.lesson.bit_text(element_patterns(inputs, index), bit, width, PANELS[:len(inputs)])
    return f"element #{element}, bit {bit} ({field_of_bit(a.dtype, bit)}): {worked}"


def _pick_shapes(pick, first, count, widths, names, axis_suffixes):
    """The picked bit outlined in every grid alike: the same bit number at its row (a grid narrower than the bit
    number, BIT_COUNT's UINT8 output of wider elements, has none)."""
    if pick is None or int(pick[1]) >= widths[0]:
        return []
    row, bit = int(pick[0]) - first, int(pick[1])
    if not 0 <= row < count:
        return []
    return [pick_outline([row], [width - 1 - bit], f"pick-{panel}", xref=f"x{s}", yref=f"y{s}")
            for panel, width, s in zip(names, widths, axis_suffixes) if 0 <= bit < width]


def _cell_text(bits, shown=None):
    text = bits.astype(str).astype(object)
    if shown is not None:
        text[~shown] = ""
    return text


def _field_shapes(dtypes, rows, axis_suffixes):
    """Vertical lines at field boundaries, in every panel (each of its own type's fields)."""
    shapes = []
    for dtype, suffix in zip(dtypes, axis_suffixes):
        edge = 0
        for _, width in bit_fields(dtype)[:-1]:
            edge += width
            shapes.append(dict(type="line", xref=f"x{suffix}", yref=f"y{suffix}", x0=edge - 0.5, x1=edge - 0.5,
                               y0=-0.5, y1=rows - 0.5, line=dict(width=2, color="rgba(127,127,127,0.9)")))
    return shapes


def _highlight_shapes(cells, widths, axis_suffixes):
    """Outline the bounding box of the cells a step fills (cells of the Output grid, the last of `widths`), in
    every grid alike: the same bit numbers, or the whole row when the step fills whole Output rows."""
    if not cells:
        return []
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    whole = len(set(cols)) == widths[-1]
    shapes = []
    for width, s in zip(widths, axis_suffixes):
        low, high = (0, width - 1) if whole else (min(cols) - widths[-1] + width, max(cols) - widths[-1] + width)
        shapes.append(dict(type="rect", xref=f"x{s}", yref=f"y{s}", x0=low - 0.5, x1=high + 0.5,
                           y0=min(rows) - 0.5, y1=max(rows) + 0.5, line=dict(width=3, color=PURPLE),
                           name="highlight"))
    return shapes


def _field_annotations(dtype):
    """Field names over grid A, each starting at its field's first bit; the one-bit sign field's name ends at its
    bit instead, over the row labels, so that narrow fields' names never run into each other."""
    annotations = []
    edge = 0
    for name, width in bit_fields(dtype):
        short = name if width >= 8 or name in ("sign", "value") else name[:3]
        # A few pixels off the boundary they share, so that "sign (1)" and "exponent (8)" never run together.
        place = dict(x=edge + 0.5, xanchor="right", xshift=-3) if width == 1 else dict(x=edge - 0.5, xanchor="left",
                                                                                      xshift=3)
        annotations.append(dict(xref="x", yref="y domain", y=1.0, yanchor="bottom", text=f"{short} ({width})",
                                showarrow=False, font=dict(size=FIELD_FONT), **place))
        edge += width
    return annotations


def _ticktext(flat, first, stop, index_offset):
    """Row labels '#n  value (class) 0x...', n counting elements of the whole tensor."""
    return [f"#{i + index_offset}  {describe(flat[i])}" for i in range(first, stop)]


SUFFIXES = ("", "2", "3")  # the axes of the A, B and Output grids (A and Output: "" and "2")


class Trace(IntEnum):
    """The traces of a binary operator's figure, in order: a heatmap per grid, then each grid's click targets. A
    unary operator's figure has no B grid: its traces are A, OUTPUT, A_CELLS, OUTPUT_CELLS (trace_index)."""

    A = 0
    B = 1
    OUTPUT = 2  # the grid Play fills (the frames change it alone)
    A_CELLS = 3
    B_CELLS = 4
    OUTPUT_CELLS = 5


class Column(IntEnum):
    """The customdata columns of the click targets."""

    ELEMENT = 0  # the element's row-major index in the whole tensor
    BIT_NUMBER = 1  # 0 = least significant
    BIT = 2  # its value, 0 or 1


def trace_index(names: Sequence[str], role: Trace) -> int:
    """The index of trace `role` (a Trace) in a figure whose grids are `names` ("A", "B", "Output")."""
    name = role.name.removesuffix("_CELLS")
    panel = names.index({"A": "A", "B": "B", "OUTPUT": "Output"}[name])
    return panel + (len(names) if role.name.endswith("_CELLS") else 0)


@dataclass(frozen=True)
class BitGrid:
    """What with_pick and the step-by-step view need: the drawn window, the grids, and the shapes drawn besides
    the pick."""

    first: int  # element number of the first drawn row, in the whole tensor
    count: int
    width: int  # of A's elements
    field_shapes: list
    highlights: list  # each frame's highlight shapes
    names: tuple = PANELS  # the grids, top down
    widths: tuple = ()  # each grid's bits
    operator: Bitwise | None = None  # the operator drawn

    @property
    def suffixes(self) -> tuple[str, ...]:
        return SUFFIXES[:len(self.names)]


def _heatmaps(grids, codes, names, sizes, show_text):
    return [
        trace("heatmap", z=_grid(bits, grid_codes), x=list(range(bits.shape[1])), y=list(range(bits.shape[0])),
              zmin=NOT_WRITTEN, zmax=2 * len(FIELD_ORDER) + 1, colorscale=_colorscale(), showscale=False, xgap=1,
              ygap=1, text=_cell_text(bits), texttemplate="%{text}" if show_text else None,
              textfont=dict(size=sizes.cell_font), hoverinfo="skip", name=name, xaxis=f"x{suffix}",
              yaxis=f"y{suffix}")
        for name, bits, grid_codes, suffix in zip(names, grids, codes, SUFFIXES)
    ]


def _click_targets(grids, names, first):
    """Invisible markers over every cell of each grid (customdata: Column); after the heatmaps, in grid order."""
    template = (f"{{panel}} element %{{{{customdata[{int(Column.ELEMENT)}]}}}}<br>bit "
                f"%{{{{customdata[{int(Column.BIT_NUMBER)}]}}}}: %{{{{customdata[{int(Column.BIT)}]}}}}<extra></extra>")
    targets = []
    for name, bits, suffix in zip(names, grids, SUFFIXES):
        count, width = bits.shape
        rows, cols = np.indices((count, width), dtype=smallest_uint(max(count, width)))
        targets.append(click_targets(f"{name} cells", _cell_ids(first, count, width, bits), template.format(panel=name),
                                     x=cols.ravel(), y=rows.ravel(), xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
    return targets


def _axes(layout, arrays, first, stop, index_offset, sizes):
    """Each grid's row labels (the elements decoded, thinned to sizes.label_every) and bit numbers under it.

    Cells are as wide as the window allows and sizes.row high: a bit grid reads as well in rectangles, and rows of a
    fixed height keep their labels apart on any screen. Row labels widen the left margin to fit (automargin), in the
    app and in an exported file alike. Grids of different widths (BIT_COUNT's output) line up on bit 0, at the
    right."""
    widest = max(x.dtype.itemsize * 8 for x in arrays)
    rows = list(range(stop - first))
    for flat, suffix in zip(arrays, SUFFIXES):
        width = flat.dtype.itemsize * 8
        every = 4 if width <= 32 else 8  # bit numbers stay apart in a 800 px window
        bit_ticks = [c for c in range(width) if (width - 1 - c) % every == every - 1 or c == width - 1]
        labels = _ticktext(flat, first, stop, index_offset)
        # Fixed ranges: autorange would pad them for the click targets' markers, shrinking the cells by a tenth. Tick
        # labels always fit (the row labels widen the margin, the bit numbers sit under the cells): plotly's default
        # check of each against the figure's edges measured all of them, at every drawing.
        layout[f"yaxis{suffix}"].update(
            range=[len(rows) - 0.5, -0.5], autorange=False, automargin=True, tickmode="array",
            tickvals=rows[::sizes.label_every],
            ticktext=labels[::sizes.label_every], showgrid=False, zeroline=False, tickfont=dict(size=sizes.tick_font),
            ticklabeloverflow="allow",
        )
        layout[f"xaxis{suffix}"].update(
            range=[width - widest - 0.5, width - 0.5], autorange=False, showgrid=False, zeroline=False,
            tickfont=dict(size=TICK_FONT), ticks="", ticklen=0,
            tickmode="array", tickvals=bit_ticks, ticktext=[str(width - 1 - c) for c in bit_ticks],
            ticklabeloverflow="allow",
        )


def bitwise_figure(a: np.ndarray, b: np.ndarray | None, out: np.ndarray, *, op: str, first: int = 0,
                   rows: int | None = None, in_place: bool = False, max_cells: int = MAX_CELLS,
                   max_frames: int = MAX_FRAMES, index_offset: int = 0, pick: Pick | None = None,
                   fit_height: int = FIT_HEIGHT) -> SpecFigure:
    """A, B and Output as stacked bit grids with the Output filling up frame by frame.

    op: the operator's registry name; b is None for a unary one (NOT,
    BIT_COUNT), whose figure has no B grid. Columns line up across the grids on the bit number, so reading down one
    column shows A's bit, B's bit and the Output's. The Output grid has its own type's bits (BIT_COUNT's UINT32 or
    UINT8) and its title names the operator's formula (its lesson's). Only elements [first, first + rows) are drawn,
    at most max_cells cells per grid. index_offset numbers the elements when the arrays passed are a window cut from
    larger tensors (element 0 here is index_offset there). pick: (element index, bit number) outlined in every grid
    when that element is drawn. Invisible markers over the cells make them clickable and carry the hover.
    fit_height: the height the rows share, when they are few enough. A SpecFigure: with_pick(figure, pick) redraws
    the pick on a shared copy.
    """
    drawn = cast(Bitwise, operator(op))
    arrays = [np.ascontiguousarray(x).ravel() for x in (a, b, out) if x is not None]
    names = (*PANELS[:len(arrays) - 1], PANELS[-1])
    a, out = arrays[0], arrays[-1]
    dtype = a.dtype
    width = dtype.itemsize * 8
    widths = tuple(x.dtype.itemsize * 8 for x in arrays)
    first, stop = drawn_range(a.size, np.dtype(f"u{max(widths) // 8}"), first, rows, max_cells)
    count = stop - first
    codes = [_field_codes(x.dtype) for x in arrays]
    grids = [bit_matrix(x[first:stop]) for x in arrays]
    sizes = _sizes(count, fit_height, len(grids))
    # A bit's 0/1 is printed while a 800 px window still gives it room (64-bit rows do not: the tint tells).
    show_text = max(widths) <= 32 and sizes.cell_font >= 9
    layout, annotations = subplot_layout(_titles(drawn, names, arrays, in_place), sizes.spacing, stacked=True)
    annotations[0]["yshift"] = FIELD_PX  # grid A's title goes over its field names
    data = _heatmaps(grids, codes, names, sizes, show_text) + _click_targets(grids, names, first + index_offset)
    _axes(layout, arrays, first, stop, index_offset, sizes)
    suffixes = SUFFIXES[:len(names)]
    field_shapes = _field_shapes([x.dtype for x in arrays], count, suffixes)
    static_shapes = field_shapes + _pick_shapes(pick, first + index_offset, count, widths, names, suffixes)
    # Frames name the Output rows written so far: the decoded labels are made once, the frames pick from them.
    labels = (_ticktext(out, first, stop, index_offset), [f"#{i + index_offset}  …" for i in range(first, stop)])
    frames, highlights, step_labels = _sweep(grids[-1], codes[-1], labels, show_text, max_frames, static_shapes,
                                             sizes.label_every, first + index_offset, widths, drawn.lesson.per_bit)
    menus, sliders = play_controls([f["name"] for f in frames], step_labels, active=len(frames) - 1,
                                   duration=max(60, min(400, 8000 // len(frames))), y=-0.02,
                                   pad_top=CONTROLS_PAD)
    layout.update(
        annotations=annotations + _field_annotations(dtype), height=sizes.height,
        margin=dict(l=10, r=10, t=sizes.top, b=sizes.bottom), hovermode="closest", clickmode="event+select",
        dragmode=False, updatemenus=menus, sliders=sliders,
        meta=dict(first=first + index_offset, stop=stop + index_offset, width=width, in_place=in_place,
                  op=drawn.name, grids=list(names)),
    )
    if static_shapes:  # go.Figure leaves an empty shapes list out; last, where with_pick would add it
        layout["shapes"] = static_shapes
    grid = BitGrid(first + index_offset, count, width, field_shapes, highlights, names, widths, drawn)
    return SpecFigure(figure_spec(data, layout, frames), context=grid)


def _titles(operator, names, arrays, in_place):
    """'A  float32', 'B  uint32 (the shift amount)', 'Output  = A | B' (with its type when the operator gives the
    output a type of its own)."""
    lesson = operator.lesson
    inputs = [f"{name}  {x.dtype}" for name, x in zip(names[:-1], arrays)]
    if len(inputs) > 1 and lesson.second:
        inputs[1] += f" ({lesson.second})"
    output = "Output (written into A's buffer: in place)" if in_place else "Output"
    if not operator.same_type_everywhere:  # its output's type is its own (BIT_COUNT's UINT32 or UINT8)
        output += f"  {arrays[-1].dtype}"
    return inputs + [f"{output}  = {lesson.expression(names[:-1])}"]


def input_only(figure: SpecFigure, pick: Pick | None = None) -> SpecFigure:
    """`figure` (from bitwise_figure) cut to its inputs, for a quiz that asks what the operator writes: their grids,
    labels and fields, the bit `pick` = (element, bit number) outlined in each; no Output, no hover, no Play."""
    spec, grid = figure.to_dict(), figure.context
    layout = spec["layout"]
    top, bottom = layout["margin"]["t"], layout["margin"]["b"]
    plot = layout["height"] - top - bottom
    inputs = len(grid.names) - 1
    kept, gone = grid.suffixes[:inputs], grid.suffixes[inputs]
    # The Output grid's share of the plot (its domain and the gap above it) goes: the inputs keep their pixel heights.
    kept_from = layout[f"yaxis{kept[-1]}"]["domain"][0]
    scale = 1 / (1 - kept_from)
    trimmed = {key: value for key, value in layout.items()
               if key not in ("updatemenus", "sliders", "shapes", "meta", f"xaxis{gone}", f"yaxis{gone}")}
    for suffix in kept:
        low, high = layout[f"yaxis{suffix}"]["domain"]
        trimmed[f"yaxis{suffix}"] = {**layout[f"yaxis{suffix}"],
                                     "domain": [(low - kept_from) * scale, (high - kept_from) * scale]}
    titles = [{**a, "y": (a["y"] - kept_from) * scale} for a in layout["annotations"]
              if a.get("yref") == "paper" and a["y"] > kept_from]
    trimmed.update(annotations=titles + [a for a in layout["annotations"] if a.get("yref") != "paper"],
                   margin={**layout["margin"], "b": TICK_PX + 10}, hovermode=False,
                   height=int(round(top + plot * (1 - kept_from) + TICK_PX + 10)))
    shapes = [s for s in grid.field_shapes if s["xref"] != f"x{gone}"]
    shapes += [s for s in _pick_shapes(pick, grid.first, grid.count, grid.widths, grid.names, grid.suffixes)
               if s["xref"] != f"x{gone}"]
    if shapes:
        trimmed["shapes"] = shapes
    data = [{**spec["data"][panel], "hoverinfo": "skip"} for panel in range(inputs)]
    return SpecFigure(figure_spec(data, trimmed), grid)


def with_pick(figure: SpecFigure, pick: Pick | None) -> SpecFigure:
    """`figure` (from bitwise_figure) with the bit `pick` = (element, bit number) outlined instead of its own
    pick, in the layout and in every frame. Shares everything else with `figure`, so a cached figure without
    a pick serves every click.
    """
    grid = figure.context
    shapes = grid.field_shapes + _pick_shapes(pick, grid.first, grid.count, grid.widths, grid.names, grid.suffixes)
    return figure.with_overlay(layout=dict(shapes=shapes or None),
                               frames=[dict(shapes=(shapes + highlight) or None) for highlight in grid.highlights])


@dataclass(frozen=True)
class Sizes:
    row: float
    height: int
    top: int
    bottom: int
    spacing: float  # between grids, as a fraction of the plot area (make_subplots' vertical_spacing)
    label_every: int  # every label_every-th row is labelled
    tick_font: int
    cell_font: int  # a line of text (its box is about 1.4 em) stays inside its row


def _sizes(count, fit_height=FIT_HEIGHT, grids=3):
    """Pixel layout: rows as high as fits `fit_height` (within ROW_PX_MIN..ROW_PX_MAX), fixed gaps for titles
    and bit numbers between the `grids` grids, row labels thinned so that they never touch."""
    top, bottom, gap = TITLE_PX + FIELD_PX + 8, CONTROLS_PX, TICK_PX + TITLE_PX
    fixed = top + bottom + (grids - 1) * gap
    row = max(ROW_PX_MIN, min(ROW_PX_MAX, (fit_height - fixed) / (grids * count)))
    plot = grids * count * row + (grids - 1) * gap
    tick_font = int(min(TICK_FONT, max(9, row - 4)))
    every = math.ceil((tick_font + 4) / row)
    cell_font = int(min(CELL_FONT, (row - 1) / 1.4))
    return Sizes(row, int(round(plot + top + bottom)), top, bottom, gap / plot, every, tick_font, cell_font)


def _sweep(out_bits, codes, labels, show_text, max_frames, static_shapes, label_every, first=0, widths=(),
           per_bit=True):
    """The frames (an empty Output grid, then the cells of each sweep step added), their highlight shapes and
    their slider labels, which name bits by their number (31..0), as the grids' columns do."""
    count, width = out_bits.shape
    widths = widths or (width,) * 3
    suffixes = SUFFIXES[:len(widths)]
    steps = sweep_steps(count, width, max_frames, per_bit)
    # The empty grid comes first while the frame budget has room for it; a 64-bit sweep needs all 64 frames.
    steps = steps if len(steps) >= max_frames else [[]] + steps
    shown = np.zeros_like(out_bits, dtype=bool)
    frames, highlights, step_labels = [], [], []
    for number, cells in enumerate(steps):
        for r, c in cells:
            shown[r, c] = True
        highlight = _highlight_shapes(cells, widths, suffixes)
        frames.append(_frame(str(number), out_bits, codes, shown, labels, show_text, static_shapes + highlight,
                             label_every, len(widths)))
        highlights.append(highlight)
        step_labels.append(_step_label(cells, width, first))
    return frames, highlights, step_labels


def _step_label(cells, width, first):
    """'bit 31' for one bit position, '#2 bit 7' for one cell, '#0-3' for whole elements, 'empty' before."""
    if not cells:
        return "empty"
    rows = sorted({r for r, _ in cells})
    columns = {c for _, c in cells}
    if len(columns) == 1:
        bit = f"bit {width - 1 - next(iter(columns))}"
        return bit if len(rows) > 1 else f"#{rows[0] + first} {bit}"
    return f"#{rows[0] + first}" if len(rows) == 1 else f"#{rows[0] + first}-{rows[-1] + first}"


def _frame(name, out_bits, codes, shown, labels, show_text, shapes, label_every, grids=3):
    heatmap = dict(type="heatmap", z=typed_array(_grid(out_bits, codes, shown)))
    if show_text:  # cell text is only animated when it is drawn; the hover keeps the final bits either way
        heatmap.update(text=_cell_text(out_bits, shown).tolist(), texttemplate="%{text}")
    written, pending = labels
    ticktext = [label if done else wait for label, wait, done in zip(written, pending, shown.all(axis=1).tolist())]
    layout = {f"yaxis{SUFFIXES[grids - 1]}": dict(tickmode="array", ticktext=ticktext[::label_every],
                                                  tickvals=list(range(out_bits.shape[0]))[::label_every])}
    if shapes:  # go.Frame leaves an empty shapes list out; last, where with_pick would add it
        layout["shapes"] = shapes
    return dict(name=name, data=[heatmap], traces=[grids - 1], layout=layout)


# ---------------------------------------------------------------- step by step


def step_count(figure: SpecFigure, element: int | None = None) -> int:
    """The bits of one element: the steps walk them from the most significant down (31..0, or 63..0), so a step's
    number is the bit it shows."""
    return int(figure.context.width)


def step_labels(figure: SpecFigure, count: int) -> list[str]:
    """Bits by their number, 31..0."""
    width = figure.context.width
    return [f"bit {width - 1 - n}" for n in range(count)]


def with_step(figure: SpecFigure, number: int, element: int | None = None) -> tuple[SpecFigure, Step]:
    """Step `number` of `element` (default: the first drawn): the arrow points at the output bit, labelled with the
    operation that made it."""
    grid = figure.context
    count = step_count(figure)
    number = clamped(number, count)
    element = grid.first if element is None else int(element)
    row = element - grid.first
    if not 0 <= row < grid.count:
        raise ValueError(f"element {element} is not drawn (elements {grid.first}..{grid.first + grid.count - 1})")
    bit = grid.width - 1 - number
    # The click targets carry Column for every cell, row-major: each input's bits of the element.
    columns, inputs = len(Column), len(grid.names) - 1
    values = []
    for panel, width in zip(range(inputs), grid.widths):
        bits = array_of(trace_of(figure, inputs + 1 + panel)["customdata"]).reshape(-1, columns)[:, Column.BIT]
        values.append(int("".join(str(int(v)) for v in bits[row * width:(row + 1) * width]), 2))
    worked = grid.operator.lesson.bit_text(tuple(values), bit, grid.width, grid.names[:inputs])
    label = f"element #{element}, bit {bit}: {worked}"
    out_width, out_suffix = grid.widths[-1], grid.suffixes[-1]
    # The Output's bit of the same number, or its bit 0 when it has none (a count of wider elements).
    out_column = out_width - 1 - bit if bit < out_width else out_width - 1
    arrow = dict(name="step-arrow", x=out_column, y=row, xref=f"x{out_suffix}", yref=f"y{out_suffix}", ax=0, ay=-44,
                 text=f"bit {bit}: {worked}", **ARROW)
    shapes = [outline(row, width - 1 - bit, f"step-{panel}", f"x{suffix}", f"y{suffix}")
              for panel, width, suffix in zip(grid.names, grid.widths, grid.suffixes) if bit < width]
    # The grids' ranges are fixed (bitwise_figure): the arrow's tail leaves them as they are.
    return overlay(figure, [arrow], shapes), Step(number, count, label, (element, bit), (element, bit))
