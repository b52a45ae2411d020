"""Layouts page: DML_ELEMENT_WISE_IDENTITY copies one tensor between two buffer layouts set by Sizes and Strides."""

import json

import streamlit as st

from ops import LAYOUT_PRESETS, DescriptorError
from ops.datatypes import element_size
from ui import charts, say, url_state
from ui import layouts_work as lw
from ui.pages import WORKBENCH
from ui.panels import WORKBENCH_KEY, show_busy, show_error
from ui.say import md
from ui.shared import Busy, admitted
from ui.sidebar import current_settings, valid_at
from ui.toolbar import braced, intro, summary, toolbar
from ui.values import parse_int_list
from viz.export import file_stem

TOTAL_MAX = lw.BUFFER_CAP * 8
DEFAULTS = dict(ly_in_sizes="3,4", ly_in_strides="", ly_in_total=0, ly_out_sizes="", ly_out_strides="1,3",
                ly_out_total=0)
FIELDS = lw.FIELDS


def apply_layout_preset(name):
    url_state.put_many(lw.preset_fields(name, current_settings().data_type))


def side_controls(side, box):
    """One side's desc fields, drawn in its toolbar popover `box`."""
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
    return sizes, strides, int(total)


def side_text(role, sizes_text, strides_text, total):
    """One side's fields as the settings line says them: input {3,4} packed, output {1,3} strides, 52 bytes."""
    sizes = f" {braced(sizes_text)}" if sizes_text.strip() else ""
    strides = f"strides {braced(strides_text)}" if strides_text.strip() else "packed"
    return f"{role}{sizes} {strides}" + (f", {total} bytes" if total else "")


def parse_side(field, sizes_text, strides_text, total, default_sizes=None):
    """A layouts_work.Side from the fields; DescriptorError naming the field for text that is not a list."""
    if default_sizes is not None and not sizes_text.strip():
        sizes = default_sizes
    else:
        sizes = parse_int_list(sizes_text, f"{field} Sizes")
    strides = parse_int_list(strides_text, f"{field} Strides", minimum=0) if strides_text.strip() else None
    return lw.Side(tuple(sizes), strides, total)


def memory_maps(layout, unit):
    """Both buffers' memory maps (when their descs are well-formed); returns the elements per drawn row of each and
    how to read their cells."""
    size = element_size(layout.data_type)
    columns, widths, reading = st.columns(2), {}, ""
    for column, side, role in zip(columns, (layout.input, layout.output), ("input", "output")):
        with column:
            if lw.drawable(side, layout.data_type) is None:
                say.info(md("No memory map for the {}: its desc is malformed (see above).", role))
                continue
            figure, widths[role] = lw.buffer_map(side, layout.data_type, size, role, f"{role.capitalize()} buffer",
                                                 unit)
            charts.show(figure, f"ly_map_{role}", file_stem("layout", role, "memory_map"), f"Memory map of the {role}")
            reading = reading or figure.context.reading
    return widths, reading


def usage_line(layout, reading):
    parts = []
    for side, role, repeated_name in ((layout.input, "Input", "read more than once (broadcast)"),
                                      (layout.output, "Output", "written more than once")):
        untouched, repeated = lw.usage(side, layout.data_type)
        parts.append(md("{}: {} elements never touched (padding), {} {}", role, untouched, repeated, repeated_name))
    say.caption(say.join("; ", parts) + md(". {}", reading))


def copy_section(layout, settings, widths):
    spec = settings.values
    checks = lw.check(layout, spec)
    for check in (checks.directml, checks.onnxruntime):
        verdict = "byte-identical" if check.matches else "DIFFERENT" if check.available else "not run"
        runtime = "DirectML" if check.runtime == "directml" else "ONNX Runtime"
        # A runtime that could not run the copy is information, not a fault of the layout.
        show = say.success if check.matches else say.error if check.available else say.info
        # The provider and note name versions ("Mesa 25.0.7-2~bpo12+1", whose ~ struck the line through): data.
        show(md("{} cross-check ({}): {}. {}", runtime, check.provider or "no provider", verdict, check.note),
             icon=":material/verified:" if check.matches else ":material/warning:")
    charts.show(lw.logical_picture(layout, spec), "ly_logical", "layout_logical", "The logical tensor")
    st.markdown("##### The copy, element by element in the output's memory order")
    st.caption("Play fills the output buffer from its first element to its last; orange marks the elements of the "
               "step, in the input where they are read and in the output where they land. Hover a cell for its "
               "logical index.")
    charts.show(lw.copy_picture(layout, spec, widths["input"], widths["output"]), "ly_copy", "layout_copy",
                "The copy, element by element in the output's memory order")
    model, cpp = lw.exports(layout, spec)
    with st.expander("Export: DxDispatch model and C++"):
        # A wrapping row of buttons as wide as their labels: equal columns cut them off in a 800 px window.
        buttons = st.container(horizontal=True, wrap=True)
        buttons.download_button("Download the DxDispatch model (JSON)", model, file_name="identity.json",
                                mime="application/json", key="ly_download_json")
        buttons.download_button("Download the C++ snippet", cpp, file_name="identity.cpp", mime="text/x-c++src",
                                key="ly_download_cpp")
        if buttons.button("Open in Descriptor workbench", key="ly_workbench"):
            st.session_state[WORKBENCH_KEY] = json.loads(model)
            st.switch_page(WORKBENCH.path, query_params={})
        st.code(cpp, language="cpp")
        st.code(model, language="json")


def page():
    settings = current_settings()
    # The operator's name goes under the title: as one 25-letter word it broke mid-word in a 800 px window.
    st.title("Layouts")
    intro(md("**DML_ELEMENT_WISE_IDENTITY** copies one tensor between two buffer layouts: Strides say where each "
             "element lives."))
    row, (preset_box, input_box, output_box, map_box) = toolbar("Presets", "InputTensor", "OutputTensor",
                                                                "Memory maps", expanded=("Presets",))
    with preset_box:
        st.caption(
            "f(x) = x per element, with equal DataType and Sizes on both sides: only where each element lives can "
            "change, and Strides (elements per step along each dimension) say where. A permuted order transposes "
            "(NCHW -> NHWC), a 0 stride broadcasts, larger output strides pad, a long row stride reads a window of "
            "a larger buffer (DirectML: 'Using strides to express padding and memory layout'). DataType, feature "
            "level and values are in the sidebar; values fill the input buffer in memory order."
        )
        for number, name in enumerate(LAYOUT_PRESETS):
            st.button(say.plain(name), key=f"ly_preset_{number}", on_click=apply_layout_preset, args=(name,),
                      width="stretch")
    in_fields = side_controls("input", input_box)
    out_fields = side_controls("output", output_box)
    with map_box:
        unit = url_state.widget(st.radio, "Memory maps: one cell per", "ly_unit", "element",
                                options=("element", "byte"), horizontal=True)
    summary(row, ["ELEMENT_WISE_IDENTITY", settings.data_type,
                  side_text("input", *in_fields) + " → " + side_text("output", *out_fields), f"one cell per {unit}"])
    try:
        inp = parse_side("InputTensor", *in_fields)
        out = parse_side("OutputTensor", *out_fields, default_sizes=inp.sizes)
        size = element_size(settings.data_type)
        lw.guard(inp, "InputTensor", size)
        lw.guard(out, "OutputTensor", size)
        layout = lw.Layout(settings.data_type, inp, out)
        problems = lw.problems(layout, settings.feature_level)
        if problems:
            for problem in problems:
                say.error(problem, icon=":material/error:")
        else:
            say.success(valid_at(settings.feature_level), icon=":material/check_circle:")
        with admitted(lw.BUFFER_CAP * 8 * 4, "this layout"):
            widths, reading = memory_maps(layout, unit)
            if problems:
                say.info(md("The copy is drawn once the descriptors are valid; the maps show what the strides "
                            "address. {}", reading))
                return
            usage_line(layout, reading)
            copy_section(layout, settings, widths)
    except DescriptorError as exc:
        show_error(exc)
    except Busy as busy:
        show_busy(busy)


page()
