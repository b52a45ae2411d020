"""Feature-level support tables, checked at each boundary the seeds and SPEC section 7 name."""

import pytest

from ops import FEATURE_LEVELS, DescriptorError, validate
from ops.levels import level_name
from ops.operators import operator

ALL_11 = {"FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16", "UINT8"}


def tensor(data_type, sizes):
    return {"DataType": data_type, "Sizes": list(sizes)}


def dispatchable(op, data_type, dims=4):
    """A shape-valid dispatchable of `op`; only the type and dimension count vary."""
    if op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        small, big = [1, 1, 2, 2], [1, 4, 1, 1]
        inp, out = (big, small) if op == "DEPTH_TO_SPACE1" else (small, big)
        return {"type": op, "desc": {"InputTensor": tensor(data_type, inp), "OutputTensor": tensor(data_type, out),
                                     "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}}
    sizes = [2] * dims
    half = [2] * (dims - 1) + [1]
    if op == "ELEMENT_WISE_BIT_OR":
        return {"type": op, "desc": {"ATensor": tensor(data_type, sizes), "BTensor": tensor(data_type, sizes),
                                     "OutputTensor": tensor(data_type, sizes)}}
    if op == "SPLIT":
        return {"type": op, "desc": {"InputTensor": tensor(data_type, sizes), "OutputCount": 2,
                                     "OutputTensors": [tensor(data_type, half)] * 2, "Axis": dims - 1}}
    return {"type": op, "desc": {"InputCount": 2, "InputTensors": [tensor(data_type, half)] * 2,
                                 "OutputTensor": tensor(data_type, sizes), "Axis": dims - 1}}


def test_level_names():
    assert level_name("4_1") == "4_1"
    assert level_name("DML_FEATURE_LEVEL_4_1") == "4_1"
    assert level_name("dml_feature_level_6_4") == "6_4"
    assert FEATURE_LEVELS[0] == "1_0" and FEATURE_LEVELS[-1] == "6_4" and len(FEATURE_LEVELS) == 15
    for bad in ("4_2", "4.1", "", None, 41, "DML_FEATURE_LEVEL_"):
        with pytest.raises(DescriptorError, match="feature level"):
            level_name(bad)


# (operator, data type, dimension count, last level refused, first level accepted) from SPEC 2-7.
BOUNDARIES = [
    ("DEPTH_TO_SPACE1", "FLOAT32", 4, "2_0", "2_1"),
    ("DEPTH_TO_SPACE1", "FLOAT64", 4, "4_1", "5_0"),
    ("DEPTH_TO_SPACE1", "INT64", 4, "4_1", "5_0"),
    ("SPACE_TO_DEPTH1", "UINT8", 4, "2_0", "2_1"),
    ("SPACE_TO_DEPTH1", "UINT64", 4, "4_1", "5_0"),
    ("ELEMENT_WISE_BIT_OR", "UINT32", 3, "2_1", "3_0"),
    ("ELEMENT_WISE_BIT_OR", "FLOAT32", 4, "4_0", "4_1"),
    ("ELEMENT_WISE_BIT_OR", "INT8", 1, "4_0", "4_1"),
    ("ELEMENT_WISE_BIT_OR", "FLOAT64", 8, "4_0", "4_1"),
    ("SPLIT", "INT8", 4, "2_0", "2_1"),
    ("SPLIT", "FLOAT32", 5, "2_1", "3_0"),
    ("SPLIT", "UINT16", 1, "2_1", "3_0"),
    ("SPLIT", "FLOAT64", 4, "4_0", "4_1"),
    ("JOIN", "UINT8", 4, "2_0", "2_1"),
    ("JOIN", "FLOAT16", 5, "2_1", "3_0"),
    ("JOIN", "FLOAT32", 6, "3_0", "3_1"),
    ("JOIN", "INT32", 3, "3_0", "3_1"),
    ("JOIN", "UINT64", 4, "4_0", "4_1"),
]


@pytest.mark.parametrize("op, data_type, dims, refused, accepted", BOUNDARIES)
def test_support_boundaries(op, data_type, dims, refused, accepted):
    d = dispatchable(op, data_type, dims)
    assert validate(d, accepted) == []
    assert validate(d, "6_4") == []
    problems = validate(d, refused)
    assert problems, f"{op} {data_type} {dims}-D should be refused at {refused}"
    assert all(p.split(": ")[0] in ("type",) or p.startswith("desc.") for p in problems)


def test_messages_name_the_level_that_fixes_it():
    problems = validate(dispatchable("DEPTH_TO_SPACE1", "FLOAT64"), "4_1")
    assert problems[0].startswith("desc.InputTensor.DataType: DataType FLOAT64")
    assert "5_0" in problems[0]
    (unavailable,) = validate(dispatchable("DEPTH_TO_SPACE1", "FLOAT32"), "2_0")
    assert unavailable.startswith("type: ") and "2_1" in unavailable
    dims = validate(dispatchable("JOIN", "FLOAT32", 6), "3_0")
    assert any(p.startswith("desc.OutputTensor.DimensionCount: DimensionCount 6") and "3_1" in p for p in dims)


def test_split_before_2_1_lacks_8_bit_and_keeps_the_six_types():
    for data_type in ("FLOAT32", "FLOAT16", "INT32", "INT16", "UINT32", "UINT16"):
        assert validate(dispatchable("SPLIT", data_type), "1_0") == []
    for data_type in ("INT8", "UINT8", "INT64"):
        assert validate(dispatchable("SPLIT", data_type), "1_0")


def test_support_rows_match_spec():
    assert operator("DEPTH_TO_SPACE1").support_row("2_0") is None
    assert operator("DML_OPERATOR_ELEMENT_WISE_BIT_OR").introduced == "3_0"
    assert operator("SPLIT").introduced == operator("JOIN").introduced == "1_0"
    row = operator("ELEMENT_WISE_BIT_OR").support_row("4_0")
    assert (row.level, row.min_dims, row.max_dims, set(row.types)) == ("3_0", 1, 8, {"UINT32", "UINT16", "UINT8"})
    assert set(operator("ELEMENT_WISE_BIT_OR").support_row("DML_FEATURE_LEVEL_6_4").types) == ALL_11
    join_3_0 = operator("JOIN").support_row("3_0")
    assert (join_3_0.min_dims, join_3_0.max_dims) == (4, 5)
    assert set(operator("SPLIT").support_row("3_1").types) == ALL_11 - {"FLOAT64", "INT64", "UINT64"}
    assert operator("JOIN").first_level_supporting(dimension_count=2) == "3_1"
    assert operator("SPLIT").first_level_supporting(data_type="UINT8") == "2_1"


@pytest.mark.parametrize("op", ["DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1", "ELEMENT_WISE_BIT_OR", "SPLIT", "JOIN"])
def test_support_never_shrinks_with_level(op):
    previous = None
    for level in FEATURE_LEVELS:
        row = operator(op).support_row(level)
        if previous is not None:
            assert row is not None
            assert set(previous.types) <= set(row.types)
            assert row.min_dims <= previous.min_dims and row.max_dims >= previous.max_dims
        previous = row


def test_unknown_operator_refused():
    with pytest.raises(DescriptorError, match="GEMM"):
        operator("DML_OPERATOR_GEMM").support_row("6_4")
