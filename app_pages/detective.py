"""The layout detective: bring your own operator's output and see where each cell came from, and which DirectML
descriptor (if any) does the same."""

import functools
import math
import re

import streamlit as st

from ops import DML_TYPES, DescriptorError, read_npy, read_printed_array, type_name
from ops.detective.examples import EXAMPLES as DETECTIVE_EXAMPLES
from ops.detective.identify import describe, descriptor_call
from ops.detective.origin import NPY_BYTE_CAP, to_npy_bytes
from ui import charts, url_state
from ui import detective_work as work
from ui.pages import operator_link
from ui.panels import show_busy, show_error
from ui.shared import Busy, admitted
from ui.toolbar import braced, intro, summary, toolbar
from ui.values import parse_int_list

SOURCES = {"example": "an example", "upload": "upload .npy files", "paste": "paste printed arrays"}
DEFAULTS = dict(dt_sizes="1,8,2,3", dt_dtype="FLOAT32", dt_source="example", dt_example="pixel_shuffle",
                dt_text="", dt_out_sizes="")
# The upload box refuses larger files, counting 10^6 bytes a megabyte (outside Windows): the page's cap is the same,
# under Streamlit's server limit (.streamlit/config.toml, server.maxUploadSize, 16 MiB).
UPLOAD_MB = 16
UPLOAD_BYTES = min(NPY_BYTE_CAP, UPLOAD_MB * 10**6)
TEXT_MAX_CHARS = 200_000
SEPARATOR = "---"


def sizes_text(sizes):
    return ";".join(",".join(str(s) for s in shape) for shape in sizes)


def parse_sizes(text):
    """'1,8,2,3' or several inputs '1,2,2,3; 1,1,2,3' -> tuple of size tuples; DescriptorError naming the field."""
    parts = [p for p in str(text).split(";") if p.strip()]
    if not parts:
        raise DescriptorError("Input sizes: empty; write whole numbers separated by commas, e.g. 1,8,2,3")
    if len(parts) > 8:
        raise DescriptorError(f"Input sizes: {len(parts)} inputs; the detective takes at most 8 (for a join)")
    field = "Input sizes" if len(parts) == 1 else "Input sizes of input {}"
    return tuple(parse_int_list(p, field.format(i)) for i, p in enumerate(parts))


def try_example(name):
    url_state.put_many(dict(dt_source="example", dt_example=name, dt_dtype="FLOAT32",
                            dt_sizes=sizes_text(DETECTIVE_EXAMPLES[name].sizes)))


def examples_row():
    row = st.container(horizontal=True, wrap=True, vertical_alignment="center")
    for name, example in DETECTIVE_EXAMPLES.items():
        row.button(example.label, key=f"dt_try_{name}", on_click=try_example, args=(name,), width="content",
                   help=example.text)


def _npy_download(sizes, data_type, index):
    return to_npy_bytes(work.inputs(sizes, data_type)[index])


def input_section(sizes, data_type):
    """Download buttons for the origin-coded input(s)."""
    xs = work.inputs(sizes, data_type)
    columns = st.columns(min(4, len(xs)))
    for i, x in enumerate(xs):
        name = "input" if len(xs) == 1 else f"input{i}"
        columns[i % len(columns)].download_button(
            f"Download {name}.npy {list(x.shape)} {type_name(x.dtype)}",
            functools.partial(_npy_download, sizes, data_type, i), f"{name}.npy", "application/octet-stream",
            key=f"dt_download_{i}", on_click="ignore", icon=":material/download:")
    first = xs[0]
    shown = ", ".join(str(v) for v in first.ravel()[:6].tolist())
    onwards = ", counting on through the next inputs" if len(xs) > 1 else ""
    st.caption(
        f"Every element holds its own flat index ({shown}, ...{onwards}), "
        "so whatever your framework does to it, each output value names the element it came from. Load it with "
        "`x = np.load('input.npy')` (or `torch.from_numpy(np.load(...))`), run your operator, and save the result "
        "with `np.save('output.npy', y)`."
    )


def _natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def uploaded_outputs(input_text):
    """(digest key, reader) of the uploaded .npy files, or None when nothing is uploaded.

    A new file replaces the one before (added to it, it made a split of two unrelated outputs) unless the user asks
    for several, the outputs of a split; files uploaded for other inputs (`input_text`: their sizes and type) are
    not kept: the uploader is new for each."""
    several = st.checkbox("Several outputs (a split's): each file uploaded is kept", key="dt_several")
    files = st.file_uploader(
        f"Output .npy file{'s, taken in the order of their names' if several else ''}, at most {UPLOAD_MB} MB"
        + (" each" if several else ""), type=["npy"], accept_multiple_files=several,
        key=f"dt_upload_{work.digest(f'{input_text} {several}')[:16]}", max_upload_size=UPLOAD_MB)
    st.caption("Files are read as plain arrays (never unpickled); an uploaded file is not part of the page's link.")
    if not files:
        return None
    files = sorted(files, key=lambda f: _natural_key(f.name)) if several else [files]
    blobs = [(f.name, f.getvalue()) for f in files]
    key = tuple(work.digest(data) for _, data in blobs)

    def read():
        return [read_npy(data, max_bytes=UPLOAD_BYTES, field=f"file {name!r}") for name, data in blobs]

    return key, read


def pasted_outputs():
    text = url_state.widget(
        st.text_area, f"Printed output(s); separate several outputs with a line holding only {SEPARATOR}", "dt_text",
        DEFAULTS["dt_text"], max_chars=TEXT_MAX_CHARS, height=160,
        help="numpy's, PyTorch's or TensorFlow's printout (print the whole array, not a '...' summary), or plain "
             "numbers separated by spaces or commas")
    out_sizes = url_state.widget(
        st.text_input, "Output sizes (only for plain numbers without brackets)", "dt_out_sizes",
        DEFAULTS["dt_out_sizes"], max_chars=200, help="e.g. 1,2,4,6; leave empty when the printout has brackets")
    if len(text) > url_state.LINK_VALUE_CHARS:
        st.caption(f"This printout is longer than {url_state.LINK_VALUE_CHARS:,} characters: the page's link leaves "
                   "it out (browsers refuse such long addresses). Share a .npy file instead.")
    if not text.strip():
        return None
    parts = [p for p in _split_outputs(text) if p.strip()]
    shape = parse_int_list(out_sizes, "Output sizes") if out_sizes.strip() else None
    if shape is not None and len(parts) > 1:
        raise DescriptorError("Output sizes: give them only for a single pasted output; use brackets for several")

    def read():
        return [read_printed_array(p, shape) for p in parts]

    return (work.digest(text), out_sizes), read


def _split_outputs(text):
    parts, current = [], []
    for line in text.splitlines():
        if line.strip() == SEPARATOR:
            parts.append("\n".join(current))
            current = []
        else:
            current.append(line)
    return parts + ["\n".join(current)]


def open_link(descriptor, xs, ys):
    call = descriptor_call(descriptor, [x.shape for x in xs], [y.shape for y in ys], type_name(xs[0].dtype))
    page, query = operator_link(call)
    st.page_link(page.path, label=f"Open in its operator page ({page.title})", query_params=query,
                 icon=":material/open_in_new:")


def verdict(case):
    report, xs, ys = case.report, case.xs, case.ys
    if report.matches:
        st.success(report.note, icon=":material/check_circle:")
        for descriptor in report.matches:
            left, right = st.columns([3, 2], vertical_alignment="center")
            left.markdown(f"Reproduced by **{describe(descriptor)}**")
            with right:
                open_link(descriptor, xs, ys)
        if len(report.matches) > 1:
            st.caption("Several descriptors agree here: with these sizes they move the elements the same way.")
    elif report.permuted_matches:
        permutation_section(case)
    elif report.kind == "not a rearrangement":
        st.error(report.note, icon=":material/report:")
        rows = [{"output": f"y{c['output']}" if len(ys) > 1 else "y", "index": str(list(c["index"])),
                 "value": repr(c["value"])} for c in report.offending]
        st.markdown(f"**First cells whose value is in no input** ({report.unmatched_count:,} in all)")
        st.dataframe(rows, hide_index=True, width="content")
        for descriptor in report.near_matches:
            left, right = st.columns([3, 2], vertical_alignment="center")
            left.markdown(f"Everywhere else it agrees with **{describe(descriptor)}**")
            with right:
                open_link(descriptor, xs, ys)
    else:
        st.info(report.note, icon=":material/info:")


def permutation_section(case):
    report = case.report
    best = report.permuted_matches[0]
    descriptor, p = best["descriptor"], best["permutation"]
    st.warning(report.note, icon=":material/swap_horiz:")
    left, right = st.columns([3, 2], vertical_alignment="center")
    left.markdown(f"With the permutation it is **{describe(descriptor)}**")
    with right:
        open_link(descriptor, case.xs, case.ys)
    st.markdown(f"**The channel permutation** P = `{p.tolist()}`")
    if best["applies_to"] == "input channels":
        st.markdown(
            f"Your output equals `depth_to_space(x[:, P], {descriptor['BlockSize']}, \"{descriptor['Order']}\")`. "
            "Apply P to the output channels of the convolution that produces x, and that descriptor computes your "
            "output with no extra operation:")
        st.code("import ops\n"
                f"P = {p.tolist()}\n"
                "weight, bias = ops.permute_conv_output_channels(weight, bias, P)  # = weight[P], bias[P]",
                language="python")
    else:
        st.markdown(
            f"Your output equals `space_to_depth(x, {descriptor['BlockSize']}, \"{descriptor['Order']}\")[:, P]`. "
            "The convolution that reads it can absorb P in its input channels:")
        st.code("import ops\n"
                f"P = {p.tolist()}\n"
                "weight = ops.permute_conv_input_channels(weight, P)  # = weight[:, inverse(P)]",
                language="python")
    if len(report.permuted_matches) > 1:
        others = "; ".join(f"{m['descriptor']['Order']} with P = {m['permutation'].tolist()}"
                           for m in report.permuted_matches[1:])
        st.caption(f"Also possible: {others}.")
    diff = case.diff
    st.markdown(f"**Diff before and after**: {int(diff['before'].sum())} of {diff['before'].size} cells differ from "
                f"{descriptor['operator']} {descriptor['Order']} applied as given; with P applied, "
                f"{int(diff['after'].sum())}.")
    charts.show(case.diff_figure, "dt_diff_chart", "detective_difference", "Layout detective: the differences")


def work_bytes(sizes):
    """What a run may hold: inputs and outputs as 8-byte values, the sort keys, their order and the index maps."""
    return min(sum(math.prod(s) for s in sizes), work.DETECTIVE_ELEMENTS) * 8 * 8


def controls(box):
    """The input's sizes and type and where the output comes from, drawn in the toolbar's popover `box`."""
    with box:
        sizes = url_state.widget(st.text_input, "Input sizes", "dt_sizes", DEFAULTS["dt_sizes"], max_chars=200,
                                 help="1 to 8 whole numbers separated by commas; for a join, several inputs "
                                      "separated by ';' (1,2,2,3; 1,1,2,3)")
        data_type = url_state.widget(st.selectbox, "Input data type", "dt_dtype", DEFAULTS["dt_dtype"],
                                     options=DML_TYPES,
                                     help="FLOAT32 is the type every framework takes; it spells indices exactly up "
                                          "to 2^24 elements")
        source = url_state.widget(st.radio, "Output from", "dt_source", DEFAULTS["dt_source"],
                                  options=list(SOURCES), format_func=SOURCES.get, horizontal=True)
    return sizes, data_type, source


def page():
    st.title("The layout detective")
    intro("Bring your own operator: which input element did each output cell come from, and which DirectML "
          "descriptor does that?")
    row, (example_box, input_box) = toolbar("Examples", "Input & output", expanded=("Examples",))
    with example_box:
        st.caption(
            "Download an **origin-coded input**, run it through your framework or model, and upload or paste what "
            "comes out. The detective draws, cell by cell, which input element each output cell came from, and "
            "names the DirectML descriptor that reproduces it exactly (operator, Order, BlockSize, split sizes and "
            "axis). When none does but a **channel permutation** would (the DCR/CRD mix-up), it shows the "
            "permutation and how to fold it into the convolution before."
        )
        examples_row()
    sizes_raw, data_type, source = controls(input_box)
    input_text = f"input {braced(sizes_raw)} {data_type}"
    try:
        sizes = parse_sizes(sizes_raw)
        with admitted(work_bytes(sizes), "the detective"):
            if source == "example":
                with example_box:
                    name = url_state.widget(st.selectbox, "Example", "dt_example", DEFAULTS["dt_example"],
                                            options=list(DETECTIVE_EXAMPLES),
                                            format_func=lambda n: DETECTIVE_EXAMPLES[n].label)
                summary(row, [f"Example: {DETECTIVE_EXAMPLES[name].label}", input_text])
                st.caption(DETECTIVE_EXAMPLES[name].text)
                show_case(work.example_case(name, sizes, data_type))
                # An example brings its own output: the input to download comes after what it shows.
                input_section(sizes, data_type)
                return
            summary(row, [f"Your output ({SOURCES[source]})", input_text])
            input_section(sizes, data_type)
            brought = uploaded_outputs(input_text) if source == "upload" else pasted_outputs()
            if brought is None:
                st.info("Upload or paste your operator's output to identify it, or try one of the Examples above.",
                        icon=":material/upload:")
                return
            key, read = brought
            case = work.outputs_case(sizes, data_type, key, read)
    except DescriptorError as exc:
        show_error(exc)
        return
    except Busy as busy:
        show_busy(busy)
        return
    show_case(case)


def show_case(case):
    """The figure of where every output cell came from, then what the detective concluded from it."""
    drawn = case.figure.context.note
    shapes = ", ".join(str(list(y.shape)) for y in case.ys)
    st.caption(
        f"Output sizes {shapes}, compared by {case.report.compared_by}. Tiles are the last two dimensions, row 0 at "
        "the top; each output cell shows the flat index of the input element it came from and takes that "
        "element's color (✗: a value in no input). Hover for both indices."
        + (f" Drawn: {drawn}." if drawn else ""))
    charts.show(case.figure, "dt_chart", "detective", "Layout detective: where each element came from")
    st.subheader("What the detective found")
    verdict(case)


page()
