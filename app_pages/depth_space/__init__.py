"""Depth <-> Space (DML_DEPTH_TO_SPACE1, DML_SPACE_TO_DEPTH1): page.py is the page, settings.py its settings, presets,
URL keys and link query, work.py its shared work; its figures are viz/depth_space_fig.py."""

from app_pages.overview.section import Section

from .settings import link_query
from .work import overview_picture

OPERATORS = ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1")
OVERVIEW = Section(
    title="Depth ↔ Space: DML_DEPTH_TO_SPACE1, DML_SPACE_TO_DEPTH1",
    text=(
        "DEPTH_TO_SPACE1 rearranges an input {N, C, H, W} into {N, C/BlockSize², H·BlockSize, W·BlockSize}: "
        "each group of BlockSize² channels becomes one BlockSize × BlockSize block of pixels. C must be "
        "divisible by BlockSize², all tensors have exactly 4 dimensions and one DataType. The Order says how "
        "the channel index splits: DEPTH_COLUMN_ROW as (block row, block column, output channel) — ONNX "
        "DepthToSpace DCR — and COLUMN_ROW_DEPTH as (output channel, block row, block column) — ONNX CRD. "
        "SPACE_TO_DEPTH1 is the exact inverse for the same BlockSize and Order. Feature level 2_1; 64-bit "
        "types from 5_0."
    ),
    picture=overview_picture,
    presets=(
        ("Seed example, both orders", dict(dtype="UINT32", pattern="coded", direction="depth_to_space", N=1, C=8,
                                           H=2, W=3, BlockSize=2, Order="compare")),
        ("Space → depth, BlockSize 3", dict(dtype="UINT32", pattern="coded", direction="space_to_depth", N=1, C=2,
                                            H=6, W=6, BlockSize=3, Order="compare")),
    ),
)

__all__ = ["OPERATORS", "OVERVIEW", "link_query"]
