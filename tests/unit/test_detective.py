"""The layout detective: index maps for any rearrangement, the descriptor named exactly, the DCR/CRD permutation,
and the arrays that travel to a user's framework and back (origin-coded input, .npy, printed text).

The matrix: outputs made by every order and BlockSize 1..4 of DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1, by
channel-permuted variants of both, by every transpose of a 4-D tensor, by SPLIT and JOIN along every axis of 1..6-D
tensors, by broadcasts and gathers, and by corrupted copies (values that are not in x).
"""

import io
import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.detective.channels import inverse_permutation, permute_conv_input_channels, permute_conv_output_channels
from ops.detective.examples import detective_example
from ops.detective.identify import mix_up_diff
from ops.detective.origin import origin_coded_inputs, to_npy_bytes
from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.operators.index_maps import depth_to_space_map, join_map, space_to_depth_map, split_map
from ops.operators.split_join import join, split

ORDERS = ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"]
DTYPES = [ops.numpy_dtype(t) for t in ops.DML_TYPES]


def depth_channel(c, bh, bw, bs, c_out, order):
    """SPEC section 2: the depth-side channel read for output channel c' at block position (bh, bw)."""
    if order == "DEPTH_COLUMN_ROW":
        return (bh * bs + bw) * c_out + c
    return c * bs * bs + bh * bs + bw


def spec_channel_permutation(channels, bs, source, target):
    """Plain loops: target's channel for each position must hold what source reads there."""
    c_out = channels // (bs * bs)
    p = [None] * channels
    for c in range(c_out):
        for bh in range(bs):
            for bw in range(bs):
                p[depth_channel(c, bh, bw, bs, c_out, target)] = depth_channel(c, bh, bw, bs, c_out, source)
    return p


def seed_input():
    c, h, w = np.indices((8, 2, 3))
    return (9 * c + 3 * h + w).astype(np.uint32)[None]


# ---------------------------------------------------------------- the seed and the PixelShuffle-style output


def test_seed_examples_are_named_with_their_order():
    x = seed_input()
    dcr = np.array(
        [[[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56], [3, 21, 4, 22, 5, 23], [39, 57, 40, 58, 41, 59]],
         [[9, 27, 10, 28, 11, 29], [45, 63, 46, 64, 47, 65], [12, 30, 13, 31, 14, 32], [48, 66, 49, 67, 50, 68]]],
        dtype=np.uint32,
    )[None]
    crd = np.array(
        [[[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29], [3, 12, 4, 13, 5, 14], [21, 30, 22, 31, 23, 32]],
         [[36, 45, 37, 46, 38, 47], [54, 63, 55, 64, 56, 65], [39, 48, 40, 49, 41, 50], [57, 66, 58, 67, 59, 68]]],
        dtype=np.uint32,
    )[None]
    report = ops.identify(x, dcr)
    assert report.matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}]
    assert report.kind == "permutation" and report.permutation is None and report.compared_by == "bits"
    # The seed's values are 9c + 3h + w, not flat indices: the map still names each element's flat index.
    np.testing.assert_array_equal(report.source_index, depth_to_space_map(x.shape, 2, "DCR"))
    report = ops.identify(x, crd)
    assert report.matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}]
    assert "COLUMN_ROW_DEPTH (CRD)" in report.note


def test_pixel_shuffle_style_output_is_named_crd_even_as_float64():
    # What numpy code written after PyTorch's pixel_shuffle gives, handed back as float64 by the user's script.
    x = ops.origin_coded_input((1, 12, 2, 2))
    shuffled = x.reshape(1, 3, 2, 2, 2, 2).transpose(0, 1, 4, 2, 5, 3).reshape(1, 3, 4, 4).astype(np.float64)
    report = ops.identify(x, shuffled)
    assert report.matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}]
    assert report.compared_by == "value" and "compared by value" in report.note


# ---------------------------------------------------------------- every order and BlockSize


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("bs", [1, 2, 3, 4])
def test_depth_to_space_outputs_are_named_exactly(bs, order):
    x = ops.origin_coded_input((2, 3 * bs * bs, 2, 3))
    report = ops.identify(x, depth_to_space(x, bs, order))
    np.testing.assert_array_equal(report.source_index, depth_to_space_map(x.shape, bs, order))
    if bs == 1:
        # BlockSize 1 moves nothing: every depth/space descriptor of BlockSize 1 is the identity, and all are named.
        assert len(report.matches) == 4 and report.transpose == (0, 1, 2, 3)
        assert report.note.startswith("y equals x")
    else:
        assert report.matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": bs, "Order": order}]
    assert report.permuted_matches == [] and report.offending == []


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("bs", [2, 3, 4])
def test_space_to_depth_outputs_are_named_exactly(bs, order):
    x = ops.origin_coded_input((1, 2, 2 * bs, 3 * bs), "INT32")
    report = ops.identify(x, space_to_depth(x, bs, order))
    assert report.matches == [{"operator": "SPACE_TO_DEPTH1", "BlockSize": bs, "Order": order}]
    np.testing.assert_array_equal(report.source_index, space_to_depth_map(x.shape, bs, order))


@st.composite
def depth_cases(draw):
    bs = draw(st.integers(2, 4))
    sizes = (draw(st.integers(1, 2)), bs * bs * draw(st.integers(1, 3)),
             draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    return sizes, bs, draw(st.sampled_from(ORDERS)), draw(st.integers(0, 2**32 - 1))


# ---------------------------------------------------------------- channel-permuted variants (the DCR/CRD mix-up)


def test_the_mix_up_undone_the_wrong_way_is_found_with_its_permutation():
    # A converter that meant to turn CRD weights into DCR ones but applied the inverse permutation.
    x = ops.origin_coded_input((1, 8, 2, 3))
    wrong = inverse_permutation(ops.channel_permutation(8, 2, "CRD", "DCR"))
    y = depth_to_space(x[:, wrong], 2, "DCR")
    report = ops.identify(x, y)
    assert report.matches == [] and report.kind == "permutation"
    best = report.permuted_matches[0]
    assert best["applies_to"] == "input channels"
    np.testing.assert_array_equal(depth_to_space(x[:, report.permutation], 2, best["descriptor"]["Order"]), y)
    assert {m["descriptor"]["Order"] for m in report.permuted_matches} == set(ORDERS)
    assert "weights[P]" in report.note and str(report.permutation.tolist()) in report.note


@settings(max_examples=60, deadline=None)
@given(depth_cases())
def test_depth_to_space_after_any_channel_permutation_is_found(case):
    sizes, bs, order, seed = case
    x = ops.origin_coded_input(sizes)
    shuffle = np.random.default_rng(seed).permutation(sizes[1])
    y = depth_to_space(x[:, shuffle], bs, order)
    report = ops.identify(x, y)
    if report.matches:
        # The shuffle happened to be the identity or exactly the DCR <-> CRD conversion.
        other = [o for o in ORDERS if o != order][0]
        assert np.array_equal(shuffle, np.arange(sizes[1])) or np.array_equal(
            shuffle, ops.channel_permutation(sizes[1], bs, other, order)
        )
        assert report.permuted_matches == []
    else:
        assert len(report.permuted_matches) == 2
        for found in report.permuted_matches:
            d = found["descriptor"]
            np.testing.assert_array_equal(depth_to_space(x[:, found["permutation"]], d["BlockSize"], d["Order"]), y)
        moved = [int((m["permutation"] != np.arange(sizes[1])).sum()) for m in report.permuted_matches]
        assert moved == sorted(moved)


@settings(max_examples=40, deadline=None)
@given(depth_cases())
def test_space_to_depth_with_permuted_output_channels_is_found(case):
    (n, c, h, w), bs, order, seed = case
    x = ops.origin_coded_input((n, c // (bs * bs), h * bs, w * bs))
    shuffle = np.random.default_rng(seed).permutation(c)
    y = space_to_depth(x, bs, order)[:, shuffle]
    report = ops.identify(x, y)
    assert report.matches or report.permuted_matches
    for found in report.permuted_matches:
        d = found["descriptor"]
        assert found["applies_to"] == "output channels"
        np.testing.assert_array_equal(space_to_depth(x, d["BlockSize"], d["Order"])[:, found["permutation"]], y)


# ---------------------------------------------------------------- transposes


@pytest.mark.parametrize("axes", list(itertools.permutations(range(4))))
def test_every_transpose_is_a_rearrangement_without_a_descriptor(axes):
    x = ops.origin_coded_input((2, 3, 4, 5))
    report = ops.identify(x, x.transpose(axes))
    assert report.transpose == axes and report.kind == "permutation"
    np.testing.assert_array_equal(report.source_index, np.arange(x.size).reshape(x.shape).transpose(axes))
    if axes == (0, 1, 2, 3):
        assert len(report.matches) == 4  # the BlockSize-1 identities
    else:
        assert report.matches == [] and report.permuted_matches == []
        assert f"transposed with axes {axes}" in report.note


def test_nhwc_round_trip_through_a_framework_is_recognized():
    # TensorFlow's depth_to_space works on NHWC: transposing there and back around it gives plain DCR.
    x = ops.origin_coded_input((1, 8, 2, 3))
    nhwc = x.transpose(0, 2, 3, 1)
    moved = nhwc.reshape(1, 2, 3, 2, 2, 2).transpose(0, 1, 3, 2, 4, 5).reshape(1, 4, 6, 2)  # DCR on NHWC
    report = ops.identify(x, moved.transpose(0, 3, 1, 2))
    assert report.matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}]
    report = ops.identify(x, moved)  # forgot to transpose back
    assert report.matches == [] and report.kind == "permutation" and report.transpose is None


# ---------------------------------------------------------------- split and join along every axis


@st.composite
def split_cases(draw):
    ndim = draw(st.integers(1, 6))
    shape = [draw(st.integers(1, 3)) for _ in range(ndim)]
    axis = draw(st.integers(0, ndim - 1))
    shape[axis] = draw(st.integers(1, 6))
    cuts = sorted(draw(st.sets(st.integers(1, shape[axis] - 1), max_size=3))) if shape[axis] > 1 else []
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [shape[axis]])]
    return tuple(shape), axis, sizes


def _true_for_split(x, ys, descriptor):
    parts = split(x, descriptor["Axis"], descriptor["AxisSizes"])
    return all(np.array_equal(p, y) for p, y in zip(parts, ys))


@settings(max_examples=80, deadline=None)
@given(split_cases())
def test_split_along_any_axis_is_named_and_every_named_split_is_true(case):
    shape, axis, sizes = case
    x = ops.origin_coded_input(shape, "INT64")
    ys = split(x, axis, sizes)
    report = ops.identify(x, ys)
    assert {"operator": "SPLIT", "Axis": axis, "OutputCount": len(sizes), "AxisSizes": sizes} in report.matches
    assert all(_true_for_split(x, ys, m) for m in report.matches)
    assert len(report.source_index) == len(ys)
    for source, expected in zip(report.source_index, split_map(shape, axis, sizes)):
        np.testing.assert_array_equal(source, expected)


@settings(max_examples=80, deadline=None)
@given(split_cases())
def test_join_along_any_axis_is_named_and_maps_back_to_each_input(case):
    shape, axis, sizes = case
    whole = ops.origin_coded_input(shape, "FLOAT64")
    xs = split(whole, axis, sizes)
    y = join(xs, axis)
    report = ops.identify(xs, y)
    assert {"operator": "JOIN", "Axis": axis, "InputCount": len(sizes), "AxisSizes": sizes} in report.matches
    for m in report.matches:
        np.testing.assert_array_equal(join(xs, m["Axis"]), y)
    which, flat = report.source_input_and_index()
    expected_which, expected_flat = join_map([a.shape for a in xs], axis)
    np.testing.assert_array_equal(which, expected_which)
    np.testing.assert_array_equal(flat, expected_flat)


def test_seed_split_examples_are_named():
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    report = ops.identify(x, split(x, 2, [2, 1, 3]))
    assert report.matches == [{"operator": "SPLIT", "Axis": 2, "OutputCount": 3, "AxisSizes": [2, 1, 3]}]
    report = ops.identify(x, split(x, 3, [1, 1]))
    assert report.matches == [{"operator": "SPLIT", "Axis": 3, "OutputCount": 2, "AxisSizes": [1, 1]}]


def test_outputs_of_a_split_in_the_wrong_order_are_mapped_but_not_named():
    x = ops.origin_coded_input((2, 6))
    a, b = split(x, 1, [2, 4])
    report = ops.identify(x, [b, a])
    assert report.matches == [] and report.kind == "permutation"
    np.testing.assert_array_equal(report.source_index[0], split_map((2, 6), 1, [2, 4])[1])


def test_lists_on_both_sides_get_an_index_map_and_no_descriptor():
    x = ops.origin_coded_input((2, 4))
    halves = split(x, 0, [1, 1])
    report = ops.identify(halves, [halves[1], halves[0]])
    assert report.matches == [] and isinstance(report.source_index, list)
    np.testing.assert_array_equal(report.source_index[0], [[4, 5, 6, 7]])


# ---------------------------------------------------------------- what identify asks of the registry


@st.composite
def moving_call(draw):
    """A call of an operator that moves elements, by its own sizes and attributes."""
    op = draw(st.sampled_from(["DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1", "SPLIT", "JOIN"]))
    if op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        bs, c, h, w = (draw(st.integers(1, 3)) for _ in range(4))
        shape = (draw(st.integers(1, 2)), c * bs * bs, h, w) if op == "DEPTH_TO_SPACE1" else (1, c, h * bs, w * bs)
        return ops.Call.of(op, [shape], block_size=bs, order=draw(st.sampled_from(ORDERS)))
    whole = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    axis = draw(st.integers(0, len(whole) - 1))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    parts = [tuple(whole[:axis] + [s] + whole[axis + 1:]) for s in sizes]
    whole[axis] = sum(sizes)
    if op == "SPLIT":
        return ops.Call.of(op, [whole], axis=axis, sizes=sizes)
    return ops.Call.of(op, parts, axis=axis)


@settings(max_examples=100, deadline=None)
@given(moving_call())
def test_each_operator_proposes_the_call_that_made_its_shapes(call):
    """Operator.candidates, which identify runs through the operator's index map, proposes the call's own
    attributes for the call's sizes, and every proposal fits those sizes."""
    op = call.operator
    proposed = op.candidates(call.input_sizes, call.output_sizes)
    assert call.attributes in proposed
    for attrs in proposed:
        assert ops.Call.of(op.name, call.input_sizes, **attrs).output_sizes == call.output_sizes


def test_descriptors_are_worded_by_their_operator():
    x = ops.origin_coded_input((1, 8, 2, 3))
    report = ops.identify(x, depth_to_space(x, 2, "CRD"))
    assert report.note == "y is x through DEPTH_TO_SPACE1 with BlockSize 2 and Order COLUMN_ROW_DEPTH (CRD)."
    report = ops.identify(x, split(x, 1, [3, 5]))
    assert "SPLIT along Axis 1 with OutputCount 2 (sizes [3, 5])" in report.note
    assert ops.identify(x, x.transpose(0, 2, 3, 1)).note.endswith(
        "a rearrangement that none of DEPTH_TO_SPACE1, SPACE_TO_DEPTH1, SPLIT, JOIN, GATHER, GATHER_ELEMENTS, SLICE1, "
        "PADDING1, TILE and UPSAMPLE_2D reproduces.")


# ---------------------------------------------------------------- broadcasts, gathers and the general map


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
    st.lists(st.integers(1, 5), min_size=1, max_size=4),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_any_gather_gives_back_its_indices(shape, out_shape, seed, unique):
    x = ops.origin_coded_input(shape, "UINT16")
    rng = np.random.default_rng(seed)
    count = int(np.prod(out_shape))
    if unique and count <= x.size:
        index = rng.permutation(x.size)[:count].reshape(out_shape)
    else:
        index = rng.integers(0, x.size, out_shape)
    report = ops.identify(x, x.ravel()[index])
    np.testing.assert_array_equal(report.source_index, index)
    uses = np.bincount(index.ravel(), minlength=x.size)
    expected = "broadcast" if uses.max() > 1 else ("permutation" if (uses == 1).all() else "gather")
    assert report.kind == expected


def test_a_broadcast_b_reads_one_row_many_times():
    x = ops.origin_coded_input((1, 1, 1, 5))
    report = ops.identify(x, np.broadcast_to(x, (2, 3, 4, 5)).copy())
    # Repeating size-1 dimensions is a tile, and a pad of their edge (a size-1 dimension mirrors to its element).
    assert report.kind == "broadcast"
    assert [(m["operator"], m.get("PaddingMode")) for m in report.matches] == \
        [("PADDING1", "EDGE"), ("PADDING1", "REFLECTION"), ("PADDING1", "SYMMETRIC"), ("TILE", None)]
    assert report.matches[-1]["Repeats"] == (2, 3, 4, 1)
    np.testing.assert_array_equal(report.source_index, np.broadcast_to(np.arange(5), (2, 3, 4, 5)))
    assert report.note.endswith("TILE with RepeatsCount 4, Repeats [2, 3, 4, 1].")


def test_a_crop_is_a_gather():
    x = ops.origin_coded_input((1, 2, 4, 4))
    report = ops.identify(x, x[:, :, 1:3, 1:3].copy())
    assert report.kind == "gather"
    np.testing.assert_array_equal(report.source_index, np.arange(32).reshape(1, 2, 4, 4)[:, :, 1:3, 1:3])


# ---------------------------------------------------------------- corrupted arrays


@pytest.mark.parametrize("bad", [-1.0, 0.5, 1e9, np.nan, np.inf])
def test_corrupted_cells_are_reported_first_in_row_major_order(bad):
    x = ops.origin_coded_input((1, 8, 2, 3))
    y = depth_to_space(x, 2, "CRD")
    y[0, 1, 3, 5] = bad
    y[0, 0, 2, 1] = bad
    report = ops.identify(x, y)
    assert report.kind == "not a rearrangement" and report.matches == [] and report.unmatched_count == 2
    assert [c["index"] for c in report.offending] == [(0, 0, 2, 1), (0, 1, 3, 5)]
    assert report.source_index[0, 0, 2, 1] == -1 and report.source_index[0, 1, 3, 5] == -1
    np.testing.assert_equal(report.offending[0]["value"], bad)
    assert report.near_matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}]
    assert "2 of 48 values of y are not values of x" in report.note and "y[0, 0, 2, 1]" in report.note


def test_many_corrupted_cells_list_only_the_first_ones_and_count_all():
    x = ops.origin_coded_input((4, 4))
    y = x.copy()
    y[1:] = -7
    report = ops.identify(x, [y[:2], y[2:]])
    assert report.unmatched_count == 12 and len(report.offending) == ops.detective.identify.OFFENDING_SHOWN
    assert report.offending[0] == {"output": 0, "index": (1, 0), "value": -7.0}
    assert report.offending[-1]["output"] == 1
    assert report.near_matches == [{"operator": "SPLIT", "Axis": 0, "OutputCount": 2, "AxisSizes": [2, 2]}]


def test_a_moved_cell_is_no_near_match():
    x = ops.origin_coded_input((1, 4, 1, 1))
    y = depth_to_space(x, 2, "DCR")
    y[0, 0, 0, 0], y[0, 0, 0, 1] = y[0, 0, 0, 1], 99.0
    report = ops.identify(x, y)
    assert report.near_matches == [] and report.unmatched_count == 1


# ---------------------------------------------------------------- keys: bits, values, duplicates


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_type_identifies_by_bits(dtype):
    x = ops.origin_coded_input((1, 8, 2, 4), ops.type_name(dtype))
    report = ops.identify(x, space_to_depth(x, 2, "CRD"))
    assert report.compared_by == "bits"
    assert report.matches == [{"operator": "SPACE_TO_DEPTH1", "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}]


def test_bits_keep_negative_zero_and_nan_payloads_apart():
    x = np.array([0.0, -0.0, np.nan, 1.0], dtype=np.float32)
    x[2:3].view(np.uint32)[0] = 0x7FC00001
    y = x[[1, 0, 3, 2]]
    report = ops.identify(x, y)
    np.testing.assert_array_equal(report.source_index, [1, 0, 3, 2])
    canonical_nan = np.array([np.nan], np.float32)
    assert ops.identify(x, canonical_nan).source_index[0] == -1  # a different NaN is not x's element


def test_duplicate_values_in_x_are_refused_naming_both_elements():
    x = np.array([[1, 2], [3, 2]], dtype=np.int32)
    with pytest.raises(ops.DescriptorError, match=r"x values: 2 appears at x\[0, 1\] and x\[1, 1\]"):
        ops.identify(x, x)
    with pytest.raises(ops.DescriptorError, match=r"x\[0\]\[0, 0\] and x\[1\]\[0, 0\]"):
        ops.identify([x[:1], x[:1]], x)
    # Values that only coincide after conversion to FLOAT64 count as duplicates too.
    big = np.array([2**53, 2**53 + 1], dtype=np.int64)
    with pytest.raises(ops.DescriptorError, match="distinct"):
        ops.identify(big, big.astype(np.float64))


@pytest.mark.parametrize(
    "x, y, message",
    [
        ([1, 2], np.zeros(2), r"x\[0\]: expected a numpy array, got int"),
        ("x", np.zeros(2), "x: expected a numpy array or a non-empty list"),
        (np.zeros(2), [], "y: expected a numpy array or a non-empty list"),
        (np.zeros((2, 0)), np.zeros(2), "a size of 0 is invalid"),
        (np.zeros((1,) * 9), np.zeros(1), "DimensionCount is 9"),
        (np.array([True]), np.array([True]), "x DataType bool"),
        (np.arange(3.0), [np.arange(3.0), "no"], r"y\[1\]: expected a numpy array"),
        (np.array(["a"]), np.array(["a"]), "DataType"),
    ],
)
def test_invalid_arguments_raise_descriptor_errors(x, y, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.identify(x, y)


def test_the_element_cap_is_checked_for_all_inputs_together():
    with ops.element_cap_set_to(10):
        with pytest.raises(ops.DescriptorError, match="all inputs together"):
            ops.identify([np.arange(6.0), np.arange(6.0) + 6], np.arange(3.0))


# ---------------------------------------------------------------- the DCR <-> CRD converter


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.sampled_from(ORDERS), st.sampled_from(ORDERS),
       st.integers(0, 2**32 - 1))
def test_channel_permutation_matches_the_loop_spec_and_converts_the_orders(bs, c_out, source, target, seed):
    channels = c_out * bs * bs
    p = ops.channel_permutation(channels, bs, source, target)
    assert p.dtype == np.int64 and p.tolist() == spec_channel_permutation(channels, bs, source, target)
    rng = np.random.default_rng(seed)
    shape = (rng.integers(1, 3), channels, rng.integers(1, 4), rng.integers(1, 4))
    x = rng.integers(-1000, 1000, shape, dtype=np.int32)
    np.testing.assert_array_equal(depth_to_space(x[:, p], bs, target), depth_to_space(x, bs, source))
    q = inverse_permutation(p)
    np.testing.assert_array_equal(q, ops.channel_permutation(channels, bs, target, source))
    np.testing.assert_array_equal(p[q], np.arange(channels))
    space = depth_to_space(x, bs, source)
    np.testing.assert_array_equal(space_to_depth(space, bs, source), space_to_depth(space, bs, target)[:, q])


def test_channel_permutation_worked_example_and_identity():
    # 8 channels, BlockSize 2: DCR channel (bh*2 + bw)*2 + c' must hold CRD channel c'*4 + bh*2 + bw.
    assert ops.channel_permutation(8, 2, "COLUMN_ROW_DEPTH", "DEPTH_COLUMN_ROW").tolist() == [0, 4, 1, 5, 2, 6, 3, 7]
    assert ops.channel_permutation(8, 2, "DCR", "CRD").tolist() == [0, 2, 4, 6, 1, 3, 5, 7]
    assert ops.channel_permutation(9, 3, "DCR", "DCR").tolist() == list(range(9))
    assert ops.channel_permutation(5, 1, "DCR", "CRD").tolist() == list(range(5))


@pytest.mark.parametrize(
    "args, message",
    [
        ((6, 2, "DCR", "CRD"), "C \\(channels\\) 6: must be divisible by BlockSize\\^2 = 4"),
        ((0, 1, "DCR", "CRD"), "C \\(channels\\) 0: must be at least 1"),
        ((4, 2.0, "DCR", "CRD"), "BlockSize 2.0: must be a positive integer"),
        ((4, 2, "DCR", "XYZ"), "Order 'XYZ'"),
    ],
)
def test_channel_permutation_refusals(args, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.channel_permutation(*args)


@pytest.mark.parametrize("bad", [[0, 0, 1], [1, 2, 3], np.array([0.0, 1.0]), np.zeros((2, 2), int)])
def test_inverse_permutation_refuses_non_permutations(bad):
    with pytest.raises(ops.DescriptorError, match="exactly once"):
        inverse_permutation(bad)


def conv2d(x, weights, bias):
    """Plain loops: a stride-1 convolution with 'same' zero padding, [N, Cin, H, W] -> [N, Cout, H, W]."""
    n, cin, h, w = x.shape
    cout, _, kh, kw = weights.shape
    padded = np.pad(x, ((0, 0), (0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2)))
    out = np.zeros((n, cout, h, w), dtype=np.float64)
    for o in range(cout):
        for i in range(kh):
            for j in range(kw):
                out[:, o] += np.einsum("nchw,c->nhw", padded[:, :, i:i + h, j:j + w], weights[o, :, i, j])
        out[:, o] += bias[o]
    return out


@pytest.mark.parametrize("bs", [2, 3])
def test_reordered_conv_weights_let_dcr_compute_what_crd_computed(bs):
    rng = np.random.default_rng(bs)
    channels = 2 * bs * bs
    x = rng.integers(-4, 5, (1, 3, 4, 5)).astype(np.float64)
    weights = rng.integers(-3, 4, (channels, 3, 3, 3)).astype(np.float64)
    bias = rng.integers(-3, 4, channels).astype(np.float64)
    p = ops.channel_permutation(channels, bs, "CRD", "DCR")
    new_weights, new_bias = permute_conv_output_channels(weights, bias, p)
    before = depth_to_space(conv2d(x, weights, bias), bs, "CRD")
    after = depth_to_space(conv2d(x, new_weights, new_bias), bs, "DCR")
    np.testing.assert_array_equal(after, before)
    assert permute_conv_output_channels(weights, None, p)[1] is None


def test_reordered_conv_weights_on_onnx_runtime():
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(7)
    x = rng.integers(-4, 5, (1, 3, 5, 4)).astype(np.float32)
    weights = rng.integers(-3, 4, (8, 3, 3, 3)).astype(np.float32)
    bias = rng.integers(-3, 4, 8).astype(np.float32)

    def upscaler(w, b, mode):
        graph = helper.make_graph(
            [
                helper.make_node("Conv", ["x", "w", "b"], ["features"], pads=[1, 1, 1, 1]),
                helper.make_node("DepthToSpace", ["features"], ["y"], blocksize=2, mode=mode),
            ],
            "upscaler",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
            initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return session.run(None, {"x": x})[0]

    crd = upscaler(weights, bias, "CRD")
    new_weights, new_bias = permute_conv_output_channels(weights, bias, ops.channel_permutation(8, 2, "CRD", "DCR"))
    dcr = upscaler(new_weights, new_bias, "DCR")
    assert crd.tobytes() == dcr.tobytes()
    np.testing.assert_array_equal(crd, depth_to_space(conv2d(x, weights, bias).astype(np.float32), 2, "CRD"))


def test_conv_after_space_to_depth_keeps_its_result_when_the_order_changes():
    rng = np.random.default_rng(3)
    x = rng.integers(-4, 5, (1, 2, 4, 6)).astype(np.float64)
    weights = rng.integers(-3, 4, (5, 8, 1, 1)).astype(np.float64)
    zero = np.zeros(5)
    before = conv2d(space_to_depth(x, 2, "CRD"), weights, zero)
    # space_to_depth(x, CRD) == space_to_depth(x, DCR)[:, P] with P the inverse of the converter's permutation.
    p = inverse_permutation(ops.channel_permutation(8, 2, "CRD", "DCR"))
    after = conv2d(space_to_depth(x, 2, "DCR"), permute_conv_input_channels(weights, p), zero)
    np.testing.assert_array_equal(after, before)


def test_conv_helpers_refuse_mismatched_shapes():
    weights = np.zeros((4, 2, 3, 3))
    with pytest.raises(ops.DescriptorError, match="axis 0 has 4 channels, but the permutation has 3"):
        permute_conv_output_channels(weights, None, [0, 2, 1])
    with pytest.raises(ops.DescriptorError, match="bias shape \\[3\\]"):
        permute_conv_output_channels(weights, np.zeros(3), [0, 1, 2, 3])
    with pytest.raises(ops.DescriptorError, match="convolution weights"):
        permute_conv_input_channels(np.zeros(4), [0, 1, 2, 3])


# ---------------------------------------------------------------- the origin-coded input and .npy files


@pytest.mark.parametrize("data_type", ops.DML_TYPES)
def test_origin_coded_input_spells_flat_indices_and_survives_npy(data_type):
    x = ops.origin_coded_input((2, 3, 4), data_type)
    assert x.dtype == ops.numpy_dtype(data_type) and x.shape == (2, 3, 4)
    np.testing.assert_array_equal(x.ravel().astype(np.float64), np.arange(24))
    data = to_npy_bytes(x)
    assert b"pickle" not in data
    back = ops.read_npy(data)
    assert back.dtype == x.dtype and back.tobytes() == x.tobytes()
    assert np.load(io.BytesIO(data), allow_pickle=False).tobytes() == x.tobytes()


@pytest.mark.parametrize(
    "data_type, fits, too_many",
    [("FLOAT16", 2048, 2049), ("UINT8", 256, 257), ("INT8", 128, 129), ("FLOAT32", 2**24, 2**24 + 1)],
)
def test_origin_coded_input_refuses_counts_its_type_cannot_spell(data_type, fits, too_many):
    if fits <= 2**16:
        assert np.unique(ops.origin_coded_input((fits,), data_type)).size == fits
    with pytest.raises(ops.DescriptorError, match=f"DataType {data_type}: an origin-coded input of {too_many:,}"):
        ops.origin_coded_input((too_many,), data_type)


def test_origin_coded_float32_holds_2_24_distinct_codes():
    x = ops.origin_coded_input((2**12, 2**12))
    assert x[-1, -1] == 2**24 - 1 and x[-1, -2] == 2**24 - 2


@pytest.mark.parametrize(
    "sizes, message",
    [([], "0 dimensions"), ([1] * 9, "9 dimensions"), ([2, 0], r"Sizes\[1\] 0"), ("12", "expected a list")],
)
def test_origin_coded_input_refuses_bad_sizes(sizes, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.origin_coded_input(sizes)


def _npy(array, **kwargs):
    stream = io.BytesIO()
    np.save(stream, array, **kwargs)
    return stream.getvalue()


class _Trap:
    """Unpickling this would record that code ran."""

    ran = False

    def __reduce__(self):
        return (setattr, (_Trap, "ran", True))


def test_read_npy_never_unpickles():
    data = _npy(np.array([_Trap()], dtype=object), allow_pickle=True)
    with pytest.raises(ops.DescriptorError, match="dtype object is refused"):
        ops.read_npy(data)
    assert _Trap.ran is False
    pickle.loads(pickle.dumps(_Trap()))  # the trap works when something does unpickle it
    assert _Trap.ran is True


def _header_only(shape, descr="<f4"):
    header = {"descr": descr, "fortran_order": False, "shape": shape}
    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(stream, header)
    return stream.getvalue()


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "not a readable .npy file"),
        (b"PK\x03\x04 a zip file", "not a readable .npy file"),
        (_npy(np.arange(6, dtype=np.float32))[:-2], "the file holds 22"),
        (_npy(np.arange(6, dtype=np.float32)) + b"\0", "the file holds 25"),
        (_npy(np.zeros(3, dtype=[("a", "<i4")])), "only plain numeric arrays"),
        (_npy(np.zeros(3, dtype=np.complex64)), "complex64"),
        (_npy(np.zeros(3, dtype=bool)), "bool"),
        (_npy(np.float32(1.0)), "0 dimensions"),
        (_npy(np.zeros((2, 0), np.float32)), r"shape\[1\] 0"),
        (_npy(np.zeros((1,) * 9, np.float32)), "9 dimensions"),
        (_header_only((2**40,)), "exceed the cap"),
        (b"\x93NUMPY\x03\x00" + b"\0" * 20, "format version 3.0"),
    ],
)
def test_read_npy_refuses_malformed_files(data, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.read_npy(data)


def test_read_npy_caps_bytes_and_converts_byte_order_and_fortran_layout():
    data = _npy(np.arange(100, dtype=np.float32))
    with pytest.raises(ops.DescriptorError, match=f"{len(data):,} bytes exceed the cap of 200 bytes"):
        ops.read_npy(data, max_bytes=200)
    big_endian = ops.read_npy(_npy(np.arange(4, dtype=">u4")))
    assert big_endian.dtype == np.uint32 and big_endian.dtype.isnative and big_endian.tolist() == [0, 1, 2, 3]
    fortran = ops.read_npy(_npy(np.asfortranarray(np.arange(6, dtype=np.int16).reshape(2, 3))))
    assert fortran.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert ops.read_npy(bytearray(data)).size == 100
    with pytest.raises(ops.DescriptorError, match="expected the bytes"):
        ops.read_npy("not bytes")


# ---------------------------------------------------------------- printed arrays


@pytest.mark.parametrize(
    "text, expected, dtype",
    [
        ("array([[ 0, 18,  1],\n       [36, 54, 37]], dtype=uint32)", [[0, 18, 1], [36, 54, 37]], np.int64),
        ("tensor([[[0., 9.],\n         [1., 10.]]], dtype=torch.float64)", [[[0.0, 9.0], [1.0, 10.0]]], np.float64),
        ("tf.Tensor(\n[[0 1 2]\n [3 4 5]], shape=(2, 3), dtype=int32)", [[0, 1, 2], [3, 4, 5]], np.int64),
        ("<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[0., 4.],\n       [1., 5.]], dtype=float32)>",
         [[0.0, 4.0], [1.0, 5.0]], np.float64),
        ("0, 18, 1, 19", [0, 18, 1, 19], np.int64),
        ("[nan, -inf, 1e3, .5]", [np.nan, -np.inf, 1000.0, 0.5], np.float64),
    ],
)
def test_read_printed_array_reads_framework_printouts(text, expected, dtype):
    values = ops.read_printed_array(text)
    assert values.dtype == dtype
    np.testing.assert_array_equal(values, np.array(expected, dtype=dtype))


def test_read_printed_array_takes_sizes_and_feeds_the_detective():
    x = ops.origin_coded_input((1, 8, 1, 2))
    printed = np.array2string(depth_to_space(x, 2, "CRD"), separator=", ")
    y = ops.read_printed_array(printed)
    assert y.shape == (1, 2, 2, 4)
    assert ops.identify(x, y).matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}]
    flat = " ".join(str(v) for v in y.ravel())
    assert ops.read_printed_array(flat, sizes=(1, 2, 2, 4)).tolist() == y.tolist()


@pytest.mark.parametrize(
    "text, sizes, message",
    [
        ("[[1, 2], [3]]", None, "not rectangular"),
        ("[[1, 2], [3, [4]]]", None, "not rectangular"),
        ("[1, 2", None, "never closed"),
        ("1, 2]", None, "closes no"),
        ("[1, 2] [3]", None, "one bracketed array"),
        ("[1, ..., 9]", None, "summarized"),
        ("hello 1 2", None, "'hello' at character 0"),
        ("1 2 # 3", None, "'#' at character 4"),
        ("", None, "no numbers"),
        ("1 2 3", (2, 2), "3 values given, but Sizes \\[2, 2\\] hold 4"),
        (b"1 2", None, "expected text"),
    ],
)
def test_read_printed_array_refusals(text, sizes, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.read_printed_array(text, sizes)


def test_read_printed_array_caps_its_text():
    with pytest.raises(ops.DescriptorError, match="exceed the cap of 10"):
        ops.read_printed_array("1 " * 10, max_chars=10)


# ---------------------------------------------------------------- inputs of a join, examples, the before/after diff


def test_origin_coded_inputs_count_through_all_inputs_as_identify_does():
    xs = origin_coded_inputs([(1, 2, 3), (1, 1, 3)], "INT32")
    assert [a.shape for a in xs] == [(1, 2, 3), (1, 1, 3)]
    np.testing.assert_array_equal(np.concatenate([a.ravel() for a in xs]), np.arange(9))
    report = ops.identify(xs, join(xs, 1))
    which, flat = report.source_input_and_index()
    assert which.ravel().tolist() == [0] * 6 + [1] * 3 and flat.ravel().tolist() == list(range(6)) + list(range(3))
    with ops.element_cap_set_to(8):
        with pytest.raises(ops.DescriptorError, match="all inputs together"):
            origin_coded_inputs([(1, 2, 3), (1, 1, 3)])
    with pytest.raises(ops.DescriptorError, match="non-empty list"):
        origin_coded_inputs([])
    with pytest.raises(ops.DescriptorError, match=r"Sizes\[1\]\[0\] 0"):
        origin_coded_inputs([(2,), (0,)])


EXPECTED_EXAMPLES = {
    "pixel_shuffle": ("DEPTH_TO_SPACE1", "COLUMN_ROW_DEPTH"),
    "tf_nhwc": ("DEPTH_TO_SPACE1", "DEPTH_COLUMN_ROW"),
    "pixel_unshuffle": ("SPACE_TO_DEPTH1", "COLUMN_ROW_DEPTH"),
}


@pytest.mark.parametrize("name", list(EXPECTED_EXAMPLES))
@pytest.mark.parametrize("sizes", [None, [(2, 16, 4, 2)]])
def test_framework_examples_are_what_the_core_computes_in_the_order_the_docs_give(name, sizes):
    operator, order = EXPECTED_EXAMPLES[name]
    [x], [y] = detective_example(name, sizes)
    core = depth_to_space if operator == "DEPTH_TO_SPACE1" else space_to_depth
    np.testing.assert_array_equal(y, core(x, 2, order))
    assert ops.identify(x, y).matches == [{"operator": operator, "BlockSize": 2, "Order": order}]


def test_the_mixed_up_example_needs_a_permutation_and_the_diff_shows_it_gone():
    [x], [y] = detective_example("mixed_up", [(1, 12, 2, 2)], "INT32")
    report = ops.identify(x, y)
    assert report.matches == [] and report.permutation is not None
    diff = mix_up_diff(report, x.shape)
    d = diff["descriptor"]
    # Before: exactly the cells where y differs from the descriptor applied to x as given.
    np.testing.assert_array_equal(diff["before"], y != depth_to_space(x, d["BlockSize"], d["Order"]))
    assert diff["before"].any() and not diff["after"].any()
    assert mix_up_diff(ops.identify(x, depth_to_space(x, 2, "CRD")), x.shape) is None


def test_the_diff_of_a_space_to_depth_with_permuted_output_channels():
    x = ops.origin_coded_input((1, 2, 4, 4))
    shuffle = np.array([3, 1, 2, 0, 4, 5, 6, 7])
    y = space_to_depth(x, 2, "DCR")[:, shuffle]
    report = ops.identify(x, y)
    diff = mix_up_diff(report, x.shape)
    assert report.permuted_matches[0]["applies_to"] == "output channels"
    assert not diff["after"].any() and diff["before"].sum() == 2 * 4  # two channels of 2 x 2 moved


@pytest.mark.parametrize("name", ["transpose", "split", "join", "broadcast", "corrupted"])
def test_other_examples_are_reported_as_what_they_are(name):
    xs, ys = detective_example(name)
    report = ops.identify(xs if len(xs) > 1 else xs[0], ys if len(ys) > 1 else ys[0])
    if name == "transpose":
        assert report.transpose == (0, 2, 3, 1) and report.matches == []
    elif name == "split":
        assert report.matches == [{"operator": "SPLIT", "Axis": 1, "OutputCount": 2, "AxisSizes": [1, 3]}]
    elif name == "join":
        assert report.matches == [{"operator": "JOIN", "Axis": 1, "InputCount": 2, "AxisSizes": [2, 1]}]
    elif name == "broadcast":
        assert report.kind == "broadcast"
        np.testing.assert_array_equal(report.source_index, np.arange(24).reshape(1, 2, 3, 4)[..., :1].repeat(4, 3))
    else:
        assert report.kind == "not a rearrangement" and report.unmatched_count == 2
        assert report.near_matches == [{"operator": "DEPTH_TO_SPACE1", "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}]


@pytest.mark.parametrize(
    "name, sizes, message",
    [
        ("pixel_shuffle", [(1, 6, 2, 2)], "C divisible by 4"),
        ("pixel_unshuffle", [(1, 1, 3, 4)], "H and W divisible by 2"),
        ("transpose", [(2, 3)], "needs 4 dimensions"),
        ("split", [(1, 1, 2)], "dimension 1 of size 2"),
        ("join", [(1, 2)], "at least two inputs"),
        ("join", [(1, 2, 3), (2, 1, 2)], "agree in every dimension but 1"),
        ("broadcast", [(2,), (2,)], "takes one input"),
        ("nonsense", None, "expected one of pixel_shuffle"),
    ],
)
def test_examples_refuse_sizes_that_do_not_fit(name, sizes, message):
    with pytest.raises(ops.DescriptorError, match=message):
        detective_example(name, sizes)
