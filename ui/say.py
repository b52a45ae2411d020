"""The one way text built at run time reaches the page: trusted Markdown is told from data by its type.

Streamlit renders Markdown (CommonMark with GitHub's extensions: links, images, autolinked addresses, strikethrough,
its own `:color[...]` and `$math$`) in st.markdown, st.caption, alerts, titles, and the labels and help of widgets.
A value from outside in any of them was a live link, an image the browser fetched, or the app's own text struck
through (a `~` in "Mesa 25.0.7-2~bpo12+1"). So:

- `Markdown` is text this app wrote: a string literal of its source, through `md(template, *values)`, which fills
  each `{}` of the template with a value as data. A value that is Markdown already stays Markdown; any other value
  is escaped as plain text (ui.echo.text), or shown as an inline code span with `{:code}`; a format spec (`{:,}`,
  `{:.3f}`) formats the value first. `join` and `+` keep the rule.
- The page functions here (markdown, caption, error, warning, info, success, title, subheader) draw Markdown as
  Markdown and anything else as the characters it holds. A string that is not Markdown is data, even when it was
  built from the app's own words: it is never parsed.

tests/app/test_text_boundary.py reads every page and ui module and fails on a Streamlit text element or label given
anything but a string literal outside this module, and on an md() template that is not a literal.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any, Protocol

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from . import echo


class Markdown(str):
    """Markdown written by this app, every value in it escaped (made by md, join, plain or code)."""

    __slots__ = ()

    def __add__(self, other: object) -> Markdown:
        return Markdown(str.__add__(self, as_markdown(other)))

    def __radd__(self, other: object) -> Markdown:
        return Markdown(str.__add__(as_markdown(other), self))


def as_markdown(value: object) -> Markdown:
    """`value` as Markdown: itself when it is Markdown, else the characters it holds, escaped."""
    return value if isinstance(value, Markdown) else Markdown(echo.text(value))


class _Filler(string.Formatter):
    """Fills a trusted template: every field is data unless its value is Markdown."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "code":
            return echo.code(value)
        if isinstance(value, Markdown) and not format_spec:
            return value
        return echo.text(format(value, format_spec))

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        return repr(value) if conversion == "r" else value


_FILLER = _Filler()


def md(template: str, *values: Any, **named: Any) -> Markdown:
    """The Markdown `template` (a literal of the app's source) with its `{}` fields filled by `values` as data."""
    return Markdown(_FILLER.vformat(template, values, named))


def plain(value: object) -> Markdown:
    """`value` shown as the characters it holds."""
    return as_markdown(str(value))


def code(value: object) -> Markdown:
    """`value` as an inline code span."""
    return Markdown(echo.code(value))


def join(separator: str, parts: Iterable[object]) -> Markdown:
    """`parts` joined by `separator` (a literal), each part data unless it is Markdown."""
    return Markdown(as_markdown(separator).join(as_markdown(part) for part in parts))


def lines(parts: Iterable[object]) -> Markdown:
    """`parts` as lines of one paragraph (Markdown's hard line break between them)."""
    return join(Markdown("  \n"), parts)


class _Element(Protocol):
    def __call__(self, text: object, into: DeltaGenerator | None = None, **kwargs: Any) -> DeltaGenerator: ...


def _element(kind: str) -> _Element:
    """A page function drawing Markdown as Markdown and anything else as the characters it holds: st.<kind>, or
    `into`'s <kind> (a container, a column)."""

    def draw(text: object, into: DeltaGenerator | None = None, **kwargs: Any) -> DeltaGenerator:
        return getattr(st if into is None else into, kind)(as_markdown(text), **kwargs)

    draw.__name__ = draw.__qualname__ = kind
    return draw


markdown = _element("markdown")
caption = _element("caption")
error = _element("error")
warning = _element("warning")
info = _element("info")
success = _element("success")
title = _element("title")
subheader = _element("subheader")


def style(css: str) -> None:
    """A style sheet of the app's own (a style-only element takes no space): never anything but CSS."""
    if "<" in css:
        raise ValueError("a style sheet holds no tags")
    st.html(f"<style>{css}</style>")
