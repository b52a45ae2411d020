"""What the Bitwise page computes, shared between sessions (ui.shared): the operands' arrays, the output, the bit
grids of a drawn range, the quiz's pictures and formulas, and the Overview's picture."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ops import DescriptorError, QuizSettings, index_formula, run
from ops.operators.lessons import Formula
from ops.teaching.quiz import Question
from ui.panels import Arrays
from ui.shared import shared
from ui.work import frozen, tensor
from viz import bitwise_fig
from viz.spec import SpecFigure

from .settings import DEFAULT_OPERATION, QUIZ_ELEMENTS, Configuration, Operands


def _derived_b(a: np.ndarray, operands: Operands) -> np.ndarray:
    """A second operand that differs from A but follows the same pattern."""
    values = operands.values
    if values.pattern in ("random", "random_bytes"):
        return tensor(dataclasses.replace(values, seed=values.seed + 1), operands.b_sizes)
    if values.pattern == "sequence":
        return tensor(dataclasses.replace(values, start=values.start + values.delta * a.size), operands.b_sizes)
    first_slice = tuple(slice(0, 1) if d in operands.broadcast else slice(None) for d in range(a.ndim))
    return np.flip(a[first_slice])


@shared
def arrays(operands: Operands) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(A, B stored, B as DirectML reads it through 0 strides), B None for a unary operator; DescriptorError for
    values that cannot be, naming the operand."""
    try:
        a = tensor(operands.values, operands.sizes)
    except DescriptorError as error:
        raise DescriptorError(str(error).replace("Values", "A's values (Values, in the sidebar)", 1)) from None
    if not operands.binary:
        return a, None, None
    if operands.b_text is not None:
        typed = dataclasses.replace(operands.values, pattern="custom", text=operands.b_text)
        try:
            b_stored = tensor(typed, operands.b_sizes)
        except DescriptorError as error:
            raise DescriptorError(str(error).replace("Values", "B typed values", 1)) from None
    else:
        b_stored = _derived_b(a, operands)
    # The figure, the cross-check and the export all want B's full values: spelled out once here.
    b = np.ascontiguousarray(np.broadcast_to(b_stored, operands.sizes))
    return a, frozen(np.ascontiguousarray(b_stored)), frozen(b)


def inputs(operands: Operands) -> list[np.ndarray]:
    """The operator's input arrays: [A, B as DirectML reads it], or [A]."""
    a, _, b = arrays(operands)
    return [a] if b is None else [a, b]


@shared
def output(operands: Operands) -> np.ndarray:
    """The operator's output, run through the registry (ops.run); DescriptorError naming the field it refuses."""
    return frozen(run(operands.operator, inputs(operands), **dict(operands.attrs))[0])


def outputs(operands: Operands) -> list[np.ndarray]:
    return [output(operands)]


@shared
def picture(operands: Operands, first: int, stop: int, in_place: bool,
            fit_height: int = bitwise_fig.FIT_HEIGHT) -> SpecFigure:
    """The bit grids of elements first..stop-1, without a pick."""
    a, _, b = arrays(operands)
    out = output(operands)
    b_drawn = None if b is None else b.reshape(-1)[first:stop]
    return bitwise_fig.bitwise_figure(a.reshape(-1)[first:stop], b_drawn, out.reshape(-1)[first:stop],
                                      op=operands.op, in_place=in_place, index_offset=first, fit_height=fit_height)


def panel_arrays(operands: Operands, refusal: str | None = None) -> Arrays:
    """How the panels make the call's arrays, from the shared work; B's stored sizes for the frameworks that
    broadcast it themselves."""
    elsewhere = (("b_sizes", operands.b_sizes),) if operands.binary else ()
    return Arrays((operands.operator.core_name, operands), functools.partial(inputs, operands),
                  functools.partial(outputs, operands), refusal, elsewhere=elsewhere)


def bits_of(array: np.ndarray) -> np.ndarray:
    """The elements' bit patterns (the operators work on these, whatever the type)."""
    return array.reshape(-1).view(f"u{array.dtype.itemsize}")


def bit_formula(operands: Operands, element: int, bit: int) -> Formula:
    patterns = tuple(int(bits_of(x)[element]) for x in inputs(operands))
    b_strides = operands.b_strides() if operands.binary else None
    return index_formula(operands.call(), (element, bit), values=patterns, b_strides=b_strides)


def quiz_settings(c: Configuration) -> QuizSettings:
    """The quiz over the bits of the first elements of each input."""
    patterns = tuple(tuple(int(v) for v in bits_of(x)[:QUIZ_ELEMENTS]) for x in inputs(c.operands))
    return QuizSettings(c.operands.call(), patterns)


def reveal(c: Configuration, question: Question) -> SpecFigure:
    """The question's element drawn alone, with the bit its explanation works through outlined."""
    element, bit = question.source
    return bitwise_fig.with_pick(picture(c.operands, element, element + 1, c.in_place), (element, bit))


def ask(c: Configuration, question: Question) -> SpecFigure:
    """The question's element of A and B, without Output (the answer)."""
    element = question.cell[0]
    return bitwise_fig.input_only(picture(c.operands, element, element + 1, c.in_place))


@shared
def overview_picture() -> SpecFigure:
    """FLOAT32 1.0 | 2.0 = +inf, and its neighbours."""
    a = np.array([1.0, 2.0, -0.0], dtype=np.float32)
    b = np.array([2.0, 1.0, 1.0], dtype=np.float32)
    return bitwise_fig.bitwise_figure(a, b, run(DEFAULT_OPERATION, [a, b])[0], op=DEFAULT_OPERATION)
