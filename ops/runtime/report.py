"""What every cross-check returns, whichever runtime ran it, and how its outputs are compared: byte for byte."""

from __future__ import annotations

import dataclasses
import re

import numpy as np

from ..datatypes import unsigned_of_width


@dataclasses.dataclass
class CrossCheckReport:
    """What a runtime (ONNX Runtime or DirectML) computed for one operator call, next to the core's result."""

    op: str
    provider: str | None
    available: bool
    matches: bool
    expected: list
    actual: list
    note: str
    first_mismatch: tuple | None = None  # (output index, element multi-index), index None if shapes differ
    ort_version: str | None = None
    ran_as: str | None = None  # the data type the provider actually ran on
    reinterpreted: bool = False
    runtime: str = "onnxruntime"  # or "directml"
    # DirectML's own answer whenever it answered (ops.runtime.directml.RunResult: HRESULT, the call that failed,
    # vkd3d-proton's diagnostics), for callers that need them as fields rather than in the note.
    directml_result: object = None
    # Per output, the elements the operator leaves open among candidates (ops.operators.undetermined.Undetermined
    # or None), where any candidate matched: the runtime's choice may differ from the core's there.
    undetermined: tuple = ()
    # The runtime did not answer for the moment (DirectML's worker busy with other calls, or stopped at its deadline
    # and started again): no verdict on the call, which is worth asking again later.
    transient: bool = False

    @property
    def hresult(self) -> int | None:
        """DirectML's HRESULT for the call (0 when it ran), or None when DirectML did not answer."""
        return None if self.directml_result is None else self.directml_result.hresult

    @property
    def stage(self) -> str | None:
        """The DirectML call that failed ("CreateOperator", "CompileOperator", ...); "" when it ran."""
        return None if self.directml_result is None else self.directml_result.stage

    @property
    def diagnostics(self) -> tuple[str, ...]:
        """vkd3d-proton's own error lines during the call: why it failed inside D3D12."""
        return () if self.directml_result is None else tuple(self.directml_result.diagnostics)


class Unavailable(Exception):
    """The runtime cannot run this call; the message says why, for the report."""


def first_line(error):
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    text = re.sub(r"^\[ONNXRuntimeError\] : \d+ : ", "", text)
    return text if len(text) <= 200 else text[:197] + "..."


def hex_bits(value, dtype):
    return f"0x{int(np.array(value, dtype).view(unsigned_of_width(dtype.itemsize))):0{2 * dtype.itemsize}X}"


def _bits(array):
    return np.ascontiguousarray(array).reshape(-1).view(unsigned_of_width(array.dtype.itemsize))


def taken_candidates(undetermined, actual):
    """For each element `undetermined` (an ops.operators.undetermined.Undetermined) leaves open, the number of the
    first of its candidates whose bytes `actual` holds there, -1 where none has them."""
    counts = undetermined.counts
    wrote = np.repeat(_bits(actual)[undetermined.elements], counts)
    hits = np.flatnonzero(wrote == _bits(undetermined.candidates))
    taken = np.full(len(counts), -1, np.int64)
    group = np.searchsorted(undetermined.starts, hits, side="right") - 1
    groups, first = np.unique(group, return_index=True)
    taken[groups] = hits[first] - undetermined.starts[groups]
    return taken


def first_difference(expected, actual, undetermined=None):
    """Multi-index of the first element whose bytes differ, or None (shapes and dtypes assumed equal); where
    `undetermined` leaves an element open, its bytes differ only when they are none of its candidates'."""
    differ = _bits(expected) != _bits(actual)
    if undetermined is not None:
        differ[undetermined.elements] = taken_candidates(undetermined, actual) < 0
    where = np.flatnonzero(differ)
    return tuple(int(i) for i in np.unravel_index(where[0], expected.shape)) if where.size else None


def _open_note(label, expected, actual, open_, runtime):
    """(elements where `runtime` wrote another candidate than `expected`, a sentence saying what it wrote) where
    `open_` leaves elements open, all of them holding one of their candidates."""
    counts = open_.counts
    elsewhere = np.flatnonzero(_bits(expected)[open_.elements] != _bits(actual)[open_.elements])
    elements = f"{len(counts):,} element{'s' if len(counts) > 1 else ''}"
    text = (f"{label}{elements} received {open_.what} ({counts.max():,} at most), which {open_.why}: any of them "
            f"is accepted there, and {runtime} wrote ")
    if not elsewhere.size:
        return 0, text + f"the one the core keeps ({open_.kept}) at each."
    i = int(elsewhere[0])
    k = int(taken_candidates(open_, actual)[i])
    origin = int(open_.origins[open_.starts[i] + k])
    where = [int(c) for c in np.unravel_index(int(open_.elements[i]), expected.shape)]
    return len(elsewhere), text + (f"another than the core's ({open_.kept}) at {len(elsewhere):,} of them: first at "
                                   f"index {where}, candidate {k + 1:,} of {int(counts[i]):,} ({open_.source} "
                                   f"element {origin:,}, flat).")


def compare_outputs(expected, actual, runtime="ONNX Runtime", undetermined=()):
    """(first_mismatch, sentence): first_mismatch is None when every output is byte-identical, but where
    `undetermined` (one ops.operators.undetermined.Undetermined or None per output) leaves an element open among
    candidates, whose bytes must then be one of theirs."""
    notes, chosen_otherwise = [], 0
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e.shape != a.shape or e.dtype != a.dtype:
            return (i, None), (
                f"Output {i} differs in form: core {e.dtype} {list(e.shape)} vs {runtime} {a.dtype} {list(a.shape)}."
            )
        open_ = undetermined[i] if i < len(undetermined) else None
        if open_ is not None and open_.candidates.dtype != e.dtype:  # another expectation than the core's
            open_ = None
        first = first_difference(e, a, open_)
        if first is not None:
            flat = int(np.ravel_multi_index(first, e.shape))
            place = np.searchsorted(open_.elements, flat) if open_ is not None else 0
            if open_ is not None and place < len(open_.elements) and open_.elements[place] == flat:
                return (i, first), (
                    f"Output {i} differs from the reference core first at index {list(first)}: {runtime} wrote "
                    f"{hex_bits(a[first], a.dtype)}, none of the {int(open_.counts[place]):,} {open_.what} there "
                    f"(the core keeps {open_.kept}: {hex_bits(e[first], e.dtype)})."
                )
            return (i, first), (
                f"Output {i} differs from the reference core first at index {list(first)}: "
                f"core {hex_bits(e[first], e.dtype)} vs {runtime} {hex_bits(a[first], a.dtype)}."
            )
        if open_ is not None and len(open_.elements):
            otherwise, note = _open_note(f"Output {i}: " if len(expected) > 1 else "", e, a, open_, runtime)
            chosen_otherwise += otherwise
            notes.append(note)
    if len(expected) != len(actual):
        return (min(len(expected), len(actual)), None), (
            f"The core gave {len(expected)} output(s), {runtime} {len(actual)}."
        )
    whole = "The output is" if len(expected) == 1 else f"All {len(expected)} outputs are"
    if chosen_otherwise:
        return None, " ".join([f"{whole} the reference core's, byte for byte but where a choice is left open.", *notes])
    return None, " ".join([f"{whole} byte-identical to the reference core's.", *notes])
