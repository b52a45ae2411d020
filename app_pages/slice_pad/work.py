"""What the Slice, Pad & Tile page computes beyond the shared provenance work (app_pages.provenance): the Overview's
picture."""

from __future__ import annotations

from app_pages import provenance
from ops.operators.slice_pad.examples import EXAMPLES
from ui.shared import shared
from ui.values import Values
from viz.spec import SpecFigure

from .settings import DEFAULTS, configure, example_settings

OVERVIEW_EXAMPLE = next(e for e in EXAMPLES if e.attrs.get("mode") == "REFLECTION")


@shared
def overview_picture() -> SpecFigure:
    """PADDING1's REFLECTION example: the input mirrored about its edge rows and columns."""
    settings = {**DEFAULTS, **example_settings(OVERVIEW_EXAMPLE)}
    values = Values("custom", settings["dtype"], text=settings["values"])
    return provenance.picture(configure(settings, values), width_px=440)
