"""The app's pages, declared once: one line a page.

The router (app.py), the sidebar (which shared settings a page reads), the Overview's sections and links, and every
link from a descriptor or a model to the operator page that shows it read this list; no page path is written
anywhere else. An operator page is a folder (app_pages/<page>/) whose package names the operators it shows, how a
call of one of them becomes its URL query (so a link opens the page exactly as a shared link would), and its
section of the Overview; its script is the folder's page.py.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import streamlit as st

from ops import Call, operator
from ui import handoff
from ui.url_state import query_of

from . import bitwise, depth_space, gather_scatter, layouts, slice_pad, split_join
from .overview.section import Section

LinkQuery = Callable[[Call, Sequence[Sequence[int]]], dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class Page:
    path: str  # the page's script, relative to app.py
    title: str
    url_path: str = ""
    default: bool = False
    reads: tuple[str, ...] = ("dtype", "level", "pattern")  # the sidebar's shared settings the page uses
    operators: tuple[str, ...] = ()  # the registry operators it shows
    # (call, each input's sizes as stored) -> the page's URL settings for the call (beside the sidebar's DataType)
    query: LinkQuery | None = None
    overview: Section | None = None  # what the Overview shows of the page


def operator_page(folder: ModuleType, title: str, url_path: str) -> Page:
    """An operator page's entry: its folder's script, and the operators, link query and Overview section its package
    declares (OPERATORS, link_query, OVERVIEW)."""
    name = folder.__name__.rsplit(".", 1)[-1]
    return Page(f"app_pages/{name}/page.py", title, url_path, operators=folder.OPERATORS, query=folder.link_query,
                overview=folder.OVERVIEW)


OVERVIEW = Page("app_pages/overview/page.py", "Overview", default=True, reads=())
DEPTH_SPACE = operator_page(depth_space, "Depth <-> Space", "depth_space")
BITWISE = operator_page(bitwise, "Bitwise", "bitwise_or")  # the family's page: its address from when it showed OR
SPLIT_JOIN = operator_page(split_join, "Split <-> Join", "split_join")
GATHER_SCATTER = operator_page(gather_scatter, "Gather & Scatter", "gather_scatter")
SLICE_PAD = operator_page(slice_pad, "Slice, Pad & Tile", "slice_pad")
LAYOUTS = operator_page(layouts, "Layouts", "layouts")
WORKBENCH = Page("app_pages/workbench/page.py", "Descriptor workbench", "workbench", reads=("level",))
CONVERTER = Page("app_pages/converter/page.py", "DCR ↔ CRD converter", "converter", reads=())
DETECTIVE = Page("app_pages/detective/page.py", "The layout detective", "detective", reads=())
ONNX_MODEL = Page("app_pages/onnx_model/page.py", "Open an ONNX model", "onnx_model", reads=())
CATALOGUE = Page("app_pages/catalogue/page.py", "Operator catalogue", "catalogue", reads=())
PAGES = (OVERVIEW, DEPTH_SPACE, BITWISE, SPLIT_JOIN, GATHER_SCATTER, SLICE_PAD, LAYOUTS, WORKBENCH, CATALOGUE,
         CONVERTER, DETECTIVE, ONNX_MODEL)

handoff.open_models_in(WORKBENCH.path)  # where "Open in Descriptor workbench" leads, from any page
_BUILT: list[Any] = []  # the st.Page objects, made once for the server


def navigation_pages() -> list[Any]:
    """The st.Page objects of every page, for st.navigation, in this order. st.Page resolves its script's path on
    disk (a dozen file system calls a page): they are made once, and each run gets copies, since st.navigation marks
    the page it returns as the one that run may call (objects shared between sessions running at the same time
    refused each other's runs: "This page cannot be called directly", seen under a class of 30)."""
    if not _BUILT:
        _BUILT[:] = [st.Page(p.path, title=p.title, url_path=p.url_path or None, default=p.default) for p in PAGES]
    return [copy.copy(page) for page in _BUILT]


def by_url_path(url_path: str) -> Page:
    return next((p for p in PAGES if p.url_path == url_path), OVERVIEW)


def page_of(name: str) -> Page:
    """The page that shows operator `name`."""
    name = operator(name).name
    return next(p for p in PAGES if name in p.operators)


def operator_link(call: Call, stored: Sequence[Sequence[int]] | None = None) -> tuple[Page, dict[str, str]]:
    """(page, query parameters) that open the operator page showing `call` (an ops Call); `stored` are each
    input's sizes as stored, where an input is broadcast from smaller sizes (Bitwise's B)."""
    page = page_of(call.op)
    assert page.query is not None
    return page, query_of({"dtype": call.data_type, **page.query(call, stored or call.input_sizes)})
