"""Error states that keep their context: the nearest valid fixes as buttons, and the last valid figure, greyed.

A page that finds its settings invalid calls `offer_fixes` (the rule, then one button per fix; a click sets the
fix's settings as a preset would) and `last_valid_figure` (the figure of the settings that last drew, greyed and
labelled, so the picture the user was looking at stays beside the message). Pages record what they drew with
`remember_valid`: small settings, never arrays; the figure itself comes back from the shared cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from ops import DescriptorError
from ops.operators.fixes import Fix, Fixes

from . import say
from .picks import preset_buttons
from .say import md
from .work import Values, tensor

_KEY = "_last_valid"
GREYED_CLASS = "greyed-last-valid"
# Greyed and dimmed, and not clickable: a picture of settings that are no longer the page's. The label above it
# stays at full contrast (it is outside the dimmed container).
_GREYED_CSS = f".st-key-{GREYED_CLASS} {{filter: grayscale(1); opacity: 0.45; pointer-events: none;}}"


# Typed values the page cannot use (too few, too many, not numbers of the type): the sidebar's pattern instead.
PATTERN_FIX = Fixes("typed values", (Fix("Values from the pattern (origin-coded)", (("pattern", "coded"),)),))


def typed_values_refused(values: Values, shape: tuple[int, ...]) -> tuple[str, Fixes] | None:
    """Refused-style (message, fixes) when the sidebar's typed values cannot fill `shape`, else None: checked
    before the page's work, so that the refusal offers the pattern instead of ending the view."""
    if values.pattern != "custom":
        return None
    try:
        tensor(values, shape)
    except DescriptorError as exc:
        return str(exc), PATTERN_FIX
    return None


def remember_valid(page: str, settings: Any) -> None:
    """Record the settings the page (its key) last drew a figure for (small: what its shared work is keyed by)."""
    st.session_state.setdefault(_KEY, {})[page] = settings


def last_valid(page: str) -> Any:
    return st.session_state.get(_KEY, {}).get(page)


def offer_fixes(message: str, fixes: Fixes | None, key: str, to_settings: Callable[[Fix], dict[str, Any]],
                pick_key: str) -> None:
    """The error `message` (the rule broken, naming its field), the nearest fixes in a sentence, one button each.

    `to_settings(fix)` turns a core Fix into the page's settings {URL key: value}; a fix is applied as a preset is
    (the pick made under the old settings is cleared). `fixes` None: the rule has no fix to offer."""
    suggestion = fixes.suggestion() if fixes else ""
    say.error(say.plain(message) + (md("  \nNearest valid settings: {}.", suggestion) if suggestion else md("")),
              icon=":material/error:")
    if not fixes or not fixes.options:
        return
    preset_buttons(((fix.label, to_settings(fix)) for fix in fixes.options), f"{key}_fix", pick_key,
                   heading=md("**Fix:**"), icon=":material/build:")


def last_valid_figure(page: str, draw: Callable[[Any], None]) -> None:
    """Under a 'Last valid view' label, `draw(settings)` for the settings the page (its key) last drew, greyed;
    nothing when this session has not drawn a valid figure on the page yet."""
    settings = last_valid(page)
    if settings is None:
        return
    st.caption(":material/history: Last valid view (greyed): the figure of the settings before this change")
    say.style(_GREYED_CSS)
    with st.container(key=GREYED_CLASS):
        draw(settings)
