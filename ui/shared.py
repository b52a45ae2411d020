"""Work shared between sessions: one byte-bounded cache and one memory budget for the whole server.

Budgets (documented in the README): CACHE_BYTES for everything kept between runs (computed tensors up to a
quarter of it each, figures, cross-check summaries); WORK_BYTES for the arrays that page runs hold at the same time;
LANE for time: one heavy view computes at a time, the longest are refused. A page's heavy section runs inside
`admitted(bytes, seconds=...)`, which waits for room or raises Busy (TooLong for never) with a message to show.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from ops import element_cap_set_to
from ops.runtime.onnxruntime_check import keep_sessions_in
from serve.budget import Busy, HeavyLane, TooLong, WorkBudget
from serve.cache import MiB, SharedCache
from serve.fair import FairQueue
from serve.memory import release

from . import say, url_state
from .output_budget import OutputExceeded, show_stopped
from .say import md

F = TypeVar("F", bound=Callable[..., Any])

# 192 MiB (was 256): with uploads (serve.uploads) and DirectML's worker an idle server stays under 1.5 GB now that
# the app's own code holds 70 MB more (docs/serving.md)
CACHE_BYTES = 192 * MiB
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
# ONNX Runtime's sessions for the cross-check are kept there too, each charged its estimate (onnxruntime_check).
keep_sessions_in(CACHE)
BUDGET = WorkBudget(WORK_BYTES)
# Light: at most 0.25 s, about three default views (0.07 s each). At 1 s, eight visitors' wide Depth views (0.3 s
# each, 0.8 s with their cross-checks) all ran at once beside a class (in one load test on 2 cores at load 8-11, the
# class's p95 was 22 s with 1 s, 8.3 s with 0.25; docs/serving.md has the benchmark's numbers).
LANE = HeavyLane(light=0.25)
# Cross-checks run here, beside the page runs that asked for them: a page draws from the core at once and its verdict
# fills in when DirectML (a first compile takes 0.4-0.5 s) and ONNX Runtime have answered. Two threads: the DirectML
# worker serves one call at a time anyway, and ONNX Runtime's sessions run on one thread each. Visitors take turns,
# light checks first, two queued per visitor at most (serve/fair.py).
CHECKS = FairQueue(workers=2, per_owner=2, light=LANE.light, name="cross-check")

__all__ = ["APP_ELEMENT_CAP", "BUDGET", "Busy", "CACHE", "LANE", "TooLong", "admitted", "digest", "fragment",
           "in_background", "reset", "shared", "wait_for_background"]


def in_background(key: Hashable, function: Callable[..., Any], *args: Any, nbytes: int = 0, seconds: float = 0.0,
                  what: str = "a cross-check") -> None:
    """function(*args) on the CHECKS threads in this visitor's turn, once for every caller asking with `key` while it
    is queued or runs; admitted like a view (`nbytes` of the work budget, the heavy lane past its light seconds)."""
    owner = visitor()
    CHECKS.submit(owner, key, seconds, _admitted_in_background, function, args, nbytes, seconds, what, owner)


def _admitted_in_background(function: Callable[..., Any], args: tuple[Any, ...], nbytes: int, seconds: float,
                            what: str, owner: str | None) -> None:
    try:
        # A check is never refused outright: past the lane's or the budget's whole, it waits to run alone.
        with LANE.admit(min(seconds, LANE.most), what, owner=owner), BUDGET.admit(min(nbytes, BUDGET.total), what):
            function(*args)
    except Busy:
        pass  # the server stayed busy: nothing is kept, and the page waiting for it asks again
    if nbytes >= TRIM_BYTES or seconds > LANE.light:
        release()


def visitor() -> str | None:
    """Whose work this is: the session of the run asking (None outside a run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else None


def wait_for_background(timeout: float | None = None) -> None:
    """Until everything in_background started has finished (tests: the event a page's verdict waits for)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while pending := CHECKS.pending():
        for done in pending:
            if not done.wait(None if deadline is None else max(0.0, deadline - time.monotonic())):
                return


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
        held = getattr(_view, "held", None)
        if held is not None and key in held:
            return held[key]
        value = CACHE.get(key, lambda: function(*args, **kwargs))
        if held is not None:
            held[key] = value
        return value

    return cached  # type: ignore[return-value]  # same call signature, its result from the cache


def digest(data: bytes | str) -> str:
    """The cache key of what a visitor brought (an uploaded file's bytes, a pasted text): its SHA-256, so that a
    class bringing the same file computes with it once."""
    return hashlib.sha256(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")).hexdigest()


# What an admitted view computed through `shared`, held for the rest of it: a result too large for the cache (a
# 64 MB tensor) was otherwise computed again at each use, seven times for one Bitwise view of {1,1,4096,4096} UINT32
# (7.9 s where its estimate said 0.8 s). The view's reservation counts those tensors already.
_view = threading.local()


@contextlib.contextmanager
def _holding() -> Iterator[None]:
    if getattr(_view, "held", None) is not None:
        yield
        return
    _view.held = {}
    try:
        yield
    finally:
        _view.held = None


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

    with LANE.admit(seconds, what, on_wait=waiting, owner=visitor()):
        for notice in notices:
            notice.empty()
        with BUDGET.admit(nbytes, what), _holding():
            yield
    if nbytes >= TRIM_BYTES or seconds > LANE.light:
        release()
    elif nbytes >= BUDGET.free_below:
        gc.collect()


def _fragment_run() -> bool:
    """Whether this run is a fragment's own rerun (a click), not the page's full run."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def fragment(function: Callable[..., None]) -> Callable[..., None]:
    """st.fragment for a part of a page that reruns alone (a click, a window change): it runs under the app's
    element cap and output budget, as the full run does, and writes the URL after its own runs, since what it
    changes is a setting."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> None:
        with element_cap_set_to(APP_ELEMENT_CAP):
            try:
                function(*args, **kwargs)
            except OutputExceeded as stopped:
                if not _fragment_run():
                    raise  # in the page's full run the whole run stops, its panels with it (the router says so)
                show_stopped(stopped)
        url_state.publish(fragment=True)

    return st.fragment(run)
