"""The operator catalogue on DirectML: each example (ops/catalogue) run in the worker, timed, and compared with its
ONNX twin (onnx_twins.py) where it has one. scripts/directml_catalogue.py writes the whole matrix to
docs/directml_catalogue.md; tests/directml/test_directml_catalogue.py runs it in CI.

KNOWN holds what this DirectML build does that the catalogue does not expect, with the diagnosis and its evidence:
an operator it refuses, a twin it disagrees with. Everything else up to its feature level runs and agrees.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from .. import catalogue
from ..errors import DescriptorError
from ..tensor_desc import strided_read
from . import directml as dml
from . import onnx_twins

RAN, REFUSED, ABOVE_LEVEL, NOT_SENT = "ran", "refused by DirectML", "after this feature level", "refused before"

# Operator -> (what happens here, the diagnosis). Evidence: tests/directml/test_directml_catalogue.py.
KNOWN = {
    "ROI_ALIGN_GRAD": (REFUSED, "lavapipe refuses the compute pipeline vkd3d-proton 2.14 builds from DirectML's "
                                "DXIL shader (vkCreateComputePipelines fails; vkd3d-proton's log prints 'hr 0' "
                                "because it formats the HRESULT, not the VkResult). The SPIR-V, dumped with "
                                "VKD3D_SHADER_DUMP_PATH, fails spirv-val: a block leaves a selection construct "
                                "other than through its merge block (unstructured control flow out of dxil-spirv). "
                                "Both interpolation modes and either gradient output alone fail alike "
                                "(ReductionFunction MAX is refused earlier, by CreateOperator); a GPU driver may "
                                "accept what lavapipe refuses"),
    "DYNAMIC_QUANTIZE_LINEAR": ("differs", "DirectML's OutputScaleTensor and OutputZeroPointTensor come from the "
                                           "even-indexed elements only: their range, which includes 0 as ONNX's "
                                           "does, is 5 for a 5 among 1s at an even index and 1 at an odd one, for "
                                           "8 to 1,000 elements; the quantization then applies that scale to "
                                           "every element"),
}


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


def outputs(example: catalogue.Example, result: dml.RunResult) -> dict:
    """DirectML's outputs of a run as logical arrays (their Sizes through their Strides) by output name."""
    packed = dml.pack(example.desc)
    arrays = {}
    for name, tensor, data in zip(result.output_names, packed.outputs, result.outputs):
        if tensor is not None:
            flat = np.frombuffer(data, tensor.dtype, len(data) // tensor.element_size)
            arrays[name] = strided_read(flat, tensor.Sizes, tensor.Strides)
    return arrays


def run(example: catalogue.Example, seconds=dml.RUN_SECONDS) -> Row:
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


@dataclasses.dataclass(frozen=True)
class Matrix:
    """The whole catalogue's run: its rows, how long it took, the worker's resident memory at its start and at its
    peak over every call (MB), and how many workers started."""

    rows: tuple
    seconds: float
    start_mb: float
    peak_mb: float
    workers: int


def run_all(examples=None, seconds=dml.RUN_SECONDS, progress=None) -> Matrix:
    """Every example (by default the whole catalogue) in one worker, in DML_OPERATOR_TYPE order."""
    worker = dml._worker()
    dml.directml_status()  # the worker's start is not counted in the first operator's time
    start_mb = worker._rss / 2**20
    starts = worker.starts
    started = time.monotonic()
    rows = []
    for example in catalogue.examples() if examples is None else examples:
        rows.append(run(example, seconds))
        if progress is not None:
            progress(rows[-1])
    return Matrix(tuple(rows), time.monotonic() - started, start_mb, worker.peak_rss / 2**20,
                  worker.starts - starts + 1)
