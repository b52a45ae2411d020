"""What the Layouts page computes, as shared functions of its settings (one computation per distinct view)."""

import dataclasses
import json
import math

import numpy as np

from ops import DescriptorError, cpp_snippet, cross_check, element_wise_identity, layout_preset, memory_map
from ops.descriptors.layouts import copy_order, identity_dispatchable, identity_model, identity_problems, logical_tensor
from ops.tensor_desc import element_offsets, last_element_index, packed_strides, parse_tensor_desc
from viz.layouts_fig import copy_figure, layout_columns, logical_figure
from viz.memory_map_fig import memory_map_figure

from .shared import shared
from .work import check_both, values

# The page's fields for each side's Sizes, Strides and TotalTensorSizeInBytes (URL keys).
FIELDS = {"input": ("ly_in_sizes", "ly_in_strides", "ly_in_total"),
          "output": ("ly_out_sizes", "ly_out_strides", "ly_out_total")}
# The page draws every element: a logical tensor of at most this many elements, buffers of at most this many.
LOGICAL_CAP = 1024
BUFFER_CAP = 4096


@dataclasses.dataclass(frozen=True)
class Side:
    """One buffer tensor desc as the page's fields give it: Strides None = packed, total 0 = the implied size."""

    sizes: tuple
    strides: tuple | None
    total: int

    def json(self, data_type):
        obj = {"DataType": data_type, "Sizes": list(self.sizes)}
        if self.strides is not None:
            obj["Strides"] = list(self.strides)
        if self.total:
            obj["TotalTensorSizeInBytes"] = self.total
        return obj


@dataclasses.dataclass(frozen=True)
class Layout:
    data_type: str
    input: Side
    output: Side

    @property
    def descs(self):
        return self.input.json(self.data_type), self.output.json(self.data_type)


def guard(side, field, element_size):
    """DescriptorError naming `field` when the page would draw more than it can (before anything is allocated)."""
    count = math.prod(side.sizes)
    if count > LOGICAL_CAP:
        raise DescriptorError(f"{field} Sizes {list(side.sizes)}: {count:,} elements; this page draws tensors of up "
                              f"to {LOGICAL_CAP:,} elements (the library takes more)")
    if side.strides is not None and len(side.strides) == len(side.sizes):
        reach = last_element_index(side.sizes, side.strides) + 1
        if reach > BUFFER_CAP:
            raise DescriptorError(f"{field} Strides {list(side.strides)}: reach element {reach - 1:,}; this page "
                                  f"draws buffers of up to {BUFFER_CAP:,} elements")
    if side.total > BUFFER_CAP * element_size:
        raise DescriptorError(f"{field} TotalTensorSizeInBytes {side.total:,}: this page draws buffers of up to "
                              f"{BUFFER_CAP:,} elements ({BUFFER_CAP * element_size:,} bytes of this type)")


def drawable(side, data_type):
    """(sizes, strides, total bytes) a memory map can draw, or None when the desc is malformed beyond drawing
    (its own problems say why). A TotalTensorSizeInBytes below the implied size is drawn as declared: the map
    then shows the elements that fall outside."""
    obj = side.json(data_type)
    obj.pop("TotalTensorSizeInBytes", None)
    desc, problems = parse_tensor_desc(obj)
    if desc is None:
        return None
    return desc.Sizes, desc.Strides, side.total or desc.TotalTensorSizeInBytes


def preset_fields(name, data_type):
    """The page's fields for a layout preset of ops.LAYOUT_PRESETS at this data type (output Sizes blank: the
    input's)."""
    fields = {}
    for side, desc in zip(FIELDS, layout_preset(name, data_type)):
        sizes_key, strides_key, total_key = FIELDS[side]
        fields[sizes_key] = ",".join(map(str, desc["Sizes"])) if side == "input" else ""
        fields[strides_key] = ",".join(map(str, desc["Strides"])) if "Strides" in desc else ""
        fields[total_key] = desc.get("TotalTensorSizeInBytes", 0)
    return fields


@shared
def overview_picture():
    """The Overview's picture: NCHW -> NHWC of origin-coded UINT16, the copy finished."""
    inp, out = layout_preset("NCHW -> NHWC", "UINT16")
    source = np.arange(24, dtype=np.uint16)
    return copy_figure(copy_order(inp, out), source, np.zeros(24, np.uint16), 4, 12)


@shared
def problems(layout, level):
    return tuple(identity_problems(*layout.descs, level))


@shared
def buffer_map(side, data_type, element_size, role, title, unit="element"):
    """(memory map figure, elements per drawn row); with unit "byte" a row holds the same elements' bytes."""
    sizes, strides, total = drawable(side, data_type)
    effective = strides if strides is not None else packed_strides(sizes)
    columns = layout_columns(sizes, effective, -(-total // element_size))
    cells = columns * (element_size if unit == "byte" else 1)
    figure = memory_map_figure(sizes, strides, element_size, total, role=role, unit=unit, columns=cells, title=title)
    return figure, columns


@shared
def usage(side, data_type):
    """ops.memory_map's counts of a valid desc: (elements never touched, elements touched more than once)."""
    mapped = memory_map(side.json(data_type))
    return int(mapped.untouched.sum()), int(mapped.repeated.sum())


@shared
def input_buffer(layout, spec):
    """The whole input buffer (TotalTensorSizeInBytes of it) filled with the sidebar's pattern in memory order."""
    inp = parse_tensor_desc(layout.input.json(layout.data_type))[0]
    return values(spec, (inp.buffer_elements,))


@shared
def copied(layout, spec):
    """(input buffer, output buffer before (zeros), output buffer after, logical tensor, copy steps)."""
    source = input_buffer(layout, spec)
    in_desc, out_desc = layout.descs
    after = element_wise_identity(source, in_desc, out_desc)
    before = np.zeros_like(after)
    logical = logical_tensor(source, in_desc)
    for array in (after, before, logical):
        array.flags.writeable = False
    return source, before, after, logical, tuple(copy_order(in_desc, out_desc))


@shared
def logical_picture(layout, spec):
    _, _, _, logical, _ = copied(layout, spec)
    sizes = logical.shape
    return logical_figure(logical, element_offsets(sizes, layout.input.strides),
                          element_offsets(sizes, layout.output.strides))


@shared
def copy_picture(layout, spec, in_columns, out_columns):
    source, before, _, _, steps = copied(layout, spec)
    return copy_figure(list(steps), source, before, in_columns, out_columns)


@shared
def check(layout, spec):
    source = input_buffer(layout, spec)
    inp, out = layout.descs
    return check_both(lambda runtime: cross_check("ELEMENT_WISE_IDENTITY", [source], input_desc=inp, output_desc=out,
                                                  runtime=runtime))


@shared
def exports(layout, spec):
    """(DxDispatch model JSON text, C++ text) for this copy."""
    model = identity_model(input_buffer(layout, spec), *layout.descs)
    return json.dumps(model, indent=2), cpp_snippet(identity_dispatchable(*layout.descs))
