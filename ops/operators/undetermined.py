"""Output elements an operator's documentation leaves open among candidates, and the cross-check's tolerance of them.

DirectML's SCATTER page says of colliding updates "there's no guarantee of which last write wins", and ONNX's
ScatterElements and ScatterND (reduction none) leave duplicate indices undefined: where two or more updates address
one element, a runtime writes one of them, and which one may change from run to run (docs/directml.md, "Gather and
scatter"). The core writes one documented choice there; an operator declares such elements through
`Operator.undetermined`, and the comparison (ops/runtime/report.py) accepts any candidate there and byte equality
only elsewhere.
"""

from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class Undetermined:
    """The elements of one output that may hold any one of their candidates.

    `elements` are flat positions in the output, ascending; the candidates of elements[i] are
    candidates[starts[i]:starts[i + 1]] (the output's type, in the order the operator meets them), each the flat
    element origins[...] of the input `source`. `what` names the candidates in a sentence ("colliding updates"),
    `why` says who leaves the choice open, and `kept` which of them the core writes."""

    elements: np.ndarray
    starts: np.ndarray
    candidates: np.ndarray
    origins: np.ndarray
    source: str
    what: str
    why: str
    kept: str

    @property
    def counts(self) -> np.ndarray:
        """How many candidates each element has."""
        return np.diff(self.starts)
