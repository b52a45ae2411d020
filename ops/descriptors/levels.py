"""DirectML feature levels and each operator's tensor support table (SPEC sections 2-7).

A table lists rows by the level they take effect at; the row in force at a level is the last one whose
level is not above it. Every tensor of one operator shares the row (the seeds give the same types and
dimension counts to inputs and outputs).
"""

from dataclasses import dataclass

from ..errors import DescriptorError
from ..names import enum_suffix

FEATURE_LEVELS = ("1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2", "6_0", "6_1", "6_2", "6_3", "6_4")
LEVEL_PREFIX = "DML_FEATURE_LEVEL_"
OPERATOR_PREFIX = "DML_OPERATOR_"

# The seeds' own ordering of types in their support tables.
_ALL_11 = ("FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16", "UINT8")
_NO_64 = tuple(t for t in _ALL_11 if not t.endswith("64"))
_SPLIT_1_0 = ("FLOAT32", "FLOAT16", "INT32", "INT16", "UINT32", "UINT16")
_FLOATS_32_16 = ("FLOAT32", "FLOAT16")


@dataclass(frozen=True)
class SupportRow:
    """One row of an operator's tensor support table: what holds from `level` until the next row."""

    operator: str
    level: str
    min_dims: int
    max_dims: int
    types: tuple
    source: str = ""  # said beside the row when DirectML's pages disagree about it


    @property
    def dims_text(self):
        return str(self.min_dims) if self.min_dims == self.max_dims else f"{self.min_dims} to {self.max_dims}"


def _rows(operator, *rows):
    return tuple(SupportRow(operator, *row) for row in rows)


# JOIN's own page (DML_JOIN_OPERATOR_DESC) lists no 3_1 row: it goes from 4 to 5 dimensions at 3_0 straight to
# 1 to 8 at 4_1. DirectML's feature-level history says DML_FEATURE_LEVEL_3_1 raised JOIN to 8 dimensions, so
# the row exists here, with its minimum unconfirmed (SPEC section 6).
_JOIN_3_1_SOURCE = (
    "Source: DirectML's feature-level history (3_1: JOIN up to 8 dimensions). JOIN's own page has no 3_1 row "
    "and shows 1 to 8 dimensions only from 4_1, so the minimum of 1 at 3_1 is not confirmed by it."
)


SUPPORT_TABLES = {
    "DEPTH_TO_SPACE1": _rows("DEPTH_TO_SPACE1", ("2_1", 4, 4, _NO_64), ("5_0", 4, 4, _ALL_11)),
    "SPACE_TO_DEPTH1": _rows("SPACE_TO_DEPTH1", ("2_1", 4, 4, _NO_64), ("5_0", 4, 4, _ALL_11)),
    "ELEMENT_WISE_BIT_OR": _rows(
        "ELEMENT_WISE_BIT_OR", ("3_0", 1, 8, ("UINT32", "UINT16", "UINT8")), ("4_1", 1, 8, _ALL_11)
    ),
    "SPLIT": _rows(
        "SPLIT", ("1_0", 4, 4, _SPLIT_1_0), ("2_1", 4, 4, _NO_64), ("3_0", 1, 8, _NO_64), ("4_1", 1, 8, _ALL_11)
    ),
    "JOIN": _rows(
        "JOIN",
        ("1_0", 4, 4, _SPLIT_1_0),
        ("2_1", 4, 4, _NO_64),
        ("3_0", 4, 5, _NO_64),
        ("3_1", 1, 8, _NO_64, _JOIN_3_1_SOURCE),
        ("4_1", 1, 8, _ALL_11),
    ),
    # DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC's page, "Tensor support" (learn.microsoft.com/windows/win32/api/
    # directml/ns-directml-dml_element_wise_identity_operator_desc; MicrosoftDocs/sdk-api
    # sdk-api-src/content/directml/ns-directml-dml_element_wise_identity_operator_desc.md).
    "ELEMENT_WISE_IDENTITY": _rows(
        "ELEMENT_WISE_IDENTITY",
        ("1_0", 4, 5, _FLOATS_32_16),
        ("2_1", 4, 5, _NO_64),
        ("3_0", 1, 8, _NO_64),
        ("4_1", 1, 8, _ALL_11),
    ),
}
OPERATORS = tuple(SUPPORT_TABLES)


def level_name(level):
    """'4_1' from '4_1' or 'DML_FEATURE_LEVEL_4_1' (any case)."""
    name = enum_suffix(level, LEVEL_PREFIX, FEATURE_LEVELS)
    if name:
        return name
    raise DescriptorError(
        f"feature level {level!r}: expected one of {', '.join(FEATURE_LEVELS)}, optionally prefixed with {LEVEL_PREFIX}"
    )


def level_index(level):
    return FEATURE_LEVELS.index(level_name(level))


def operator_name(operator, field="type"):
    """'SPLIT' from 'SPLIT' or 'DML_OPERATOR_SPLIT'; only the operators this project covers."""
    name = enum_suffix(operator, OPERATOR_PREFIX, SUPPORT_TABLES)
    if name:
        return name
    raise DescriptorError(
        f"{field} {operator!r}: not a supported operator; expected one of "
        + ", ".join(OPERATOR_PREFIX + op for op in OPERATORS)
        + f" (the {OPERATOR_PREFIX} prefix is optional)"
    )


def support_table(operator):
    return SUPPORT_TABLES[operator_name(operator)]


def introduced_level(operator):
    return support_table(operator)[0].level


def support_row(operator, level):
    """The row in force for (operator, level), or None when the operator does not exist yet at that level."""
    index = level_index(level)
    rows = [row for row in support_table(operator) if FEATURE_LEVELS.index(row.level) <= index]
    return rows[-1] if rows else None


def first_level_supporting(operator, data_type=None, dimension_count=None):
    """The lowest level whose row accepts this type and dimension count, or None if none does."""
    for row in support_table(operator):
        type_ok = data_type is None or data_type in row.types
        dims_ok = dimension_count is None or row.min_dims <= dimension_count <= row.max_dims
        if type_ok and dims_ok:
            return row.level
    return None
