"""DirectML feature levels, and the row of an operator's tensor support table (SPEC sections 2-7).

A table lists rows by the level they take effect at; the row in force at a level is the last one whose level is
not above it. Every tensor of one operator shares the row's dimension counts and, unless the row gives the outputs
types of their own (ELEMENT_WISE_BIT_COUNT writes UINT32 or UINT8 whatever it reads) or names a tensor with types of
its own (a gather's IndicesTensor: UINT32 alone before 3_0, then INT64, INT32, UINT64 or UINT32), its types. The
tables themselves belong to the operators (ops/operators).
"""

from dataclasses import dataclass

from .errors import DescriptorError
from .names import enum_suffix

FEATURE_LEVELS = (
    "1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2", "6_0", "6_1", "6_2", "6_3", "6_4",
)
LEVEL_PREFIX = "DML_FEATURE_LEVEL_"
OPERATOR_PREFIX = "DML_OPERATOR_"


@dataclass(frozen=True)
class SupportRow:
    """One row of an operator's tensor support table: what holds from `level` until the next row."""

    operator: str
    level: str
    min_dims: int
    max_dims: int
    types: tuple  # the inputs', and the outputs' unless output_types says otherwise
    source: str = ""  # said beside the row when DirectML's pages disagree about it
    output_types: tuple = ()  # the outputs' types where they differ from the inputs'
    tensor_types: tuple = ()  # ((tensor field, its types), ...) for tensors whose types are their own

    @property
    def types_of_outputs(self):
        return self.output_types or self.types

    def types_for(self, field=None, output=False):
        """The types the row allows the tensor `field` (an input, or an output if `output`)."""
        own = dict(self.tensor_types)
        if field in own:
            return own[field]
        return self.types_of_outputs if output else self.types

    @property
    def dims_text(self):
        return str(self.min_dims) if self.min_dims == self.max_dims else f"{self.min_dims} to {self.max_dims}"


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


def row_in_force(rows, level):
    """The row of `rows` in force at `level`, or None when the first row takes effect later."""
    index = level_index(level)
    in_force = [row for row in rows if FEATURE_LEVELS.index(row.level) <= index]
    return in_force[-1] if in_force else None


def first_level_supporting(rows, data_type=None, dimension_count=None, output=False, field=None):
    """The lowest level whose row accepts this type (an output's, if `output`; the tensor `field`'s, if it has types
    of its own) and dimension count, or None if none does."""
    for row in rows:
        type_ok = data_type is None or data_type in row.types_for(field, output)
        dims_ok = dimension_count is None or row.min_dims <= dimension_count <= row.max_dims
        if type_ok and dims_ok:
            return row.level
    return None
