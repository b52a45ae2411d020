"""Readers of the figures' JSON, as plotly writes it."""

import base64
import re

import numpy as np
import plotly.io


def plotly_array(value):
    """An array from figure JSON: plotly writes numpy arrays as {dtype, bdata (base64), shape}."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = [int(s) for s in str(value.get("shape", array.size)).split(",")]
        return array.reshape(shape)
    return np.array(value)


def bits_of(z):
    """A heatmap cell's z is 1 + 2 * field + bit; 0 = not yet written (returned as -1)."""
    z = plotly_array(z).astype(int)
    return np.where(z == 0, -1, np.mod(z - 1, 2))


def changed_traces(frame):
    """{trace position: the trace's properties the animation frame changes}."""
    return dict(zip(frame["traces"], frame["data"]))


def row_zero_on_top(axis):
    """Whether a y axis (a figure's layout dict) draws its row 0 at the top: reversed, or a range that runs down."""
    axis = dict(axis)
    return axis.get("autorange") == "reversed" or ("range" in axis and axis["range"][0] > axis["range"][1])


def struck_cells(path, cells, samples=40):
    """The cells (row, column) that an SVG path of straight segments (a shape's "path") passes through, away from
    their edges: where a line would strike through a cell's number."""
    points = [tuple(float(v) for v in point.split(",")) for point in re.findall(r"-?[\d.]+,-?[\d.]+", path)]
    struck = set()
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        for t in np.linspace(0, 1, samples + 1):
            x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            cell = (round(y), round(x))
            if cell in cells and abs(y - cell[0]) < 0.45 and abs(x - cell[1]) < 0.45:
                struck.add(cell)
    return struck


def figure_json_size(fig):
    """Bytes of the figure spec as plotly sends it (plotly.io.to_json, arrays as base64)."""
    return len(plotly.io.to_json(fig, validate=False))


def band_color(colorscale, z, zmin, zmax):
    """The color a stepwise colorscale gives value z: the band [low, high) holding its position (last band
    closed)."""
    position = min(max((z - zmin) / (zmax - zmin) if zmax > zmin else 0.0, 0.0), 1.0)
    bands = list(zip(colorscale[::2], colorscale[1::2]))
    for (low, color), (high, _) in bands:
        if low <= position < high:
            return color
    return bands[-1][0][1]
