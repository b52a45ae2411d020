"""What the Gather & Scatter page computes beyond the shared provenance work (app_pages.provenance): the Overview's
picture."""

from __future__ import annotations

from app_pages import provenance
from ops.operators.gather_scatter.examples import EXAMPLES
from ui.shared import shared
from ui.values import Values
from viz.spec import SpecFigure

from .settings import DEFAULTS, configure, example_settings

OVERVIEW_EXAMPLE = next(e for e in EXAMPLES if e.op == "SCATTER")  # 1-D, two updates on one element


@shared
def overview_picture() -> SpecFigure:
    """SCATTER's first API example: where each update lands, and the two that land on one element."""
    settings = {**DEFAULTS, **example_settings(OVERVIEW_EXAMPLE)}
    values = Values("custom", settings["dtype"], text=settings["values"])
    return provenance.picture(configure(settings, values), width_px=440)
