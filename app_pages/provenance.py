"""The part of an operator page that every page drawing one call's provenance shares (viz.provenance_fig): the call's
arrays and figure, shared between sessions, and the skeleton's hooks for the figure, the pick, the formulas, the
steps, the quiz and the panels, all read from the page's configuration (`Configured`).

A page built on it (a gather, a slice) declares its widgets, its presets and its configuration; the configuration
says how its arrays are made and what the core says of where each output element comes from.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

import numpy as np

from ops import Call, DescriptorError, QuizSettings, index_formula
from ops.operators.base import INPUT
from ops.operators.fixes import Fixes
from ops.operators.lessons import Formula
from ops.teaching.quiz import Question
from ui import say
from ui.errors import typed_values_refused
from ui.operator_page import OperatorPage, Panels, Refused
from ui.panels import Arrays
from ui.shared import shared
from ui.sidebar import SidebarSettings
from ui.toolbar import summary
from ui.values import Values
from ui.work import frozen
from viz import provenance_fig
from viz.operator_figure import Pick, Step
from viz.provenance_fig import Sources
from viz.spec import SpecFigure

FIGURE_WIDTH = 1100


class Configured(Hashable, Protocol):
    """What the core accepts of a provenance page's settings: small and hashable (the shared cache's key)."""

    @property
    def values(self) -> Values:
        """How the data tensor's values are made (the sidebar's)."""

    @property
    def sizes(self) -> tuple[int, ...]:
        """The data tensor's sizes."""

    def line(self) -> list[str]:
        """The settings as the parts of the line over the figure."""

    @property
    def call(self) -> Call:
        """The ops Call, checked."""

    def unchecked_call(self) -> Call:
        """The call made without Call.of's checks: refused settings still describe it."""

    def inputs(self) -> list[np.ndarray]:
        """Every input array in the descriptor's order; DescriptorError naming the field when one cannot be made."""

    def sources(self, inputs: Sequence[np.ndarray]) -> Sources:
        """What the core says of where each output element comes from (viz.provenance_fig.Sources)."""

    def given(self, inputs: Sequence[np.ndarray]) -> dict[str, Any]:
        """What the call's formulas take beside the call: the values that decide the moves (indices=, lengths=)."""

    def fixes(self) -> Fixes:
        """The nearest settings the core accepts, for a refusal of these (the operator's own fixes)."""


def index_inputs(call: Call) -> list[int]:
    """The inputs whose DataType is their own (a gather's IndicesTensor, a reversal's SequenceLengthsTensor): they
    choose where elements go, rather than being copied."""
    inputs = [f for f in call.operator.fields if f.kind == INPUT]
    return [k for k, f in enumerate(inputs[:len(call.input_sizes)]) if f.attribute]


@shared
def inputs(c: Configured) -> tuple[np.ndarray, ...]:
    return tuple(frozen(np.array(a)) for a in c.inputs())


@shared
def outputs(c: Configured) -> tuple[np.ndarray, ...]:
    return tuple(frozen(a) for a in c.call.run(list(inputs(c))))


@shared
def sources(c: Configured) -> Sources:
    return c.sources(inputs(c))


@shared
def picture(c: Configured, width_px: int = FIGURE_WIDTH) -> SpecFigure:
    """The call's figure without a pick: shared by every visitor and every click."""
    call = c.call
    names = [*call.operator.input_labels(len(call.input_sizes)), "OutputTensor"]
    indexes = index_inputs(call)
    data = tuple(k for k in range(len(call.input_sizes)) if k not in indexes)
    return provenance_fig.provenance_figure(names, [*inputs(c), outputs(c)[0]], sources(c), call.op,
                                            data_inputs=data, width_px=width_px)


def input_bytes(c: Configured) -> int:
    """Bytes of the call's inputs and output (and the output's cross-check copy), before any is made."""
    call = c.unchecked_call()
    itemsize = np.dtype(call.data_type.lower()).itemsize
    try:
        out = call.output_sizes[0]
    except (DescriptorError, IndexError, ValueError, TypeError):
        out = ()  # the page's configure refuses such settings with the core's message
    # Provenance keeps three int64 arrays of the output's size.
    return sum(math.prod(s) for s in call.input_sizes) * 8 + math.prod(out) * (2 * itemsize + 24)


class ProvenancePage(OperatorPage[Any, Any, Any]):
    """The hooks of a page drawing one call's provenance. The page adds its widgets (`controls`: its settings as
    {URL key: value}, the operator's first), its presets, and `make`, its configuration of those settings."""

    figures = provenance_fig

    def make(self, settings: dict[str, Any], values: Values) -> Configured:
        """The configuration the settings describe, not yet checked by the core; DescriptorError naming the field
        for a list that is no list of numbers."""
        raise NotImplementedError

    def line(self, settings: dict[str, Any], sidebar: SidebarSettings) -> list[str]:
        try:
            return self.make(settings, sidebar.values).line()
        except DescriptorError:
            return [str(next(iter(settings.values()))), sidebar.data_type]  # the operator, and the type

    def configure(self, settings: dict[str, Any], sidebar: SidebarSettings) -> Configured:
        return self.checked(self.make(settings, sidebar.values))

    def work_bytes(self, c: Configured) -> int:
        return input_bytes(c)

    def checked(self, c: Configured) -> Configured:
        """`c` once the core accepts its call; Refused with the core's message (naming the field and the rule), the
        configuration kept for the panels, otherwise."""
        try:
            c.call  # noqa: B018  # Call.of checks every field
        except DescriptorError as exc:
            try:
                fixes = c.fixes()
            except (DescriptorError, TypeError, ValueError, IndexError):
                fixes = None  # settings too broken for the operator's fixes to read: the message alone
            raise Refused(str(exc), fixes, c) from None
        return c

    def compute(self, c: Configured) -> None:
        """The inputs (typed values are parsed here, inside the work budget), the output and the provenance."""
        if refused := typed_values_refused(c.values, c.sizes):
            raise Refused(*refused, c)
        try:
            outputs(c)
            sources(c)
        except DescriptorError as exc:
            raise Refused(str(exc), None, c) from None

    def calls(self, c: Configured, refusal: str | None = None) -> list[Panels]:
        call = c.unchecked_call()
        return [Panels(call, Arrays((self.key, c), functools.partial(inputs, c), functools.partial(outputs, c),
                                    refusal), f"{self.key}_panels")]

    def quiz(self, c: Configured) -> tuple[QuizSettings, Callable[[Question], SpecFigure]]:
        arrays, indexes = inputs(c), index_inputs(c.call)
        values = tuple(tuple(a.ravel().tolist()) if k in indexes else () for k, a in enumerate(arrays))
        return QuizSettings(c.call, values), functools.partial(reveal, c)

    def quiz_input(self, c: Configured, question: Question) -> SpecFigure:
        return provenance_fig.input_only(picture(c))

    def drawn_part(self, c: Configured) -> Configured:
        context = picture(c).context
        if not all(g.whole for g in context.grids):
            summary(self.row, ["Drawn: " + "; ".join(g.describe() for g in context.grids if not g.whole)])
        return c

    def pictures(self, c: Configured) -> list[tuple[str, SpecFigure]]:
        return [("", picture(c))]

    def chart(self, c: Configured, title: str) -> tuple[list[Any], str]:
        call = c.call
        shapes = ", ".join(str(list(s)) for s in call.input_sizes)
        return [call.op, call.data_type, *call.input_sizes[0]], f"{call.op}, {call.data_type} {shapes}"

    def describe_pick(self, c: Configured, pick: Pick) -> str | None:
        described = provenance_fig.describe(picture(c).context, pick)
        return None if described is None else say.plain(described)

    def undrawn_pick(self, c: Configured, pick: Pick) -> str | None:
        return provenance_fig.undrawn(picture(c).context, pick)

    def pick_formulas(self, c: Configured, pick: Pick) -> list[tuple[str, Callable[[], Formula]]]:
        context = picture(c).context
        if pick[0] != len(context.grids) - 1:
            return []
        cell = tuple(int(i) for i in np.unravel_index(pick[1], context.output.shape))
        return [("Where the picked output element comes from", functools.partial(formula, c, cell))]

    def step_formula(self, c: Configured, title: str, step: Step) -> Formula:
        return formula(c, step.destination)


def formula(c: Configured, cell: tuple[int, ...]) -> Formula:
    """The formula of output element `cell`, its numbers substituted."""
    return index_formula(c.call, cell, side="output", **c.given(inputs(c)))


def reveal(c: Configured, question: Question) -> SpecFigure:
    """The figure with the question's output element picked (its source and index outlined)."""
    figure = picture(c)
    output = figure.context.output
    destination = tuple(question.destination)
    if len(destination) != len(output.shape) or not all(0 <= i < s for i, s in zip(destination, output.shape)):
        return figure
    return provenance_fig.with_pick(figure, (len(figure.context.grids) - 1,
                                             int(np.ravel_multi_index(destination, output.shape))))
