"""One cross-check, two runtimes: the reference core's result next to DirectML's or ONNX Runtime's, byte for byte.

This module only validates the call, chooses the runtime and hands over; each runtime lives in its own module
(onnxruntime_check.py, directml_check.py) and every report is a report.CrossCheckReport.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import DescriptorError
from ..operators import operator
from . import directml_check, onnxruntime_check
from .report import CrossCheckReport

RUNTIMES = ("directml", "onnxruntime")


def _runtime_choice(runtime, provider):
    if runtime is not None and runtime not in RUNTIMES:
        raise DescriptorError(f"runtime {runtime!r}: must be one of {', '.join(RUNTIMES)} (or None: DirectML where "
                              "it can run the call, else ONNX Runtime)")
    if provider is not None and not isinstance(provider, str):
        raise DescriptorError(f"provider {provider!r}: must be the name of an ONNX Runtime execution provider")
    if provider is not None and runtime == "directml":
        raise DescriptorError(f"provider {provider!r}: names an ONNX Runtime execution provider, not a DirectML one")
    # Naming an ONNX Runtime provider asks for ONNX Runtime.
    return "onnxruntime" if provider is not None else runtime


def _chosen(runtime, on_directml, on_onnxruntime):
    """The report of the runtime asked for; by default DirectML's, or ONNX Runtime's saying why DirectML did not run."""
    if runtime == "onnxruntime":
        return on_onnxruntime()
    report = on_directml()
    if report.available or runtime == "directml":
        return report
    fallback = on_onnxruntime()
    fallback.note = f"{report.note} ONNX Runtime ran it instead. {fallback.note}"
    return fallback


def _identity_cross_check(inputs, provider, expected, attrs, runtime):
    """ELEMENT_WISE_IDENTITY works on buffers through two descs: inputs = [input buffer] or [input buffer, output
    buffer's previous contents]; attrs input_desc and output_desc (ops/runtime/identity_check.py), and scale_bias
    ({"Scale": s, "Bias": b}, DML_SCALE_BIAS), which only DirectML itself computes as the core does."""
    from ..descriptors.layouts import element_wise_identity, identity_descs
    from .identity_check import identity_cross_check

    if isinstance(inputs, np.ndarray) or not isinstance(inputs, (list, tuple)) or len(inputs) not in (1, 2):
        raise DescriptorError("inputs: ELEMENT_WISE_IDENTITY takes [input buffer] or [input buffer, output buffer]")
    unknown = sorted(set(attrs) - {"input_desc", "output_desc", "scale_bias"})
    if unknown:
        raise DescriptorError(f"{unknown[0]}: not an attribute of ELEMENT_WISE_IDENTITY; accepted: input_desc, "
                              "output_desc, scale_bias")
    for needed in ("input_desc", "output_desc"):
        if needed not in attrs:
            raise DescriptorError(f"{needed}: required by ELEMENT_WISE_IDENTITY")
    if expected is not None and (not isinstance(expected, (list, tuple)) or len(expected) != 1):
        raise DescriptorError("expected: ELEMENT_WISE_IDENTITY has one output, the output buffer")
    runtime = _runtime_choice(runtime, provider)
    source = inputs[0]
    previous = inputs[1] if len(inputs) == 2 else None
    scale_bias = attrs.get("scale_bias")
    inp, out = identity_descs(attrs["input_desc"], attrs["output_desc"], scale_bias=scale_bias)
    target = (element_wise_identity(source, inp, out, previous, scale_bias=scale_bias) if expected is None
              else np.asarray(expected[0]))
    before = np.zeros(out.buffer_elements, out.dtype) if previous is None else previous[: out.buffer_elements]

    def on_onnxruntime():
        if scale_bias is None:
            return identity_cross_check(source, inp, out, previous, provider, target)
        return CrossCheckReport("ELEMENT_WISE_IDENTITY", None, False, False, [target], [], note=(
            "No ONNX Runtime graph of ScaleBias is built here: DirectML truncates toward zero when it converts the "
            "float32 result to FLOAT16 or an integer type (saturating integers), where ONNX's Cast rounds to nearest "
            "and does not saturate (ops/operators/identity/scale_bias.py)."))

    return _chosen(runtime, lambda: directml_check.run_identity(source, inp, out, before, target, scale_bias),
                   on_onnxruntime)


def cross_check(op: str, inputs: Sequence[np.ndarray], provider: str | None = None,
                expected: Sequence[np.ndarray] | None = None, runtime: str | None = None,
                **attrs: Any) -> CrossCheckReport:
    """Run `op` on DirectML or ONNX Runtime and compare its outputs byte for byte with the reference core's; where
    the operator leaves an element open among candidates (Operator.undetermined: a scatter's colliding updates), any
    of them matches, and the note says which the runtime wrote.

    `attrs` are the core function's keyword arguments (block_size, order; axis, sizes; axis; input_desc and
    output_desc for ELEMENT_WISE_IDENTITY). An invalid configuration raises DescriptorError before any runtime is
    touched. `runtime` is "directml" (the real DirectML library, ops/runtime/directml), "onnxruntime", or None:
    DirectML where it can run the call, else ONNX Runtime, whose report then begins with DirectML's reason.
    `provider` names an ONNX Runtime execution provider (and so asks for ONNX Runtime). A runtime that cannot run
    the call gives a report with available=False saying why, never an exception. `expected` replaces the core's
    outputs as the comparison target (the core still validates the call), for checking the check.
    """
    spec = operator(op, "op")
    if spec.copies_between_layouts:
        return _identity_cross_check(inputs, provider, expected, attrs, runtime)
    if isinstance(inputs, np.ndarray) or not isinstance(inputs, (list, tuple)):
        raise DescriptorError(f"inputs: expected a list of arrays, got {type(inputs).__name__}")
    spec.check_arity(len(inputs))
    attrs = spec.canonical_attrs(attrs)
    core_outputs = spec.run(list(inputs), **attrs)
    runtime = _runtime_choice(runtime, provider)
    expected = core_outputs if expected is None else [np.asarray(e) for e in expected]
    # Elements the operator leaves open among candidates (a scatter's colliding updates): any candidate matches.
    undetermined = spec.undetermined(list(inputs), **attrs)
    return _chosen(runtime,
                   lambda: directml_check.run_operator(spec.name, list(inputs), attrs, expected, undetermined),
                   lambda: onnxruntime_check.run_operator(spec.name, inputs, attrs, expected, provider, undetermined))
