"""The picture first, and watched while its settings change: a page's settings sit beside the figure, in the
sidebar, folded into one expander per group, and one line over the figure says them.

Popovers over the page would open over the figure (51% of Depth <-> Space's first figure hidden, 100% of Layouts',
all of it at 800 px), so every change would be made blind. The sidebar is beside the figure at every width the app
is used at (it pushes the page, never covers it), it scrolls on its own, so a long group never scrolls the figure
away, and its expanders stay open across reruns: the figure redraws while the learner is still changing the setting.

app.py reserves the sidebar's place for the page's groups (above the settings every page shares) with
reserve_controls(); a page's groups go there in the order the page makes them, some only once they apply (the
drawn part of a tensor too large to draw). Fragments cannot write to the sidebar: a page draws its groups in its
full run.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterable, Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from . import say
from .url_state import presenting

SEPARATOR = " · "
_CONTROLS: contextvars.ContextVar[DeltaGenerator | None] = contextvars.ContextVar("page_controls", default=None)
# Streamlit leaves 6rem above a page's title and draws it 2.75rem high: at 800x900 the lines over the figure pushed
# its Play under the window's edge. 4rem still clears the header (its menu, the sidebar's arrow). A preset's button in
# the narrow sidebar wraps its label instead of cutting it with an ellipsis ("Seed example, DEPTH_COL…").
_PICTURE_FIRST_CSS = """
[data-testid="stMainBlockContainer"] { padding-top: 4rem; }
[data-testid="stMainBlockContainer"] h1 { font-size: 2.25rem; padding: 0.5rem 0 0.5rem; }
.st-key-dml_plotly_preload_box { display: none; }
[data-testid="stSidebar"] [data-testid="stButton"] button * { white-space: normal; overflow: visible;
  text-overflow: clip; }
"""


def reserve_controls() -> None:
    """This run's place for the page's groups: the top of the sidebar, under the page links; and the page's
    spacing, which leaves the figure more of the window (a style-only element takes no space)."""
    say.style(_PICTURE_FIRST_CSS)
    _CONTROLS.set(st.sidebar.container())


def group(label: str, expanded: bool = False) -> DeltaGenerator:
    """One group of the page's settings: an expander beside the figure."""
    place = _CONTROLS.get()
    return (place if place is not None else st.sidebar).expander(say.plain(label), expanded=expanded)


def toolbar(*labels: str, expanded: Sequence[str] = ()) -> tuple[DeltaGenerator, list[DeltaGenerator]]:
    """The line over the figure and the groups beside it: (row, [group containers]), groups named `labels` (those
    in `expanded` open at first). Draw each group's widgets in its container, then summary(row, ...) so that the
    line reflects what the widgets now hold."""
    row = st.container(horizontal=True, wrap=True, vertical_alignment="center", gap="small")
    if presenting():  # the presenter plays the figure from the keyboard (ui/plotly_chart.js)
        row.caption(":material/keyboard: **K** plays and pauses")
    return row, [group(label, label in expanded) for label in labels]


def summary(row: DeltaGenerator, parts: Iterable[str]) -> None:
    """The current settings as one line in the row over the figure (empty parts left out): each part is data (it
    holds what a link or the widgets hold) unless it is Markdown."""
    say.caption(say.join(SEPARATOR, (part for part in parts if part)), into=row)


def drawn_part(row: DeltaGenerator, parts: Iterable[str], whole: bool) -> None:
    """What part of the tensor the figure draws, on the row over the figure; on a projector only when it is not
    the whole tensor (every line there is a line less for the figure)."""
    if not (whole and presenting()):
        summary(row, parts)


def intro(text: str) -> None:
    """The page's one-line introduction (Markdown); on a projector the figure comes first and the speaker says
    it."""
    if not presenting():
        say.caption(text)


def braced(text: str) -> str:
    """A list typed as text, as DirectML writes it: "1,8,2,3 " -> {1,8,2,3}."""
    return "{" + text.strip() + "}"


def sizes_text(sizes: Iterable[int]) -> str:
    """Sizes as DirectML writes them: {1,8,2,3}."""
    return braced(",".join(str(int(s)) for s in sizes))
