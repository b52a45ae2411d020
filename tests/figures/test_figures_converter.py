"""The converter figure: a two-row mapping x -> x[:, P] that draws exactly P, prints every index, puts x on top and
colors both ends of a line alike, with colors distinguishable under color vision deficiencies."""

import json

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.operators.depth_space import depth_to_space
from viz.converter_fig import CVD_SAFE, MAX_DRAWN_CHANNELS, block_positions, converter_figure, group_colors

ORDERS = ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")


def parts(figure):
    spec = json.loads(pio.to_json(figure.to_dict(), validate=False))
    rows = {t["name"]: t for t in spec["data"] if t.get("mode") == "markers+text"}
    lines = [t for t in spec["data"] if t.get("mode") == "lines"]
    return spec, rows, lines


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.sampled_from(ORDERS), st.sampled_from(ORDERS))
def test_lines_join_x_channel_p_k_to_position_k_and_share_its_color(bs, c_out, source, target):
    channels = c_out * bs * bs
    p = ops.channel_permutation(channels, bs, source, target)
    spec, rows, lines = parts(converter_figure(p, bs, source, target))
    top, bottom = rows["x"], rows["x[:, P]"]
    assert top["text"] == bottom["text"] == [str(i) for i in range(channels)]
    assert set(top["y"]) == {0} and set(bottom["y"]) == {3} and spec["layout"]["yaxis"]["autorange"] == "reversed"
    joined = {}
    for line in lines:
        for start in range(0, len(line["x"]), 3):
            k = line["x"][start + 1]
            joined[k] = line["x"][start]
            assert line["y"][start] < line["y"][start + 1]  # from x (row 0, drawn on top) down to x[:, P]
            assert line["line"]["color"] == top["marker"]["color"][line["x"][start]] == bottom["marker"]["color"][k]
    assert [joined[k] for k in range(channels)] == p.tolist()


@pytest.mark.parametrize("source, target", [(s, t) for s in ORDERS for t in ORDERS])
def test_both_ends_of_a_line_land_at_the_same_output_position(source, target):
    # The figure's hover and colors claim that target puts x[:, P]'s channel k where source puts x's channel P[k].
    channels, bs = 18, 3
    p = ops.channel_permutation(channels, bs, source, target)
    where_source = np.stack(block_positions(channels, bs, source), axis=1)
    where_target = np.stack(block_positions(channels, bs, target), axis=1)
    np.testing.assert_array_equal(where_target, where_source[p])
    # ... and block_positions is what depth_to_space does: one channel at a time lands at (c', bh, bw).
    for c in range(channels):
        x = np.zeros((1, channels, 1, 1), np.uint8)
        x[0, c] = 1
        c_out, bh, bw = np.argwhere(depth_to_space(x, bs, source)[0])[0]
        assert (c_out, bh, bw) == tuple(where_source[c])


def test_the_seed_case_has_a_legend_entry_per_block_position_and_hover_for_every_cell():
    spec, rows, lines = parts(converter_figure(ops.channel_permutation(8, 2, "CRD", "DCR"), 2, "CRD", "DCR"))
    assert [line["name"] for line in lines] == ["block (0, 0)", "block (0, 1)", "block (1, 0)", "block (1, 1)"]
    assert rows["x[:, P]"]["hovertext"][1] == ("x[:, P] channel 1 = x channel 4<br>DCR puts it at output channel 1, "
                                               "block (row 0, column 0)")
    assert spec["layout"]["yaxis"]["ticktext"] == ["x  (CRD reads)", "x[:, P]  (DCR reads)"]


def test_colors_come_from_the_cvd_safe_palette_then_cividis_with_readable_ink():
    assert group_colors(4) == list(CVD_SAFE[:4])
    many = group_colors(16)
    assert len(set(many)) == 16 and all(c.startswith("rgb(") for c in many)
    _, rows, _ = parts(converter_figure(ops.channel_permutation(16, 4, "DCR", "CRD"), 4, "DCR", "CRD"))
    ink = rows["x"]["textfont"]["color"]
    assert ink[0] == "#FFFFFF" and ink[-1] == "#000000"  # cividis runs from dark blue to light yellow
    assert rows["x"]["hoverlabel"]["font"]["color"] == ink  # the hover box takes the cell's color


def test_too_many_channels_give_a_note_instead_of_a_drawing():
    p = ops.channel_permutation(MAX_DRAWN_CHANNELS * 4, 2, "CRD", "DCR")
    spec, rows, _ = parts(converter_figure(p, 2, "CRD", "DCR"))
    assert not rows and "draws up to 64" in spec["layout"]["annotations"][0]["text"]
