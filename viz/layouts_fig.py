"""Figures of the Layouts page: the logical tensor, and DML_ELEMENT_WISE_IDENTITY's copy animated element by element.

The copy is drawn in the output's memory order (ascending destination offset): the output buffer fills from its
first cell to its last while the read position jumps around the input buffer as the two layouts dictate. Both
buffers are grids of cells, one per element, `columns` per row, row 0 at the top; the colors are the memory map's
(viz/memory_map_fig.py): grey for cells not (yet) touched, blue for cells done, orange for the cells of this step.
"""

import math

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


def logical_figure(logical, sources, destinations):
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
    heat = trace("heatmap", z=sources.reshape(rows, width).astype(np.float64), colorscale=named_colorscale(sequential.Cividis), showscale=False,
                 customdata=hover, text=labels, hovertemplate="%{customdata}<extra></extra>", xgap=1, ygap=1)
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


def layout_columns(sizes, strides, cells):
    """Cells per row for a buffer: the pitch of the dimension next to the fastest-moving one, so that a row of the
    drawing is a row of the layout (3 for a transposed 3 x 4, W*C for NHWC); the memory map's default when every
    stride but one is 0."""
    moving = sorted({int(s) for n, s in zip(sizes, strides) if n > 1 and s > 0})
    pitches = moving[1:]
    if not pitches:
        return default_columns(sizes, strides, cells)
    fitting = [p for p in pitches if cells <= 2 * p * p]
    return min(MAX_COLUMNS, fitting[0] if fitting else pitches[-1])


def frame_steps(count, max_frames=MAX_FRAMES):
    """Elements copied by the end of each frame: 0, then evenly up to `count`, at most `max_frames` frames."""
    per = max(1, math.ceil(count / (max_frames - 1)))
    return [0] + list(range(per, count, per)) + [count]


def _grid(cells, columns):
    rows = -(-cells // columns)
    return rows, np.full(rows * columns, PAST_END, dtype=CODES)


def copy_figure(steps, in_values, out_before, in_columns, out_columns, max_frames=MAX_FRAMES):
    """Input and output buffers side by side, animated through `steps` (ops.copy_order) a few elements a frame.

    in_values / out_before: the whole input buffer and the output buffer before the copy (1-D, same dtype). Only
    the first MAX_CELLS cells of each buffer are drawn; steps outside them still count.
    """
    in_cells, out_cells = min(in_values.size, MAX_CELLS), min(out_before.size, MAX_CELLS)
    in_columns, out_columns = max(1, min(in_columns, in_cells)), max(1, min(out_columns, out_cells))
    in_rows, in_codes = _grid(in_cells, in_columns)
    out_rows, out_codes = _grid(out_cells, out_columns)
    in_text = np.full(in_rows * in_columns, "", dtype=object)
    in_text[:in_cells] = format_values(in_values[:in_cells])
    out_after = out_before.copy()
    for step in steps:
        out_after[step.destination] = in_values[step.source]
    before_text, after_text = format_values(out_before[:out_cells]), format_values(out_after[:out_cells])
    sources = np.array([s.source for s in steps], dtype=np.int64)
    destinations = np.array([s.destination for s in steps], dtype=np.int64)
    hover_in = np.full(in_rows * in_columns, "", dtype=object)
    hover_out = np.full(out_rows * out_columns, "", dtype=object)
    for step in steps:
        if step.source < in_cells:
            hover_in[step.source] += f"read for {_index_text(step.index)}<br>"
        if step.destination < out_cells:
            hover_out[step.destination] = f"written by {_index_text(step.index)} from input element {step.source}"
    hover_in[:in_cells] = [f"input element {i}<br>{h or 'never read'}" for i, h in enumerate(hover_in[:in_cells])]
    hover_out[:out_cells] = [f"output element {i}<br>{h or 'never written: keeps its bytes'}"
                             for i, h in enumerate(hover_out[:out_cells])]

    done = frame_steps(len(steps), max_frames)

    def state(copied, previous):
        read, written = in_codes.copy(), out_codes.copy()
        read[:in_cells] = UNTOUCHED
        written[:out_cells] = UNTOUCHED
        text = np.full(out_rows * out_columns, "", dtype=object)
        text[:out_cells] = before_text
        for codes, offsets, cells in ((read, sources, in_cells), (written, destinations, out_cells)):
            shown = offsets[:copied][offsets[:copied] < cells]
            codes[shown] = ONCE
            now = offsets[previous:copied][offsets[previous:copied] < cells]
            codes[now] = NOW
        shown = destinations[:copied][destinations[:copied] < out_cells]
        text[shown] = [after_text[d] for d in shown.tolist()]
        return read.reshape(in_rows, in_columns), written.reshape(out_rows, out_columns), \
            text.reshape(out_rows, out_columns)

    scale = stepwise_colorscale([COLORS[c] for c in (UNTOUCHED, ONCE, SHARED)] + ["rgba(0,0,0,0)"])
    common = dict(zmin=-0.5, zmax=3.5, colorscale=scale, showscale=False, xgap=1, ygap=1,
                  hovertemplate="%{customdata}<extra></extra>")
    labelled = max(in_cells, out_cells) <= LABEL_CELLS
    last_read, last_written, last_text = state(len(steps), done[-2] if len(done) > 1 else 0)
    data = [
        trace("heatmap", z=last_read, text=in_text.reshape(in_rows, in_columns),
              customdata=hover_in.reshape(in_rows, in_columns), texttemplate="%{text}" if labelled else None,
              xaxis="x", yaxis="y", **common),
        trace("heatmap", z=last_written, text=last_text, customdata=hover_out.reshape(out_rows, out_columns),
              texttemplate="%{text}" if labelled else None, xaxis="x2", yaxis="y2", **common),
    ]
    data += [trace("scatter", x=[None], y=[None], mode="markers", name=name, marker=dict(symbol="square", size=12,
                                                                                         color=COLORS[code]))
             for code, name in ((UNTOUCHED, "not touched (yet)"), (ONCE, "copied"), (NOW, "this step"))]
    frames = []
    for number, (previous, copied) in enumerate(zip([0] + done[:-1], done)):
        read, written, text = state(copied, previous)
        # Values are drawn (and so change per frame) only while cells are few enough to label.
        output = trace("heatmap", z=written, text=text if labelled else None)
        frames.append(dict(name=str(number), traces=[0, 1], data=[trace("heatmap", z=read), output]))
    # Titles short enough for half of an 800 px page; the row length goes to the row axis, as on the memory maps.
    axes, titles = subplot_layout([f"Input buffer: {in_values.size:,} elements",
                                   f"Output buffer: {out_before.size:,} elements"],
                                  spacing=0.08, stacked=False)
    for suffix, grid_rows, grid_columns in (("", in_rows, in_columns), ("2", out_rows, out_columns)):
        axes[f"xaxis{suffix}"].update(showgrid=False, zeroline=False, constrain="domain", title=dict(text="column"))
        axes[f"yaxis{suffix}"].update(showgrid=False, zeroline=False, autorange="reversed", constrain="domain",
                                      scaleanchor=f"x{suffix}", title=dict(text=f"row ({grid_columns} each)"))
        if grid_columns <= 16:
            axes[f"xaxis{suffix}"]["dtick"] = 1
        if grid_rows <= 16:
            axes[f"yaxis{suffix}"]["dtick"] = 1
    names = [f["name"] for f in frames]
    labels = [str(copied) for copied in done]
    menus, sliders = play_controls(names, labels, active=len(frames) - 1,
                                   duration=max(150, min(700, 12000 // len(frames))), pad_top=60)
    sliders[0]["currentvalue"]["prefix"] = "elements copied: "
    rows = max(in_rows, out_rows)
    layout = dict(**axes, annotations=titles, updatemenus=menus, sliders=sliders,
                  # At the figure's top edge, above the subplot titles (in plot coordinates it met them).
                  legend=dict(orientation="h", yref="container", yanchor="top", y=1, x=0),
                  height=int(min(900, max(400, rows * 40 + 260))), margin=dict(l=50, r=10, t=90, b=140),
                  meta=dict(frames=len(frames), steps=len(steps), done=done))
    return SpecFigure(figure_spec(data, layout, frames))
