"""Predict, then reveal: questions about one call of an operator, with answers and explanations.

Each operator asks its own questions (Operator.question, in its family's teaching.py), with the mistakes people
make as the wrong answers; this module picks and shuffles the choices. The questions are a pure function of the
settings and a seed, so a link carrying both quizzes every learner on the same questions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..operators import Call

QUIZ_LENGTH = 5
CHOICES = 4
KINDS = ("where", "feeds")  # alternated: where an input element lands, which input element feeds an output one


@dataclass(frozen=True)
class QuizSettings:
    """What a quiz is about: one call, and for an operator whose answers depend on the values (ELEMENT_WISE_BIT_OR)
    the bit patterns (unsigned ints) of each input's first elements, as DirectML reads them."""

    call: Call
    values: tuple = ()  # one tuple per input


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


def _question(draft, rng):
    """The operator's draft with its choices picked and shuffled."""
    choices, answer = _choices(draft.right, draft.mistakes, rng, draft.guess)
    return Question(draft.kind, draft.prompt, tuple(draft.text(c) for c in choices), answer, draft.explanation,
                    draft.cell, draft.source, draft.destination)


def quiz_questions(settings: QuizSettings, seed: int, count: int = QUIZ_LENGTH) -> list[Question]:
    """`count` questions about `settings` (a QuizSettings), the same for the same settings and seed.

    Operators that move elements alternate "where does this input element land" and "which input feeds this
    output element"; ELEMENT_WISE_BIT_OR asks for A | B of an element. Raises DescriptorError for an operator
    with no questions or values it cannot ask about (the page shows that instead of a quiz).
    """
    rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, 0x51A7])
    op = settings.call.operator
    return [_question(op.question(settings, rng, KINDS[number % 2]), rng) for number in range(int(count))]
