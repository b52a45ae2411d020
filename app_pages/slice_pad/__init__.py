"""Slice, Pad & Tile (DML_SLICE1, PADDING1, TILE, REVERSE_SUBSEQUENCES, UPSAMPLE_2D nearest): page.py is the page,
settings.py its settings, presets, URL keys and link query, work.py its Overview picture; its figures are
viz/provenance_fig.py, its shared work app_pages/provenance.py."""

from app_pages.overview.section import Section

from .settings import OPERATOR_NAMES, PRESETS, link_query
from .work import overview_picture

OPERATORS = OPERATOR_NAMES
OVERVIEW = Section(
    title="Slice, Pad & Tile: DML_SLICE1, PADDING1, TILE, REVERSE_SUBSEQUENCES, UPSAMPLE_2D",
    text=(
        "Every output element a copy of one input element, chosen by index arithmetic alone: SLICE1 takes a window "
        "at a stride (a negative stride reads it from its end), PADDING1 surrounds the input with a constant, its "
        "edge, or its mirror without (REFLECTION, numpy's \"reflect\", ONNX's \"reflect\") or with its edge "
        "(SYMMETRIC, numpy's \"symmetric\", which ONNX Pad lacks), TILE repeats the whole input (numpy.tile, not "
        "numpy.repeat), REVERSE_SUBSEQUENCES reverses the first L elements of every line, and UPSAMPLE_2D in "
        "NEAREST_NEIGHBOR mode repeats each element over a block."
    ),
    picture=overview_picture,
    presets=tuple((label, PRESETS[label]) for label in PRESETS
                  if label.startswith(("PADDING1 Example 3", "SLICE1 Example 2"))),
)

__all__ = ["OPERATORS", "OVERVIEW", "link_query"]
