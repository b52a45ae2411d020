"""Session-state callbacks shared by the operator pages: presets, and the cell a click picked (both in the URL)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import streamlit as st

from . import say, url_state


def apply_preset(values: Mapping[str, Any], pick_key: str) -> None:
    """Set the preset's settings; a pick made under other settings no longer means anything (`pick_key`: the page's,
    or "" for a page without picks)."""
    url_state.put_many(values)
    if pick_key:
        url_state.put(pick_key, None)


def preset_buttons(choices: Iterable[tuple[str, Mapping[str, Any]]], key_prefix: str, pick_key: str,
                   heading: str | None = None, icon: str | None = None) -> None:
    """A wrapping row of buttons as wide as their labels (equal columns cut labels short in narrow windows), after
    `heading` (Markdown) when given: `choices` are (label, settings) pairs, applied as presets (apply_preset); button k
    has key `{key_prefix}_{k}`."""
    row = st.container(horizontal=True, wrap=True, vertical_alignment="center")
    if heading:
        say.markdown(heading, into=row)
    for number, (label, values) in enumerate(choices):
        row.button(say.plain(label), key=f"{key_prefix}_{number}", on_click=apply_preset, args=(values, pick_key),
                   icon=icon, width="content")


def remember_pick(pick_key: str, chart_key: str, decode: Callable[[Any], Any]) -> None:
    """on_select callback of the chart ui.charts.show drew with `chart_key`: its click (as st.plotly_chart's selection
    state, {"points": [...]}) decoded into the page's pick (None when nothing usable)."""
    url_state.put(pick_key, decode(st.session_state[chart_key].select))


def clear_pick(pick_key: str) -> None:
    url_state.put(pick_key, None)
