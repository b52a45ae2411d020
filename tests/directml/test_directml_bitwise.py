"""The bitwise family on DirectML itself: the pages' examples, and what DirectML does with shifts by the element's
width or more, which its pages leave unsaid and the core models after it (ops/operators/bitwise/core.py).

The bytes asserted here are the ones DirectML 1.13 wrote when the core's model was made (docs/directml.md, "Shifts
past the width"; tests/unit/test_bitwise_family.py holds the core to the same table), so a DirectML that changes its
answer fails here, not only in the cross-check.
"""

import numpy as np
import pytest

import ops
from ops.runtime import directml as dml
from ops.runtime.directml_check import packed_desc
from support.observed import SHIFTS, SHIFTS_PAST_THE_WIDTH

pytestmark = pytest.mark.directml

UNSIGNED = ["UINT8", "UINT16", "UINT32", "UINT64"]


def on_directml(name, inputs, **attrs):
    report = ops.cross_check(name, inputs, runtime="directml", **attrs)
    assert report.available, report.note
    return report


def test_the_pages_examples(directml):
    count = on_directml("ELEMENT_WISE_BIT_COUNT", [np.array([[0, 123], [456, 789]], np.uint32)])
    assert count.matches and count.actual[0].tolist() == [[0, 6], [4, 5]] and count.actual[0].dtype == np.uint32
    flipped = on_directml("ELEMENT_WISE_BIT_NOT", [np.array([[0, 128], [42, 255]], np.uint8)])
    assert flipped.matches and flipped.actual[0].tolist() == [[255, 127], [213, 0]]


# One element with its top and bottom bits set, shifted by every amount up to twice its width and past.
def amounts(data_type):
    width = ops.numpy_dtype(data_type).itemsize * 8
    listed = list(range(2 * width + 2)) + [255, 256, 4095]
    if width == 64:
        listed += [2**32 - 1, 2**32, 2**32 + 1, 2**32 + 40, 2**63, 2**64 - 1]
    return [b for b in listed if b < 2**width]


@pytest.mark.parametrize("name", SHIFTS)
@pytest.mark.parametrize("data_type", UNSIGNED)
def test_shifts_by_every_amount_are_the_core_s(directml, name, data_type):
    dtype = ops.numpy_dtype(data_type)
    width = dtype.itemsize * 8
    b = np.array(amounts(data_type), dtype)
    a = np.full(b.shape, (1 << (width - 1)) | 0b1011, dtype)
    report = on_directml(name, [a, b])
    assert report.matches, report.note


@pytest.mark.parametrize("data_type, a, shifts, left, right", SHIFTS_PAST_THE_WIDTH,
                         ids=[row[0] for row in SHIFTS_PAST_THE_WIDTH])
def test_directml_still_writes_the_observed_bytes(directml, data_type, a, shifts, left, right):
    dtype = ops.numpy_dtype(data_type)
    x, b = np.full(len(shifts), a, dtype), np.array(shifts, dtype)
    assert on_directml("ELEMENT_WISE_BIT_SHIFT_LEFT", [x, b]).actual[0].tolist() == left
    assert on_directml("ELEMENT_WISE_BIT_SHIFT_RIGHT", [x, b]).actual[0].tolist() == right


@pytest.mark.parametrize("name", SHIFTS)
@pytest.mark.parametrize("data_type", UNSIGNED)
def test_arbitrary_amounts_are_the_core_s(directml, name, data_type):
    """4096 elements of arbitrary bits and amounts: a quarter below twice the width, a quarter below 256, the rest
    raw (for UINT64 some with a high word set over a small low word)."""
    dtype = ops.numpy_dtype(data_type)
    width = dtype.itemsize * 8
    rng = np.random.default_rng(width)
    n = 4096
    a = rng.integers(0, 256, n * dtype.itemsize, dtype=np.uint8).view(dtype)
    b = rng.integers(0, 256, n * dtype.itemsize, dtype=np.uint8).view(dtype).copy()
    b[: n // 4] %= dtype.type(2 * width)
    b[n // 4: n // 2] %= dtype.type(min(256, 2**width - 1))
    if width == 64:
        b[n // 2: n // 2 + 256] = (rng.integers(0, 2**32, 256, dtype=np.uint64) << np.uint64(32)) | \
            rng.integers(0, 100, 256, dtype=np.uint64)
    report = on_directml(name, [a, b])
    assert report.matches, report.note


def verdict(name, input_types, output_type, directml):
    descs = [packed_desc((2, 3), ops.numpy_dtype(t)) for t in input_types]
    return dml.create_operator_verdict(name, descs, [packed_desc((2, 3), ops.numpy_dtype(output_type))], {},
                                       directml.max_feature_level)


@pytest.mark.parametrize("output_type", ["UINT16", "INT32", "UINT64", "FLOAT32"])
def test_directml_refuses_a_count_of_any_other_output_type(directml, output_type):
    # The page's tables give OutputTensor UINT32 and UINT8 only; DirectML's CreateOperator agrees, and so does the core.
    assert verdict("ELEMENT_WISE_BIT_COUNT", ["UINT8"], output_type, directml) == 0x80070057
    desc = {"InputTensor": {"DataType": "UINT8", "Sizes": [2, 3]}, "OutputTensor": {"DataType": output_type,
                                                                                    "Sizes": [2, 3]}}
    assert ops.validate({"type": "ELEMENT_WISE_BIT_COUNT", "desc": desc}, "6_4")


@pytest.mark.parametrize("name", SHIFTS)
@pytest.mark.parametrize("data_type", ["INT8", "INT32", "INT64", "FLOAT16", "FLOAT32"])
def test_directml_refuses_a_shift_of_a_signed_or_float_type(directml, name, data_type):
    # The shifts' tables list unsigned types only, at every level; DirectML's CreateOperator agrees.
    assert verdict(name, [data_type, data_type], data_type, directml) == 0x80070057


def test_directml_counts_the_raw_bits_of_every_type_it_supports(directml):
    rng = np.random.default_rng(3)
    for data_type in directml.type_support:
        dtype = ops.numpy_dtype(data_type)
        x = rng.integers(0, 256, 64 * dtype.itemsize, dtype=np.uint8).view(dtype)
        for output_type in ("UINT32", "UINT8"):
            report = on_directml("ELEMENT_WISE_BIT_COUNT", [x], output_type=output_type)
            assert report.matches and report.actual[0].dtype == ops.numpy_dtype(output_type), report.note
