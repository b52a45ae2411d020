"""What one page run may send to the browser, bounded like what it may read.

A 33 KB workbench link of 8,900 resources with 8 fields DxDispatch ignores each drew one element per ignored field:
71,256 messages (16.9 MB) and 22 s for one visit, until Streamlit dropped the client. Lists that grow with a visitor's
input are summarized where they are drawn (`few`: the first FEW, then how many more); and whatever a page draws, one
run (a whole page, or a fragment) sends at most MAX_MESSAGES messages and MAX_BYTES bytes. The run that would pass
either stops there (OutputExceeded, which a page's own `except Exception` does not catch), and the router says so at
the top of the page, naming the limit.

Every message a run sends goes through its ScriptRunContext's enqueue, and every run starts with its reset
(streamlit/runtime/scriptrunner_utils/script_run_context.py, Streamlit 1.67): `install()` counts there.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

from . import say
from .say import Markdown, md

T = TypeVar("T")

# The largest legitimate runs measured: the ONNX model page's 40 node cards (about 330 messages), a workbench run of
# 5 drawn dispatches (113 messages, 3.2 MB; at most 12 are drawn), a cap-size figure (0.65 MB).
MAX_MESSAGES = 2000
MAX_BYTES = 32 << 20
# Notes, ignored fields and problems listed one by one before the rest is counted.
FEW = 5

_installed = threading.Lock()


class OutputExceeded(StopException):
    """This run has sent what one run may send. A StopException: where nothing catches it, the run just stops."""


class _Sent:
    __slots__ = ("messages", "bytes", "stopped")

    def __init__(self) -> None:
        self.messages = self.bytes = 0
        self.stopped = False


def _sent(ctx: ScriptRunContext) -> _Sent:
    sent = ctx.__dict__.get("_output_sent")
    if sent is None:
        sent = ctx.__dict__["_output_sent"] = _Sent()
    return sent


def install() -> None:
    """Count what every run sends (idempotent; the router calls it)."""
    with _installed:
        if getattr(ScriptRunContext, "_output_budget", False):
            return
        enqueue, reset = ScriptRunContext.enqueue, ScriptRunContext.reset

        def counted_enqueue(self: ScriptRunContext, msg: Any) -> None:
            sent = _sent(self)
            sent.messages += 1
            sent.bytes += msg.ByteSize()
            if not sent.stopped and (sent.messages > MAX_MESSAGES or sent.bytes > MAX_BYTES):
                sent.stopped = True  # what follows (the router's notice, the link) passes
                raise OutputExceeded(stopped_text(sent))
            enqueue(self, msg)

        def counted_reset(self: ScriptRunContext, *args: Any, **kwargs: Any) -> None:
            self.__dict__["_output_sent"] = _Sent()
            reset(self, *args, **kwargs)

        # Streamlit's own methods, wrapped in place for every run of the process.
        ScriptRunContext.enqueue = counted_enqueue  # type: ignore[method-assign]
        ScriptRunContext.reset = counted_reset  # type: ignore[method-assign]
        ScriptRunContext._output_budget = True  # type: ignore[attr-defined]


def stopped_text(sent: _Sent) -> str:
    limit = f"{MAX_MESSAGES:,} elements" if sent.messages > MAX_MESSAGES else f"{MAX_BYTES / (1 << 20):,.3g} MB"
    return (f"This view stopped here: it would send your browser more than {limit} in one run, the most one view may "
            "send (the server is shared by a whole class). What it shows grows with its input: use a smaller model, "
            "fewer parts or a smaller tensor.")


def show_stopped(stopped: OutputExceeded, where: Any = None) -> None:
    """The notice of a run that passed its output budget, in `where` (a container) or at the end of the page."""
    say.warning(str(stopped), into=where, icon=":material/block:")


def few(items: Iterable[T], limit: int = FEW) -> tuple[Sequence[T], int]:
    """(the first `limit` items, how many more there are)."""
    items = list(items) if not isinstance(items, (list, tuple)) else items
    return items[:limit], max(0, len(items) - limit)


def and_more(count: int, what: str) -> Markdown:
    """"... and 1,234 more <what>" for the items `few` left out (Markdown), or ""."""
    return md("... and {:,} more {}", count, what) if count else md("")
