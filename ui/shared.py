"""Work shared between sessions: one byte-bounded cache and one memory budget for the whole server.

Budgets (documented in the README): CACHE_BYTES for everything kept between runs (computed tensors up to a
quarter of it each, figures, cross-check summaries); WORK_BYTES for the arrays that page runs hold at the same time;
LANE for time: one heavy view computes at a time, the longest are refused. A page's heavy section runs inside
`admitted(bytes, seconds=...)`, which waits for room or raises Busy (TooLong for never) with a message to show.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import gc
import threading
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import streamlit as st

from ops import element_cap_set_to
from serve.budget import Busy, HeavyLane, TooLong, WorkBudget
from serve.cache import MiB, SharedCache
from serve.memory import release

from . import say, url_state
from .say import md

F = TypeVar("F", bound=Callable[..., Any])

CACHE_BYTES = 256 * MiB
WORK_BYTES = 1024 * MiB

# Below the core's 2^26: a page holds several tensors of this size at once (input, output, the cross-check's copy)
# while it runs, within WORK_BYTES.
APP_ELEMENT_CAP = 2**24

# CPU seconds per byte of a view's reserved working set: a cap-size FLOAT64 view (three 128 MiB tensors reserved)
# took 1.1 s on this project's 2-core machine, values, operator, figure and cross-checks together.
BYTE_SECONDS = 3e-9
# Views reserving this much or more hand freed memory back to the system afterwards (malloc_trim walks the heap:
# not worth it after a small view).
TRIM_BYTES = 64 * MiB

CACHE = SharedCache(CACHE_BYTES)
BUDGET = WorkBudget(WORK_BYTES)
LANE = HeavyLane()
# Cross-checks run here, beside the page runs that asked for them: a page draws from the core at once and its verdict
# fills in when DirectML (a first compile takes 0.4-0.5 s) and ONNX Runtime have answered. Two threads: the DirectML
# worker serves one call at a time anyway, and ONNX Runtime's sessions run on one thread each.
CHECKS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cross-check")
_pending: dict[Hashable, Future[Any]] = {}  # key -> the Future computing it on CHECKS
_pending_lock = threading.Lock()

__all__ = ["APP_ELEMENT_CAP", "BUDGET", "Busy", "CACHE", "LANE", "TooLong", "admitted", "fragment",
           "in_background", "reset", "shared", "wait_for_background"]


def in_background(key: Hashable, function: Callable[..., Any], *args: Any) -> None:
    """function(*args) on the CHECKS threads, once for every caller asking with `key` while it runs."""
    with _pending_lock:
        if key in _pending:
            return
        future = _pending[key] = CHECKS.submit(function, *args)
    future.add_done_callback(lambda _: _forget(key))


def _forget(key):
    with _pending_lock:
        _pending.pop(key, None)


def wait_for_background(timeout: float | None = None) -> None:
    """Until everything in_background started has finished (tests: the event a page's verdict waits for)."""
    with _pending_lock:
        futures = list(_pending.values())
    concurrent.futures.wait(futures, timeout)


def reset() -> None:
    """The server's shared state as a fresh server has it: background work finished, nothing cached. (The budget
    and the lane hold nothing once no view runs.) Tests that replace a runtime start and end with it."""
    wait_for_background()
    CACHE.clear()


def shared(function: F) -> F:
    """Cache a pure function of hashable arguments in the server's cache: same arguments, one computation."""

    @functools.wraps(function)
    def cached(*args: Any, **kwargs: Any) -> Any:
        key = (function.__module__, function.__qualname__, args, tuple(sorted(kwargs.items())))
        return CACHE.get(key, lambda: function(*args, **kwargs))

    return cached  # type: ignore[return-value]  # same call signature, its result from the cache


@contextlib.contextmanager
def admitted(nbytes: int, what: str = "this view", seconds: float | None = None) -> Iterator[None]:
    """Reserve `nbytes` of the work budget and, for a heavy view, the heavy lane (serve.budget.HeavyLane) for the
    block: `seconds` is its estimated CPU time, by default from its bytes. A view past the lane's limit raises
    TooLong (a Busy) before anything is computed; one that waits for the lane says so on the page meanwhile.

    After a large reservation, reference cycles are collected (Streamlit's own collection after every run is off:
    it cost half the server's time under a class) and freed memory is handed back to the system (serve.memory)."""
    seconds = nbytes * BYTE_SECONDS if seconds is None else seconds
    notices = []

    def waiting() -> None:
        notices.append(st.empty())
        say.info(md("Queued: {} needs about {:,.0f} s of the server, which is computing another long view; it "
                    "starts as soon as that one ends.", what, seconds), into=notices[0],
                 icon=":material/hourglass_top:")

    with LANE.admit(seconds, what, on_wait=waiting):
        for notice in notices:
            notice.empty()
        with BUDGET.admit(nbytes, what):
            yield
    if nbytes >= TRIM_BYTES or seconds > LANE.light:
        release()
    elif nbytes >= BUDGET.free_below:
        gc.collect()


def fragment(function: Callable[..., None]) -> Callable[..., None]:
    """st.fragment for a part of a page that reruns alone (a click, a window change): it runs under the app's
    element cap, as the full run does, and writes the URL after its own runs, since what it changes is a setting."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> None:
        with element_cap_set_to(APP_ELEMENT_CAP):
            function(*args, **kwargs)
        url_state.publish(fragment=True)

    return st.fragment(run)
