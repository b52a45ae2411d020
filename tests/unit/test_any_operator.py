"""Every DirectML operator read from a DxDispatch model as DxDispatch reads it, from DirectML's schema alone
(ops/descriptors/operator_desc.py): our own models of ten operators the core does not model, every field type and
its refusals (each naming its JSON path), one synthetic model per schema, the registry's operators read alike, C++ for
every operator compiled, mutated models refused only with DescriptorError, and reading linear in the model's size."""

import copy
import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ops
from ops import DescriptorError, load_model, model_notes, schema, validate, validate_problems
from ops.descriptors.operator_desc import OperatorDesc, ScalarUnion, read_operator_desc
from ops.descriptors.partial import DIRECTML_ONLY, VALID, inspect_model
from ops.descriptors.validate import read_dispatchable, read_model_dispatchable, tensor_fields
from support.cpp import MOCK_HEADER
from support.mutations import DELETE, mutated, set_at
from support.operator_models import NAMED, named_model, synthetic_desc, synthetic_model
from support.paths import EXAMPLES

REGISTERED = [s for s in schema.SCHEMAS.values() if s.name in ops.OPERATORS]
UNREGISTERED = [s for s in schema.SCHEMAS.values() if s.name not in ops.OPERATORS]


def desc_of(model):
    return model["dispatchables"]["op"]["desc"]


def read(model):
    """The loaded model's one dispatchable, read from the schema."""
    result, problems = read_dispatchable(load_model(model)["dispatchables"]["op"], strict=True, notes=[])
    assert not problems
    return result.desc


# ---------------------------------------------------------------- our own models


@pytest.mark.parametrize("name", list(NAMED))
def test_our_models_load_normalize_and_read_back_to_themselves(name):
    model = named_model(name)
    normalized = load_model(model)
    assert model_notes(model) == []
    assert "null" not in json.dumps(normalized)
    assert load_model(json.dumps(normalized)) == normalized
    again, _ = read_dispatchable(normalized["dispatchables"]["op"], strict=True)
    assert {**again.to_json(), **normalized["dispatchables"]["op"]} == normalized["dispatchables"]["op"]
    assert inspect_model(model).status_of("dispatchables", "op").status == DIRECTML_ONLY


@pytest.mark.parametrize("name", list(NAMED))
def test_the_cores_run_refuses_them_naming_the_directml_run(name):
    with pytest.raises(DescriptorError, match=r'^dispatchables\.op\.type: DML_OPERATOR_\w+ is a DirectML operator the '
                                              r'core does not model .*ops\.run_model\(model, runtime="directml"\)'):
        ops.run_model(named_model(name))


def test_gemm_fields_in_struct_order_as_directml_receives_them():
    desc = read(named_model("gemm"))
    fields = {f.name: value for f, value in desc.fields()}
    assert [f.name for f, _ in desc.fields()] == [f.name for f in schema.schema("GEMM").fields]
    assert fields["TransA"] == 0 and fields["TransB"] == 1  # DML_MATRIX_TRANSFORM values
    assert fields["Alpha"] == 0.5 and fields["FusedActivation"] is None
    assert fields["CTensor"].Sizes == (1, 1, 2, 2)
    assert [(p.name, p.is_input) for p in desc.bind_points] == [
        ("ATensor", True), ("BTensor", True), ("CTensor", True), ("OutputTensor", False)]
    no_c = read(named_model("owned_weights"))
    assert no_c.inputs[2].descs == (None,) and not no_c.inputs[2].present
    assert desc.to_json()["TransB"] == "TRANSPOSE"


def test_a_float_field_is_the_float32_directml_receives():
    model = named_model("convolution")
    desc_of(model)["FusedActivation"]["Desc"]["Alpha"] = 0.1
    activation = read(model).values["FusedActivation"]
    assert activation.values["Alpha"] == float(np.float32(0.1))
    assert activation.to_operator_json() == {"Type": "DML_OPERATOR_ACTIVATION_LEAKY_RELU", "Desc": {"Alpha": 0.1}}
    for word, expected in (("NaN", "nan"), ("-INF", "-inf"), ("inf", "inf")):
        desc_of(model)["FusedActivation"]["Desc"]["Alpha"] = word
        assert read(model).values["FusedActivation"].to_json() == {"Alpha": expected}


def test_float16_scalar_unions_round_as_dxdispatch_and_keep_their_bits():
    desc = read(named_model("clip1_float16"))
    low, high = desc.values["Min"], desc.values["Max"]
    # ParseFloat16: the double read as a float, then half(float): -0.3 becomes 0xB4CD
    expected = np.array([-0.3], np.float64).astype(np.float32).astype(np.float16).view(np.uint16)[0]
    assert low.bits == int(expected).to_bytes(2, "little") + bytes(6) and low.bits[:2] == b"\xcd\xb4"
    assert high.bits == b"\x00\x3a" + bytes(6) and high.value == 0.75
    assert desc.to_json()["Min"] == -0.3 and desc.to_json()["Max"] == 0.75
    model = named_model("clip1_float16")
    desc_of(model).update(Min={"UInt16": 0x7E01}, Max=70000)  # a NaN payload; a number past FLOAT16's range
    values = read(model).values
    assert values["Min"].to_json() == {"UInt16": 0x7E01} and values["Max"].to_json() == {"UInt16": 0x7C00}


@pytest.mark.parametrize("data_type, raw, stored", [
    ("INT8", -128, b"\x80"), ("UINT8", 255, b"\xff"), ("INT16", -2, b"\xfe\xff"), ("UINT32", 2**32 - 1, b"\xff" * 4),
    ("INT64", -(2**63), b"\x00" * 7 + b"\x80"), ("UINT64", 2**64 - 1, b"\xff" * 8),
    ("FLOAT32", {"Float32": "nan"}, b"\x00\x00\xc0\x7f"), ("FLOAT64", 0.1, np.float64(0.1).tobytes()),
    ("FLOAT32", 1e39, np.float32(np.inf).tobytes()),
])
def test_scalar_unions_are_read_in_their_data_type(data_type, raw, stored):
    model = named_model("fill_value_sequence")
    desc_of(model).update(ValueDataType=data_type, ValueStart=raw, ValueDelta=raw)
    union = read(model).values["ValueStart"]
    assert isinstance(union, ScalarUnion) and union.bits == stored.ljust(8, b"\0")
    assert read(json.loads(json.dumps(load_model(model)))).values["ValueStart"] == union


def test_rnn_activations_are_nested_fused_descs():
    desc = read(named_model("rnn"))
    (tanh,) = desc.values["ActivationDescs"]
    assert isinstance(tanh, OperatorDesc) and tanh.fused and tanh.name == "ACTIVATION_TANH"
    assert tanh.values == {"InputTensor": None, "OutputTensor": None}
    assert desc.to_json()["ActivationDescs"] == [{"Type": "DML_OPERATOR_ACTIVATION_TANH", "Desc": {}}]
    assert [p.name for p in desc.outputs] == ["OutputSequenceTensor", "OutputSingleTensor"]


def test_uint_fields_dxdispatch_reads_as_bools():
    bools = [(s.name, f.name) for s in schema.SCHEMAS.values() for f in s.fields
             if f.type == "UINT" and f.reader == "ParseBoolField"]
    assert len(bools) == 18
    pooling = synthetic_model(schema.schema("AVERAGE_POOLING"))
    desc_of(pooling)["IncludePadding"] = False
    desc = read(pooling)
    assert desc.values["IncludePadding"] is False and dict((f.name, v) for f, v in desc.fields())["IncludePadding"] == 0
    desc_of(pooling)["IncludePadding"] = 1
    with pytest.raises(DescriptorError, match=r"^dispatchables\.op\.desc\.IncludePadding: IncludePadding 1: expected "
                                              r"true or false"):
        load_model(pooling)


def test_owned_weights_are_bound_at_initialization():
    model = named_model("owned_weights")
    normalized = load_model(model)
    assert normalized["dispatchables"]["op"]["bindings"] == {"BTensor": {"name": "b", "elementOffset": 0}}
    assert "BTensor" not in normalized["commands"][0]["bindings"]
    model["commands"][0]["bindings"]["BTensor"] = "b"
    with pytest.raises(DescriptorError, match=r"^commands\[0\]\.bindings\.BTensor: BTensor is flagged OWNED_BY_DML "
                                              r"and was bound at initialization"):
        load_model(model)
    del model["dispatchables"]["op"]["bindings"]
    with pytest.raises(DescriptorError, match=r"^dispatchables\.op\.bindings\.BTensor: BTensor is flagged "
                                              r"OWNED_BY_DML"):
        load_model(model)


def test_in_place_follows_the_schema():
    add = named_model("add1_elu")  # ELEMENT_WISE_ADD1 may run in place
    add["commands"][0]["bindings"]["OutputTensor"] = "a"
    assert load_model(add)["commands"][0]["bindings"]["OutputTensor"]["name"] == "a"
    gemm = named_model("gemm")
    gemm["resources"]["a"]["initialValues"] += [0, 0]
    gemm["commands"][0]["bindings"]["OutputTensor"] = "a"
    with pytest.raises(DescriptorError, match=r"^commands\[0\]\.bindings\.OutputTensor: OutputTensor \(bytes 0\.\.15\) "
                                              r"and ATensor .*may run in place, and DML_OPERATOR_GEMM is not one"):
        load_model(gemm)


def test_validation_of_an_operator_the_core_does_not_model_says_what_the_schema_knows():
    clip = named_model("clip1_float16")["dispatchables"]["op"]
    assert validate(clip, "5_0") == []
    assert validate(clip, "4_1") == ["type: type DML_OPERATOR_ELEMENT_WISE_CLIP1: introduced at feature level 5_0; "
                                     "not available at 4_1"]
    # Through the Python API, null stands for an optional field left out and unknown fields are problems.
    assert validate({**clip, "desc": {**clip["desc"], "ScaleBias": None}}, "6_4") == []
    assert validate({**clip, "desc": {**clip["desc"], "Extra": 1}}, "6_4") == [
        "desc.Extra: unknown field 'Extra' for DML_OPERATOR_ELEMENT_WISE_CLIP1; expected InputTensor, OutputTensor, "
        "ScaleBias, MinMaxDataType, Min, Max"]
    _, parsed = read_model_dispatchable(clip, "6_4")
    assert parsed is None  # no registry reading: the core does not model it


def test_an_operator_desc_is_written_type_and_desc_or_inline():
    """ParseDmlOperatorDesc: Type (or type), then Desc (or desc) or the fields beside the type. A desc with a field
    named Type (RANDOM_GENERATOR's) must use Desc (DxDispatch/doc/Guide.md)."""
    generator = schema.schema("RANDOM_GENERATOR")
    fields = synthetic_desc(generator)
    long_form, problems = read_operator_desc({"type": generator.full_name, "desc": fields})
    assert problems == [] and long_form.values["Type"] == "PHILOX_4X32_10"
    inline, problems = read_operator_desc({"Type": generator.full_name, **fields})
    assert inline is None and [str(p) for p in problems] == [
        "Type: type 'PHILOX_4X32_10': not a DirectML operator (DML_OPERATOR_<NAME> or <NAME>, spelled exactly)"]
    elu, problems = read_operator_desc({"Type": "ACTIVATION_ELU", "Alpha": "-inf", "Note": 1}, "f", notes=[],
                                       fused=True)
    assert problems == [] and elu.values["Alpha"] == float("-inf") and elu.fused
    assert elu.to_operator_json() == {"Type": "DML_OPERATOR_ACTIVATION_ELU", "Desc": {"Alpha": "-inf"}}


# ---------------------------------------------------------------- one refusal per rule


def _set(name, *path_and_value):
    *path, value = path_and_value
    return name, lambda model: set_at(model, path, value)


D = ("dispatchables", "op", "desc")
P = r"^dispatchables\.op\.desc\."
REFUSALS = [
    (_set("gemm", *D, "TransA", "transpose"), P + r"TransA: TransA 'transpose': expected one of NONE, TRANSPOSE, "
                                                  r"optionally prefixed with DML_MATRIX_TRANSFORM_.*names are exact: "
                                                  r"DML_MATRIX_TRANSFORM_TRANSPOSE"),
    (_set("gemm", *D, "TransA", 1), P + r"TransA: TransA 1: expected a DML_MATRIX_TRANSFORM name"),
    (_set("gemm", *D, "Alpha", "half"), P + r"Alpha: 'half': expected a number or one of 'NaN', 'Inf', '-Inf'"),
    (_set("gemm", *D, "Alpha", 2**53 + 1), P + r"Alpha: 9007199254740993: an integer a double cannot hold exactly"),
    (_set("gemm", *D, "Beta", DELETE), P + r"Beta: Beta: missing required field"),
    (_set("gemm", *D, "CTensor", None), P + r"CTensor: CTensor null: DxDispatch refuses null here .*leave an optional "
                                            r"field out instead"),
    (_set("gemm", *D, "ATensor", "Sizes", [1, 1, 0, 3]), P + r"ATensor\.Sizes\[2\]: Sizes\[2\] = 0: a size of 0"),
    (_set("gemm", *D, "ATensor", "TotalTensorSizeInBytes", 8), P + r"ATensor\.TotalTensorSizeInBytes: .*below the 24 "
                                                                   r"bytes"),
    (_set("gemm", *D, "FusedActivation", {"Type": "DML_OPERATOR_GEMM"}),
     P + r"FusedActivation\.Type: DML_OPERATOR_GEMM is not an activation"),
    (_set("gemm", *D, "FusedActivation", {"Type": "ACTIVATION_ELU"}), P + r"FusedActivation\.Alpha: Alpha: missing "
                                                                          r"required field"),
    (_set("gemm", *D, "FusedActivation", {"Alpha": 1}), P + r"FusedActivation\.Type: Type: missing required field"),
    (_set("gemm", *D, "FusedActivation", "RELU"),
     P + r"FusedActivation: 'RELU': expected a JSON object \{Type, Desc\}"),
    (_set("gemm", *D, "FusedActivation", {"Type": "ACTIVATION_RELUX"}), P + r"FusedActivation\.Type: type "
                                                                            r"'ACTIVATION_RELUX': not a DirectML"),
    (_set("convolution", *D, "DimensionCount", 3), P + r"Strides: Strides has 2 element\(s\) but DimensionCount is 3"),
    (_set("convolution", *D, "Dilations", [1, 1, 1]), P + r"Dilations: Dilations has 3 element\(s\) but "
                                                          r"DimensionCount is 2: DirectML reads DimensionCount"),
    (_set("convolution", *D, "Strides", [1, 1.0]), P + r"Strides\[1\]: Strides\[1\] 1\.0: must be a JSON integer in "
                                                       r"\[0, 2\^32-1\]"),
    (_set("convolution", *D, "Strides", 1), P + r"Strides: Strides 1: expected a JSON array"),
    (_set("convolution", *D, "GroupCount", -1), P + r"GroupCount: GroupCount -1: must be a JSON integer in "
                                                    r"\[0, 2\^32-1\]"),
    (_set("convolution", *D, "GroupCount", 2**32), P + r"GroupCount: GroupCount 4294967296"),
    (_set("rnn", *D, "ActivationDescCount", 2), P + r"ActivationDescs: ActivationDescs has 1 element\(s\) but "
                                                    r"ActivationDescCount is 2"),
    (_set("rnn", *D, "ActivationDescs", {"Type": "ACTIVATION_TANH"}), P + r"ActivationDescs: .*expected a JSON array"),
    (_set("rnn", *D, "ActivationDescs", [{"Type": "ELEMENT_WISE_ADD"}]),
     P + r"ActivationDescs\[0\]\.Type: DML_OPERATOR_ELEMENT_WISE_ADD is not an"),
    (_set("rnn", *D, "Direction", "forward"), P + r"Direction: Direction 'forward'.*DML_RECURRENT_NETWORK_DIRECTION_"
                                                  r"FORWARD"),
    (_set("clip1_float16", *D, "Min", "nan"), P + r"Min: Min 'nan': expected a number or an object \{UInt16: value\}"),
    (_set("clip1_float16", *D, "Min", {"Float16": 1}), P + r"Min\.UInt16: UInt16: missing required field"),
    (_set("clip1_float16", *D, "Max", {"UInt16": 65536}), P + r"Max\.UInt16: 65536: outside UINT16's range"),
    (_set("clip1_float16", *D, "MinMaxDataType", "UINT4"), P + r"Min: Min: MinMaxDataType UINT4 cannot be held in "
                                                               r"a DML_SCALAR_UNION"),
    (_set("clip1_float16", *D, "MinMaxDataType", DELETE), P + r"MinMaxDataType: MinMaxDataType: missing required"),
    (_set("clip1_float16", *D, "ScaleBias", {"Scale": 2}), P + r"ScaleBias\.Bias: Bias: missing required field of a "
                                                               r"DML_SCALE_BIAS"),
    (_set("clip1_float16", *D, "ScaleBias", None), P + r"ScaleBias: ScaleBias null: DxDispatch refuses null"),
    (_set("fill_value_sequence", *D, "ValueStart", 1.0), P + r"ValueStart: 1\.0: INT32 values must be JSON integers"),
    (_set("upsample_2d", *D, "ScaleSize", {"Width": 3}), P + r"ScaleSize\.Height: Height: missing required field of a "
                                                             r"DML_SIZE_2D"),
    (_set("upsample_2d", *D, "ScaleSize", [3, 2]), P + r"ScaleSize: \[3, 2\]: expected a JSON object \{Width, "
                                                       r"Height\}"),
    (_set("slice", *D, "Offsets", [0, 0, 1]), P + r"Offsets: Offsets has 3 element\(s\) but DimensionCount is 4"),
    (_set("reduce", *D, "Function", "DML_REDUCE_FUNCTION_MAXIMUM"), P + r"Function: Function "
                                                                       r"'DML_REDUCE_FUNCTION_MAXIMUM': expected one"),
    (_set("reduce", "dispatchables", "op", "type", "DML_OPERATOR_SCATTER_ELEMENTS"),
     r"^dispatchables\.op\.type: type 'DML_OPERATOR_SCATTER_ELEMENTS': DxDispatch reads this operator only as "
     r"DML_OPERATOR_SCATTER"),
    (_set("reduce", "dispatchables", "op", "type", "DML_OPERATOR_FOLD"),
     r"^dispatchables\.op\.type: type 'DML_OPERATOR_FOLD': a DML_OPERATOR_TYPE with no schema in DxDispatch"),
    (_set("gemm", "commands", 0, "bindings", "CTensor", DELETE), r"^commands\[0\]\.bindings\.CTensor: CTensor: "
                                                                 r"missing binding"),
    (_set("owned_weights", "commands", 0, "bindings", "CTensor", "a"),
     r"^commands\[0\]\.bindings\.CTensor: CTensor is left out of DML_GEMM_OPERATOR_DESC, so nothing may be bound"),
    (_set("gemm", "resources", "c", "initialValues", [1, 2, 3]), r"^commands\[0\]\.bindings\.CTensor: CTensor needs "
                                                                 r"TotalTensorSizeInBytes = 16 bytes"),
]


@pytest.mark.parametrize("case, pattern", REFUSALS, ids=[p[:60] for _, p in REFUSALS])
def test_each_rule_refuses_naming_its_path(case, pattern):
    name, change = case
    model = named_model(name)
    change(model)
    for form in (model, json.dumps(model)):
        with pytest.raises(DescriptorError, match=pattern):
            load_model(form)


def test_an_integer_data_type_range_checks_its_scalar_unions():
    model = named_model("fill_value_sequence")
    desc_of(model).update(ValueDataType="INT8", ValueStart=-129)
    with pytest.raises(DescriptorError, match=r"^dispatchables\.op\.desc\.ValueStart: -129: outside INT8's range"):
        load_model(model)
    desc_of(model)["ValueStart"] = -128
    assert read(model).values["ValueStart"].bits == b"\x80" + bytes(7)


def test_fields_dxdispatch_does_not_read_are_listed_by_model_notes():
    model = named_model("add1_elu")
    desc_of(model)["Comment"] = "ours"
    desc_of(model)["FusedActivation"]["InputTensor"] = {"DataType": "FLOAT32", "Sizes": [2, 3]}
    desc_of(model)["FusedActivation"]["Extra"] = 1
    notes = model_notes(model)
    assert "dispatchables.op.desc.Comment: ignored: unknown field 'Comment' for DML_OPERATOR_ELEMENT_WISE_ADD1" in \
        notes[0]
    assert any(n.startswith("dispatchables.op.desc.FusedActivation.InputTensor: ignored: a fused activation's tensors "
                            "are null") for n in notes)
    assert any(n.startswith("dispatchables.op.desc.FusedActivation.Extra: ignored") for n in notes)
    assert "Comment" not in json.dumps(load_model(model))


# ---------------------------------------------------------------- every schema


@pytest.mark.parametrize("operator_schema", list(schema.SCHEMAS.values()), ids=list(schema.SCHEMAS))
def test_a_synthetic_model_of_every_schema_loads_and_each_required_field_is_required(operator_schema):
    model = synthetic_model(operator_schema)
    dispatchable = model["dispatchables"]["op"]
    read_back, problems = read_dispatchable(dispatchable, strict=True, notes=[])
    assert problems == [] and read_back.desc.to_json().keys() == desc_of(model).keys()
    if operator_schema.name in ops.OPERATORS:
        loaded = None  # the registry's own rules judge these; synthetic values need not hold to them
    else:
        loaded = load_model(model)
        assert load_model(json.dumps(loaded)) == loaded
    for f in operator_schema.fields:
        if f.optional or f.name not in desc_of(model):
            continue
        broken = copy.deepcopy(model)
        del desc_of(broken)[f.name]
        with pytest.raises(DescriptorError) as refusal:
            load_model(broken)
        assert f"dispatchables.op.desc.{f.name}: {f.name}: missing required field" in str(refusal.value)
    if loaded is not None:
        assert [p.name for p in read_back.desc.bind_points] == [
            f.name for f in operator_schema.inputs + operator_schema.outputs]


def test_every_operator_exports_cpp_that_compiles(tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    bodies = []
    for i, operator_schema in enumerate(UNREGISTERED):
        code = ops.cpp_snippet(synthetic_model(operator_schema)["dispatchables"]["op"])
        assert f"{operator_schema.desc_struct} " in code
        bodies.append(f"void make_{i}() {{\n{code}(void)operatorDesc;\n}}")
    for name in NAMED:
        bodies.append(f"void make_{name}() {{\n{ops.cpp_snippet(named_model(name)['dispatchables']['op'])}"
                      "(void)operatorDesc;\n}")
    source = tmp_path / "every_operator.cpp"
    source.write_text(MOCK_HEADER + "\n".join(bodies))
    result = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", str(source)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[:3000]


def test_cpp_writes_nested_activations_scalar_unions_and_sizes():
    conv = ops.cpp_snippet(named_model("convolution")["dispatchables"]["op"])
    assert "DML_ACTIVATION_LEAKY_RELU_OPERATOR_DESC fusedActivationDesc = {};" in conv
    assert "fusedActivationDesc.Alpha = 0.125f;" in conv
    assert "convolutionDesc.FusedActivation = &fusedActivation;" in conv
    assert "const UINT startPadding[2] = {1, 1};" in conv
    clip = ops.cpp_snippet(named_model("clip1_float16")["dispatchables"]["op"])
    assert "elementWiseClip1Desc.Min.UInt16 = 0xB4CD;" in clip and "elementWiseClip1Desc.Max.UInt16 = 0x3A00;" in clip
    assert "elementWiseClip1Desc.ScaleBias = nullptr;" in clip
    upsample = ops.cpp_snippet(named_model("upsample_2d")["dispatchables"]["op"])
    assert "upsample2dDesc.ScaleSize = DML_SIZE_2D{3, 2};" in upsample
    rnn = ops.cpp_snippet(named_model("rnn")["dispatchables"]["op"])
    assert "const DML_OPERATOR_DESC activationDescs[1] = {{DML_OPERATOR_ACTIVATION_TANH, &activationDescs0Desc}};" \
        in rnn
    fill = named_model("fill_value_sequence")
    desc_of(fill).update(ValueDataType="INT64", ValueStart=-(2**63))
    assert "ValueStart.Int64 = (-9223372036854775807LL - 1);" in ops.cpp_snippet(fill["dispatchables"]["op"])


# ---------------------------------------------------------------- the registry's operators


def test_the_registry_and_the_schema_read_the_examples_alike():
    for path in sorted(EXAMPLES.glob("*.json")) + sorted((EXAMPLES / "dxdispatch").glob("*.json")):
        model = load_model(path.read_text())
        for name, dispatchable in model["dispatchables"].items():
            # The loader's normalized JSON is the schema's reading; the registry's own reading agrees with it.
            generic, parsed = read_model_dispatchable(dispatchable, "6_4", strict=True, notes=[])
            assert parsed is not None and generic.desc.name == parsed.operator, (path, name)
            assert generic.to_json() == {**parsed.to_json(), "desc": {
                k: v for k, v in parsed.to_json()["desc"].items() if v is not None}}
            assert [(p.name, p.is_input) for p in generic.desc.bind_points] == [
                (n, k.startswith("input")) for n, k in tensor_fields(parsed.operator)]
            for point in generic.desc.bind_points:
                tensors = parsed.tensors[point.name]
                assert list(point.descs) == (tensors if isinstance(tensors, list) else [tensors])


registry_dispatchables = st.sampled_from([
    (path.name, name) for path in sorted(EXAMPLES.glob("*.json"))
    for name in json.loads(path.read_text())["dispatchables"]])
field_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 9), st.sampled_from(
    [2**32, 1.0, 0.5, "nan", "", "DCR", "COLUMN_ROW_DEPTH", "UINT8", "FLOAT16", [], {}, [1, 2], {"Scale": 1}]))


@settings(max_examples=150, deadline=None)
@given(registry_dispatchables, st.data(), field_values)
def test_what_the_registry_accepts_the_schema_reads_to_the_same_desc(where, data, value):
    file, name = where
    dispatchable = json.loads((EXAMPLES / file).read_text())["dispatchables"][name]
    mutated = copy.deepcopy(dispatchable)
    desc = mutated["desc"]
    key = data.draw(st.sampled_from(sorted(desc)))
    if data.draw(st.booleans()):
        del desc[key]
    else:
        desc[key] = value
    if validate_problems(mutated, "6_4", strict=True, notes=[]):
        return
    generic, problems = read_dispatchable(mutated, strict=True, notes=[])
    assert problems == [], problems
    _, parsed = read_model_dispatchable(mutated, "6_4", strict=True, notes=[])
    assert generic.desc == read_dispatchable(parsed.to_json(), strict=True)[0].desc


# ---------------------------------------------------------------- hostile and large models


generic_models = st.one_of(st.sampled_from(list(NAMED)).map(named_model),
                           st.sampled_from(UNREGISTERED).map(synthetic_model))
replacements = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 70), st.floats(allow_nan=False),
    st.sampled_from([2**32, 2**64, -(2**63) - 1, 1.5, "nan", "Inf", "", "NONE", "FLOAT16", "UINT4", "ACTIVATION_RELU",
                     "DML_OPERATOR_GEMM", [], {}, [0], [1, 2, 3], {"UInt16": 1}, {"Type": "ACTIVATION_ELU"},
                     {"Type": "ACTIVATION_LINEAR", "Desc": {"Alpha": 1, "Beta": 0}}, {"Width": 1, "Height": 1},
                     {"DataType": "FLOAT32", "Sizes": [4]}, {"Scale": "inf", "Bias": 0}]),
    st.lists(st.integers(0, 5), max_size=4))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generic_models, st.data(), replacements)
def test_mutated_models_of_any_operator_raise_nothing_but_descriptor_errors(model, data, value):
    changed = mutated(model, data, value)
    for candidate in (changed, json.dumps(changed)):
        try:
            normalized = load_model(candidate)
        except DescriptorError as error:
            assert str(error)
            continue
        assert load_model(json.dumps(normalized)) == normalized
        model_notes(candidate)
        for dispatchable in normalized["dispatchables"].values():
            ops.cpp_snippet(dispatchable)
    try:
        inspect_model(changed)  # refuses only what is not JSON or has no resources, dispatchables or commands
    except DescriptorError as error:
        assert str(error).startswith(("resources: ", "dispatchables: ", "commands: ", "model: "))
    dispatchables = changed.get("dispatchables")
    dispatchable = dispatchables.get("op") if isinstance(dispatchables, dict) else None
    if isinstance(dispatchable, dict):
        validate(dispatchable, "2_0")


def _calls(fn):
    """How many Python functions fn() calls: the reading's work, counted deterministically."""
    count = [0]

    def profile(frame, event, arg):
        if event == "call":
            count[0] += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count[0]


def _large(kind, n):
    """A model whose reading grows with n in one way."""
    if kind == "activations":
        model = named_model("rnn")
        desc_of(model).update(ActivationDescCount=n, ActivationDescs=[{"Type": "ACTIVATION_ELU", "Alpha": 0.5}] * n)
    elif kind == "floats":
        model = synthetic_model(schema.schema("RESAMPLE"))
        desc_of(model).update(ScaleCount=n, Scales=[0.5] * n)
    elif kind == "uints":
        model = named_model("slice")
        desc_of(model).update(DimensionCount=n, Offsets=[0] * n, Sizes=[1] * n, Strides=[1] * (n - 1) + [1.5])
    elif kind == "unknown fields":
        model = named_model("gemm")
        desc_of(model).update({f"Field{i}": i for i in range(n)})
    else:
        model = named_model("add1_elu")
        model["dispatchables"].update({f"op{i}": copy.deepcopy(model["dispatchables"]["op"]) for i in range(n)})
    return json.dumps(model)


def _load_or_refuse(text):
    try:
        load_model(text)
    except DescriptorError:
        pass


@pytest.mark.parametrize("kind", ["activations", "floats", "uints", "unknown fields", "dispatchables"])
def test_reading_stays_linear_in_the_models_size(kind):
    """Each doubling of what grows adds about the same work: linear, not quadratic."""
    calls = [_calls(lambda n=n: _load_or_refuse(_large(kind, n))) for n in (1000, 2000, 4000)]
    assert calls[2] - calls[1] <= 2.2 * (calls[1] - calls[0]), (kind, calls)


@pytest.mark.timeout(120)
def test_a_megabyte_of_activations_is_read_or_refused_within_the_model_cap():
    text = _large("activations", 22_000)
    assert len(text) < 1_000_000
    desc = read(text)
    assert len(desc.values["ActivationDescs"]) == 22_000 and inspect_model(text).parts[-1].status == DIRECTML_ONLY


def test_a_model_mixing_the_core_and_directml_operators_is_inspected_part_by_part():
    model = named_model("gemm")
    bit_or = json.loads((EXAMPLES / "bit_or.json").read_text())
    model["resources"].update(bit_or["resources"])
    model["dispatchables"].update(bit_or["dispatchables"])
    model["commands"] += bit_or["commands"]
    statuses = {p.name: p.status for p in inspect_model(model).dispatchables}
    assert statuses == {"op": DIRECTML_ONLY, **{name: VALID for name in bit_or["dispatchables"]}}
    run = ops.run_model_partial(model)
    assert run.stopped_at == 0 and "only DirectML computes" in run.skipped[0].reason
