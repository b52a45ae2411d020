"""What the operators do, a small picture of each, and ways into each page with a telling preset."""

import streamlit as st

from ops.operators import bitwise
from ui import charts, say, url_state, work
from ui.bitwise_work import short_name
from ui.layouts_work import overview_picture, preset_fields
from ui.pages import BITWISE, CONVERTER, DEPTH_SPACE, DETECTIVE, LAYOUTS, ONNX_MODEL, PAGES, SPLIT_JOIN
from ui.say import md

SEED_SETTINGS = {"dtype": "UINT32", "pattern": "coded"}

SECTIONS = [
    dict(
        title="Depth ↔ Space: DML_DEPTH_TO_SPACE1, DML_SPACE_TO_DEPTH1",
        page=DEPTH_SPACE,
        text=(
            "DEPTH_TO_SPACE1 rearranges an input {N, C, H, W} into {N, C/BlockSize², H·BlockSize, W·BlockSize}: "
            "each group of BlockSize² channels becomes one BlockSize × BlockSize block of pixels. C must be "
            "divisible by BlockSize², all tensors have exactly 4 dimensions and one DataType. The Order says how "
            "the channel index splits: DEPTH_COLUMN_ROW as (block row, block column, output channel) — ONNX "
            "DepthToSpace DCR — and COLUMN_ROW_DEPTH as (output channel, block row, block column) — ONNX CRD. "
            "SPACE_TO_DEPTH1 is the exact inverse for the same BlockSize and Order. Feature level 2_1; 64-bit "
            "types from 5_0."
        ),
        presets=[
            ("Seed example, both orders", dict(SEED_SETTINGS, direction="depth_to_space", N=1, C=8, H=2, W=3,
                                               BlockSize=2, Order="compare")),
            ("Space → depth, BlockSize 3", dict(SEED_SETTINGS, direction="space_to_depth", N=1, C=2, H=6, W=6,
                                                BlockSize=3, Order="compare")),
        ],
    ),
    dict(
        # The page shows the whole family (the heading said "Bitwise OR" over seven operators): named from the
        # registry.
        title="Bitwise: DML_ELEMENT_WISE_BIT_" + ", ".join(short_name(op.name) for op in bitwise.OPERATORS),
        page=BITWISE,
        text=md(
            "{} operators on each element's raw bits: OR, AND and XOR combine A and B, NOT flips A's bits, COUNT "
            "counts the bits set, SHIFT_LEFT and SHIFT_RIGHT shift A by B. The DataType only sets the element width, "
            "so FLOAT32 1.0 | 2.0 = 0x7F800000 = +inf. Inputs and Output share DimensionCount (1 to 8) and Sizes, and "
            "DataType except COUNT's output (UINT8 or UINT32); there is no implicit broadcasting (a 0 stride in a "
            "descriptor expresses one). All but COUNT may write over an input in place. Feature level 3_0 for "
            "UINT8/16/32 (the shifts from 2_1, with exactly 4 dimensions there); 4_1 for every type, the shifts for "
            "unsigned integers only.",
            len(bitwise.OPERATORS)),
        presets=[
            ("FLOAT32 1.0 | 2.0 = +inf", dict(dtype="FLOAT32", pattern="custom", values="1.0", or_sizes="1",
                                              or_b_source="typed", or_b_text="2.0")),
        ],
    ),
    dict(
        title="Split ↔ Join: DML_SPLIT, DML_JOIN",
        page=SPLIT_JOIN,
        text=(
            "SPLIT cuts the input along Axis into OutputCount tensors that keep every other size; their sizes "
            "along Axis must sum exactly to the input's. JOIN concatenates its inputs back along Axis (ONNX "
            "Concat). Feature level 1_0 with 4 dimensions; 1 to 8 dimensions from 3_0 (SPLIT) and 3_1 (JOIN)."
        ),
        presets=[
            ("Seed: Axis 3 into two {1,1,6,1}", dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0,
                                                     sj_sizes="1,1,6,2", sj_axis=3, sj_mode="even", sj_parts=2)),
        ],
    ),
    dict(
        title="Layouts: DML_ELEMENT_WISE_IDENTITY",
        page=LAYOUTS,
        text=(
            "f(x) = x element by element, from one buffer tensor desc into another with the same DataType and "
            "Sizes: only the Strides differ, and they are the layout. Permuted strides transpose (NCHW → NHWC), a 0 "
            "stride broadcasts, larger output strides pad, and a long row stride reads a window of a larger "
            "buffer. Feature level 1_0 (FLOAT32, FLOAT16, 4 to 5 dimensions); 1 to 8 dimensions from 3_0; all 11 "
            "types from 4_1."
        ),
        presets=[
            ("NCHW → NHWC", dict(SEED_SETTINGS, **preset_fields("NCHW -> NHWC", "UINT32"))),
        ],
    ),
]


PICTURES = {
    DEPTH_SPACE: work.overview_depth_to_space,
    BITWISE: work.overview_bit_or,
    SPLIT_JOIN: work.overview_split,
    LAYOUTS: overview_picture,
}


GOTO = "overview_goto"


def choose_preset(page, values):
    """Button callback: the target page's settings travel as the query of the switch, so the page opens from its
    URL exactly as a shared link would (st.switch_page cannot be called from a callback: the next run does it)."""
    st.session_state[GOTO] = (page, url_state.query_of(values))


def section(spec, index):
    """The picture first and across the page: in a column beside the text it was 280 px wide in an 800 px window,
    too narrow for its cell labels."""
    say.subheader(spec["title"])
    charts.show(PICTURES[spec["page"]](), f"overview_fig_{index}", f"overview_{index + 1}", spec["title"])
    say.markdown(spec["text"])
    st.page_link(spec["page"].path, label="Open the page", icon=":material/arrow_forward:")
    for number, (label, values) in enumerate(spec["presets"]):
        st.button(say.plain(label), key=f"overview_{index}_{number}", icon=":material/play_arrow:",
                  on_click=choose_preset,
                  args=(spec["page"].path, values))


if GOTO in st.session_state:
    page, params = st.session_state.pop(GOTO)
    st.switch_page(page, query_params=params)
st.title("DirectML operator visualizer")
# Counted from the pages' operators, so that the number follows the registry (the README names them instead).
shown = sorted({name for page in PAGES for name in page.operators})
say.markdown(md(
    "{} DirectML tensor operators ({}), computed by a pure-numpy reference core with DirectML's exact rules, drawn "
    "cell by cell, validated against the feature-level support tables, cross-checked on DirectML itself where it "
    "can run here and on ONNX Runtime, and exported as DxDispatch JSON or C++. The sidebar holds the settings the "
    "operator pages share (DataType, feature level, value pattern); every setting is in the URL, so a link "
    "reproduces a view.", len(shown), ", ".join(shown)))
for i, spec in enumerate(SECTIONS):
    section(spec, i)
st.subheader("Between frameworks: DCR ↔ CRD")
st.markdown(
    "PyTorch's pixel_shuffle is COLUMN_ROW_DEPTH, TensorFlow's depth_to_space and ONNX's SpaceToDepth are "
    "DEPTH_COLUMN_ROW: mixing them up in a conversion scrambles the channels. The converter gives the channel "
    "permutation that turns one into the other, and how to fold it into the convolution before; each operator "
    "page's Elsewhere tab gives the same call in numpy, einops, ONNX, PyTorch and TensorFlow."
)
st.page_link(CONVERTER.path, label="Open the DCR ↔ CRD converter", icon=":material/swap_horiz:")

st.subheader("Bring your own operator or model")
st.markdown(
    "The **layout detective** takes what your framework made of an origin-coded input and names the descriptor that "
    "does the same, or the channel permutation that is missing; **Open an ONNX model** lists a model's depth/space, "
    "bitwise, split and concat nodes with their settings and flags the risky ones."
)
links = st.container(horizontal=True, wrap=True)
links.page_link(DETECTIVE.path, label="The layout detective", icon=":material/search:")
links.page_link(DETECTIVE.path, label="A DCR/CRD mix-up, found", icon=":material/play_arrow:",
                query_params={"dt_example": "mixed_up"})
links.page_link(ONNX_MODEL.path, label="Open an ONNX model", icon=":material/account_tree:")
