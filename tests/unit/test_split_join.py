"""SPLIT and JOIN against the seed, onnx.reference (Split with a split input, Concat), round trips, refusals."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from onnx.helper import np_dtype_to_tensor_dtype
from onnx.reference import ReferenceEvaluator

import ops
from ops.operators.split_join import join, split

DTYPES = [ops.numpy_dtype(t) for t in ops.DML_TYPES]
SEED_INPUT = np.array([[[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12]]]], dtype=np.float32)


def random_bits(rng, shape, dtype):
    count = int(np.prod(shape)) * dtype.itemsize
    return rng.integers(0, 256, count, dtype=np.uint8).view(dtype).reshape(shape)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def onnx_model(node, inputs, output_count, dtype, initializers=()):
    t = np_dtype_to_tensor_dtype(dtype)
    graph = helper.make_graph(
        [node], node.op_type, [helper.make_tensor_value_info(name, t, a.shape) for name, a in inputs],
        [helper.make_tensor_value_info(f"y{i}", t, None) for i in range(output_count)], initializer=list(initializers),
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return ReferenceEvaluator(model).run(None, dict(inputs))


def onnx_split(x, axis, sizes):
    split = helper.make_tensor("split", TensorProto.INT64, [len(sizes)], sizes)
    node = helper.make_node("Split", ["x", "split"], [f"y{i}" for i in range(len(sizes))], axis=axis)
    return onnx_model(node, [("x", x)], len(sizes), x.dtype, [split])


def onnx_concat(arrays, axis):
    names = [f"x{i}" for i in range(len(arrays))]
    node = helper.make_node("Concat", names, ["y0"], axis=axis)
    return onnx_model(node, list(zip(names, arrays)), 1, arrays[0].dtype)[0]


@st.composite
def split_cases(draw):
    """(x, axis, sizes): any dtype, 1 to 8 dims, sizes along axis drawn as a random composition."""
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=8))
    axis = draw(st.integers(0, len(shape) - 1))
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=5))
    shape[axis] = sum(sizes)
    dtype = draw(st.sampled_from(DTYPES))
    x = random_bits(np.random.default_rng(draw(st.integers(0, 2**32 - 1))), tuple(shape), dtype)
    return x, axis, sizes


# --- the seed's examples ----------------------------------------------------------------------------------

def test_seed_split_axis_2():
    outs = split(SEED_INPUT, 2, [2, 1, 3])
    assert [o.shape for o in outs] == [(1, 1, 2, 2), (1, 1, 1, 2), (1, 1, 3, 2)]
    assert all(o.dtype == np.float32 for o in outs)
    assert outs[0].tolist() == [[[[1, 2], [3, 4]]]]
    assert outs[1].tolist() == [[[[5, 6]]]]
    assert outs[2].tolist() == [[[[7, 8], [9, 10], [11, 12]]]]
    assert same_bits(join(outs, 2), SEED_INPUT)


def test_seed_split_axis_3():
    outs = split(SEED_INPUT, 3, [1, 1])
    assert [o.shape for o in outs] == [(1, 1, 6, 1), (1, 1, 6, 1)]
    assert outs[0].ravel().tolist() == [1, 3, 5, 7, 9, 11]
    assert outs[1].ravel().tolist() == [2, 4, 6, 8, 10, 12]
    assert same_bits(join(outs, 3), SEED_INPUT)


def test_single_output_is_a_plain_copy():
    (out,) = split(SEED_INPUT, 0, [1])
    assert same_bits(out, SEED_INPUT)
    out[...] = 0
    assert SEED_INPUT[0, 0, 5, 1] == 12


# --- properties -------------------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(split_cases())
def test_join_of_split_is_bit_exact(case):
    x, axis, sizes = case
    parts = split(x, axis, sizes)
    assert [p.shape[axis] for p in parts] == sizes
    assert same_bits(join(parts, axis), x)


@settings(max_examples=60, deadline=None)
@given(split_cases())
def test_split_matches_onnx_reference(case):
    x, axis, sizes = case
    ours = split(x, axis, sizes)
    theirs = onnx_split(x, axis, sizes)
    assert len(ours) == len(theirs) == len(sizes)
    assert all(same_bits(a, b) for a, b in zip(ours, theirs))


@settings(max_examples=60, deadline=None)
@given(split_cases(), st.integers(0, 2**32 - 1))
def test_join_matches_onnx_concat(case, seed):
    x, axis, sizes = case
    rng = np.random.default_rng(seed)
    arrays = [random_bits(rng, x.shape[:axis] + (s,) + x.shape[axis + 1:], x.dtype) for s in sizes]
    assert same_bits(join(arrays, axis), onnx_concat(arrays, axis))


# --- refusals ---------------------------------------------------------------------------------------------

def test_split_refuses_sizes_not_summing():
    with pytest.raises(ops.DescriptorError,
                       match=r"Sizes along Axis 2: 2 \+ 1 \+ 2 = 5, but the input's size along Axis is 6"):
        split(SEED_INPUT, 2, [2, 1, 2])


@pytest.mark.parametrize("axis", [4, -1, 10])
def test_split_refuses_axis_out_of_range(axis):
    with pytest.raises(ops.DescriptorError, match=rf"Axis {axis}: must be in \[0, 3\]"):
        split(SEED_INPUT, axis, [6])


@pytest.mark.parametrize("axis", [2.0, "2", None, True])
def test_split_refuses_non_integer_axis(axis):
    with pytest.raises(ops.DescriptorError, match=r"Axis .*must be an integer"):
        split(SEED_INPUT, axis, [6])


def test_split_refuses_output_count_zero():
    with pytest.raises(ops.DescriptorError, match=r"OutputCount 0: must be greater than 0"):
        split(SEED_INPUT, 2, [])


@pytest.mark.parametrize("sizes, rule",
                         [([3, 0, 3], "at least 1"), ([7, -1], "at least 1"), ([3.0, 3], "positive integer")])
def test_split_refuses_bad_output_size(sizes, rule):
    with pytest.raises(ops.DescriptorError, match=rf"OutputTensors\[\d\] Sizes\[2\] .*{rule}"):
        split(SEED_INPUT, 2, sizes)


def test_split_refuses_sizes_that_are_not_a_list():
    with pytest.raises(ops.DescriptorError, match=r"OutputTensors sizes 6: expected a list"):
        split(SEED_INPUT, 2, 6)


@pytest.mark.parametrize("shape", [(), (1,) * 9])
def test_split_refuses_dimension_count(shape):
    with pytest.raises(ops.DescriptorError,
                       match=r"InputTensor Sizes .*DimensionCount is \d+; this operator needs 1 to 8"):
        split(np.zeros(shape, np.float32), 0, [1])


def test_split_refuses_zero_size_and_bad_type():
    with pytest.raises(ops.DescriptorError, match=r"InputTensor Sizes \[2, 0\]: a size of 0"):
        split(np.zeros((2, 0), np.float32), 0, [2])
    with pytest.raises(ops.DescriptorError, match=r"InputTensor DataType bool"):
        split(np.zeros((2, 1), np.bool_), 0, [2])


def test_join_refuses_datatype_mismatch():
    with pytest.raises(ops.DescriptorError,
                       match=r"InputTensors\[1\] DataType float16: must equal InputTensors\[0\] DataType float32"):
        join([np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float16)], 0)


def test_join_refuses_dimension_count_mismatch():
    with pytest.raises(ops.DescriptorError,
                       match=r"InputTensors\[1\] DimensionCount 3: must equal InputTensors\[0\]'s 2"):
        join([np.zeros((2, 2), np.uint8), np.zeros((2, 2, 1), np.uint8)], 0)


def test_join_refuses_size_mismatch_off_axis():
    with pytest.raises(ops.DescriptorError, match=r"InputTensors\[2\] Sizes\[1\] = 3: must equal InputTensors\[0\] "
                                                  r"Sizes\[1\] = 2 \(only Axis 0 may differ\)"):
        join([np.zeros((1, 2), np.int64), np.zeros((4, 2), np.int64), np.zeros((1, 3), np.int64)], 0)


def test_join_refuses_input_count_zero_and_non_list():
    with pytest.raises(ops.DescriptorError, match=r"InputCount 0: must be greater than 0"):
        join([], 0)
    with pytest.raises(ops.DescriptorError, match=r"InputTensors: expected a list of arrays"):
        join(np.zeros((2, 2)), 0)


def test_join_refuses_axis_out_of_range():
    with pytest.raises(ops.DescriptorError, match=r"Axis 2: must be in \[0, 1\]"):
        join([np.zeros((2, 2)), np.zeros((2, 2))], 2)


def test_join_refuses_zero_size_input():
    with pytest.raises(ops.DescriptorError, match=r"InputTensors\[1\] Sizes \[0, 2\]: a size of 0"):
        join([np.zeros((2, 2)), np.zeros((0, 2))], 0)


def test_element_cap_names_the_sizes():
    with ops.element_cap_set_to(100):
        with pytest.raises(ops.DescriptorError,
                           match=r"OutputTensor Sizes \[2, 60\]: 120 elements exceed the cap of 100"):
            join([np.zeros((1, 60), np.uint8), np.zeros((1, 60), np.uint8)], 0)
        with pytest.raises(ops.DescriptorError, match=r"InputTensor Sizes \[101\]: 101 elements exceed the cap of 100"):
            split(np.zeros(101, np.uint8), 0, [100, 1])
