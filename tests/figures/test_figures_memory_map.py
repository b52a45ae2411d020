"""The memory map and run heatmaps: pure figure builders checked against the core's own memory map."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from app_pages.workbench.reading import size_arithmetic
from app_pages.workbench.settings import PRESETS
from ops import buffer_tensor_size
from ops.datatypes import element_size
from ops.tensor_desc import memory_map
from support.figures import row_zero_on_top
from support.specs import make_tensor_desc
from viz.memory_map_fig import (
    ONCE,
    SHARED,
    UNTOUCHED,
    default_columns,
    memory_map_figure,
)
from viz.workbench_fig import color_limits, tensor_heatmap


def codes(figure):
    """Category code per drawn cell, in buffer order (NaN cells past the end dropped)."""
    z = np.asarray(figure.data[0].z, dtype=float).ravel()
    return z[~np.isnan(z)].astype(int)


def legend(figure):
    return [trace.name for trace in figure.data[1:]]


def expected_codes(desc, unit="element"):
    """Categories from ops.descriptors.tensor_desc.memory_map, an independent implementation of the same idea."""
    counts = memory_map(desc).counts[: desc.TotalTensorSizeInBytes // desc.element_size]
    category = np.where(counts == 0, UNTOUCHED, np.where(counts == 1, ONCE, SHARED))
    if unit == "byte":
        category = np.repeat(category, desc.element_size)
    return category


def figure_for(desc, **kwargs):
    return memory_map_figure(desc.Sizes, desc.Strides, desc.element_size, desc.TotalTensorSizeInBytes, **kwargs)


def test_broadcast_shows_each_element_read_many_times():
    desc = make_tensor_desc("UINT32", *PRESETS["broadcast (0 strides)"])
    figure = figure_for(desc)
    assert list(codes(figure)) == [SHARED] * 4
    assert legend(figure) == ["read many times: broadcast"]
    hover = np.asarray(figure.data[0].customdata).ravel()
    # element 2 is read by every (c, h) with w = 2: 2 * 3 = 6 logical indices
    assert hover[2].startswith("element 2 (bytes 8..11)<br>read by 6: [0, 0, 0, 2], [0, 0, 1, 2]")
    assert np.asarray(figure.data[0].text).ravel()[2] == "×6"


def test_padded_rows_leave_untouched_cells_at_the_row_ends():
    desc = make_tensor_desc("UINT32", *PRESETS["padded rows"])
    figure = figure_for(desc)
    assert default_columns(desc.Sizes, desc.Strides) == 6
    grid = np.asarray(figure.data[0].z, dtype=float)
    assert grid.shape == (3, 6)
    # rows of 4 elements with a pitch of 6: two padding cells end rows 0 and 1; the buffer ends after row 2's data
    assert np.array_equal(grid[:2, 4:], np.full((2, 2), UNTOUCHED))
    assert np.isnan(grid[2, 4:]).all() and (grid[:, :4] == ONCE).all()
    assert legend(figure) == ["never touched: padding", "read once"]


def test_nhwc_strides_interleave_channels_in_each_row():
    desc = make_tensor_desc("FLOAT32", *PRESETS["NHWC expressed with strides"])
    figure = figure_for(desc)
    labels = np.asarray(figure.data[0].text)
    assert labels.shape == (2, 12)
    # SPEC 1: a stride of 1 on C puts the three channels of one pixel side by side
    assert list(labels[0, :4]) == ["0,0,0", "1,0,0", "2,0,0", "0,0,1"]


def test_overlapping_output_is_a_conflict_with_its_own_legend():
    desc = make_tensor_desc("UINT8", [2, 3], [1, 1])
    figure = figure_for(desc, role="output")
    assert "written more than once: conflict" in legend(figure)
    assert list(codes(figure)) == list(expected_codes(desc))


def test_byte_cells_show_the_round_up_to_four_bytes():
    # SPEC 1: FLOAT16 Sizes [3] -> 6 bytes -> 8
    desc = make_tensor_desc("FLOAT16", [3])
    figure = figure_for(desc, unit="byte")
    assert list(codes(figure)) == [ONCE] * 6 + [UNTOUCHED] * 2
    assert "all 8 bytes drawn" in figure.layout.title.text


def test_large_buffer_draws_a_capped_prefix_and_says_so():
    desc = make_tensor_desc("FLOAT32", [100, 100])
    figure = figure_for(desc)
    assert codes(figure).size == 4096
    assert "first 4,096 of 10,000 elements drawn" in figure.layout.title.text


def test_too_many_logical_elements_give_a_note_instead_of_a_map():
    figure = memory_map_figure([2048, 1024], None, 1, 2048 * 1024)
    assert "2,097,152 logical elements: too many to map" in figure.layout.annotations[0].text
    assert not figure.data


def test_row_zero_on_top_and_square_cells():
    figure = figure_for(make_tensor_desc("UINT32", [2, 3]))
    assert figure.layout.yaxis.autorange == "reversed"
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis.scaleratio == 1


def test_declared_size_beyond_the_implied_one_is_padding():
    desc = make_tensor_desc("UINT32", [2, 2], TotalTensorSizeInBytes=32)
    assert list(codes(figure_for(desc))) == [ONCE] * 4 + [UNTOUCHED] * 4


descs = st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.sampled_from(["UINT8", "FLOAT16", "UINT32", "INT64"]),
    st.lists(st.integers(1, 5), min_size=n, max_size=n),
    st.one_of(st.none(), st.lists(st.integers(0, 7), min_size=n, max_size=n)),
    st.sampled_from(["element", "byte"]),
))


@given(descs)
def test_every_cell_agrees_with_the_core_memory_map(case):
    data_type, sizes, strides, unit = case
    desc = make_tensor_desc(data_type, sizes, strides)
    figure = figure_for(desc, unit=unit, role="output")
    expected = expected_codes(desc, unit)[:4096]
    assert list(codes(figure)) == list(expected)
    total_cells = desc.TotalTensorSizeInBytes // (1 if unit == "byte" else desc.element_size)
    assert codes(figure).size == min(total_cells, 4096)


@given(st.lists(st.integers(1, 9), min_size=1, max_size=6).flatmap(
    lambda sizes: st.tuples(st.just(sizes), st.one_of(st.none(), st.lists(st.integers(0, 50), min_size=len(sizes),
                                                                            max_size=len(sizes))))),
       st.sampled_from(["FLOAT16", "FLOAT32", "UINT8", "INT64"]))
def test_size_arithmetic_ends_at_the_cores_buffer_size(shape, data_type):
    sizes, strides = shape
    lines, implied = size_arithmetic(data_type, sizes, strides)
    assert implied == buffer_tensor_size(data_type, sizes, strides)
    assert lines[-1] == f"bytes = round_up(bytes, 4) = {implied}"
    assert f"* {element_size(data_type)} ({data_type})" in lines[-2]


def test_size_arithmetic_reproduces_the_spec_examples():
    assert size_arithmetic("FLOAT16", [3])[1] == 8
    lines, implied = size_arithmetic("FLOAT32", [1, 1, 2, 3], [6, 6, 3, 1])
    assert implied == 24
    assert lines[0].endswith("(1-1)*6 + (1-1)*6 + (2-1)*3 + (3-1)*1 = 5")


def test_heatmap_lays_a_tensor_out_as_tiles_of_its_last_two_dimensions():
    x = np.arange(48, dtype=np.uint32).reshape(1, 2, 4, 6)
    figure = tensor_heatmap(x, "t")
    z = np.asarray(figure.data[0].z, dtype=float)
    labels = [a.text for a in figure.layout.annotations]
    assert labels == ["[0, 0, :, :]", "[0, 1, :, :]"]
    # each tile sits below its label row, row 0 on top; the rest of the canvas is empty
    tops = [int(a.y) + 1 for a in figure.layout.annotations]
    lefts = [int(a.x + 0.5) for a in figure.layout.annotations]
    for channel, (top, left) in enumerate(zip(tops, lefts)):
        assert np.array_equal(z[top:top + 4, left:left + 6], x[0, channel])
    assert np.count_nonzero(~np.isnan(z)) == 48
    hover = np.asarray(figure.data[0].customdata)
    assert hover[tops[1] + 2, lefts[1] + 5] == f"[0, 1, 2, 5] = {x[0, 1, 2, 5]}"
    assert row_zero_on_top(figure.to_dict()["layout"]["yaxis"]) and figure.layout.yaxis.scaleanchor == "x"


def test_heatmap_keeps_nan_uncolored_and_labels_it():
    x = np.array([1.0, np.nan, np.inf], dtype=np.float32)
    figure = tensor_heatmap(x)
    z = np.asarray(figure.data[0].z, dtype=float)
    assert z.shape == (1, 3) and np.isnan(z[0, 1]) and np.isnan(z[0, 2])
    assert list(np.asarray(figure.data[0].text)[0]) == ["1", "nan", "inf"]


def test_heatmap_caps_the_drawn_elements():
    figure = tensor_heatmap(np.zeros((100, 100)), "big")
    assert np.count_nonzero(~np.isnan(np.asarray(figure.data[0].z, dtype=float))) == 4000
    assert "first 4,000 of 10,000 elements drawn" in figure.layout.title.text
    tiles = tensor_heatmap(np.zeros((50, 10, 10)), "tiles")
    assert np.count_nonzero(~np.isnan(np.asarray(tiles.data[0].z, dtype=float))) == 4000
    assert "first 4,000 of 5,000 elements drawn" in tiles.layout.title.text


def test_before_and_after_share_one_color_scale():
    before, after = np.zeros(4), np.array([1.0, 5.0, np.nan, 3.0])
    assert color_limits(before, after) == (0.0, 5.0)
    assert color_limits(np.full(3, 7.0)) == (6.5, 7.5)


def test_default_row_width_lines_padding_up_at_the_row_ends():
    # the CRD example's input: channel pitch 9 for 2 x 3 elements, so 3 padding elements end every row
    assert default_columns([1, 8, 2, 3], [72, 9, 3, 1], 69) == 9
    assert default_columns([1, 8, 2, 3]) == 6
    assert default_columns([1, 2, 3, 4], [0, 0, 0, 1]) == 4
