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


def first_difference(expected, actual):
    """Multi-index of the first element whose bytes differ, or None (shapes and dtypes assumed equal)."""
    bits = unsigned_of_width(expected.dtype.itemsize)
    differing = np.argwhere(np.ascontiguousarray(expected).view(bits) != np.ascontiguousarray(actual).view(bits))
    return tuple(int(i) for i in differing[0]) if len(differing) else None


def compare_outputs(expected, actual, runtime="ONNX Runtime"):
    """(first_mismatch, sentence): first_mismatch is None when every output is byte-identical."""
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e.shape != a.shape or e.dtype != a.dtype:
            return (i, None), (
                f"Output {i} differs in form: core {e.dtype} {list(e.shape)} vs {runtime} {a.dtype} {list(a.shape)}."
            )
        first = first_difference(e, a)
        if first is not None:
            return (i, first), (
                f"Output {i} differs from the reference core first at index {list(first)}: "
                f"core {hex_bits(e[first], e.dtype)} vs {runtime} {hex_bits(a[first], a.dtype)}."
            )
    if len(expected) != len(actual):
        return (min(len(expected), len(actual)), None), (
            f"The core gave {len(expected)} output(s), {runtime} {len(actual)}."
        )
    if len(expected) == 1:
        return None, "The output is byte-identical to the reference core's."
    return None, f"All {len(expected)} outputs are byte-identical to the reference core's."
