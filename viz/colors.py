"""The figures' colors, chosen to stay apart under deuteranopia, protanopia and tritanopia.

Base palette: Okabe and Ito, "Color Universal Design (CUD): how to make figures and presentations that are
friendly to colorblind people" (2002, 2008), https://jfly.uni-koeln.de/color/ : its seven colors without black
(black would vanish on the dark theme). Up to seven categories take them as they are. More categories (depth
channels, split outputs, the detective's tiles) take colors from distinct(): Okabe-Ito's hues at other lightness
levels in CIELAB, added while every pair stays at least 10 CIEDE2000 apart under normal vision and each simulated
deficiency, which twelve colors allow. Beyond twelve, categories come in bands of eight, each band in eight different
colors chosen to keep the categories figures draw side by side apart, and a mark drawn in each cell names the band
(viz.common.band_marks): a category's color and mark together name it, for everyone. The figures also print each
channel's index where the cells have room. tests/figures/test_colorblind.py measures every pair the figures draw side
by side and every pair of categories they draw at all (viz.colorblind: Machado et al. 2009 simulation,
CIEDE2000).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .colorblind import D65, SRGB_TO_XYZ, VISIONS, ciede2000, parse_color, simulate, srgb_to_lab, to_hex

# Okabe-Ito: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
ORANGE, SKY_BLUE, GREEN, YELLOW, BLUE, VERMILLION, PURPLE = OKABE_ITO
GREY = "#999999"  # Okabe and Ito's grey: for "nothing here" categories (padding)
# Lightness levels (CIELAB L*) for palettes longer than the base: within sRGB for every hue at some chroma.
LIGHTNESS_RANGE = (24.0, 96.0)


def _lab_to_srgb(lab):
    """CIELAB (D65) to sRGB in 0..1, unclipped (so out-of-gamut shows as values outside 0..1)."""
    lightness, a, b = lab
    fy = (lightness + 16) / 116
    fx, fz = fy + a / 500, fy - b / 200
    epsilon, kappa = 216 / 24389, 24389 / 27
    xyz = np.array([f**3 if f**3 > epsilon else (116 * f - 16) / kappa for f in (fx, fy, fz)])
    xyz[1] = fy**3 if lightness > kappa * epsilon else lightness / kappa
    linear = np.linalg.solve(SRGB_TO_XYZ, xyz * D65)
    return np.where(linear <= 0.0031308, 12.92 * linear,
                    1.055 * np.sign(linear) * np.abs(linear) ** (1 / 2.4) - 0.055)


def _with_lightness(color, lightness):
    """`color` at CIELAB lightness `lightness`, same hue angle, chroma reduced only as far as sRGB requires."""
    base = srgb_to_lab(np.array(parse_color(color)[:3]))
    low, high = 0.0, 1.0
    for _ in range(30):  # bisection on the chroma scale: the largest that stays inside sRGB
        middle = (low + high) / 2
        rgb = _lab_to_srgb((lightness, base[1] * middle, base[2] * middle))
        low, high = (middle, high) if np.all((rgb >= -1e-9) & (rgb <= 1 + 1e-9)) else (low, middle)
    return to_hex(_lab_to_srgb((lightness, base[1] * low, base[2] * low)))


def neighbour_offsets(count: int) -> list[int]:
    """Index distances at which categories of a `count`-long palette end up side by side in a figure.

    Consecutive categories (split outputs, input channel tiles, COLUMN_ROW_DEPTH blocks) and, for every
    BlockSize bs whose square divides `count`, the channels that DEPTH_TO_SPACE puts next to each other in one
    output block and across block edges: C/bs^2 * m (DEPTH_COLUMN_ROW) and m (COLUMN_ROW_DEPTH) for m in 1, bs - 1,
    bs and bs * (bs - 1) (the SPEC's index formulas), and across the gap between two output channel tiles:
    (bs - 1) * C/bs^2 - 1 (DEPTH_COLUMN_ROW) and bs * (bs - 1) + 1 (COLUMN_ROW_DEPTH). count - 1: SPACE_TO_DEPTH's
    output tiles run through the input channels and start again.
    """
    offsets = set(range(1, min(count, 9))) | {count - 1}
    for bs in range(2, math.isqrt(count) + 1):
        if count % (bs * bs) == 0:
            depth = count // (bs * bs)
            for m in (1, bs - 1, bs, bs * (bs - 1)):
                offsets |= {m, depth * m}
            offsets |= {abs((bs - 1) * depth - 1), bs * (bs - 1) + 1}
    return sorted(o for o in offsets if 0 < o < count)


def _seen(colors):
    """CIELAB of each color as every vision in viz.colorblind.VISIONS sees it: shape (visions, colors, 3)."""
    rgb = np.array([parse_color(c)[:3] for c in colors])
    return np.stack([srgb_to_lab(simulate(rgb, vision)) for vision in VISIONS])


@functools.lru_cache(maxsize=1)
def _candidates():
    """Okabe-Ito's hues at lightness steps across LIGHTNESS_RANGE: what longer palettes are picked from."""
    colors = sorted({_with_lightness(c, lightness) for c in OKABE_ITO
                     for lightness in np.arange(*LIGHTNESS_RANGE, 4.0)})
    return colors, _seen(colors)


DISTINCT_SIZE = 12  # the most colors the candidates give with every pair at least 10 CIEDE2000 apart, for everyone


@functools.lru_cache(maxsize=1)
def distinct() -> tuple[str, ...]:
    """DISTINCT_SIZE colors that all differ from each other by at least 10 CIEDE2000 under normal vision and each
    simulated deficiency: Okabe-Ito, then greedily the candidate farthest from every color chosen so far."""
    names, seen = _candidates()
    chosen_seen = [_seen(OKABE_ITO)[:, i] for i in range(len(OKABE_ITO))]
    colors = list(OKABE_ITO)
    while len(colors) < DISTINCT_SIZE:
        before = np.stack(chosen_seen, axis=1)
        best = int(np.argmax(ciede2000(seen[:, :, None, :], before[:, None, :, :]).min(axis=(0, 2))))
        colors.append(names[best])
        chosen_seen.append(seen[:, best])
    return tuple(colors)


# Past DISTINCT_SIZE categories, bands of BAND_SIZE: each band takes BAND_SIZE different colors of the twelve, which
# leaves every category a choice that keeps the categories drawn beside it (neighbour_offsets) apart.
BAND_SIZE = 8


def band(category: int, count: int) -> int:
    """The band of category `category` of `count`: 0 while every category has a color of its own; beyond, categories
    of one band never share a color and a mark names the band (viz.common.band_marks), so that a category's color
    and mark together name it."""
    return 0 if count <= DISTINCT_SIZE else category // BAND_SIZE


@functools.lru_cache(maxsize=128)
def categorical(count: int) -> tuple[str, ...]:
    """`count` colors for categories 0..count-1 (hex strings), all from distinct(): up to DISTINCT_SIZE categories
    the first colors as they are, beyond each band of BAND_SIZE takes different colors, each the one farthest from
    the categories that figures draw beside it (neighbour_offsets).

    Beyond DISTINCT_SIZE no set of colors keeps every pair apart for everyone (a thirteenth color comes within 10
    CIEDE2000 of another under some deficiency): a color names a category together with its band's mark.
    Greedy and deterministic, so a category keeps its color for a given count.
    """
    count = max(1, int(count))
    palette = distinct()
    if count <= len(palette):
        return palette[:count]
    seen = _seen(palette)  # (visions, colors, 3)
    apart = ciede2000(seen[:, :, None, :], seen[:, None, :, :]).min(axis=0)  # (colors, colors), for everyone
    offsets = neighbour_offsets(count)
    indices: list[int] = []
    for k in range(count):
        in_band = indices[k - k % BAND_SIZE:k]
        free = [i for i in range(len(palette)) if i not in in_band]
        neighbours = [indices[k - o] for o in offsets if o <= k]
        distance = [min((apart[i, j] for j in neighbours), default=np.inf) for i in free]
        indices.append(free[int(np.argmax(distance))])
    return tuple(palette[i] for i in indices)


def stepwise_colorscale(colors: Sequence[str]) -> list[list[Any]]:
    """A plotly colorscale giving integer z = 0..len(colors)-1 its own flat band (use zmin -0.5, zmax n-0.5)."""
    colors = list(colors)
    if len(colors) == 1:
        return [[0.0, colors[0]], [1.0, colors[0]]]
    scale = []
    for i, color in enumerate(colors):
        scale += [[i / len(colors), color], [(i + 1) / len(colors), color]]
    return scale
