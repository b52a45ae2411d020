"""What operators teach with: the terms of an index formula and the draft of a quiz question.

Each operator family writes its own formula and questions (its teaching.py) in these words, and ops.teaching asks
the operator for them (Operator.formula, Operator.question). They live here, beside the registry, rather than in
ops.teaching because ops.teaching imports the registry: an operator importing ops.teaching would close a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import DescriptorError


@dataclass(frozen=True)
class Term:
    """One step: `name = general = substituted = value`; `substituted` is integer arithmetic
    (+ - * // % << >> & | ^, a leading minus), so a reader can redo it and a test can evaluate it."""

    name: str
    general: str
    substituted: str
    value: int
    hex_width: int = 0  # > 0: the value reads as a bit pattern of that many bits

    @property
    def shown(self):
        return f"0x{self.value:0{self.hex_width // 4}X}" if self.hex_width else str(self.value)

    def __str__(self):
        parts = [self.name]
        for part in (self.general, self.substituted, self.shown):
            if part != parts[-1]:  # "o_0 = 0", not "o_0 = 0 = 0 = 0"
                parts.append(part)
        return " = ".join(parts)


@dataclass(frozen=True)
class Formula:
    """Where one element of a call comes from and goes to, and the arithmetic that says so.

    source / destination: the element's index in the input / output; an operator with several inputs or outputs
    leads with the tensor number k (SPLIT's OutputTensors[k], JOIN's InputTensors[k]).
    """

    call: object  # the ops.operators Call the formula is about
    rule: str  # the operator's rule in one line, with symbols
    symbols: tuple  # (symbol, meaning, value) of the settings the terms use
    terms: tuple
    source: tuple
    destination: tuple

    def lines(self):
        """The whole explanation, one line each: the rule, the settings, then every term."""
        given = ", ".join(f"{symbol} = {value} ({meaning})" for symbol, meaning, value in self.symbols)
        return [self.rule, *([given] if given else []), *(str(term) for term in self.terms)]


@dataclass(frozen=True)
class QuestionDraft:
    """A question as the operator asks it, before ops.teaching picks and shuffles its choices.

    `right` and `mistakes` are answers in the operator's own form (an index, a bit pattern); `mistakes` are the
    wrong answers people reach (None where one does not apply here); `guess()` draws a random answer to fill the
    choices up with; `text(answer)` is a choice as the learner reads it.
    """

    kind: str  # "where" (an input element's destination), "feeds" (an output element's source), or the operator's
    prompt: str
    right: object
    mistakes: tuple
    guess: Callable
    text: Callable
    explanation: tuple  # lines: the formula with this question's numbers
    cell: tuple  # the element asked about, on the side the prompt names
    source: tuple = ()  # the answer's element in the input
    destination: tuple = ()  # and in the output


def checked_cell(cell, shape, field):
    """`cell` as a tuple of ints, if it is an index of a tensor of `shape`; else DescriptorError naming `field`."""
    cell = tuple(int(i) for i in cell)
    if len(cell) != len(shape) or not all(0 <= i < s for i, s in zip(cell, shape)):
        raise DescriptorError(f"{field} {list(cell)}: not an index of a tensor of Sizes {list(shape)}")
    return cell


def random_index(rng, shape):
    return tuple(int(rng.integers(0, s)) for s in shape)


def index_text(index):
    return "(" + ", ".join(str(int(i)) for i in index) + ")"
