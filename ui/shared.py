"""Work shared between sessions: one byte-bounded cache and one memory budget for the whole server.

Budgets (documented in the README): CACHE_BYTES for everything kept between runs (computed tensors up to a
quarter of it each, figures, cross-check summaries); WORK_BYTES for the arrays that page runs hold at the same time.
A page's heavy section runs inside `admitted(estimate)`, which waits for room or raises Busy with a message to show.
"""

import contextlib
import functools
import gc

import streamlit as st

from ops import element_cap_set_to
from serve.budget import Busy, WorkBudget
from serve.cache import MiB, SharedCache

from . import url_state

CACHE_BYTES = 256 * MiB
WORK_BYTES = 1024 * MiB

# Below the core's 2^26: a page holds several tensors of this size at once (input, output, the cross-check's copy)
# while it runs, within WORK_BYTES.
APP_ELEMENT_CAP = 2**24

CACHE = SharedCache(CACHE_BYTES)
BUDGET = WorkBudget(WORK_BYTES)

__all__ = ["APP_ELEMENT_CAP", "BUDGET", "Busy", "CACHE", "admitted", "fragment", "shared"]


def shared(function):
    """Cache a pure function of hashable arguments in the server's cache: same arguments, one computation."""

    @functools.wraps(function)
    def cached(*args, **kwargs):
        key = (function.__module__, function.__qualname__, args, tuple(sorted(kwargs.items())))
        return CACHE.get(key, lambda: function(*args, **kwargs))

    return cached


@contextlib.contextmanager
def admitted(nbytes, what="this view"):
    """Reserve `nbytes` of the work budget for the block; after a large reservation, collect reference cycles
    (Streamlit's own collection after every run is off: it cost half the server's time under a class)."""
    with BUDGET.admit(nbytes, what):
        yield
    if nbytes >= BUDGET.free_below:
        gc.collect()


def fragment(function):
    """st.fragment for a part of a page that reruns alone (a click, a window change): it runs under the app's
    element cap, as the full run does, and writes the URL after its own runs, since what it changes is a setting."""

    @functools.wraps(function)
    def run(*args, **kwargs):
        with element_cap_set_to(APP_ELEMENT_CAP):
            function(*args, **kwargs)
        url_state.publish(fragment=True)

    return st.fragment(run)
