"""Gather & Scatter (DML_GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SCATTER, SCATTER_ND, ONE_HOT): page.py is the
page, settings.py its settings, presets, URL keys and link query, work.py its Overview picture; its figures are
viz/provenance_fig.py, its shared work app_pages/provenance.py."""

from app_pages.overview.section import Section

from .settings import OPERATOR_NAMES, PRESETS, link_query
from .work import overview_picture

OPERATORS = OPERATOR_NAMES
OVERVIEW = Section(
    title="Gather & Scatter: DML_GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SCATTER, SCATTER_ND, ONE_HOT",
    text=(
        "A gather reads, for every output element, the input element an IndicesTensor names: GATHER takes whole "
        "slices along Axis (ONNX Gather, tf.gather), GATHER_ELEMENTS one element per index (ONNX GatherElements, "
        "torch.gather), GATHER_ND and GATHER_ND1 a tuple of coordinates per index, batch by batch. A scatter "
        "copies its input, then writes each update where its index says; where several updates land on one "
        "element, DirectML keeps one of them and guarantees no particular one. ONE_HOT writes OnValue at each "
        "sequence's index. Negative indices count from the end; indices past the end are DirectML's own (the "
        "page shows what it does)."
    ),
    picture=overview_picture,
    presets=tuple((label, PRESETS[label]) for label in PRESETS
                  if label.startswith(("GATHER Example 2", "SCATTER Example 1"))),
)

__all__ = ["OPERATORS", "OVERVIEW", "link_query"]
