"""Figures of the Layouts page: the copy animation and the logical tensor, against the core's copy."""

import json

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.descriptors.layouts import copy_order, identity_descs, logical_tensor
from ops.tensor_desc import element_offsets
from support.figures import changed_traces, figure_json_size
from viz.common import MAX_FRAMES
from viz.layouts_fig import NOW, Trace, copy_figure, frame_steps, layout_columns, logical_figure
from viz.memory_map_fig import COLORS, ONCE, UNTOUCHED
from viz.spec import decode_typed_array


def _z(value):
    return decode_typed_array(value) if isinstance(value, dict) else np.array(value, dtype=float)


@settings(max_examples=50)
@given(st.integers(0, 5000), st.integers(2, 64))
def test_frame_steps_run_from_nothing_to_everything(count, max_frames):
    done = frame_steps(count, max_frames)
    assert done[0] == 0 and done[-1] == count
    assert len(done) <= max_frames and all(a < b for a, b in zip(done, done[1:])) or count == 0


def _nhwc():
    inp, out = ops.layout_preset("NCHW -> NHWC", "UINT16")
    source = np.arange(24, dtype=np.uint16)
    return inp, out, source, copy_order(inp, out)


def test_copy_animation_ends_with_the_core_output_and_colors_every_written_cell():
    inp, out, source, steps = _nhwc()
    figure = copy_figure(steps, source, np.zeros(24, np.uint16), 4, 12).to_dict()
    expected = ops.element_wise_identity(source, inp, out)
    final = changed_traces(figure["frames"][-1])[Trace.OUTPUT]
    assert [t for row in final["text"] for t in row] == [str(v) for v in expected.tolist()]
    assert np.isin(_z(final["z"]), [ONCE, NOW]).all()
    first = changed_traces(figure["frames"][0])
    assert (_z(first[Trace.INPUT]["z"]) == UNTOUCHED).all() and (_z(first[Trace.OUTPUT]["z"]) == UNTOUCHED).all()
    assert len(figure["frames"]) <= MAX_FRAMES
    assert figure["layout"]["yaxis"]["autorange"] == figure["layout"]["yaxis2"]["autorange"] == "reversed"
    # Frame 1 copies output element 0 from input element 0, frame 2 output 1 from input 8 (channel 1, H*W = 8).
    second = _z(changed_traces(figure["frames"][2])[Trace.INPUT]["z"]).ravel()
    assert second[8] == NOW and second[0] == ONCE


def test_copy_hover_names_the_logical_index_of_each_output_cell():
    inp, out, source, steps = _nhwc()
    hover = copy_figure(steps, source, np.zeros(24, np.uint16), 4, 12).to_dict()["data"][Trace.OUTPUT]["customdata"]
    flat = [h for row in hover for h in row]
    assert flat[1] == "output element 1<br>written by [0, 1, 0, 0] from input element 8"


def test_untouched_output_cells_keep_their_previous_value_and_say_so():
    inp, out = ops.layout_preset("pad by 1", "INT8")
    source = np.arange(1, 13, dtype=np.int8)
    steps = copy_order(inp, out)
    figure = copy_figure(steps, source, np.full(16, -1, np.int8), 4, 4).to_dict()
    text = [t for row in changed_traces(figure["frames"][-1])[Trace.OUTPUT]["text"] for t in row]
    assert text[3] == "-1" and text[4] == "4"
    hover = [h for row in figure["data"][Trace.OUTPUT]["customdata"] for h in row]
    assert hover[3].endswith("never written: keeps its bytes")
    assert figure["data"][Trace.KEY_UNTOUCHED]["marker"]["color"] == COLORS[UNTOUCHED]


def test_logical_figure_colors_by_source_and_tells_both_offsets():
    inp, out = ops.layout_preset("broadcast a row", "FLOAT32")
    in_desc, out_desc = identity_descs(inp, out)
    buffer = np.array([1.5, 2.5, 3.5, 4.5], np.float32)
    logical = logical_tensor(buffer, inp)
    sources = element_offsets(in_desc.Sizes, in_desc.Strides)
    destinations = element_offsets(out_desc.Sizes, out_desc.Strides)
    figure = logical_figure(logical, sources, destinations).to_dict()
    z = _z(figure["data"][0]["z"])
    assert z.tolist() == [[0, 1, 2, 3]] * 3  # every row read from the same four input elements
    assert figure["data"][0]["customdata"][2][1] == ("index [2, 1]<br>value 2.5<br>read from input element 1<br>"
                                                     "written to output element 9")
    assert figure["layout"]["yaxis"]["ticktext"] == ["[0]", "[1]", "[2]"]


def test_logical_figure_refuses_more_cells_than_it_draws():
    with pytest.raises(ValueError, match="at most 4096"):
        logical_figure(np.zeros((65, 64)), np.zeros((65, 64), int), np.zeros((65, 64), int))


@pytest.mark.parametrize("sizes, strides, cells, columns", [
    ((3, 4), (1, 3), 12, 3),  # transposed: a drawn row is a row of the transpose
    ((1, 3, 2, 4), (24, 1, 12, 3), 24, 12),  # NHWC: a row holds W*C
    ((1, 1, 3, 3), (16, 16, 4, 1), 16, 4),  # padded rows of 4
    ((2, 3), (5, 1), 20, 5),  # a window of rows of 5
])
def test_layout_columns_follow_the_layout(sizes, strides, cells, columns):
    assert layout_columns(sizes, strides, cells) == columns


def test_page_cap_figures_stay_small():
    inp = {"DataType": "FLOAT64", "Sizes": [32, 32]}
    out = {"DataType": "FLOAT64", "Sizes": [32, 32], "Strides": [1, 128]}
    source = np.random.default_rng(0).random(1024)
    steps = copy_order(inp, out)
    after = ops.element_wise_identity(source, inp, out)
    figure = copy_figure(steps, source, np.zeros_like(after), 32, 64)
    assert figure_json_size(figure) < 1_000_000  # one byte per cell per frame: about 0.8 MB here
    assert figure.to_dict()["layout"]["meta"]["frames"] <= MAX_FRAMES


@pytest.mark.parametrize("name", list(ops.LAYOUT_PRESETS))
def test_specs_are_what_plotly_itself_writes(name):
    """go.Figure validates each spec against plotly's schema and writes the same JSON
    (tests/figures/test_figures_spec.py)."""
    inp, out = ops.layout_preset(name, "FLOAT16")
    in_desc, out_desc = identity_descs(inp, out)
    source = np.arange(in_desc.buffer_elements, dtype=np.float16)
    logical = logical_tensor(source, inp)
    figures = [
        copy_figure(copy_order(inp, out), source, np.zeros(out_desc.buffer_elements, np.float16), 4, 4),
        logical_figure(logical, element_offsets(in_desc.Sizes, in_desc.Strides),
                       element_offsets(out_desc.Sizes, out_desc.Strides)),
    ]
    for figure in figures:
        written = json.loads(pio.to_json(figure.to_dict(), validate=False, engine="json"))
        assert json.loads(pio.to_json(figure.checked(), validate=False)) == written
