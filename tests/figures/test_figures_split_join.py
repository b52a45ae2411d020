"""The Split <-> Join figure, checked from its JSON against the seed's examples and ops.split."""

import ast
import json
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ops import DescriptorError
from ops.operators.split_join import split
from support.figures import plotly_array
from ui.values import parse_int_list
from viz.split_join_fig import (
    MAX_CELLS,
    MAX_FRAMES,
    default_view,
    describe_pick,
    layout_cells,
    locate_pick,
    pick_from_selection,
    split_join_figure,
)

SEED = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)


def spec(figure):
    return json.loads(figure.to_json())


def output_traces(figure):
    return {t["name"]: t for t in figure["data"] if t["name"].startswith("OutputTensors")}


def as_numbers(text):
    return plotly_array(text).astype(float)


def heatmaps(figure_or_frame):
    return [t for t in figure_or_frame["data"] if t["type"] == "heatmap"]


def test_seed_axis_2_outputs_and_destinations():
    figure = spec(split_join_figure(SEED, 2, [2, 1, 3]))
    traces = output_traces(figure)
    assert as_numbers(traces["OutputTensors[0]"]["text"]).tolist() == [[1, 2], [3, 4]]
    assert as_numbers(traces["OutputTensors[1]"]["text"]).tolist() == [[5, 6]]
    assert as_numbers(traces["OutputTensors[2]"]["text"]).tolist() == [[7, 8], [9, 10], [11, 12]]
    dest = layout_cells(SEED, 2, [2, 1, 3]).dest
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
    assert {(t["zmin"], t["zmax"]) for t in heatmaps(figure)} == {(-0.5, 2.5)}


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
    input_targets = next(t for t in figure["data"] if t["name"] == "input cells")
    for hover in input_targets["text"]:
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
    first = [d["y0"] for d in heatmaps(frames[0])]
    last = [d["y0"] for d in heatmaps(frames[-1])]
    middle = [d["y0"] for d in heatmaps(frames[len(frames) // 2])]
    assert first == last == list(range(64))  # joined at both ends
    assert middle == [2 * i for i in range(64)]  # fully split: one gap after every output


def test_peeling_moves_one_output_at_a_time():
    figure = spec(split_join_figure(SEED, 2, [2, 1, 3]))
    positions = [[d["y0"] for d in heatmaps(f)] for f in figure["frames"]]
    assert positions == [[0, 2, 3], [0, 3, 4], [0, 3, 5], [0, 3, 4], [0, 2, 3]]


def test_large_plane_is_windowed():
    x = np.arange(200 * 300, dtype=np.int32).reshape(200, 300)
    figure = spec(split_join_figure(x, 0, [100, 100], start=(90, 250)))
    meta = figure["layout"]["meta"]
    row0, row1, col0, col1 = meta["bounds"]
    assert (row0, row1, col0, col1) == (90, 154, 236, 300)
    for trace in heatmaps(figure):
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


# Click-to-highlight: the outlines and the clickable markers, checked against the drawn cells' values.

def _path_cell(shape):
    """(row, column) of the cell a pick outline surrounds."""
    x, y = (float(v) for v in re.match(r"M([-\d.]+),([-\d.]+)", shape["path"]).groups())
    return round(y + 0.5), round(x + 0.5)


def _right_panel(figure, frame=None):
    """[(name, top, left, text grid)] of the output heatmaps, placed as `frame` (or the figure at rest) puts them."""
    placed = []
    moves = heatmaps(frame) if frame is not None else None
    for i, trace in enumerate(t for t in heatmaps(figure) if t["name"].startswith("OutputTensors")):
        where = {"x0": trace["x0"], "y0": trace["y0"], **(moves[i] if moves else {})}
        placed.append((trace["name"], where["y0"], where["x0"], plotly_array(trace["text"])))
    return placed


def _value_at(placed, row, col):
    """(output name, value text) of the right-panel cell at (row, col), or None when no output covers it."""
    for name, top, left, text in placed:
        if top <= row < top + text.shape[0] and left <= col < left + text.shape[1]:
            return name, text[row - top, col - left]
    return None


def _frames_and_rest(figure):
    return [(f, f["layout"]) for f in figure["frames"]] + [(None, figure["layout"])]


@st.composite
def picked_cases(draw):
    shape, axis, sizes = draw(split_cases())
    view = [d for d in default_view(len(shape), axis) if d is not None]
    pick = tuple(draw(st.integers(0, s - 1)) if d in view else 0 for d, s in enumerate(shape))
    return shape, axis, sizes, pick


@given(picked_cases())
def test_pick_outlines_the_element_and_where_it_goes_in_every_frame(case):
    shape, axis, sizes, pick = case
    x = np.arange(np.prod(shape), dtype=np.int32).reshape(shape) + 100
    k, out_index = locate_pick(shape, axis, sizes, pick)
    assert split(x, axis, sizes)[k][out_index] == x[pick]  # the caption's output index, by ops.split
    assert describe_pick(x, axis, sizes, pick) == f"InputTensor{list(pick)} → OutputTensors[{k}]{list(out_index)}, " \
                                                  f"value {x[pick]}"
    figure = spec(split_join_figure(x, axis, sizes, pick=pick))
    input_text = plotly_array(heatmaps(figure)[0]["text"])
    for frame, layout in _frames_and_rest(figure):
        shapes = {s["name"]: s for s in layout["shapes"] if s.get("name", "").startswith("pick")}
        assert set(shapes) == {"pick-source", "pick-destination"}
        assert (shapes["pick-source"]["xref"], shapes["pick-destination"]["xref"]) == ("x", "x2")
        assert input_text[_path_cell(shapes["pick-source"])] == str(x[pick])
        assert _value_at(_right_panel(figure, frame), *_path_cell(shapes["pick-destination"])) == \
            (f"OutputTensors[{k}]", str(x[pick]))


@given(split_cases())
def test_every_click_target_sits_on_its_own_cell_in_every_frame(case):
    shape, axis, sizes = case
    x = np.arange(np.prod(shape), dtype=np.int32).reshape(shape) + 100
    figure = spec(split_join_figure(x, axis, sizes))
    targets = {t["name"]: (i, t) for i, t in enumerate(figure["data"]) if t["type"] == "scatter"}
    input_trace = targets.pop("input cells")[1]
    input_text = plotly_array(heatmaps(figure)[0]["text"])
    rows, cols = plotly_array(input_trace["y"]), plotly_array(input_trace["x"])
    for row, col, idx in zip(rows, cols, plotly_array(input_trace["customdata"])):
        assert input_text[row, col] == str(x[tuple(idx)])
    for frame, _ in _frames_and_rest(figure):
        placed = _right_panel(figure, frame)
        moved = dict(zip(frame["traces"], frame["data"])) if frame else {}
        for number, trace in targets.values():
            where = {**trace, **moved.get(number, {})}
            along = plotly_array(trace["x"] if "x" in trace else trace["y"]).ravel()
            for j, idx in enumerate(plotly_array(trace["customdata"]).reshape(len(along), -1)):
                row, col = (where["y0"], along[j]) if "x" in trace else (along[j], where["x0"])
                assert _value_at(placed, row, col)[1] == str(x[tuple(idx)])


def test_pick_outside_the_drawn_plane_or_the_tensor():
    x = np.arange(3 * 4 * 5, dtype=np.int32).reshape(3, 4, 5)
    figure = spec(split_join_figure(x, 2, [2, 3], pick=(1, 2, 4)))  # dim 0 is fixed at 0
    assert not [s for s in figure["layout"].get("shapes", []) if s.get("name", "").startswith("pick")]
    assert figure["layout"]["meta"]["pick"] is None
    assert describe_pick(x, 2, [2, 3], (1, 2, 4)).startswith("InputTensor[1, 2, 4] → OutputTensors[1][1, 2, 2]")
    for stale in [(3, 0, 0), (0, 0), (0, 0, 0, 0), (0, -1, 0)]:
        assert locate_pick(x.shape, 2, [2, 3], stale) is None
        assert describe_pick(x, 2, [2, 3], stale) is None


def test_pick_from_selection_reads_the_clicked_cells_input_index():
    # customdata arrives as a typed array, which the browser sends back as an object keyed "0", "1", ...
    typed = {"points": [{"curve_number": 4, "customdata": {"0": 0, "1": 0, "2": 3, "3": 1}}]}
    assert pick_from_selection(typed) == (0, 0, 3, 1)
    assert pick_from_selection({"points": [{"customdata": [2, 5]}]}) == (2, 5)
    assert pick_from_selection({"points": []}) is None
    assert pick_from_selection(None) is None
