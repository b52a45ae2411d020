"""DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 against the seed, onnx.reference, a loop-by-loop spec and round trips."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import helper
from onnx.helper import np_dtype_to_tensor_dtype
from onnx.reference import ReferenceEvaluator

import ops
import ops.operators.depth_space
from ops.guard import DEFAULT_ELEMENT_CAP, element_cap
from ops.operators.depth_space import depth_to_space, order_name, space_to_depth

DTYPES = [ops.numpy_dtype(t) for t in ops.DML_TYPES]
ORDER_NAMES = ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"]


def seed_input():
    """Seed 001's input: UINT32 {1,8,2,3}, channel c holds 9c + 3h + w."""
    return np.array(
        [[[[0, 1, 2], [3, 4, 5]], [[9, 10, 11], [12, 13, 14]], [[18, 19, 20], [21, 22, 23]],
          [[27, 28, 29], [30, 31, 32]], [[36, 37, 38], [39, 40, 41]], [[45, 46, 47], [48, 49, 50]],
          [[54, 55, 56], [57, 58, 59]], [[63, 64, 65], [66, 67, 68]]]],
        dtype=np.uint32,
    )


SEED_DCR = np.array(
    [[[[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56], [3, 21, 4, 22, 5, 23], [39, 57, 40, 58, 41, 59]],
      [[9, 27, 10, 28, 11, 29], [45, 63, 46, 64, 47, 65], [12, 30, 13, 31, 14, 32], [48, 66, 49, 67, 50, 68]]]],
    dtype=np.uint32,
)
SEED_CRD = np.array(
    [[[[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29], [3, 12, 4, 13, 5, 14], [21, 30, 22, 31, 23, 32]],
      [[36, 45, 37, 46, 38, 47], [54, 63, 55, 64, 56, 65], [39, 48, 40, 49, 41, 50], [57, 66, 58, 67, 59, 68]]]],
    dtype=np.uint32,
)


def random_bits(rng, shape, dtype):
    """Arbitrary bit patterns (NaN payloads, subnormals, -0.0 included for float types)."""
    count = int(np.prod(shape)) * dtype.itemsize
    return rng.integers(0, 256, count, dtype=np.uint8).view(dtype).reshape(shape)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def depth_to_space_loops(x, bs, order):
    """SPEC §2 index formulas, one element at a time."""
    n_, c_, h_, w_ = x.shape
    c_out = c_ // (bs * bs)
    out = np.empty((n_, c_out, h_ * bs, w_ * bs), x.dtype)
    for n in range(n_):
        for c in range(c_out):
            for y in range(h_ * bs):
                for x_ in range(w_ * bs):
                    h, bh = divmod(y, bs)
                    w, bw = divmod(x_, bs)
                    if order == "DEPTH_COLUMN_ROW":
                        source = (bh * bs + bw) * c_out + c
                    else:
                        source = c * bs * bs + bh * bs + bw
                    out[n, c, y, x_] = x[n, source, h, w]
    return out


def space_to_depth_loops(x, bs, order):
    """The inverse of depth_to_space_loops, written from the same formulas."""
    n_, c_, h_, w_ = x.shape
    out = np.empty((n_, c_ * bs * bs, h_ // bs, w_ // bs), x.dtype)
    for n in range(n_):
        for c in range(c_):
            for y in range(h_):
                for x_ in range(w_):
                    h, bh = divmod(y, bs)
                    w, bw = divmod(x_, bs)
                    if order == "DEPTH_COLUMN_ROW":
                        target = (bh * bs + bw) * c_ + c
                    else:
                        target = c * bs * bs + bh * bs + bw
                    out[n, target, h, w] = x[n, c, y, x_]
    return out


def onnx_reference(op, x, **attrs):
    node = helper.make_node(op, ["x"], ["y"], **attrs)
    graph = helper.make_graph(
        [node], op, [helper.make_tensor_value_info("x", np_dtype_to_tensor_dtype(x.dtype), x.shape)],
        [helper.make_tensor_value_info("y", np_dtype_to_tensor_dtype(x.dtype), None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return ReferenceEvaluator(model).run(None, {"x": x})[0]


@st.composite
def depth_cases(draw, max_side=5):
    """(x, block_size, order) with x's channels divisible by block_size^2, any of the 11 dtypes."""
    bs = draw(st.integers(1, 3))
    shape = (draw(st.integers(1, 2)), bs * bs * draw(st.integers(1, 3)),
             draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    dtype = draw(st.sampled_from(DTYPES))
    x = random_bits(np.random.default_rng(draw(st.integers(0, 2**32 - 1))), shape, dtype)
    return x, bs, draw(st.sampled_from(ORDER_NAMES))


# --- the seed's worked examples ---------------------------------------------------------------------------

@pytest.mark.parametrize("order, expected", [("DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW", SEED_DCR),
                                             ("DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH", SEED_CRD)])
def test_seed_examples(order, expected):
    assert seed_input().tolist() == [[[[9 * c + 3 * h + w for w in range(3)] for h in range(2)] for c in range(8)]]
    out = depth_to_space(seed_input(), 2, order)
    assert out.dtype == np.uint32 and out.shape == (1, 2, 4, 6)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(space_to_depth(expected, 2, order), seed_input())


@pytest.mark.parametrize("spelling, name", [("DCR", "DEPTH_COLUMN_ROW"), ("crd", "COLUMN_ROW_DEPTH"),
                                            ("COLUMN_ROW_DEPTH", "COLUMN_ROW_DEPTH"),
                                            ("DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW", "DEPTH_COLUMN_ROW")])
def test_order_spellings(spelling, name):
    assert order_name(spelling) == name


# --- properties -------------------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(depth_cases())
def test_round_trip_is_bit_exact(case):
    x, bs, order = case
    assert same_bits(space_to_depth(depth_to_space(x, bs, order), bs, order), x)


@settings(max_examples=60, deadline=None)
@given(depth_cases())
def test_space_to_depth_then_back_is_bit_exact(case):
    depth, bs, order = case
    space = depth_to_space_loops(depth, bs, order)
    assert same_bits(depth_to_space(space_to_depth(space, bs, order), bs, order), space)


@settings(max_examples=60, deadline=None)
@given(depth_cases(max_side=4))
def test_matches_plain_loops(case):
    x, bs, order = case
    space = depth_to_space(x, bs, order)
    assert same_bits(space, depth_to_space_loops(x, bs, order))
    assert same_bits(space_to_depth(space, bs, order), space_to_depth_loops(space, bs, order))


@settings(max_examples=60, deadline=None)
@given(depth_cases())
def test_depth_to_space_matches_onnx_reference(case):
    x, bs, order = case
    mode = "DCR" if order == "DEPTH_COLUMN_ROW" else "CRD"
    assert same_bits(depth_to_space(x, bs, order), onnx_reference("DepthToSpace", x, blocksize=bs, mode=mode))


@settings(max_examples=60, deadline=None)
@given(depth_cases())
def test_space_to_depth_matches_onnx_reference(case):
    depth, bs, _ = case
    space = depth_to_space_loops(depth, bs, "DEPTH_COLUMN_ROW")
    assert same_bits(space_to_depth(space, bs, "DEPTH_COLUMN_ROW"), onnx_reference("SpaceToDepth", space, blocksize=bs))


@settings(max_examples=30, deadline=None)
@given(depth_cases(max_side=7), st.integers(1, 300))
def test_tiled_threaded_path_matches_plain_loops(case, tile_bytes):
    """Tiny tiles force many (ragged) tiles over the thread pool, as on large tensors."""
    x, bs, order = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ops.operators.depth_space, "TILE_BYTES", tile_bytes)
        space = depth_to_space(x, bs, order)
        back = space_to_depth(space, bs, order)
    assert same_bits(space, depth_to_space_loops(x, bs, order))
    assert same_bits(back, x)


def test_large_tensor_matches_reshape_transpose():
    """A tensor spanning many default-size tiles, against the textbook reshape/transpose formulation."""
    x = np.random.default_rng(3).integers(0, 2**31, (2, 36, 67, 130)).astype(np.int32)
    n, c, h, w = x.shape
    for bs in (2, 3):
        c_out = c // (bs * bs)
        dcr = x.reshape(n, bs, bs, c_out, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c_out, h * bs, w * bs)
        crd = x.reshape(n, c_out, bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c_out, h * bs, w * bs)
        np.testing.assert_array_equal(depth_to_space(x, bs, "DCR"), dcr)
        np.testing.assert_array_equal(depth_to_space(x, bs, "CRD"), crd)
        np.testing.assert_array_equal(space_to_depth(dcr, bs, "DCR"), x)
        np.testing.assert_array_equal(space_to_depth(crd, bs, "CRD"), x)


def test_non_contiguous_input():
    x = np.arange(2 * 8 * 3 * 4, dtype=np.int16).reshape(2, 3, 4, 8).transpose(0, 3, 1, 2)
    np.testing.assert_array_equal(depth_to_space(x, 2, "CRD"), depth_to_space_loops(x, 2, "COLUMN_ROW_DEPTH"))
    np.testing.assert_array_equal(space_to_depth(x[:, :, :2], 2, "DCR"),
                                  space_to_depth_loops(x[:, :, :2], 2, "DEPTH_COLUMN_ROW"))


def test_output_does_not_alias_input():
    x = seed_input()
    out = depth_to_space(x, 1, "DCR")
    out[...] = 0
    assert x[0, 7, 1, 2] == 68


# --- refusals ---------------------------------------------------------------------------------------------

def refused(fn, *args, match):
    with pytest.raises(ops.DescriptorError, match=match):
        fn(*args)


@pytest.mark.parametrize("fn", [depth_to_space, space_to_depth])
@pytest.mark.parametrize("shape", [(8, 2, 3), (1, 1, 8, 2, 3), (8,)])
def test_refuses_wrong_dimension_count(fn, shape):
    refused(fn, np.zeros(shape, np.float32), 2, "DCR", match=r"InputTensor Sizes .*DimensionCount is \d; .*exactly 4")


@pytest.mark.parametrize("fn", [depth_to_space, space_to_depth])
def test_refuses_zero_size(fn):
    refused(fn, np.zeros((1, 4, 0, 2), np.float32), 2, "DCR", match=r"InputTensor Sizes \[1, 4, 0, 2\]: a size of 0")


@pytest.mark.parametrize("fn", [depth_to_space, space_to_depth])
@pytest.mark.parametrize("block_size, rule", [(0, "at least 1"), (-2, "at least 1"), (2.0, "positive integer"),
                                              ("2", "positive integer"), (True, "positive integer"),
                                              (None, "positive integer")])
def test_refuses_bad_block_size(fn, block_size, rule):
    refused(fn, np.zeros((1, 4, 2, 2), np.float32), block_size, "DCR", match=f"BlockSize .*{rule}")


def test_refuses_channels_not_divisible():
    refused(depth_to_space, np.zeros((1, 8, 2, 3), np.uint32), 3, "DCR",
            match=r"BlockSize 3: the input's channel count 8 is not divisible by BlockSize\^2 = 9")


@pytest.mark.parametrize("shape, side", [((1, 1, 3, 4), "height 3"), ((1, 1, 4, 6), "width 6")])
def test_space_to_depth_refuses_sides_not_divisible(shape, side):
    refused(space_to_depth, np.zeros(shape, np.float32), 4, "DCR",
            match=f"BlockSize 4: the input's {side} .*BlockSize 4")


@pytest.mark.parametrize("fn", [depth_to_space, space_to_depth])
@pytest.mark.parametrize("order", ["ROW_COLUMN_DEPTH", "", 0, None, "DML_DEPTH_SPACE_ORDER_"])
def test_refuses_bad_order(fn, order):
    refused(fn, np.zeros((1, 4, 2, 2), np.float32), 2, order, match=r"Order .*DEPTH_COLUMN_ROW .*COLUMN_ROW_DEPTH")


@pytest.mark.parametrize("fn", [depth_to_space, space_to_depth])
@pytest.mark.parametrize("dtype", [np.bool_, np.complex64, np.float128 if hasattr(np, "float128") else np.object_])
def test_refuses_non_directml_dtype(fn, dtype):
    refused(fn, np.zeros((1, 4, 2, 2), dtype), 2, "DCR", match=r"InputTensor DataType")


@pytest.mark.parametrize("fn", [depth_to_space, space_to_depth])
def test_refuses_non_array(fn):
    refused(fn, [[[[1.0]]]], 1, "DCR", match=r"InputTensor: expected a numpy array")


def test_element_cap_names_the_sizes():
    with ops.element_cap_set_to(64):
        refused(depth_to_space, np.zeros((1, 4, 5, 5), np.float32), 2, "DCR",
                match=r"InputTensor Sizes \[1, 4, 5, 5\]: 100 elements exceed the cap of 64")
        assert depth_to_space(np.zeros((1, 4, 4, 4), np.float32), 2, "DCR").shape == (1, 1, 8, 8)
    assert element_cap() == DEFAULT_ELEMENT_CAP
