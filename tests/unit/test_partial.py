"""Real models, partially: the strict run still refuses, the inspection names every part's status, and the partial
run is exactly the strict run of the part that can run, stopping at the first dispatch that cannot."""

import copy
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ops
from ops import DescriptorError, inspect_model, run_model, run_model_partial
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.partial import DIRECTML_ONLY, INVALID, NOT_MODELLED, UNKNOWN_KIND, VALID
from ops.guard import element_cap_set_to
from ops.operators.split_join import split
from support.paths import ROOT

PARTIAL = {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "examples" / "partial").glob("*.json"))}
FULL = {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "examples").glob("*.json"))}


def statuses(inspection):
    return {(p.section, p.name): p.status for p in inspection.parts}


def test_the_partial_examples_mix_every_kind_asked_for():
    types = {d.get("type") for model in PARTIAL.values() for d in model["dispatchables"].values()}
    assert {"DML_OPERATOR_ELEMENT_WISE_ADD", "DML_OPERATOR_GEMM", "DML_OPERATOR_CONVOLUTION", "hlsl", "onnx"} <= types
    assert types & {"DML_OPERATOR_SPLIT", "DML_OPERATOR_JOIN", "DML_OPERATOR_DEPTH_TO_SPACE1"}


@pytest.mark.parametrize("name, field", [
    ("split_add_join", "dispatchables.add.type"),
    ("gemm_first", "dispatchables.gemm.type"),
    ("join_convolution_onnx", "resources.weights.initialValues.sourcePath"),
    ("depth_to_space_hlsl", "resources.constants.initialValuesDataType"),
])
def test_run_model_stays_strict_and_names_what_it_cannot_run(name, field):
    with pytest.raises(DescriptorError, match="^" + field.replace(".", r"\.")):
        run_model(PARTIAL[name])


@pytest.mark.parametrize("kind, extra", [("hlsl", {"sourcePath": "x.hlsl", "compilerArgs": []}),
                                         ("onnx", {"sourcePath": "x.onnx"})])
def test_run_model_refuses_an_hlsl_or_onnx_dispatchable_by_its_path(kind, extra):
    model = copy.deepcopy(FULL["bit_or"])
    model["dispatchables"]["other"] = {"type": kind, **extra}
    with pytest.raises(DescriptorError, match=rf"dispatchables\.other\.type: type '{kind}'"):
        run_model(model)


def test_inspection_gives_every_part_its_status():
    inspection = inspect_model(PARTIAL["join_convolution_onnx"])
    assert statuses(inspection) == {
        ("resources", "a"): VALID, ("resources", "b"): VALID, ("resources", "joined"): VALID,
        ("resources", "image"): VALID, ("resources", "weights"): NOT_MODELLED, ("resources", "features"): VALID,
        ("resources", "scores"): VALID, ("dispatchables", "join"): VALID, ("dispatchables", "split_wrong"): INVALID,
        ("dispatchables", "conv"): DIRECTML_ONLY, ("dispatchables", "classifier"): NOT_MODELLED,
    }
    wrong = inspection.status_of("dispatchables", "split_wrong")
    rules = ops.validate(PARTIAL["join_convolution_onnx"]["dispatchables"]["split_wrong"], "6_4")
    assert rules and wrong.problems == tuple("dispatchables.split_wrong." + rule for rule in rules)
    conv = inspection.status_of("dispatchables", "conv")
    assert conv.documentation == "DML_CONVOLUTION_OPERATOR_DESC" and conv.path == "dispatchables.conv.type"
    assert "DirectML's to judge" in conv.reason and conv.operator == "CONVOLUTION"
    assert conv.url.endswith("ns-directml-dml_convolution_operator_desc")
    onnx = inspection.status_of("dispatchables", "classifier")
    assert onnx.what.startswith("ONNX model") and "ONNX Model" in onnx.documentation
    assert inspection.status_of("resources", "weights").path == "resources.weights.initialValues.sourcePath"
    assert not inspection.fully_modelled


@pytest.mark.parametrize("kind, desc", [
    ("DML_OPERATOR_GEMM", "DML_GEMM_OPERATOR_DESC"),
    ("GEMM", "DML_GEMM_OPERATOR_DESC"),  # DxDispatch takes the enum suffix alone
    ("DML_OPERATOR_ELEMENT_WISE_ADD1", "DML_ELEMENT_WISE_ADD1_OPERATOR_DESC"),
    ("DML_OPERATOR_TOP_K1", "DML_TOP_K1_OPERATOR_DESC"),
])
def test_an_unmodelled_operator_is_named_by_its_directml_desc(kind, desc):
    model = copy.deepcopy(FULL["bit_or"])
    model["dispatchables"]["x"] = {"type": kind, "desc": {}}
    part = inspect_model(model).status_of("dispatchables", "x")
    # Read from DirectML's schema: an empty desc misses its required fields.
    assert (part.status, part.documentation) == (INVALID, desc)
    assert "missing required field" in part.reason


def test_an_operator_with_no_schema_in_dxdispatch_is_not_modelled():
    model = copy.deepcopy(FULL["bit_or"])
    model["dispatchables"]["x"] = {"type": "DML_OPERATOR_FOLD", "desc": {}}
    part = inspect_model(model).status_of("dispatchables", "x")
    assert part.status == NOT_MODELLED and "no schema in DxDispatch" in part.reason


@pytest.mark.parametrize("kind", ["DML_OPERATOR_NOT_AN_OPERATOR", "SHADER", "", 7, None])
def test_a_type_that_is_no_directml_operator_is_an_unknown_kind_not_unmodelled(kind):
    model = copy.deepcopy(FULL["bit_or"])
    model["dispatchables"]["x"] = {"type": kind}
    part = inspect_model(model).status_of("dispatchables", "x")
    assert part.status == UNKNOWN_KIND and part.reason.startswith("dispatchables.x.type: type")


def test_an_identity_with_a_scale_bias_is_modelled_and_valid_and_a_broken_one_invalid():
    identity = {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [3]}, "OutputTensor": {"DataType": "FLOAT32", "Sizes": [3]},
        "ScaleBias": {"Scale": 2, "Bias": 10}}}
    model = {"resources": {"a": {"initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3]}},
             "dispatchables": {"scaled": identity}, "commands": [{"type": "print", "resource": "a"}]}
    part = inspect_model(model).status_of("dispatchables", "scaled")
    assert (part.status, part.operator) == (VALID, "ELEMENT_WISE_IDENTITY")
    identity["desc"]["OutputTensor"]["DataType"] = "INT32"
    assert inspect_model(model).status_of("dispatchables", "scaled").status == INVALID


def test_split_then_an_unmodelled_add_runs_the_split_and_stops_at_the_add():
    model = PARTIAL["split_add_join"]
    run = run_model_partial(model)
    assert [(s.index, s.kind) for s in run.ran] == [(0, "dispatch"), (1, "print")]
    assert run.stopped_at == 2 and [s.index for s in run.skipped] == [2, 3, 4]
    assert "DML_OPERATOR_ELEMENT_WISE_ADD" in run.skipped[0].reason and "commands[2]" in run.skipped[1].reason
    x = np.arange(1, 9, dtype=np.float32).reshape(1, 1, 4, 2)
    top, bottom = split(x, 2, [2, 2])
    assert run.buffers["top"].tolist() == top.ravel().tolist()
    assert run.buffers["bottom"].tolist() == bottom.ravel().tolist()
    assert run.buffers["joined"].tolist() == [0] * 8  # the join after the stop did not run
    assert run.prints == ["Resource 'top': 1, 2, 3, 4"]
    assert run.dispatches[0].command_index == 0 and run.dispatches[0].operator == "SPLIT"


def test_a_print_of_an_unmodelled_buffer_is_skipped_without_stopping():
    run = run_model_partial(PARTIAL["join_convolution_onnx"])
    assert [s.index for s in run.ran] == [0, 1]
    assert run.skipped[0].index == 2 and "weights" in run.skipped[0].reason and run.stopped_at == 3
    assert run.prints == ["Resource 'joined': 1, 2, 3, 4, 5, 6"]


def test_an_unmodelled_dispatch_first_runs_nothing():
    run = run_model_partial(PARTIAL["gemm_first"])
    assert run.ran == [] and run.stopped_at == 0 and len(run.skipped) == 4
    assert run.buffers["merged"].tolist() == [0, 0, 0, 0]


def test_what_ran_equals_the_strict_run_of_the_same_commands():
    model = copy.deepcopy(PARTIAL["depth_to_space_hlsl"])
    run = run_model_partial(model)
    strict = copy.deepcopy(model)
    del strict["resources"]["constants"], strict["dispatchables"]["double"]
    strict["commands"] = strict["commands"][:2]
    expected = run_model_detailed(strict)
    assert run.prints == expected.prints == ["Resource 'output': 0, 2, 1, 3, 4, 6, 5, 7"]
    for name, values in expected.buffers.items():
        assert run.buffers[name].tobytes() == values.tobytes()


@pytest.mark.parametrize("name", list(FULL))
def test_a_fully_modelled_model_runs_whole_and_as_strictly(name):
    run = run_model_partial(FULL[name])
    expected = run_model_detailed(FULL[name])
    assert run.inspection.fully_modelled and run.skipped == [] and run.stopped_at is None
    assert run.prints == expected.prints
    assert all(run.buffers[k].tobytes() == v.tobytes() for k, v in expected.buffers.items())
    assert run.model == ops.load_model(FULL[name])


def test_a_binding_the_strict_loader_refuses_stops_there_with_its_path():
    model = copy.deepcopy(PARTIAL["split_add_join"])
    # The join's output now binds a 4-element buffer for 8 elements; put the join before the add.
    model["resources"]["joined"]["initialValues"]["valueCount"] = 4
    model["commands"][2], model["commands"][3] = model["commands"][3], model["commands"][2]
    run = run_model_partial(model)
    assert [s.index for s in run.ran] == [0, 1] and run.stopped_at == 2
    assert run.skipped[0].reason.startswith("commands[2].bindings.OutputTensor")
    assert "commands[2]" in run.skipped[1].reason


def test_write_file_and_unknown_commands():
    model = copy.deepcopy(PARTIAL["split_add_join"])
    model["commands"][1] = {"type": "writeFile", "resource": "top", "targetPath": "out.npy"}
    model["commands"][2] = {"type": "copy", "resource": "top"}
    run = run_model_partial(model)
    assert [s.index for s in run.ran] == [0]
    assert "never does" in run.skipped[0].reason and run.stopped_at == 2
    assert run.skipped[1].reason.startswith("commands[2].type: command type 'copy'")


def test_buffers_beyond_the_byte_cap_are_refused_before_running():
    buffer = {"initialValuesDataType": "FLOAT64", "initialValues": {"valueCount": 64, "value": 1}}
    model = {"resources": {f"r{i}": buffer for i in range(4)},
             "dispatchables": {}, "commands": [{"type": "print", "resource": "r3"}]}
    with element_cap_set_to(128):  # 1,024 bytes in all: two 512-byte buffers fit
        run = run_model_partial(model)
    assert [p.status for p in run.inspection.resources] == [VALID, VALID, INVALID, INVALID]
    assert "byte cap" in run.inspection.resources[2].reason
    assert run.ran == [] and "prints r3" in run.skipped[0].reason and run.stopped_at is None


@pytest.mark.parametrize("model, message", [
    ("[1, 2]", "the root must be a JSON object"),
    ('{"resources": {}, "dispatchables": {}}', "commands: missing"),
    ('{"resources": {', "JSON syntax error"),
    ({"resources": {}, "dispatchables": {}, "commands": [], "x": {1, 2}}, "not plain JSON data"),
    ({"resources": {"a": float("nan")}, "dispatchables": {}, "commands": []}, "not plain JSON data"),
    (42, "expected JSON text or a dict"),
])
def test_only_an_unreadable_model_raises(model, message):
    for function in (inspect_model, run_model_partial):
        with pytest.raises(DescriptorError, match=message):
            function(model)


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.text(max_size=6),
              st.sampled_from(["hlsl", "onnx", "GEMM", "DML_OPERATOR_SPLIT", "UNKNOWN", "dispatch", "print", "top"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8)


def _places(value, prefix=()):
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    found = []
    for key, item in items:
        found += [prefix + (key,)] + _places(item, prefix + (key,))
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PARTIAL)), st.data())
def test_mutated_models_give_a_run_or_a_descriptor_error(name, data):
    model = copy.deepcopy(PARTIAL[name])
    for _ in range(data.draw(st.integers(1, 3))):
        place = data.draw(st.sampled_from(_places(model)))
        parent = model
        for key in place[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[place[-1]]
        else:
            parent[place[-1]] = data.draw(json_values)
    try:
        with element_cap_set_to(2**12):
            run = run_model_partial(model)
    except DescriptorError:
        return
    assert {s.index for s in run.ran}.isdisjoint(s.index for s in run.skipped)
    assert len(run.ran) + len(run.skipped) == len(model["commands"])


def test_printing_directml_temporary_buffers_is_skipped_without_stopping():
    model = copy.deepcopy(FULL["join"])
    model["commands"].insert(0, {"type": "printInitTemporary", "dataType": "FLOAT32", "offset": 0})
    model["commands"].append({"type": "printExecTemporary", "dataType": "FLOAT32", "offset": 0})
    run = run_model_partial(model)
    assert run.stopped_at is None and [s.index for s in run.skipped] == [0, len(model["commands"]) - 1]
    assert "initialization" in run.skipped[0].reason and "execution" in run.skipped[1].reason
    assert run.prints == run_model_detailed(FULL["join"]).prints


def test_a_dispatchable_the_loader_refuses_stops_its_first_dispatch(monkeypatch):
    from ops.descriptors import partial

    real = partial.run_model_detailed

    def refusing_split(sub):
        if "split" in sub["dispatchables"]:
            raise DescriptorError("dispatchables.split.bindings.InputTensor: bound at initialization only")
        return real(sub)

    monkeypatch.setattr(partial, "run_model_detailed", refusing_split)
    run = run_model_partial(PARTIAL["split_add_join"])
    assert run.ran == [] and run.stopped_at == 0
    assert run.skipped[0].reason == ("commands[0]: dispatches split, which the loader refuses: "
                                     "dispatchables.split.bindings.InputTensor: bound at initialization only")
    odd = partial._refused_command('dispatchables["my op"].desc: no',
                                   [(4, {"type": "dispatch", "dispatchable": "my op"})])
    assert odd[0] == 4 and odd[1].startswith("commands[4]: dispatches my op")


def test_a_dispatchable_bound_at_initialization_to_an_unmodelled_buffer_cannot_run():
    model = copy.deepcopy(PARTIAL["join_convolution_onnx"])
    model["dispatchables"]["join"]["bindings"] = {"InputTensors": ["weights", "b"]}
    run = run_model_partial(model)
    assert run.stopped_at == 0
    assert run.skipped[0].reason.startswith("commands[0]: join binds weights, which is not modelled here: its values "
                                            "come from the file")
