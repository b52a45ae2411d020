"""The workbench's heavy work, shared between sessions through the server's cache, keyed by the model text's digest.

A class opening one workbench link used to run the model, draw its heatmaps and cross-check its dispatches once per
visitor: 30 visitors on one heavy link waited 55 s each where one took 1.35 s. Here a run is kept as what the page
shows of it (its printed lines, and for each drawn dispatch its heatmaps and cross-check verdict), computed once per
model for the whole server: a run's own arrays (up to 128 MB) are too large to keep, so keeping them would have meant
running again for every visitor. The others wait for that computation (serve.cache.SharedCache) and share it.

Every run is held here to the workbench's element cap (a model is untrusted data) and admitted to the work budget.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, cast

import numpy as np

from ops import DescriptorError, cross_check, run_model_partial
from ops.descriptors.dxdispatch import DispatchRecord, model_run_bytes, run_byte_budget, run_model_detailed
from ops.descriptors.partial import PartialRun
from ops.guard import element_cap_set_to
from ui import echo
from ui.shared import CACHE, admitted, shared
from ui.work import CHECK_BYTE_SECONDS, retry_later, view_seconds
from viz.memory_map_fig import memory_map_figure
from viz.spec import SpecFigure
from viz.workbench_fig import color_limits, tensor_heatmap

from .reading import cross_check_call
from .settings import ELEMENT_CAP

# Each dispatch drawn costs a few figures and, when checking, an ONNX Runtime session: a model may hold thousands.
MAX_DRAWN_DISPATCHES = 12
# A dispatch's own work in a run (the registry's call, its records kept for display), measured (support/costs.py):
# 4,096 identity dispatches of 256 elements took 1.25-1.39 s of CPU, 1,024 of them 0.45 s; the estimate counted their
# bytes only (0.05 s), so a 2 KB link of 4,096 dispatches ran as a light view beside a class.
DISPATCH_SECONDS = 3.5e-4
DISPATCH_BYTES = 4 << 10  # its record's objects and its command in the parsed model (30 MB for those 4,096)
# A cross-check's verdict as (available, matches, provider, note), or the message of a cross-check that was refused.
Check = tuple[bool, bool, str | None, str] | str


@dataclasses.dataclass(frozen=True)
class Heatmap:
    key: str  # the chart's widget key
    title: str  # as text (the figure's own title is Plotly-escaped: ui.echo)
    figure: SpecFigure


@dataclasses.dataclass(frozen=True)
class DispatchTensors:
    """What the page draws of one dispatch that ran: its inputs' heatmaps, each output's before and after."""

    index: int  # its command's
    dispatchable: str
    operator: str
    inputs: tuple[Heatmap, ...]
    outputs: tuple[tuple[Heatmap, Heatmap], ...]  # (before, after) pairs


@dataclasses.dataclass(frozen=True)
class DrawnDispatch(DispatchTensors):
    """A dispatch the core ran, drawn, and its cross-check."""

    check: Check
    transient: bool = False  # the check's runtime did not answer for the moment (ui.work.retry_later)


@dataclasses.dataclass(frozen=True)
class RunView:
    prints: tuple[str, ...]
    dxdispatch_prints: tuple[str, ...]
    drawn: tuple[DrawnDispatch, ...]  # the first dispatches
    dispatches: int  # how many dispatches ran

    @property
    def transient(self) -> bool:
        return any(d.transient for d in self.drawn)


def _bound_arrays(values: Any, field: str, bindings: dict[str, Any]) -> list[tuple[str, str, np.ndarray]]:
    """[(label, resource name, array)] of a record's field, one per array element for array fields."""
    bound = bindings[field]
    if isinstance(values, list):
        return [(f"{field}[{i}]", b["name"], v) for i, (v, b) in enumerate(zip(values, bound))]
    return [(field, bound["name"], values)]


def _heatmap(key: str, title: str, array: np.ndarray, zrange: tuple[float, float] | None = None) -> Heatmap:
    return Heatmap(key, title, tensor_heatmap(array, echo.figure_text(title), zrange))


def tensor_heatmaps(record: DispatchRecord, command: dict[str, Any],
                    dispatchable: dict[str, Any]) -> tuple[tuple[Heatmap, ...], tuple[tuple[Heatmap, Heatmap], ...]]:
    """(the inputs' Heatmaps, (before, after) Heatmap pairs of the outputs) of a dispatch that ran, any operator's:
    `command` is the model's command it ran, `dispatchable` the dispatchable it names."""
    index = record.command_index
    # OWNED_BY_DML inputs are bound in the dispatchable (at initialization), the others in the command.
    bindings = {**dispatchable.get("bindings", {}), **command["bindings"]}
    inputs = tuple(_heatmap(f"wb_in_{index}_{label}", f"{label} {list(array.shape)} from {resource}", array)
                   for field, values in record.inputs.items()
                   for label, resource, array in _bound_arrays(values, field, bindings))
    outputs = []
    for field, after in record.outputs.items():
        pairs = zip(_bound_arrays(record.outputs_before[field], field, bindings), _bound_arrays(after, field, bindings))
        for (label, resource, old), (_, _, new) in pairs:
            zrange = color_limits(old, new)
            outputs.append((_heatmap(f"wb_before_{index}_{label}", f"{label} {list(old.shape)} in {resource}: before",
                                     old, zrange),
                            _heatmap(f"wb_after_{index}_{label}", f"{label} {list(new.shape)} in {resource}: after",
                                     new, zrange)))
    return inputs, tuple(outputs)


def _drawn(record: DispatchRecord, command: dict[str, Any], dispatchable: dict[str, Any]) -> DrawnDispatch:
    inputs, outputs = tensor_heatmaps(record, command, dispatchable)
    check: Check
    try:
        call_inputs, attrs, expected = cross_check_call(record, dispatchable)
        report = cross_check(record.operator, call_inputs, expected=expected, **attrs)
        check, transient = (report.available, report.matches, report.provider, report.note), report.transient
    except DescriptorError as error:
        check, transient = str(error), False
    return DrawnDispatch(record.command_index, record.dispatchable, record.operator, inputs, outputs, check, transient)


def drawn(key: str, record: DispatchRecord, command: dict[str, Any], dispatchable: dict[str, Any]) -> DrawnDispatch:
    """The DrawnDispatch of a dispatch that ran of the model `key` (its text's digest): `command` is the model's
    command it ran, `dispatchable` the dispatchable it names."""
    return CACHE.get(("wb_drawn", key, record.command_index), lambda: _drawn(record, command, dispatchable),
                     lifetime=retry_later)


def run_view(key: str, model: dict[str, Any]) -> RunView:
    """The RunView of the loaded model whose text has digest `key`, its first MAX_DRAWN_DISPATCHES dispatches drawn;
    DescriptorError when the run stops, Busy when the work budget cannot hold it."""
    def view() -> RunView:
        result = run_model_detailed(model)
        shown = tuple(drawn(key, record, model["commands"][record.command_index],
                            model["dispatchables"][record.dispatchable])
                      for record in result.dispatches[:MAX_DRAWN_DISPATCHES])
        return RunView(tuple(result.prints), tuple(result.dxdispatch_prints), shown, len(result.dispatches))

    with element_cap_set_to(ELEMENT_CAP):
        # The estimate is counted from the descs before anything is allocated (model_run_bytes).
        nbytes, seconds = run_cost(model)
        with admitted(nbytes, "this model's run", seconds=seconds):
            return CACHE.get(("wb_run_view", key), view, lifetime=retry_later)


def run_cost(model: dict[str, Any]) -> tuple[int, float]:
    """(bytes, CPU seconds) a run and its view hold and take: its tensors (model_run_bytes), each dispatch's own work
    and records, the drawn dispatches' figures and cross-checks."""
    nbytes = model_run_bytes(model)
    dispatches = sum(command["type"] == "dispatch" for command in model["commands"])
    drawn_share = min(1.0, MAX_DRAWN_DISPATCHES / max(dispatches, 1))
    return (int(nbytes * (1 + drawn_share)) + DISPATCH_BYTES * dispatches,
            view_seconds(nbytes) + DISPATCH_SECONDS * dispatches + CHECK_BYTE_SECONDS * nbytes * drawn_share)


def partial_run(key: str, raw: dict[str, Any]) -> PartialRun | None:
    """The partial run of a model this project does not model whole, or None when it models every part (or cannot
    read the model); Busy when the work budget cannot hold it."""
    try:
        with element_cap_set_to(ELEMENT_CAP):
            # Its strict run of the modelled part is held to one run's budget, so that budget is what it may need.
            with admitted(run_byte_budget(), "this model's partial run"):
                run = CACHE.get(("wb_partial", key), lambda: run_model_partial(raw))
    except DescriptorError:
        return None
    return None if run.inspection.fully_modelled else run


def partial_dispatches(key: str, run: PartialRun) -> tuple[Iterator[DrawnDispatch], int]:
    """(DrawnDispatch of the first MAX_DRAWN_DISPATCHES dispatches a partial run ran, made one by one as they are
    drawn; how many it ran)."""
    dispatchables = {} if run.model is None else run.model["dispatchables"]  # no model loaded: no dispatch ran
    # A dispatch's RanCommand holds its DispatchRecord (ops.descriptors.partial declares it an object).
    ran = [(step.command, cast(DispatchRecord, step.record)) for step in run.ran if step.kind == "dispatch"]
    shown = (drawn(key, record, command, dispatchables[record.dispatchable])
             for command, record in ran[:MAX_DRAWN_DISPATCHES])
    return shown, len(ran)


@shared
def memory_map(sizes: tuple[int, ...], strides: tuple[int, ...] | None, element_size: int, declared: int, role: str,
               unit: str, columns: int, title: str) -> SpecFigure:
    """The explorer's memory map of one desc (viz.memory_map_fig), shared: sizes and strides as tuples."""
    return memory_map_figure(list(sizes), None if strides is None else list(strides), element_size, declared,
                             role=role, unit=unit, columns=columns, title=title)
