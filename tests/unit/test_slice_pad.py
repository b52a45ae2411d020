"""The slice, pad and tile family through the registry: SLICE1, PADDING1, TILE, REVERSE_SUBSEQUENCES, UPSAMPLE_2D.

The core is held to every worked example of the API pages, to plain-loop specs (support/specs.py, hypothesis), to
what DirectML itself wrote where the pages are silent (support/observed.py), to onnx.reference's Slice, Pad, Tile,
ReverseSequence and Resize, and to ONNX Runtime byte for byte; then every rule's refusal names its field, the work
budget holds before anything is allocated, and descriptors, DxDispatch models and C++ round-trip.
"""

import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from onnx import helper
from onnx.reference import ReferenceEvaluator

import ops
from ops import Call, DescriptorError
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.export import cpp_snippet, model_for
from ops.operators import slice_pad
from ops.operators.slice_pad import core
from ops.operators.slice_pad.examples import EXAMPLES
from support.cpp import MOCK_HEADER
from support.observed import PADDING_WIDE_AND_SIZE_ONE, REVERSE_PAST_THE_AXIS, UPSAMPLE_FLOAT16_NANS
from support.slice_pad_calls import calls, random_bits, spec_of

FAMILY = [op.name for op in slice_pad.OPERATORS]


def same_bits(got, expected):
    return got.dtype == expected.dtype and got.shape == expected.shape and got.tobytes() == expected.tobytes()


# ---------------------------------------------------------------- the API pages' examples


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.op} {e.name}")
def test_every_api_page_example_comes_out_exactly(example):
    [got] = ops.run(example.op, list(example.inputs), **example.attrs)
    assert same_bits(got, example.output)


def test_every_operator_of_the_family_but_upsample_has_a_page_example():
    # UPSAMPLE_2D's page has no example; every other page's are in EXAMPLES.
    assert {e.op for e in EXAMPLES} == set(FAMILY) - {"UPSAMPLE_2D"}


# ---------------------------------------------------------------- where the pages are silent: DirectML decided


@pytest.mark.parametrize("row", PADDING_WIDE_AND_SIZE_ONE, ids=lambda r: f"{r[0]} {len(r[1])} by {r[2]},{r[3]}")
def test_wide_pads_and_size_one_dimensions_as_directml_wrote_them(row):
    mode, values, start, end, written = row
    [got] = ops.run("PADDING1", [np.array(values, np.int32)], mode=mode, start_padding=(start,), end_padding=(end,))
    assert got.tolist() == written


@pytest.mark.parametrize("row", REVERSE_PAST_THE_AXIS, ids=lambda r: r[0])
@pytest.mark.parametrize("data_type", ["FLOAT32", "UINT8", "INT64", "FLOAT16", "UINT16"])
def test_lengths_past_the_axis_as_directml_wrote_them(row, data_type):
    lengths_type, lengths, written = row
    x = (np.arange(35) + 1).astype(ops.numpy_dtype(data_type)).reshape(1, 1, 7, 5)
    lengths = np.array(lengths, ops.numpy_dtype(lengths_type)).reshape(1, 1, 7, 1)
    [got] = ops.run("REVERSE_SUBSEQUENCES", [x, lengths], axis=3)
    first_of_line = np.arange(7).reshape(7, 1) * 5
    assert (got.reshape(7, 5).astype(np.int64) - first_of_line).tolist() == written


def test_a_float16_upsample_quiets_signalling_nans_as_directml_wrote_them():
    x = np.array([a for a, _ in UPSAMPLE_FLOAT16_NANS], np.uint16).view(np.float16).reshape(1, 1, 1, -1)
    [got] = ops.run("UPSAMPLE_2D", [x], scale_size=(1, 1))
    assert got.view(np.uint16).ravel().tolist() == [b for _, b in UPSAMPLE_FLOAT16_NANS]
    x32 = np.array([0x7F800001], np.uint32).view(np.float32).reshape(1, 1, 1, 1)
    assert ops.run("UPSAMPLE_2D", [x32], scale_size=(2, 2))[0].view(np.uint32).ravel().tolist() == [0x7F800001] * 4


def test_the_page_s_clamped_length_is_not_what_directml_does():
    # The page: a length past the axis "behaves as if the value were clamped to the maximum", [4, 3, 2, 1] here.
    x = np.array([[1, 2, 3, 4]], np.float32)
    [got] = ops.run("REVERSE_SUBSEQUENCES", [x, np.array([[5]], np.uint32)], axis=1)
    assert got.tolist() == [[4, 4, 3, 2]]


# ---------------------------------------------------------------- the core against plain loops


@settings(max_examples=300, deadline=None)
@given(calls(FAMILY))
def test_the_core_is_the_plain_loop_spec(case):
    op, inputs, attrs = case
    [got] = ops.run(op, inputs, **attrs)
    assert same_bits(got, spec_of(op, inputs, attrs))


@settings(max_examples=100, deadline=None)
@given(calls(FAMILY))
def test_the_index_map_is_the_operator_run_on_indices(case):
    op, inputs, attrs = case
    spec = ops.operator(op)
    x = inputs[0]
    extra = {"lengths": inputs[1]} if op == "REVERSE_SUBSEQUENCES" else {}
    [(which, flat)] = spec.index_map([x.shape], **extra, **attrs)
    [got] = ops.run(op, inputs, **attrs)
    read = flat >= 0
    assert np.array_equal(which, np.where(read, 0, -1))
    read_values = x.reshape(-1)[flat[read]]
    if op == "UPSAMPLE_2D" and x.dtype == np.float16:  # copied, but signalling NaNs arrive quiet (DirectML's)
        read_values = core.quieted_float16(read_values)
    assert same_bits(got[read], read_values)
    if op == "PADDING1":  # the cells from nowhere hold the padding value
        value = np.array(attrs["padding_value"]).astype(x.dtype)
        assert (got[~read].view(f"u{x.itemsize}") == value.view(f"u{x.itemsize}")).all()
    else:
        assert read.all()


# ---------------------------------------------------------------- onnx.reference and ONNX Runtime


def onnx_reference(op, inputs, attrs):
    """The operator's ONNX twin run by onnx.reference on the inputs (the graph ONNX Runtime runs too)."""
    spec = ops.operator(op)
    nodes, initializers = spec.onnx_graph(spec.canonical_attrs(spec.attrs_with_input_types(inputs, attrs)),
                                          [a.shape for a in inputs], inputs[0].dtype)
    element = helper.np_dtype_to_tensor_dtype(inputs[0].dtype)
    graph = helper.make_graph(
        nodes, op, [helper.make_tensor_value_info(f"x{i}", helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
                    for i, a in enumerate(inputs)],
        [helper.make_tensor_value_info("y0", element, None)], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return ReferenceEvaluator(model).run(None, {f"x{i}": a for i, a in enumerate(inputs)})[0]


def onnx_can_twin(op, inputs, attrs):
    """Calls an ONNX twin computes: no SYMMETRIC pad, reflect pads narrower than the axis (ONNX Pad), lengths at
    most the axis (ReverseSequence)."""
    if op == "PADDING1":
        if attrs["mode"] == "SYMMETRIC":
            return False
        if attrs["mode"] == "REFLECTION":
            return all(max(a, b) < n for n, a, b in zip(inputs[0].shape, attrs["start_padding"], attrs["end_padding"]))
    if op == "REVERSE_SUBSEQUENCES":
        return bool((inputs[1] <= inputs[0].shape[attrs["axis"]]).all())
    return True


@settings(max_examples=120, deadline=None)
@given(calls(FAMILY))
def test_onnx_reference_computes_the_same_where_onnx_has_a_twin(case):
    op, inputs, attrs = case
    if not onnx_can_twin(op, inputs, attrs) or inputs[0].dtype == np.float16 and op == "UPSAMPLE_2D":
        return
    if op == "UPSAMPLE_2D":  # onnx.reference's Resize weighs neighbours by 0 and 1, so a NaN leaks into them
        inputs = [np.where(np.isfinite(inputs[0]), inputs[0], 0).astype(inputs[0].dtype)]
    [got] = ops.run(op, inputs, **attrs)
    assert same_bits(got, onnx_reference(op, inputs, attrs))


def test_the_symmetric_pad_has_no_onnx_twin_and_says_so():
    x = np.arange(4, dtype=np.float32)
    report = ops.cross_check("PADDING1", [x], runtime="onnxruntime", mode="SYMMETRIC", start_padding=(2,),
                             end_padding=(1,))
    assert not report.available and "ONNX Pad has no symmetric mode" in report.note
    assert ops.framework_snippets("PADDING1", [4], mode="SYMMETRIC", start_padding=(2,), end_padding=(1,))[2].code \
        is None


ORT_CALLS = [
    ("SLICE1", (2, 3, 5), {"window_offsets": (0, 1, 0), "window_sizes": (2, 2, 5), "window_strides": (1, -1, -2)}),
    ("PADDING1", (2, 3, 4), {"mode": "CONSTANT", "padding_value": 7, "start_padding": (1, 0, 2),
                             "end_padding": (0, 2, 1)}),
    ("PADDING1", (2, 3, 4), {"mode": "EDGE", "start_padding": (1, 0, 5), "end_padding": (0, 4, 1)}),
    ("PADDING1", (2, 3, 4), {"mode": "REFLECTION", "start_padding": (1, 0, 3), "end_padding": (0, 2, 1)}),
    ("TILE", (2, 3, 2), {"repeats": (2, 1, 3)}),
]


@pytest.mark.parametrize("data_type", ops.DML_TYPES)
@pytest.mark.parametrize("op, shape, attrs", ORT_CALLS, ids=lambda v: v if isinstance(v, str) else None)
def test_onnx_runtime_agrees_byte_for_byte(op, shape, attrs, data_type):
    pytest.importorskip("onnxruntime")
    x = random_bits(np.random.default_rng(3), shape, data_type)
    if data_type not in ops.operator(op).supported_types:  # TILE takes no FLOAT64
        with pytest.raises(DescriptorError, match=f"InputTensor DataType {data_type}"):
            ops.cross_check(op, [x], runtime="onnxruntime", **attrs)
        return
    report = ops.cross_check(op, [x], runtime="onnxruntime", **attrs)
    if op == "PADDING1" and attrs["mode"] == "CONSTANT" and x.itemsize == 2:
        # ONNX Runtime 1.32's Pad has no 16-bit integer kernel and quiets FLOAT16 signalling NaNs: these run as bytes,
        # where a pad writes one byte, so only a value of equal bytes can be checked there.
        assert not report.available and "its bytes differ" in report.note
        same_bytes = 1.05859375 if data_type == "FLOAT16" else 257  # 0x3C3C, 0x0101
        report = ops.cross_check(op, [x], runtime="onnxruntime", **{**attrs, "padding_value": same_bytes})
    assert report.available and report.matches, report.note


@pytest.mark.parametrize("data_type", ["FLOAT32", "UINT8", "INT64", "FLOAT16"])
def test_onnx_runtime_reverses_subsequences_with_lengths_of_their_own_type(data_type):
    pytest.importorskip("onnxruntime")
    x = random_bits(np.random.default_rng(4), (2, 3, 4), data_type)
    for lengths_type in ("UINT32", "UINT64"):
        lengths = np.array([[0, 3, 2, 1], [3, 1, 2, 0]], ops.numpy_dtype(lengths_type)).reshape(2, 1, 4)
        report = ops.cross_check("REVERSE_SUBSEQUENCES", [x, lengths], runtime="onnxruntime", axis=1)
        assert report.available and report.matches, report.note


def test_onnx_runtime_upsamples_nearest_as_resize():
    pytest.importorskip("onnxruntime")
    for data_type in ("FLOAT32", "FLOAT16"):
        x = random_bits(np.random.default_rng(5), (1, 2, 3, 4), data_type)
        report = ops.cross_check("UPSAMPLE_2D", [x], runtime="onnxruntime", scale_size=(3, 2))
        assert report.available and report.matches, report.note


def test_onnx_runtime_refuses_reflect_pads_as_wide_as_the_axis():
    # microsoft/onnxruntime#16401 and #23878: its reflect pad gave wrong values there; 1.32 refuses it instead.
    pytest.importorskip("onnxruntime")
    x = np.arange(3, dtype=np.float32)
    report = ops.cross_check("PADDING1", [x], runtime="onnxruntime", mode="REFLECTION", start_padding=(3,),
                             end_padding=(0,))
    assert not report.available and "Pad reflect" in report.note


# ---------------------------------------------------------------- refusals name the field and the rule


REFUSALS = [
    ("SLICE1", (4, 4), {"window_offsets": (0, 2), "window_sizes": (4, 4), "window_strides": (1, 1)},
     r"InputWindowOffsets\[1\] 2: the window \[2, 6\) runs past InputTensor.Sizes\[1\] = 4"),
    ("SLICE1", (4, 4), {"window_offsets": (0, 0), "window_sizes": (4, 4), "window_strides": (1, 0)},
     r"InputWindowStrides\[1\] 0: may not be 0"),
    ("SLICE1", (4, 4), {"window_offsets": (0, 0), "window_sizes": (4, 0), "window_strides": (1, 1)},
     r"InputWindowSizes\[1\] 0: must be at least 1"),
    ("SLICE1", (4, 4), {"window_offsets": (0,), "window_sizes": (4, 4), "window_strides": (1, 1)},
     r"InputWindowOffsets \[0\]: 1 values for a 2-D tensor; it takes one per dimension"),
    ("SLICE1", (4, 4), {"window_offsets": (0, 0), "window_sizes": (4, 3), "window_strides": (1, 2),
                        "output_sizes": (4, 3)},
     r"OutputTensor Sizes\[1\] 3: a window of 3 at stride 2 yields at most 2"),
    ("SLICE1", (4, 4), {"window_offsets": (0, 0), "window_sizes": (4, 4), "window_strides": (1, 2**31)},
     r"InputWindowStrides\[1\] 2147483648: must be in \[-2,147,483,648, 2,147,483,647\]"),
    ("PADDING1", (4,), {"mode": "WRAP", "start_padding": (1,), "end_padding": (1,)},
     r"PaddingMode 'WRAP': WRAP came with DML_FEATURE_LEVEL_6_4"),
    ("PADDING1", (4,), {"mode": "MIRROR", "start_padding": (1,), "end_padding": (1,)}, r"PaddingMode 'MIRROR'"),
    ("PADDING1", (4,), {"start_padding": (1, 1), "end_padding": (1,)},
     r"StartPadding \[1, 1\]: 2 values for a 1-D tensor"),
    ("PADDING1", (4,), {"start_padding": (-1,), "end_padding": (1,)}, r"StartPadding\[0\] -1: must be at least 0"),
    ("PADDING1", (4,), {"start_padding": (2**32,), "end_padding": (1,)}, r"StartPadding\[0\] 4294967296: must be at "
                                                                          "most 4,294,967,295"),
    ("PADDING1", (4,), {"start_padding": (1,), "end_padding": (1,), "padding_value": "nine"},
     r"PaddingValue 'nine': must be a number"),
    ("TILE", (2, 3), {"repeats": (1, 0)}, r"Repeats\[1\] 0: must be at least 1"),
    ("TILE", (2, 3), {"repeats": (2,)}, r"Repeats \[2\]: 1 values for a 2-D tensor"),
    ("UPSAMPLE_2D", (1, 1, 2, 2), {"scale_size": (2, 0)}, r"ScaleSize\[1\] 0: must be at least 1"),
    ("UPSAMPLE_2D", (1, 1, 2, 2), {"scale_size": (2, 2), "mode": "LINEAR"},
     r"InterpolationMode LINEAR: averages neighbouring elements"),
    ("UPSAMPLE_2D", (1, 1, 2, 2), {"scale_size": 2}, r"ScaleSize 2: expected \{Width, Height\}"),
]


@pytest.mark.parametrize("op, shape, attrs, message", REFUSALS, ids=lambda v: v if isinstance(v, str) else None)
def test_each_rule_is_refused_naming_its_field(op, shape, attrs, message):
    data_type = "FLOAT32"
    x = np.zeros(shape, ops.numpy_dtype(data_type))
    with pytest.raises(DescriptorError, match=message):
        ops.run(op, [x], **attrs)
    with pytest.raises(DescriptorError, match=message):
        Call.of(op, [shape], data_type, **attrs)


@pytest.mark.parametrize("data_type, value, message", [
    ("UINT8", 300, r"PaddingValue 300: outside UINT8's range \[0, 255\]"),
    ("INT32", 1.5, r"PaddingValue 1.5: a INT32 holds integers only"),
    ("UINT64", -1, r"PaddingValue -1: outside UINT64's range"),
])
def test_a_padding_value_the_type_cannot_hold_is_refused(data_type, value, message):
    x = np.zeros(3, ops.numpy_dtype(data_type))
    with pytest.raises(DescriptorError, match=message):
        ops.run("PADDING1", [x], start_padding=(1,), end_padding=(1,), padding_value=value)


def test_a_float_padding_value_rounds_to_the_type_within_its_range():
    [got] = ops.run("PADDING1", [np.zeros(1, np.float16)], start_padding=(1,), end_padding=(0,), padding_value=0.1)
    assert got.view(np.uint16)[0] == np.float16(0.1).view(np.uint16)  # 0x2E66, to nearest
    with pytest.raises(DescriptorError, match=r"PaddingValue 1000000.0: beyond FLOAT16's range"):
        ops.run("PADDING1", [np.zeros(1, np.float16)], start_padding=(1,), end_padding=(0,), padding_value=1e6)
    [got] = ops.run("PADDING1", [np.zeros(1, np.float16)], start_padding=(1,), end_padding=(0,),
                    padding_value=-float("inf"))
    assert got[0] == -np.inf


def test_reverse_refuses_lengths_of_another_shape_or_type():
    x = np.zeros((2, 3, 4), np.float32)
    with pytest.raises(DescriptorError, match=r"SequenceLengthsTensor Sizes \[2, 3, 4\]: must be \[2, 1, 4\]"):
        ops.run("REVERSE_SUBSEQUENCES", [x, np.zeros((2, 3, 4), np.uint32)], axis=1)
    with pytest.raises(DescriptorError, match=r"SequenceLengthsTensor DataType INT32"):
        ops.run("REVERSE_SUBSEQUENCES", [x, np.zeros((2, 1, 4), np.int32)], axis=1)
    with pytest.raises(DescriptorError, match=r"Axis 3: must be in \[0, 2\]"):
        ops.run("REVERSE_SUBSEQUENCES", [x, np.zeros((2, 1, 4), np.uint32)], axis=3)


@pytest.mark.parametrize("op, attrs", [
    ("TILE", {"repeats": (2**32 - 1, 2**32 - 1)}),
    ("PADDING1", {"start_padding": (2**32 - 1, 0), "end_padding": (0, 0)}),
    ("UPSAMPLE_2D", {"scale_size": (2**31, 2**31)}),
])
def test_absurd_sizes_are_refused_before_anything_is_allocated(op, attrs):
    shape = (1, 1, 2, 2) if op == "UPSAMPLE_2D" else (2, 2)
    x = np.zeros(shape, np.float32)
    with pytest.raises(DescriptorError, match="OutputTensor Sizes|UINT"):
        ops.run(op, [x], **attrs)
    with pytest.raises(DescriptorError, match="OutputTensor Sizes|UINT"):
        Call.of(op, [shape], **attrs)
    with pytest.raises(DescriptorError, match="OutputTensor Sizes|UINT"):
        ops.operator(op).index_map([shape], **attrs)


# ---------------------------------------------------------------- descriptors, DxDispatch and C++


def call_inputs(op, data_type="FLOAT32"):
    """One small call of `op`: its first page example, or (UPSAMPLE_2D) one of its own."""
    if op == "UPSAMPLE_2D":
        return [np.arange(6, dtype=ops.numpy_dtype(data_type)).reshape(1, 1, 2, 3)], {"scale_size": (3, 2)}
    example = next(e for e in EXAMPLES if e.op == op)
    return list(example.inputs), dict(example.attrs)


@pytest.mark.parametrize("op", FAMILY)
def test_dxdispatch_models_run_as_the_core(op):
    inputs, attrs = call_inputs(op)
    model = model_for(op, inputs, **attrs)
    [record] = run_model_detailed(model).dispatches
    [expected] = ops.run(op, inputs, **attrs)
    assert same_bits(ops.run_model(model)["output"].reshape(expected.shape), expected)
    assert record.dispatchable == op.lower()


@pytest.mark.parametrize("op", FAMILY)
def test_the_cpp_export_compiles(op, tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("no g++ here")
    inputs, attrs = call_inputs(op)
    dispatchable = model_for(op, inputs, **attrs)["dispatchables"][op.lower()]
    source = tmp_path / "desc.cpp"
    source.write_text(MOCK_HEADER + "#include <cmath>\nint main() {\n" + cpp_snippet(dispatchable) + "return 0;\n}\n")
    subprocess.run(["g++", "-std=c++17", "-fsyntax-only", str(source)], check=True, capture_output=True)


def test_the_cpp_export_writes_arrays_sizes_and_scalar_unions():
    dispatchable = model_for("PADDING1", [np.zeros((2, 3), np.float16)], padding_value=0.5, start_padding=(1, 0),
                             end_padding=(0, 2))["dispatchables"]["padding1"]
    code = cpp_snippet(dispatchable)
    assert "const UINT startPadding[2] = {1, 0};" in code and "padding1Desc.DimensionCount = 2;" in code
    assert "padding1Desc.PaddingValueDataType = DML_TENSOR_DATA_TYPE_FLOAT16;" in code
    assert "padding1Desc.PaddingValue.UInt16 = 0x3800" in code
    inputs, attrs = call_inputs("SLICE1")
    code = cpp_snippet(model_for("SLICE1", inputs, **attrs)["dispatchables"]["slice1"])
    assert "const INT inputWindowStrides[4] = {1, 1, 2, 2};" in code
    inputs, attrs = call_inputs("UPSAMPLE_2D")
    code = cpp_snippet(model_for("UPSAMPLE_2D", inputs, **attrs)["dispatchables"]["upsample_2d"])
    assert "upsample2dDesc.ScaleSize = DML_SIZE_2D{3, 2};" in code  # Width, Height


VALIDATION = [
    ("SLICE1", {"InputWindowStrides": [1, 1, 0, 2]}, "desc.InputWindowStrides[2]", "may not be 0"),
    ("SLICE1", {"InputWindowOffsets": [0, 0, 2, 1]}, "desc.InputWindowOffsets[2]", "runs past"),
    ("SLICE1", {"DimensionCount": 3}, "desc.DimensionCount", "must equal the number of InputWindowOffsets (4)"),
    ("SLICE1", {"InputWindowSizes": [1, 1, 4, -3]}, "desc.InputWindowSizes", "must be an array of UINTs"),
    ("PADDING1", {"PaddingValueDataType": "FLOAT16"}, "desc.PaddingValueDataType",
     "must equal OutputTensor.DataType FLOAT32"),
    ("PADDING1", {"EndPadding": [0, 0, 3, 5]}, "desc.OutputTensor.Sizes", "must be [1, 1, 8, 11]"),
    ("PADDING1", {"PaddingMode": "WRAP"}, "desc.PaddingMode", "expected CONSTANT or EDGE or REFLECTION or SYMMETRIC"),
    ("TILE", {"Repeats": [1, 1, 3, 2]}, "desc.OutputTensor.Sizes", "must be [1, 1, 6, 6]"),
    ("TILE", {"RepeatsCount": 3}, "desc.RepeatsCount", "must equal the number of Repeats (4)"),
    ("REVERSE_SUBSEQUENCES", {"Axis": 4}, "desc.Axis", "must be in [0, 3]"),
    ("UPSAMPLE_2D", {"ScaleSize": {"Width": 3}}, "desc.ScaleSize", "expected an object {Width, Height}"),
]


@pytest.mark.parametrize("op, change, path, message", VALIDATION, ids=lambda v: v if isinstance(v, str) else None)
def test_validation_names_the_json_path_and_the_rule(op, change, path, message):
    inputs, attrs = call_inputs(op)
    dispatchable = model_for(op, inputs, **attrs)["dispatchables"][op.lower()]
    dispatchable["desc"].update(change)
    problems = ops.validate_problems(dispatchable, "6_2")
    assert any(p.path == path and message in p.message for p in problems), problems


@pytest.mark.parametrize("op", FAMILY)
def test_a_valid_descriptor_has_no_problems_from_its_first_level(op):
    inputs, attrs = call_inputs(op)
    dispatchable = model_for(op, inputs, **attrs)["dispatchables"][op.lower()]
    spec = ops.operator(op)
    assert ops.validate_problems(dispatchable, spec.introduced) == []
    if spec.introduced != "1_0":
        assert ops.validate_problems(dispatchable, "1_0")  # before it exists


def test_reverse_subsequences_lengths_are_checked_against_their_own_types_per_level():
    inputs, attrs = call_inputs("REVERSE_SUBSEQUENCES")
    inputs[1] = inputs[1].astype(np.uint64)
    dispatchable = model_for("REVERSE_SUBSEQUENCES", inputs, **attrs)["dispatchables"]["reverse_subsequences"]
    assert ops.validate_problems(dispatchable, "5_0") == []
    [problem] = ops.validate_problems(dispatchable, "4_1")
    assert problem.path == "desc.SequenceLengthsTensor.DataType" and "needs feature level 5_0" in problem.message
