"""Tensor descs: DMLCalcBufferTensorSize, defaults, strided access against numpy's as_strided, memory maps."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ops import DescriptorError, buffer_tensor_size
from ops.tensor_desc import (
    MemoryMap,
    TensorDesc,
    element_offsets,
    find_overlap,
    memory_map,
    normalize_tensor_desc,
    parse_tensor_desc,
    strided_read,
    strided_write,
)
from support.specs import make_tensor_desc


@pytest.mark.parametrize(
    "data_type, sizes, strides, expected",
    [
        ("FLOAT16", [3], None, 8),  # SPEC 1: 6 bytes rounded up to 8
        ("FLOAT32", [1, 1, 2, 3], [6, 6, 3, 1], 24),  # SPEC 1
        ("UINT8", [5], None, 8),  # 5 bytes -> 8
        ("INT8", [4], None, 4),
        ("INT64", [2, 3], None, 48),
        ("FLOAT32", [2, 3], [0, 1], 12),  # broadcast rows: last element index 2
        ("FLOAT32", [2, 3], [1, 2], 24),  # column-major: index 1 + 4 = 5 -> 6 elements
        ("FLOAT32", [2, 3], [4, 1], 28),  # padded rows: index 4 + 2 = 6 -> 7 elements
        ("DML_TENSOR_DATA_TYPE_UINT16", [1, 1, 1, 1], None, 4),
        ("FLOAT64", [1], [0], 8),
    ],
)
def test_buffer_tensor_size(data_type, sizes, strides, expected):
    assert buffer_tensor_size(data_type, sizes, strides) == expected


@pytest.mark.parametrize("sizes, strides", [([0, 2], None), ([], None), ([2, 2], [1]), ([2], [-1])])
def test_buffer_tensor_size_refuses(sizes, strides):
    with pytest.raises(DescriptorError):
        buffer_tensor_size("FLOAT32", sizes, strides)


def test_defaults_filled():
    desc = normalize_tensor_desc({"DataType": "FLOAT32", "Sizes": [1, 1, 2, 3]})
    assert desc == TensorDesc("FLOAT32", (1, 1, 2, 3), None, "NONE", 4, 24, 0)
    assert desc.to_json() == {
        "DataType": "FLOAT32", "Flags": "NONE", "DimensionCount": 4, "Sizes": [1, 1, 2, 3],
        "TotalTensorSizeInBytes": 24, "GuaranteedBaseOffsetAlignment": 0,
    }


def test_full_form_equals_short_form():
    # The two equivalent descs of DxDispatch's Guide, section DML_TENSOR_DESC.
    full = {
        "Type": "DML_TENSOR_TYPE_BUFFER",
        "Desc": {
            "DataType": "DML_TENSOR_DATA_TYPE_FLOAT32", "Flags": "DML_TENSOR_FLAG_NONE", "DimensionCount": 4,
            "Sizes": [1, 1, 2, 3], "Strides": [6, 6, 3, 1], "TotalTensorSizeInBytes": 24,
            "GuaranteedBaseOffsetAlignment": 0,
        },
    }
    assert normalize_tensor_desc(full).TotalTensorSizeInBytes == 24
    short = {"DataType": "FLOAT32", "Sizes": [1, 1, 2, 3]}
    assert normalize_tensor_desc(full).Sizes == normalize_tensor_desc(short).Sizes


@pytest.mark.parametrize(
    "obj, path, words",
    [
        ({"Sizes": [2]}, "t.DataType", "missing"),
        ({"DataType": "FLOAT32"}, "t.Sizes", "missing"),
        ({"DataType": "FLOAT8", "Sizes": [2]}, "t.DataType", "not a DirectML data type"),
        ({"DataType": "FLOAT32", "Sizes": [2, 0]}, "t.Sizes[1]", "size of 0"),
        ({"DataType": "FLOAT32", "Sizes": [2, -1]}, "t.Sizes[1]", "integer"),
        ({"DataType": "FLOAT32", "Sizes": []}, "t.Sizes", "non-empty"),
        ({"DataType": "FLOAT32", "Sizes": [1] * 9}, "t.Sizes", "1 to 8"),
        ({"DataType": "FLOAT32", "Sizes": [2, 3], "DimensionCount": 3}, "t.DimensionCount", "length of Sizes"),
        ({"DataType": "FLOAT32", "Sizes": [2, 3], "Strides": [1]}, "t.Strides", "one per dimension"),
        ({"DataType": "FLOAT32", "Sizes": [2, 3], "TotalTensorSizeInBytes": 20}, "t.TotalTensorSizeInBytes", "24"),
        ({"DataType": "FLOAT32", "Sizes": [2], "GuaranteedBaseOffsetAlignment": 3},
         "t.GuaranteedBaseOffsetAlignment", "power of two"),
        ({"DataType": "FLOAT32", "Sizes": [2], "GuaranteedBaseOffsetAlignment": 2},
         "t.GuaranteedBaseOffsetAlignment", "element size"),
        ({"DataType": "FLOAT32", "Sizes": [2], "Flags": "READ_ONLY"}, "t.Flags", "OWNED_BY_DML"),
        ({"DataType": "FLOAT32", "Sizes": [2], "Offset": 4}, "t.Offset", "unknown"),
        ({"DataType": "FLOAT32", "Sizes": "2x3"}, "t.Sizes", "array"),
        ({"Type": "DML_TENSOR_TYPE_INVALID", "Desc": {"DataType": "FLOAT32", "Sizes": [2]}}, "t.Type", "BUFFER"),
        ([1, 2], "t", "JSON object"),
    ],
)
def test_parse_problems_carry_paths(obj, path, words):
    desc, problems = parse_tensor_desc(obj, "t")
    assert desc is None
    assert any(p.path == path and words in p.message for p in problems), problems
    assert all(str(p).startswith(p.path + ": ") for p in problems)
    with pytest.raises(DescriptorError, match=path.replace("[", r"\[").replace("]", r"\]")):
        normalize_tensor_desc(obj, "t")


def test_valid_alignment_and_flags():
    desc = make_tensor_desc("FLOAT32", [2], GuaranteedBaseOffsetAlignment=16, Flags="DML_TENSOR_FLAG_OWNED_BY_DML")
    assert (desc.GuaranteedBaseOffsetAlignment, desc.Flags) == (16, "OWNED_BY_DML")


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=4)


@settings(max_examples=80, deadline=None)
@given(shapes, st.data())
def test_strided_read_matches_as_strided(sizes, data):
    strides = data.draw(st.lists(st.integers(0, 7), min_size=len(sizes), max_size=len(sizes)))
    offset = data.draw(st.integers(0, 5))
    need = offset + sum((s - 1) * t for s, t in zip(sizes, strides)) + 1
    buffer = np.arange(need + data.draw(st.integers(0, 3)), dtype=np.int32)
    expected = np.lib.stride_tricks.as_strided(
        buffer[offset:], shape=sizes, strides=[t * buffer.itemsize for t in strides]
    )
    np.testing.assert_array_equal(strided_read(buffer, sizes, strides, offset), expected)


@settings(max_examples=60, deadline=None)
@given(shapes, st.data())
def test_overlap_agrees_with_brute_force(sizes, data):
    strides = data.draw(st.lists(st.integers(0, 6), min_size=len(sizes), max_size=len(sizes)))
    seen = {}
    collision = False
    for index in itertools.product(*[range(s) for s in sizes]):
        element = sum(i * t for i, t in zip(index, strides))
        collision |= element in seen
        seen.setdefault(element, index)
    found = find_overlap(sizes, strides)
    assert (found is not None) == collision
    if found:
        element, a, b = found
        assert a != b
        assert sum(i * t for i, t in zip(a, strides)) == element == sum(i * t for i, t in zip(b, strides))


def test_strided_write_leaves_padding_untouched():
    buffer = np.full(8, -1, dtype=np.int16)
    values = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int16)
    strided_write(buffer, values, [4, 1])
    np.testing.assert_array_equal(buffer, [1, 2, 3, -1, 4, 5, 6, -1])
    np.testing.assert_array_equal(strided_read(buffer, [2, 3], [4, 1]), values)


def test_strided_access_out_of_range_refused():
    with pytest.raises(DescriptorError, match="reach element 6"):
        strided_read(np.zeros(6, np.float32), [2, 3], [4, 1])
    with pytest.raises(DescriptorError, match="buffer"):
        strided_write(np.zeros(2, np.float32), np.ones(3, np.float32))


def test_element_offsets_packed():
    np.testing.assert_array_equal(element_offsets([2, 3]), np.arange(6).reshape(2, 3))


def test_memory_map_broadcast_padding_and_overlap():
    broadcast = memory_map({"DataType": "FLOAT32", "Sizes": [3], "Strides": [0]})
    assert isinstance(broadcast, MemoryMap)
    assert broadcast.counts.tolist() == [3]
    assert broadcast.touches == (((0,), (1,), (2,)),)

    padded = memory_map({"DataType": "UINT8", "Sizes": [2, 2], "Strides": [3, 1]})
    # Elements 0,1 and 3,4 are used; 2 is a gap; 5..7 is the 4-byte round-up of 5 bytes.
    assert padded.counts.tolist() == [1, 1, 0, 1, 1, 0, 0, 0]
    assert padded.untouched.tolist() == [False, False, True, False, False, True, True, True]
    assert padded.touches[3] == ((1, 0),)
    assert not padded.has_overlap

    crossed = memory_map({"DataType": "INT32", "Sizes": [2, 2], "Strides": [1, 1]})
    assert crossed.counts.tolist() == [1, 2, 1]
    assert set(crossed.touches[1]) == {(0, 1), (1, 0)}
    assert crossed.has_overlap and crossed.repeated.tolist() == [False, True, False]


def test_memory_map_counts_sum_to_element_count():
    desc = make_tensor_desc("FLOAT16", [2, 3, 2], [0, 2, 1], TotalTensorSizeInBytes=64)
    mm = memory_map(desc)
    assert mm.counts.sum() == math.prod(desc.Sizes)
    assert len(mm.counts) == 32  # 64 bytes / 2
