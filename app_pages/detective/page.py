"""The layout detective: bring your own operator's output and see where each cell came from, and which DirectML
descriptor (if any) does the same."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.detective import settings, texts, work
from app_pages.detective.settings import DEFAULTS, SOURCES, Brought, Sizes
from app_pages.detective.work import Case
from app_pages.registry import operator_link
from ops import DML_TYPES, DescriptorError, type_name
from ops.detective.examples import EXAMPLES as DETECTIVE_EXAMPLES
from ops.detective.identify import describe, descriptor_call
from ui import charts, say, url_state
from ui.panels import show_busy, show_error
from ui.say import Markdown, md
from ui.shared import Busy, admitted, digest
from ui.toolbar import braced, intro, summary, toolbar


def try_example(name: str) -> None:
    url_state.put_many(settings.example_fields(name))


def examples_row() -> None:
    row = st.container(horizontal=True, wrap=True, vertical_alignment="center")
    for name, example in DETECTIVE_EXAMPLES.items():
        row.button(say.plain(example.label), key=f"dt_try_{name}", on_click=try_example, args=(name,),
                   width="content", help=say.plain(example.text))


def input_section(sizes: Sizes, data_type: str) -> None:
    """Download buttons for the origin-coded input(s)."""
    xs = work.inputs(sizes, data_type)
    columns = st.columns(min(4, len(xs)))
    for i, x in enumerate(xs):
        name = "input" if len(xs) == 1 else f"input{i}"
        columns[i % len(columns)].download_button(
            md("Download {}.npy {} {}", name, list(x.shape), type_name(x.dtype)),
            functools.partial(work.input_npy, sizes, data_type, i), f"{name}.npy", "application/octet-stream",
            key=f"dt_download_{i}", on_click="ignore", icon=":material/download:")
    say.caption(texts.origin_caption(xs))


def uploaded_outputs(input_text: str) -> Brought | None:
    """(digest key, reader) of the uploaded .npy files, or None when nothing is uploaded.

    A new file replaces the one before (added to it, it made a split of two unrelated outputs) unless the user asks
    for several, the outputs of a split; files uploaded for other inputs (`input_text`: their sizes and type) are
    not kept: the uploader is new for each."""
    several = st.checkbox("Several outputs (a split's): each file uploaded is kept", key="dt_several")
    files = st.file_uploader(
        md("Output .npy file{}, at most {} MB{}", "s, taken in the order of their names" if several else "",
           settings.UPLOAD_MB, " each" if several else ""), type=["npy"], accept_multiple_files=several,
        key=f"dt_upload_{digest(f'{input_text} {several}')[:16]}", max_upload_size=settings.UPLOAD_MB)
    st.caption("Files are read as plain arrays (never unpickled); an uploaded file is not part of the page's link.")
    if not files:
        return None
    return settings.uploaded(files if isinstance(files, list) else [files])


def pasted_outputs() -> Brought | None:
    text = url_state.widget(
        st.text_area, md("Printed output(s); separate several outputs with a line holding only {}", settings.SEPARATOR),
        "dt_text", DEFAULTS["dt_text"], max_chars=settings.TEXT_MAX_CHARS, height=160,
        help="numpy's, PyTorch's or TensorFlow's printout (print the whole array, not a '...' summary), or plain "
             "numbers separated by spaces or commas")
    out_sizes = url_state.widget(
        st.text_input, "Output sizes (only for plain numbers without brackets)", "dt_out_sizes",
        DEFAULTS["dt_out_sizes"], max_chars=200, help="e.g. 1,2,4,6; leave empty when the printout has brackets")
    if len(text) > url_state.LINK_VALUE_CHARS:
        say.caption(md("This printout is longer than {:,} characters: the page's link leaves it out (browsers refuse "
                       "such long addresses). Share a .npy file instead.", url_state.LINK_VALUE_CHARS))
    return settings.pasted(text, out_sizes) if text.strip() else None


def descriptor_row(text: Markdown, descriptor: dict[str, Any], xs: list[np.ndarray], ys: list[np.ndarray]) -> None:
    """`text` naming a descriptor, beside the link that opens its operator page on these inputs and outputs."""
    left, right = st.columns([3, 2], vertical_alignment="center")
    say.markdown(text, into=left)
    call = descriptor_call(descriptor, [x.shape for x in xs], [y.shape for y in ys], type_name(xs[0].dtype))
    page, query = operator_link(call)
    right.page_link(page.path, label=md("Open in its operator page ({})", page.title), query_params=query,
                    icon=":material/open_in_new:")


def verdict(case: Case) -> None:
    report, xs, ys = case.report, case.xs, case.ys
    if report.matches:
        say.success(report.note, icon=":material/check_circle:")
        for descriptor in report.matches:
            descriptor_row(md("Reproduced by **{}**", describe(descriptor)), descriptor, xs, ys)
        if len(report.matches) > 1:
            st.caption("Several descriptors agree here: with these sizes they move the elements the same way.")
    elif report.permuted_matches:
        permutation_section(case)
    elif report.kind == "not a rearrangement":
        say.error(report.note, icon=":material/report:")
        say.markdown(md("**First cells whose value is in no input** ({:,} in all)", report.unmatched_count))
        st.dataframe(texts.offending_rows(report, len(ys)), hide_index=True, width="content")
        for descriptor in report.near_matches:
            descriptor_row(md("Everywhere else it agrees with **{}**", describe(descriptor)), descriptor, xs, ys)
    else:
        say.info(report.note, icon=":material/info:")


def permutation_section(case: Case) -> None:
    report, diff = case.report, case.diff
    assert diff is not None  # a case with a permuted match has its diff (work._solve)
    best = report.permuted_matches[0]
    descriptor = best["descriptor"]
    say.warning(report.note, icon=":material/swap_horiz:")
    descriptor_row(md("With the permutation it is **{}**", describe(descriptor)), descriptor, case.xs, case.ys)
    say.markdown(md("**The channel permutation** P = {:code}", best["permutation"].tolist()))
    explanation, code = texts.folding(best)
    say.markdown(explanation)
    st.code(code, language="python")
    if len(report.permuted_matches) > 1:
        others = "; ".join(f"{m['descriptor']['Order']} with P = {m['permutation'].tolist()}"
                           for m in report.permuted_matches[1:])
        say.caption(md("Also possible: {}.", others))
    say.markdown(texts.diff_text(diff, descriptor))
    charts.show(case.diff_figure, "dt_diff_chart", "detective_difference", "Layout detective: the differences")


def controls(box: DeltaGenerator) -> tuple[str, str, str]:
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


def page() -> None:
    st.title("The layout detective")
    intro(md("Bring your own operator: which input element did each output cell come from, and which DirectML "
             "descriptor does that?"))
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
        sizes = settings.parse_sizes(sizes_raw)
        with admitted(work.work_bytes(sizes), "the detective"):
            if source == "example":
                with example_box:
                    name = url_state.widget(st.selectbox, "Example", "dt_example", DEFAULTS["dt_example"],
                                            options=list(DETECTIVE_EXAMPLES),
                                            format_func=lambda n: DETECTIVE_EXAMPLES[n].label)
                summary(row, [f"Example: {DETECTIVE_EXAMPLES[name].label}", input_text])
                say.caption(DETECTIVE_EXAMPLES[name].text)
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


def show_case(case: Case) -> None:
    """The figure of where every output cell came from, then what the detective concluded from it."""
    say.caption(texts.figure_caption(case))
    charts.show(case.figure, "dt_chart", "detective", "Layout detective: where each element came from")
    st.subheader("What the detective found")
    verdict(case)


page()
