"""The DCR <-> CRD converter: the channel permutation that makes one depth/space order compute the other's result."""

from __future__ import annotations

import functools
import textwrap

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.converter import work
from ops import DescriptorError
from ui import charts, say, url_state
from ui.panels import show_error
from ui.say import md
from ui.toolbar import intro, summary, toolbar
from viz.export import file_stem

DEFAULTS = {"C": 8, "BlockSize": 2, "convert": "CRD_to_DCR"}
# C and BlockSize are the Depth <-> Space page's settings too (same names and bounds): a visitor moving between the
# pages keeps them.
SIZE_MAX = 1 << 20
BLOCK_MAX = 64
SHOWN = 256  # entries of P and Q printed on the page; the downloads hold all of them
CONVERSIONS = {
    "CRD_to_DCR": ("COLUMN_ROW_DEPTH", "DEPTH_COLUMN_ROW"),
    "DCR_to_CRD": ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"),
}
CONVERSION_LABELS = {"CRD_to_DCR": "CRD → DCR", "DCR_to_CRD": "DCR → CRD"}
CONVERSION_CAPTIONS = [
    "a CRD model (PyTorch pixel_shuffle, ONNX DepthToSpace CRD) run by a DCR operation (TensorFlow, ONNX default)",
    "a DCR model (TensorFlow depth_to_space, ONNX DepthToSpace DCR) run by a CRD operation (PyTorch pixel_shuffle)",
]
SHORT = {"DEPTH_COLUMN_ROW": "DCR", "COLUMN_ROW_DEPTH": "CRD"}


def controls(box: DeltaGenerator) -> tuple[int, int, str]:
    """The settings, drawn in the toolbar's popover `box`."""
    with box:
        columns = st.columns(2)
        channels = url_state.widget(columns[0].number_input, "C (channels)", "C", DEFAULTS["C"], minimum=0,
                                    maximum=SIZE_MAX, help="Channels on the depth side: C must be divisible by "
                                    "BlockSize².")
        block_size = url_state.widget(columns[1].number_input, "BlockSize", "BlockSize", DEFAULTS["BlockSize"],
                                      minimum=0, maximum=BLOCK_MAX)
        conversion = url_state.widget(st.radio, "Conversion", "convert", DEFAULTS["convert"],
                                      options=list(CONVERSIONS), format_func=CONVERSION_LABELS.get,
                                      captions=CONVERSION_CAPTIONS)
    return int(channels), int(block_size), conversion


def listed(name: str, values: np.ndarray) -> str:
    """`name = [...]` wrapped to the page's width, the first SHOWN entries of a longer list."""
    shown = ", ".join(map(str, values[:SHOWN].tolist()))
    text = f"{name} = [{shown}]" if values.size <= SHOWN else f"{name} = [{shown}, ...]"
    text = textwrap.fill(text, width=100, subsequent_indent=" " * (len(name) + 4), break_on_hyphens=False)
    return text if values.size <= SHOWN else text + f"  # the first {SHOWN} of {values.size:,}"


def downloads(channels: int, block_size: int, source: str, target: str) -> None:
    columns = st.columns(4)
    for column, which, name in ((columns[0], 0, "P"), (columns[2], 1, "Q")):
        args = (channels, block_size, source, target, which)
        stem = f"{name}_{SHORT[source]}_to_{SHORT[target]}_C{channels}_bs{block_size}"
        column.download_button(md("{} as text", name), functools.partial(work.permutation_text, *args), f"{stem}.txt",
                               "text/plain", key=f"converter_{name}_txt", on_click="ignore")
        columns[columns.index(column) + 1].download_button(
            md("{} as .npy", name), functools.partial(work.permutation_npy, *args), f"{stem}.npy",
            "application/octet-stream", key=f"converter_{name}_npy", on_click="ignore")


def how_to_apply(channels: int, block_size: int, source: str, target: str) -> None:
    st.subheader("Apply P to the convolution before it")
    say.markdown(md(
        "A depth_to_space usually follows a convolution that makes its C = {} channels. Reorder that convolution's "
        "output channels by P (its weights' first axis and its bias) and the {} depth_to_space after it computes "
        "exactly what the {} one did: no extra operator, no runtime cost. `ops.permute_conv_output_channels` does it "
        "and checks the shapes:", channels, target, source))
    st.code(
        "import numpy as np\n"
        "import ops\n\n"
        f"P = np.load(\"P_{SHORT[source]}_to_{SHORT[target]}_C{channels}_bs{block_size}.npy\")\n"
        f"# weights: [{channels}, C_in, kH, kW], bias: [{channels}] of the convolution before the depth_to_space\n"
        "new_weights, new_bias = ops.permute_conv_output_channels(weights, bias, P)  # weights[P], bias[P]\n"
        "# conv(x, new_weights, new_bias) == conv(x, weights, bias)[:, P], so\n"
        f"#   depth_to_space(conv(x, new_weights, new_bias), {block_size}, \"{target}\")\n"
        f"#   == depth_to_space(conv(x, weights, bias), {block_size}, \"{source}\")\n",
        language="python",
    )
    say.markdown(md(
        "The other way round, after a space_to_depth: {:code} equals {:code}, so the convolution that follows keeps "
        "its result on the {} output with `ops.permute_conv_input_channels(weights, Q)`.",
        f'space_to_depth(x, {block_size}, "{source}")', f'space_to_depth(x, {block_size}, "{target}")[:, Q]', target))


def page() -> None:
    st.title("DCR ↔ CRD converter")
    intro(md("The channel permutation P that makes one depth/space order compute what the other computed."))
    row, (settings_box,) = toolbar("Channels & conversion", expanded=("Channels & conversion",))
    with settings_box:
        st.caption(
            "DEPTH_COLUMN_ROW (DCR) and COLUMN_ROW_DEPTH (CRD) read the same output pixel from different input "
            "channels, so swapping one for the other in a conversion silently scrambles an image. A fixed channel "
            "permutation P undoes it: feeding `x[:, P]` to the target order gives what the source order gave for "
            "`x`."
        )
    channels, block_size, conversion = controls(settings_box)
    source, target = CONVERSIONS[conversion]
    summary(row, [f"C = {channels:,}", f"BlockSize {block_size}", CONVERSION_LABELS[conversion]])
    try:
        p, q = work.conversion(channels, block_size, source, target)
    except DescriptorError as exc:
        show_error(exc)
        return
    charts.show(work.conversion_picture(channels, block_size, source, target), "converter_figure",
                file_stem("channel_permutation", channels, f"bs{block_size}", source, "to", target),
                f"Channel permutation {source} to {target}, C = {channels}, BlockSize {block_size}")
    say.caption(md(
        "Top row: the channels of x as the {} operation reads them; bottom row: x[:, P], fed to the {} operation. A "
        "line joins x's channel P[k] to position k; cells and lines are colored by the block position the channel "
        "lands at in the output (the same in both), and hovering tells its output channel.", source, target))
    say.markdown(md("{:code} for every x with C = {:,} channels, with",
                    f'depth_to_space(x[:, P], {block_size}, "{target}") == depth_to_space(x, {block_size}, "{source}")',
                    channels))
    st.code(f"{listed('P', p)}\n# Q undoes it: x[:, P][:, Q] == x\n{listed('Q', q)}", language="python")
    downloads(channels, block_size, source, target)
    how_to_apply(channels, block_size, source, target)


page()
