"""DirectML's bitwise family through the registry: AND, OR, XOR, NOT, the two shifts and BIT_COUNT.

The core is held to plain-loop specs (support/specs.py) and to each API page's example; the shifts past the width to
what DirectML itself wrote (docs/directml.md, "Shifts past the width"); then validation per feature level, DxDispatch
and C++ round trips, the ONNX Runtime cross-check and ONNX models, each asked of the registry for every operator of
the family.
"""

import json
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.export import cpp_snippet, model_for
from ops.descriptors.validate import normalized_dispatchable
from ops.frameworks.onnx_models import cross_check_node, open_onnx_model
from ops.operators import operator
from support.cpp import MOCK_HEADER
from support.observed import SHIFTS, SHIFTS_PAST_THE_WIDTH
from support.specs import bitwise_spec

FAMILY = [name for name in ops.OPERATORS if name.startswith("ELEMENT_WISE_BIT_")]


def random_bits(rng, shape, data_type):
    dtype = ops.numpy_dtype(data_type)
    count = int(np.prod(shape)) * dtype.itemsize
    return rng.integers(0, 256, count, dtype=np.uint8).view(dtype).reshape(shape)


def call_inputs(name, rng, shape, data_type, small_amounts=False):
    """Inputs of one call; a shift's amounts below the element's width when `small_amounts`, else raw bits."""
    inputs = [random_bits(rng, shape, data_type) for _ in range(operator(name).arity[0])]
    if name in SHIFTS and small_amounts:
        width = inputs[0].dtype.itemsize * 8
        inputs[1] = (inputs[1] % width).astype(inputs[1].dtype)
    return inputs


def same_bits(got, expected):
    return got.dtype == expected.dtype and got.shape == expected.shape and got.tobytes() == expected.tobytes()


# ---------------------------------------------------------------- the core against the specs


@st.composite
def family_calls(draw):
    name = draw(st.sampled_from(FAMILY))
    spec = operator(name)
    data_type = draw(st.sampled_from(spec.supported_types))
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=8)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    attrs = {"output_type": draw(st.sampled_from(spec.output_choices))} if spec.attributes else {}
    return name, call_inputs(name, rng, shape, data_type, draw(st.booleans())), attrs


@settings(max_examples=300, deadline=None)
@given(family_calls())
def test_every_operator_is_its_plain_loop_spec(case):
    name, inputs, attrs = case
    (out,) = ops.run(name, inputs, **attrs)
    assert same_bits(out, bitwise_spec(name, inputs, attrs.get("output_type", "").lower() or None))


def test_the_inputs_are_left_alone():
    x = np.array([1.0, -0.0], np.float32)
    before = x.tobytes()
    for name in FAMILY:
        ops.run(name, [x.view(np.uint32)] * operator(name).arity[0])
    assert x.tobytes() == before


# ---------------------------------------------------------------- the API pages' examples


def test_bit_count_page_example():
    # DML_ELEMENT_WISE_BIT_COUNT_OPERATOR_DESC, "Example": {0, 123, 456, 789} -> {0, 6, 4, 5}, UINT32 in and out.
    (out,) = ops.run("ELEMENT_WISE_BIT_COUNT", [np.array([[0, 123], [456, 789]], np.uint32)])
    assert out.dtype == np.uint32 and out.tolist() == [[0, 6], [4, 5]]
    (as_bytes,) = ops.run("ELEMENT_WISE_BIT_COUNT", [np.array([[0, 123], [456, 789]], np.uint32)], output_type="UINT8")
    assert as_bytes.dtype == np.uint8 and as_bytes.tolist() == [[0, 6], [4, 5]]


def test_bit_not_page_example():
    # DML_ELEMENT_WISE_BIT_NOT_OPERATOR_DESC, "Example": UINT8 {0, 128, 42, 255} -> {255, 127, 213, 0}.
    (out,) = ops.run("ELEMENT_WISE_BIT_NOT", [np.array([[0, 128], [42, 255]], np.uint8)])
    assert out.tolist() == [[255, 127], [213, 0]]


def test_the_xor_page_example_is_not_s():
    # The XOR page shows one InputTensor {0, 128, 42, 255} and {255, 127, 213, 0}: NOT's example, copied. XOR gives
    # that output only with a B of all ones, which the page does not show.
    x = np.array([[0, 128], [42, 255]], np.uint8)
    (xor,) = ops.run("ELEMENT_WISE_BIT_XOR", [x, np.full_like(x, 0xFF)])
    assert xor.tolist() == ops.run("ELEMENT_WISE_BIT_NOT", [x])[0].tolist() == [[255, 127], [213, 0]]


def test_bit_count_counts_raw_bits_of_every_type():
    # -1 in two's complement has every bit set (np.bitwise_count alone would count |-1| = 1); -0.0 is the sign bit.
    assert ops.run("ELEMENT_WISE_BIT_COUNT", [np.array([-1, -128], np.int8)])[0].tolist() == [8, 1]
    assert ops.run("ELEMENT_WISE_BIT_COUNT", [np.array([-0.0, np.inf], np.float32)])[0].tolist() == [1, 8]
    assert ops.run("ELEMENT_WISE_BIT_COUNT", [np.array([-1], np.int64)], output_type="UINT8")[0].tolist() == [64]


def test_logic_on_float_bits():
    one, two = np.float32([1.0]), np.float32([2.0])  # 0x3F800000, 0x40000000
    assert ops.run("ELEMENT_WISE_BIT_AND", [one, two])[0].view(np.uint32).tolist() == [0]
    assert ops.run("ELEMENT_WISE_BIT_XOR", [one, one])[0].tolist() == [0.0]
    assert ops.run("ELEMENT_WISE_BIT_NOT", [np.float32([0.0])])[0].view(np.uint32).tolist() == [0xFFFFFFFF]


# ---------------------------------------------------------------- shifts: what DirectML wrote

@pytest.mark.parametrize("data_type, a, amounts, left, right", SHIFTS_PAST_THE_WIDTH,
                         ids=[row[0] for row in SHIFTS_PAST_THE_WIDTH])
def test_shifts_past_the_width_are_directml_s(data_type, a, amounts, left, right):
    dtype = ops.numpy_dtype(data_type)
    x, b = np.full(len(amounts), a, dtype), np.array(amounts, dtype)
    assert ops.run("ELEMENT_WISE_BIT_SHIFT_LEFT", [x, b])[0].tolist() == left
    assert ops.run("ELEMENT_WISE_BIT_SHIFT_RIGHT", [x, b])[0].tolist() == right


def test_shifts_below_the_width_are_the_plain_shifts():
    for data_type in ("UINT8", "UINT16", "UINT32", "UINT64"):
        dtype = ops.numpy_dtype(data_type)
        width = dtype.itemsize * 8
        a = random_bits(np.random.default_rng(width), (width,), data_type)
        b = np.arange(width, dtype=dtype)
        assert ops.run("ELEMENT_WISE_BIT_SHIFT_LEFT", [a, b])[0].tolist() == [(int(x) << k) % 2**width
                                                                            for k, x in enumerate(a)]
        assert ops.run("ELEMENT_WISE_BIT_SHIFT_RIGHT", [a, b])[0].tolist() == [int(x) >> k for k, x in enumerate(a)]


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize("name", SHIFTS)
@pytest.mark.parametrize("data_type", ["INT32", "INT8", "FLOAT32", "FLOAT64"])
def test_shifts_refuse_what_no_level_supports(name, data_type):
    x = np.zeros(2, ops.numpy_dtype(data_type))
    with pytest.raises(ops.DescriptorError, match=f"ATensor DataType {data_type}: {name} takes UINT64, UINT32, "
                                                   "UINT16, UINT8 at every feature level"):
        ops.run(name, [x, x])


def test_bit_count_writes_uint32_or_uint8_only():
    with pytest.raises(ops.DescriptorError, match="OutputTensor DataType UINT16: ELEMENT_WISE_BIT_COUNT writes "
                                                   "UINT32 or UINT8"):
        ops.run("ELEMENT_WISE_BIT_COUNT", [np.zeros(2, np.uint8)], output_type="UINT16")
    call = ops.Call.of("ELEMENT_WISE_BIT_COUNT", [(2, 3)], "FLOAT16", output_type="DML_TENSOR_DATA_TYPE_UINT8")
    assert call.output_types == ("UINT8",) and call.attr("output_type") == "UINT8"


@pytest.mark.parametrize("name", [name for name in FAMILY if operator(name).arity[0] == 2])
def test_no_implicit_broadcasting(name):
    with pytest.raises(ops.DescriptorError, match=r"BTensor Sizes \[1, 3\]: must equal ATensor Sizes \[2, 3\]"):
        ops.run(name, [np.zeros((2, 3), np.uint8), np.zeros((1, 3), np.uint8)])


# ---------------------------------------------------------------- validation per feature level

# (operator, input type, output type, dimension count, last level refused, first level accepted), from each page's
# "Tensor support".
BOUNDARIES = [
    (name, t, t, dims, refused, accepted)
    for name in ("ELEMENT_WISE_BIT_AND", "ELEMENT_WISE_BIT_XOR", "ELEMENT_WISE_BIT_NOT")
    for t, dims, refused, accepted in (("UINT32", 3, "2_1", "3_0"), ("UINT8", 8, "2_1", "3_0"),
                                       ("FLOAT32", 4, "4_0", "4_1"), ("INT64", 1, "4_0", "4_1"))
] + [
    (name, t, t, dims, refused, accepted)
    for name in SHIFTS
    for t, dims, refused, accepted in (("UINT8", 4, "2_0", "2_1"), ("UINT16", 5, "2_1", "3_0"),
                                       ("UINT32", 1, "2_1", "3_0"), ("UINT64", 4, "4_0", "4_1"))
] + [
    ("ELEMENT_WISE_BIT_COUNT", "UINT16", "UINT8", 2, "2_1", "3_0"),
    ("ELEMENT_WISE_BIT_COUNT", "UINT32", "UINT32", 8, "2_1", "3_0"),
    ("ELEMENT_WISE_BIT_COUNT", "FLOAT16", "UINT32", 3, "4_0", "4_1"),
    ("ELEMENT_WISE_BIT_COUNT", "INT64", "UINT8", 1, "4_0", "4_1"),
]


def dispatchable(name, input_type, output_type, dims):
    spec = operator(name)
    sizes = [2] * dims
    attrs = {"output_type": output_type} if spec.attributes else {}
    return spec.dispatchable([sizes] * spec.arity[0], input_type, attrs, [sizes])


@pytest.mark.parametrize("name, input_type, output_type, dims, refused, accepted", BOUNDARIES)
def test_support_boundaries(name, input_type, output_type, dims, refused, accepted):
    d = dispatchable(name, input_type, output_type, dims)
    assert ops.validate(d, accepted) == [] and ops.validate(d, "6_4") == []
    problems = " ".join(ops.validate(d, refused))
    assert problems, refused
    assert f"needs feature level {accepted}" in problems or f"introduced at feature level {accepted}" in problems


def test_the_shifts_take_four_dimensions_at_2_1():
    problems = ops.validate(dispatchable("ELEMENT_WISE_BIT_SHIFT_LEFT", "UINT8", "UINT8", 3), "2_1")
    assert problems and all("takes 4 dimensions; it needs feature level 3_0" in p for p in problems)


@pytest.mark.parametrize("name", SHIFTS)
def test_signed_shifts_are_refused_at_every_level(name):
    problems = ops.validate(dispatchable(name, "INT32", "INT32", 2), "6_4")
    assert len(problems) == 3 and all("no feature level supports it" in p for p in problems)


def test_bit_count_output_types():
    d = dispatchable("ELEMENT_WISE_BIT_COUNT", "UINT8", "UINT16", 2)
    (problem,) = ops.validate(d, "6_4")
    assert problem.startswith("desc.OutputTensor.DataType: DataType UINT16 is not supported")
    assert "(supported for outputs: UINT32, UINT8); no feature level supports it" in problem
    # The input's type is no constraint on the output's, and the output type is what the core computes with.
    parsed = normalized_dispatchable(dispatchable("ELEMENT_WISE_BIT_COUNT", "FLOAT64", "UINT8", 2), "4_1")
    assert operator("ELEMENT_WISE_BIT_COUNT").attrs_of(parsed) == {"output_type": "UINT8"}


def test_the_other_operators_keep_one_type():
    d = dispatchable("ELEMENT_WISE_BIT_NOT", "UINT8", "UINT8", 2)
    d["desc"]["OutputTensor"]["DataType"] = "UINT16"
    assert ops.validate(d, "6_4") == ["desc.OutputTensor.DataType: DataType UINT16: must equal InputTensor.DataType "
                                      "UINT8"]


@pytest.mark.parametrize("name", FAMILY)
def test_sizes_must_match(name):
    d = dispatchable(name, "UINT8", "UINT8", 2)
    d["desc"]["OutputTensor"]["Sizes"] = [2, 3]
    assert any("OutputTensor.Sizes [2, 3]: must equal" in p for p in ops.validate(d, "6_4"))


def test_in_place_follows_the_pages():
    # Every page but BIT_COUNT's says the output may alias an input.
    assert {name: operator(name).in_place for name in FAMILY} == {
        name: name != "ELEMENT_WISE_BIT_COUNT" for name in FAMILY}


def test_introduced_levels_and_enum_values():
    # DirectML.h's DML_OPERATOR_TYPE values (SCATTER aliases SCATTER_ELEMENTS and takes no value of its own).
    assert {name: (operator(name).introduced, operator(name).code) for name in FAMILY} == {
        "ELEMENT_WISE_BIT_AND": ("3_0", 121), "ELEMENT_WISE_BIT_OR": ("3_0", 122), "ELEMENT_WISE_BIT_XOR": ("3_0", 123),
        "ELEMENT_WISE_BIT_NOT": ("3_0", 124), "ELEMENT_WISE_BIT_COUNT": ("3_0", 125),
        "ELEMENT_WISE_BIT_SHIFT_LEFT": ("2_1", 97), "ELEMENT_WISE_BIT_SHIFT_RIGHT": ("2_1", 98)}


# ---------------------------------------------------------------- DxDispatch and C++


def run_outputs(model):
    record = run_model_detailed(json.dumps(model)).dispatches[0]
    return [record.outputs["OutputTensor"]]


@pytest.mark.parametrize("name", FAMILY)
def test_dxdispatch_models_reproduce_the_core_for_every_type(name):
    spec = operator(name)
    rng = np.random.default_rng(len(name))
    for data_type in spec.supported_types:
        inputs = call_inputs(name, rng, (2, 3), data_type)
        for attrs in ([{"output_type": t} for t in spec.output_choices] if spec.attributes else [{}]):
            model = model_for(name, inputs, **attrs)
            (got,), (expected,) = run_outputs(model), ops.run(name, inputs, **attrs)
            assert same_bits(got, expected), (data_type, attrs)
            (d,) = model["dispatchables"].values()
            assert normalized_dispatchable(d, "6_4").to_json()["desc"]["OutputTensor"]["DataType"] == \
                ops.type_name(expected.dtype)


def test_model_for_takes_the_core_names():
    x = np.array([1, 2], np.uint8)
    assert model_for("bit_xor", [x, x])["dispatchables"]["element_wise_bit_xor"]["type"] == \
        "DML_OPERATOR_ELEMENT_WISE_BIT_XOR"
    assert model_for("bit_count", [x], output_type="UINT8")["resources"]["output"]["initialValuesDataType"] == "UINT8"


def test_dxdispatch_runs_not_in_place():
    model = model_for("ELEMENT_WISE_BIT_NOT", [np.array([0, 128, 42, 255], np.uint8)])
    model["commands"][0]["bindings"]["OutputTensor"] = "input"
    record = run_model_detailed(json.dumps(model)).dispatches[0]
    assert record.outputs["OutputTensor"].tolist() == [255, 127, 213, 0]


def test_dxdispatch_refuses_bit_count_in_place():
    model = model_for("ELEMENT_WISE_BIT_COUNT", [np.array([1, 3], np.uint32)])
    model["commands"][0]["bindings"]["OutputTensor"] = "input"
    with pytest.raises(ops.DescriptorError, match="may run in place"):
        run_model_detailed(json.dumps(model))


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_cpp_exports_compile(tmp_path):
    bodies = []
    for i, name in enumerate(FAMILY):
        spec = operator(name)
        x = np.zeros((2, 3), np.uint8)
        attrs = {"output_type": "UINT8"} if spec.attributes else {}
        (d,) = model_for(name, [x] * spec.arity[0], **attrs)["dispatchables"].values()
        code = cpp_snippet(d)
        assert f"{spec.desc_struct} " in code and f"{{{spec.full_name}, &" in code
        bodies.append(f"void make_{i}() {{\n{code}(void)operatorDesc;\n}}")
    source = tmp_path / "bitwise.cpp"
    source.write_text(MOCK_HEADER + "\n".join(bodies))
    result = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", str(source)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_bit_count_cpp_names_its_output_type():
    (d,) = model_for("ELEMENT_WISE_BIT_COUNT", [np.zeros(4, np.int16)], output_type="UINT8")["dispatchables"].values()
    code = cpp_snippet(d)
    assert "inputTensorBuffer.DataType = DML_TENSOR_DATA_TYPE_INT16;" in code
    assert "outputTensorBuffer.DataType = DML_TENSOR_DATA_TYPE_UINT8;" in code


# ---------------------------------------------------------------- ONNX Runtime


@pytest.mark.parametrize("name", [n for n in FAMILY if operator(n).onnx])
def test_onnx_runtime_agrees_for_every_type(name):
    pytest.importorskip("onnxruntime")
    rng = np.random.default_rng(7)
    for data_type in operator(name).supported_types:
        report = ops.cross_check(name, call_inputs(name, rng, (3, 4), data_type, small_amounts=True),
                                 runtime="onnxruntime")
        assert report.available and report.matches, report.note
        floats = data_type.startswith("FLOAT")
        assert report.ran_as == (ops.type_name(np.dtype(f"u{ops.numpy_dtype(data_type).itemsize}")) if floats
                                 else data_type)


@pytest.mark.parametrize("name", SHIFTS)
@pytest.mark.parametrize("data_type", ["UINT8", "UINT32", "UINT64"])
def test_onnx_runtime_empties_an_element_shifted_past_its_width_where_directml_does_not(name, data_type):
    """ONNX Runtime's BitShift writes 0 from B = width on (measured, onnxruntime 1.32); DirectML shifts by B & 31
    (64-bit: by its rule), so the two differ for the amounts 32 and more, and the report says where."""
    pytest.importorskip("onnxruntime")
    dtype = ops.numpy_dtype(data_type)
    width = dtype.itemsize * 8
    # Bits at both ends, so that a shift either way by what DirectML takes of 33 (65 for UINT64) keeps some.
    a = np.full(3, (0x8B << (width - 8)) | 0x8B, dtype)
    b = np.array([1, width - 1, 33 if width < 64 else 65], dtype)
    report = ops.cross_check(name, [a, b], runtime="onnxruntime")
    assert report.available and not report.matches
    assert report.first_mismatch[1] == (2,) and report.actual[0][2] == 0 and report.expected[0][2] != 0
    assert "it empties an element shifted by its width or more, where DirectML does not" in report.note


def test_bit_count_has_no_onnx_operator_to_run():
    pytest.importorskip("onnxruntime")
    report = ops.cross_check("ELEMENT_WISE_BIT_COUNT", [np.array([7], np.uint8)], runtime="onnxruntime")
    assert not report.available and "ONNX has no operator computing DML_OPERATOR_ELEMENT_WISE_BIT_COUNT" in report.note


def bitwise_model(data_type=None):
    from onnx import TensorProto, helper

    element = data_type or TensorProto.UINT16
    nodes = [helper.make_node("BitShift", ["a", "b"], ["s"], direction="LEFT", name="shl"),
             helper.make_node("BitwiseAnd", ["s", "c"], ["t"], name="and"),
             helper.make_node("BitwiseNot", ["t"], ["u"], name="not"),
             helper.make_node("BitwiseXor", ["u", "a"], ["v"], name="xor"),
             helper.make_node("BitShift", ["v", "b"], ["y"], direction="RIGHT", name="shr")]
    inputs = [helper.make_tensor_value_info(n, element, s) for n, s in (("a", [2, 3]), ("b", [1, 3]), ("c", [2, 3]))]
    graph = helper.make_graph(nodes, "bitwise", inputs, [helper.make_tensor_value_info("y", element, [2, 3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]).SerializeToString()


def test_onnx_models_list_the_family_s_nodes():
    pytest.importorskip("onnxruntime")
    report = open_onnx_model(bitwise_model())
    assert [n.settings["operator"] for n in report.nodes] == [
        "ELEMENT_WISE_BIT_SHIFT_LEFT", "ELEMENT_WISE_BIT_AND", "ELEMENT_WISE_BIT_NOT", "ELEMENT_WISE_BIT_XOR",
        "ELEMENT_WISE_BIT_SHIFT_RIGHT"]
    shl = report.nodes[0]
    assert shl.settings == {"operator": "ELEMENT_WISE_BIT_SHIFT_LEFT", "DataType": "UINT16", "Sizes": [2, 3],
                            "ASizes": [2, 3], "BSizes": [1, 3]}
    assert report.nodes[2].settings == {"operator": "ELEMENT_WISE_BIT_NOT", "DataType": "UINT16", "Sizes": [2, 3]}
    for node in report.nodes:
        result = cross_check_node(report, node.index)
        assert result.available and result.matches, result.note


def test_an_onnx_shift_of_a_signed_type_has_no_directml_settings():
    from onnx import TensorProto

    pytest.importorskip("onnxruntime")
    report = open_onnx_model(bitwise_model(TensorProto.INT16))
    shifts = [n for n in report.nodes if n.op_type == "BitShift"]
    assert shifts and all(n.settings is None and "INT16" in n.problem for n in shifts)
