"""ELEMENT_WISE_BIT_OR: bit patterns worked out by hand, onnx.reference for the integer types, refusals."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import helper
from onnx.helper import np_dtype_to_tensor_dtype
from onnx.reference import ReferenceEvaluator

import ops
from ops.datatypes import FLOAT_TYPES
from ops.operators.bitwise import bit_or

DTYPES = [ops.numpy_dtype(t) for t in ops.DML_TYPES]
INTEGER_DTYPES = [ops.numpy_dtype(t) for t in ops.DML_TYPES if t not in FLOAT_TYPES]


def bits(dtype, *patterns):
    """Float values built from their bit patterns, so the test states the encoding it means."""
    width = np.dtype(dtype).itemsize
    return np.array(patterns, dtype=f"u{width}").view(dtype)


def as_bits(x):
    return x.view(f"u{x.dtype.itemsize}").tolist()


def random_bits(rng, shape, dtype):
    count = int(np.prod(shape)) * dtype.itemsize
    return rng.integers(0, 256, count, dtype=np.uint8).view(dtype).reshape(shape)


def onnx_bitwise_or(a, b):
    node = helper.make_node("BitwiseOr", ["a", "b"], ["y"])
    t = np_dtype_to_tensor_dtype(a.dtype)
    graph = helper.make_graph(
        [node], "or", [helper.make_tensor_value_info("a", t, a.shape), helper.make_tensor_value_info("b", t, b.shape)],
        [helper.make_tensor_value_info("y", t, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return ReferenceEvaluator(model).run(None, {"a": a, "b": b})[0]


@st.composite
def operand_pairs(draw, dtypes):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=8)))
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return random_bits(rng, shape, dtype), random_bits(rng, shape, dtype)


# --- bit patterns worked out by hand ----------------------------------------------------------------------

def test_float32_one_or_two_is_infinity():
    # 1.0 = 0x3F800000, 2.0 = 0x40000000; OR sets every exponent bit and no mantissa bit.
    out = bit_or(np.array([1.0], np.float32), np.array([2.0], np.float32))
    assert as_bits(out) == [0x7F800000]
    assert out[0] == np.inf


def test_float16_one_or_two_is_infinity():
    out = bit_or(bits(np.float16, 0x3C00), bits(np.float16, 0x4000))
    assert out.dtype == np.float16 and as_bits(out) == [0x7C00] and out[0] == np.inf


def test_float64_one_or_two_is_infinity():
    out = bit_or(np.array([1.0]), np.array([2.0]))
    assert as_bits(out) == [0x7FF0000000000000] and out[0] == np.inf


@pytest.mark.parametrize("dtype, sign", [(np.float16, 0x8000), (np.float32, 0x80000000),
                                         (np.float64, 0x8000000000000000)])
def test_negative_zero_or_zero_is_negative_zero(dtype, sign):
    out = bit_or(np.array([-0.0], dtype), np.array([0.0], dtype))
    assert as_bits(out) == [sign] and np.signbit(out[0])


def test_nan_payload_is_kept():
    # Quiet NaN 0x7FC01234 | 0x00100001 = 0x7FD01235; signalling NaN 0x7F801234 | 0x00000001 = 0x7F801235.
    a = bits(np.float32, 0x7FC01234, 0x7F801234)
    b = bits(np.float32, 0x00100001, 0x00000001)
    assert as_bits(bit_or(a, b)) == [0x7FD01235, 0x7F801235]


def test_subnormals():
    # Smallest float32 subnormals 0x00000001 | 0x00000002 = 0x00000003 (3 * 2^-149); with 0x00800000 it turns normal.
    out = bit_or(bits(np.float32, 0x00000001, 0x00000001), bits(np.float32, 0x00000002, 0x00800000))
    assert as_bits(out) == [0x00000003, 0x00800001]
    assert out[0] == np.float32(3 * 2.0**-149)
    half = bit_or(bits(np.float16, 0x0001), bits(np.float16, 0x0200))
    assert as_bits(half) == [0x0201]


def test_signed_integers_use_twos_complement():
    out = bit_or(np.array([-128, 5, -1], np.int8), np.array([1, 2, 0], np.int8))
    assert out.tolist() == [-127, 7, -1]
    assert bit_or(np.array([2**62], np.int64), np.array([-(2**63)], np.int64)).tolist() == [-(2**62)]


def test_uint32_seed_style():
    out = bit_or(np.array([[0x0F, 0xF0], [0x12345678, 0]], np.uint32),
                 np.array([[0xF0, 0xF0], [0x87654321, 0]], np.uint32))
    assert out.tolist() == [[0xFF, 0xF0], [0x97755779, 0]]


# --- properties -------------------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(operand_pairs(INTEGER_DTYPES))
def test_integers_match_onnx_reference(pair):
    a, b = pair
    out = bit_or(a, b)
    expected = onnx_bitwise_or(a, b)
    assert out.dtype == a.dtype and out.shape == a.shape
    assert out.tobytes() == expected.tobytes()


@settings(max_examples=80, deadline=None)
@given(operand_pairs(DTYPES))
def test_every_type_is_or_of_the_bit_patterns(pair):
    """Same width, same bits: the float result is the integer OR of the encodings, bit for bit."""
    a, b = pair
    width = f"u{a.dtype.itemsize}"
    out = bit_or(a, b)
    assert out.dtype == a.dtype
    assert out.tobytes() == np.bitwise_or(a.view(width), b.view(width)).tobytes()
    assert out.tobytes() == bit_or(b, a).tobytes()
    assert bit_or(out, a).tobytes() == out.tobytes()


def test_inputs_are_unchanged():
    a, b = np.array([1.0], np.float32), np.array([2.0], np.float32)
    bit_or(a, b)
    assert a[0] == 1.0 and b[0] == 2.0


# --- refusals ---------------------------------------------------------------------------------------------

def test_refuses_datatype_mismatch():
    with pytest.raises(ops.DescriptorError, match=r"BTensor DataType int32: must equal ATensor DataType uint32"):
        bit_or(np.zeros(3, np.uint32), np.zeros(3, np.int32))


def test_refuses_sizes_mismatch_without_broadcasting():
    with pytest.raises(ops.DescriptorError,
                       match=r"BTensor Sizes \[1, 3\]: must equal ATensor Sizes \[2, 3\].*broadcast"):
        bit_or(np.zeros((2, 3), np.uint8), np.zeros((1, 3), np.uint8))


@pytest.mark.parametrize("dtype", [np.bool_, np.complex64, np.complex128])
@pytest.mark.parametrize("field", ["ATensor", "BTensor"])
def test_refuses_non_directml_types(dtype, field):
    good = np.zeros(2, np.uint8)
    bad = np.zeros(2, dtype)
    args = (bad, good) if field == "ATensor" else (good, bad)
    with pytest.raises(ops.DescriptorError, match=f"{field} DataType"):
        bit_or(*args)


@pytest.mark.parametrize("shape", [(), (1,) * 9])
def test_refuses_dimension_count(shape):
    with pytest.raises(ops.DescriptorError, match=r"ATensor Sizes .*DimensionCount is \d+; this operator needs 1 to 8"):
        bit_or(np.zeros(shape, np.uint8), np.zeros(shape, np.uint8))


def test_refuses_zero_size():
    with pytest.raises(ops.DescriptorError, match=r"ATensor Sizes \[2, 0\]: a size of 0"):
        bit_or(np.zeros((2, 0), np.uint8), np.zeros((2, 0), np.uint8))


def test_refuses_non_array():
    with pytest.raises(ops.DescriptorError, match="ATensor: expected a numpy array"):
        bit_or([1, 2], np.zeros(2, np.int64))


def test_element_cap_names_the_sizes():
    with ops.element_cap_set_to(10):
        with pytest.raises(ops.DescriptorError, match=r"ATensor Sizes \[3, 4\]: 12 elements exceed the cap of 10"):
            bit_or(np.zeros((3, 4), np.uint8), np.zeros((3, 4), np.uint8))
