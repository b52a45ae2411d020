"""The operator catalogue on DirectML: each example (ops/catalogue) run in the worker, timed, and compared with its
ONNX twin (onnx_twins.py) where it has one. scripts/directml_catalogue.py writes the whole matrix; the CI test runs
it within a time budget."""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from ..catalogue import Example
from ..errors import DescriptorError
from ..tensor_desc import strided_read
from . import directml as dml
from . import onnx_twins

RAN, REFUSED, ABOVE_LEVEL, NOT_SENT = "ran", "refused", "above level", "not sent"


@dataclasses.dataclass(frozen=True)
class Row:
    """One operator's run: `outcome` RAN, REFUSED (by DirectML: `stage`, `reason`), ABOVE_LEVEL (introduced after
    this DirectML's feature level) or NOT_SENT (refused before the worker: the schema or a budget); the seconds the
    call took; the twin's comparison, or why there is none."""

    name: str
    level: str
    outcome: str
    seconds: float
    stage: str = ""
    reason: str = ""
    twin: onnx_twins.Comparison | None = None
    no_twin: str = ""


def outputs(example: Example, result: dml.RunResult) -> dict:
    """DirectML's outputs of a run as logical arrays (their Sizes through their Strides) by output name."""
    packed = dml.pack(example.desc)
    arrays = {}
    for name, tensor, data in zip(result.output_names, packed.outputs, result.outputs):
        if tensor is not None:
            flat = np.frombuffer(data, tensor.dtype, len(data) // tensor.element_size)
            arrays[name] = strided_read(flat, tensor.Sizes, tensor.Strides)
    return arrays


def run(example: Example, seconds=dml.RUN_SECONDS) -> Row:
    """Run one example on DirectML and compare it with its ONNX twin."""
    level = example.schema.level
    started = time.monotonic()
    try:
        result = dml.run_desc(example.desc, example.buffers(), seconds=seconds)
    except DescriptorError as error:
        took = time.monotonic() - started
        outcome = ABOVE_LEVEL if "was introduced in DirectML feature level" in str(error) else NOT_SENT
        return Row(example.name, level, outcome, took, reason=str(error))
    took = time.monotonic() - started
    if not result.ok:
        return Row(example.name, level, REFUSED, took, result.stage, result.reason)
    try:
        comparison = onnx_twins.compare(example.desc, example.inputs, outputs(example, result))
    except onnx_twins.NoTwin as error:
        return Row(example.name, level, RAN, took, no_twin=str(error))
    return Row(example.name, level, RAN, took, twin=comparison)
