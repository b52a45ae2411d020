"""Split <-> Join (DML_SPLIT, DML_JOIN): page.py is the page, settings.py its settings, presets, URL keys and link
query, work.py its shared work; its figures are viz/split_join_fig.py."""

from app_pages.overview.section import Section

from .settings import link_query
from .work import overview_picture

OPERATORS = ("SPLIT", "JOIN")
OVERVIEW = Section(
    title="Split ↔ Join: DML_SPLIT, DML_JOIN",
    text=(
        "SPLIT cuts the input along Axis into OutputCount tensors that keep every other size; their sizes "
        "along Axis must sum exactly to the input's. JOIN concatenates its inputs back along Axis (ONNX "
        "Concat). Feature level 1_0 with 4 dimensions; 1 to 8 dimensions from 3_0 (SPLIT) and 3_1 (JOIN)."
    ),
    picture=overview_picture,
    presets=(
        ("Seed: Axis 3 into two {1,1,6,1}", dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0,
                                                 sj_sizes="1,1,6,2", sj_axis=3, sj_mode="even", sj_parts=2)),
    ),
)

__all__ = ["OPERATORS", "OVERVIEW", "link_query"]
