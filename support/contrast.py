"""The contrast of a figure's own text as the app draws it, in its light and its dark theme (WCAG 2, 1.4.3: 4.5:1
for text): what tests/figures/test_contrast.py requires of every figure builder and scripts/figure_contrast.py
prints before and after.

A figure is read from its JSON (the spec the builders write), every frame included, and each text is paired with
what is behind it:
- "cell labels": a heatmap's labels, each over every color its cell takes in the figure or in any frame (the
  cell's value through the colorscale in force, translucent colors over the page); a cell without a value shows
  the page;
- "marker labels": a scatter trace's text drawn on its markers (or beside them, over the page);
- "axis labels", "titles and notes" (the title, annotations over their own box or the page), "legend",
  "controls" (Play, Pause and the slider), "hover labels" (plotly's box: the trace's color unless the figure sets
  one, and plotly's white or #444 on it unless the figure sets the font's).
Text whose color the figure does not set takes the page's text color (ui/plotly_chart.js, themed), on the page's
background (figures are drawn on a transparent paper).

A cell label whose color the figure does not set takes black or white, whichever stands out more from its cell as
shown (ui/plotly_chart.js, inkLabels: the rule PAGE). Before it, plotly.js chose white or #444 on the cell as it would
show over white, with the alpha rounded to 0 or 1 (plotly.js, heatmap plot.js and color.contrast: the rule PLOTLY).
"""

import functools
import importlib
from dataclasses import dataclass

import numpy as np

import ops
from ops.descriptors.layouts import copy_order, identity_descs, logical_tensor
from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.tensor_desc import element_offsets
from support.figures import plotly_array
from ui.values import make_values
from viz.colorblind import contrast_ratio, ink_on, parse_color, to_hex

# The page behind a figure and its text color: the light theme's text color is .streamlit/config.toml's
# theme.light.textColor; the dark theme is Streamlit 1.67's own (its frontend's darkTheme: bgColor, bodyText).
THEMES = {"light": ("#FFFFFF", "#0E1117"), "dark": ("#171614", "#EDEBE8")}
MINIMUM = 4.5  # WCAG 2 AA, 1.4.3, for text of any size
PAGE, PLOTLY = "page", "plotly"
KINDS = ("cell labels", "marker labels", "axis labels", "titles and notes", "legend", "controls", "hover labels")

_NAMED = {"white": "#FFFFFF", "black": "#000000"}
_WHITE, _PLOTLY_DARK = np.ones(3), np.full(3, 0x44 / 255)
_PLOTLY_COLORWAY = ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692", "#B6E880"]


def rgba(color):
    """(r, g, b) in 0..1 and alpha of a plotly color: #RGB, #RRGGBB, rgb(), rgba() or white/black."""
    text = _NAMED.get(str(color).strip().lower(), str(color).strip())
    if len(text) == 4 and text.startswith("#"):
        text = "#" + "".join(2 * digit for digit in text[1:])
    *rgb, alpha = parse_color(text)
    return np.array(rgb), float(alpha)


def over(color, behind):
    """The opaque sRGB (0..1) `color` (a plotly color) shows over the opaque sRGB `behind`."""
    rgb, alpha = rgba(color)
    return alpha * rgb + (1 - alpha) * np.asarray(behind, dtype=float)


def ratio(first, second):
    """WCAG 2's contrast ratio of two opaque sRGB colors (1 to 21)."""
    return contrast_ratio(first, second)


def page_ink(cell):
    """The app's ink for a label on the opaque cell color `cell` (sRGB): black or white, whichever contrasts more."""
    return rgba(ink_on(to_hex(cell)))[0]


def plotly_ink(color):
    """plotly.js's ink for a label on a cell of `color` (rgb, alpha): white or #444, chosen on the color with its
    alpha rounded to 0 or 1 over white."""
    rgb, alpha = color
    shown = rgb if round(alpha) >= 1 else _WHITE
    return _WHITE if ratio(_WHITE, shown) > ratio(_PLOTLY_DARK, shown) else _PLOTLY_DARK


def scale_color(trace, z, bounds):
    """(rgb, alpha) plotly gives value z of a heatmap: the colorscale spread over [zmin, zmax] (the trace's, or
    `bounds`: its values' own), clamped, interpolated between the stops around it (the last of equal stops wins)."""
    scale = trace["colorscale"]
    zmin, zmax = float(trace.get("zmin", bounds[0])), float(trace.get("zmax", bounds[1]))
    at = min(max((z - zmin) / (zmax - zmin) if zmax > zmin else 0.0, 0.0), 1.0)
    stop = 1
    while stop < len(scale) - 1 and scale[stop][0] <= at:
        stop += 1
    (low, start), (high, end) = scale[stop - 1], scale[stop]
    share = (at - low) / (high - low) if high > low else 0.0
    (rgb0, a0), (rgb1, a1) = rgba(start), rgba(end)
    return rgb0 + share * (rgb1 - rgb0), a0 + share * (a1 - a0)


@dataclass(frozen=True)
class Text:
    """One text of a figure as drawn: its kind (KINDS), where it is, and its contrast with what is behind it."""

    kind: str
    where: str
    contrast: float


def _grid(value, shape=None):
    array = plotly_array(value)
    return array if shape is None or array.shape == shape else np.broadcast_to(array, shape)


def _traces(spec):
    """(where, trace, index, in a frame) for each trace as first drawn and as each frame changes it (merged over the
    trace)."""
    data = spec.get("data", [])
    for index, trace in enumerate(data):
        yield f"trace {index} ({trace.get('name', trace['type'])})", trace, index, False
    for frame in spec.get("frames", []) or []:
        for index, change in zip(frame.get("traces", range(len(frame["data"]))), frame["data"]):
            yield f"trace {index} in frame {frame.get('name')}", {**data[index], **change}, index, True


def _cell_labels(trace, page, rule):
    template = trace.get("texttemplate")
    if trace.get("type") != "heatmap" or not template:
        return
    z = plotly_array(trace["z"]).astype(float)
    z = z.reshape(1, -1) if z.ndim == 1 else z
    shown = np.ones(z.shape, dtype=bool)
    if "%{text}" in template:
        text = np.asarray(_grid(trace.get("text", ""), z.shape), dtype=object)
        shown = np.vectorize(lambda t: str(t) != "", otypes=[bool])(text) if text.size else shown
    own = (trace.get("textfont") or {}).get("color")
    finite = z[np.isfinite(z)]
    bounds = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    for value in np.unique(z[shown]):
        color = scale_color(trace, value, bounds) if np.isfinite(value) else (np.zeros(3), 0.0)
        cell = color[1] * color[0] + (1 - color[1]) * page
        if own is not None:
            ink = over(own, cell)
        else:
            ink = page_ink(cell) if rule == PAGE else plotly_ink(color)
        yield f"value {value:g}", ratio(ink, cell)


def _marker_labels(trace, page, text_color):
    if trace.get("type") != "scatter" or "text" not in trace.get("mode", ""):
        return
    count = len(trace.get("x", []))
    font = trace.get("textfont") or {}
    inks = font.get("color", text_color)
    inks = inks if isinstance(inks, list) else [inks] * count
    marker = trace.get("marker") or {}
    fills = marker.get("color", "rgba(0,0,0,0)")
    fills = fills if isinstance(fills, list) else [fills] * count
    on_marker = trace.get("textposition", "middle center") == "middle center" and marker.get("opacity", 1) > 0
    for point, (ink, fill) in enumerate(zip(inks, fills)):
        behind = over(fill, page) if on_marker else page
        yield f"point {point}", ratio(over(ink, behind), behind)


def _hover_labels(trace, index, layout, page):
    """A hover box per color it takes: its own, or a heatmap's #444 (plotly.js), or a scatter point's marker color,
    or the template's color for the trace; the figure's font color on it, or plotly.js's white or #444."""
    if trace.get("hoverinfo") == "skip" or trace.get("visible") == "legendonly":
        return
    if trace["type"] == "scatter" and all(x is None for x in trace.get("x", [None])):
        return  # a legend entry: nothing to hover
    label = {**(layout.get("hoverlabel") or {}), **(trace.get("hoverlabel") or {})}
    marker_color = (trace.get("marker") or {}).get("color")
    colorway = layout.get("template", {}).get("layout", {}).get("colorway") or _PLOTLY_COLORWAY
    if label.get("bgcolor"):
        fills = [label["bgcolor"]]
    elif trace["type"] == "heatmap":
        fills = ["#444444"]
    elif isinstance(marker_color, str):
        fills = [marker_color]
    elif isinstance(marker_color, list):
        fills = marker_color
    else:
        fills = [colorway[index % len(colorway)]]
    own = (label.get("font") or {}).get("color")
    inks = own if isinstance(own, list) else [own] * len(fills)
    for fill, ink in sorted(set(zip(fills, inks)), key=str):
        box = over(fill, page)
        yield f"box {fill}", ratio(over(ink, box) if ink else plotly_ink(rgba(fill)), box)


def _layout_texts(layout, page, text_color):
    """(kind, where, contrast) of every text the layout draws."""
    font = (layout.get("font") or {}).get("color", text_color)

    def on_page(where, color, kind, behind=page):
        return kind, where, ratio(over(color or font, behind), behind)

    title = layout.get("title") or {}
    if title.get("text"):
        yield on_page("title", (title.get("font") or {}).get("color"), "titles and notes")
    for key, axis in layout.items():
        if not (key.startswith(("xaxis", "yaxis")) and isinstance(axis, dict)) or axis.get("visible") is False:
            continue
        if axis.get("showticklabels", True):
            yield on_page(f"{key} ticks", (axis.get("tickfont") or {}).get("color"), "axis labels")
        axis_title = axis.get("title") or {}
        if axis_title.get("text"):
            yield on_page(f"{key} title", (axis_title.get("font") or {}).get("color"), "axis labels")
    for number, note in enumerate(layout.get("annotations") or []):
        if not note.get("text"):
            continue
        behind = over(note["bgcolor"], page) if note.get("bgcolor") else page
        yield on_page(f"annotation {number} {note.get('text', '')[:30]!r}", (note.get("font") or {}).get("color"),
                      "titles and notes", behind)
    if layout.get("showlegend") or "legend" in layout:
        legend = layout.get("legend") or {}
        behind = over(legend["bgcolor"], page) if legend.get("bgcolor") else page
        yield on_page("legend", (legend.get("font") or {}).get("color"), "legend", behind)
    for number, menu in enumerate(layout.get("updatemenus") or []):
        behind = over(menu["bgcolor"], page) if menu.get("bgcolor") else page
        yield on_page(f"menu {number}", (menu.get("font") or {}).get("color"), "controls", behind)
    for number, slider in enumerate(layout.get("sliders") or []):
        yield on_page(f"slider {number}", (slider.get("font") or {}).get("color"), "controls")
        current = slider.get("currentvalue") or {}
        yield on_page(f"slider {number} value", (current.get("font") or {}).get("color"), "controls")


def figure_texts(spec, theme, rule=PAGE):
    """Every text of the figure `spec` (a figure dict: data, layout, frames) as drawn in `theme` (a key of THEMES),
    its cell labels inked by `rule` (PAGE or PLOTLY): a list of Text."""
    background, text_color = THEMES[theme]
    page = rgba(background)[0]
    layout = spec.get("layout", {})
    texts = [Text(kind, where, contrast) for kind, where, contrast in _layout_texts(layout, page, text_color)]
    for where, trace, index, in_frame in _traces(spec):
        texts += [Text("cell labels", f"{where}, {cell}", contrast)
                  for cell, contrast in _cell_labels(trace, page, rule)]
        texts += [Text("marker labels", f"{where}, {point}", contrast)
                  for point, contrast in _marker_labels(trace, page, text_color)]
        if not in_frame:  # frames move or recolor traces; their hover boxes are the trace's
            texts += [Text("hover labels", f"{where}, {box}", contrast)
                      for box, contrast in _hover_labels(trace, index, layout, page)]
    return texts


def lowest(texts):
    """{kind: the Text of that kind with the lowest contrast}."""
    worst = {}
    for text in texts:
        if text.kind not in worst or text.contrast < worst[text.kind].contrast:
            worst[text.kind] = text
    return worst


# ------------------------------------------------------------------ every figure builder, over cases


class _Builders:
    """The figure builders of one viz package (this checkout's, or an older checkout's loaded under another name:
    scripts/figure_contrast.py), looked up by module and name when a case draws."""

    def __init__(self, package):
        self.package = package

    def __call__(self, module, name):
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)


def _bitwise(viz, name, dtype):
    width = np.dtype(dtype).itemsize * 8
    a = np.random.default_rng(1).integers(0, 256, size=4 * width // 8, dtype=np.uint8).view(dtype)
    b = np.array([0, 1, width - 1, 3], dtype=f"u{width // 8}").view(dtype)
    inputs = [a, b][:ops.OPERATORS[name].arity[0]]
    out = ops.run(name, inputs)[0]
    return viz("bitwise_fig", "bitwise_figure")(a, inputs[1] if len(inputs) > 1 else None, out, op=name)


def _depth_space(viz, channels, block_size, order, direction):
    side = 2 if direction == "depth_to_space" else 2 * block_size
    x = make_values("sequence", (1, channels, side, side), "FLOAT32")
    run = depth_to_space if direction == "depth_to_space" else space_to_depth
    return viz("depth_space_fig", "depth_space_figure")(x, run(x, block_size, order), block_size, order, direction)


def _split_join(viz, pieces):
    x = make_values("sequence", (1, pieces, 2), "UINT8")
    return viz("split_join_fig", "split_join_figure")(x, 1, [1] * pieces)


def _layouts(viz, preset, figure):
    inp, out = ops.layout_preset(preset, "UINT16")
    in_desc, out_desc = identity_descs(inp, out)
    source = np.arange(in_desc.buffer_elements, dtype=np.uint16)
    if figure == "copy":
        return viz("layouts_fig", "copy_figure")(copy_order(inp, out), source,
                                                 np.zeros(out_desc.buffer_elements, np.uint16), 4, 4)
    return viz("layouts_fig", "logical_figure")(logical_tensor(source, inp),
                                                element_offsets(in_desc.Sizes, in_desc.Strides),
                                                element_offsets(out_desc.Sizes, out_desc.Strides))


def _detective(viz, corrupt):
    x = make_values("sequence", (1, 16, 2, 2), "FLOAT32")
    y = depth_to_space(x, 2, "DCR")
    if corrupt:
        y = y.copy()
        y[0, 0, 0, :2] = -7.5  # values in no input: the detective's dark "✗" cells
    report = ops.identify(x, y)
    return viz("detective_fig", "detective_figure")([x.shape], [y.shape], [report.source_index],
                                                    report.input_starts, [y])


def _explained(viz, kind, number):
    if kind == "depth_space":
        figure = _depth_space(viz, 8, 2, "DCR", "depth_to_space")
    elif kind == "split_join":
        figure = _split_join(viz, 3)
    else:
        a, b = np.array([1.0, 2.0], np.float32), np.array([2.0, 0.5], np.float32)
        figure = viz("bitwise_fig", "bitwise_figure")(a, b, ops.run("ELEMENT_WISE_BIT_OR", [a, b])[0],
                                                      op="ELEMENT_WISE_BIT_OR")
    try:
        with_step = viz(f"{kind}_fig", "with_step")  # the page's figure module (viz.operator_figure.FigureModule)
    except AttributeError:  # a checkout from before that protocol (scripts/figure_contrast.py --root): viz/explain.py
        return viz("explain", "with_step")(kind, figure, number)[0]
    return with_step(figure, number)[0]


def figure_cases(package="viz"):
    """{name: (function, arguments)} drawing every figure builder of `package` over cases that reach every kind of
    text (KINDS) and every color the palettes give: call `function(*arguments)` for the figure."""
    viz = _Builders(package)
    bitwise = [name for name in ops.OPERATORS if name.startswith("ELEMENT_WISE_BIT_")]
    steps = [(0, "dispatch join", "ran", ""), (1, "dispatch conv", "could not run: the run stops here", "refused")]
    return {
        **{f"bitwise {name[17:]} {np.dtype(dtype)}": (_bitwise, viz, name, dtype)
           for name in bitwise for dtype in (np.float16, np.float32, np.int8, np.uint8, np.uint32)},
        **{f"depth_space {c} channels bs{bs} {order} {direction}": (_depth_space, viz, c, bs, order, direction)
           for c, bs in ((4, 2), (8, 2), (12, 2), (16, 2), (18, 3), (64, 2), (64, 4))
           for order in ("DCR", "CRD") for direction in ("depth_to_space", "space_to_depth")},
        **{f"split_join {pieces} outputs": (_split_join, viz, pieces) for pieces in (2, 7, 12, 16)},
        "memory_map packed": (viz("memory_map_fig", "memory_map_figure"), [3, 2], [2, 1], 4, 24),
        "memory_map broadcast and padding": (viz("memory_map_fig", "memory_map_figure"), [3, 4], [1, 0], 4, 24),
        "memory_map output conflicts": (functools.partial(viz("memory_map_fig", "memory_map_figure"), role="output"),
                                        [4, 4], [1, 1], 1, 8),
        **{f"layouts {figure} {preset}": (_layouts, viz, preset, figure) for figure in ("copy", "logical")
           for preset in ("NCHW -> NHWC", "pad by 1", "broadcast a row")},
        "detective": (_detective, viz, False),
        "detective with values in no input": (_detective, viz, True),
        "detective diff": (viz("detective_fig", "diff_figure"), np.eye(4, dtype=bool).reshape(1, 4, 2, 2),
                           np.zeros((1, 4, 2, 2), bool), "as given", "with P"),
        **{f"converter {c} channels bs{bs}": (viz("converter_fig", "converter_figure"),
                                              ops.channel_permutation(c, bs, "DCR", "CRD"), bs, "DCR", "CRD")
           for c, bs in ((8, 2), (16, 4), (36, 3))},
        "workbench tensor": (viz("workbench_fig", "tensor_heatmap"), np.linspace(-3, 3, 48).reshape(6, 8), "t"),
        "workbench tiles": (viz("workbench_fig", "tensor_heatmap"), np.arange(60.0).reshape(3, 4, 5), "tiles"),
        "workbench command strip": (viz("workbench_fig", "command_strip"), steps),
        **{f"explain {kind} step {number}": (_explained, viz, kind, number)
           for kind in ("depth_space", "split_join", "bitwise") for number in (0, 3)},
    }
