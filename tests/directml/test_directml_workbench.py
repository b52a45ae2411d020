"""The workbench as DxDispatch for Linux and the catalogue's one-click run, on DirectML itself, as a visitor drives
them (AppTest through app.py): DxDispatch's GEMM and convolution (our mirrors, examples/dxdispatch_models/) run on
DirectML, each dispatch says who answered, its tensors are drawn, its output is compared with its ONNX twin in ULPs,
and what DirectML wrote equals the values computed independently (support/dxdispatch_models.py)."""

import json

import numpy as np
import pytest

from ops import schema
from ops.descriptors.partial import CORE_AND_DIRECTML, DIRECTML_ALONE
from support import dxdispatch_models as models
from support.app import chart_figure, run_through_app, shown
from support.figures import plotly_array

pytestmark = pytest.mark.directml

OPERATORS = {"gemm": "GEMM", "convolution_2d": "CONVOLUTION"}
# (model, its dispatchable, the resource printed, the ONNX twin's operators)
MODELS = {"gemm": ("outer_product", "product", "Gemm"), "convolution_2d": ("convolve", "result", "Conv")}


def open_model(name, **query):
    at = run_through_app("workbench", query={"wb_source": "DxDispatch's models", "wb_dxdispatch_model": name,
                                             "wb_tab": "Run", **query})
    assert not at.exception, [e.message for e in at.exception]
    return at


def frame(at, column):
    return next(getattr(t.value, "data", t.value) for t in at.dataframe
                if column in getattr(t.value, "data", t.value).columns)


def printed(at, resource):
    """The values a print command showed for `resource`, as numbers."""
    line = next(c.value for c in at.code if c.value.startswith(f"Resource '{resource}'"))
    return np.array([float(v) for v in line.split(": ", 1)[1].split(", ")])


@pytest.mark.parametrize("name", list(MODELS))
def test_a_dxdispatch_model_runs_on_directml_with_its_answers_tensors_and_twin(directml, name):
    dispatchable, resource, twin = MODELS[name]
    at = open_model(name)
    assert at.radio(key="wb_runtime").value == "directml"
    answers = frame(at, "answered by")
    assert list(answers["dispatchable"]) == [dispatchable] and list(answers["answered by"]) == [DIRECTML_ALONE]
    # DirectML's output, as printed, is what plain loops compute (support/dxdispatch_models.py)
    np.testing.assert_array_equal(printed(at, resource), models.expected(name)[resource].ravel())
    # every tensor drawn: each input, and the output before (zeros) and after (DirectML's values)
    model = json.loads(models.text(name).split("\n", 2)[2])
    for field in model["commands"][0]["bindings"]:
        key = f"wb_after_0_{field}" if field == "OutputTensor" else f"wb_in_0_{field}"
        assert chart_figure(at, key)["data"], key
    after = plotly_array(chart_figure(at, "wb_after_0_OutputTensor")["data"][0]["z"]).astype(float)
    np.testing.assert_array_equal(after[np.isfinite(after)], models.expected(name)[resource].ravel())
    # the twin's comparison, with its ULP distance
    verdict = next(shown(s.value) for s in at.success if shown(s.value).startswith("ONNX twin"))
    assert f"ONNX twin `{twin}` on ONNX Runtime: **agrees**, largest distance 0 (" in verdict, verdict
    assert "64 ULPs of the output's largest magnitude (accumulated)" in verdict
    distances = frame(at, "largest distance")
    assert list(distances["output"]) == ["OutputTensor"] and list(distances["agrees"]) == [True]
    assert (distances["largest distance"] <= distances["allowed"]).all()
    assert not at.error
    # the explorer maps its descs, the export writes its C++ from the schema (AppTest draws every tab)
    assert chart_figure(at, "wb_memory_map")["data"]
    assert any(f"DML_{OPERATORS[name]}_OPERATOR_DESC" in c.value for c in at.code if c.language == "cpp")


def test_a_model_of_the_cores_operators_says_both_answer(directml):
    at = run_through_app("workbench", query={"wb_source": "Example", "wb_example": "join", "wb_tab": "Run"})
    assert not at.exception
    assert set(frame(at, "answered by")["answered by"]) == {CORE_AND_DIRECTML}
    assert not [r for r in at.radio if r.key == "wb_runtime"]  # the core runs it; DirectML cross-checks it


def test_a_refusal_by_directml_names_the_stage_and_never_breaks_the_page(directml):
    model = json.loads(models.text("gemm").split("\n", 2)[2])
    model["dispatchables"]["outer_product"]["desc"]["OutputTensor"]["Sizes"] = [1, 1, 3, 2]  # not M x N
    model["resources"]["product"]["initialValues"]["valueCount"] = 6
    at = run_through_app("workbench", query={"wb_tab": "Run"})
    at.radio(key="wb_source").set_value("Paste JSON").run()
    at.text_area(key="wb_text").input(json.dumps(model)).run()
    assert not at.exception
    refusal = next(shown(e.value) for e in at.error if "The run on DirectML stopped" in shown(e.value))
    assert "E_INVALIDARG" in refusal or "CreateOperator" in refusal, refusal


def test_the_catalogue_runs_an_operator_in_one_click(directml):
    at = run_through_app("catalogue", query={"cat_op": "CONVOLUTION"})
    assert not at.exception
    assert not at.button(key="cat_run").disabled
    at.button(key="cat_run").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error
    verdict = next(shown(s.value) for s in at.success if shown(s.value).startswith("ONNX twin"))
    assert "ONNX twin `Conv` on ONNX Runtime: **agrees**" in verdict
    assert any("Ran on DirectML in its worker process" in shown(c.value) for c in at.caption)
    assert chart_figure(at, "wb_after_0_OutputTensor")["data"]


def test_an_operator_without_a_twin_says_so(directml):
    at = run_through_app("catalogue", query={"cat_op": "ELEMENT_WISE_ATAN_YX"})
    at.button(key="cat_run").click().run()
    assert not at.exception and not at.error
    assert any(shown(i.value).startswith("No ONNX twin compared: DML_OPERATOR_ELEMENT_WISE_ATAN_YX has no ONNX twin")
               for i in at.info)
    assert chart_figure(at, "wb_after_0_OutputTensor")["data"]


def test_an_operator_past_this_build_cannot_be_run_and_says_why(directml):
    newer = next(op.name for op in schema.SCHEMAS.values() if op.level > directml.max_feature_level)
    at = run_through_app("catalogue", query={"cat_op": newer})
    assert not at.exception
    assert at.button(key="cat_run").disabled
    assert any(f"supports feature levels up to {directml.max_feature_level}" in shown(i.value) for i in at.info)
