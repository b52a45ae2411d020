"""What the Layouts page computes, shared between sessions (ui.shared): one computation per distinct view."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ops import cpp_snippet, cross_check, element_wise_identity, layout_preset, memory_map
from ops.descriptors.layouts import copy_order, identity_dispatchable, identity_model, identity_problems, logical_tensor
from ops.tensor_desc import element_offsets, packed_strides, parse_tensor_desc
from ui.shared import shared
from ui.values import Values
from ui.work import CrossChecks, check_both, tensor
from viz.layouts_fig import copy_figure, layout_columns, logical_figure
from viz.memory_map_fig import memory_map_figure
from viz.spec import SpecFigure

from .settings import Layout, Side


@shared
def overview_picture() -> SpecFigure:
    """The Overview's picture: NCHW -> NHWC of origin-coded UINT16, the copy finished."""
    inp, out = layout_preset("NCHW -> NHWC", "UINT16")
    source = np.arange(24, dtype=np.uint16)
    return copy_figure(copy_order(inp, out), source, np.zeros(24, np.uint16), 4, 12)


@shared
def problems(layout: Layout, level: str) -> tuple[str, ...]:
    return tuple(identity_problems(*layout.descs, level))


@shared
def buffer_map(side: Side, data_type: str, element_size: int, role: str, title: str,
               unit: str = "element") -> tuple[SpecFigure, int]:
    """(memory map figure, elements per drawn row); with unit "byte" a row holds the same elements' bytes."""
    drawn = side.drawable(data_type)
    assert drawn is not None, "only a drawable desc has a memory map"
    sizes, strides, total = drawn
    effective = strides if strides is not None else packed_strides(sizes)
    columns = layout_columns(sizes, effective, -(-total // element_size))
    cells = columns * (element_size if unit == "byte" else 1)
    figure = memory_map_figure(sizes, strides, element_size, total, role=role, unit=unit, columns=cells, title=title)
    return figure, columns


@shared
def usage(side: Side, data_type: str) -> tuple[int, int]:
    """ops.memory_map's counts of a valid desc: (elements never touched, elements touched more than once)."""
    mapped = memory_map(side.json(data_type))
    return int(mapped.untouched.sum()), int(mapped.repeated.sum())


@shared
def input_buffer(layout: Layout, values: Values) -> np.ndarray:
    """The whole input buffer (TotalTensorSizeInBytes of it) filled with the sidebar's pattern in memory order."""
    inp = parse_tensor_desc(layout.input.json(layout.data_type))[0]
    return tensor(values, (inp.buffer_elements,))


@shared
def copied(layout: Layout, values: Values) -> tuple[Any, ...]:
    """(input buffer, output buffer before (zeros), output buffer after, logical tensor, copy steps)."""
    source = input_buffer(layout, values)
    in_desc, out_desc = layout.descs
    after = element_wise_identity(source, in_desc, out_desc)
    before = np.zeros_like(after)
    logical = logical_tensor(source, in_desc)
    for array in (after, before, logical):
        array.flags.writeable = False
    return source, before, after, logical, tuple(copy_order(in_desc, out_desc))


@shared
def logical_picture(layout: Layout, values: Values) -> SpecFigure:
    _, _, _, logical, _ = copied(layout, values)
    sizes = logical.shape
    return logical_figure(logical, element_offsets(sizes, layout.input.strides),
                          element_offsets(sizes, layout.output.strides))


@shared
def copy_picture(layout: Layout, values: Values, in_columns: int, out_columns: int) -> SpecFigure:
    source, before, _, _, steps = copied(layout, values)
    return copy_figure(list(steps), source, before, in_columns, out_columns)


@shared
def check(layout: Layout, values: Values) -> CrossChecks:
    source = input_buffer(layout, values)
    inp, out = layout.descs
    return check_both(lambda runtime: cross_check("ELEMENT_WISE_IDENTITY", [source], input_desc=inp, output_desc=out,
                                                  runtime=runtime))


@shared
def exports(layout: Layout, values: Values) -> tuple[str, str]:
    """(DxDispatch model JSON text, C++ text) for this copy."""
    model = identity_model(input_buffer(layout, values), *layout.descs)
    return json.dumps(model, indent=2), cpp_snippet(identity_dispatchable(*layout.descs))
