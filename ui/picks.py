"""Session-state callbacks shared by the operator pages: presets, and the cell a click picked."""

import streamlit as st


def apply_preset(values, pick_key):
    """Set the preset's widget values; a pick made under other settings no longer means anything."""
    st.session_state.update(values)
    st.session_state.pop(pick_key, None)


def remember_pick(pick_key, chart_key, decode):
    """on_select callback: decode the chart's selection into the page's pick (None when nothing usable)."""
    st.session_state[pick_key] = decode(st.session_state[chart_key].selection)


def clear_pick(pick_key):
    st.session_state.pop(pick_key, None)
