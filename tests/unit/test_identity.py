"""DML_ELEMENT_WISE_IDENTITY: the strided copy against plain loops, its validation rules, DxDispatch models and the
cross-check on ONNX Runtime for every data type and layout preset."""

import json
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops import load_model
from ops.descriptors.layouts import copy_order, identity_descs, identity_problems, logical_tensor
from ops.operators import operator
from ops.runtime.identity_check import matrix_rows, matrix_table, read_plan, write_plan
from support.specs import identity_spec

FLOAT32 = "FLOAT32"


def _random_buffer(desc, seed=0):
    """Arbitrary bytes of the desc's whole buffer: NaN payloads, -0.0 and subnormals included for float types."""
    raw = np.random.default_rng(seed).integers(0, 256, desc.buffer_elements * desc.element_size, dtype=np.uint8)
    return raw.view(desc.dtype)


def _bits(array):
    return array.view(f"u{array.dtype.itemsize}")


# ---------------------------------------------------------------- the copy


def test_nchw_to_nhwc_puts_channels_innermost():
    sizes = [1, 3, 2, 2]
    x = np.arange(12, dtype=np.float32)
    y = ops.element_wise_identity(
        x, {"DataType": FLOAT32, "Sizes": sizes}, {"DataType": FLOAT32, "Sizes": sizes, "Strides": [12, 1, 6, 3]}
    )
    # NHWC memory: (h, w) pixels in turn, the 3 channels of each pixel side by side; channel c starts at 4c in NCHW.
    assert y.tolist() == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
    assert np.array_equal(y.reshape(2, 2, 3), x.reshape(3, 2, 2).transpose(1, 2, 0))


def test_broadcast_row_reads_one_stored_row_three_times():
    inp = {"DataType": "UINT8", "Sizes": [3, 4], "Strides": [0, 1]}
    y = ops.element_wise_identity(np.array([7, 8, 9, 10], np.uint8), inp, {"DataType": "UINT8", "Sizes": [3, 4]})
    assert y.tolist() == [7, 8, 9, 10] * 3


def test_padding_keeps_the_previous_contents_of_untouched_elements():
    inp, out = ops.layout_preset("pad by 1", "INT16")
    previous = np.full(16, -1, np.int16)
    # INT16 {3, 3} is 18 bytes, rounded up to a 20-byte buffer: 10 elements, the last one never read.
    y = ops.element_wise_identity(np.arange(1, 11, dtype=np.int16), inp, out, previous)
    assert y.reshape(4, 4).tolist() == [[1, 2, 3, -1], [4, 5, 6, -1], [7, 8, 9, -1], [-1, -1, -1, -1]]
    assert previous.tolist() == [-1] * 16  # not modified


def test_window_reads_the_top_left_of_a_larger_buffer():
    inp, out = ops.layout_preset("window of a larger buffer", "INT32")
    y = ops.element_wise_identity(np.arange(20, dtype=np.int32), inp, out)
    assert y.tolist() == [0, 1, 2, 5, 6, 7]


def test_float_bit_patterns_travel_unchanged():
    patterns = np.array([0x7F800001, 0xFFC00123, 0x80000000, 0x00000001], np.uint32).view(np.float32)
    desc = {"DataType": FLOAT32, "Sizes": [4]}
    assert _bits(ops.element_wise_identity(patterns, desc, desc)).tolist() == _bits(patterns).tolist()


def test_logical_tensor_and_copy_order():
    inp, out = ops.layout_preset("NCHW -> NHWC", "FLOAT16")
    buffer = np.arange(24, dtype=np.float16)
    assert np.array_equal(logical_tensor(buffer, inp), buffer.reshape(1, 3, 2, 4))
    steps = copy_order(inp, out)
    assert [s.destination for s in steps] == list(range(24))
    # Memory order of NHWC: channel fastest, so sources jump by H*W = 8 and come back.
    assert [s.source for s in steps[:4]] == [0, 8, 16, 1]
    assert steps[1].index == (0, 1, 0, 0)
    assert len(copy_order(inp, out, limit=5)) == 5


def _layouts(draw_sizes):
    """Strategy: (sizes, input strides, output strides, output buffer elements) with a non-overlapping output."""

    @st.composite
    def layout(draw):
        sizes = draw(draw_sizes)
        in_strides = draw(st.lists(st.integers(0, 7), min_size=len(sizes), max_size=len(sizes)))
        # A permuted packed layout with optional padding per dimension never overlaps itself.
        perm = draw(st.permutations(range(len(sizes))))
        pads = draw(st.lists(st.integers(0, 2), min_size=len(sizes), max_size=len(sizes)))
        out_strides, step = [0] * len(sizes), 1
        for d in reversed(perm):
            out_strides[d] = step
            step *= sizes[d] + pads[d]
        return sizes, in_strides, out_strides

    return layout()


@settings(max_examples=40, deadline=None)
@given(_layouts(st.lists(st.integers(1, 4), min_size=1, max_size=4)),
       st.sampled_from(ops.DML_TYPES), st.integers(0, 2**31))
def test_matches_plain_loops(layout, data_type, seed):
    sizes, in_strides, out_strides = layout
    inp = {"DataType": data_type, "Sizes": sizes, "Strides": in_strides}
    out = {"DataType": data_type, "Sizes": sizes, "Strides": out_strides}
    in_desc, out_desc = identity_descs(inp, out)
    source, previous = _random_buffer(in_desc, seed), _random_buffer(out_desc, seed + 1)
    fast = ops.element_wise_identity(source, inp, out, previous)
    slow = identity_spec(source, sizes, in_strides, previous, out_strides)
    assert _bits(fast).tolist() == _bits(slow).tolist()


# ---------------------------------------------------------------- validation rules, each naming its field


def _problems(inp, out, level="6_4"):
    return identity_problems(inp, out, level)


def test_overlapping_output_writes_name_output_strides():
    [problem] = _problems({"DataType": FLOAT32, "Sizes": [2, 3]},
                          {"DataType": FLOAT32, "Sizes": [2, 3], "Strides": [1, 1]})
    assert problem.startswith("desc.OutputTensor.Strides:") and "both write buffer element" in problem


def test_overlapping_input_reads_are_a_broadcast_not_a_problem():
    assert _problems({"DataType": FLOAT32, "Sizes": [2, 3], "Strides": [1, 1]},
                     {"DataType": FLOAT32, "Sizes": [2, 3]}) == []


def test_buffer_too_small_names_total_size():
    [problem] = _problems({"DataType": FLOAT32, "Sizes": [2, 3]},
                          {"DataType": FLOAT32, "Sizes": [2, 3], "Strides": [4, 1], "TotalTensorSizeInBytes": 24})
    assert problem.startswith("desc.OutputTensor.TotalTensorSizeInBytes:") and "below the 28 bytes" in problem


def test_a_total_size_that_is_not_a_multiple_of_4_is_valid_as_directml_accepts_it():
    # DirectML's CreateOperator takes any TotalTensorSizeInBytes at or above the implied size (test_directml_verdicts).
    assert _problems({"DataType": "UINT8", "Sizes": [5], "TotalTensorSizeInBytes": 9},
                     {"DataType": "UINT8", "Sizes": [5]}) == []


def test_sizes_and_types_must_agree():
    problems = _problems({"DataType": FLOAT32, "Sizes": [2, 3]}, {"DataType": "INT32", "Sizes": [3, 2]})
    assert any(p.startswith("desc.OutputTensor.Sizes:") for p in problems)
    assert any(p.startswith("desc.OutputTensor.DataType:") for p in problems)


@pytest.mark.parametrize("level, data_type, dims, ok", [
    ("1_0", "FLOAT16", 4, True), ("1_0", "INT32", 4, False), ("1_0", "FLOAT32", 3, False),
    ("2_1", "UINT8", 5, True), ("2_1", "UINT8", 3, False), ("3_0", "INT8", 1, True), ("3_0", "FLOAT64", 4, False),
    ("4_1", "FLOAT64", 8, True), ("4_1", "UINT64", 1, True),
])
def test_support_table_per_feature_level(level, data_type, dims, ok):
    desc = {"DataType": data_type, "Sizes": [1] * dims}
    problems = _problems(desc, desc, level)
    assert (problems == []) == ok, problems
    assert all(".DataType:" in p or ".DimensionCount:" in p for p in problems)


def test_support_rows_from_the_api_page():
    assert operator("ELEMENT_WISE_IDENTITY").support_row("1_0").types == ("FLOAT32", "FLOAT16")
    assert operator("ELEMENT_WISE_IDENTITY").support_row("3_0").min_dims == 1
    assert set(operator("ELEMENT_WISE_IDENTITY").support_row("6_4").types) == set(ops.DML_TYPES)


def test_scale_bias_null_absent_or_two_numbers_and_not_with_64_bit_types():
    desc = {"DataType": FLOAT32, "Sizes": [2]}
    base = {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {"InputTensor": desc, "OutputTensor": desc}}
    assert ops.validate(base, "6_4") == []
    assert ops.validate({**base, "desc": {**base["desc"], "ScaleBias": None}}, "6_4") == []
    assert ops.validate({**base, "desc": {**base["desc"], "ScaleBias": {"Scale": 2.0, "Bias": 1}}}, "6_4") == []
    [broken] = ops.validate({**base, "desc": {**base["desc"], "ScaleBias": {"Scale": "x"}}}, "6_4")
    assert broken.startswith("desc.ScaleBias:") and "expected null or an object" in broken
    wide = {"DataType": "INT64", "Sizes": [2]}
    [refused] = ops.validate({**base, "desc": {"InputTensor": wide, "OutputTensor": wide,
                                               "ScaleBias": {"Scale": 2.0, "Bias": 1}}}, "6_4")
    assert refused.startswith("desc.ScaleBias:") and "not with INT64 tensors" in refused


def test_invalid_pair_raises_naming_every_field():
    with pytest.raises(ops.DescriptorError, match="OutputTensor.Strides.*OutputTensor.Sizes"):
        ops.element_wise_identity(np.zeros(6, np.float32), {"DataType": FLOAT32, "Sizes": [2, 3]},
                                  {"DataType": FLOAT32, "Sizes": [2, 3, 1], "Strides": [0, 1, 1]})


@pytest.mark.parametrize("buffer, message", [
    (np.zeros(5, np.float32), "holds 20 bytes, less than"),
    (np.zeros(6, np.int32), "holds int32"),
    (np.zeros((2, 3), np.float32), "1-D numpy array"),
])
def test_bad_buffers_are_refused(buffer, message):
    with pytest.raises(ops.DescriptorError, match=message):
        desc = {"DataType": FLOAT32, "Sizes": [2, 3]}
        ops.element_wise_identity(buffer, desc, dict(desc))


def test_huge_sizes_are_refused_before_allocating():
    with ops.element_cap_set_to(1000):
        with pytest.raises(ops.DescriptorError, match="InputTensor.Sizes"):
            ops.element_wise_identity(np.zeros(4, np.uint8), {"DataType": "UINT8", "Sizes": [4000], "Strides": [0]},
                                      {"DataType": "UINT8", "Sizes": [4000]})


# ---------------------------------------------------------------- DxDispatch models


def _model(in_desc, out_desc, values, out_elements):
    return {
        "resources": {
            "in": {"initialValuesDataType": "FLOAT32", "initialValues": values},
            "out": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": out_elements, "value": -1}},
        },
        "dispatchables": {"copy": {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY",
                                   "desc": {"InputTensor": in_desc, "OutputTensor": out_desc}}},
        "commands": [{"type": "dispatch", "dispatchable": "copy",
                      "bindings": {"InputTensor": "in", "OutputTensor": "out"}}],
    }


def test_dxdispatch_model_runs_a_transpose_and_round_trips():
    inp, out = ops.layout_preset("transpose last two axes", FLOAT32)
    model = _model(inp, out, list(range(12)), 12)
    expected = ops.element_wise_identity(np.arange(12, dtype=np.float32), inp, out)
    assert ops.run_model(json.dumps(model))["out"].tolist() == expected.tolist()
    normalized = load_model(json.dumps(model))
    assert "ScaleBias" not in json.dumps(normalized)
    assert ops.run_model(json.dumps(normalized))["out"].tolist() == expected.tolist()


def test_dxdispatch_padding_leaves_initial_values():
    inp, out = ops.layout_preset("pad by 1", FLOAT32)
    result = ops.run_model(json.dumps(_model(inp, out, list(range(1, 10)), 16)))["out"]
    assert result.reshape(4, 4)[:, 3].tolist() == [-1] * 4 and result.reshape(4, 4)[1, :3].tolist() == [4, 5, 6]


def test_dxdispatch_scale_bias_model_gives_what_directml_gives():
    # DxDispatch's own models/dml_element_wise_identity.json (microsoft/DirectML): 1, 2, 3 with Scale 2 and Bias 10.
    desc = {"DataType": FLOAT32, "Sizes": [3]}
    model = _model(desc, desc, [1, 2, 3], 3)
    model["dispatchables"]["copy"]["desc"]["ScaleBias"] = {"Scale": 2, "Bias": 10}
    assert ops.run_model(json.dumps(model))["out"].tolist() == [12, 14, 16]
    assert ops.load_model(json.dumps(model))["dispatchables"]["copy"]["desc"]["ScaleBias"] == {"Scale": 2,
                                                                                                  "Bias": 10}


def test_dxdispatch_scale_bias_on_a_64_bit_type_refused_with_its_path():
    desc = {"DataType": "INT64", "Sizes": [2]}
    model = _model(desc, desc, [1, 2], 2)
    model["resources"]["in"]["initialValuesDataType"] = model["resources"]["out"]["initialValuesDataType"] = "INT64"
    model["dispatchables"]["copy"]["desc"]["ScaleBias"] = {"Scale": 2, "Bias": 0}
    with pytest.raises(ops.DescriptorError, match=r"dispatchables\.copy\.desc\.ScaleBias"):
        ops.run_model(json.dumps(model))


def test_cpp_export_names_the_identity_desc():
    inp, out = ops.layout_preset("NCHW -> NHWC", FLOAT32)
    code = ops.cpp_snippet({"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY",
                            "desc": {"InputTensor": inp, "OutputTensor": out}})
    assert "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC" in code and "ScaleBias = nullptr" in code
    assert "inputTensorStrides" not in code and "outputTensorStrides[4] = {24, 1, 12, 3}" in code


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_cpp_export_compiles(tmp_path):
    from support.cpp import MOCK_HEADER

    bodies = []
    for i, name in enumerate(ops.LAYOUT_PRESETS):
        inp, out = ops.layout_preset(name, "FLOAT16")
        code = ops.cpp_snippet({"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY",
                                "desc": {"InputTensor": inp, "OutputTensor": out}})
        bodies.append(f"void make_{i}() {{\n{code}(void)operatorDesc;\n}}")
    inp, out = ops.layout_preset("copy", "UINT8")
    code = ops.cpp_snippet({"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY",
                            "desc": {"InputTensor": inp, "OutputTensor": out, "ScaleBias": {"Scale": 0.1, "Bias": -3}}})
    assert "const DML_SCALE_BIAS scaleBias = {0.10000000149011612f, -3.0f};" in code
    bodies.append(f"void make_scaled() {{\n{code}(void)operatorDesc;\n}}")
    source = tmp_path / "identity.cpp"
    source.write_text(MOCK_HEADER + "\n".join(bodies))
    result = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", str(source)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------- ONNX Runtime


@pytest.mark.parametrize("name", list(ops.LAYOUT_PRESETS))
def test_each_preset_takes_the_graph_that_fits(name):
    inp, out = identity_descs(*ops.layout_preset(name, FLOAT32))
    plans = {
        "copy": ("reshape", "reshape"), "NCHW -> NHWC": ("reshape", "transpose"),
        "transpose last two axes": ("reshape", "transpose"), "broadcast a row": ("expand", "reshape"),
        "pad by 1": ("reshape", "scatter"), "window of a larger buffer": ("gather", "reshape"),
    }
    assert (read_plan(inp)[0], write_plan(out)[0]) == plans[name]


def test_cross_check_matrix_every_type_and_preset_is_byte_identical():
    rows = matrix_rows()
    assert len(rows) == len(ops.DML_TYPES) * len(ops.LAYOUT_PRESETS)
    failing = [r for r in rows if not r["matches"]]
    assert failing == [], failing
    table = matrix_table(rows)
    assert table.count("\n") == len(ops.LAYOUT_PRESETS) + 1 and "DIFFERS" not in table


@settings(max_examples=15, deadline=None)
@given(_layouts(st.lists(st.integers(1, 3), min_size=1, max_size=4)), st.sampled_from(ops.DML_TYPES),
       st.integers(0, 2**31))
def test_cross_check_random_layouts(layout, data_type, seed):
    sizes, in_strides, out_strides = layout
    inp = {"DataType": data_type, "Sizes": sizes, "Strides": in_strides}
    out = {"DataType": data_type, "Sizes": sizes, "Strides": out_strides}
    in_desc, out_desc = identity_descs(inp, out)
    buffers = [_random_buffer(in_desc, seed), _random_buffer(out_desc, seed + 1)]
    report = ops.cross_check("ELEMENT_WISE_IDENTITY", buffers, input_desc=inp, output_desc=out)
    assert report.available and report.matches, report.note


def test_cross_check_catches_a_wrong_expectation():
    inp, out = ops.layout_preset("NCHW -> NHWC", "UINT16")
    buffer = np.arange(24, dtype=np.uint16)
    wrong = buffer.copy()  # the packed copy: not what NHWC strides write
    report = ops.cross_check("ELEMENT_WISE_IDENTITY", [buffer], expected=[wrong], input_desc=inp, output_desc=out)
    assert report.available and not report.matches and report.first_mismatch == (0, (1,))


def test_cross_check_arguments_are_checked():
    desc = {"DataType": FLOAT32, "Sizes": [2]}
    with pytest.raises(ops.DescriptorError, match="output_desc: required"):
        ops.cross_check("ELEMENT_WISE_IDENTITY", [np.zeros(2, np.float32)], input_desc=desc)
    with pytest.raises(ops.DescriptorError, match="axis: not an attribute"):
        ops.cross_check("ELEMENT_WISE_IDENTITY", [np.zeros(2, np.float32)], input_desc=desc, output_desc=desc, axis=0)
    report = ops.cross_check("ELEMENT_WISE_IDENTITY", [np.zeros(2, np.float32)], provider="NoSuchProvider",
                             input_desc=desc, output_desc=desc)
    assert not report.available and "NoSuchProvider is not available" in report.note
