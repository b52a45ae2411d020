"""The app's pages, declared once.

The router (app.py), the sidebar (which shared settings a page reads), the Overview's links and presets, and every
link from a descriptor or a model to the operator page that shows it read this list; no page path is written
anywhere else. A page that shows operators names them (the registry's names) and says how a call of one of them
becomes its URL query, so a link opens the page exactly as a shared link would.
"""

import dataclasses
from collections.abc import Callable

import streamlit as st

from ops.operators import bitwise, operator


def _joined(values):
    return ",".join(str(int(v)) for v in values)


def _depth_space_query(call, stored):
    n, c, h, w = call.input_sizes[0]
    return dict(direction=call.operator.direction, N=n, C=c, H=h, W=w, BlockSize=call.attr("block_size"),
                Order=call.attr("order"))


# The Bitwise page's operation where its link names none: OR, the page's one operation before the family came, so that
# every older link opens the same view.
BITWISE_DEFAULT = "ELEMENT_WISE_BIT_OR"


def _bitwise_query(call, stored):
    """Sizes, B's broadcast dims (binary operators), the operation when it is not the page's default OR, and the
    output type attribute (BIT_COUNT's) as the page's bw_out_type."""
    sizes = call.input_sizes[0]
    query = dict(or_sizes=_joined(sizes))
    if len(stored) > 1:
        b_sizes = (1,) * (len(sizes) - len(stored[1])) + tuple(stored[1])
        query["or_bcast"] = _joined(d for d, (a, b) in enumerate(zip(sizes, b_sizes)) if b == 1 and a != 1)
    if call.op != BITWISE_DEFAULT:
        query["bw_op"] = call.op
    query.update(("bw_out_type", value) for _, value in call.attrs)
    return query


def _split_join_query(call, stored):
    """A JOIN opens as the SPLIT that undoes it: the page shows both."""
    whole, parts = call.operator.whole_and_parts(call)
    return dict(sj_sizes=_joined(whole), sj_axis=call.attr("axis"), sj_mode="sizes", sj_split=_joined(parts))


@dataclasses.dataclass(frozen=True)
class Page:
    path: str
    title: str
    url_path: str = ""
    default: bool = False
    reads: tuple = ("dtype", "level", "pattern")  # the sidebar's shared settings the page uses
    operators: tuple = ()  # the registry operators it shows
    # (call, each input's sizes as stored) -> the page's URL settings for the call (beside the sidebar's DataType)
    query: Callable | None = None


OVERVIEW = Page("app_pages/overview.py", "Overview", default=True, reads=())
DEPTH_SPACE = Page("app_pages/depth_space.py", "Depth <-> Space", "depth_space",
                   operators=("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"), query=_depth_space_query)
BITWISE = Page("app_pages/bitwise_or.py", "Bitwise", "bitwise_or", operators=tuple(op.name for op in bitwise.OPERATORS),
               query=_bitwise_query)
SPLIT_JOIN = Page("app_pages/split_join.py", "Split <-> Join", "split_join", operators=("SPLIT", "JOIN"),
                  query=_split_join_query)
LAYOUTS = Page("app_pages/layouts.py", "Layouts", "layouts", operators=("ELEMENT_WISE_IDENTITY",))
WORKBENCH = Page("app_pages/workbench.py", "Descriptor workbench", "workbench", reads=("level",))
CONVERTER = Page("app_pages/converter.py", "DCR ↔ CRD converter", "converter", reads=())
DETECTIVE = Page("app_pages/detective.py", "The layout detective", "detective", reads=())
ONNX_MODEL = Page("app_pages/onnx_model.py", "Open an ONNX model", "onnx_model", reads=())
PAGES = (OVERVIEW, DEPTH_SPACE, BITWISE, SPLIT_JOIN, LAYOUTS, WORKBENCH, CONVERTER, DETECTIVE, ONNX_MODEL)


def navigation_pages():
    """The st.Page objects of every page, for st.navigation, in this order. Made afresh for each run: st.navigation
    marks the page it returns as the one that run may call, so objects shared between sessions running at the same
    time refused each other's runs ("This page cannot be called directly", seen under a class of 30)."""
    return [st.Page(p.path, title=p.title, url_path=p.url_path or None, default=p.default) for p in PAGES]


def by_url_path(url_path):
    return next((p for p in PAGES if p.url_path == url_path), OVERVIEW)


def page_of(name):
    """The page that shows operator `name`."""
    name = operator(name).name
    return next(p for p in PAGES if name in p.operators)


def operator_link(call, stored=None):
    """(page, query parameters) that open the operator page showing `call` (an ops Call); `stored` are each
    input's sizes as stored, where an input is broadcast from smaller sizes (Bitwise OR's B)."""
    from .url_state import query_of

    page = page_of(call.op)
    return page, query_of({"dtype": call.data_type, **page.query(call, stored or call.input_sizes)})
