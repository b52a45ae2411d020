"""What the workbench reads from a model, for its reports: each dispatchable against every feature level, every tensor
desc and its size worked out, the statuses and commands of a partly modelled model, and what the cross-check of one
executed dispatch takes. Pure functions of the model's data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ops import FEATURE_LEVELS, DescriptorError
from ops.datatypes import element_size
from ops.descriptors.dxdispatch import DispatchRecord
from ops.descriptors.layouts import identity_descs
from ops.descriptors.partial import ModelInspection, PartialRun
from ops.descriptors.validate import (
    desc_path_of,
    modelled_operator,
    parse_dispatchable,
    read_dispatchable,
    validate_problems,
)
from ops.operators import operator
from ops.tensor_desc import Problem, TensorDesc, join_path, packed_strides, round_up, strided_write
from ui import echo
from viz.memory_map_fig import default_columns
from viz.workbench_fig import AFTER_STOP, PASSED_OVER, RAN, STOPPED


def size_arithmetic(data_type: str, sizes: Sequence[int],
                    strides: Sequence[int] | None = None) -> tuple[list[str], int]:
    """DMLCalcBufferTensorSize written out step by step, as (lines, implied bytes)."""
    itemsize = element_size(data_type)
    if strides is None:
        count = 1
        for size in sizes:
            count *= size
        last = count - 1
        first = f"index_of_last_element = prod(Sizes) - 1 = {' * '.join(map(str, sizes))} - 1 = {last}"
        first = f"(no Strides: packed, i.e. Strides {list(packed_strides(sizes))})\n" + first
    else:
        terms = " + ".join(f"({size}-1)*{stride}" for size, stride in zip(sizes, strides))
        last = sum((size - 1) * stride for size, stride in zip(sizes, strides))
        first = f"index_of_last_element = sum((size_i-1)*stride_i) = {terms} = {last}"
    raw = (last + 1) * itemsize
    implied = round_up(raw, 4)
    return [
        first,
        f"bytes = (index_of_last_element + 1) * element_size = ({last} + 1) * {itemsize} ({data_type}) = {raw}",
        f"bytes = round_up(bytes, 4) = {implied}",
    ], implied


def natural_columns(desc: TensorDesc, unit: str) -> int:
    """The cells per row of a desc's memory map that line its padding up (viz.memory_map_fig.default_columns), a cell
    being one element or one byte."""
    cells_per_element = desc.element_size if unit == "byte" else 1
    return default_columns(desc.Sizes, desc.Strides, desc.buffer_elements) * cells_per_element


def json_kind(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages."""
    kinds = ((bool, "boolean"), (dict, "object"), (list, "array"), (str, "string"), ((int, float), "number"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null")


def dispatchable_items(raw: Any) -> list[tuple[str, str, Any]]:
    """[(name, JSON path, dispatchable)] of a raw model, or [] when it has no dispatchables object."""
    if not isinstance(raw, dict) or not isinstance(raw.get("dispatchables"), dict):
        return []
    return [(name, join_path("dispatchables", name), value) for name, value in raw["dispatchables"].items()]


def level_problems(dispatchable: Any, path: str) -> dict[str, list[Problem]]:
    """{level: [Problem]} for every feature level, the paths starting at `path`."""
    try:
        # Read as DxDispatch reads a model file: exact names; fields it ignores are not problems.
        return {level: validate_problems(dispatchable, level, path, strict=True, notes=[]) for level in FEATURE_LEVELS}
    except DescriptorError as error:
        return {level: [Problem(path, str(error))] for level in FEATURE_LEVELS}


def validation_rows(raw: Any, limit: int | None = None) -> tuple[list[dict[str, str]],
                                                                 dict[str, dict[str, list[Problem]]]]:
    """One row per feature level: {"feature level": ..., <dispatchable>: "ok" or the reasons}, plus details, for the
    first `limit` dispatchables (all if None).

    Details map dispatchable name -> {level: [Problem]}.
    """
    details = {name: level_problems(value, path) for name, path, value in dispatchable_items(raw)[:limit]}
    rows = []
    for level in FEATURE_LEVELS:
        row = {"feature level": level}
        for name, by_level in details.items():
            problems = by_level[level]
            row[name] = "ok" if not problems else f"✗ {len(problems)}: " + " | ".join(str(p) for p in problems)
        rows.append(row)
    return rows, details


def tensor_descs(raw: Any) -> list[tuple[str, TensorDesc, str]]:
    """[(JSON path, TensorDesc, kind)] of every tensor desc that parses, in every DirectML dispatchable of the model
    (any operator of DirectML's schema), kind "input" or "output"."""
    found = []
    for _, path, value in dispatchable_items(raw):
        if not isinstance(value, dict):
            continue
        read, _ = read_dispatchable(value, path, strict=True, notes=[])
        if read is None:
            continue
        desc_path = desc_path_of(value, path)
        for point in read.desc.bind_points:
            for label, desc in zip(point.labels(), point.descs):
                if desc is not None:
                    found.append((join_path(desc_path, point.name) + label[len(point.name):], desc,
                                  "input" if point.is_input else "output"))
    return found


def core_runs(model: dict[str, Any]) -> bool:
    """Whether the core models every dispatchable of a loaded (normalized) model, so ops.run_model runs it."""
    return all(modelled_operator(d, strict=True) for d in model["dispatchables"].values())


def cross_check_call(record: DispatchRecord,
                     dispatchable: dict[str, Any]) -> tuple[list[np.ndarray], dict[str, Any], list[np.ndarray] | None]:
    """(inputs, attrs, expected outputs) for ops.runtime.cross_check from one executed dispatch: the operator's
    fields in C order, its attributes as the registry reads them from the dispatchable."""
    spec = operator(record.operator)
    parsed, problems = parse_dispatchable(dispatchable)
    if parsed is None:
        raise DescriptorError(str(problems[0]) if problems else f"{record.dispatchable}: cannot be read")
    attrs = spec.attrs_of(parsed)
    if spec.copies_between_layouts:
        # The whole strided copy is checked: the input's logical values go back into a buffer through its desc, and
        # ONNX Runtime copies that buffer into the output's layout (ops/runtime/identity_check.py).
        desc = dispatchable["desc"]
        inp, _ = identity_descs(desc["InputTensor"], desc["OutputTensor"])
        buffer = strided_write(np.zeros(inp.buffer_elements, inp.dtype), record.inputs["InputTensor"], inp.Strides)
        return [buffer], {**attrs, "input_desc": desc["InputTensor"], "output_desc": desc["OutputTensor"]}, None

    def arrays(tensors: dict[str, Any], is_input: bool) -> list[np.ndarray]:
        return [array for field in spec.tensor_fields() if field.is_input == is_input
                for array in (tensors[field.name] if isinstance(tensors[field.name], list) else [tensors[field.name]])]

    return arrays(record.inputs, True), attrs, arrays(record.outputs, False)


def status_rows(inspection: ModelInspection) -> list[dict[str, str]]:
    """One row per resource and dispatchable of a partially modelled model, for the status table."""
    return [{"part": join_path(part.section, part.name), "what": part.what, "status": part.status,
             "field": part.path, "why": part.reason, "documented in": part.documentation}
            for part in inspection.parts]


def modelled_part(raw: dict[str, Any], inspection: ModelInspection) -> dict[str, Any]:
    """The raw model with only the dispatchables that name a modelled operator, for validation and the explorer."""
    keep = {part.name for part in inspection.dispatchables if part.operator}
    return {**raw, "dispatchables": {name: value for name, value in raw["dispatchables"].items() if name in keep}}


def skipped_rows(run: PartialRun) -> list[dict[str, str]]:
    return [{"command": f"commands[{step.index}]", "type": step.kind, "why it was skipped": step.reason}
            for step in run.skipped]


def command_steps_partial(raw: dict[str, Any], run: PartialRun) -> list[tuple[int, str, str, str]]:
    """[(index, label, state, reason)] of every command of a partially run model, for the command strip: figure text,
    shortened."""
    skipped = {step.index: step.reason for step in run.skipped}
    steps = []
    for index, command in enumerate(raw["commands"]):
        what = command.get("dispatchable", command.get("resource", "")) if isinstance(command, dict) else ""
        kind = command.get("type", "?") if isinstance(command, dict) else "?"
        label = f"{kind} {what}".strip() if isinstance(what, str) else str(kind)
        if index not in skipped:
            state, reason = RAN, ""
        elif index == run.stopped_at:
            state, reason = STOPPED, skipped[index]
        elif run.stopped_at is not None and index > run.stopped_at:
            state, reason = AFTER_STOP, ""
        else:
            state, reason = PASSED_OVER, skipped[index]
        # Names and reasons come from the model: Plotly would draw the tags in them (ui.echo).
        steps.append((index, echo.figure_text(label, 80), state, echo.figure_text(reason, 160)))
    return steps
