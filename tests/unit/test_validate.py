"""Every validation rule, with the JSON path its message must start with."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ops import DescriptorError, validate
from ops.descriptors.validate import Problem, validate_problems
from support.mutations import DELETE, mutated, set_at


def t(data_type, sizes, **extra):
    return {"DataType": data_type, "Sizes": sizes, **extra}


D2S = {
    "type": "DML_OPERATOR_DEPTH_TO_SPACE1",
    "desc": {"InputTensor": t("UINT32", [1, 8, 2, 3]), "OutputTensor": t("UINT32", [1, 2, 4, 6]), "BlockSize": 2,
             "Order": "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW"},
}
S2D = {
    "type": "SPACE_TO_DEPTH1",
    "desc": {"InputTensor": t("FLOAT16", [1, 2, 4, 6]), "OutputTensor": t("FLOAT16", [1, 8, 2, 3]), "BlockSize": 2,
             "Order": "COLUMN_ROW_DEPTH"},
}
BIT_OR = {
    "type": "ELEMENT_WISE_BIT_OR",
    "desc": {"ATensor": t("UINT8", [2, 3]), "BTensor": t("UINT8", [2, 3], Strides=[0, 1]),
             "OutputTensor": t("UINT8", [2, 3])},
}
SPLIT = {
    "type": "DML_OPERATOR_SPLIT",
    "desc": {"InputTensor": t("FLOAT32", [1, 1, 6, 2]), "OutputCount": 3,
             "OutputTensors": [t("FLOAT32", [1, 1, 2, 2]), t("FLOAT32", [1, 1, 1, 2]), t("FLOAT32", [1, 1, 3, 2])],
             "Axis": 2},
}
JOIN = {
    "type": "DML_OPERATOR_JOIN",
    "desc": {"InputCount": 2, "InputTensors": [t("INT16", [2, 6, 1]), t("INT16", [2, 6, 1])],
             "OutputTensor": t("INT16", [2, 6, 2]), "Axis": 2},
}
VALID = {"d2s": D2S, "s2d": S2D, "bit_or": BIT_OR, "split": SPLIT, "join": JOIN}


def edit(base, path, value):
    """Copy of `base` with the field at dotted `path` (ints index lists) replaced; value None deletes it."""
    d = copy.deepcopy(base)
    set_at(d, [int(k) if k.isdigit() else k for k in path.split(".")], DELETE if value is None else value)
    return d


@pytest.mark.parametrize("name", VALID)
def test_valid_descriptors(name):
    assert validate(VALID[name], "6_4") == []


def test_seed_example_valid_at_2_1():
    assert validate(D2S, "DML_FEATURE_LEVEL_2_1") == []
    assert validate(SPLIT, "1_0") == []


def test_capitalized_type_and_desc_accepted():
    d = {"Type": D2S["type"], "Desc": D2S["desc"]}
    assert validate(d, "6_4") == []


CASES = [
    # (base, field edited, new value (None deletes), expected path, words in the message)
    (D2S, "type", None, "type", "missing"),
    # Any operator of DirectML's schema is read from the schema: a GEMM needs GEMM's fields.
    (D2S, "type", "DML_OPERATOR_GEMM", "desc.ATensor", "ATensor: missing required field"),
    (D2S, "type", "DML_OPERATOR_GEMM", "desc.InputTensor", "unknown field 'InputTensor' for DML_OPERATOR_GEMM"),
    (D2S, "type", "DML_OPERATOR_GEMMS", "type", "not a DirectML operator"),
    (D2S, "type", 7, "type", "must be a string naming a DML_OPERATOR_TYPE"),
    (D2S, "desc", [1], "desc", "JSON object"),
    (D2S, "desc.BlockSize", None, "desc.BlockSize", "missing"),
    (D2S, "desc.Foo", 1, "desc.Foo", "unknown field"),
    (D2S, "desc.BlockSize", 0, "desc.BlockSize", "at least 1"),
    (D2S, "desc.BlockSize", "2", "desc.BlockSize", "unsigned integer"),
    (D2S, "desc.BlockSize", 2.0, "desc.BlockSize", "unsigned integer"),
    (D2S, "desc.BlockSize", 3, "desc.BlockSize",
     "BlockSize 3: the input's channel count 8 is not divisible by BlockSize^2 = 9"),
    (D2S, "desc.Order", "ROW_MAJOR", "desc.Order", "Order"),
    (D2S, "desc.OutputTensor.Sizes", [1, 2, 6, 4], "desc.OutputTensor.Sizes", "must be [1, 2, 4, 6]"),
    (D2S, "desc.OutputTensor.DataType", "INT32", "desc.OutputTensor.DataType",
     "must equal InputTensor.DataType UINT32"),
    (D2S, "desc.InputTensor.Sizes", [1, 8, 0, 3], "desc.InputTensor.Sizes[2]", "size of 0"),
    (D2S, "desc.InputTensor.Sizes", [8, 2, 3], "desc.InputTensor.DimensionCount", "takes 4 dimensions"),
    (D2S, "desc.InputTensor.TotalTensorSizeInBytes", 100, "desc.InputTensor.TotalTensorSizeInBytes", "192"),
    (D2S, "desc.InputTensor.GuaranteedBaseOffsetAlignment", 12, "desc.InputTensor.GuaranteedBaseOffsetAlignment",
     "power of two"),
    (D2S, "desc.InputTensor.GuaranteedBaseOffsetAlignment", 2, "desc.InputTensor.GuaranteedBaseOffsetAlignment",
     "element size"),
    (D2S, "desc.OutputTensor.Strides", [48, 24, 6, 0], "desc.OutputTensor.Strides", "must not overlap"),
    (D2S, "desc.OutputTensor.Flags", "OWNED_BY_DML", "desc.OutputTensor.Flags", "only allowed on input"),
    (D2S, "desc.InputTensor", "UINT32", "desc.InputTensor", "JSON object"),
    (S2D, "desc.InputTensor.Sizes", [1, 2, 5, 6], "desc.BlockSize", "height 5 is not divisible by BlockSize 2"),
    (S2D, "desc.OutputTensor.Sizes", [1, 2, 4, 6], "desc.OutputTensor.Sizes", "must be [1, 8, 2, 3]"),
    (BIT_OR, "desc.BTensor.Sizes", [3, 2], "desc.BTensor.Sizes", "must equal ATensor.Sizes [2, 3]"),
    (BIT_OR, "desc.OutputTensor.Sizes", [2, 3, 1], "desc.OutputTensor.Sizes", "must equal ATensor.Sizes"),
    (BIT_OR, "desc.BTensor.DataType", "UINT16", "desc.BTensor.DataType", "must equal ATensor.DataType UINT8"),
    (BIT_OR, "desc.OutputTensor.Strides", [1, 1], "desc.OutputTensor.Strides", "both write buffer element"),
    (SPLIT, "desc.OutputCount", 2, "desc.OutputCount", "must equal the number of OutputTensors (3)"),
    (SPLIT, "desc.OutputCount", 0, "desc.OutputCount", "greater than 0"),
    (SPLIT, "desc.Axis", 4, "desc.Axis", "must be in [0, 3]"),
    (SPLIT, "desc.Axis", -1, "desc.Axis", "unsigned integer"),
    (SPLIT, "desc.OutputTensors.1.Sizes", [1, 2, 1, 2], "desc.OutputTensors[1].Sizes",
     "Sizes[1] = 2: must equal InputTensor.Sizes[1] = 1"),
    (SPLIT, "desc.OutputTensors.2.Sizes", [1, 1, 2, 2], "desc.OutputTensors", "2 + 1 + 2 = 5"),
    (SPLIT, "desc.OutputTensors.2.Sizes", [1, 1, 3, 2, 1], "desc.OutputTensors[2].DimensionCount",
     "must equal InputTensor.DimensionCount 4"),
    (SPLIT, "desc.OutputTensors.0.DataType", "FLOAT16", "desc.OutputTensors[0].DataType",
     "must equal InputTensor.DataType"),
    (SPLIT, "desc.OutputTensors", [], "desc.OutputTensors", "non-empty"),
    (SPLIT, "desc.OutputTensors", 5, "desc.OutputTensors", "non-empty"),
    (SPLIT, "desc.OutputTensors.1", "x", "desc.OutputTensors[1]", "JSON object"),
    (JOIN, "desc.InputCount", 3, "desc.InputCount", "must equal the number of InputTensors (2)"),
    (JOIN, "desc.OutputTensor.Sizes", [2, 6, 3], "desc.InputTensors", "1 + 1 = 2"),
    (JOIN, "desc.InputTensors.1.Sizes", [2, 5, 1], "desc.InputTensors[1].Sizes", "Sizes[1] = 5"),
    (JOIN, "desc.Axis", 3, "desc.Axis", "OutputTensor.DimensionCount - 1"),
]


@pytest.mark.parametrize("base, field, value, path, words", CASES, ids=[f"{c[1]}={c[2]!r}" for c in CASES])
def test_each_rule_reports_its_path(base, field, value, path, words):
    problems = validate_problems(edit(base, field, value), "6_4")
    assert any(p.path == path and words in p.message for p in problems), [str(p) for p in problems]
    strings = validate(edit(base, field, value), "6_4")
    assert any(s.startswith(path + ": ") for s in strings)
    assert all(s.startswith(p.path + ": ") for s, p in zip(strings, problems))


def test_several_problems_reported_together():
    d = edit(edit(D2S, "desc.BlockSize", 3), "desc.OutputTensor.DataType", "INT8")
    d = edit(d, "desc.InputTensor.GuaranteedBaseOffsetAlignment", 5)
    paths = {p.path for p in validate_problems(d, "6_4")}
    assert {"desc.InputTensor.GuaranteedBaseOffsetAlignment"} <= paths
    d = edit(edit(D2S, "desc.BlockSize", 3), "desc.OutputTensor.DataType", "INT8")
    paths = {p.path for p in validate_problems(d, "2_1")}
    assert {"desc.BlockSize", "desc.OutputTensor.DataType"} <= paths


def test_unavailable_operator_still_gets_shape_checks():
    paths = [p.path for p in validate_problems(edit(D2S, "desc.BlockSize", 3), "1_0")]
    assert paths == ["type", "desc.BlockSize"]


def test_input_zero_stride_is_fine_but_output_is_not():
    assert validate(BIT_OR, "3_0") == []
    assert validate(edit(BIT_OR, "desc.OutputTensor.Strides", [0, 1]), "3_0")


def test_structured_problems():
    (problem,) = validate_problems(edit(SPLIT, "desc.Axis", 9), "6_4")
    assert isinstance(problem, Problem)
    assert problem.path == "desc.Axis" and problem.message.startswith("Axis 9")


@pytest.mark.parametrize("bad", [None, [], "x", 3])
def test_non_dict_dispatchable_raises(bad):
    with pytest.raises(DescriptorError):
        validate(bad, "6_4")


def test_bad_level_raises():
    with pytest.raises(DescriptorError, match="feature level"):
        validate(D2S, "7_0")


def test_unknown_dispatchable_field():
    assert validate({**D2S, "extra": 1}, "6_4") == [
        "extra: unknown field 'extra'; a dispatchable has type, desc, executionFlags, dmlCompileType, bindings"
    ]
    assert validate({**D2S, "executionFlags": 1}, "6_4")[0].startswith("executionFlags: executionFlags 1: expected")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2**33) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8,
)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(VALID.values())), st.data(), json_values, st.sampled_from(["1_0", "3_0", "4_1", "6_4"]))
def test_mutations_give_problems_never_exceptions(base, data, value, level):
    d = mutated(base, data, value)
    problems = validate_problems(d, level)
    for p in problems:
        assert str(p).startswith(p.path + ": ") and p.message
    json.dumps([str(p) for p in problems])
