"""SpecFigure: the builders' dicts are plotly's own JSON, survive being shown unchanged, and take picks on copies."""

import copy
import json
import pickle

import numpy as np
import plotly.io as pio
import pytest
import streamlit as st
from _plotly_utils.utils import to_typed_array_spec
from hypothesis import given
from hypothesis import strategies as st_
from hypothesis.extra import numpy as hnp

from ops.operators.bitwise import bit_or
from ops.operators.depth_space import depth_to_space, space_to_depth
from ui.charts import chart_data
from viz import bitwise_fig, depth_space_fig, split_join_fig
from viz.common import empty_figure
from viz.export import chart_config
from viz.memory_map_fig import memory_map_figure
from viz.spec import SpecFigure, decode_typed_array, typed_array
from viz.workbench_fig import tensor_heatmap

OR = "ELEMENT_WISE_BIT_OR"  # the operator the figures draw unless a test names another

ENGINES = ("json", "orjson")


def as_json(figure):
    return pio.to_json(figure.to_dict(), validate=False, engine="json")


def depth_space(shape=(1, 8, 2, 3), bs=2, order="DCR", direction="depth_to_space", **kwargs):
    x = np.arange(np.prod(shape), dtype=np.uint32).reshape(shape)
    run = depth_to_space if direction == "depth_to_space" else space_to_depth
    return depth_space_fig.depth_space_figure(x, run(x, bs, order), bs, order, direction, **kwargs)


def bitwise(a, **kwargs):
    b = a[::-1].copy()
    return bitwise_fig.bitwise_figure(a, b, bit_or(a, b), **kwargs, op=OR)


def split_join(shape=(1, 1, 6, 2), axis=2, sizes=(2, 1, 3), **kwargs):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + 1
    return split_join_fig.split_join_figure(x, axis, list(sizes), **kwargs)


# Every builder, at small sizes and at the drawing cap, with and without a pick, and both empty-ish extremes.
FIGURES = {
    "depth_space": lambda: depth_space(pick=(11,)),
    "depth_space cap, turbo": lambda: depth_space((1, 256, 4, 4)),
    "space_to_depth": lambda: depth_space((1, 2, 4, 6), order="CRD", direction="space_to_depth"),
    "bitwise float32": lambda: bitwise(np.array([1.0, 2.0, -0.0, np.nan], np.float32), pick=(1, 30)),
    "bitwise cap uint32": lambda: bitwise(np.arange(300, dtype=np.uint32), rows=128),
    "bitwise uint8 no fields": lambda: bitwise(np.arange(3, dtype=np.uint8)),
    "split_join": lambda: split_join(pick=(0, 0, 3, 1)),
    "split_join cap": lambda: split_join((1, 1, 64, 64), 2, (16, 16, 32)),
    "split_join 1-D": lambda: split_join((7,), 0, (3, 4)),
    "memory_map broadcast": lambda: memory_map_figure([1, 2, 3, 4], [0, 0, 0, 1], 4, 16, role="output"),
    "memory_map bytes": lambda: memory_map_figure([3], None, 2, 8, unit="byte"),
    "memory_map too many": lambda: memory_map_figure([2048, 1024], None, 1, 2048 * 1024),
    "tensor_heatmap tiles": lambda: tensor_heatmap(np.arange(48, dtype=np.uint32).reshape(1, 2, 4, 6), "t"),
    "tensor_heatmap nan": lambda: tensor_heatmap(np.array([1.0, np.nan, np.inf]), zrange=(0, 5)),
    "empty": lambda: empty_figure("nothing"),
}


@pytest.fixture(params=sorted(FIGURES))
def figure(request):
    return FIGURES[request.param]()


def test_the_spec_is_what_plotly_itself_writes_for_it(figure):
    """go.Figure validates the spec against plotly's schema (it raises otherwise) and its own to_dict gives the
    same JSON: same keys, arrays encoded to the same typed arrays, same template."""
    assert isinstance(figure, SpecFigure)
    checked = figure.checked()
    assert json.loads(pio.to_json(checked, validate=False)) == json.loads(as_json(figure))


def test_cached_size_counts_at_least_the_json(figure):
    assert figure.cached_size >= len(as_json(figure))


def json_types_only(value):
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_types_only(v) for k, v in value.items())
    if isinstance(value, list):
        return all(json_types_only(v) for v in value)
    return value is None or type(value) in (str, int, float, bool)


def test_showing_a_figure_leaves_its_spec_as_it_was(figure):
    """What ui.charts.show's component data, st.plotly_chart (the greyed last valid views), plotly.io and debugging
    do with a (possibly shared, cached) figure changes nothing."""
    spec = figure.to_dict()
    assert json_types_only(spec)  # nothing numpy: orjson takes it as it is, without plotly's cleaning pass
    frozen, text = copy.deepcopy(spec), as_json(figure)
    st.plotly_chart(figure, theme="streamlit", key="spec_test", on_select="rerun", selection_mode="points")
    st.plotly_chart(figure)
    sent = json.loads(chart_data(figure, chart_config("spec_test"), "spec test", True))
    for engine in ENGINES:
        pio.to_json(figure, engine=engine)
        pio.to_json(spec, validate=False, engine=engine)
    figure.to_json()
    figure.to_plotly_json()
    repr(figure)
    pickle.dumps(figure)
    _ = figure.data, figure.layout, figure.frames, figure["layout.height"]
    assert figure.to_dict() is spec
    assert spec == frozen
    assert as_json(figure) == text
    assert sent["figure"] == {"frames": [], **json.loads(text)}  # the component draws the figure as it is
    # The engines differ only in escaping (json writes non-ASCII as \u escapes, orjson as UTF-8).
    assert json.loads(pio.to_json(spec, validate=False, engine="orjson")) == json.loads(text)


def test_editing_is_refused_and_changes_nothing():
    figure = depth_space()
    text = as_json(figure)
    for edit in (lambda: figure.update_layout(height=300), lambda: figure.add_trace({"type": "scatter"}),
                 lambda: figure.for_each_trace(print), lambda: figure.__setitem__("layout.height", 300)):
        with pytest.raises(TypeError, match="read-only"):
            edit()
    with pytest.raises(AttributeError):
        figure.layout = {}
    assert as_json(figure) == text


def test_a_pickled_figure_keeps_its_spec_and_its_picks():
    figure = depth_space()
    restored = pickle.loads(pickle.dumps(figure))
    assert restored.to_dict() == figure.to_dict()
    assert as_json(depth_space_fig.with_pick(restored, (11,))) == as_json(depth_space(pick=(11,)))


@given(hnp.arrays(st_.sampled_from([np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
                                    np.float16, np.float32, np.float64, np.bool_]),
                  hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5)))
def test_typed_arrays_are_plotlys_own_encoding(values):
    ours = typed_array(values)
    # The json engine: orjson writes float16 arrays, which neither side makes typed, with fewer digits.
    assert pio.json.to_json_plotly(ours, engine="json") == \
        pio.json.to_json_plotly(to_typed_array_spec(values), engine="json")
    if isinstance(ours, dict):
        np.testing.assert_array_equal(decode_typed_array(ours), values)


def test_text_arrays_become_lists():
    assert typed_array(np.array([["a", "b"]], dtype=object)) == [["a", "b"]]


# Picks drawn on a copy of the plain figure: exactly the figure built with the pick, the plain one untouched.

def check_overlay(plain, with_pick, pick, built):
    text = as_json(plain)
    overlaid = with_pick(plain, pick)
    assert as_json(overlaid) == as_json(built)
    assert overlaid.to_dict()["data"] is plain.to_dict()["data"]  # the traces are shared, not copied
    assert as_json(plain) == text
    assert as_json(with_pick(overlaid, None)) == text  # a pick replaces the previous one


@given(st_.sampled_from([((1, 8, 2, 3), 2, "depth_to_space"), ((1, 2, 4, 6), 2, "space_to_depth"),
                         ((2, 9, 2, 2), 3, "depth_to_space")]),
       st_.sampled_from(["DCR", "CRD"]), st_.integers(-1, 80))
def test_depth_space_pick_overlay(config, order, pick):
    shape, bs, direction = config
    plain = depth_space(shape, bs, order, direction)
    check_overlay(plain, depth_space_fig.with_pick, (pick,),
                  depth_space(shape, bs, order, direction, pick=(pick,)))


@given(hnp.arrays(st_.sampled_from([np.uint8, np.int16, np.float32, np.float64]), st_.integers(1, 12), elements=None),
       st_.integers(0, 3), st_.integers(0, 15), st_.integers(0, 63), st_.integers(0, 40))
def test_bitwise_pick_overlay_reaches_every_frame(a, first, element, bit, offset):
    kwargs = dict(first=first, rows=5, index_offset=offset)
    plain = bitwise(a, **kwargs)
    pick = (element + offset, bit)
    check_overlay(plain, bitwise_fig.with_pick, pick, bitwise(a, pick=pick, **kwargs))


@given(st_.sampled_from([((1, 1, 6, 2), 2, (2, 1, 3)), ((1, 1, 6, 2), 3, (1, 1)), ((3, 4, 5), 2, (2, 3)),
                         ((7,), 0, (3, 4)), ((4, 70), 1, (30, 40))]), st_.data())
def test_split_join_pick_overlay_reaches_every_frame_and_the_meta(config, data):
    shape, axis, sizes = config
    pick = tuple(data.draw(st_.integers(0, size)) for size in shape)  # an index equal to the size is off the tensor
    plain = split_join(shape, axis, sizes)
    check_overlay(plain, split_join_fig.with_pick, pick, split_join(shape, axis, sizes, pick=pick))
