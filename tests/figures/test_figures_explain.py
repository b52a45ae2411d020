"""The figure modules' steps (viz.operator_figure.FigureModule) and the bit sweep's numbering, checked against the
operators' index maps and bit_or."""

import numpy as np
import pytest

import ops
from ops.operators.bitwise import bit_or
from ops.operators.depth_space import ORDERS, depth_to_space, space_to_depth
from ops.operators.index_maps import depth_to_space_map, space_to_depth_map, split_map
from support.figures import struck_cells
from viz import bitwise_fig, depth_space_fig, split_join_fig
from viz.common import MAX_FRAMES

OR = "ELEMENT_WISE_BIT_OR"  # the operator the figures draw unless a test names another


@pytest.mark.parametrize("direction, shape", [("depth_to_space", (1, 8, 2, 3)), ("space_to_depth", (1, 3, 4, 6))])
@pytest.mark.parametrize("order", ORDERS)
def test_depth_steps_walk_the_output_in_order_and_follow_the_operator(direction, shape, order):
    x = ops.origin_coded_input(shape, "UINT32")
    operator = depth_to_space if direction == "depth_to_space" else space_to_depth
    index_map = (depth_to_space_map if direction == "depth_to_space" else space_to_depth_map)(shape, 2, order)
    figure = depth_space_fig.depth_space_figure(x, operator(x, 2, order), 2, order, direction)
    count = depth_space_fig.step_count(figure)
    assert count == index_map.size
    destinations = []
    cells = {(int(r), int(c)) for role in (depth_space_fig.Trace.INPUT_CELLS, depth_space_fig.Trace.OUTPUT_CELLS)
             for r, c in zip(figure.data[role].y, figure.data[role].x)}
    for number in range(count):
        drawn, step = depth_space_fig.with_step(figure, number)
        assert index_map[step.destination] == np.ravel_multi_index(step.source, shape)
        link = next(s for s in drawn.to_dict()["layout"]["shapes"] if s["name"] == "step-link")
        assert not struck_cells(link["path"], cells)  # the step's link runs in the gutters, as a pick's does
        destinations.append(np.ravel_multi_index(step.destination, index_map.shape))
        assert "updatemenus" not in drawn.to_dict()["layout"]
    assert destinations == sorted(destinations)  # the output's row-major order, element by element
    assert figure.to_dict()["layout"].get("annotations") != drawn.to_dict()["layout"]["annotations"]


def test_split_steps_follow_the_operator():
    x = ops.origin_coded_input((2, 7, 3), "UINT32")
    sizes = [3, 1, 3]
    maps = split_map(x.shape, 1, sizes)
    figure = split_join_fig.split_join_figure(x, 1, sizes)
    count = split_join_fig.step_count(figure)
    assert count == 7 * 3  # the drawn plane: dims 1 and 2, dim 0 fixed at 0
    for number in range(count):
        _, step = split_join_fig.with_step(figure, number)
        k, *index = step.destination
        assert maps[k][tuple(index)] == np.ravel_multi_index(step.source, x.shape)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.int64, np.float64])
def test_bit_steps_go_from_the_top_bit_down_with_the_operators_bits(dtype):
    rng = np.random.default_rng(1)
    width = np.dtype(dtype).itemsize * 8
    unsigned = f"u{width // 8}"
    a, b = (rng.integers(0, 256, size=3 * width // 8, dtype=np.uint8).view(dtype) for _ in range(2))
    out = bit_or(a, b)
    figure = bitwise_fig.bitwise_figure(a, b, out, op=OR)
    assert bitwise_fig.step_count(figure) == width
    for number in range(width):
        _, step = bitwise_fig.with_step(figure, number, element=1)
        bit = width - 1 - number
        assert step.source == (1, bit)
        bits = [(int(v[1].view(unsigned)) >> bit) & 1 for v in (a, b, out)]
        assert step.label.endswith(f"A {bits[0]} | B {bits[1]} = {bits[2]}")


def slider_labels(figure):
    return [s["label"] for s in figure.to_dict()["layout"]["sliders"][0]["steps"]]


def test_64_bit_element_sweeps_all_64_bits_named_by_number():
    a, b = np.float64([1.0]), np.float64([2.0])
    figure = bitwise_fig.bitwise_figure(a, b, bit_or(a, b), op=OR)
    frames = figure.to_dict()["frames"]
    assert len(frames) == 64 <= MAX_FRAMES
    assert slider_labels(figure) == [f"#0 bit {bit}" for bit in range(63, -1, -1)]


def test_few_32_bit_elements_sweep_bit_positions_named_31_to_0():
    a = np.arange(6, dtype=np.uint32)
    figure = bitwise_fig.bitwise_figure(a, a[::-1].copy(), a | a[::-1], op=OR)
    assert slider_labels(figure) == ["empty"] + [f"bit {bit}" for bit in range(31, -1, -1)]


def test_many_elements_are_named_by_element():
    a = np.arange(200, dtype=np.uint8)
    labels = slider_labels(bitwise_fig.bitwise_figure(a, a, a, op=OR))
    assert labels[0] == "empty" and labels[1].startswith("#0") and len(labels) <= MAX_FRAMES
