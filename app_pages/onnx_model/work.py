"""The ONNX model page's work, shared between sessions through the server's cache (ui.shared): the example model's
bytes, a model opened (uploaded bytes keyed by their digest, so a class opening the same file opens it once) and the
cross-check of one of its nodes."""

from __future__ import annotations

import math
from typing import Any, TypedDict

from ops import DescriptorError, cross_check_node, numpy_dtype, open_onnx_model
from ops.frameworks.example_model import example_upscaling_model
from ops.frameworks.onnx_models import OnnxModelReport
from ui.shared import CACHE

EXAMPLE_KEY = "example upscaler"  # the example model's key, where an upload's is its digest


class NodeCheck(TypedDict):
    """A node's cross-check on ONNX Runtime, as the page shows it."""

    available: bool
    matches: bool
    note: str


def example_model() -> bytes:
    """The example upscaler's .onnx bytes, built once for the server."""
    return CACHE.get(("onnx_example_model",), example_upscaling_model)


def model_report(key: str, data: bytes, nbytes: int) -> OnnxModelReport:
    """open_onnx_model of uploaded or example bytes, shared under `key` (a digest or EXAMPLE_KEY); `nbytes`: what
    opening it holds (onnx_models.open_bytes), which is also what the cache charges for keeping it.

    A refusal is kept too: refused models were opened again at every rerun, 2.7 GB each for a file of empty nodes.
    A transient one (the machine too busy to check it in time: ops.isolated.Exceeded) is not the model's answer.
    """
    def open_or_refuse() -> OnnxModelReport | DescriptorError:
        try:
            return open_onnx_model(data)
        except DescriptorError as error:
            if getattr(error, "transient", False):
                raise
            return error

    # The parsed model is protobuf objects the cache cannot walk: charged what opening it was estimated to hold.
    outcome = CACHE.get(("onnx_model", key), open_or_refuse,
                        measure=lambda value: 1024 if isinstance(value, DescriptorError) else nbytes + 65536)
    if isinstance(outcome, DescriptorError):
        raise outcome
    return outcome


def node_check_bytes(settings: dict[str, Any]) -> int:
    """A cross-check's arrays: the inputs, the core's outputs and ONNX Runtime's, in the node's type."""
    shapes = settings.get("InputSizes") or [settings["Sizes"]] + ([settings["BSizes"]] if "BSizes" in settings else [])
    return 3 * sum(math.prod(s) for s in shapes) * numpy_dtype(settings["DataType"]).itemsize


def node_check(key: str, report: OnnxModelReport, index: int) -> NodeCheck:
    """The cross-check of node `index` of the model opened under `key`, shared as a small summary."""
    def run() -> NodeCheck:
        result = cross_check_node(report, index)
        return NodeCheck(available=result.available, matches=result.matches, note=result.note)

    return CACHE.get(("onnx_node_check", key, index), run)
