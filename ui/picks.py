"""Session-state callbacks shared by the operator pages: presets, and the cell a click picked (both in the URL)."""

import streamlit as st

from . import url_state
from .charts import clicked


def apply_preset(values, pick_key):
    """Set the preset's settings; a pick made under other settings no longer means anything."""
    url_state.put_many(values)
    url_state.put(pick_key, None)


def preset_buttons(presets, prefix, pick_key):
    """A wrapping row of preset buttons as wide as their labels (equal columns cut labels short in narrow
    windows); button k has key `{prefix}_preset_{k}`."""
    row = st.container(horizontal=True, wrap=True)
    for number, (name, values) in enumerate(presets.items()):
        row.button(name, key=f"{prefix}_preset_{number}", on_click=apply_preset, args=(values, pick_key),
                   width="content")


def remember_pick(pick_key, chart_key, decode):
    """on_select callback: decode the chart's selection into the page's pick (None when nothing usable)."""
    url_state.put(pick_key, decode(clicked(chart_key)))


def clear_pick(pick_key):
    url_state.put(pick_key, None)
