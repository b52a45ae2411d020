"""Streamlit helpers every page shares: the sidebar settings, value patterns and the standard panels."""
