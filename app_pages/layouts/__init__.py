"""Layouts (DML_ELEMENT_WISE_IDENTITY between two buffer layouts): page.py is the page, settings.py its settings and
URL keys, work.py its shared work; its figures are viz/memory_map_fig.py and viz/layouts_fig.py."""

from app_pages.overview.section import Section

from .settings import preset_fields
from .work import overview_picture

OPERATORS = ("ELEMENT_WISE_IDENTITY",)
link_query = None  # no link opens a layout from a call: a copy between layouts is set by its descs, not by a Call
OVERVIEW = Section(
    title="Layouts: DML_ELEMENT_WISE_IDENTITY",
    text=(
        "f(x) = x element by element, from one buffer tensor desc into another with the same DataType and "
        "Sizes: only the Strides differ, and they are the layout. Permuted strides transpose (NCHW → NHWC), a 0 "
        "stride broadcasts, larger output strides pad, and a long row stride reads a window of a larger "
        "buffer. Feature level 1_0 (FLOAT32, FLOAT16, 4 to 5 dimensions); 1 to 8 dimensions from 3_0; all 11 "
        "types from 4_1."
    ),
    picture=overview_picture,
    presets=(
        ("NCHW → NHWC", dict(dtype="UINT32", pattern="coded", **preset_fields("NCHW -> NHWC", "UINT32"))),
    ),
)

__all__ = ["OPERATORS", "OVERVIEW", "link_query"]
