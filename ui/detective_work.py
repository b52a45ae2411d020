"""The detective's and the model page's work, shared between sessions through the server's cache.

An example is a function of small settings; an upload or a pasted text is keyed by a digest of its bytes, so
a class uploading the same file (or opening the same example link) identifies it once.
"""

import dataclasses
import hashlib

from ops import DescriptorError, element_cap_set_to, identify, open_onnx_model
from ops.detective.examples import detective_example
from ops.detective.identify import mix_up_diff
from ops.detective.origin import origin_coded_inputs
from viz.detective_fig import detective_figure, diff_figure

from .shared import CACHE, shared

# The detective draws and hovers every cell it can: beyond a million input elements a framework's output is better
# checked on a smaller tensor of the same layout.
DETECTIVE_ELEMENTS = 2**20
# The page's content width at a 1400-pixel window (layout "wide", sidebar open): sizes the figures' square cells.
FIGURE_WIDTH = 940


@dataclasses.dataclass
class Case:
    """Inputs, outputs and what the detective found (figures built once and shared)."""

    xs: list
    ys: list
    report: object
    figure: object
    diff: dict | None
    diff_figure: object


def digest(data):
    return hashlib.sha256(data if isinstance(data, bytes) else data.encode()).hexdigest()


def _frozen(arrays):
    for a in arrays:
        a.flags.writeable = False
    return arrays


def _solve(xs, ys):
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
def inputs(sizes, data_type):
    """The origin-coded inputs (read-only) for a tuple of input sizes."""
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        return _frozen(origin_coded_inputs(sizes, data_type))


@shared
def example_case(name, sizes, data_type):
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        xs, ys = detective_example(name, sizes, data_type)
    return _solve(xs, ys)


def outputs_case(sizes, data_type, outputs_key, read_outputs):
    """The case for outputs the user brought (read by `read_outputs()`), shared under their digest `outputs_key`."""
    def solve():
        xs = [x.copy() for x in inputs(sizes, data_type)]
        with element_cap_set_to(DETECTIVE_ELEMENTS):
            ys = read_outputs()
        return _solve(xs, ys)

    return CACHE.get(("detective_outputs", sizes, data_type, outputs_key), solve)


def model_report(key, data, nbytes):
    """open_onnx_model of uploaded or example bytes, shared under `key` (a digest or the example's name); `nbytes`:
    what opening it holds (onnx_models.open_bytes), which is also what the cache charges for keeping it.

    A refusal is kept too: refused models were opened again at every rerun, 2.7 GB each for a file of empty nodes.
    """
    def open_or_refuse():
        try:
            return open_onnx_model(data)
        except DescriptorError as error:
            return error

    # The parsed model is protobuf objects the cache cannot walk: charged what opening it was estimated to hold.
    outcome = CACHE.get(("onnx_model", key), open_or_refuse,
                        measure=lambda value: 1024 if isinstance(value, DescriptorError) else nbytes + 65536)
    if isinstance(outcome, DescriptorError):
        raise outcome
    return outcome

