"""The detective's figures: every drawn output cell's label, color and hover say where the core found it came from;
row 0 at the top; cells in no input marked; the drawing cap held; the mix-up diff counts what differs."""

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.detective.examples import detective_example
from ops.detective.identify import mix_up_diff
from ops.detective.origin import origin_coded_inputs
from ops.operators.depth_space import depth_to_space
from ops.operators.split_join import join, split
from support.figures import figure_json_size
from viz.colors import distinct
from viz.common import BAND_MARKS, MAX_CELLS
from viz.detective_fig import MISSING_COLOR, detective_figure, diff_figure
from viz.spec import decode_typed_array, is_typed_array


def arrays(value):
    return decode_typed_array(value) if is_typed_array(value) else np.array(value, dtype=object)


def build(xs, ys):
    report = ops.identify(xs[0] if len(xs) == 1 else xs, ys[0] if len(ys) == 1 else ys)
    sources = report.source_index if isinstance(report.source_index, list) else [report.source_index]
    return report, sources, detective_figure([x.shape for x in xs], [y.shape for y in ys], sources,
                                             report.input_starts, ys)


def figure_of(xs, ys):
    report, sources, figure = build(xs, ys)
    return report, sources, figure.to_dict()


def cells(spec):
    """{canvas (row, col): (label, z, missing, hover)} of every drawn cell."""
    heat, missing, points = spec["data"][:3]  # then, past twelve tiles, their band marks
    z, gone = arrays(heat["z"]), arrays(missing["z"])
    text = arrays(heat["text"]) if "text" in heat else np.full(z.shape, "", dtype=object)  # no labels past LABEL_CELLS
    xs, ys = arrays(points["x"]), arrays(points["y"])
    return {(int(r), int(c)): (text[r, c], z[r, c], not np.isnan(gone[r, c]), h)
            for r, c, h in zip(ys, xs, points["text"])}


HOVER = re.compile(r"^(y\d*)\[([\d, ]+)\] came from (x\d*)\[([\d, ]+)\], flat (\d+)$")


def check_every_output_cell(xs, ys):
    report, sources, spec = figure_of(xs, ys)
    x_names = ["x"] if len(xs) == 1 else [f"x{i}" for i in range(len(xs))]
    y_names = ["y"] if len(ys) == 1 else [f"y{i}" for i in range(len(ys))]
    seen = 0
    for label, z, gone, hover in cells(spec).values():
        match = HOVER.match(hover)
        if match is None:
            continue
        y_name, y_index, x_name, x_index, flat = match.groups()
        out = y_names.index(y_name)
        y_index = tuple(int(i) for i in y_index.split(", "))
        source = int(sources[out][y_index])
        assert int(flat) == source and label == str(source) and not gone
        which = x_names.index(x_name)
        x_index = tuple(int(i) for i in x_index.split(", "))
        assert report.input_starts[which] + np.ravel_multi_index(x_index, xs[which].shape) == source
        # The color is the source's tile: all of x's tiles counted in order.
        tiles = [int(np.prod(x.shape[:-2])) if x.ndim > 1 else 1 for x in xs]
        assert z == sum(tiles[:which]) + (np.ravel_multi_index(x_index[:-2], xs[which].shape[:-2])
                                          if xs[which].ndim > 2 else 0)
        seen += 1
    return seen, spec


@pytest.mark.parametrize("order", ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"])
def test_every_output_cell_names_its_source_as_the_index_map_does(order):
    x = ops.origin_coded_input((1, 8, 2, 3))
    seen, spec = check_every_output_cell([x], [depth_to_space(x, 2, order)])
    assert seen == 48
    assert spec["layout"]["yaxis"]["range"][0] > spec["layout"]["yaxis"]["range"][1]  # row 0 at the top
    assert build([x], [depth_to_space(x, 2, order)])[2].context.note == ""


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.lists(st.integers(1, 4), min_size=1, max_size=4), st.integers(0, 2**32 - 1))
def test_any_gather_into_any_shape_is_drawn_cell_by_cell(ndim, out_shape, seed):
    rng = np.random.default_rng(seed)
    x = ops.origin_coded_input(tuple(rng.integers(1, 4, ndim)), "INT32")
    y = x.ravel()[rng.integers(0, x.size, out_shape)]
    seen, _ = check_every_output_cell([x], [y])
    assert seen == y.size


def test_split_outputs_and_join_inputs_are_told_apart():
    x = ops.origin_coded_input((2, 3, 4))
    seen, spec = check_every_output_cell([x], split(x, 2, [1, 3]))
    assert seen == 24
    labels = [a["text"] for a in spec["layout"]["annotations"]]
    assert "y0[0]" in labels and "y1[1]" in labels
    parts = origin_coded_inputs([(1, 2, 3), (1, 1, 3)])
    seen, _ = check_every_output_cell(parts, [join(parts, 1)])
    assert seen == 9


def test_cells_in_no_input_are_dark_crossed_and_name_their_value():
    x = ops.origin_coded_input((1, 4, 1, 2))
    y = depth_to_space(x, 2, "CRD").astype(np.float64)
    y[0, 0, 1, 2] = 0.25
    _, _, spec = figure_of([x], [y])
    missing = [c for c in cells(spec).values() if c[2]]
    assert len(missing) == 1
    label, z, _, hover = missing[0]
    assert label == "✗" and np.isnan(z) and hover == "y[0, 0, 1, 2] = 0.25: this value is in no input"
    assert spec["data"][1]["colorscale"][0][1] == MISSING_COLOR


def test_tiles_take_the_channel_colors_and_band_marks_beyond_them():
    """As on the operator pages: colors that every reader tells apart, and past them a mark in each cell that
    names its band; the labels' ink is plotly's choice for each cell, never dark on a dark color."""
    x = ops.origin_coded_input((1, 8, 2, 3))
    _, _, spec = figure_of([x], [depth_to_space(x, 2, "DCR")])
    assert {step[1] for step in spec["data"][0]["colorscale"]} == set(distinct()[:8])
    assert "color" not in spec["data"][0]["textfont"]
    assert not [t for t in spec["data"] if t.get("meta") == BAND_MARKS]
    x = ops.origin_coded_input((1, 16, 2, 3))
    _, _, spec = figure_of([x], [depth_to_space(x, 2, "DCR")])
    bands = [step[1] for step in spec["data"][0]["colorscale"][::2]]
    assert set(bands) <= set(distinct()) and len(set(bands[:8])) == len(set(bands[8:])) == 8
    assert spec["data"][0]["zmax"] == 15.5
    [marks] = [t for t in spec["data"] if t.get("meta") == BAND_MARKS]
    assert len(marks["marker"]["symbol"]) == 2 * 8 * 2 * 3  # tiles 8 to 15 (the second band), input and output


def test_large_tensors_are_drawn_within_the_cap_and_say_what_is_left_out():
    x = ops.origin_coded_input((1, 64, 100, 30))
    _, _, figure = build([x], [depth_to_space(x, 4, "CRD")])
    assert len(cells(figure.to_dict())) <= 2 * MAX_CELLS
    drawn = figure.context.note
    assert "x: the first 2 of 64 tiles, each its first 64 x 30 cells"  # 4,096 // (64 * 30) in drawn
    assert "y: the first 1 of 4 tiles, each its first 64 x 64 cells" in drawn
    assert figure_json_size(detective_figure([x.shape], [(1, 4, 400, 120)], [np.zeros((1, 4, 400, 120), int)],
                                             (0,))) < 2_000_000


def test_the_diff_figure_marks_differing_cells_before_and_after():
    [x], [y] = detective_example("mixed_up")
    report = ops.identify(x, y)
    diff = mix_up_diff(report, x.shape)
    spec = diff_figure(diff["before"], diff["after"], "as given", "with P").to_dict()
    z, text = arrays(spec["data"][0]["z"]), arrays(spec["data"][0]["text"])
    assert int(np.nansum(z)) == int(diff["before"].sum()) > 0
    assert (text == "≠").sum() == diff["before"].sum()
    notes = [a["text"] for a in spec["layout"]["annotations"]]
    assert f"<b>as given</b>: {int(diff['before'].sum())} of 48 cells differ" in notes
    assert "<b>with P</b>: 0 of 48 cells differ" in notes
    json.dumps(spec)  # plain JSON: nothing plotly.js cannot read
