"""Predict, then reveal: questions about one operator configuration, with answers and explanations.

The questions are a pure function of the settings and a seed, so a link carrying both quizzes every learner on
the same questions. Wrong choices are the mistakes people make: the other order's answer, row and column of
the block swapped, the index left unshifted, AND or XOR instead of OR.
"""

from dataclasses import dataclass

import numpy as np

from ..datatypes import numpy_dtype
from ..errors import DescriptorError
from ..operators.depth_space import depth_to_space_shape, order_name, space_to_depth_shape
from .formulas import BIT_OR, DEPTH_SPACE_OPS, SPLIT_JOIN_OPS, index_formula

QUIZ_LENGTH = 5
CHOICES = 4
ORDERS = ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")


@dataclass(frozen=True)
class QuizSettings:
    """One operator configuration, as small hashable values.

    shape: the input's sizes (JOIN: the whole tensor the inputs join into). BIT_OR: data_type, and a / b the
    bit patterns (unsigned ints) of the first elements of A and of B as DirectML reads it.
    """

    op: str
    shape: tuple
    order: str | None = None
    block_size: int | None = None
    axis: int | None = None
    part_sizes: tuple | None = None  # SPLIT's outputs / JOIN's inputs, sizes along Axis
    data_type: str | None = None
    a: tuple = ()
    b: tuple = ()


@dataclass(frozen=True)
class Question:
    kind: str  # "where" (an input element's destination), "feeds" (an output element's source), "or"
    prompt: str
    choices: tuple
    answer: int  # index of the right choice
    explanation: tuple  # lines: the formula with this question's numbers
    cell: tuple  # the element asked about, on the side the prompt names
    source: tuple = ()  # the answer's element in the input (SPLIT: an index of the whole input; OR: element, bit)
    destination: tuple = ()  # and in the output (SPLIT: output number k first)

    @property
    def right(self):
        return self.choices[self.answer]


def _index_text(index):
    return "(" + ", ".join(str(int(i)) for i in index) + ")"


def _choices(right, wrong, rng, fallback):
    """The right choice and up to CHOICES - 1 distinct wrong ones, shuffled; (choices, answer index)."""
    picked = [right]
    for option in list(wrong) + [fallback() for _ in range(4 * CHOICES)]:
        if len(picked) == CHOICES:
            break
        if option is not None and option not in picked:
            picked.append(option)
    order = rng.permutation(len(picked))
    choices = tuple(picked[i] for i in order)
    return choices, choices.index(right)


def _random_index(rng, shape):
    return tuple(int(rng.integers(0, s)) for s in shape)


def _depth_space_question(settings, rng, kind):
    op, bs = settings.op, int(settings.block_size)
    order = order_name(settings.order)
    other = ORDERS[1 - ORDERS.index(order)]
    in_shape = tuple(settings.shape)
    out_shape = depth_to_space_shape(in_shape, bs) if op == "DEPTH_TO_SPACE1" else space_to_depth_shape(in_shape, bs)
    side, asked_shape, answer_shape = ("input", in_shape, out_shape) if kind == "where" else \
        ("output", out_shape, in_shape)
    cell = _random_index(rng, asked_shape)

    def answer_of(order_used, given=cell):
        formula = index_formula(op, order_used, bs, [in_shape], given, side=side)
        return formula, (formula.destination if kind == "where" else formula.source)

    formula, right = answer_of(order)
    wrong = [answer_of(other)[1]]
    # Block row and column swapped: the element bw rows and bh columns into the block instead.
    parts = {t.name: t.value for t in formula.terms}
    space_cell = formula.destination if op == "DEPTH_TO_SPACE1" else formula.source
    bh, bw, cp = parts["bh"], parts["bw"], space_cell[1]
    n, c, h, w = right
    if (op == "DEPTH_TO_SPACE1") == (kind == "where"):  # the answer is on the space side
        swapped = (n, c, h - bh + bw, w - bw + bh)
    else:
        c_space = (out_shape if op == "DEPTH_TO_SPACE1" else in_shape)[1]
        channel = (bw * bs + bh) * c_space + cp if order == "DEPTH_COLUMN_ROW" else cp * bs * bs + bw * bs + bh
        swapped = (n, channel, h, w)
    wrong.append(swapped)
    # The naive guess: nothing moves, the element keeps its own index (clamped into the other tensor's sizes).
    wrong.append(tuple(min(i, s - 1) for i, s in zip(cell, answer_shape)))
    choices, answer = _choices(tuple(right), [tuple(int(v) for v in x) for x in wrong], rng,
                               lambda: _random_index(rng, answer_shape))
    if kind == "where":
        prompt = f"Input element (n, c, h, w) = {_index_text(cell)}: where does {op} ({order}) write it in the output?"
    else:
        prompt = (f"Output element (n, c, h, w) = {_index_text(cell)}: which input element does {op} ({order}) "
                  "copy there?")
    noun = "output" if kind == "where" else "input"
    return Question(kind, prompt, tuple(f"{noun} {_index_text(c)}" for c in choices), answer,
                    tuple(formula.lines()), cell, formula.source, formula.destination)


def _split_join_question(settings, rng, kind):
    op, axis = settings.op, int(settings.axis)
    whole = tuple(int(s) for s in settings.shape)
    sizes = [int(s) for s in settings.part_sizes]
    parts = [whole[:axis] + (s,) + whole[axis + 1:] for s in sizes]
    shapes = [whole, *parts] if op == "SPLIT" else parts
    word = "OutputTensors" if op == "SPLIT" else "InputTensors"
    whole_name = "InputTensor" if op == "SPLIT" else "OutputTensor"
    # SPLIT "where": whole -> part; JOIN "where": part -> whole; "feeds" the other way round.
    part_given = (op == "JOIN") == (kind == "where")
    if part_given:
        k = int(rng.integers(0, len(parts)))
        cell = (k, *_random_index(rng, parts[k]))
    else:
        cell = _random_index(rng, whole)
    side = "input" if kind == "where" else "output"
    formula = index_formula(op, None, None, shapes, cell, side=side, axis=axis)
    right = formula.destination if kind == "where" else formula.source

    def part_text(value):
        k, *index = value
        return f"{word}[{k}] {_index_text(index)}"

    def whole_text(index):
        return f"{whole_name} {_index_text(index)}"

    offsets = np.concatenate([[0], np.cumsum(sizes)])
    if part_given:  # the answer is an index of the whole tensor
        k, *index = cell
        unshifted = tuple(index)
        wrong = [unshifted, tuple(index[:axis] + [index[axis] + int(offsets[k + 1])] + index[axis + 1:])
                 if index[axis] + int(offsets[k + 1]) < whole[axis] else None]
        choices, answer = _choices(tuple(right), wrong, rng, lambda: _random_index(rng, whole))
        texts = [whole_text(c) for c in choices]
        given = part_text(cell)
    else:  # the answer is (k, index in part k)
        k, *index = right
        i = cell[axis]
        unshifted = (k, *cell) if i < sizes[k] else None
        neighbours = [(k2, *index) for k2 in (k - 1, k + 1) if 0 <= k2 < len(sizes) and index[axis] < sizes[k2]]

        def random_part():
            k2 = int(rng.integers(0, len(parts)))
            return (k2, *_random_index(rng, parts[k2]))

        choices, answer = _choices(tuple(right), [unshifted, *neighbours], rng, random_part)
        texts = [part_text(c) for c in choices]
        given = whole_text(cell)
    verb = "land" if kind == "where" else "come from"
    prompt = f"{op} along Axis {axis} with sizes {sizes}: where does {given} {verb}?"
    return Question(kind, prompt, tuple(texts), answer, tuple(formula.lines()), tuple(cell), formula.source,
                    formula.destination)


def _bit_pattern_text(bits, data_type):
    dtype = numpy_dtype(data_type)
    width = dtype.itemsize * 8
    raw = np.array([bits], dtype=f"u{dtype.itemsize}")
    value = raw.view(dtype)[0]
    return f"0x{bits:0{width // 4}X} ({value})"  # numpy prints the shortest text that reads back the same


def _or_question(settings, rng):
    if not settings.a or len(settings.a) != len(settings.b):
        raise DescriptorError("a, b: BIT_OR questions need A's and B's first elements")
    width = numpy_dtype(settings.data_type).itemsize * 8
    mask = (1 << width) - 1
    element = int(rng.integers(0, len(settings.a)))
    a, b = int(settings.a[element]), int(settings.b[element])
    right = a | b
    flip = lambda: right ^ (1 << int(rng.integers(0, width)))  # noqa: E731 - one bit off the right answer
    choices, answer = _choices(right, [a & b, a ^ b, (a + b) & mask], rng, flip)
    # The bit worked through is the highest one where A and B differ (there OR is neither A's nor B's bit
    # alone), else the highest one set.
    differ, either = a ^ b, a | b
    bit = (differ or either or 1).bit_length() - 1
    formula = index_formula(BIT_OR, None, None, [settings.shape], (element, bit), values=(a, b, width))
    prompt = (f"{settings.data_type} element {element}: A = {_bit_pattern_text(a, settings.data_type)}, "
              f"B = {_bit_pattern_text(b, settings.data_type)}. What does ELEMENT_WISE_BIT_OR write?")
    bits = [f"A     = {a:0{width}b}", f"B     = {b:0{width}b}", f"A | B = {a | b:0{width}b}  (bit 0 on the right)"]
    return Question("or", prompt, tuple(_bit_pattern_text(c, settings.data_type) for c in choices), answer,
                    tuple(formula.lines()) + tuple(bits), (element,), (element, bit), (element, bit))


def quiz_questions(settings, seed, count=QUIZ_LENGTH):
    """`count` questions about `settings` (a QuizSettings), the same for the same settings and seed.

    Depth/space and SPLIT/JOIN alternate "where does this input element land" and "which input feeds this
    output element"; BIT_OR asks for A | B of an element. Raises DescriptorError when the settings do not
    describe a valid operator (the page shows that instead of a quiz).
    """
    rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, 0x51A7])
    kinds = ("where", "feeds")
    questions = []
    for number in range(int(count)):
        kind = kinds[number % 2]
        if settings.op in DEPTH_SPACE_OPS:
            questions.append(_depth_space_question(settings, rng, kind))
        elif settings.op in SPLIT_JOIN_OPS:
            questions.append(_split_join_question(settings, rng, kind))
        elif settings.op == BIT_OR:
            questions.append(_or_question(settings, rng))
        else:
            raise DescriptorError(f"op {settings.op!r}: no questions for this operator")
    return questions
