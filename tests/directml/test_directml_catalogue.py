"""The operator catalogue on DirectML in CI: every operator's example (ops/catalogue) run in one worker and compared
with its ONNX twin (ops/runtime/onnx_twins.py); docs/directml_catalogue.md is the same run, written out by
scripts/directml_catalogue.py.

Every operator up to this DirectML's feature level must run and agree with its twin within the twin's tolerance,
except what ops/runtime/catalogue.py's KNOWN names, whose evidence is here: each such entry must still behave as
recorded (a fix shows as a failure to update it). The whole catalogue took 78 s here (2 cores, load average 8-10)."""

import numpy as np
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

from ops import catalogue
from ops.descriptors.dxdispatch import _load, run_model_detailed
from ops.descriptors.on_directml import runtime_desc
from ops.runtime import catalogue as runs
from ops.runtime import directml as dml
from ops.runtime import onnx_twins
from ops.runtime.catalogue import ABOVE_LEVEL, KNOWN, RAN, REFUSED
from support.specs import philox_4x32_10

pytestmark = pytest.mark.directml

SECONDS = 60
MEMORY_GROWTH_MB = 250  # measured: 631 MB at the worker's start, 783 MB at its peak over the catalogue


@pytest.fixture(scope="module")
def matrix(directml):
    return runs.run_all(seconds=SECONDS)


@pytest.fixture(scope="module")
def rows(matrix):
    return {row.name: row for row in matrix.rows}


def level_value(level):
    major, minor = level.split("_")
    return int(major), int(minor)


@pytest.mark.parametrize("name", catalogue.names())
def test_every_operator_runs_and_agrees_with_its_twin_or_is_known(directml, rows, name):
    row = rows[name]
    if level_value(row.level) > level_value(directml.max_feature_level):
        assert row.outcome == ABOVE_LEVEL and f"feature level {row.level}" in row.reason
        return
    known = KNOWN.get(name, (None,))[0]
    if known == REFUSED:
        assert row.outcome == REFUSED and row.stage and row.reason
        return
    assert row.outcome == RAN, row.reason
    if known == "differs":
        assert row.twin is not None and not row.twin.agrees
    elif row.twin is not None:
        assert row.twin.agrees, row.twin.summary


def test_most_operators_that_run_have_an_onnx_twin_and_the_rest_say_why(rows):
    ran = [row for row in rows.values() if row.outcome == RAN]
    assert sum(row.twin is not None for row in ran) >= 140
    assert all(row.twin is not None or row.no_twin for row in ran)


def test_the_worker_stays_one_and_bounded_over_the_whole_catalogue(matrix):
    assert matrix.workers == 1
    assert matrix.peak_mb - matrix.start_mb < MEMORY_GROWTH_MB


# ---------------------------------------------------------------- KNOWN, with its evidence


ROI_GRADIENT_ALONE = {"OutputGradientTensor": None, "InputTensor": catalogue.tensor_desc((1, 2, 4, 4), "FLOAT32"),
                      "OutputROIGradientTensor": catalogue.tensor_desc((1, 1, 2, 4), "FLOAT32")}


@pytest.mark.parametrize("changes", [{}, {"InterpolationMode": "LINEAR"}, ROI_GRADIENT_ALONE],
                         ids=["nearest", "linear", "ROI gradient alone (the input given)"])
def test_roi_align_grad_is_refused_when_its_pipeline_is_created(directml, changes):
    example = catalogue.example("ROI_ALIGN_GRAD")
    buffers = example.buffers()
    if changes.get("InputTensor") is not None:
        buffers["InputTensor"] = bytes(changes["InputTensor"].TotalTensorSizeInBytes)
    result = dml.run_desc(dml.OperatorDesc("ROI_ALIGN_GRAD", {**example.desc.fields, **changes}), buffers,
                          seconds=SECONDS)
    assert result.stage == "CompileOperator" and result.hresult_text == "E_FAIL (0x80004005)"
    assert any("Failed to create Vulkan compute pipeline" in line for line in result.diagnostics)


def dynamic_range(values):
    """DYNAMIC_QUANTIZE_LINEAR's range (scale x 255) for these values."""
    x = np.asarray(values, np.float32)
    fields = {"InputTensor": catalogue.tensor_desc(x.shape, "FLOAT32"),
              "OutputTensor": catalogue.tensor_desc(x.shape, "UINT8"),
              "OutputScaleTensor": catalogue.tensor_desc((1,), "FLOAT32"),
              "OutputZeroPointTensor": catalogue.tensor_desc((1,), "UINT8")}
    result = dml.run_desc(dml.OperatorDesc("DYNAMIC_QUANTIZE_LINEAR", fields), {"InputTensor": x.tobytes()},
                          seconds=SECONDS)
    assert result.ok, result.reason
    return float(np.frombuffer(result.output("OutputScaleTensor"), np.float32)[0]) * 255


@pytest.mark.parametrize("size", [8, 12, 1000])
def test_dynamic_quantize_linear_takes_its_range_from_the_even_indexed_elements(directml, size):
    for index in (0, 1, size - 2, size - 1):
        values = np.ones(size)
        values[index] = 5
        # The range includes 0, as ONNX's does: [0, 5] when the 5 counts, [0, 1] when it does not.
        assert dynamic_range(values) == pytest.approx(5 if index % 2 == 0 else 1, rel=1e-6)


# ---------------------------------------------------------------- what the twins' forms rest on


def resize(x, nearest_mode):
    node = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="nearest",
                            coordinate_transformation_mode="half_pixel", nearest_mode=nearest_mode)
    return ReferenceEvaluator(node).run(None, {"x": x, "s": np.array([1, 1, 2.5, 3], np.float32)})[0]


@pytest.mark.parametrize("direction, nearest_mode", [("INCREASING", "ceil"), ("DECREASING", "floor")])
def test_resample2_rounds_the_nearest_coordinate_up_or_down_by_its_rounding_direction(directml, direction,
                                                                                      nearest_mode):
    x = np.arange(2 * 4 * 4, dtype=np.float32).reshape(1, 2, 4, 4)
    expected = resize(x, nearest_mode)
    fields = {"InputTensor": catalogue.tensor_desc(x.shape, "FLOAT32"),
              "OutputTensor": catalogue.tensor_desc(expected.shape, "FLOAT32"),
              "InterpolationMode": "NEAREST_NEIGHBOR", "RoundingDirection": direction, "Scales": [1, 1, 2.5, 3],
              "InputPixelOffsets": [0.5] * 4, "OutputPixelOffsets": [-0.5] * 4}
    result = dml.run_desc(dml.OperatorDesc("RESAMPLE2", fields), {"InputTensor": x.tobytes()}, seconds=SECONDS)
    got = np.frombuffer(result.output("OutputTensor"), np.float32).reshape(expected.shape)
    np.testing.assert_array_equal(got, expected)
    other = resize(x, "floor" if nearest_mode == "ceil" else "ceil")
    assert not np.array_equal(got, other)  # the scales put coordinates between pixels: the direction shows


@pytest.mark.parametrize("p", [1, 2])
def test_lp_normalization_divides_by_the_square_root_of_the_squared_norm_plus_epsilon(directml, p):
    example = catalogue.example("LP_NORMALIZATION")
    x = example.inputs["InputTensor"].astype(np.float64)
    desc = dml.OperatorDesc("LP_NORMALIZATION", {**example.desc.fields, "Epsilon": 0.5, "P": p})
    result = dml.run_desc(desc, example.buffers(), seconds=SECONDS)
    got = np.frombuffer(result.output("OutputTensor"), np.float32).reshape(x.shape)
    norm = (np.abs(x) ** p).sum(axis=1, keepdims=True) ** (1 / p)
    np.testing.assert_allclose(got, x / np.sqrt(norm ** 2 + 0.5), rtol=1e-6)
    assert np.abs(got - x / (norm + 0.5)).max() > 0.05  # a large Epsilon tells the forms apart
    comparison = onnx_twins.compare(desc, example.inputs, {"OutputTensor": got})
    assert comparison.agrees, comparison.summary


@pytest.mark.parametrize("name", ["GEMM", "CONVOLUTION", "RNN", "JOIN", "SPLIT", "ELEMENT_WISE_QUANTIZE_LINEAR",
                                  "ELEMENT_WISE_CLIP1", "TOP_K1"])
def test_an_example_run_as_a_dxdispatch_model_writes_what_its_desc_wrote(directml, name):
    example = catalogue.example(name)
    direct = dml.run_desc(example.desc, example.buffers(), seconds=SECONDS)
    run = run_model_detailed(example.model(), runtime="directml")
    for output_name, data in zip(direct.output_names, direct.outputs):
        if data is None:  # an optional output the example leaves out
            continue
        resource = output_name.replace("[", "").replace("]", "")
        assert run.buffers[resource].tobytes() == data[:run.buffers[resource].nbytes]
    # The run's record holds each tensor as its field's logical array (a list for an array): the twin reads it.
    (record,) = run.dispatches
    (dispatchable,) = _load(example.model()).dispatchables.values()
    comparison = onnx_twins.compare(runtime_desc(dispatchable.desc), record.inputs, record.outputs)
    assert comparison.agrees, comparison.summary


@pytest.mark.parametrize("name", ["ACTIVATION_RELU_GRAD", "ELEMENT_WISE_CLIP_GRAD", "ELEMENT_WISE_CLIP_GRAD1"])
def test_gradients_pass_strictly_inside_their_bounds(directml, name):
    # The examples' bounds: 0 for RELU_GRAD, [-0.5, 0.5] for the clips; the bounds themselves pass nothing.
    example = catalogue.example(name)
    x = np.array([-0.5, -0.25, 0, 0.25, 0.5, 1, -1, 0.3, -0.0, 2, -2, 0.1], np.float32).reshape(1, 2, 2, 3)
    gradient = np.arange(1, 13, dtype=np.float32).reshape(x.shape)
    inputs = {"InputTensor": x, "InputGradientTensor": gradient}
    result = dml.run_desc(example.desc, {k: v.tobytes() for k, v in inputs.items()}, seconds=SECONDS)
    got = np.frombuffer(result.output("OutputGradientTensor"), np.float32).reshape(x.shape)
    low, high = (0, np.inf) if name == "ACTIVATION_RELU_GRAD" else (-0.5, 0.5)
    np.testing.assert_array_equal(got, np.where((x > low) & (x < high), gradient, 0))
    assert onnx_twins.compare(example.desc, inputs, {"OutputGradientTensor": got}).agrees


@pytest.mark.parametrize("counter", [[0, 0, 0, 0], [0xFFFFFFFE, 0xFFFFFFFF, 7, 0]], ids=["zero", "carrying"])
def test_random_generator_is_philox_4x32_10_and_advances_its_counter(directml, counter):
    # RANDOM_GENERATOR has no ONNX twin (ONNX's random operators name no generator); its page names Philox 4x32-10.
    state = np.array(counter + [0x1234, 0x5678], np.uint32).reshape(1, 1, 1, 6)
    fields = {"InputStateTensor": catalogue.tensor_desc(state.shape, "UINT32"),
              "OutputTensor": catalogue.tensor_desc((1, 1, 3, 5), "UINT32"),
              "OutputStateTensor": catalogue.tensor_desc(state.shape, "UINT32"), "Type": "PHILOX_4X32_10"}
    result = dml.run_desc(dml.OperatorDesc("RANDOM_GENERATOR", fields), {"InputStateTensor": state.tobytes()},
                          seconds=SECONDS)
    assert np.frombuffer(result.output("OutputTensor"), np.uint32).tolist() == philox_4x32_10(state.ravel(), 15)
    advanced = sum(int(w) << (32 * i) for i, w in enumerate(counter)) + 4  # ceil(15 / 4) blocks
    expected_state = [(advanced >> (32 * i)) & 0xFFFFFFFF for i in range(4)] + [0x1234, 0x5678]
    assert np.frombuffer(result.output("OutputStateTensor"), np.uint32).tolist() == expected_state
