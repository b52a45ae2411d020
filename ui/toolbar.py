"""The picture first: an operator page's settings folded into one row of popovers, and one line that says them.

Rows of inputs, radios with captions and preset buttons pushed the figure below the fold (800 px down at 1400x1000,
past the bottom of a 1280x720 projector). Folded into popovers, the controls take one row whatever their number, and
the summary line keeps the current settings readable without opening anything. Widgets keep their keys (and
url_state their URL parameters): only where they are drawn changes.
"""

import streamlit as st

from .sidebar import presenting

SEPARATOR = " · "


def toolbar(*labels):
    """A wrapping row of popovers named `labels`: (row, [popover containers]). Draw each group's widgets in its
    popover, then summary(row, ...) so that the line reflects what the widgets now hold."""
    row = st.container(horizontal=True, wrap=True, vertical_alignment="center", gap="small")
    return row, [row.popover(label) for label in labels]


def summary(row, parts):
    """The current settings as one line at the end of the toolbar's row (empty parts left out)."""
    row.caption(SEPARATOR.join(part for part in parts if part))


def intro(text):
    """The page's one-line introduction; on a projector the figure comes first and the speaker says it."""
    if not presenting():
        st.caption(text)


def braced(text):
    """A list typed as text, as DirectML writes it: "1,8,2,3 " -> {1,8,2,3}."""
    return "{" + text.strip() + "}"


def sizes_text(sizes):
    """Sizes as DirectML writes them: {1,8,2,3}."""
    return braced(",".join(str(int(s)) for s in sizes))
