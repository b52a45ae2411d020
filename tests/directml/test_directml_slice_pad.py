"""The slice, pad and tile family on DirectML itself: every worked example of the API pages, what DirectML does where
the pages are silent or wrong (the bytes in support/observed.py, which the core models and tests/unit holds it to),
the descriptors DirectML refuses as the core does, and random calls of every operator, byte for byte.

A DirectML that changes its answer fails here, not only in the cross-check (docs/directml.md, "Slice, pad and tile").
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import ops
from ops.operators import slice_pad
from ops.operators.slice_pad.examples import EXAMPLES
from ops.runtime import directml as dml
from ops.runtime.directml_check import packed_desc
from support.observed import (
    PADDING_WIDE_AND_SIZE_ONE,
    REVERSE_PAST_THE_AXIS,
    SCALAR_UNION_READS,
    UPSAMPLE_FLOAT16_NANS,
)
from support.slice_pad_calls import calls

pytestmark = pytest.mark.directml

FAMILY = [op.name for op in slice_pad.OPERATORS]
E_INVALIDARG = 0x80070057


def on_directml(name, inputs, **attrs):
    report = ops.cross_check(name, inputs, runtime="directml", **attrs)
    assert report.available, report.note
    return report


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.op} {e.name}")
def test_every_api_page_example_on_directml(directml, example):
    report = on_directml(example.op, list(example.inputs), **example.attrs)
    assert report.matches and report.actual[0].tobytes() == example.output.tobytes(), report.note


@pytest.mark.parametrize("row", PADDING_WIDE_AND_SIZE_ONE, ids=lambda r: f"{r[0]} {len(r[1])} by {r[2]},{r[3]}")
def test_directml_still_folds_wide_pads_and_repeats_a_size_one_dimension(directml, row):
    mode, values, start, end, written = row
    report = on_directml("PADDING1", [np.array(values, np.int32)], mode=mode, start_padding=(start,),
                         end_padding=(end,))
    assert report.actual[0].tolist() == written


@pytest.mark.parametrize("row", REVERSE_PAST_THE_AXIS, ids=lambda r: r[0])
def test_directml_still_clamps_the_index_not_the_length(directml, row):
    lengths_type, lengths, written = row
    x = (np.arange(35) + 1).astype(np.float32).reshape(1, 1, 7, 5)
    lengths = np.array(lengths, ops.numpy_dtype(lengths_type)).reshape(1, 1, 7, 1)
    report = on_directml("REVERSE_SUBSEQUENCES", [x, lengths], axis=3)
    first_of_line = np.arange(7).reshape(7, 1) * 5
    assert (report.actual[0].reshape(7, 5).astype(np.int64) - first_of_line).tolist() == written


def test_directml_still_quiets_float16_signalling_nans_when_it_upsamples(directml):
    x = np.array([a for a, _ in UPSAMPLE_FLOAT16_NANS], np.uint16).view(np.float16).reshape(1, 1, 1, -1)
    report = on_directml("UPSAMPLE_2D", [x], scale_size=(1, 1))
    assert report.actual[0].view(np.uint16).ravel().tolist() == [b for _, b in UPSAMPLE_FLOAT16_NANS]


def padding_desc(data_type, value_type, value, mode=0):
    """PADDING1 of one element padded by one before it, its PaddingValue given as written (bytes or a number)."""
    return dml.OperatorDesc("PADDING1", {
        "InputTensor": packed_desc((1, 1), ops.numpy_dtype(data_type)),
        "OutputTensor": packed_desc((1, 2), ops.numpy_dtype(data_type)),
        "PaddingMode": mode, "PaddingValueDataType": value_type, "PaddingValue": value,
        "StartPadding": [0, 1], "EndPadding": [0, 0]})


@pytest.mark.parametrize("data_type, union, written", SCALAR_UNION_READS, ids=lambda v: v.hex() if
                         isinstance(v, bytes) else None)
def test_directml_still_reads_a_padding_value_s_union_so(directml, data_type, union, written):
    dtype = ops.numpy_dtype(data_type)
    result = dml.run_desc(padding_desc(data_type, data_type, union), {"InputTensor": bytes(4)})
    assert result.ok, result.reason
    assert int(np.frombuffer(result.output("OutputTensor"), dtype)[:2].view(f"u{dtype.itemsize}")[0]) == written


def slice_desc(offsets, sizes, strides, output):
    return dml.OperatorDesc("SLICE1", {
        "InputTensor": packed_desc((4, 4), np.float32), "OutputTensor": packed_desc(output, np.float32),
        "InputWindowOffsets": offsets, "InputWindowSizes": sizes, "InputWindowStrides": strides})


REFUSED = {
    # The window must lie inside the input even where the elements read do: 2 + 4 > 4, reading columns 2 and 3.
    "a window past the input, read inside it": slice_desc([0, 2], [4, 4], [1, 1], (4, 2)),
    "a stride of 0": slice_desc([0, 0], [4, 4], [1, 0], (4, 1)),
    "more output than MaxCopiedElements": slice_desc([0, 0], [4, 3], [1, 2], (4, 3)),
    "a window size of 0": slice_desc([0, 0], [4, 0], [1, 1], (4, 1)),
    # DML_PADDING_MODE_WRAP (4) came with feature level 6_4; DirectML 1.13 is 6_2.
    "PaddingMode WRAP": padding_desc("FLOAT32", "FLOAT32", 0.0, mode=4),
    "a PaddingValueDataType other than the output's": padding_desc("FLOAT32", "FLOAT16", 0.0),
    "Repeats for 3 of 4 dimensions": dml.OperatorDesc("TILE", {
        "InputTensor": packed_desc((1, 1, 2, 3), np.float32), "OutputTensor": packed_desc((1, 1, 6, 3), np.float32),
        "Repeats": [1, 1, 3]}),
    "a Repeats of 0": dml.OperatorDesc("TILE", {
        "InputTensor": packed_desc((2, 3), np.float32), "OutputTensor": packed_desc((2, 3), np.float32),
        "Repeats": [1, 0]}),
    "lengths of the input's Sizes": dml.OperatorDesc("REVERSE_SUBSEQUENCES", {
        "InputTensor": packed_desc((3, 4), np.float32), "SequenceLengthsTensor": packed_desc((3, 4), np.uint32),
        "OutputTensor": packed_desc((3, 4), np.float32), "Axis": 1}),
    "INT32 lengths": dml.OperatorDesc("REVERSE_SUBSEQUENCES", {
        "InputTensor": packed_desc((3, 4), np.float32), "SequenceLengthsTensor": packed_desc((3, 1), np.int32),
        "OutputTensor": packed_desc((3, 4), np.float32), "Axis": 1}),
    "an integer upsample": dml.OperatorDesc("UPSAMPLE_2D", {
        "InputTensor": packed_desc((1, 1, 2, 2), np.uint8), "OutputTensor": packed_desc((1, 1, 4, 4), np.uint8),
        "ScaleSize": [2, 2], "InterpolationMode": "NEAREST_NEIGHBOR"}),
}


@pytest.mark.parametrize("desc", REFUSED.values(), ids=REFUSED.keys())
def test_directml_refuses_what_the_core_refuses(directml, desc):
    assert dml.verdict(desc).hresult == E_INVALIDARG


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=calls(FAMILY))
def test_random_calls_of_every_operator_are_byte_identical(directml, case):
    op, inputs, attrs = case
    if ops.type_name(inputs[0].dtype) not in directml.type_support:  # FLOAT64 on this device
        return
    report = on_directml(op, inputs, **attrs)
    assert report.matches, report.note
