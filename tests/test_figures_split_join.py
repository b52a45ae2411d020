"""The Split <-> Join figure, checked from its JSON against the seed's examples and ops.split."""

import ast
import json
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_figures_bitwise import plotly_array

from ops import DescriptorError, split
from ui.values import parse_int_list
from viz.split_join_fig import MAX_CELLS, MAX_FRAMES, layout_cells, split_join_figure

SEED = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)


def spec(figure):
    return json.loads(figure.to_json())


def output_traces(figure):
    return {t["name"]: t for t in figure["data"] if t["name"].startswith("OutputTensors")}


def as_numbers(text):
    return plotly_array(text).astype(float)


def test_seed_axis_2_outputs_and_destinations():
    figure = spec(split_join_figure(SEED, 2, [2, 1, 3]))
    traces = output_traces(figure)
    assert as_numbers(traces["OutputTensors[0]"]["text"]).tolist() == [[1, 2], [3, 4]]
    assert as_numbers(traces["OutputTensors[1]"]["text"]).tolist() == [[5, 6]]
    assert as_numbers(traces["OutputTensors[2]"]["text"]).tolist() == [[7, 8], [9, 10], [11, 12]]
    dest = layout_cells(SEED, 2, [2, 1, 3])["dest"]
    assert dest.tolist() == [[0, 0], [0, 0], [1, 1], [2, 2], [2, 2], [2, 2]]


def test_seed_axis_3_outputs_are_columns():
    traces = output_traces(spec(split_join_figure(SEED, 3, [1, 1])))
    assert as_numbers(traces["OutputTensors[0]"]["text"]).ravel().tolist() == [1, 3, 5, 7, 9, 11]
    assert as_numbers(traces["OutputTensors[1]"]["text"]).ravel().tolist() == [2, 4, 6, 8, 10, 12]


def test_rows_top_down_square_cells_fixed_colors():
    figure = spec(split_join_figure(SEED, 2, [2, 1, 3]))
    layout = figure["layout"]
    for suffix in ("", "2"):
        low, high = layout[f"yaxis{suffix}"]["range"]
        assert low > high  # reversed: row 0 at the top
        assert layout[f"xaxis{suffix}"]["scaleanchor"] == f"y{suffix}"
    assert {(t["zmin"], t["zmax"]) for t in figure["data"]} == {(-0.5, 2.5)}


def _parse_hover(text):
    match = re.match(r"InputTensor(\[[^\]]*\]) -> OutputTensors\[(\d+)\](\[[^\]]*\])", text)
    return ast.literal_eval(match[1]), int(match[2]), ast.literal_eval(match[3])


@st.composite
def split_cases(draw):
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    axis = draw(st.integers(0, ndim - 1))
    cuts = sorted(draw(st.sets(st.integers(1, shape[axis] - 1), max_size=shape[axis] - 1))) \
        if shape[axis] > 1 else []
    bounds = [0, *cuts, shape[axis]]
    return shape, axis, [b - a for a, b in zip(bounds, bounds[1:])]


@given(split_cases())
def test_hover_indices_agree_with_ops_split(case):
    shape, axis, sizes = case
    x = np.arange(np.prod(shape), dtype=np.int32).reshape(shape)
    outputs = split(x, axis, sizes)
    figure = spec(split_join_figure(x, axis, sizes))
    input_trace = figure["data"][0]
    for row_hover in plotly_array(input_trace["customdata"]):
        for hover in row_hover:
            index, k, out_index = _parse_hover(hover)
            assert x[tuple(index)] == outputs[k][tuple(out_index)]
    pieces = figure["layout"]["meta"]["pieces"]
    assert [p[0] for p in pieces] == list(range(len(sizes)))


def test_frames_peel_then_join_within_cap():
    x = np.zeros((3, 200, 5), np.int8)
    figure = spec(split_join_figure(x, 1, [1] * 200))
    frames = figure["frames"]
    assert len(frames) <= MAX_FRAMES
    traces = output_traces(figure)
    assert len(traces) == 64  # the window holds 64 rows along Axis
    first = [d["y0"] for d in frames[0]["data"]]
    last = [d["y0"] for d in frames[-1]["data"]]
    middle = [d["y0"] for d in frames[len(frames) // 2]["data"]]
    assert first == last == list(range(64))  # joined at both ends
    assert middle == [2 * i for i in range(64)]  # fully split: one gap after every output


def test_peeling_moves_one_output_at_a_time():
    figure = spec(split_join_figure(SEED, 2, [2, 1, 3]))
    positions = [[d["y0"] for d in f["data"]] for f in figure["frames"]]
    assert positions == [[0, 2, 3], [0, 3, 4], [0, 3, 5], [0, 3, 4], [0, 2, 3]]


def test_large_plane_is_windowed():
    x = np.arange(200 * 300, dtype=np.int32).reshape(200, 300)
    figure = spec(split_join_figure(x, 0, [100, 100], start=(90, 250)))
    meta = figure["layout"]["meta"]
    row0, row1, col0, col1 = meta["bounds"]
    assert (row0, row1, col0, col1) == (90, 154, 236, 300)
    for trace in figure["data"]:
        assert plotly_array(trace["z"]).size <= MAX_CELLS
    assert figure["layout"]["yaxis"]["ticktext"][0] == "90"


def test_slice_outside_the_tensor_names_the_dim():
    with pytest.raises(DescriptorError, match="dim 0"):
        split_join_figure(np.zeros((2, 3, 4)), 2, [2, 2], fixed={0: 5})


@pytest.mark.parametrize("text, message", [
    ("", "Sizes: empty"), ("2,a", "'a' is not a whole number"), ("1,2,3,4,5,6,7,8,9", "at most 8"),
    ("2,0", "a size of 0 is invalid"), ("1.5", "not a whole number"),
])
def test_parse_int_list_errors_name_the_field(text, message):
    with pytest.raises(DescriptorError, match="Sizes") as info:
        parse_int_list(text, "Sizes")
    assert message in str(info.value)


def test_parse_int_list_accepts_common_spellings():
    assert parse_int_list("[1, 1, 6, 2]", "Sizes") == (1, 1, 6, 2)
    assert parse_int_list("2 x 3", "Sizes") == (2, 3)
