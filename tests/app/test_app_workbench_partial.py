"""The workbench in partial mode, as a user drives it through app.py in AppTest: models with parts not modelled
here open with a status table, validation of the modelled part, and the commands run up to the first dispatch that
cannot be run."""

import copy
import json

import pytest

from ops.descriptors.partial import DIRECTML_ONLY, NOT_MODELLED, VALID
from support.app import chart_figures, run_through_app, shown
from support.paths import ROOT

PARTIAL = {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "examples" / "partial").glob("*.json"))}
# (commands that ran, first skipped command's reason start, printed lines) per example
EXPECTED = {
    "split_add_join": ([0, 1], "commands[2]: dispatches add", ["Resource 'top': 1, 2, 3, 4"]),
    "gemm_first": ([], "commands[0]: dispatches gemm", []),
    "depth_to_space_hlsl": ([0, 1], "commands[2]: dispatches double",
                            ["Resource 'output': 0, 2, 1, 3, 4, 6, 5, 7"]),
    "join_convolution_onnx": ([0, 1], "commands[2]: prints weights", ["Resource 'joined': 1, 2, 3, 4, 5, 6"]),
}


@pytest.fixture(scope="module")
def page():
    at = run_through_app("app_pages/workbench/page.py")
    at.radio(key="wb_source").set_value("Paste JSON").run()
    return at


def on_the_core(at):
    """A model of DirectML operators alone runs on DirectML by default (tests/directml/test_directml_workbench.py);
    the core's partial mode is the visitor's other choice."""
    if any(r.key == "wb_runtime" for r in at.radio) and at.radio(key="wb_runtime").value != "core":
        at.radio(key="wb_runtime").set_value("core").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def paste(at, text):
    at.text_area(key="wb_text").input(text).run()
    return on_the_core(at)


def tables(at):
    """The page's dataframes as pandas frames (a styled one gives its data)."""
    return [getattr(t.value, "data", t.value) for t in at.dataframe]


@pytest.mark.parametrize("name", list(PARTIAL))
def test_a_partial_example_opens_in_partial_mode(page, name):
    at = paste(page, json.dumps(PARTIAL[name]))
    assert any("open in partial mode" in shown(w.value) for w in at.warning)
    assert not at.error
    status = next(t for t in tables(at) if "status" in t.columns)
    model = PARTIAL[name]
    assert list(status["part"]) == [f"resources.{n}" for n in model["resources"]] + [
        f"dispatchables.{n}" for n in model["dispatchables"]]
    assert {NOT_MODELLED, DIRECTML_ONLY} & set(status["status"]) and VALID in set(status["status"])
    ran, first_reason, printed = EXPECTED[name]
    printed_block = next(c.value for c in at.code if c.value.startswith(("Resource '", "(no print")))
    assert printed_block.splitlines() == (printed or ["(no print command ran)"])
    skipped = next(t for t in tables(at) if "why it was skipped" in t.columns)
    assert len(skipped) == len(model["commands"]) - len(ran)
    assert skipped["why it was skipped"].iloc[0].startswith(first_reason)
    # every dispatch that ran is cross-checked on ONNX Runtime, byte for byte
    checks = [shown(s.value) for s in at.success if shown(s.value).startswith("Cross-check")]
    dispatches = [i for i in ran if model["commands"][i]["type"] == "dispatch"]
    assert len(checks) == len(dispatches) and all("**matches**" in c for c in checks)


def test_partial_mode_validates_and_maps_the_directml_operators(page):
    at = paste(page, json.dumps(PARTIAL["join_convolution_onnx"]))
    report = next(t for t in tables(at) if "feature level" in t.columns)
    # The convolution is judged by what DirectML's schema knows (from feature level 1_0); the ONNX model is not.
    assert list(report.columns) == ["feature level", "join", "split_wrong", "conv"]
    assert report["join"].iloc[-1] == "ok" and "must sum exactly" in report["split_wrong"].iloc[-1]
    assert set(report["conv"]) == {"ok"}
    options = at.selectbox(key="wb_desc").options
    assert options[1:] == ["dispatchables.join.desc.InputTensors[0]", "dispatchables.join.desc.InputTensors[1]",
                           "dispatchables.join.desc.OutputTensor", "dispatchables.split_wrong.desc.InputTensor",
                           "dispatchables.split_wrong.desc.OutputTensors[0]",
                           "dispatchables.split_wrong.desc.OutputTensors[1]", "dispatchables.conv.desc.InputTensor",
                           "dispatchables.conv.desc.FilterTensor", "dispatchables.conv.desc.OutputTensor"]
    assert chart_figures(at)  # the memory map of the first desc
    assert any("stops at initialization" in shown(w.value) for w in at.warning)
    links = "\n".join(shown(m.value) for m in at.markdown)
    assert "ns-directml-dml_convolution_operator_desc" in links


def test_an_uploaded_partial_model_opens_the_same_way():
    at = run_through_app("app_pages/workbench/page.py")
    at.radio(key="wb_source").set_value("Upload a file").run()
    data = json.dumps(PARTIAL["gemm_first"]).encode()
    on_the_core(at.file_uploader(key="wb_upload").set_value(("gemm.json", data, "application/json")).run())
    assert any(shown(w.value).startswith("gemm.json has parts this project does not model (`gemm`)")
               for w in at.warning)


def _hlsl_only():
    model = copy.deepcopy(PARTIAL["depth_to_space_hlsl"])
    model["commands"] = model["commands"][2:]
    return model


def _mutated(name, change):
    model = copy.deepcopy(PARTIAL[name])
    change(model)
    return json.dumps(model)


HOSTILE = {
    "type in upper case": (_mutated("depth_to_space_hlsl", lambda m: m["dispatchables"]["double"].update(type="HLSL")),
                           "commands[2]: dispatches double"),
    "only an hlsl dispatch": (json.dumps(_hlsl_only()), "commands[0]: dispatches double"),
    "binding an undefined resource": (
        _mutated("split_add_join", lambda m: m["commands"][0]["bindings"].update(InputTensor="nowhere")),
        "commands[0].bindings.InputTensor.name"),
    "a huge file name": (
        _mutated("join_convolution_onnx",
                 lambda m: m["resources"]["weights"]["initialValues"].update(sourcePath="x" * 100_000)),
        "its values come from the file 'xxxx"),
    "type is a list": (_mutated("gemm_first", lambda m: m["dispatchables"]["or"].update(type=["GEMM"])),
                       "dispatchables.or.type"),
    "a command that is a number": (_mutated("split_add_join", lambda m: m["commands"].insert(0, 7)),
                                   "commands[0]: a command must be a JSON object"),
    "a buffer over the cap": (
        _mutated("gemm_first", lambda m: m["resources"]["merged"]["initialValues"].update(valueCount=2**30)),
        "resources.merged.initialValues.valueCount"),
    "a dispatchable that is a string": (_mutated("gemm_first", lambda m: m["dispatchables"].update(x="gemm")),
                                        "dispatchables.x: a dispatchable must be a JSON object"),
    "an unknown operator next to a known unmodelled one": (
        _mutated("gemm_first", lambda m: m["dispatchables"]["or"].update(type="DML_OPERATOR_BIT_ORR")),
        "neither a DML_OPERATOR_TYPE"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_partial_models_get_a_message_naming_the_field(page, case):
    text, expected = HOSTILE[case]
    at = paste(page, text)
    page_text = "\n".join([shown(w.value) for w in at.warning] + [shown(e.value) for e in at.error]
                          + [shown(i.value) for i in at.info]
                          + [json.dumps(t.to_dict(), default=str) for t in tables(at)])
    assert expected in page_text, page_text[:3000]
    assert at.warning or at.error


def test_the_partial_examples_are_bundled_and_their_choice_is_a_link():
    at = run_through_app("app_pages/workbench/page.py",
                         query={"wb_source": "Partly modelled example", "wb_partial_example": "gemm_first",
                                "wb_runtime": "core"})
    assert not at.exception
    assert at.selectbox(key="wb_partial_example").options == list(PARTIAL)
    assert any(shown(w.value).startswith("examples/partial/gemm_first.json has parts this project does not model "
                                         "(`gemm`)")
               for w in at.warning)
    at.selectbox(key="wb_partial_example").set_value("split_add_join").run()
    assert at.query_params["wb_partial_example"] == "split_add_join"
    assert any("examples/partial/split_add_join.json has parts" in shown(w.value) for w in at.warning)
