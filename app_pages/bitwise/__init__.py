"""Bitwise (DirectML's bitwise family: DML_ELEMENT_WISE_BIT_AND, _OR, _XOR, _NOT, _SHIFT_LEFT, _SHIFT_RIGHT, _COUNT):
page.py is the page, settings.py its settings, presets, URL keys and link query, work.py its shared work; its
figures are viz/bitwise_fig.py."""

from app_pages.overview.section import Section
from ops.operators import bitwise
from ui.say import md

from .settings import link_query, short_name
from .work import overview_picture

OPERATORS = tuple(op.name for op in bitwise.OPERATORS)
OVERVIEW = Section(
    # The whole family, named from the registry.
    title="Bitwise: DML_ELEMENT_WISE_BIT_" + ", ".join(short_name(name) for name in OPERATORS),
    text=md(
        "{} operators on each element's raw bits: OR, AND and XOR combine A and B, NOT flips A's bits, COUNT "
        "counts the bits set, SHIFT_LEFT and SHIFT_RIGHT shift A by B. The DataType only sets the element width, "
        "so FLOAT32 1.0 | 2.0 = 0x7F800000 = +inf. Inputs and Output share DimensionCount (1 to 8) and Sizes, and "
        "DataType except COUNT's output (UINT8 or UINT32); there is no implicit broadcasting (a 0 stride in a "
        "descriptor expresses one). All but COUNT may write over an input in place. Feature level 3_0 for "
        "UINT8/16/32 (the shifts from 2_1, with exactly 4 dimensions there); 4_1 for every type, the shifts for "
        "unsigned integers only.",
        len(OPERATORS)),
    picture=overview_picture,
    presets=(
        ("FLOAT32 1.0 | 2.0 = +inf", dict(dtype="FLOAT32", pattern="custom", values="1.0", or_sizes="1",
                                          or_b_source="typed", or_b_text="2.0")),
    ),
)

__all__ = ["OPERATORS", "OVERVIEW", "link_query"]
