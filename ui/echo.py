"""What a visitor typed, linked or uploaded, shown back in the page as inert text: one rule for every echo.

Every view is a link anyone can craft, and Streamlit renders Markdown in st.markdown, st.caption, alerts and
expander labels (CommonMark with GitHub's extensions: links, images, autolinked addresses, emphasis, its own
`:color[...]` and `$math$`). A link value such as `[Click](http://evil.example) ![t](http://evil.example/p.png)`
echoed into a warning became a working link and made every visitor's browser fetch the image. So a value from
outside goes into the page through exactly one of:

- `code(value)`: an inline code span, whose content CommonMark never interprets. Its fence is one backtick longer
  than the longest run of backticks inside (CommonMark 0.31, 6.1 "Code spans"), so a backtick cannot end it early;
  line breaks become spaces (a blank line would end the paragraph, and the span with it);
- `text(message)`: a whole message (the core's, which quotes values) as plain text: every character that can
  open a construct backslash-escaped (CommonMark 2.4 "Backslash escapes"): always a backslash, a backtick and
  `* [ ] < > ~ $ &`; `_`
  unless inside a word (where CommonMark never reads it as emphasis); `:` before a letter (Streamlit's `:red[...]`,
  `:material/...:` and emoji codes); `|` in a text of several lines (a table needs two); `#`, `-`, `+`, `=` and a
  number's `.` or `)` at the start of a line (headings, lists). The rest stays as it is, so the Markdown source still
  reads as the text. A word joiner (U+2060, invisible) goes after the `:` of `://`, the `@` of an address and the
  `www` of `www.`, because GitHub's autolink extension links those even when escaped (it runs on the text after
  escapes are resolved; measured in Chromium);
- `figure_text(value)`: a title or label in a Plotly figure, which renders a few HTML tags (`<a href>` among them):
  `&`, `<` and `>` as character references, which Plotly shows as the characters.

Each one shortens a long value first (`shorten`): 100 KB link values were echoed in full.
"""

from __future__ import annotations

import re
from typing import Any

SHOWN_CHARS = 200  # a value echoed longer than this is cut, saying how long it was
MESSAGE_CHARS = 2000  # a whole message (the core's, with values quoted in it)
# CommonMark: any ASCII punctuation character may be backslash-escaped. These open a construct wherever they are;
# `_` does too, except between two letters or digits; `:` before a letter.
_ALWAYS = re.compile(r"([\\`*\[\]<>~$&]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])|:(?=[A-Za-z]))")
# At a line's start (after up to three spaces): headings, list items, setext underlines, ordered list numbers.
_LINE_START = re.compile(r"(?m)^( {0,3})([#+=-]|\d+(?=[.)]))")
_BACKTICKS = re.compile(r"`+")
_LINE_BREAK = re.compile(r"\r\n?|\n")
WORD_JOINER = "\u2060"
_WWW = re.compile(r"(?i)(www)(\.)")


def _cut(value, limit):
    """(the first `limit` characters of `value` as text, ending in an ellipsis if cut; a note of its length or "")."""
    value = str(value)
    if len(value) <= limit:
        return value, ""
    return value[:limit] + "…", f" ({len(value):,} characters in all)"


def shorten(value: Any, limit: int = SHOWN_CHARS) -> str:
    """`value` as text, cut to `limit` characters with a note of its full length."""
    return "".join(_cut(value, limit))


def _escaped(plain):
    escaped = _ALWAYS.sub(r"\\\1", plain)
    escaped = _LINE_START.sub(lambda m: m[1] + (m[2] + "\\" if m[2][0].isdigit() else "\\" + m[2]), escaped)
    if "\n" in escaped or "\r" in escaped:
        escaped = escaped.replace("|", "\\|")
    # Where GitHub's autolink extension would start a link: "://", an address's "@", "www.".
    escaped = escaped.replace("://", f":{WORD_JOINER}//").replace("@", f"@{WORD_JOINER}")
    return _WWW.sub(rf"\1{WORD_JOINER}\2", escaped)


def text(message: Any, limit: int = MESSAGE_CHARS) -> str:
    """A message shown as the characters it holds, whatever Markdown they spell."""
    return _escaped(shorten(message, limit))


def code(value: Any, limit: int = SHOWN_CHARS) -> str:
    """`value` as an inline code span: shown literally, in a monospace font."""
    shown, note = _cut(value, limit)
    shown = _LINE_BREAK.sub(" ", shown) or " "  # an empty span would be two literal backticks
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(shown)), default=0) + 1)
    # One space each side is stripped from a span's content: added when the value starts or ends with a backtick
    # (which would join the fence) or is wrapped in spaces itself.
    padded = shown[:1] == "`" or shown[-1:] == "`" or (shown[:1] == " " and shown[-1:] == " " and shown.strip())
    space = " " if padded else ""
    return f"{fence}{space}{shown}{space}{fence}" + _escaped(note)


def figure_text(value: Any, limit: int = SHOWN_CHARS) -> str:
    """`value` for a Plotly title, label or hover text: its tags shown as text, never drawn or followed."""
    return shorten(value, limit).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
