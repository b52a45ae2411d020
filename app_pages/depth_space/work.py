"""What the Depth <-> Space page computes, shared between sessions (ui.shared): each order's output, the figure of a
drawn window, the quiz's pictures and the Overview's."""

from __future__ import annotations

import numpy as np

from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.teaching.quiz import Question
from ui.shared import shared
from ui.values import Values
from ui.work import frozen, tensor
from viz import depth_space_fig
from viz.depth_space_fig import Window, drawn_window, side_shapes
from viz.spec import SpecFigure

from .settings import Configuration

FIGURE_WIDTH = 1100


@shared
def output(values: Values, shape: tuple[int, ...], block_size: int, order: str, direction: str) -> np.ndarray:
    operator = depth_to_space if direction == "depth_to_space" else space_to_depth
    return frozen(operator(tensor(values, shape), block_size, order))


@shared
def picture(values: Values, shape: tuple[int, ...], block_size: int, order: str, direction: str,
            window: Window) -> SpecFigure:
    """The figure of the drawn window without a pick: shared by every visitor and every click."""
    x = tensor(values, shape)
    return depth_space_fig.depth_space_figure(x, output(values, shape, block_size, order, direction), block_size, order,
                                              direction, window, width_px=FIGURE_WIDTH)


def order_picture(c: Configuration, order: str, window: Window) -> SpecFigure:
    return picture(c.values, c.shape, c.block_size, order, c.direction, window)


def inputs_of(c: Configuration) -> list[np.ndarray]:
    return [tensor(c.values, c.shape)]


def outputs_of(c: Configuration, order: str) -> list[np.ndarray]:
    return [output(c.values, c.shape, c.block_size, order, c.direction)]


def reveal(c: Configuration, question: Question) -> SpecFigure:
    """The question's element outlined in the input and where it lands: the whole tensor when it fits the
    drawing, else the window starting at the element."""
    depth_shape, _ = side_shapes(c.shape, c.block_size, c.direction)
    window = drawn_window(depth_shape, c.block_size)
    if not window.is_whole(depth_shape):
        n, ch, h, w = question.destination if c.direction == "depth_to_space" else question.source
        window = drawn_window(depth_shape, c.block_size, n, ch, h // c.block_size, w // c.block_size)
    flat = int(np.ravel_multi_index(question.source, c.shape))
    return depth_space_fig.with_pick(order_picture(c, c.orders[0], window), (flat,))


def ask(c: Configuration, question: Question) -> SpecFigure:
    """The input a question is about, without the answer: the drawn window of the page, the element outlined when
    the question names one of the input's."""
    depth_shape, _ = side_shapes(c.shape, c.block_size, c.direction)
    shown = order_picture(c, c.orders[0], drawn_window(depth_shape, c.block_size))
    pick = (int(np.ravel_multi_index(question.cell, c.shape)),) if question.kind == "where" else None
    return depth_space_fig.input_only(shown, pick)


@shared
def overview_picture() -> SpecFigure:
    """DEPTH_TO_SPACE1 of the seed's {1,8,2,3}, origin-coded."""
    x = tensor(Values("coded", "UINT32"), (1, 8, 2, 3))
    return depth_space_fig.depth_space_figure(x, depth_to_space(x, 2, "DEPTH_COLUMN_ROW"), 2, "DEPTH_COLUMN_ROW",
                                              "depth_to_space", width_px=440)
