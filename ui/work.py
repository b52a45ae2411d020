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
import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np

from ops import Call, CrossCheckReport, cross_check, framework_snippets, numpy_dtype

from .shared import BYTE_SECONDS, CACHE, in_background, shared
from .values import Values, make_values

DIFF_ROWS = 20
# A cross-check a runtime could not answer for the moment (DirectML busy with other calls, its worker restarted) is
# kept this long, for the pages polling for it (every 0.5 s, ui.panels) to show it, then asked again when a page
# needs it: it is no verdict, and used to stay the answer for as long as it was cached.
RETRY_SECONDS = 3
# A cross-check on both runtimes, per byte of the call's tensors (inputs and outputs), measured on this project's
# 2-core machine: a FLOAT32 {1,64,256,500} DEPTH_TO_SPACE1 (31 MB in, 31 MB out) took 0.64 s on DirectML and 0.16 s
# on ONNX Runtime, and grew the server by 156 MB on DirectML (the request, the output buffers, the answer, the arrays
# read back), 70 MB on ONNX Runtime, one after the other.
CHECK_BYTE_SECONDS = 1.25e-8
CHECK_COPIES = 3
# A view's work for each part of a SPLIT or JOIN, cross-checks included, measured on this project's 2-core machine
# (support/costs.py; tests/unit/test_hostile_costs.py keeps the estimate above the measure): 2,000 parts 0.54 s,
# 5,003 1.17 s, 10,000 2.3 s, 20,000 5.3 s, 40,000 14.2 s of CPU (ONNX Runtime's sessions and the tables of parts grow
# faster than the parts), and 5-10 KB of memory a part (21 MB at 2,000, 193 MB at 40,000). The estimate used to be
# 2 ms a part, from a 65,536-part view: eight times the cost at 5,000 parts.
PART_SECONDS = 2e-4
PART_PAIR_SECONDS = 4e-9
PART_BYTES = 10 << 10


def view_seconds(nbytes: int, parts: int = 1) -> float:
    """The CPU seconds a view is expected to take, from the bytes it reserves and its parts (ui.shared.admitted)."""
    return nbytes * BYTE_SECONDS + parts * PART_SECONDS + parts * parts * PART_PAIR_SECONDS


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
    transient: bool = False  # the runtime did not answer for the moment: asked again after RETRY_SECONDS


def summarize(report: CrossCheckReport) -> CheckSummary:
    """A CrossCheckReport without its arrays: only what a person reads stays in the cache."""
    fields: dict[str, Any] = dict(runtime=report.runtime, provider=report.provider, available=report.available,
                  matches=report.matches, note=report.note, ort_version=report.ort_version,
                  first_mismatch=report.first_mismatch, transient=report.transient)
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

    @property
    def transient(self) -> bool:
        return self.directml.transient or self.onnxruntime.transient


def retry_later(result: Any) -> int | None:
    """How long to keep a result whose runtime did not answer for the moment (SharedCache's lifetime): RETRY_SECONDS,
    so that the pages waiting for it see it, then it is asked again; None (kept) for a verdict."""
    return RETRY_SECONDS if result.transient else None


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

    return CACHE.get(("check", op, key, attrs), both, lifetime=retry_later)


def check_cost(call: Call) -> tuple[int, float]:
    """(bytes, CPU seconds) a cross-check of `call` holds and takes, on DirectML and ONNX Runtime together."""
    itemsize = numpy_dtype(call.data_type).itemsize
    tensors = sum(math.prod(s) for s in call.input_sizes) + sum(math.prod(s) for s in call.output_sizes)
    return CHECK_COPIES * tensors * itemsize, CHECK_BYTE_SECONDS * tensors * itemsize


def check_soon(call: Call, key: Hashable, make_inputs: Callable[[], Iterable[np.ndarray]]) -> CrossChecks | None:
    """The cross-checks of `call` when they are ready, else None: they are then computed on the CHECKS threads (once
    for every session asking, in this visitor's turn), and a later run finds them in the cache."""
    op, attrs = call.op, call.attrs
    found, checks = CACHE.peek(("check", op, key, attrs))
    if found:
        return checks
    nbytes, seconds = check_cost(call)
    in_background(("check", op, key, attrs), check, op, key, make_inputs, attrs, nbytes=nbytes, seconds=seconds,
                  what="this view's cross-check")
    return None
