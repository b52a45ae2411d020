"""How colors look to people with a color-vision deficiency, and how far apart two colors look.

Simulation: Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation of Color Vision
Deficiency", IEEE Transactions on Visualization and Computer Graphics 15(6), 2009, pp. 1291-1298: one 3x3 matrix
per deficiency, applied to linear sRGB. The matrices below are the paper's severity 1.0 ones (dichromacy: the
missing cone class), as published with it (Table "CVD simulation matrices", also in colorspacious' cvd.py,
which tests/figures/test_colorblind.py checks these against).

Difference: CIEDE2000 (CIE 142-2001), as written out in Sharma, Wu and Dalal, "The CIEDE2000 color-difference
formula: Implementation notes, supplementary test data, and mathematical observations", Color Research and
Application 30(1), 2005, pp. 21-30, equations (1)-(22); their Table 1 test pairs are in the tests. Colors go to
CIELAB through sRGB (IEC 61966-2-1) and XYZ with the D65 white.

Text on a color: WCAG 2's relative luminance and contrast ratio (Web Content Accessibility Guidelines 2.2, "relative
luminance" and "contrast ratio"; success criterion 1.4.3 asks 4.5:1 of text), and the ink that reads best on a color.
"""

from __future__ import annotations

from typing import Any

import numpy as np

MACHADO_2009 = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
DEFICIENCIES = tuple(MACHADO_2009)
VISIONS = ("normal",) + DEFICIENCIES

# sRGB (IEC 61966-2-1) linear RGB -> XYZ, and the D65 reference white, for CIELAB.
SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                        [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])
D65 = SRGB_TO_XYZ.sum(axis=1)


def parse_color(color: str) -> tuple[float, ...]:
    """'#RRGGBB', 'rgb(r,g,b)' or 'rgba(r,g,b,a)' as (r, g, b, alpha) with r, g, b in 0..1."""
    text = color.strip().lower()
    if text.startswith("#") and len(text) == 7:
        return tuple(int(text[i:i + 2], 16) / 255 for i in (1, 3, 5)) + (1.0,)
    if text.startswith(("rgb(", "rgba(")):
        parts = [float(p) for p in text[text.index("(") + 1:-1].split(",")]
        alpha = parts[3] if len(parts) == 4 else 1.0
        return tuple(p / 255 for p in parts[:3]) + (alpha,)
    raise ValueError(f"color {color!r}: expected #RRGGBB, rgb(...) or rgba(...)")


def to_hex(rgb: Any) -> str:
    """sRGB in 0..1 (clipped) as '#RRGGBB'."""
    r, g, b = (int(round(v * 255)) for v in np.clip(rgb, 0, 1))
    return f"#{r:02X}{g:02X}{b:02X}"


def composite(color: str, background: str = "#FFFFFF") -> np.ndarray:
    """The opaque sRGB (0..1) a possibly translucent color shows over `background` (blending as browsers do,
    in gamma-encoded sRGB)."""
    r, g, b, alpha = parse_color(color)
    back = np.array(parse_color(background)[:3])
    return alpha * np.array([r, g, b]) + (1 - alpha) * back


def srgb_to_linear(rgb: Any) -> np.ndarray:
    rgb = np.asarray(rgb, dtype=float)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(linear: Any) -> np.ndarray:
    linear = np.clip(np.asarray(linear, dtype=float), 0, 1)
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)


def simulate(rgb: np.ndarray, vision: str) -> np.ndarray:
    """sRGB colors (..., 3) in 0..1 as seen with `vision` ('normal' or a key of MACHADO_2009)."""
    rgb = np.asarray(rgb, dtype=float)
    if vision == "normal":
        return rgb
    return linear_to_srgb(srgb_to_linear(rgb) @ MACHADO_2009[vision].T)


def srgb_to_lab(rgb: Any) -> np.ndarray:
    """sRGB (..., 3) in 0..1 to CIELAB (D65)."""
    xyz = srgb_to_linear(rgb) @ SRGB_TO_XYZ.T / D65
    epsilon, kappa = 216 / 24389, 24389 / 27
    f = np.where(xyz > epsilon, np.cbrt(xyz), (kappa * xyz + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 difference of CIELAB colors (..., 3), kL = kC = kH = 1 (Sharma et al. 2005, eqs. 1-22)."""
    lab1, lab2 = np.broadcast_arrays(np.asarray(lab1, dtype=float), np.asarray(lab2, dtype=float))
    l1, a1, b1 = np.moveaxis(lab1, -1, 0)
    l2, a2, b2 = np.moveaxis(lab2, -1, 0)
    c_bar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_bar**7 / (c_bar**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dl = l2 - l1
    dc = c2p - c1p
    chroma_zero = c1p * c2p == 0
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(chroma_zero, 0.0, dh)
    dH = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh) / 2)
    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_bar = np.where(np.abs(h1p - h2p) <= 180, h_sum / 2, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2))
    h_bar = np.where(chroma_zero, h_sum, h_bar)
    t = (1 - 0.17 * np.cos(np.radians(h_bar - 30)) + 0.24 * np.cos(np.radians(2 * h_bar))
         + 0.32 * np.cos(np.radians(3 * h_bar + 6)) - 0.20 * np.cos(np.radians(4 * h_bar - 63)))
    d_theta = 30 * np.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(cp_bar**7 / (cp_bar**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / np.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -np.sin(np.radians(2 * d_theta)) * r_c
    return np.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dc / s_c) * (dH / s_h))


def difference(color1: str, color2: str, vision: str = "normal", background: str = "#FFFFFF") -> float:
    """CIEDE2000 between two plotly colors as someone with `vision` sees them over `background`."""
    lab1, lab2 = (srgb_to_lab(simulate(composite(c, background), vision)) for c in (color1, color2))
    return float(ciede2000(lab1, lab2))


def luminance(rgb: Any) -> np.ndarray:
    """WCAG 2's relative luminance of sRGB (..., 3) in 0..1."""
    return srgb_to_linear(rgb) @ np.array([0.2126, 0.7152, 0.0722])


def contrast_ratio(rgb1: Any, rgb2: Any) -> float:
    """WCAG 2's contrast ratio of two opaque sRGB colors in 0..1: 1 to 21."""
    light, dark = sorted((float(luminance(rgb1)) + 0.05, float(luminance(rgb2)) + 0.05), reverse=True)
    return light / dark


def ink_on(color: str) -> str:
    """'#000000' or '#FFFFFF', whichever contrasts more with the opaque plotly color `color`: one of them has at
    least 4.58:1 on any color (ui/plotly_chart.js inks cell labels the same way)."""
    rgb = np.array(parse_color(color)[:3])
    return "#000000" if contrast_ratio(np.zeros(3), rgb) >= contrast_ratio(np.ones(3), rgb) else "#FFFFFF"
