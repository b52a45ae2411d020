"""The DirectML matrix in CI: every operator x 11 types x both orders / uneven splits and joins / the six layouts,
arbitrary bytes (NaN payloads, -0.0, subnormals as they fall), each cross-checked on DirectML against the core.

What it asserts is what DirectML did here (docs/directml_matrix.md): wherever it ran, byte-identical; where it did
not, a refusal that names the call and the reason. A cell that starts running (a vkd3d that reads more of DirectML's
shaders) or starts differing fails the test."""

import pytest

import ops
from ops.runtime.directml_check import cell_text, matrix_rows

pytestmark = pytest.mark.directml

SIXTEEN_BIT = {"FLOAT16", "UINT16", "INT16"}


@pytest.fixture(scope="module")
def cells(directml):
    return {(r["op"], r["setting"], r["data_type"]): cell_text(r["report"]) for r in matrix_rows()}


def test_the_matrix_covers_every_operator_type_and_setting(cells):
    assert {op for op, _, _ in cells} == {"DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1", "ELEMENT_WISE_BIT_OR", "SPLIT", "JOIN",
                                          "ELEMENT_WISE_IDENTITY"}
    assert {t for _, _, t in cells} == set(ops.DML_TYPES)
    assert len(cells) == 13 * 11


def test_where_directml_ran_it_is_byte_identical_to_the_core(cells):
    ran = {key for key, text in cells.items() if not text.startswith("refused")}
    assert all(cells[key] == "identical" for key in ran)
    assert ran == {("ELEMENT_WISE_IDENTITY", "copy", t) for t in set(ops.DML_TYPES) - SIXTEEN_BIT}


def test_16_bit_types_are_refused_by_create_operator_as_unsupported_by_the_device(cells):
    for (op, setting, data_type), text in cells.items():
        if data_type in SIXTEEN_BIT:
            assert text == "refused by CreateOperator: type unsupported by the device", (op, setting)


def test_every_other_refusal_is_a_shader_vkd3d_cannot_translate(cells):
    reasons = {text for (_, _, t), text in cells.items() if t not in SIXTEEN_BIT and text != "identical"}
    assert reasons == {"refused by CompileOperator: vkd3d-shader lacks dx.op.binaryWithTwoOuts.i32",
                       "refused by CompileOperator: vkd3d-shader lacks Structured TGSM byte stride 1"}
