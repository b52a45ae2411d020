"""The ONNX twins (ops/runtime/onnx_twins.py) without DirectML: the ULP distance against a plain-loop count of the
floats between two values (hypothesis), each twin built from its catalogue example and run on ONNX Runtime with
DirectML's output shapes and types, the graph-built twins against plain numpy loops of the operators' definitions,
a wrong output named at its index with both values, and the refusals saying why."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ops import catalogue
from ops.runtime import onnx_twins
from ops.runtime.directml import OperatorDesc, pack
from ops.runtime.onnx_twins import EXACT, NoTwin

TWINNED = [name for name in catalogue.names() if name in onnx_twins.TWINS]


def floats_between(a, b):
    """Plain loop: how many float32 steps from a to b (nextafter, one at a time)."""
    a, b = np.float32(a), np.float32(b)
    steps, toward = 0, np.float32(np.inf if b > a else -np.inf)
    while a != b:
        a = np.nextafter(a, toward)
        steps += 1
    return steps


@given(st.floats(-1e3, 1e3, width=32), st.integers(-40, 40))
def test_the_ulp_distance_counts_the_floats_between(a, offset):
    b = np.float32(a)
    for _ in range(abs(offset)):
        b = np.nextafter(b, np.float32(np.inf if offset > 0 else -np.inf))
    distance = onnx_twins.ordered(np.array([b], np.float32)) - onnx_twins.ordered(np.array([a], np.float32))
    assert abs(int(distance[0])) == floats_between(a, b)


def test_plus_and_minus_zero_are_the_same_and_nans_agree_only_with_nans():
    d = onnx_twins.difference("y", np.array([0.0, np.nan], np.float32), np.array([-0.0, np.nan], np.float32), EXACT)
    assert d.agrees and d.index is None
    d = onnx_twins.difference("y", np.array([1.0, np.nan], np.float32), np.array([1.0, 2.0], np.float32), EXACT)
    assert not d.agrees and d.index == (1,) and d.ulps == np.inf


@pytest.mark.parametrize("name", TWINNED)
def test_each_twin_runs_its_example_with_directmls_output_shapes_and_types(name):
    example = catalogue.example(name)
    try:
        built = onnx_twins.build(example.desc, example.inputs)
    except NoTwin as reason:  # a twin that does not cover the example's settings says why
        assert str(reason)
        return
    outputs, runtime = onnx_twins.run(built)
    packed = pack(example.desc)
    by_name = dict(zip(packed.output_names, packed.outputs))
    for output, array in outputs.items():
        assert array.shape == by_name[output].Sizes and array.dtype == by_name[output].dtype
    assert runtime in ("ONNX Runtime", "onnx.reference") and built.ops


def run_twin(example, **field_changes):
    desc = OperatorDesc(example.name, {**example.desc.fields, **field_changes})
    return onnx_twins.run(onnx_twins.build(desc, example.inputs))[0]


def convolution_spec(x, w, flip):
    """Plain loops: stride 1, no padding, one group; CONVOLUTION mode reads the filter flipped."""
    n, c, h, width = x.shape
    k, _, kh, kw = w.shape
    out = np.zeros((n, k, h - kh + 1, width - kw + 1))
    for b, o, i, j in np.ndindex(*out.shape):
        for ci, di, dj in np.ndindex(c, kh, kw):
            wi, wj = (kh - 1 - di, kw - 1 - dj) if flip else (di, dj)
            out[b, o, i, j] += x[b, ci, i + di, j + dj] * w[o, ci, wi, wj]
    return out


@pytest.mark.parametrize("mode", ["CONVOLUTION", "CROSS_CORRELATION"])
def test_the_convolution_twin_flips_the_filter_in_convolution_mode(mode):
    example = catalogue.example("CONVOLUTION")
    got = run_twin(example, Mode=mode)["OutputTensor"]
    expected = convolution_spec(example.inputs["InputTensor"], example.inputs["FilterTensor"], mode == "CONVOLUTION")
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_the_gemm_twin_multiplies_alpha_a_b():
    example = catalogue.example("GEMM")
    a, b = (example.inputs[f][0, 0].astype(np.float64) for f in ("ATensor", "BTensor"))
    got = run_twin(example)["OutputTensor"][0, 0]
    expected = [[0.5 * sum(a[i, k] * b[k, j] for k in range(a.shape[1])) for j in range(b.shape[1])]
                for i in range(a.shape[0])]
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_the_slice1_twin_reads_a_negative_stride_from_the_windows_end():
    example = catalogue.example("SLICE1")
    x = example.inputs["InputTensor"]
    got = run_twin(example)["OutputTensor"]
    fields = example.desc.fields
    offsets, sizes, strides = (fields[f] for f in ("InputWindowOffsets", "InputWindowSizes", "InputWindowStrides"))
    start = [o + (s - 1 if st < 0 else 0) for o, s, st in zip(offsets, sizes, strides)]
    for index in np.ndindex(*got.shape):
        assert got[index] == x[tuple(b + st * i for b, st, i in zip(start, strides, index))]


def test_the_gather_and_one_hot_twins_follow_directmls_ranks():
    example = catalogue.example("GATHER")
    x, indices = example.inputs["InputTensor"], example.inputs["IndicesTensor"]
    got = run_twin(example)["OutputTensor"]
    for i, j, k, m in np.ndindex(*got.shape):
        assert got[i, j, k, m] == x[i, j, indices[0, 0, 0, k], m]
    example = catalogue.example("ONE_HOT")
    got = run_twin(example)["OutputTensor"]
    hot = example.inputs["IndicesTensor"].reshape(-1)
    for row, index in enumerate(hot):
        assert list(got[0, 0, row]) == [1.0 if column == index else 0.0 for column in range(got.shape[-1])]


def test_the_quantize_linear_twin_is_its_formula():
    example = catalogue.example("ELEMENT_WISE_QUANTIZE_LINEAR")
    x, scale = example.inputs["InputTensor"], example.inputs["ScaleTensor"]
    got = run_twin(example)["OutputTensor"]
    np.testing.assert_array_equal(got, np.clip(np.round(x / scale), 0, 255).astype(np.uint8))


def test_scale_bias_applies_before_and_a_fused_activation_after():
    example = catalogue.example("ELEMENT_WISE_ABS")
    x = example.inputs["InputTensor"]
    got = run_twin(example, ScaleBias=(2.0, -0.5))["OutputTensor"]
    np.testing.assert_array_equal(got, np.abs(x * np.float32(2) + np.float32(-0.5)))
    example = catalogue.example("ELEMENT_WISE_ADD1")
    a, b = example.inputs["ATensor"], example.inputs["BTensor"]
    got = run_twin(example, FusedActivation=OperatorDesc("ACTIVATION_RELU"))["OutputTensor"]
    np.testing.assert_array_equal(got, np.maximum(a + b, 0))


def test_a_wrong_output_is_named_at_its_index_with_both_values():
    example = catalogue.example("SLICE")
    right = run_twin(example)["OutputTensor"]
    wrong = right.copy()
    wrong[0, 1, 1, 0] = np.nextafter(wrong[0, 1, 1, 0], np.float32(np.inf))
    comparison = onnx_twins.compare(example.desc, example.inputs, {"OutputTensor": wrong})
    assert not comparison.agrees and comparison.max_ulps == 1
    (difference,) = comparison.differences
    assert difference.index == (0, 1, 1, 0) and difference.directml == float(wrong[0, 1, 1, 0])
    assert difference.twin == float(right[0, 1, 1, 0])
    assert "DIFFERS (tolerance: exact)" in comparison.summary and "1 ULPs at [0, 1, 1, 0]" in comparison.summary
    assert onnx_twins.compare(example.desc, example.inputs, {"OutputTensor": right}).agrees


def test_accumulated_tolerances_count_ulps_of_the_largest_magnitude():
    expected = np.array([1000.0, 1e-3], np.float32)
    got = expected.copy()
    got[1] += np.spacing(np.float32(1000.0)) * 3  # far off for 1e-3, 3 ULPs at the output's scale
    difference = onnx_twins.difference("y", got, expected, onnx_twins.ACCUMULATED)
    assert difference.ulps == pytest.approx(3) and difference.agrees
    assert not onnx_twins.difference("y", got, expected, onnx_twins.ROUNDED).agrees


@pytest.mark.parametrize("name, changes, reason", [
    ("ACTIVATION_SOFTMAX1", {"Axes": [1]}, "not the trailing axes"),
    ("PADDING", {"PaddingMode": "SYMMETRIC"}, "ONNX's Pad has"),
    ("ELEMENT_WISE_ROUND", {"RoundingMode": "TOWARD_ZERO"}, "rounds halves to even"),
    ("CUMULATIVE_PRODUCT", {}, "has no ONNX twin"),
])
def test_settings_without_a_twin_say_why(name, changes, reason):
    example = catalogue.example(name)
    with pytest.raises(NoTwin, match=reason):
        onnx_twins.build(OperatorDesc(name, {**example.desc.fields, **changes}), example.inputs)


def test_outputs_of_another_shape_are_refused_not_compared():
    example = catalogue.example("ELEMENT_WISE_ADD")
    with pytest.raises(NoTwin, match="DirectML's output is"):
        onnx_twins.compare(example.desc, example.inputs, {"OutputTensor": np.zeros((3,), np.float32)})


def test_the_tolerances_say_why():
    for tolerance in (onnx_twins.EXACT, onnx_twins.ROUNDED, onnx_twins.DIVIDED, onnx_twins.EXPONENTIAL,
                      onnx_twins.TRIGONOMETRIC, onnx_twins.ACCUMULATED, onnx_twins.QUANTIZED):
        assert tolerance.why and dataclasses.replace(tolerance).unit
