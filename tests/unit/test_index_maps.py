"""Index maps: agree with SPEC's formulas, and gathering a tensor through a map gives the operator's output."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.operators.index_maps import depth_to_space_map, join_map, space_to_depth_map, split_map
from ops.operators.split_join import join, split

DTYPES = [ops.numpy_dtype(t) for t in ops.DML_TYPES]
ORDER_NAMES = ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"]


def random_bits(rng, shape, dtype):
    count = int(np.prod(shape)) * dtype.itemsize
    return rng.integers(0, 256, count, dtype=np.uint8).view(dtype).reshape(shape)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@st.composite
def depth_sizes(draw):
    bs = draw(st.integers(1, 3))
    sizes = (draw(st.integers(1, 2)), bs * bs * draw(st.integers(1, 3)),
             draw(st.integers(1, 4)), draw(st.integers(1, 4)))
    return sizes, bs, draw(st.sampled_from(ORDER_NAMES)), draw(st.sampled_from(DTYPES)), draw(st.integers(0, 2**32 - 1))


def depth_channel(c, bh, bw, bs, c_out, order):
    """SPEC §2: the depth-side channel for output channel c' and block position (bh, bw)."""
    if order == "DEPTH_COLUMN_ROW":
        return (bh * bs + bw) * c_out + c
    return c * bs * bs + bh * bs + bw


@settings(max_examples=60, deadline=None)
@given(depth_sizes())
def test_depth_to_space_map_follows_the_formulas(case):
    (n_, c_, h_, w_), bs, order, dtype, seed = case
    index = depth_to_space_map((n_, c_, h_, w_), bs, order)
    c_out = c_ // (bs * bs)
    assert index.shape == (n_, c_out, h_ * bs, w_ * bs)
    n, c, y, x = np.indices(index.shape)
    source = depth_channel(c, y % bs, x % bs, bs, c_out, order)
    np.testing.assert_array_equal(index, np.ravel_multi_index((n, source, y // bs, x // bs), (n_, c_, h_, w_)))
    data = random_bits(np.random.default_rng(seed), (n_, c_, h_, w_), dtype)
    assert same_bits(data.ravel()[index], depth_to_space(data, bs, order))


@settings(max_examples=60, deadline=None)
@given(depth_sizes())
def test_space_to_depth_map_follows_the_formulas(case):
    (n_, c_, h_, w_), bs, order, dtype, seed = case
    c_in = c_ // (bs * bs)
    space_sizes = (n_, c_in, h_ * bs, w_ * bs)
    index = space_to_depth_map(space_sizes, bs, order)
    assert index.shape == (n_, c_, h_, w_)
    # Invert the formula: every space element (n, c', y, x) lands at depth channel depth_channel(...).
    n, c, y, x = np.indices(space_sizes)
    target = (n, depth_channel(c, y % bs, x % bs, bs, c_in, order), y // bs, x // bs)
    expected = np.empty(index.shape, np.int64)
    expected[target] = np.ravel_multi_index((n, c, y, x), space_sizes)
    np.testing.assert_array_equal(index, expected)
    data = random_bits(np.random.default_rng(seed), space_sizes, dtype)
    assert same_bits(data.ravel()[index], space_to_depth(data, bs, order))


def test_seed_depth_to_space_map():
    """The seed's input has flat index 6c + 3h + w; its first DCR output row 0,18,1,19,... is channels 0 and 2."""
    index = depth_to_space_map((1, 8, 2, 3), 2, "DCR")
    assert index[0, 0, 0].tolist() == [0, 12, 1, 13, 2, 14]
    crd = depth_to_space_map((1, 8, 2, 3), 2, "CRD")
    assert crd[0, 0, 0].tolist() == [0, 6, 1, 7, 2, 8]


@st.composite
def split_sizes(draw):
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=6))
    axis = draw(st.integers(0, len(shape) - 1))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    shape[axis] = sum(sizes)
    return tuple(shape), axis, sizes, draw(st.sampled_from(DTYPES)), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=60, deadline=None)
@given(split_sizes())
def test_split_map_follows_the_offsets(case):
    shape, axis, sizes, dtype, seed = case
    maps = split_map(shape, axis, sizes)
    data = random_bits(np.random.default_rng(seed), shape, dtype)
    start = 0
    for size, index, piece in zip(sizes, maps, split(data, axis, sizes)):
        coords = list(np.indices(index.shape))
        coords[axis] = coords[axis] + start
        np.testing.assert_array_equal(index, np.ravel_multi_index(tuple(coords), shape))
        assert same_bits(data.ravel()[index], piece)
        start += size


@settings(max_examples=60, deadline=None)
@given(split_sizes())
def test_join_map_follows_the_offsets(case):
    out_shape, axis, sizes, dtype, seed = case
    input_shapes = [out_shape[:axis] + (s,) + out_shape[axis + 1:] for s in sizes]
    which, flat = join_map(input_shapes, axis)
    assert which.shape == flat.shape == out_shape
    coords = np.indices(out_shape)
    bounds = np.cumsum([0] + sizes)
    expected_which = np.searchsorted(bounds, coords[axis], side="right") - 1
    np.testing.assert_array_equal(which, expected_which)
    local = list(coords)
    local[axis] = coords[axis] - bounds[expected_which]
    for i, in_shape in enumerate(input_shapes):
        mask = expected_which == i
        np.testing.assert_array_equal(flat[mask], np.ravel_multi_index(tuple(c[mask] for c in local), in_shape))
    rng = np.random.default_rng(seed)
    inputs = [random_bits(rng, s, dtype) for s in input_shapes]
    gathered = np.empty(out_shape, dtype)
    for i, data in enumerate(inputs):
        gathered[which == i] = data.ravel()[flat[which == i]]
    assert same_bits(gathered, join(inputs, axis))


def test_maps_refuse_zero_sizes_and_cap():
    with pytest.raises(ops.DescriptorError, match=r"InputTensor Sizes\[2\] 0: must be at least 1"):
        depth_to_space_map((1, 4, 0, 2), 2)
    with ops.element_cap_set_to(10):
        with pytest.raises(ops.DescriptorError,
                           match=r"InputTensor Sizes \[1, 4, 2, 2\]: 16 elements exceed the cap of 10"):
            space_to_depth_map((1, 4, 2, 2), 2)
