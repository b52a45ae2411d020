"""Contrast fixes that Streamlit's theme options cannot reach (WCAG 2 AA, 1.4.3: 4.5:1 for text).

The theme (.streamlit/config.toml) darkens the text and replaces the red primary color; some colors are not theme
options: inline code inside a caption (the theme's code green at the caption's 60% opacity measured 3.0:1), comments
in highlighted code (a fixed grey #808495, 3.6:1) and the other token colors of highlighted code on the light
background (axe-core measured JSON keys #00A4D4 at 2.8:1 and strings #09AB3B at 3.0:1; numbers, operators and
keywords are 2.1 to 3.5:1). Caption code takes the caption's color (5.0:1 with the theme's text); comments get a
darker grey, 6.1:1 on the light theme's code background, and a lighter one under a dark color scheme; the other
tokens get darker shades of their hues, at least 4.9:1, on the light scheme only (the dark scheme keeps
Streamlit's own). !important: Streamlit sets them with a generated class of higher specificity.
"""

from . import say

_CSS = """
[data-testid="stCaptionContainer"] code { color: inherit; }
.token.comment, .token.prolog, .token.doctype, .token.cdata { color: #5E6270 !important; }
@media (prefers-color-scheme: dark) {
  .token.comment, .token.prolog, .token.doctype, .token.cdata { color: #A3A8B8 !important; }
}
@media not (prefers-color-scheme: dark) {
  .token.attr-name, .token.property, .token.variable { color: #006B8A !important; }
  .token.boolean, .token.constant, .token.symbol, .token.inserted { color: #087230 !important; }
  .token.number, .token.regex { color: #0B6E62 !important; }
  .token.string, .token.char, .token.attr-value { color: #0A6E2D !important; }
  .token.operator, .token.entity, .token.decorator, .token.atrule { color: #B04A00 !important; }
  .token.keyword, .token.tag, .token.function, .token.class-name, .token.selector { color: #1A5FB4 !important; }
  .token.important, .token.deleted { color: #C62828 !important; }
}
"""


def readable_colors() -> None:
    """The page's contrast fixes (app.py, every run; a style-only element takes no space on the page)."""
    say.style(_CSS)
