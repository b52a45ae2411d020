"""Depth <-> Space figure builders, without a browser: every drawn cell must tell the truth about the operator."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ops import DescriptorError
from ops.operators.depth_space import DIRECTIONS, ORDERS, depth_to_space, space_to_depth
from ops.operators.index_maps import depth_to_space_map, space_to_depth_map
from support.figures import figure_json_size, row_zero_on_top, struck_cells
from ui.values import make_values
from viz.common import MAX_CELLS, MAX_FRAMES, cover_colorscale
from viz.depth_space_fig import (
    INPUT_POSITION,
    OUTPUT_POSITION,
    Column,
    Trace,
    depth_space_figure,
    describe_pick,
    drawn_window,
    pick_from_selection,
    side_shapes,
)


def run(x, block_size, order, direction):
    return (depth_to_space if direction == "depth_to_space" else space_to_depth)(x, block_size, order)


def build(shape, block_size, order, direction, dtype="UINT32", **kwargs):
    x = make_values("coded", shape, dtype)
    y = run(x, block_size, order, direction)
    return x, y, depth_space_figure(x, y, block_size, order, direction, **kwargs)


def trace(fig, kind, name):
    return next(t for t in fig.data if t.type == kind and t.name == name)


def canvas_value(heatmap, row, col):
    return np.asarray(heatmap.z)[row, col - heatmap.x0]


@st.composite
def configurations(draw):
    direction = draw(st.sampled_from(list(DIRECTIONS)))
    bs = draw(st.integers(1, 3))
    n = draw(st.integers(1, 2))
    if direction == "depth_to_space":
        shape = (n, bs * bs * draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    else:
        shape = (n, draw(st.integers(1, 3)), bs * draw(st.integers(1, 3)), bs * draw(st.integers(1, 3)))
    return shape, bs, draw(st.sampled_from(ORDERS)), direction


@settings(max_examples=60)
@given(configurations())
def test_every_drawn_pair_is_a_move_the_operator_makes(config):
    """Hover data says input element i lands on output element j: then y.flat[j] == x.flat[i], and the
    positions are the unravelled flat indices; batch 0 is drawn whole, each output cell once."""
    shape, bs, order, direction = config
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)  # values that cannot coincide
    y = run(x, bs, order, direction)
    fig = depth_space_figure(x, y, bs, order, direction)
    custom = np.asarray(trace(fig, "scatter", "output").customdata).astype(np.int64)
    src, dst = custom[:, INPUT_POSITION], custom[:, OUTPUT_POSITION]
    src_flat, dst_flat = custom[:, Column.IN_FLAT], custom[:, Column.OUT_FLAT]
    np.testing.assert_array_equal(y.ravel()[dst_flat], x.ravel()[src_flat])
    np.testing.assert_array_equal(np.ravel_multi_index(src.T, x.shape), src_flat)
    np.testing.assert_array_equal(np.ravel_multi_index(dst.T, y.shape), dst_flat)
    assert sorted(dst_flat.tolist()) == list(range(y[0].size))  # batch 0, every element once


@settings(max_examples=40)
@given(configurations())
def test_pairs_agree_with_the_core_index_maps(config):
    shape, bs, order, direction = config
    x, y, fig = build(shape, bs, order, direction)
    maps = depth_to_space_map if direction == "depth_to_space" else space_to_depth_map
    flat_map = maps(shape, bs, order).ravel()
    custom = np.asarray(trace(fig, "scatter", "input").customdata).astype(np.int64)
    np.testing.assert_array_equal(flat_map[custom[:, Column.OUT_FLAT]], custom[:, Column.IN_FLAT])


@settings(max_examples=40)
@given(configurations(), st.data())
def test_describe_pick_agrees_with_the_core_index_map(config, data):
    shape, bs, order, direction = config
    pick = data.draw(st.integers(0, math.prod(shape) - 1))
    maps = depth_to_space_map if direction == "depth_to_space" else space_to_depth_map
    flat_map = maps(shape, bs, order)
    source, destination, out_flat = describe_pick((pick,), shape, bs, order, direction)
    assert flat_map.ravel()[out_flat] == pick
    assert source == tuple(int(i) for i in np.unravel_index(pick, shape))
    assert destination == tuple(int(i) for i in np.unravel_index(out_flat, flat_map.shape))


def test_describe_pick_out_of_range_is_none():
    assert describe_pick((48,), (1, 8, 2, 3), 2, "DCR", "depth_to_space") is None
    assert describe_pick(None, (1, 8, 2, 3), 2, "DCR", "depth_to_space") is None


def test_cells_are_colored_by_their_source_channel():
    x, y, fig = build((1, 8, 2, 3), 2, "DEPTH_COLUMN_ROW", "depth_to_space")
    inputs, outputs = trace(fig, "heatmap", "input"), trace(fig, "heatmap", "output")
    points_in, points_out = trace(fig, "scatter", "input"), trace(fig, "scatter", "output")
    for k, row in enumerate(points_out.customdata):
        assert canvas_value(outputs, points_out.y[k], points_out.x[k]) == row[Column.IN_C]
    for k, row in enumerate(points_in.customdata):
        assert canvas_value(inputs, points_in.y[k], points_in.x[k]) == row[Column.IN_C]
    assert inputs.zmin == outputs.zmin and inputs.zmax == outputs.zmax


def test_labels_are_the_values_of_the_cells():
    x, y, fig = build((1, 8, 2, 3), 2, "COLUMN_ROW_DEPTH", "depth_to_space")
    points = trace(fig, "scatter", "output")
    for row, label in zip(points.customdata, points.text):
        assert int(label) == y[tuple(row[OUTPUT_POSITION])] == x[tuple(row[INPUT_POSITION])]


def frame_shown(fig, k):
    """Output elements (flat) that frame k shows written: their step is at or below the cover's threshold."""
    cover = fig.data[Trace.COVER]
    scale = fig.frames[k].data[0].colorscale
    points = trace(fig, "scatter", "output")
    shown = set()
    for row, cx, cy in zip(points.customdata, points.x, points.y):
        step = canvas_value(cover, cy, cx)
        position = (step - cover.zmin) / (cover.zmax - cover.zmin)
        color = [c for p, c in scale if p <= position][-1]
        if color.endswith(",0)"):
            shown.add(int(row[Column.OUT_FLAT]))
    return shown


def test_frames_fill_the_output_one_input_channel_at_a_time_and_orders_differ():
    _, y, dcr = build((1, 8, 2, 3), 2, "DEPTH_COLUMN_ROW", "depth_to_space")
    _, _, crd = build((1, 8, 2, 3), 2, "COLUMN_ROW_DEPTH", "depth_to_space")
    assert len(dcr.frames) == len(crd.frames) == 8
    grows = [frame_shown(dcr, k) for k in range(8)]
    assert all(len(s) == 6 * (k + 1) for k, s in enumerate(grows))
    assert all(a < b for a, b in zip(grows, grows[1:]))
    # After the first frame DCR has written block position (0, 0) of both output channels, CRD channel 0 only.
    flats = lambda mask: set(np.flatnonzero(mask).tolist())  # noqa: E731
    rows, cols = np.indices((4, 6))
    top_left = (rows % 2 == 0) & (cols % 2 == 0)
    assert frame_shown(dcr, 1) == flats(np.stack([top_left, top_left])[None])
    assert frame_shown(crd, 3) == flats(np.stack([np.ones((4, 6), bool), np.zeros((4, 6), bool)])[None])


def test_cover_colorscale_threshold():
    assert cover_colorscale(4, 5) == [[0.0, "rgba(0,0,0,0)"], [1.0, "rgba(0,0,0,0)"]]
    scale = cover_colorscale(1, 4)
    assert scale[1] == [0.5, "rgba(0,0,0,0)"] and scale[2][0] == 0.5


@pytest.mark.parametrize("shape, bs", [((1, 4096, 1, 1), 1), ((1, 64, 32, 32), 2), ((3, 16, 64, 64), 4)])
def test_render_caps_hold_for_big_tensors(shape, bs):
    x, y, fig = build(shape, bs, "DEPTH_COLUMN_ROW", "depth_to_space", dtype="UINT8")
    for name in ("input", "output"):
        heat = trace(fig, "heatmap", name)
        assert np.count_nonzero(~np.isnan(np.asarray(heat.z, dtype=float))) <= MAX_CELLS
        assert len(trace(fig, "scatter", name).x) <= MAX_CELLS
    assert 1 <= len(fig.frames) <= MAX_FRAMES
    assert figure_json_size(fig) <= 2_000_000


@settings(max_examples=80)
@given(st.tuples(st.integers(1, 4), st.integers(1, 300), st.integers(1, 200), st.integers(1, 200)),
       st.integers(1, 8), st.integers(0, 500), st.integers(0, 500), st.integers(0, 500), st.integers(0, 5))
def test_drawn_window_stays_in_the_tensor_and_the_cap(shape, bs, c0, r0, q0, batch):
    depth = (shape[0], shape[1] * bs * bs, shape[2], shape[3])
    window = drawn_window(depth, bs, batch, c0, r0, q0)
    assert 1 <= window.cells <= MAX_CELLS
    assert 0 <= window.batch < depth[0]
    assert 0 <= window.channels.start and window.channels.stop <= shape[1]
    assert window.rows.stop <= depth[2] and window.cols.stop <= depth[3]
    if math.prod(depth[1:]) <= MAX_CELLS and (c0, r0, q0) == (0, 0, 0):
        assert window.cells == math.prod(depth[1:])


def test_a_later_window_draws_the_chosen_part():
    x = make_values("coded", (2, 64, 32, 32), "UINT16")
    y = depth_to_space(x, 4, "DEPTH_COLUMN_ROW")
    depth_shape, _ = side_shapes(x.shape, 4, "depth_to_space")
    window = drawn_window(depth_shape, 4, batch=1, first_channel=2, first_row=5, first_col=7)
    fig = depth_space_figure(x, y, 4, "DEPTH_COLUMN_ROW", "depth_to_space", window)
    custom = np.asarray(trace(fig, "scatter", "output").customdata).astype(np.int64)
    assert set(custom[:, Column.OUT_N]) == {1} and custom[:, Column.OUT_C].min() == 2
    assert custom[:, Column.IN_H].min() == 5 and custom[:, Column.IN_W].min() == 7  # input rows / columns
    np.testing.assert_array_equal(y.ravel()[custom[:, Column.OUT_FLAT]], x.ravel()[custom[:, Column.IN_FLAT]])


def test_pick_draws_outlines_at_the_source_and_destination_cells():
    _, _, fig = build((1, 8, 2, 3), 2, "DEPTH_COLUMN_ROW", "depth_to_space", pick=(11,))
    shapes = {s.name: s for s in fig.layout.shapes}
    points_in, points_out = trace(fig, "scatter", "input"), trace(fig, "scatter", "output")
    i = [int(r[Column.IN_FLAT]) for r in points_in.customdata].index(11)
    j = [int(r[Column.IN_FLAT]) for r in points_out.customdata].index(11)
    assert f"M{points_in.x[i] - 0.5},{points_in.y[i] - 0.5} " in shapes["pick-source"].path
    assert f"M{points_out.x[j] - 0.5},{points_out.y[j] - 0.5} " in shapes["pick-destination"].path
    _, _, plain = build((1, 8, 2, 3), 2, "DEPTH_COLUMN_ROW", "depth_to_space")
    assert not plain.layout.shapes


def test_pick_from_selection_reads_lists_and_typed_array_objects():
    row = [0] * len(Column)
    row[Column.IN_FLAT] = 11
    assert pick_from_selection({"points": [{"customdata": row}]}) == (11,)
    assert pick_from_selection({"points": [{"customdata": {str(i): v for i, v in enumerate(row)}}]}) == (11,)
    assert pick_from_selection({"points": []}) is None
    assert pick_from_selection(None) is None


def test_layout_conventions():
    _, _, fig = build((1, 8, 2, 3), 2, "DEPTH_COLUMN_ROW", "depth_to_space")
    assert row_zero_on_top(fig.to_dict()["layout"]["yaxis"])
    assert fig.layout.yaxis.scaleanchor == "x"
    assert fig.layout.paper_bgcolor is None and fig.layout.plot_bgcolor is None
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["Play", "Pause"]
    assert fig.layout.sliders[0].active == len(fig.frames) - 1  # the full output shows first


def test_invalid_arguments_raise_descriptor_errors():
    x = make_values("coded", (1, 8, 2, 3), "UINT32")
    with pytest.raises(DescriptorError, match="BlockSize 3"):
        side_shapes(x.shape, 3, "depth_to_space")
    with pytest.raises(DescriptorError, match="direction"):
        side_shapes(x.shape, 2, "sideways")
    with pytest.raises(DescriptorError, match="BlockSize 65"):
        drawn_window((1, 65 * 65, 1, 1), 65)


@settings(max_examples=40)
@given(configurations(), st.data())
def test_a_picks_link_crosses_no_cell(config, data):
    """The link from a picked cell to where it lands runs through the gutters between tiles: no cell's number is
    struck through (the two ends only touch their own tiles' edges)."""
    shape, bs, order, direction = config
    pick = data.draw(st.integers(0, math.prod(shape[1:]) - 1))  # batch 0 is drawn
    _, _, fig = build(shape, bs, order, direction, pick=(pick,))
    link = next(s for s in fig.to_dict()["layout"]["shapes"] if s["name"] == "pick-link")
    cells = {(int(r), int(c)) for role in (Trace.INPUT_CELLS, Trace.OUTPUT_CELLS)
             for r, c in zip(fig.data[role].y, fig.data[role].x)}
    assert not struck_cells(link["path"], cells)
