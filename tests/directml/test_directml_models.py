"""DxDispatch models of any operator run on DirectML itself: `ops.run_model(model, runtime="directml")` on our ten
models (support/operator_models.py) against values computed independently here (numpy loops from the operators' API
pages, onnx.reference), a model of the core's operators byte for byte equal to the core's run, DirectML's refusal and
an operator newer than this DirectML build refused with the command's path, and `inspect_model`'s answer for each
dispatch."""

import copy
import json

import numpy as np
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

import ops
from ops import DescriptorError, schema
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.partial import CORE_AND_DIRECTML, DIRECTML_ALONE, REFUSED, inspect_model
from support.operator_models import named_model, synthetic_model
from support.paths import EXAMPLES

pytestmark = pytest.mark.directml


def values(model, name, dtype=np.float32):
    return np.array(model["resources"][name]["initialValues"], dtype)


def on_directml(model):
    return ops.run_model(json.dumps(model), runtime="directml")


def elu(x, alpha):
    return np.where(x > 0, x, alpha * (np.exp(x.astype(np.float64)) - 1)).astype(np.float32)


def test_gemm_and_owned_weights(directml):
    gemm = named_model("gemm")
    a, b = values(gemm, "a").reshape(2, 3), values(gemm, "b").reshape(2, 3)
    expected = 0.5 * a @ b.T + 2.0 * values(gemm, "c").reshape(2, 2)
    np.testing.assert_array_equal(on_directml(gemm)["out"], expected.ravel())
    owned = named_model("owned_weights")
    np.testing.assert_array_equal(on_directml(owned)["out"], (0.5 * a @ b.T).ravel())


def test_convolution_with_a_fused_leaky_relu(directml):
    model = named_model("convolution")
    x = np.arange(16, dtype=np.float32).reshape(4, 4) * 0.5 - 4
    w, bias = values(model, "w").reshape(2, 3, 3), values(model, "bias")
    padded = np.pad(x, 1)
    expected = np.zeros((2, 4, 4), np.float32)
    for k in range(2):
        for i in range(4):
            for j in range(4):
                expected[k, i, j] = (padded[i:i + 3, j:j + 3] * w[k]).sum() + bias[k]
    expected = np.where(expected >= 0, expected, 0.125 * expected)
    np.testing.assert_allclose(on_directml(model)["y"], expected.ravel(), rtol=0, atol=1e-6)


def test_rnn_with_its_activation_array(directml):
    model = named_model("rnn")
    x, w, r = values(model, "x").reshape(3, 2), values(model, "w").reshape(2, 2), values(model, "r").reshape(2, 2)
    bias = values(model, "bias")
    h, sequence = np.zeros(2, np.float64), []
    for t in range(3):  # DML_RNN_OPERATOR_DESC: Ht = f(Xt W^T + Ht-1 R^T + Wb + Rb), f its activation (tanh)
        h = np.tanh(x[t] @ w.T + h @ r.T + bias[:2] + bias[2:])
        sequence.append(h)
    result = on_directml(model)
    np.testing.assert_allclose(result["sequence"], np.ravel(sequence), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(result["last"], h, rtol=1e-5, atol=1e-6)


def test_reduce_fill_slice_and_clip_exactly(directml):
    reduce = named_model("reduce")
    np.testing.assert_array_equal(on_directml(reduce)["y"], values(reduce, "x").reshape(2, 3).max(axis=0))
    assert on_directml(named_model("fill_value_sequence"))["y"].tolist() == [-4, -1, 2, 5, 8, 11]
    source = (100 + 7 * np.arange(20)).astype(np.uint16).reshape(4, 5)
    assert on_directml(named_model("slice"))["y"].tolist() == source[1:4:2, 0:5:3].ravel().tolist()
    clip = named_model("clip1_float16")
    low = np.float16(np.float32(-0.3))  # ParseFloat16: the double through float
    expected = np.clip(values(clip, "x", np.float16), low, np.float16(0.75))
    np.testing.assert_array_equal(on_directml(clip)["y"].view(np.uint16), expected.view(np.uint16))


def test_upsample_and_add1_with_a_fused_elu(directml):
    upsample = named_model("upsample_2d")
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear",
                            coordinate_transformation_mode="half_pixel")
    x = values(upsample, "x").reshape(1, 1, 2, 2)
    expected = ReferenceEvaluator(node).run(None, {"x": x, "scales": np.float32([1, 1, 2, 3])})[0]
    np.testing.assert_allclose(on_directml(upsample)["y"], expected.ravel(), rtol=1e-6, atol=1e-6)
    add = named_model("add1_elu")
    expected = elu(values(add, "a") + values(add, "b"), 0.75)
    np.testing.assert_allclose(on_directml(add)["out"], expected, rtol=2e-6, atol=0)


def test_the_cores_operators_on_directml_equal_the_cores_run_byte_for_byte(directml):
    for name in ("bit_or.json", "join.json", "split_axis2.json", "depth_to_space1_dcr.json"):
        text = (EXAMPLES / name).read_text()
        core, dml = run_model_detailed(text), run_model_detailed(text, runtime="directml")
        assert core.buffer_bytes.keys() == dml.buffer_bytes.keys()
        for resource in core.buffer_bytes:
            assert core.buffer_bytes[resource].tobytes() == dml.buffer_bytes[resource].tobytes(), (name, resource)
        assert core.prints == dml.prints
        assert {a.answer for a in inspect_model(text).answers(directml)} == {CORE_AND_DIRECTML}


def test_directml_refusal_names_the_command_stage_and_hresult(directml):
    model = named_model("gemm")
    model["dispatchables"]["op"]["desc"]["OutputTensor"]["Sizes"] = [1, 1, 2, 3]
    model["resources"]["out"]["initialValues"]["valueCount"] = 6
    assert ops.load_model(model)  # the schema knows nothing against it; DirectML does
    with pytest.raises(DescriptorError, match=r"^commands\[0\]: DirectML refused op \(DML_OPERATOR_GEMM\): "
                                              r"CreateOperator returned E_INVALIDARG \(0x80070057\)"):
        on_directml(model)
    (answer,) = inspect_model(model).answers(directml)
    assert answer.answer == DIRECTML_ALONE  # who would answer; DirectML's verdict comes with the run


def test_an_operator_newer_than_this_directml_is_refused_before_anything_runs(directml):
    newer = [s for s in schema.SCHEMAS.values()
             if ops.levels.level_index(s.level) > ops.levels.level_index(directml.max_feature_level)]
    if not newer:
        pytest.skip(f"this DirectML supports every level of the schema ({directml.max_feature_level})")
    model = synthetic_model(newer[0])
    assert ops.load_model(model)
    with pytest.raises(DescriptorError, match=rf"^dispatchables\.op\.type: {newer[0].full_name} was introduced in "
                                              rf"feature level {newer[0].level}; this DirectML build supports feature "
                                              rf"levels up to {directml.max_feature_level}"):
        on_directml(model)
    (answer,) = inspect_model(model).answers(directml)
    assert answer.answer == REFUSED and f"introduced in feature level {newer[0].level}" in answer.reason


def test_execution_flags_go_to_compile_operator(directml):
    model = named_model("reduce")
    expected = on_directml(model)["y"]
    flagged = copy.deepcopy(model)
    flagged["dispatchables"]["op"]["executionFlags"] = ["DISABLE_META_COMMANDS", "DML_EXECUTION_FLAG_NONE"]
    np.testing.assert_array_equal(on_directml(flagged)["y"], expected)
