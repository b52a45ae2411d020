"""Every figure's own text is readable in both themes: at least 4.5:1 (WCAG 2, 1.4.3) between each text and what is
behind it, computed from the figure's JSON as the app draws it (support.contrast): cell labels over every color their
cell takes in any frame, marker labels, axis labels, titles and notes, legends, Play and the slider, hover boxes.
axe (tests/browser/test_browser_accessibility.py) checks the page's own text; it cannot see into a figure's SVG."""

import numpy as np
import pytest
import streamlit  # noqa: F401  (its plotly template, which the figures carry in the app: hover boxes take its colors)

import ops
from ops import OPERATORS, DescriptorError, run
from ops.descriptors.layouts import copy_order, identity_descs, logical_tensor
from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.tensor_desc import element_offsets
from support.contrast import KINDS, MINIMUM, PAGE, PLOTLY, THEMES, figure_texts, lowest, page_ink, ratio, rgba
from ui.values import make_values
from viz import bitwise_fig, depth_space_fig, explain, split_join_fig
from viz.colors import GREY, distinct
from viz.converter_fig import converter_figure
from viz.detective_fig import detective_figure, diff_figure
from viz.layouts_fig import copy_figure, logical_figure
from viz.memory_map_fig import memory_map_figure
from viz.workbench_fig import RAN, STOPPED, command_strip, tensor_heatmap

BITWISE = [name for name in OPERATORS if name.startswith("ELEMENT_WISE_BIT_")]


def bitwise(name, dtype):
    width = np.dtype(dtype).itemsize * 8
    a = np.random.default_rng(1).integers(0, 256, size=4 * width // 8, dtype=np.uint8).view(dtype)
    b = np.array([0, 1, width - 1, 3], dtype=f"u{width // 8}").view(dtype)
    inputs = [a, b][:OPERATORS[name].arity[0]]
    out = run(name, inputs)[0]
    return bitwise_fig.bitwise_figure(a, inputs[1] if len(inputs) > 1 else None, out, op=name)


def depth_space(channels, block_size, order, direction):
    if direction == "depth_to_space":
        x = make_values("sequence", (1, channels, 2, 2), "FLOAT32")
        return depth_space_fig.depth_space_figure(x, depth_to_space(x, block_size, order), block_size, order,
                                                  direction)
    x = make_values("sequence", (1, channels, 2 * block_size, 2 * block_size), "FLOAT32")
    return depth_space_fig.depth_space_figure(x, space_to_depth(x, block_size, order), block_size, order, direction)


def split_join(pieces):
    x = make_values("sequence", (1, pieces, 2), "UINT8")
    return split_join_fig.split_join_figure(x, 1, [1] * pieces)


def layouts(preset, figure):
    inp, out = ops.layout_preset(preset, "UINT16")
    in_desc, out_desc = identity_descs(inp, out)
    source = np.arange(in_desc.buffer_elements, dtype=np.uint16)
    if figure == "copy":
        return copy_figure(copy_order(inp, out), source, np.zeros(out_desc.buffer_elements, np.uint16), 4, 4)
    return logical_figure(logical_tensor(source, inp), element_offsets(in_desc.Sizes, in_desc.Strides),
                          element_offsets(out_desc.Sizes, out_desc.Strides))


def detective(corrupt):
    x = make_values("sequence", (1, 16, 2, 2), "FLOAT32")
    y = depth_to_space(x, 2, "DCR")
    if corrupt:
        y = y.copy()
        y[0, 0, 0, :2] = -7.5  # values in no input: the detective's dark "✗" cells
    report = ops.identify(x, y)
    return detective_figure([x.shape], [y.shape], [report.source_index], report.input_starts, [y])


def explained(kind, number):
    if kind == "depth_space":
        figure = depth_space(8, 2, "DCR", "depth_to_space")
    elif kind == "split_join":
        figure = split_join(3)
    else:
        a, b = np.array([1.0, 2.0], np.float32), np.array([2.0, 0.5], np.float32)
        figure = bitwise_fig.bitwise_figure(a, b, run("ELEMENT_WISE_BIT_OR", [a, b])[0])
    return explain.with_step(kind, figure, number)[0]


FIGURES = {
    **{f"bitwise {name[17:]} {np.dtype(dtype)}": (bitwise, name, dtype)
       for name in BITWISE for dtype in (np.float16, np.float32, np.int8, np.uint8, np.uint32)},
    **{f"depth_space {c} channels bs{bs} {order} {direction}": (depth_space, c, bs, order, direction)
       for c, bs in ((4, 2), (8, 2), (12, 2), (16, 2), (18, 3), (64, 2), (64, 4))
       for order in ("DCR", "CRD") for direction in ("depth_to_space", "space_to_depth")},
    **{f"split_join {pieces} outputs": (split_join, pieces) for pieces in (2, 7, 12, 16)},
    "memory_map packed": (memory_map_figure, [3, 2], [2, 1], 4, 24),
    "memory_map broadcast and padding": (memory_map_figure, [3, 4], [1, 0], 4, 24),
    "memory_map output conflicts": (lambda: memory_map_figure([4, 4], [1, 1], 1, 8, role="output"),),
    **{f"layouts {figure} {preset}": (layouts, preset, figure) for figure in ("copy", "logical")
       for preset in ("NCHW -> NHWC", "pad by 1", "broadcast a row")},
    "detective": (detective, False),
    "detective with values in no input": (detective, True),
    "detective diff": (lambda: diff_figure(np.eye(4, dtype=bool).reshape(1, 4, 2, 2),
                                           np.zeros((1, 4, 2, 2), bool), "as given", "with P"),),
    **{f"converter {c} channels bs{bs}": (lambda c=c, bs=bs: converter_figure(
        ops.channel_permutation(c, bs, "DCR", "CRD"), bs, "DCR", "CRD"),) for c, bs in ((8, 2), (16, 4), (36, 3))},
    "workbench tensor": (lambda: tensor_heatmap(np.linspace(-3, 3, 48).reshape(6, 8), "t"),),
    "workbench tiles": (lambda: tensor_heatmap(np.arange(60.0).reshape(3, 4, 5), "tiles"),),
    "workbench command strip": (lambda: command_strip([(0, "dispatch join", RAN, ""), (1, "dispatch conv", STOPPED,
                                                                                        "refused")]),),
    **{f"explain {kind} step {number}": (explained, kind, number)
       for kind in ("depth_space", "split_join", "bitwise") for number in (0, 3)},
}


def spec_of(name):
    build, *arguments = FIGURES[name]
    try:
        figure = build(*arguments)
    except DescriptorError as error:
        if build is bitwise and "DataType" in str(error):  # a type the operator refuses (the shifts: unsigned)
            pytest.skip(str(error))
        raise
    return figure.to_dict()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", FIGURES)
def test_every_text_of_every_figure_is_readable(name, theme):
    texts = figure_texts(spec_of(name), theme)
    assert texts
    unreadable = sorted({(t.kind, t.where, round(t.contrast, 2)) for t in texts if t.contrast < MINIMUM})
    assert not unreadable, unreadable[:10]


def test_the_figures_draw_every_kind_of_text_and_every_palette_color():
    """The cases above reach every kind of text, and cells of every color the palettes give."""
    kinds, colors = set(), set()
    for name in FIGURES:
        try:
            spec = spec_of(name)
        except pytest.skip.Exception:
            continue
        kinds |= {text.kind for text in figure_texts(spec, "light")}
        for trace in spec["data"] + [t for frame in spec.get("frames", []) for t in frame["data"]]:
            colors |= {color.upper() for _, color in trace.get("colorscale", []) if color.startswith("#")}
    assert kinds == set(KINDS)
    assert set(distinct()) | {GREY} <= colors


@pytest.mark.parametrize("color", list(distinct()) + [GREY])
def test_black_or_white_reads_on_every_palette_color(color):
    cell = rgba(color)[0]
    assert ratio(page_ink(cell), cell) >= 4.58


def test_the_issue_s_bitwise_zeros_were_unreadable_in_the_dark_theme_and_are_not_now():
    """The report: 1.15:1 on the mantissa's 0 bits and 1.47:1 on the exponent's, drawn by plotly.js's own choice."""
    spec = spec_of("bitwise OR float32")

    def zeros(rule):
        texts = figure_texts(spec, "dark", rule)
        return {t.where.rsplit("value ", 1)[1]: round(t.contrast, 2) for t in texts
                if t.kind == "cell labels" and t.where.startswith("trace 0 (A)")}

    codes = {field: 1 + 2 * bitwise_fig.FIELD_ORDER.index(field) for field in ("exponent", "mantissa")}
    before = zeros(PLOTLY)
    assert before[str(codes["mantissa"])] == 1.15 and before[str(codes["exponent"])] == 1.47
    assert min(zeros(PAGE).values()) >= MINIMUM


def test_lowest_names_the_worst_text_of_each_kind():
    spec = spec_of("memory_map packed")
    worst = lowest(figure_texts(spec, "light", PLOTLY))
    assert set(worst) <= set(KINDS)
    assert all(w.contrast == min(t.contrast for t in figure_texts(spec, "light", PLOTLY) if t.kind == kind)
               for kind, w in worst.items())
