"""The Layouts page's settings: each side's desc fields (their URL keys), the controls as read, the layout the core
is asked about, the page's drawing limits, and the fields of a layout preset."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ops import DescriptorError, layout_preset
from ops.tensor_desc import last_element_index, parse_tensor_desc
from ui.toolbar import braced
from ui.values import Values, parse_int_list

# The page's fields for each side's Sizes, Strides and TotalTensorSizeInBytes (URL keys).
FIELDS = {"input": ("ly_in_sizes", "ly_in_strides", "ly_in_total"),
          "output": ("ly_out_sizes", "ly_out_strides", "ly_out_total")}
DEFAULTS: dict[str, Any] = dict(ly_in_sizes="3,4", ly_in_strides="", ly_in_total=0, ly_out_sizes="",
                                ly_out_strides="1,3", ly_out_total=0)
# The page draws every element: a logical tensor of at most this many elements, buffers of at most this many.
LOGICAL_CAP = 1024
BUFFER_CAP = 4096
TOTAL_MAX = BUFFER_CAP * 8


@dataclasses.dataclass(frozen=True)
class SideFields:
    """One side's fields as typed: Sizes and Strides texts, TotalTensorSizeInBytes."""

    sizes: str
    strides: str
    total: int

    def text(self, role: str) -> str:
        """As the settings line says them: input {3,4} packed, output {1,3} strides, 52 bytes."""
        sizes = f" {braced(self.sizes)}" if self.sizes.strip() else ""
        strides = f"strides {braced(self.strides)}" if self.strides.strip() else "packed"
        return f"{role}{sizes} {strides}" + (f", {self.total} bytes" if self.total else "")


@dataclasses.dataclass(frozen=True)
class Controls:
    input: SideFields
    output: SideFields
    unit: str  # a memory map's cell: "element" or "byte"


@dataclasses.dataclass(frozen=True)
class Side:
    """One buffer tensor desc as the page's fields give it: Strides None = packed, total 0 = the implied size."""

    sizes: tuple[int, ...]
    strides: tuple[int, ...] | None
    total: int

    def json(self, data_type: str) -> dict[str, Any]:
        obj: dict[str, Any] = {"DataType": data_type, "Sizes": list(self.sizes)}
        if self.strides is not None:
            obj["Strides"] = list(self.strides)
        if self.total:
            obj["TotalTensorSizeInBytes"] = self.total
        return obj

    @classmethod
    def parse(cls, field: str, fields: SideFields, default_sizes: tuple[int, ...] | None = None) -> Side:
        """The side the fields describe; DescriptorError naming the field for text that is not a list."""
        if default_sizes is not None and not fields.sizes.strip():
            sizes = default_sizes
        else:
            sizes = parse_int_list(fields.sizes, f"{field} Sizes")
        strides = parse_int_list(fields.strides, f"{field} Strides", minimum=0) if fields.strides.strip() else None
        return cls(tuple(sizes), None if strides is None else tuple(strides), fields.total)

    def guard(self, field: str, element_size: int) -> None:
        """DescriptorError naming `field` when the page would draw more than it can (before anything is
        allocated)."""
        count = math.prod(self.sizes)
        if count > LOGICAL_CAP:
            raise DescriptorError(f"{field} Sizes {list(self.sizes)}: {count:,} elements; this page draws tensors of "
                                  f"up to {LOGICAL_CAP:,} elements (the library takes more)")
        if self.strides is not None and len(self.strides) == len(self.sizes):
            reach = last_element_index(self.sizes, self.strides) + 1
            if reach > BUFFER_CAP:
                raise DescriptorError(f"{field} Strides {list(self.strides)}: reach element {reach - 1:,}; this page "
                                      f"draws buffers of up to {BUFFER_CAP:,} elements")
        if self.total > BUFFER_CAP * element_size:
            raise DescriptorError(f"{field} TotalTensorSizeInBytes {self.total:,}: this page draws buffers of up to "
                                  f"{BUFFER_CAP:,} elements ({BUFFER_CAP * element_size:,} bytes of this type)")

    def drawable(self, data_type: str) -> tuple[Any, Any, int] | None:
        """(sizes, strides, total bytes) a memory map can draw, or None when the desc is malformed beyond drawing
        (its own problems say why). A TotalTensorSizeInBytes below the implied size is drawn as declared: the map
        then shows the elements that fall outside."""
        obj = self.json(data_type)
        obj.pop("TotalTensorSizeInBytes", None)
        desc, _ = parse_tensor_desc(obj)
        if desc is None:
            return None
        return desc.Sizes, desc.Strides, self.total or desc.TotalTensorSizeInBytes


@dataclasses.dataclass(frozen=True)
class Layout:
    data_type: str
    input: Side
    output: Side

    @property
    def descs(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return self.input.json(self.data_type), self.output.json(self.data_type)


@dataclasses.dataclass(frozen=True)
class Configuration:
    """A layout as the page draws it: the two descs, the memory maps' cell, the input's values and the feature level
    the descs are validated at (the sidebar's)."""

    layout: Layout
    unit: str
    values: Values
    level: str


def preset_fields(name: str, data_type: str) -> dict[str, Any]:
    """The page's fields for a layout preset of ops.LAYOUT_PRESETS at this data type (output Sizes blank: the
    input's)."""
    fields: dict[str, Any] = {}
    for side, desc in zip(FIELDS, layout_preset(name, data_type)):
        sizes_key, strides_key, total_key = FIELDS[side]
        fields[sizes_key] = ",".join(map(str, desc["Sizes"])) if side == "input" else ""
        fields[strides_key] = ",".join(map(str, desc["Strides"])) if "Strides" in desc else ""
        fields[total_key] = desc.get("TotalTensorSizeInBytes", 0)
    return fields
