"""What an operator page's figure module provides (FigureModule), and the pieces of step mode they share.

An operator page draws its operator through one module of viz (depth_space_fig, bitwise_fig, split_join_fig): a
shared figure without a pick, then for each visitor a cheap copy with the pick drawn (`with_pick`), the inputs alone
for the quiz (`input_only`), and step by step one element at a time (`step_count`, `with_step`): each returns a
copy of the shared, read-only figure with something drawn on top (SpecFigure.with_overlay), so one cached figure
serves every pick and every step of every visitor. The page declares its module (ui.operator_page.OperatorPage
.figures); the skeleton calls these and never asks which operator it draws.

A pick is a tuple of ints, as the URL keeps it: the figure module says what it means (a flat input index, an
element and its bit, an input multi-index).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .common import PICK_COLOR, cell_square_path
from .spec import SpecFigure, decode_typed_array, is_typed_array

Pick = tuple[int, ...]
# The step's note sits on a box at least 85% white whatever the theme: black on it, not the page's text color (the
# dark theme's light text was 1.15:1 there).
ARROW = dict(showarrow=True, arrowhead=2, arrowsize=1.2, arrowwidth=3, arrowcolor=PICK_COLOR,
             font=dict(size=13, color="#000000"), bgcolor="rgba(255,255,255,0.85)", bordercolor=PICK_COLOR,
             borderpad=3)


@dataclass(frozen=True)
class Step:
    """What step `number` of `count` shows: the element read and where it is written, in tensor indices."""

    number: int
    count: int
    label: str
    source: tuple
    destination: tuple


class FigureModule(Protocol):
    """An operator page's figure module (a module, checked against this protocol where a page declares it)."""

    STEP_NOUN: str  # what one step shows: "element", "bit"

    def with_pick(self, figure: SpecFigure, pick: Pick | None) -> SpecFigure:
        """`figure` with `pick` outlined where it is read and where it is written (None: no pick)."""

    def input_only(self, figure: SpecFigure, pick: Pick | None = None) -> SpecFigure:
        """`figure` cut to its input(s), for a quiz question that must not show the answer; `pick` outlined."""

    def pick_from_selection(self, selection: dict[str, Any] | None) -> Pick | None:
        """The pick a click on the figure made (the chart's selection state), or None."""

    def step_count(self, figure: SpecFigure, element: int | None = None) -> int:
        """How many steps the figure's drawn elements make (`element`: the one whose parts are walked, where a step
        is a part of an element)."""

    def with_step(self, figure: SpecFigure, number: int, element: int | None = None) -> tuple[SpecFigure, Step]:
        """(copy of `figure` with step `number` drawn, the Step); `number` within step_count's."""

    def step_labels(self, figure: SpecFigure, count: int) -> list[str]:
        """The step slider's text for each step."""


def element_labels(count: int) -> list[str]:
    """Step labels that count elements from 1."""
    return [f"{n + 1} of {count}" for n in range(count)]


def array_of(value: Any) -> np.ndarray:
    """A trace's array, typed (base64) or plain."""
    return decode_typed_array(value) if is_typed_array(value) else np.asarray(value)


def trace_of(figure: SpecFigure, role: int) -> dict[str, Any]:
    """The figure's trace at position `role`."""
    return figure.to_dict()["data"][role]


def outline(row: int, col: int, name: str, xref: str = "x", yref: str = "y") -> dict[str, Any]:
    """A step's outline around one cell."""
    return dict(type="path", name=name, path=cell_square_path([row], [col]), xref=xref, yref=yref,
                line=dict(color=PICK_COLOR, width=3), layer="above")


def overlay(figure: SpecFigure, annotations: list[dict[str, Any]], shapes: list[dict[str, Any]],
            **changes: Any) -> SpecFigure:
    """The step drawn over `figure`; the figure's own Play and slider are left out, since the page's one Play
    (and one slider) drives every figure of step mode at once."""
    layout = figure.to_dict()["layout"]
    return figure.with_overlay(layout=dict(annotations=list(layout.get("annotations", [])) + annotations,
                                           shapes=list(layout.get("shapes", [])) + shapes,
                                           updatemenus=None, sliders=None, **changes))


def index_text(index: Sequence[int]) -> str:
    return "(" + ", ".join(str(int(i)) for i in index) + ")"


def clamped(number: int, count: int) -> int:
    """A step number within 0..count-1."""
    return min(max(0, int(number)), count - 1)
