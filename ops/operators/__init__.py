"""The operator registry: every operator this project models, one module per family, collected here.

`OPERATORS` maps each DirectML operator name (without DML_OPERATOR_) to its Operator (base.py); `operator` finds one
by any accepted spelling; `run` runs one on arrays. Adding an operator is writing its module and listing it below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import DescriptorError
from ..levels import OPERATOR_PREFIX
from ..names import enum_suffix
from . import bitwise, depth_space, gather_scatter, identity, slice_pad, split_join
from .base import Call, Operator

OPERATORS: dict[str, Operator] = {
    op.name: op
    for family in (depth_space, bitwise, split_join, identity, gather_scatter, slice_pad)
    for op in family.OPERATORS
}
# Other names of the same operators (DirectML.h's SCATTER_ELEMENTS is SCATTER), which lookups accept.
_ALIASES = {alias: op.name for op in OPERATORS.values() for alias in op.aliases}


def operator(name: str | Operator, field: str = "type") -> Operator:
    """The registered operator `name` names: 'SPLIT' or 'DML_OPERATOR_SPLIT', any case, or an alias."""
    if isinstance(name, Operator):
        return name
    found = enum_suffix(name, OPERATOR_PREFIX, {**OPERATORS, **_ALIASES})
    if found:
        return OPERATORS[_ALIASES.get(found, found)]
    raise DescriptorError(f"{field} {name!r}: not a supported operator; expected one of "
                          + ", ".join(OPERATOR_PREFIX + op for op in OPERATORS)
                          + f" (the {OPERATOR_PREFIX} prefix is optional)")


def run(name: str | Operator, inputs: Sequence[np.ndarray], **attrs: Any) -> list[np.ndarray]:
    """The output arrays of operator `name` on `inputs` (a list of arrays) with its attributes, computed by the
    reference core; DescriptorError naming the field for anything DirectML would refuse."""
    return operator(name, "op").run(inputs, **attrs)


__all__ = ["Call", "OPERATORS", "Operator", "operator", "run"]
