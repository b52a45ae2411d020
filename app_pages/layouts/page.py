"""The Layouts page: DML_ELEMENT_WISE_IDENTITY copies one tensor between two buffer layouts set by Sizes and Strides.
Its widgets and its hooks into the operator-page skeleton; it draws its figures itself (memory maps and the copy),
with no picks, steps or quiz."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.layouts import work
from app_pages.layouts.settings import (
    BUFFER_CAP,
    DEFAULTS,
    FIELDS,
    TOTAL_MAX,
    Configuration,
    Controls,
    Layout,
    Side,
    SideFields,
    preset_fields,
)
from ops import LAYOUT_PRESETS, DescriptorError
from ops.datatypes import element_size
from ui import charts, handoff, say, url_state
from ui.errors import PATTERN_FIX
from ui.operator_page import OperatorPage, Refused, render
from ui.say import md
from ui.sidebar import SidebarSettings, valid_at
from ui.values import Values
from viz.export import file_stem


def side_controls(side: str, box: DeltaGenerator) -> SideFields:
    """One side's desc fields, drawn in its group `box`."""
    sizes_key, strides_key, total_key = FIELDS[side]
    with box:
        sizes = url_state.widget(st.text_input, "Sizes", sizes_key, DEFAULTS[sizes_key], max_chars=80,
                                 help="1 to 8 sizes, e.g. 1,3,2,4" if side == "input" else
                                 "blank: the input's Sizes (DirectML requires them equal)")
        strides = url_state.widget(st.text_input, "Strides (in elements)", strides_key, DEFAULTS[strides_key],
                                   max_chars=120, help="one per dimension; blank: packed row-major; 0 broadcasts")
        total = url_state.widget(st.number_input, "TotalTensorSizeInBytes", total_key, DEFAULTS[total_key],
                                 minimum=0, maximum=TOTAL_MAX, step=4,
                                 help="0: the implied size (DMLCalcBufferTensorSize)")
    return SideFields(sizes, strides, int(total))


def memory_maps(layout: Layout, unit: str) -> tuple[dict[str, int], str]:
    """Both buffers' memory maps (when their descs are well-formed); returns the elements per drawn row of each and
    how to read their cells."""
    size = element_size(layout.data_type)
    columns, widths, reading = st.columns(2), {}, ""
    for column, side, role in zip(columns, (layout.input, layout.output), ("input", "output")):
        with column:
            if side.drawable(layout.data_type) is None:
                say.info(md("No memory map for the {}: its desc is malformed (see above).", role))
                continue
            figure, widths[role] = work.buffer_map(side, layout.data_type, size, role,
                                                   f"{role.capitalize()} buffer", unit)
            charts.show(figure, f"ly_map_{role}", file_stem("layout", role, "memory_map"), f"Memory map of the {role}")
            reading = reading or figure.context.reading
    return widths, reading


def usage_line(layout: Layout, reading: str) -> None:
    parts = []
    for side, role, repeated_name in ((layout.input, "Input", "read more than once (broadcast)"),
                                      (layout.output, "Output", "written more than once")):
        untouched, repeated = work.usage(side, layout.data_type)
        parts.append(md("{}: {} elements never touched (padding), {} {}", role, untouched, repeated, repeated_name))
    say.caption(say.join("; ", parts) + md(". {}", reading))


def copy_section(layout: Layout, values: Values, widths: Mapping[str, int]) -> None:
    checks = work.check(layout, values)
    for check in (checks.directml, checks.onnxruntime):
        verdict = "byte-identical" if check.matches else "DIFFERENT" if check.available else "not run"
        runtime = "DirectML" if check.runtime == "directml" else "ONNX Runtime"
        # A runtime that could not run the copy is information, not a fault of the layout.
        show = say.success if check.matches else say.error if check.available else say.info
        # The provider and note name versions ("Mesa 25.0.7-2~bpo12+1", whose ~ struck the line through): data.
        show(md("{} cross-check ({}): {}. {}", runtime, check.provider or "no provider", verdict, check.note),
             icon=":material/verified:" if check.matches else ":material/warning:")
    charts.show(work.logical_picture(layout, values), "ly_logical", "layout_logical", "The logical tensor")
    st.markdown("##### The copy, element by element in the output's memory order")
    st.caption("Play fills the output buffer from its first element to its last; orange marks the elements of the "
               "step, in the input where they are read and in the output where they land. Hover a cell for its "
               "logical index.")
    charts.show(work.copy_picture(layout, values, widths["input"], widths["output"]), "ly_copy", "layout_copy",
                "The copy, element by element in the output's memory order")
    model, cpp = work.exports(layout, values)
    with st.expander("Export: DxDispatch model and C++"):
        # A wrapping row of buttons as wide as their labels: equal columns cut them off in a 800 px window.
        buttons = st.container(horizontal=True, wrap=True)
        buttons.download_button("Download the DxDispatch model (JSON)", model, file_name="identity.json",
                                mime="application/json", key="ly_download_json")
        buttons.download_button("Download the C++ snippet", cpp, file_name="identity.cpp", mime="text/x-c++src",
                                key="ly_download_cpp")
        if buttons.button("Open in Descriptor workbench", key="ly_workbench"):
            handoff.open_model(json.loads(model))
        st.code(cpp, language="cpp")
        st.code(model, language="json")


class LayoutsPage(OperatorPage[Controls, Configuration, Configuration]):
    key = "ly"
    # The operator's name goes under the title: as one 25-letter word it broke mid-word in a 800 px window.
    title = "Layouts"
    introduction = md("**DML_ELEMENT_WISE_IDENTITY** copies one tensor between two buffer layouts: Strides say where "
                      "each element lives.")
    groups = ("InputTensor", "OutputTensor", "Memory maps")
    presets_caption = md(
        "f(x) = x per element, with equal DataType and Sizes on both sides: only where each element lives can "
        "change, and Strides (elements per step along each dimension) say where. A permuted order transposes (NCHW -> "
        "NHWC), a 0 stride broadcasts, larger output strides pad, a long row stride reads a window of a larger buffer "
        "(DirectML: 'Using strides to express padding and memory layout'). DataType, feature level and values are in "
        "the sidebar; values fill the input buffer in memory order.")

    def presets(self, sidebar: SidebarSettings) -> Mapping[str, Mapping[str, Any]]:
        return {name: preset_fields(name, sidebar.data_type) for name in LAYOUT_PRESETS}

    def controls(self, boxes: Sequence[DeltaGenerator], sidebar: SidebarSettings) -> Controls:
        input_box, output_box, map_box = boxes
        inp = side_controls("input", input_box)
        out = side_controls("output", output_box)
        with map_box:
            unit = url_state.widget(st.radio, "Memory maps: one cell per", "ly_unit", "element",
                                    options=("element", "byte"), horizontal=True)
        return Controls(inp, out, unit)

    def line(self, c: Controls, sidebar: SidebarSettings) -> list[str]:
        return ["ELEMENT_WISE_IDENTITY", sidebar.data_type, c.input.text("input") + " → " + c.output.text("output"),
                f"one cell per {c.unit}"]

    def configure(self, c: Controls, sidebar: SidebarSettings) -> Configuration:
        inp = Side.parse("InputTensor", c.input)
        out = Side.parse("OutputTensor", c.output, default_sizes=inp.sizes)
        size = element_size(sidebar.data_type)
        inp.guard("InputTensor", size)
        out.guard("OutputTensor", size)
        return Configuration(Layout(sidebar.data_type, inp, out), c.unit, sidebar.values, sidebar.feature_level)

    def work_bytes(self, c: Configuration) -> int:
        return BUFFER_CAP * 8 * 4

    def work_name(self, c: Configuration) -> str:
        return "this layout"

    def compute(self, c: Configuration) -> None:
        """The input buffer of valid descs, filled with the sidebar's values (typed ones may not fill it)."""
        if not work.problems(c.layout, c.level):
            try:
                work.input_buffer(c.layout, c.values)
            except DescriptorError as exc:
                raise Refused(str(exc), PATTERN_FIX) from None

    def drawn_part(self, c: Configuration) -> Configuration:
        return c

    def draw(self, c: Configuration, steps_on: bool, speed: int) -> None:
        problems = work.problems(c.layout, c.level)
        if problems:
            for problem in problems:
                say.error(problem, icon=":material/error:")
        else:
            say.success(valid_at(c.level), icon=":material/check_circle:")
        widths, reading = memory_maps(c.layout, c.unit)
        if problems:
            say.info(md("The copy is drawn once the descriptors are valid; the maps show what the strides address. {}",
                        reading))
            return
        usage_line(c.layout, reading)
        copy_section(c.layout, c.values, widths)

    def draw_last_valid(self, c: Configuration) -> None:
        layout, unit = c.layout, c.unit
        size = element_size(layout.data_type)
        for side, role in ((layout.input, "input"), (layout.output, "output")):
            if side.drawable(layout.data_type) is not None:
                figure, _ = work.buffer_map(side, layout.data_type, size, role, f"{role.capitalize()} buffer", unit)
                charts.picture(figure, f"ly_last_valid_{role}", f"Last valid view: the {role}'s memory map")


render(LayoutsPage())
