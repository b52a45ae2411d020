"""The layout detective's work, shared between sessions through the server's cache (ui.shared): the origin-coded
inputs, and a case (what identify() found and its figures) of an example or of the outputs a visitor brought.

An example is a function of small settings; outputs brought are keyed by a digest of their bytes (settings.py), so a
class uploading the same file (or opening the same example link) identifies it once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable
from typing import Any

import numpy as np

from ops import element_cap_set_to, identify
from ops.detective.examples import detective_example
from ops.detective.identify import IdentifyReport, mix_up_diff
from ops.detective.origin import origin_coded_inputs, to_npy_bytes
from ui.shared import CACHE, shared
from ui.work import frozen
from viz.detective_fig import detective_figure, diff_figure
from viz.spec import SpecFigure

from .settings import ReadOutputs, Sizes

# The detective draws and hovers every cell it can: beyond a million input elements a framework's output is better
# checked on a smaller tensor of the same layout.
DETECTIVE_ELEMENTS = 2**20
# The page's content width at a 1400-pixel window (layout "wide", sidebar open): sizes the figures' square cells.
FIGURE_WIDTH = 940


@dataclasses.dataclass
class Case:
    """Inputs, outputs and what the detective found (figures built once and shared)."""

    xs: list[np.ndarray]
    ys: list[np.ndarray]
    report: IdentifyReport
    figure: SpecFigure
    diff: dict[str, Any] | None  # mix_up_diff's: the descriptor, and the cells differing before and after P
    diff_figure: SpecFigure | None


def work_bytes(sizes: Sizes) -> int:
    """What a run may hold: inputs and outputs as 8-byte values, the sort keys, their order and the index maps, and
    the IndicesTensors the gather family's proposals are verified with, each beside its run (an upload of 2^20
    FLOAT32 outputs peaked at 121 MiB in identify(), 57 MiB before those proposals: tests/unit/test_hostile_costs)."""
    return min(sum(math.prod(s) for s in sizes), DETECTIVE_ELEMENTS) * 8 * 16


def _frozen(arrays: list[np.ndarray]) -> list[np.ndarray]:
    return [frozen(a) for a in arrays]


def _solve(xs: list[np.ndarray], ys: list[np.ndarray]) -> Case:
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        report = identify(xs[0] if len(xs) == 1 else xs, ys[0] if len(ys) == 1 else ys)
    sources = report.source_index if isinstance(report.source_index, list) else [report.source_index]
    figure = detective_figure([x.shape for x in xs], [y.shape for y in ys], sources, report.input_starts, ys,
                              width_px=FIGURE_WIDTH)
    diff = mix_up_diff(report, xs[0].shape) if report.permuted_matches else None
    drawn_diff = None
    if diff is not None:
        d = diff["descriptor"]
        best = report.permuted_matches[0]
        where = "x[:, P]" if best["applies_to"] == "input channels" else "its output[:, P]"
        drawn_diff = diff_figure(diff["before"], diff["after"], f"{d['operator']} {d['Order']} as given",
                                 f"with {where}", width_px=FIGURE_WIDTH)
    return Case(_frozen(xs), _frozen(ys), report, figure, diff, drawn_diff)


@shared
def inputs(sizes: Sizes, data_type: str) -> list[np.ndarray]:
    """The origin-coded inputs (read-only) for a tuple of input sizes."""
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        return _frozen(origin_coded_inputs(sizes, data_type))


def input_npy(sizes: Sizes, data_type: str, index: int) -> bytes:
    """One origin-coded input as .npy bytes: a download button's data, made only when the file is asked for."""
    return to_npy_bytes(inputs(sizes, data_type)[index])


@shared
def example_case(name: str, sizes: Sizes, data_type: str) -> Case:
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        xs, ys = detective_example(name, sizes, data_type)
    return _solve(xs, ys)


def outputs_case(sizes: Sizes, data_type: str, outputs_key: Hashable, read_outputs: ReadOutputs) -> Case:
    """The case for outputs the user brought (read by `read_outputs()`), shared under their digest `outputs_key`."""
    def solve() -> Case:
        xs = [x.copy() for x in inputs(sizes, data_type)]
        with element_cap_set_to(DETECTIVE_ELEMENTS):
            ys = read_outputs()
        return _solve(xs, ys)

    return CACHE.get(("detective_outputs", sizes, data_type, outputs_key), solve)
