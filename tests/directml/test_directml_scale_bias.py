"""ScaleBias (DML_SCALE_BIAS on ELEMENT_WISE_IDENTITY): the core's model against a plain-loop spec written from the
observed rules, and against DirectML itself byte for byte (the tests marked directml).

The spec works element by element with Python integers and exact fractions, so it shares no arithmetic with the
model's vectorised numpy (ops/operators/identity/scale_bias.py): every rounding is done by hand here.
"""

import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.datatypes import type_name
from ops.descriptors.layouts import identity_problems
from ops.operators.identity.scale_bias import apply_scale_bias
from ops.runtime.directml_check import packed_desc

SCALE_BIAS_TYPES = ("FLOAT32", "FLOAT16", "UINT32", "UINT16", "UINT8", "INT32", "INT16", "INT8")
INVALID_NAN = 0xFFC00000


# ---------------------------------------------------------------- the spec, one element at a time


def f32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def f32_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def is_nan_bits(bits):
    return (bits & 0x7FFFFFFF) > 0x7F800000


def round_to_float32(q):
    """Bits of the float32 nearest the exact rational q (ties to even; subnormals; beyond the range, infinity)."""
    if q == 0:
        return 0
    sign = 0x80000000 if q < 0 else 0
    q = abs(q)
    exponent = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** exponent > q:
        exponent -= 1
    quantum = Fraction(2) ** (max(exponent, -126) - 23)
    units, rest = divmod(q, quantum)
    if rest * 2 > quantum or (rest * 2 == quantum and units % 2):
        units += 1
    value = units * quantum
    if value >= Fraction(2) ** 128:
        return sign | 0x7F800000
    return sign | f32_bits(float(value))


def product_bits(x, s):
    """round(x * s) in float32, NaNs and invalid operations as observed (Scale's NaN first)."""
    if is_nan_bits(s):
        return s | 0x400000
    if is_nan_bits(x):
        return x | 0x400000
    a, b = f32_value(x), f32_value(s)
    if (math.isinf(a) and b == 0) or (a == 0 and math.isinf(b)):
        return INVALID_NAN
    if math.isinf(a) or math.isinf(b):
        return ((x ^ s) & 0x80000000) | 0x7F800000
    if a == 0 or b == 0:
        return (x ^ s) & 0x80000000
    return round_to_float32(Fraction(a) * Fraction(b))


def sum_bits(p, b):
    """round(p + b) in float32 (the product's NaN first, then Bias's)."""
    if is_nan_bits(p):
        return p
    if is_nan_bits(b):
        return b | 0x400000
    u, v = f32_value(p), f32_value(b)
    if math.isinf(u) and math.isinf(v):
        return p if (p ^ b) & 0x80000000 == 0 else INVALID_NAN
    if math.isinf(u):
        return p
    if math.isinf(v):
        return b
    if u == 0 and v == 0:
        return p & b & 0x80000000  # -0 only when both are -0
    return round_to_float32(Fraction(u) + Fraction(v))


def to_float16_bits(bits):
    """float32 bits -> float16 bits: toward zero, beyond 65504 infinite, NaN quiet with its top payload bits."""
    sign = (bits >> 16) & 0x8000
    if is_nan_bits(bits):
        return sign | 0x7E00 | ((bits >> 13) & 0x3FF)
    value = abs(f32_value(bits))
    if value > 65504:
        return sign | 0x7C00
    if value == 0:
        return sign
    exponent = max(math.frexp(value)[1] - 1, -14)  # floor(log2(value)), exactly
    quantum = Fraction(2) ** (exponent - 10)
    units = math.floor(Fraction(value) / quantum)
    return sign | struct.unpack("<H", struct.pack("<e", float(units * quantum)))[0]


def spec(value_bits, data_type, scale, bias):
    """One element's output bits (or integer) for ScaleBias (scale, bias) as DirectML computes it."""
    s, b = f32_bits(scale), f32_bits(bias)
    if f32_value(s) == 1.0 and f32_value(b) == 0.0:
        return value_bits
    if data_type == "FLOAT32":
        x = value_bits
    elif data_type == "FLOAT16":
        x = f32_bits(struct.unpack("<e", struct.pack("<H", value_bits))[0])
        if (value_bits & 0x7FFF) > 0x7C00:  # a float16 NaN widens with its payload, kept exactly
            x = ((value_bits & 0x8000) << 16) | 0x7F800000 | ((value_bits & 0x3FF) << 13)
    else:
        x = round_to_float32(Fraction(value_bits))
    y = sum_bits(product_bits(x, s), b)
    if data_type == "FLOAT32":
        return y
    if data_type == "FLOAT16":
        return to_float16_bits(y)
    info = np.iinfo(ops.numpy_dtype(data_type))
    if is_nan_bits(y):
        return 0
    value = f32_value(y)
    if math.isinf(value):
        return info.max if value > 0 else info.min
    return min(max(math.trunc(value), info.min), info.max)


def spec_array(values, scale, bias):
    data_type = type_name(values.dtype)
    if values.dtype.kind == "f":
        bits = values.view(np.uint32 if values.dtype.itemsize == 4 else np.uint16)
        out = [spec(int(v), data_type, scale, bias) for v in bits]
        return np.array(out, bits.dtype).view(values.dtype)
    return np.array([spec(int(v), data_type, scale, bias) for v in values], values.dtype)


def same_bytes(a, b):
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


# ---------------------------------------------------------------- the model against the spec

FLOAT32_SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-45, -1e-45, 1e-38, 3.4e38, math.inf, -math.inf, math.nan,
                    1 + 2**-23, 65504.0, 1 / 3]
scalars = st.one_of(st.sampled_from(FLOAT32_SPECIALS), st.floats(width=32, allow_nan=False),
                    st.floats(-8, 8, width=32))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SCALE_BIAS_TYPES), st.binary(min_size=64, max_size=64), scalars, scalars)
def test_the_model_is_the_spec_for_every_type_bit_pattern_and_scale_bias(data_type, data, scale, bias):
    values = np.frombuffer(data, ops.numpy_dtype(data_type))
    assert same_bytes(apply_scale_bias(values, scale, bias), spec_array(values, scale, bias))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SCALE_BIAS_TYPES), st.binary(min_size=32, max_size=32))
def test_scale_1_and_bias_0_is_the_copy_bit_for_bit(data_type, data):
    values = np.frombuffer(data, ops.numpy_dtype(data_type))
    for bias in (0.0, -0.0):
        assert same_bytes(apply_scale_bias(values, 1.0, bias), values)


def test_float32_is_a_multiply_then_an_add_each_rounded_not_a_fused_multiply_add():
    x = np.float32(1 + 2**-23)
    fused = Fraction(float(x)) * Fraction(float(x)) - Fraction(1 + 2**-22)
    assert fused != 0  # the exact x * x + Bias, which a fused multiply-add would round once
    assert apply_scale_bias(np.array([x]), float(x), -(1 + 2**-22)).tolist() == [0.0]


def test_float16_truncates_toward_zero_and_overflows_past_65504():
    values = np.float16([0.2, 65504, -65504, 3])
    out = apply_scale_bias(values, 1.0, 0.1)
    assert out.view(np.uint16).tolist()[:3] == [0x34CC, 0x7C00, 0xFBFE]  # nearest would be 0x34CD, 65504, -65504
    assert apply_scale_bias(np.float16([3]), 0.1, 0.0).view(np.uint16).tolist() == [0x34CC]


def test_integers_truncate_toward_zero_and_saturate_and_nan_is_zero():
    assert apply_scale_bias(np.uint8([3, 255, 0]), 1.5, 0.0).tolist() == [4, 255, 0]
    assert apply_scale_bias(np.int8([-3, -128, 100]), 1.5, 0.0).tolist() == [-4, -128, 127]
    assert apply_scale_bias(np.int32([16777217]), 1.0, 1e-30).tolist() == [16777216]  # float32 on the way
    assert apply_scale_bias(np.uint16([7]), 0.0, math.nan).tolist() == [0]


def test_64_bit_types_are_refused():
    with pytest.raises(ops.DescriptorError, match="INT64"):
        apply_scale_bias(np.int64([1]), 2.0, 1.0)


# ---------------------------------------------------------------- DirectML itself


def on_directml(values, scale, bias):
    desc = packed_desc(values.shape, values.dtype).to_json()
    return ops.cross_check("ELEMENT_WISE_IDENTITY", [values], input_desc=desc, output_desc=desc,
                           scale_bias={"Scale": scale, "Bias": bias}, runtime="directml")


def designed_inputs(data_type):
    """Values where the candidate arithmetics part ways: ties, fused vs separate, overflow, NaN payloads, -0.0,
    subnormals, and every bit pattern of the 8-bit types."""
    dtype = ops.numpy_dtype(data_type)
    if data_type == "FLOAT32":
        bits = [0x3F800001, 0x00000001, 0x007FFFFF, 0x80000001, 0x80000000, 0x7FC00001, 0x7F800001, 0xFFC12345,
                0x7F800000, 0xFF800000, 0x4B000001, 0x3EAAAAAB]
        return np.array(bits, np.uint32).view(dtype)
    if data_type == "FLOAT16":
        bits = [0x7BFF, 0xFBFF, 0x3266, 0x4200, 0x0001, 0x0400, 0x03FF, 0x7C01, 0x7E01, 0xFE55, 0x7C00, 0x8000]
        return np.array(bits, np.uint16).view(dtype)
    info = np.iinfo(dtype)
    if info.bits == 8:
        return np.arange(info.min, info.max + 1).astype(dtype)
    return np.array([info.min, info.max, 0, 1, -1 if info.min else 2, 16777217 % (info.max + 1), 12345, 7], dtype)


SCALE_BIASES = [(2.0, 10.0), (1.0, 0.0), (1.0, -0.0), (1 + 2**-23, -(1 + 2**-22)), (0.1, 0.0), (1.0, 0.1),
                (1.5, -0.5), (-1.0, 0.0), (0.0, 0.0), (3.0e9, -7.25), (1.0, math.inf), (math.inf, -math.inf)]


@pytest.mark.directml
@pytest.mark.parametrize("data_type", SCALE_BIAS_TYPES)
def test_directml_computes_scale_bias_as_the_core_does(directml, data_type):
    values = designed_inputs(data_type)
    for scale, bias in SCALE_BIASES:
        report = on_directml(values, scale, bias)
        assert report.available and report.matches, (scale, bias, report.note)
        assert same_bytes(report.actual[0], apply_scale_bias(values, scale, bias))


@pytest.mark.directml
@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SCALE_BIAS_TYPES), st.binary(min_size=256, max_size=256),
       st.floats(-4, 4, width=32), st.floats(-100, 100, width=32))
def test_directml_matches_the_model_on_random_bytes(directml, data_type, data, scale, bias):
    values = np.frombuffer(data, ops.numpy_dtype(data_type)).copy()
    report = on_directml(values, scale, bias)
    assert report.available and report.matches, report.note


@pytest.mark.directml
def test_dxdispatch_s_own_example_gives_12_14_16_on_directml(directml):
    # DxDispatch's models/dml_element_wise_identity.json (microsoft/DirectML): 1, 2, 3 with Scale 2 and Bias 10.
    report = on_directml(np.float32([1, 2, 3]), 2, 10)
    assert report.runtime == "directml" and report.matches
    assert report.actual[0].tolist() == [12.0, 14.0, 16.0]


@pytest.mark.directml
@pytest.mark.parametrize("data_type", ["INT64", "UINT64"])
def test_directml_refuses_scale_bias_on_64_bit_types_as_the_core_does(directml, data_type):
    from ops.runtime.directml import create_operator_verdict

    desc = packed_desc((3,), ops.numpy_dtype(data_type))
    assert create_operator_verdict("ELEMENT_WISE_IDENTITY", [desc], [desc], {"scale_bias": [2.0, 1.0]}, "6_2") \
        == 0x80070057
    assert create_operator_verdict("ELEMENT_WISE_IDENTITY", [desc], [desc], {}, "6_2") == 0
    assert identity_problems(desc.to_json(), desc.to_json(), "6_2", {"Scale": 2.0, "Bias": 1.0})
