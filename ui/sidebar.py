"""The settings every page shares, drawn once in the sidebar by app.py and kept in the URL (ui.url_state)."""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ops import DML_TYPES, FEATURE_LEVELS, directml_status

from . import say, url_state
from .say import Markdown, md
from .url_state import PRESENT
from .values import PATTERN_HELP, PATTERNS, Values, typed_value_notes

DEFAULTS: dict[str, Any] = {
    "dtype": "UINT32",
    "level": FEATURE_LEVELS[-1],
    "pattern": "coded",
    "seed": 0,
    "start": 0.0,
    "delta": 1.0,
    "values": "",
}
SEED_MAX = 2**31 - 1
PRESENT_FONT_PX = 20  # Streamlit's own base is 16 px
PRESENT_TOP_REM = 2  # room above the title for the arrow that brings the sidebar back (beside it, not over it)
# Typed values travel in the URL: a link longer than this fails in browsers and proxies before the app sees it.
TYPED_MAX_CHARS = 4000


@dataclass(frozen=True)
class SidebarSettings:
    """The settings every operator page shares, drawn in the sidebar."""

    data_type: str
    feature_level: str
    pattern: str
    seed: int
    start: float
    delta: float
    text: str

    @property
    def values(self) -> Values:
        """How the page's input values are made (hashable: the key of shared work)."""
        return Values(self.pattern, self.data_type, self.seed, self.start, self.delta, self.text)


def render_sidebar(shown: Collection[str]) -> None:
    """The shared settings the page reads (`shown`: "dtype", "level", "pattern", as the registry says): the others are
    not drawn (they would change nothing) and stay out of its link; the session keeps their values for the pages that
    use them."""
    pattern = None
    with st.sidebar:
        if "dtype" in shown:
            url_state.widget(st.selectbox, "DataType", "dtype", DEFAULTS["dtype"], options=DML_TYPES,
                             help="DML_TENSOR_DATA_TYPE of every tensor on the page")
        if "level" in shown:
            url_state.widget(st.selectbox, "Feature level", "level", DEFAULTS["level"], options=FEATURE_LEVELS,
                             help="DML_FEATURE_LEVEL_...: the descriptor is validated against this level's support "
                                  "table (every level DirectML documents); a cross-check on DirectML runs at the "
                                  "level of the DirectML here (named below where it runs)")
            here = directml_here()
            if here is not None:
                say.caption(md("{} runs here: feature level {} at most.", *here))
        if "pattern" in shown:
            pattern = url_state.widget(st.selectbox, "Values", "pattern", DEFAULTS["pattern"],
                                       options=list(PATTERNS), format_func=PATTERNS.get,
                                       help=say.plain(PATTERN_HELP))
        if pattern in ("random", "random_bytes"):
            url_state.widget(st.number_input, "Random seed", "seed", DEFAULTS["seed"], minimum=0, maximum=SEED_MAX)
        if pattern == "sequence":
            url_state.widget(st.number_input, "Start", "start", DEFAULTS["start"])
            url_state.widget(st.number_input, "Delta", "delta", DEFAULTS["delta"])
        if pattern == "custom":
            typed = url_state.widget(st.text_area, "Typed values", "values", DEFAULTS["values"],
                                     max_chars=TYPED_MAX_CHARS,
                                     help="Numbers in row-major order, separated by spaces or commas; "
                                          "nan, inf, -inf for floats; 0x... gives a bit pattern")
        present = url_state.widget(st.toggle, "Presentation mode", PRESENT, False,
                                   help="For a projector (1280x720): larger text, the sidebar folded away and "
                                        "figures sized to the screen; the K key plays and pauses the figure on "
                                        "screen. In the link as present=true.")
    if present:
        # The sidebar folds away; its arrow at the top left brings it back. Streamlit sizes its text in rem, and its
        # 6rem above the title would be an eighth of a 720 px projector: the figure gets that room.
        st.set_page_config(initial_sidebar_state="collapsed")
        # The title shrinks too, and goes up beside the header's arrow and menu (the header's background would hide
        # it there): on 720 px every line over the figure is a line of the figure less.
        say.style(f"html {{ font-size: {PRESENT_FONT_PX}px; }} "
                  f"[data-testid='stMainBlockContainer'] {{ padding-top: {PRESENT_TOP_REM}rem; }} "
                  "[data-testid='stMainBlockContainer'] h1 { font-size: 1.75rem; padding: 0.25rem 0; } "
                  "[data-testid='stHeader'] { background: transparent; }")
    if pattern == "custom":
        show_value_notes(typed, url_state.peek("dtype", DEFAULTS["dtype"]))


def show_value_notes(text: str | None, data_type: str, field: str = "Values") -> None:
    """Typed values that did not fit the type, said at the top of the page (not only in the server's log)."""
    notes = typed_value_notes(text or "", data_type, field)
    if notes:
        say.warning(say.lines(notes), icon=":material/data_alert:")


# How long the DirectML found here is taken as known: looking again checks eight files on disk and asks the worker,
# twice in a page run, and the set-up does not change under a running server.
DIRECTML_SECONDS = 30.0
_directml_found: list[tuple[float, tuple[str, str] | None]] = []  # [(monotonic time, directml_here's answer)]


def directml_here() -> tuple[str, str] | None:
    """(the DirectML that runs here, e.g. "DirectML 1.13", the highest feature level it supports), or None where it
    does not run here (ops.directml_status); looked up at most every DIRECTML_SECONDS."""
    now = time.monotonic()
    if _directml_found and now - _directml_found[0][0] < DIRECTML_SECONDS:
        return _directml_found[0][1]
    status = directml_status()
    found = None
    if status.available and status.max_feature_level:
        found = (status.provider or "").split(" (", 1)[0], status.max_feature_level
    _directml_found[:] = [(now, found)]
    return found


def valid_at(level: str) -> Markdown:
    """The line that says a descriptor is valid at `level`, and what the DirectML here supports when that is less:
    validation defaults to the newest level (6_4), which the DirectML 1.13 here (6_2) does not reach."""
    line = md("Valid at DML_FEATURE_LEVEL_{} (its support table).", level)
    here = directml_here()
    if here is not None and FEATURE_LEVELS.index(level) > FEATURE_LEVELS.index(here[1]):
        line += md(" The {} that runs here supports up to feature level {}: its cross-check runs at {}.", here[0],
                   here[1], here[1])
    return line


def current_settings() -> SidebarSettings:
    """The shared settings as this run's sidebar set them (defaults for those the pattern does not use)."""
    params = {key: url_state.peek(key, default) for key, default in DEFAULTS.items()}
    pattern = params["pattern"]
    return SidebarSettings(
        data_type=params["dtype"],
        feature_level=params["level"],
        pattern=pattern,
        seed=int(params["seed"]) if pattern in ("random", "random_bytes") else DEFAULTS["seed"],
        start=float(params["start"]) if pattern == "sequence" else DEFAULTS["start"],
        delta=float(params["delta"]) if pattern == "sequence" else DEFAULTS["delta"],
        text=(params["values"] or "") if pattern == "custom" else DEFAULTS["values"],
    )
