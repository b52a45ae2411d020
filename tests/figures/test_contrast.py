"""Every figure's own text is readable in both themes: at least 4.5:1 (WCAG 2, 1.4.3) between each text and what is
behind it, computed from the figure's JSON as the app draws it (support.contrast): cell labels over every color their
cell takes in any frame, marker labels, axis labels, titles and notes, legends, Play and the slider, hover boxes.
axe (tests/browser/test_browser_accessibility.py) checks the page's own text; it cannot see into a figure's SVG."""

import pytest
import streamlit  # noqa: F401  (its plotly template, which the figures carry in the app: hover boxes take its colors)

from ops import DescriptorError
from support.contrast import (
    KINDS,
    MINIMUM,
    PAGE,
    PLOTLY,
    THEMES,
    figure_cases,
    figure_texts,
    lowest,
    page_ink,
    ratio,
    rgba,
)
from viz import bitwise_fig
from viz.colors import GREY, distinct

CASES = figure_cases()


def spec_of(name):
    build, *arguments = CASES[name]
    try:
        figure = build(*arguments)
    except DescriptorError as error:
        if name.startswith("bitwise") and "DataType" in str(error):  # a type the operator refuses (shifts: unsigned)
            pytest.skip(str(error))
        raise
    return figure.to_dict()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", CASES)
def test_every_text_of_every_figure_is_readable(name, theme):
    texts = figure_texts(spec_of(name), theme)
    assert texts
    unreadable = sorted({(t.kind, t.where, round(t.contrast, 2)) for t in texts if t.contrast < MINIMUM})
    assert not unreadable, unreadable[:10]


def test_the_figures_draw_every_kind_of_text_and_every_palette_color():
    """The cases above reach every kind of text, and cells of every color the palettes give."""
    kinds, colors = set(), set()
    for name in CASES:
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
