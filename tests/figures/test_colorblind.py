"""Colors for everyone: the deficiency simulation and the color difference are right, and every pair of
categories a figure draws side by side stays apart under deuteranopia, protanopia and tritanopia.

Metric: CIEDE2000 (viz.colorblind.ciede2000) between the two colors as simulated for each vision (Machado et al.
2009, severity 1.0), translucent colors composited over the light (white) and the dark (#0E1117) theme.
Threshold: MIN_DELTA_E. Side by side: two cells of one subplot that touch, or that have one empty cell between them
(the gap between channel tiles), in a row or a column.
"""

import functools
import itertools

import numpy as np
import pytest

from ops.operators.bitwise import bit_or
from ops.operators.depth_space import ORDERS, depth_to_space, space_to_depth
from ops.operators.split_join import split
from support.contrast import THEMES
from support.figures import band_color
from ui.values import make_values
from viz.bitwise_fig import bitwise_figure
from viz.colorblind import (
    DEFICIENCIES,
    MACHADO_2009,
    VISIONS,
    ciede2000,
    composite,
    difference,
    simulate,
    srgb_to_lab,
)
from viz.colors import BAND_SIZE, OKABE_ITO, band, categorical, distinct, neighbour_offsets
from viz.common import BAND_LEGEND_PX, BAND_SYMBOLS
from viz.depth_space_fig import depth_space_figure
from viz.memory_map_fig import memory_map_figure
from viz.spec import decode_typed_array, is_typed_array
from viz.split_join_fig import split_join_figure

OR = "ELEMENT_WISE_BIT_OR"  # the operator the figures draw unless a test names another

MIN_DELTA_E = 10.0  # CIEDE2000: about four times a just noticeable difference; two categories read as two colors
BACKGROUNDS = tuple(background for background, _ in THEMES.values())  # the app's light and dark theme

# Sharma, Wu and Dalal (2005), Table 1: CIELAB pairs and their CIEDE2000 difference (pairs 1, 2, 3, 4, 7, 8, 9,
# 10, 13, 17, 18, 19, 20, 25, 34).
SHARMA_2005 = [
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, 3.1571, -77.2803), (50, 0, -82.7485), 2.8615),
    ((50, 2.8361, -74.0200), (50, 0, -82.7485), 3.4412),
    ((50, -1.3802, -84.2814), (50, 0, -82.7485), 1.0000),
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, -1, 2), (50, 0, 0), 2.3669),
    ((50, 2.49, -0.001), (50, -2.49, 0.0009), 7.1792),
    ((50, 2.49, -0.001), (50, -2.49, 0.0010), 7.1792),
    ((50, -0.001, 2.49), (50, 0.0009, -2.49), 4.8045),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ((50, 2.5, 0), (61, -5, 29), 22.8977),
    ((50, 2.5, 0), (56, -27, -3), 31.9030),
    ((50, 2.5, 0), (58, 24, 15), 19.4535),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize("lab1, lab2, expected", SHARMA_2005)
def test_ciede2000_matches_sharma_table(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=5e-5)


def test_ciede2000_is_symmetric_and_zero_on_equal_colors():
    rng = np.random.default_rng(1)
    a = np.column_stack([rng.uniform(0, 100, 200), rng.uniform(-100, 100, (200, 2))])
    b = np.column_stack([rng.uniform(0, 100, 200), rng.uniform(-100, 100, (200, 2))])
    np.testing.assert_allclose(ciede2000(a, b), ciede2000(b, a), atol=1e-9)
    np.testing.assert_allclose(ciede2000(a, a), 0, atol=1e-9)


def test_srgb_to_lab_of_primaries():
    np.testing.assert_allclose(srgb_to_lab([1, 1, 1]), [100, 0, 0], atol=1e-3)
    np.testing.assert_allclose(srgb_to_lab([1, 0, 0]), [53.2408, 80.0925, 67.2032], atol=1e-3)
    np.testing.assert_allclose(srgb_to_lab([0, 0, 1]), [32.2970, 79.1875, -107.8602], atol=1e-3)


def test_simulation_matches_colorspacious():
    """An independent implementation of Machado et al. 2009: colorspacious (its own copy of the paper's table)."""
    colorspacious = pytest.importorskip("colorspacious")
    from colorspacious.cvd import machado_et_al_2009_matrix

    names = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}
    rng = np.random.default_rng(2)
    rgb = rng.uniform(0, 1, (300, 3))
    for vision, name in names.items():
        np.testing.assert_allclose(MACHADO_2009[vision], machado_et_al_2009_matrix(name, 100), atol=1e-9)
        space = {"name": "sRGB1+CVD", "cvd_type": name, "severity": 100}
        expected = np.clip(colorspacious.cspace_convert(rgb, space, "sRGB1"), 0, 1)
        np.testing.assert_allclose(simulate(rgb, vision), expected, atol=1e-6)


def test_the_issue_s_green_and_red_no_longer_collide():
    """The report: under deuteranopia the old channel colors c2 (green) and c3 (red) became the same olive."""
    assert difference("#54A24B", "#E45756", "deuteranopia") < 3
    first = categorical(8)
    assert min(difference(a, b, "deuteranopia") for a, b in itertools.combinations(first, 2)) >= MIN_DELTA_E


def test_okabe_ito_is_the_base_and_palettes_are_stable():
    assert categorical(7) == OKABE_ITO and distinct()[:7] == OKABE_ITO
    assert categorical(9)[:7] == OKABE_ITO and len(set(categorical(12))) == 12
    for count in (16, 64):
        colors = categorical(count)
        assert set(colors) <= set(distinct())
        assert all(len(set(colors[k:k + BAND_SIZE])) == len(colors[k:k + BAND_SIZE])
                   for k in range(0, count, BAND_SIZE))  # a band never repeats a color
    categorical.cache_clear()
    assert categorical(64)[:16] == colors[:16]  # the same count, the same colors


def test_twelve_colors_differ_for_everyone():
    pairs = list(itertools.combinations(distinct(), 2))
    worst = smallest_difference(pairs)
    assert min(worst.values()) >= MIN_DELTA_E, worst


@pytest.mark.parametrize("count", [13, 16, 24, 32, 48, 64])
def test_beyond_twelve_a_color_and_its_band_mark_name_every_category(count):
    """Past the colors that differ for everyone, categories repeat a color only in different bands, and the band
    marks (viz.common.band_marks) differ: (color, mark) is a category's own, whatever the reader's vision."""
    colors = categorical(count)
    names = {(colors[k], BAND_SYMBOLS[(band(k, count) - 1) % len(BAND_SYMBOLS)] if band(k, count) else None)
             for k in range(count)}
    assert len(names) == count


def legend_and_marks(spec):
    """{each legend entry's mark: its name}, and the legend's title."""
    legend = {t["marker"]["symbol"]: t["name"] for t in spec["data"] if t.get("showlegend") is not False
              and t["type"] == "scatter" and t["x"] == [None]}
    return legend, spec["layout"].get("legend", {}).get("title", {}).get("text")


@pytest.mark.parametrize("figure, count, names", [
    ("depth", 16, {"circle": "c8–c15"}),
    ("depth", 64, dict(zip(BAND_SYMBOLS, [f"c{8 * k}–c{8 * k + 7}" for k in range(1, 8)]))),
    ("split", 13, {"circle": "[8]–[12]"}),
    ("split", 12, {}),
    ("depth", 12, {}),
])
def test_band_marks_are_named_in_a_legend(figure, count, names):
    """Past twelve categories the figure says which categories each mark stands for, in a legend row at its top."""
    if figure == "depth":
        x = make_values("coded", (1, count, 2, 2), "UINT32")
        spec = depth_space_figure(x, depth_to_space(x, 2, "DCR"), 2, "DCR", "depth_to_space").to_dict()
        unmarked = "c0–c7"
    else:
        x = make_values("coded", (2, count), "UINT32")
        spec = split_join_figure(x, 1, [1] * count).to_dict()
        unmarked = "[0]–[7]"
    legend, title = legend_and_marks(spec)
    assert legend == names
    marks = {symbol for t in spec["data"] if t.get("meta") == "band-marks" for symbol in t["marker"]["symbol"]}
    assert marks == set(names)  # every mark drawn is named, and only those
    if names:
        assert title == f"marks ({unmarked} unmarked):" and spec["layout"]["showlegend"]
        assert spec["layout"]["margin"]["t"] >= BAND_LEGEND_PX
    else:
        assert title is None


@pytest.mark.parametrize("count", range(2, 65))
def test_palette_neighbours_differ_under_every_vision(count):
    colors = categorical(count)
    pairs = [(colors[k], colors[k + offset]) for offset in neighbour_offsets(count) for k in range(count - offset)]
    worst = smallest_difference(pairs)
    assert min(worst.values()) >= MIN_DELTA_E, worst


# --- the palettes the figures actually draw ------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def seen(color, vision, background):
    """CIELAB of a plotly color as someone with `vision` sees it over `background`."""
    return srgb_to_lab(simulate(composite(color, background), vision))


def pair_difference(color1, color2):
    """The smallest CIEDE2000 over every vision and theme background."""
    return min(float(ciede2000(seen(color1, vision, background), seen(color2, vision, background)))
               for vision in VISIONS for background in BACKGROUNDS)


def _z(trace_spec):
    z = trace_spec["z"]
    return np.asarray(decode_typed_array(z) if is_typed_array(z) else z, dtype=float)


def _place(trace_spec, shape):
    """Canvas (row, column) of cell [0, 0] of a heatmap and its steps."""
    def start(key):
        values = trace_spec.get(key)
        if values is None:
            return trace_spec.get(key + "0", 0), trace_spec.get("d" + key, 1)
        values = decode_typed_array(values) if is_typed_array(values) else values
        return values[0], (values[1] - values[0]) if len(values) > 1 else 1
    return start("y"), start("x")


def drawn_colors(figure, skip=()):
    """{axes: {(row, column): color}} of every heatmap cell with a stepwise colorscale, by the subplot it is in."""
    canvases = {}
    for spec in figure.to_dict()["data"]:
        if spec["type"] != "heatmap" or spec.get("name") in skip:
            continue
        z = _z(spec)
        (y0, dy), (x0, dx) = _place(spec, z.shape)
        cells = canvases.setdefault((spec.get("xaxis", "x"), spec.get("yaxis", "y")), {})
        scale = spec["colorscale"]
        for (r, c), value in np.ndenumerate(z):
            if np.isnan(value):
                continue
            color = band_color(scale, value, spec["zmin"], spec["zmax"])
            if color.replace(" ", "").endswith(",0)"):  # fully transparent: nothing drawn
                continue
            cells[(int(round(y0 + r * dy)), int(round(x0 + c * dx)))] = color
    return canvases


def side_by_side(figure, skip=()):
    """Distinct color pairs of cells that touch or have one empty cell between them, in a row or a column."""
    pairs = set()
    for cells in drawn_colors(figure, skip).values():
        for (r, c), color in cells.items():
            for dr, dc in ((0, 1), (1, 0)):
                near = cells.get((r + dr, c + dc))
                if near is None and (r + dr, c + dc) not in cells:
                    near = cells.get((r + 2 * dr, c + 2 * dc))
                if near is not None and near != color:
                    pairs.add(tuple(sorted((color, near))))
    return pairs


def smallest_difference(pairs):
    """{vision: smallest CIEDE2000 over the pairs and both theme backgrounds}."""
    pairs = list(pairs)
    return {vision: min(float(ciede2000(np.array([seen(a, vision, bg) for a, _ in pairs]),
                                        np.array([seen(b, vision, bg) for _, b in pairs])).min())
                        for bg in BACKGROUNDS)
            for vision in VISIONS}


def depth_space_cases():
    for channels in (2, 4, 8, 12, 16, 18, 24, 27, 32, 36, 48, 64):
        for bs in (2, 3, 4, 8):
            if channels % (bs * bs) == 0:
                for order in ORDERS:
                    yield channels, bs, order


@pytest.mark.parametrize("channels, bs, order", list(depth_space_cases()))
def test_depth_to_space_channels_side_by_side_differ(channels, bs, order):
    for direction in ("depth_to_space", "space_to_depth"):
        if direction == "depth_to_space":
            shape = (1, channels, 2, 2)
        else:
            shape = (1, channels, 2 * bs, 2 * bs)
        x = make_values("coded", shape, "UINT32")
        y = (depth_to_space if direction == "depth_to_space" else space_to_depth)(x, bs, order)
        figure = depth_space_figure(x, y, bs, order, direction)
        pairs = side_by_side(figure, skip=("not yet written",))
        assert pairs, "the figure draws different channels next to each other"
        worst = smallest_difference(pairs)
        assert min(worst.values()) >= MIN_DELTA_E, worst


@pytest.mark.parametrize("outputs", [2, 3, 5, 7, 8, 12, 16, 32])
def test_split_outputs_side_by_side_differ(outputs):
    x = make_values("coded", (2, outputs * 2), "UINT32")
    sizes = [2] * outputs
    split(x, 1, sizes)
    pairs = side_by_side(split_join_figure(x, 1, sizes))
    assert pairs
    worst = smallest_difference(pairs)
    assert min(worst.values()) >= MIN_DELTA_E, worst


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "float16", "float32", "float64", "int64"])
def test_bit_fields_side_by_side_differ(dtype):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, 8 * np.dtype(dtype).itemsize, dtype=np.uint8).view(dtype)
    b = a[::-1].copy()
    pairs = side_by_side(bitwise_figure(a, b, bit_or(a, b), op=OR))
    worst = smallest_difference(pairs)
    assert min(worst.values()) >= MIN_DELTA_E, worst


def test_memory_map_categories_differ():
    # Rows overlap by one element and the buffer has one spare: never touched, read once and read twice drawn.
    figure = memory_map_figure([3, 2], [1, 2], 4, 24)
    colors = {color for cells in drawn_colors(figure).values() for color in cells.values()}
    assert len(colors) == 3
    worst = smallest_difference(list(itertools.combinations(sorted(colors), 2)))
    assert min(worst.values()) >= MIN_DELTA_E, worst


def test_deficiencies_are_the_three_dichromacies():
    assert set(DEFICIENCIES) == {"deuteranopia", "protanopia", "tritanopia"}
