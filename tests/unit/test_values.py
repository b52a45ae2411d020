"""Value patterns: what the sidebar's choices put into a tensor, and how typed values are read."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis.extra import numpy as hnp

from ops import DML_TYPES, DescriptorError, numpy_dtype
from ui.values import make_values, origin_coded, parse_int_list, parse_values, wrap_to

SEED_INPUT = [[[9 * c + 3 * h + w for w in range(3)] for h in range(2)] for c in range(8)]


def test_origin_coded_values_are_the_seeds_input():
    assert make_values("coded", (1, 8, 2, 3), "UINT32").tolist() == [SEED_INPUT]


@given(hnp.array_shapes(min_dims=1, max_dims=6, max_side=5))
def test_origin_coded_values_are_unique_and_follow_the_last_axis(shape):
    coded = origin_coded(shape)
    assert coded.shape == tuple(shape)
    assert len(np.unique(coded)) == math.prod(shape)
    assert (np.diff(coded, axis=-1) == 1).all()


def test_integers_wrap_like_the_bytes_of_a_c_cast():
    assert wrap_to(np.array([255.0, 256.0, 257.0, -1.0]), np.uint8).tolist() == [255, 0, 1, 255]
    assert wrap_to(np.array([128.0, -129.0]), np.int8).tolist() == [-128, 127]


def test_a_sequence_starts_and_steps_as_asked():
    assert make_values("sequence", (1, 1, 6, 2), "FLOAT32", start=1, delta=1).ravel().tolist() == list(range(1, 13))
    assert make_values("sequence", (3,), "INT16", start=-2, delta=-0.5).tolist() == [-2, -2, -3]


@pytest.mark.parametrize("data_type", DML_TYPES)
def test_random_patterns_are_reproducible_per_seed_and_typed(data_type):
    for pattern in ("random", "random_bytes"):
        first = make_values(pattern, (4, 5), data_type, seed=3)
        assert first.dtype == numpy_dtype(data_type) and first.shape == (4, 5)
        assert first.tobytes() == make_values(pattern, (4, 5), data_type, seed=3).tobytes()
        assert first.tobytes() != make_values(pattern, (4, 5), data_type, seed=4).tobytes()


def test_typed_values_take_words_and_bit_patterns():
    values = parse_values("[1.0, 0x40000000, nan, -inf]", (2, 2), np.float32)
    assert values.view(np.uint32).tolist() == [[0x3F800000, 0x40000000], [0x7FC00000, 0xFF800000]]
    assert parse_values("1 2; 3", (3,), np.int8).tolist() == [1, 2, 3]


@pytest.mark.parametrize("text, dtype, message", [
    ("1 2", np.uint8, r"Values: 2 values given, but Sizes \[3\] hold 3"),
    ("1 2 x", np.uint8, r"Values\[2\] 'x': not a uint8 number"),
    ("1 2 256", np.uint8, r"Values\[2\] 256: outside uint8 range \[0, 255\]"),
    ("1 2 0x100", np.uint8, r"Values\[2\] '0x100': not a uint8 number"),
    ("1 2 1.5", np.int32, r"Values\[2\] '1.5': not a int32 number"),
])
def test_garbage_in_typed_values_names_the_entry(text, dtype, message):
    with pytest.raises(DescriptorError, match=message):
        parse_values(text, (3,), dtype)


@pytest.mark.parametrize("text, message", [
    ("", "Sizes: empty"),
    ("2, y", "'y' is not a whole number"),
    ("2, 0", "a size of 0 is invalid"),
    ("1,1,1,1,1,1,1,1,1", "DirectML allows at most 8"),
])
def test_size_lists_name_the_field_and_rule(text, message):
    with pytest.raises(DescriptorError, match=message):
        parse_int_list(text, "Sizes")


def test_the_cap_is_checked_before_a_pattern_allocates():
    with pytest.raises(DescriptorError, match=r"Sizes \[8192, 8193\]"):
        make_values("coded", (8192, 8193), "FLOAT64")


def test_an_unknown_pattern_is_refused():
    with pytest.raises(DescriptorError, match="value pattern 'zeros'"):
        make_values("zeros", (2,), "UINT8")
