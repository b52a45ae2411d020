"""DxDispatch models: the bundled examples against the seeds, every initializer and binding form, refusals."""

import copy
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ops import DescriptorError, element_cap_set_to, load_model, run_model, validate
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.export import model_for
from support.mutations import mutated
from support.paths import EXAMPLES

SEED_INPUT = [[[0, 1, 2], [3, 4, 5]], [[9, 10, 11], [12, 13, 14]], [[18, 19, 20], [21, 22, 23]],
              [[27, 28, 29], [30, 31, 32]], [[36, 37, 38], [39, 40, 41]], [[45, 46, 47], [48, 49, 50]],
              [[54, 55, 56], [57, 58, 59]], [[63, 64, 65], [66, 67, 68]]]
SEED_DCR = [[[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56], [3, 21, 4, 22, 5, 23], [39, 57, 40, 58, 41, 59]],
            [[9, 27, 10, 28, 11, 29], [45, 63, 46, 64, 47, 65], [12, 30, 13, 31, 14, 32], [48, 66, 49, 67, 50, 68]]]
SEED_CRD = [[[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29], [3, 12, 4, 13, 5, 14], [21, 30, 22, 31, 23, 32]],
            [[36, 45, 37, 46, 38, 47], [54, 63, 55, 64, 56, 65], [39, 48, 40, 49, 41, 50], [57, 66, 58, 67, 59, 68]]]


def example(name):
    return (EXAMPLES / name).read_text()


def flat(nested):
    return np.array(nested).ravel().tolist()


def test_example_depth_to_space_dcr_matches_seed():
    result = run_model_detailed(example("depth_to_space1_dcr.json"))
    assert result.buffers["output"].tolist() == flat(SEED_DCR)
    assert result.buffers["output"].dtype == np.uint32
    assert result.prints == ["Resource 'output': " + ", ".join(map(str, flat(SEED_DCR)))]
    record = result.dispatches[0]
    assert record.inputs["InputTensor"].tolist() == [SEED_INPUT]
    assert record.outputs["OutputTensor"].shape == (1, 2, 4, 6)
    assert not record.outputs_before["OutputTensor"].any()


def test_example_depth_to_space_crd_reads_seed_input_through_strides():
    result = run_model_detailed(example("depth_to_space1_crd.json"))
    assert result.dispatches[0].inputs["InputTensor"].tolist() == [SEED_INPUT]
    assert result.buffers["output"].tolist() == flat(SEED_CRD)


def test_example_space_to_depth_inverts_seed():
    assert run_model(example("space_to_depth1.json"))["output"].tolist() == flat(SEED_INPUT)


def test_example_bit_or_float_bits_and_broadcast():
    out = run_model(example("bit_or.json"))["Out"]
    bits = out.view(np.uint32).tolist()
    # 1.0|2.0 = 0x7F800000 (+inf, SPEC 4); 2.0|2.0 = 2.0; 0.5|2.0 = 0x7F000000; -1.0|2.0 = 0xFF800000 (-inf)
    assert bits[:5] == [0x7F800000, 0x40000000, 0x7F000000, 0xFF800000, 0x7F800000]
    assert np.isnan(out[5])


def test_example_splits_match_seed():
    out = run_model(example("split_axis2.json"))
    assert [out[k].tolist() for k in ("out0", "out1", "out2")] == [[1, 2, 3, 4], [5, 6], [7, 8, 9, 10, 11, 12]]
    out = run_model(example("split_axis3.json"))
    assert out["out0"].tolist() == [1, 3, 5, 7, 9, 11] and out["out1"].tolist() == [2, 4, 6, 8, 10, 12]


def test_example_join():
    assert run_model(example("join.json"))["output"].tolist() == list(range(1, 13))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_examples_valid_and_normalization_idempotent(path):
    model = load_model(path.read_text())
    assert load_model(json.dumps(model)) == model
    for d in model["dispatchables"].values():
        assert validate(d, "6_4") == []


def guide_join():
    """DxDispatch's own dml_join.json model (microsoft/DirectML, DxDispatch/models)."""
    return {
        "$schema": "./_schema.json",
        "resources": {
            "A": {"initialValuesDataType": "FLOAT32",
                  "initialValues": {"valueCount": 10, "valueStart": 1, "valueDelta": 1}},
            "B": {"initialValuesDataType": "FLOAT32",
                  "initialValues": {"valueCount": 3, "valueStart": 100, "valueDelta": 15}},
            "Out": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 10, "value": 0}},
        },
        "dispatchables": {"join": {"type": "DML_OPERATOR_JOIN", "desc": {
            "Axis": 0, "InputCount": 3,
            "InputTensors": [{"DataType": "FLOAT32", "Sizes": [3]}, {"DataType": "FLOAT32", "Sizes": [2]},
                             {"DataType": "FLOAT32", "Sizes": [5]}],
            "OutputTensor": {"DataType": "FLOAT32", "Sizes": [10]}}}},
        "commands": [
            {"type": "dispatch", "dispatchable": "join", "bindings": {
                "InputTensors": [{"name": "A", "elementCount": 3, "elementOffset": 0}, "B",
                                 {"name": "A", "elementCount": 5, "elementOffset": 4}],
                "OutputTensor": "Out"}},
            {"type": "print", "resource": "Out"},
        ],
    }


def test_sub_range_bindings_of_dxdispatch_join_example():
    result = run_model_detailed(guide_join())
    assert result.buffers["Out"].tolist() == [1, 2, 3, 100, 115, 5, 6, 7, 8, 9]
    assert result.prints == ["Resource 'Out': 1, 2, 3, 100, 115, 5, 6, 7, 8, 9"]


def one_resource_model(data_type, initial, **extra):
    return {"resources": {"r": {"initialValuesDataType": data_type, "initialValues": initial, **extra}},
            "dispatchables": {}, "commands": [{"type": "print", "resource": "r"}]}


def test_initializers():
    values = run_model(one_resource_model("FLOAT16", [65504, -65504, 4, "nan", "inf", "-inf"]))["r"]
    assert values.dtype == np.float16
    assert values[:3].tolist() == [65504, -65504, 4] and np.isnan(values[3])
    assert values[4:].tolist() == [np.inf, -np.inf]

    def values_of(data_type, initial):
        return run_model(one_resource_model(data_type, initial))["r"].tolist()

    assert values_of("FLOAT32", {"valueCount": 4, "valueStart": 1, "valueDelta": 2.5}) == [1, 3.5, 6, 8.5]
    assert values_of("INT8", {"valueCount": 3, "valueStart": 5, "valueDelta": -60}) == [5, -55, -115]
    assert values_of("UINT64", {"valueCount": 2, "value": 2**64 - 1}) == [2**64 - 1] * 2
    with pytest.raises(DescriptorError,
                       match=r"^resources\.r\.initialValues\[0\]: 1\.0: INT32 values must be JSON integers"):
        run_model(one_resource_model("INT32", [1.0, -2]))


def test_size_in_bytes_pads_and_rounds_up():
    result = run_model_detailed(one_resource_model("UINT8", [1, 2, 3], sizeInBytes=5))
    assert result.buffers["r"].tolist() == [1, 2, 3, 0, 0]
    assert len(result.buffer_bytes["r"]) == 5  # an explicit size is used as given (JsonParsers.cpp)
    assert result.prints == ["Resource 'r': 1, 2, 3"]
    assert load_model(one_resource_model("FLOAT16", [1, 2, 3]))["resources"]["r"]["sizeInBytes"] == 8


def bit_or_model(a, b, out, a_desc=None, b_desc=None, out_desc=None, bindings=None, data_type="UINT32"):
    def desc(extra, size):
        return {"DataType": data_type, "Sizes": [size], **(extra or {})}
    return {
        "resources": {name: {"initialValuesDataType": vt, "initialValues": v}
                      for name, (vt, v) in {"A": a, "B": b, "Out": out}.items() if (vt, v) != (None, None)},
        "dispatchables": {"or": {"type": "ELEMENT_WISE_BIT_OR", "desc": {
            "ATensor": desc(a_desc, 4), "BTensor": desc(b_desc, 4), "OutputTensor": desc(out_desc, 4)}}},
        "commands": [{"type": "dispatch", "dispatchable": "or",
                      "bindings": bindings or {"ATensor": "A", "BTensor": "B", "OutputTensor": "Out"}}],
    }


def test_float_buffer_bound_as_uint32():
    model = bit_or_model(("FLOAT32", [1.0, 2.0, 0.5, -1.0]), ("UINT32", [0, 0, 0, 1]),
                         ("FLOAT32", {"valueCount": 4, "value": 0}))
    result = run_model_detailed(model)
    assert result.dispatches[0].inputs["ATensor"].tolist() == [0x3F800000, 0x40000000, 0x3F000000, 0xBF800000]
    assert result.buffers["Out"].dtype == np.float32
    assert result.buffers["Out"].view(np.uint32).tolist() == [0x3F800000, 0x40000000, 0x3F000000, 0xBF800001]


def test_in_place_and_persistent_writes():
    model = bit_or_model(("UINT32", [1, 2, 4, 8]), ("UINT32", [16, 16, 16, 16]), (None, None),
                         bindings={"ATensor": "A", "BTensor": "B", "OutputTensor": "A"})
    model["commands"].append({"type": "print", "resource": "A"})
    model["commands"].append(copy.deepcopy(model["commands"][0]))
    model["commands"][-1]["bindings"]["BTensor"] = {"name": "A"}
    result = run_model_detailed(model)
    # First dispatch: A |= 16; the second ORs A with itself and sees the first one's writes.
    assert result.prints == ["Resource 'A': 17, 18, 20, 24"]
    assert result.buffers["A"].tolist() == [17, 18, 20, 24]
    assert result.dispatches[1].inputs["ATensor"].tolist() == [17, 18, 20, 24]


def test_zero_stride_input_and_padded_output():
    model = bit_or_model(("UINT16", [1, 2, 4, 8]), ("UINT16", [256]), ("UINT16", {"valueCount": 8, "value": 9}),
                         b_desc={"Strides": [0]}, out_desc={"Strides": [2]}, data_type="UINT16")
    out = run_model(model)["Out"]
    assert out.tolist() == [257, 9, 258, 9, 260, 9, 264, 9]


def test_split_outputs_share_one_buffer_through_offsets():
    model = model_for("split", np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2), axis=3, sizes=[1, 1])
    model["resources"]["both"] = {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 16, "value": 0}}
    bindings = model["commands"][0]["bindings"]
    bindings["OutputTensors"] = ["both", {"name": "both", "elementOffset": 8}]
    assert run_model(model)["both"].tolist() == [1, 3, 5, 7, 9, 11, 0, 0, 2, 4, 6, 8, 10, 12, 0, 0]
    bindings["OutputTensors"] = ["both", {"name": "both", "elementOffset": 4}]
    with pytest.raises(DescriptorError,
                       match=r"^commands\[0\]\.bindings\.OutputTensors: .*two outputs may not write the same bytes"):
        run_model(model)
    bindings["OutputTensors"] = ["both", {"name": "both", "elementOffset": 1}]
    with pytest.raises(DescriptorError, match=r"OutputTensors\[1\]\.elementOffset: .*multiple of 16"):
        run_model(model)


def test_split_into_overlapping_input_refused():
    model = model_for("split", np.arange(4, dtype=np.int32).reshape(1, 4), axis=1, sizes=[2, 2])
    model["commands"][0]["bindings"]["OutputTensors"] = ["input", "output1"]
    with pytest.raises(DescriptorError, match=r"^commands\[0\]\.bindings\.OutputTensors: .*may run in place"):
        run_model(model)


def refusal(model, pattern):
    with pytest.raises(DescriptorError, match=pattern):
        run_model(model)


def base_model():
    return model_for("bit_or", [np.array([1, 2, 3, 4], np.uint32), np.array([8, 8, 8, 8], np.uint32)])


def mutate(fn):
    model = base_model()
    fn(model)
    return model


REFUSALS = [
    (lambda m: m["resources"]["A"].update(initialValues={"sourcePath": "weights.npy"}),
     r"^resources\.A\.initialValues\.sourcePath: sourcePath reads a file from disk"),
    (lambda m: m["commands"][0]["bindings"].update(ATensor="Z"),
     r"^commands\[0\]\.bindings\.ATensor\.name: resource 'Z'"),
    (lambda m: m["commands"][0].update(dispatchable="nope"), r"^commands\[0\]\.dispatchable: dispatchable 'nope'"),
    # Any operator of DirectML's schema loads; a GEMM needs GEMM's fields, and the core's run refuses what it does
    # not model.
    (lambda m: m["dispatchables"]["element_wise_bit_or"].update(type="DML_OPERATOR_GEMM"),
     r"^dispatchables\.element_wise_bit_or\.desc\.TransA: TransA: missing required field"),
    (lambda m: m["dispatchables"]["element_wise_bit_or"].update(type="DML_OPERATOR_ELEMENT_WISE_ADD"),
     r"^dispatchables\.element_wise_bit_or\.type: DML_OPERATOR_ELEMENT_WISE_ADD is a DirectML operator the core "
     r"does not model .*runtime=\"directml\""),
    (lambda m: m["dispatchables"]["element_wise_bit_or"]["desc"]["BTensor"].update(Sizes=[5]),
     r"^dispatchables\.element_wise_bit_or\.desc\.BTensor\.Sizes: "),
    (lambda m: m["commands"][0]["bindings"].pop("BTensor"),
     r"^commands\[0\]\.bindings\.BTensor: BTensor: missing binding"),
    (lambda m: m["commands"][0]["bindings"].update(ATensor=["A", "B"]),
     r"^commands\[0\]\.bindings\.ATensor: 2 bindings"),
    (lambda m: m["commands"][0]["bindings"].update(ATensor={"name": "A", "elementOffset": 1}),
     r"^commands\[0\]\.bindings\.ATensor\.elementOffset: elementOffset 1: 4 bytes .* multiple of 16"),
    (lambda m: m["resources"]["A"].update(initialValues=[1, 2, 3]),
     r"^commands\[0\]\.bindings\.ATensor: .*holds 12 bytes"),
    (lambda m: m["resources"]["A"].update(initialValues=[1, 2, 3, 2**32]),
     r"^resources\.A\.initialValues\[3\]: 4294967296: outside UINT32"),
    (lambda m: m["resources"]["A"].update(initialValues=[1, 2, 3, "nan"]),
     r"^resources\.A\.initialValues\[3\]: 'nan': UINT32 values must be JSON integers"),
    (lambda m: m["resources"]["A"].update(initialValues=[1, 2, 3, 1.5]), r"^resources\.A\.initialValues\[3\]: 1.5"),
    (lambda m: m["resources"]["A"].update(initialValues=[]), r"^resources\.A\.initialValues: "),
    (lambda m: m["resources"]["A"].update(initialValues={"valueCount": 0, "value": 1}),
     r"^resources\.A\.initialValues\.valueCount: "),
    (lambda m: m["resources"]["A"].update(initialValues={"valueCount": 4, "valueStart": 250, "valueDelta": 2**40}),
     r"^resources\.A\.initialValues\.valueDelta: .*outside UINT32"),
    (lambda m: m["resources"]["A"].update(initialValues={"count": 4}),
     r"^resources\.A\.initialValues: initialValues fields"),
    (lambda m: m["resources"]["A"].update(initialValuesDataType="UNKNOWN"),
     r"^resources\.A\.initialValuesDataType: .*UNKNOWN"),
    (lambda m: m["resources"]["A"].update(initialValuesDataType="FLOAT8"), r"^resources\.A\.initialValuesDataType: "),
    (lambda m: m["resources"]["A"].update(sizeInBytes=8),
     r"^resources\.A\.sizeInBytes: sizeInBytes 8: the buffer size is too small for the initialValues \(16 bytes\)"),
    (lambda m: m["resources"]["A"].pop("initialValuesDataType"), r"^resources\.A\.initialValuesDataType: .*missing"),
    (lambda m: m["commands"].append({"type": "writeFile", "targetPath": "x.npy", "resource": "A"}),
     r"^commands\[2\]\.type: writeFile"),
    (lambda m: m["commands"].append({"type": "print", "resource": "Q"}), r"^commands\[2\]\.resource: "),
    (lambda m: m["commands"].append("print"), r"^commands\[2\]: "),
    (lambda m: m.pop("commands"), r"^commands: "),
    (lambda m: m["resources"].update({"odd name": 3}), r'^resources\["odd name"\]: '),
]


@pytest.mark.parametrize("fn, pattern", REFUSALS, ids=[p[1][:50] for p in REFUSALS])
def test_refusals_name_the_path(fn, pattern):
    model = mutate(fn)
    refusal(model, pattern)
    refusal(json.dumps(model), pattern)


def test_text_refusals():
    with pytest.raises(DescriptorError, match="line 2, column 5"):
        load_model('{"resources": {},\n    oops}')
    with pytest.raises(DescriptorError, match="duplicate key 'resources'"):
        load_model('{"resources": {}, "resources": {}, "dispatchables": {}, "commands": []}')
    with pytest.raises(DescriptorError, match="1,000,000 bytes"):
        load_model(" " * 1_000_001)
    with pytest.raises(DescriptorError, match="nesting"):
        load_model("[" * 5000 + "]" * 5000)
    with pytest.raises(DescriptorError, match="NaN"):
        load_model('{"resources": {"a": {"initialValuesDataType": "FLOAT32", "initialValues": [NaN]}}}')
    with pytest.raises(DescriptorError, match="root"):
        load_model("[1, 2]")
    with pytest.raises(DescriptorError, match="model"):
        load_model(42)
    with pytest.raises(DescriptorError, match="not a finite JSON number"):
        load_model({**base_model(),
                    "resources": {"a": {"initialValuesDataType": "FLOAT32", "initialValues": [float("nan")]}}})
    with pytest.raises(DescriptorError, match="ndarray is not a JSON value"):
        load_model({**base_model(),
                    "resources": {"a": {"initialValuesDataType": "FLOAT32", "initialValues": np.zeros(2)}}})


def test_element_cap_applies_to_initializers():
    with element_cap_set_to(100):
        with pytest.raises(DescriptorError, match=r"^resources\.r\.initialValues\.valueCount: valueCount 101"):
            load_model(one_resource_model("FLOAT32", {"valueCount": 101, "value": 0}))


def test_normalized_model_fills_defaults():
    model = load_model(guide_join())
    json.dumps(model)
    desc = model["dispatchables"]["join"]["desc"]
    assert desc["InputTensors"][1] == {"DataType": "FLOAT32", "Flags": "NONE", "DimensionCount": 1, "Sizes": [2],
                                       "TotalTensorSizeInBytes": 8, "GuaranteedBaseOffsetAlignment": 0}
    bindings = model["commands"][0]["bindings"]
    assert bindings["InputTensors"][1] == {"name": "B", "elementOffset": 0}
    assert bindings["OutputTensor"] == {"name": "Out", "elementOffset": 0}
    assert model["resources"]["A"]["sizeInBytes"] == 40
    assert load_model(model) == model


# ---------------------------------------------------------------- generated and mutated models

dtypes = st.sampled_from([np.float32, np.float16, np.uint8, np.int16, np.uint32, np.int64, np.float64])


@st.composite
def valid_models(draw):
    dtype = draw(dtypes)
    op = draw(st.sampled_from(["depth_to_space", "space_to_depth", "bit_or", "split", "join"]))
    block = draw(st.integers(1, 2))
    if op == "depth_to_space":
        x = np.arange(block * block * draw(st.integers(1, 2)) * 4).reshape(1, -1, 2, 2).astype(dtype)
        return model_for(op, x, block_size=block, order=draw(st.sampled_from(["DCR", "CRD"])))
    if op == "space_to_depth":
        x = np.arange(2 * block * block).reshape(1, 2, block, block).astype(dtype)
        return model_for(op, x, block_size=block)
    if op == "bit_or":
        return model_for(op, [np.arange(6).reshape(2, 3).astype(dtype), np.ones((2, 3), dtype)])
    if op == "split":
        return model_for(op, np.arange(12).reshape(3, 4).astype(dtype), axis=1, sizes=[1, 3])
    return model_for(op, [np.arange(4).reshape(2, 2).astype(dtype), np.zeros((1, 2), dtype)], axis=0)


replacements = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 70),
    st.sampled_from([2**32, 2**64, 1.5, -0.0, "nan", "inf", "", "A", "output",
                     "FLOAT16", "UINT8", "sourcePath", [], {}, [0], {"name": "A"}]),
    st.lists(st.integers(0, 5), max_size=5),
    st.dictionaries(st.sampled_from(["name", "valueCount", "value", "sourcePath"]), st.integers(0, 40), max_size=3),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_models(), st.data(), replacements)
def test_generated_and_mutated_models_only_raise_descriptor_errors(model, data, value):
    result = run_model_detailed(model)
    assert all(isinstance(v, np.ndarray) for v in result.buffers.values())
    changed = mutated(model, data, value)
    for candidate in (changed, json.dumps(changed)):
        try:
            run_model_detailed(candidate)
        except DescriptorError as error:
            assert str(error)
    dispatchables = changed.get("dispatchables")
    for dispatchable in dispatchables.values() if isinstance(dispatchables, dict) else []:
        if isinstance(dispatchable, dict):
            validate(dispatchable, "4_1")


def test_text_refusals_name_the_json_path():
    nested_duplicate = '{"resources": {"a": {"initialValuesDataType": "UINT8", "initialValuesDataType": "UINT8"}}}'
    with pytest.raises(DescriptorError, match=r"^resources\.a\.initialValuesDataType: duplicate key"):
        load_model(nested_duplicate)
    too_large = ('{"resources": {"a": {"initialValuesDataType": "FLOAT32", '
                 '"initialValues": {"valueCount": 2, "valueStart": 1e400, "valueDelta": 1}}}}')
    with pytest.raises(DescriptorError, match=r"^resources\.a\.initialValues\.valueStart: inf is not a finite"):
        load_model(too_large)


def test_a_huge_value_count_is_refused_for_its_size():
    model = {"resources": {"a": {"initialValuesDataType": "UINT8", "initialValues": {"valueCount": 2**70, "value": 0}}},
             "dispatchables": {}, "commands": []}
    with pytest.raises(DescriptorError, match=r"resources\.a\.initialValues\.valueCount: valueCount \d+: "
                                              r"must be a JSON integer in \[0, 2\^32-1\]"):
        load_model(model)
