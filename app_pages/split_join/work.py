"""What the Split <-> Join page computes, shared between sessions (ui.shared): the parts, the input joined again, the
figure of a drawn plane, the quiz's pictures, the arrays of the panels and the Overview's picture."""

from __future__ import annotations

import numpy as np

from ops.operators.split_join import join, split
from ops.teaching.quiz import Question
from ui.say import md
from ui.shared import shared
from ui.values import Values
from ui.work import frozen, tensor
from viz import split_join_fig
from viz.spec import SpecFigure
from viz.split_join_fig import WINDOW, default_view

from .settings import Configuration, Plane


@shared
def parts(values: Values, sizes: tuple[int, ...], axis: int, output_sizes: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    return tuple(frozen(np.ascontiguousarray(p)) for p in split(tensor(values, sizes), axis, list(output_sizes)))


@shared
def joined(values: Values, sizes: tuple[int, ...], axis: int, output_sizes: tuple[int, ...]) -> np.ndarray:
    return frozen(join(list(parts(values, sizes, axis, output_sizes)), axis))


@shared
def picture(values: Values, sizes: tuple[int, ...], axis: int, output_sizes: tuple[int, ...],
            view: tuple[int | None, int], fixed: tuple[tuple[int, int], ...], start: tuple[int, int],
            join: bool = False) -> SpecFigure:
    """The figure of the drawn plane without a pick."""
    return split_join_fig.split_join_figure(tensor(values, sizes), axis, list(output_sizes), view=view,
                                            fixed=dict(fixed), start=start, join=join)


def outcome_text(c: Configuration) -> str:
    """The parts' shapes under the figure; after a SPLIT, whether JOIN gives the input back."""
    outputs = parts(*c.key)
    shapes = ", ".join(f"[{k}] {list(o.shape)}" for k, o in enumerate(outputs))
    if c.join:
        return f"InputCount {len(outputs)}: {shapes} → OutputTensor {list(c.sizes)}."
    same = joined(*c.key).tobytes() == tensor(c.values, c.sizes).tobytes()
    return md("OutputCount {}: {}. JOIN(SPLIT(x)) reproduces x bit for bit: **{}**.", len(outputs), shapes, same)


def plane_picture(c: Configuration, plane: Plane) -> SpecFigure:
    """The figure of the drawn plane (view, fixed indices, first row and column) of the configuration."""
    view, fixed, start = plane
    return picture(c.values, c.sizes, c.axis, c.output_sizes, view, fixed, start, c.join)


def picture_holding(c: Configuration, index: tuple[int, ...] | None) -> SpecFigure:
    """The figure of the plane and window that hold input element `index` (the first ones when None)."""
    view = default_view(len(c.sizes), c.axis)
    index = index or (0,) * len(c.sizes)
    fixed = tuple((d, int(index[d])) for d in range(len(c.sizes)) if d not in view)
    row_dim, col_dim = view
    start = (0 if row_dim is None else index[row_dim] // WINDOW * WINDOW, index[col_dim] // WINDOW * WINDOW)
    return picture(*c.key, view, fixed, start)


def reveal(c: Configuration, question: Question) -> SpecFigure:
    """The question's element outlined in the input and in its output, in the plane and window that hold it."""
    source = tuple(int(i) for i in question.source)
    return split_join_fig.with_pick(picture_holding(c, source), source)


def ask(c: Configuration, question: Question) -> SpecFigure:
    """The input a question is about, without the answer: the element outlined when it is the input's."""
    cell = tuple(int(i) for i in question.cell) if question.kind == "where" else None
    return split_join_fig.input_only(picture_holding(c, cell), cell)


def inputs_of(c: Configuration) -> list[np.ndarray]:
    return [tensor(c.values, c.sizes)]


def parts_of(c: Configuration) -> list[np.ndarray]:
    return list(parts(*c.key))


def joined_of(c: Configuration) -> list[np.ndarray]:
    return [joined(*c.key)]


@shared
def overview_picture() -> SpecFigure:
    """The seed's {1,1,6,2} split along Axis 2 into 2, 1 and 3."""
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    return split_join_fig.split_join_figure(x, 2, [2, 1, 3])

