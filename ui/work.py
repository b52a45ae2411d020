"""The work every operator page shares, as functions of its settings: the input values, the cross-checks and the
same call in other frameworks (each page's own work is its folder's work.py).

Identical settings are the common case when a class opens one link: each function here runs once per distinct
argument tuple for the whole server (ui.shared's byte-bounded cache, one computation at a time per key), and a
result too large to keep is recomputed rather than held. Arguments are small hashable descriptions (a Values,
shapes, attributes), never arrays, so a cached figure or summary never pins a tensor in memory. Cached arrays are
made read-only: many sessions share them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np

from ops import CrossCheckReport, cross_check, framework_snippets

from .shared import BYTE_SECONDS, CACHE, in_background, shared
from .values import Values, make_values

DIFF_ROWS = 20
# A view's work for each part of a SPLIT or JOIN, measured on this project's 2-core machine with 65,536 parts: its
# tensor desc validated for SPLIT's and JOIN's panels (76 us each), its output run and compared by ONNX Runtime in
# the cross-check (1.8 ms), its copy in split and join (45 us).
PART_SECONDS = 2e-3


def view_seconds(nbytes: int, parts: int = 1) -> float:
    """The CPU seconds a view is expected to take, from the bytes it reserves and its parts (ui.shared.admitted)."""
    return nbytes * BYTE_SECONDS + parts * PART_SECONDS


def frozen(array: np.ndarray) -> np.ndarray:
    """`array`, made read-only: many sessions share it."""
    array.flags.writeable = False
    return array


@shared
def tensor(values: Values, shape: tuple[int, ...]) -> np.ndarray:
    """The input tensor of `shape` filled by `values` (a Values); DescriptorError for sizes or typed values that
    cannot be."""
    return frozen(make_values(values.pattern, shape, values.data_type, **values.kwargs()))


# ---------------------------------------------------------------- the same operation elsewhere


@shared
def snippets(op: str, input_sizes: tuple[tuple[int, ...], ...], data_type: str,
             settings: tuple[tuple[str, Any], ...]) -> tuple[Any, ...]:
    """framework_snippets for one call (settings: sorted (name, value) pairs), as a tuple of Snippets."""
    return tuple(framework_snippets(op, input_sizes, data_type, **dict(settings)))


# ---------------------------------------------------------------- the cross-check, kept without its arrays


@dataclasses.dataclass(frozen=True)
class CheckSummary:
    """What the Cross-check panel shows of one runtime's run: the verdict and at most DIFF_ROWS differences."""

    runtime: str  # "directml" or "onnxruntime"
    provider: str | None
    available: bool
    matches: bool
    note: str
    ort_version: str | None
    first_mismatch: tuple | None = None
    shapes: tuple = ()  # (expected shape, actual shape) of the first differing output when their forms differ
    rows: tuple = ()  # (index, expected, actual) texts of the first differing elements
    differing: int = 0
    total: int = 0


def summarize(report: CrossCheckReport) -> CheckSummary:
    """A CrossCheckReport without its arrays: only what a person reads stays in the cache."""
    fields: dict[str, Any] = dict(runtime=report.runtime, provider=report.provider, available=report.available,
                  matches=report.matches, note=report.note, ort_version=report.ort_version,
                  first_mismatch=report.first_mismatch)
    if report.matches or not report.available or report.first_mismatch is None:
        return CheckSummary(**fields)
    output, index = report.first_mismatch
    expected = np.asarray(report.expected[output])
    actual = np.asarray(report.actual[output]) if output < len(report.actual) else None
    if index is None or actual is None or actual.shape != expected.shape:
        return CheckSummary(**fields, shapes=(tuple(expected.shape), None if actual is None else tuple(actual.shape)))
    width = f"u{expected.dtype.itemsize}"
    differ = expected.view(width) != actual.view(width)
    where = np.argwhere(differ)[:DIFF_ROWS]
    rows = tuple((str(tuple(int(i) for i in w)), str(expected[tuple(w)]), str(actual[tuple(w)])) for w in where)
    return CheckSummary(**fields, rows=rows, differing=int(differ.sum()), total=int(differ.size))


@dataclasses.dataclass(frozen=True)
class CrossChecks:
    """One call cross-checked on both runtimes: DirectML itself, and ONNX Runtime beside it."""

    directml: CheckSummary
    onnxruntime: CheckSummary


def check_both(run: Callable[[str], CrossCheckReport]) -> CrossChecks:
    """CrossChecks of `run(runtime)`, a function returning that runtime's CrossCheckReport."""
    return CrossChecks(summarize(run("directml")), summarize(run("onnxruntime")))


def check(op: str, key: Hashable, make_inputs: Callable[[], Iterable[np.ndarray]],
          attrs: tuple[tuple[str, Any], ...]) -> CrossChecks:
    """The cross-checks of one operator call, identified by `key` (how its inputs are made), as summaries.

    `make_inputs` is only called on a miss; `attrs` is a sorted tuple of the core function's keyword arguments.
    """
    def both() -> CrossChecks:
        inputs = list(make_inputs())
        return check_both(lambda runtime: cross_check(op, inputs, runtime=runtime, **dict(attrs)))

    return CACHE.get(("check", op, key, attrs), both)


def check_soon(op: str, key: Hashable, make_inputs: Callable[[], Iterable[np.ndarray]],
               attrs: tuple[tuple[str, Any], ...]) -> CrossChecks | None:
    """The cross-checks of the call when they are ready, else None: they are then computed on the CHECKS threads
    (once for every session asking), and a later run finds them in the cache."""
    found, checks = CACHE.peek(("check", op, key, attrs))
    if found:
        return checks
    in_background(("check", op, key, attrs), check, op, key, make_inputs, attrs)
    return None
