"""The DirectML matrix in CI: every operator x setting x 11 types (both orders and BlockSize 2-4; even and uneven splits
on every axis; joins of 2-4 inputs; 1 to 8 dimensions where the operator allows them, for every operator of the
bitwise family and both of BIT_COUNT's output types; the six layouts and ScaleBias; the gather and scatter family's
shapes, here with two of the eight index settings each: index types in turn, small or arbitrary bits; slices with
negative strides and tiles in 1 to 8 dimensions, every padding mode with wide pads and size-1 dimensions, reversals
along every axis with lengths of both types, arbitrary and within the axis, and upsamples in 4 and 5 dimensions),
arbitrary bytes led by NaN payloads, -0.0 and subnormals, each cross-checked on DirectML itself against the core
(ops.runtime.directml_check.matrix_cells(bounded=True); docs/directml_matrix.md is the whole matrix, written out by
scripts/directml_matrix.py, and every cell run here must say there what it says here).

Every cell must be byte-identical, or refused with DirectML's own reason: a cell that differs is a bug in the core or
in DirectML, to be found and fixed, never accepted here."""

import re

import pytest

import ops
from ops.operators import gather_scatter
from ops.runtime.directml_check import BOTH_REFUSE, DIFFERS, IDENTICAL, REFUSED, matrix_cells
from support.paths import ROOT

pytestmark = pytest.mark.directml

SIXTY_FOUR_BIT = {"FLOAT64", "UINT64", "INT64"}
BITWISE = [name for name in ops.OPERATORS if name.startswith("ELEMENT_WISE_BIT_")]
SHIFTS = {"ELEMENT_WISE_BIT_SHIFT_LEFT", "ELEMENT_WISE_BIT_SHIFT_RIGHT"}


@pytest.fixture(scope="module")
def cells(directml):
    return matrix_cells(bounded=True)


def test_the_matrix_covers_every_operator_type_and_setting(cells):
    assert {c.op for c in cells} == set(ops.OPERATORS) and {c.data_type for c in cells} == set(ops.DML_TYPES)
    settings = {(c.op, c.setting) for c in cells}
    assert len(cells) == len(settings) * len(ops.DML_TYPES)
    by_op = lambda op: {s for o, s in settings if o == op}  # noqa: E731
    assert len(by_op("DEPTH_TO_SPACE1")) == len(by_op("SPACE_TO_DEPTH1")) == 6  # 2 orders x BlockSize 2, 3, 4
    for name in BITWISE:
        assert {s.split("-D")[0] for s in by_op(name)} == {str(d) for d in range(1, 9)}
    assert sum("writing UINT8" in s for s in by_op("ELEMENT_WISE_BIT_COUNT")) == 8
    assert any("even" in s for s in by_op("SPLIT")) and any("uneven" in s for s in by_op("SPLIT"))
    assert {s.split(" inputs")[0] for s in by_op("JOIN") if " inputs on axis" in s} == {"2", "3", "4"}
    assert sum("ScaleBias" in s for s in by_op("ELEMENT_WISE_IDENTITY")) == 2
    family = {tuple(s.split(", ")[-1].split()[:2]) for op in gather_scatter.OPERATORS for s in by_op(op.name)}
    assert family == {(spread, t) for spread in ("small", "arbitrary") for t in gather_scatter.INDEX_TYPES}
    for op in gather_scatter.OPERATORS:  # each operator small and arbitrary indices, in two index types at least
        assert len(by_op(op.name)) >= 2 and {s.split(", ")[-1].split()[0] for s in by_op(op.name)} == \
            {"small", "arbitrary"}
    for name in ("SLICE1", "TILE"):
        assert {s.split("-D")[0] for s in by_op(name)} == {str(d) for d in range(1, 9)}
    assert {s.split(",")[0] for s in by_op("PADDING1")} == {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC"}
    assert len(by_op("REVERSE_SUBSEQUENCES")) == 16  # 4 axes x 2 lengths types x arbitrary or within the axis
    assert len(by_op("UPSAMPLE_2D")) == 2


def test_no_cell_differs(cells):
    differing = [(c.op, c.setting, c.data_type, c.text) for c in cells if c.outcome == DIFFERS]
    assert differing == []


def test_every_call_directml_ran_is_byte_identical_to_the_core(cells):
    ran = [c for c in cells if c.outcome == IDENTICAL]
    assert all(c.report.available and c.report.matches and c.report.runtime == "directml" for c in ran)
    assert {c.data_type for c in ran} == set(ops.DML_TYPES) - {"FLOAT64"}


def test_directml_refuses_only_float64_and_says_the_device_does_not_support_it(cells, directml):
    refused = [c for c in cells if c.outcome == REFUSED]
    assert {c.data_type for c in refused} == {"FLOAT64"} and "FLOAT64" not in directml.type_support
    for cell in refused:
        assert cell.text == "refused by CreateOperator (E_INVALIDARG (0x80070057)): type unsupported by the device"
        assert "DoublePrecisionFloatShaderOps FALSE" in cell.report.note
        assert "shaderDenormPreserveFloat64" in cell.report.note


def test_both_refuse_scale_bias_on_64_bit_types_shifts_of_what_is_not_unsigned_and_types_no_table_lists(cells):
    both = {(c.op, c.setting, c.data_type) for c in cells if c.outcome == BOTH_REFUSE}
    scaled = {c.setting for c in cells if "ScaleBias" in c.setting}
    shifts = {(c.op, c.setting) for c in cells if c.op in SHIFTS}
    signed_or_float = set(ops.DML_TYPES) - {"UINT8", "UINT16", "UINT32", "UINT64"}
    # TILE's tables list no FLOAT64, UPSAMPLE_2D's FLOAT32 and FLOAT16 alone.
    unlisted = {(c.op, c.setting, c.data_type) for c in cells if c.data_type not in ops.operator(c.op).supported_types
                and c.op in ("TILE", "UPSAMPLE_2D")}
    assert {t for _, _, t in unlisted} == set(ops.DML_TYPES) - {"FLOAT32", "FLOAT16"}
    assert both == ({("ELEMENT_WISE_IDENTITY", s, t) for s in scaled for t in SIXTY_FOUR_BIT}
                    | {(op, s, t) for op, s in shifts for t in signed_or_float} | unlisted)
    shift_cells = [c for c in cells if (c.op, c.setting, c.data_type) in both and c.op in SHIFTS]
    assert all(c.text.startswith("both refuse: CreateOperator E_INVALIDARG") for c in shift_cells)


def test_the_matrix_document_says_what_this_run_says(cells):
    """docs/directml_matrix.md is the whole matrix; every cell of this (bounded) run is in it, marked the same."""
    text = (ROOT / "docs" / "directml_matrix.md").read_text()
    counts = re.search(r"\*\*(\d+) cells: (\d+) identical, (\d+) refused by DirectML with its reason, (\d+) refused by "
                       r"both DirectML and the core, (\d+) differ\.\*\*", text)
    assert counts, "docs/directml_matrix.md has no count line; regenerate it with scripts/directml_matrix.py"
    total, identical, refused, both, differ = map(int, counts.groups())
    assert total == identical + refused + both + differ and differ == 0
    header = next(line for line in text.splitlines() if line.startswith("| operator | setting |"))
    columns = [c.strip() for c in header.strip("|").split("|")][2:]
    marks = {}
    for line in text.splitlines():
        parts = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(parts) == len(columns) + 2 and parts[0] not in ("operator", "---"):
            marks.update({(parts[0], parts[1], t): m.split(" [")[0] for t, m in zip(columns, parts[2:])})
    assert len(marks) == total
    mark = {IDENTICAL: "same", REFUSED: "refused", BOTH_REFUSE: "both refuse", DIFFERS: "DIFFERS"}
    missing = [(c.op, c.setting, c.data_type) for c in cells if (c.op, c.setting, c.data_type) not in marks]
    assert missing == [], "regenerate docs/directml_matrix.md with scripts/directml_matrix.py"
    assert [(c.op, c.setting, c.data_type) for c in cells if marks[c.op, c.setting, c.data_type] != mark[c.outcome]] \
        == []
