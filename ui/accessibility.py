"""Contrast fixes that Streamlit's theme options cannot reach (WCAG 2 AA, 1.4.3: 4.5:1 for text).

The theme (.streamlit/config.toml) darkens the text and replaces the red primary color; two colors are not theme
options: inline code inside a caption (the theme's code green at the caption's 60% opacity measured 3.0:1) and
comments in highlighted code (a fixed grey #808495, 3.6:1). Caption code takes the caption's color (5.0:1 with the
theme's text); comments get a darker grey, 6.1:1 on the light theme's code background, and a lighter one under a dark
color scheme (!important: Streamlit sets them with a generated class of higher specificity).
"""

import streamlit as st

_CSS = """<style>
[data-testid="stCaptionContainer"] code { color: inherit; }
.token.comment, .token.prolog, .token.doctype, .token.cdata { color: #5E6270 !important; }
@media (prefers-color-scheme: dark) {
  .token.comment, .token.prolog, .token.doctype, .token.cdata { color: #A3A8B8 !important; }
}
</style>"""


def readable_colors():
    """The page's contrast fixes (app.py, every run; a style-only element takes no space on the page)."""
    st.html(_CSS)
