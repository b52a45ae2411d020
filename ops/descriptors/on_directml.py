"""A loaded DxDispatch model run on DirectML itself: `ops.run_model(model, runtime="directml")`.

Each dispatch goes to the worker (ops/runtime/directml) as DxDispatch would run it (DmlDispatchable.cpp): its desc as
read from DirectML's schema (ops/descriptors/operator_desc.py), created, compiled with the dispatchable's
executionFlags, initialized with the inputs flagged OWNED_BY_DML as the buffers held them at initialization, and
executed on each bound tensor's bytes (TotalTensorSizeInBytes from its binding's offset, the whole region DirectML may
read or write); the outputs' bytes come back into the buffers. Before anything runs, every dispatchable's operator is
checked against the feature level this DirectML build supports, so a model runs whole or is refused at once.
"""

from __future__ import annotations

import numpy as np

from ..errors import DescriptorError
from .dxdispatch import DispatchRecord, bound_regions, read_point
from .operator_desc import OperatorDesc, ScalarUnion


def runtime_desc(desc: OperatorDesc):
    """The worker's OperatorDesc (ops.runtime.directml.descs) of a desc read from a model: the same fields by name, a
    scalar union as its 8 bytes, nested fused activations alike, optional fields left out."""
    from ..runtime.directml import OperatorDesc as WorkerDesc

    fields = {}
    for f in desc.schema.fields:
        value = desc.values[f.name]
        if value is None or (desc.fused and f.nulled_when_fused):
            continue
        if isinstance(value, OperatorDesc):
            value = runtime_desc(value)
        elif isinstance(value, ScalarUnion):
            value = value.bits
        elif isinstance(value, tuple):
            value = [runtime_desc(v) if isinstance(v, OperatorDesc) else v for v in value]
        fields[f.name] = value
    return WorkerDesc(desc.name, fields)


def _levels(loaded, status):
    """DescriptorError for DirectML missing here, or for an operator introduced after its feature level."""
    from ..levels import level_index

    if not status.available:
        raise DescriptorError(f'runtime "directml": DirectML cannot run here: {status.reason}')
    for dispatchable in loaded.dispatchables.values():
        schema = dispatchable.desc.schema
        if level_index(schema.level) > level_index(status.max_feature_level):
            raise DescriptorError(
                f"{dispatchable.type_path}: {schema.full_name} was introduced in feature level {schema.level}; this "
                f"DirectML build supports feature levels up to {status.max_feature_level}, so it cannot run it")


def _budgets(loaded):
    """DescriptorError (OverBudget) for a dispatchable whose desc the schema refuses or whose work is past the
    budget, before any buffer is read: a dispatch records its tensors' logical values, and a broadcast tensor of
    huge Sizes over a 4-byte buffer would have that allocate gigabytes before the work budget refused it."""
    from ..runtime.directml import cost, pack

    for dispatchable in loaded.dispatchables.values():
        try:
            cost.check(pack(runtime_desc(dispatchable.desc)))
        except DescriptorError as error:
            raise DescriptorError(f"{dispatchable.type_path}: cannot run on DirectML: {error}") from None


def dispatcher(loaded, status=None):
    """The function running one dispatch of `loaded` on DirectML (run_model_detailed's contract), once DirectML,
    every dispatchable's feature level and its desc's work are checked. `status`: a DirectMLStatus (by default the
    worker's own)."""
    from ..runtime import directml as dml

    _levels(loaded, dml.directml_status() if status is None else status)
    _budgets(loaded)

    def dispatch(index, command, memory, initial, resources):
        desc = command.dispatchable.desc
        path = f"commands[{index}]"

        def read(points):
            return {p.name: read_point(command, p, memory, initial, resources) for p in points if p.present}

        def regions(points):
            return {p.name: [region for _, _, region in bound_regions(command, p, memory, initial, resources)]
                    for p in points if p.present}

        inputs, before = read(desc.inputs), read(desc.outputs)
        written = regions(desc.outputs)
        given, outputs = _as_bytes(desc, regions(desc.inputs)), _as_bytes(desc, written)
        try:
            result = dml.run_desc(runtime_desc(desc), given, outputs,
                                  flags=command.dispatchable.dispatchable.execution_flags)
        except DescriptorError as error:
            raise DescriptorError(f"{path}: {command.name} ({desc.full_name}) cannot run on DirectML: "
                                  f"{error}") from None
        if not result.ok:
            raise DescriptorError(f"{path}: DirectML refused {command.name} ({desc.full_name}): {result.reason}")
        for name, rs in written.items():
            labels = [p.labels() for p in desc.outputs if p.name == name][0]
            for region, label in zip(rs, labels):
                region[:] = np.frombuffer(result.output(label), np.uint8)
        return DispatchRecord(index, command.name, desc.name, inputs, before, read(desc.outputs))

    return dispatch


def _as_bytes(desc, regions):
    """{field: its buffer's bytes, or a list of them for an array field}, as run_desc takes them."""
    return {name: [bytes(r) for r in rs] if desc.schema.field(name).is_array else bytes(rs[0])
            for name, rs in regions.items()}
