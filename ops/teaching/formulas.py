"""The index formula behind one element's move, with that element's numbers substituted.

Each operator writes its own formula (Operator.formula, in its family's teaching.py, as SPEC.md states the rule);
this module only asks it. Every step is a Term whose `substituted` text is plain integer arithmetic, so a reader
can redo it and a test can evaluate it and compare it with what the operator does.
"""

from __future__ import annotations

from typing import Any

from ..errors import DescriptorError
from ..operators import Call
from ..operators.lessons import Formula

SIDES = ("input", "output")


def index_formula(call: Call, cell: tuple, *, side: str = "input", **given: Any) -> Formula:
    """The formula taking one element of `call` (an ops Call) from input to output, with its numbers substituted.

    cell: the element, given on `side` ("input" or "output"), as the operator indexes it: a 4-index for
    depth/space; an index of the whole tensor, or (k, index in tensor k) for SPLIT's outputs / JOIN's inputs;
    (element flat index, bit number) for ELEMENT_WISE_BIT_OR, with values = (A's bits, B's bits) of the element and
    optionally b_strides, B's descriptor strides.
    Raises DescriptorError naming the field for anything that does not fit, and for an operator with no formula.
    """
    if side not in SIDES:
        raise DescriptorError(f"side {side!r}: expected input or output")
    return call.operator.formula(call, cell, side, **given)
