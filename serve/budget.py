"""Heavy work admitted through one server-wide memory budget.

Every session may ask for a tensor at the app's cap; ten such requests at once would allocate gigabytes. Work that
needs more than a little memory first reserves its estimated bytes here; when the budget is spent it waits a few
seconds for others to finish, then gives up with `Busy`, whose message the page shows ("busy, try again or a
smaller tensor") instead of allocating.
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator

MiB = 1 << 20


class Busy(RuntimeError):
    """The server's work budget stayed spent for the whole wait."""


class WorkBudget:
    def __init__(self, total: int, wait: float = 10.0, free_below: int = 8 * MiB) -> None:
        self.total = int(total)
        self.wait = wait
        self.free_below = free_below  # small work is not worth accounting for: it never waits
        self.reserved = 0
        self.peak = 0
        self.waiting = 0
        self.refused = 0
        self._changed = threading.Condition()
        self._held = threading.local()

    @contextlib.contextmanager
    def admit(self, nbytes: int, what: str = "this computation") -> Iterator[None]:
        """Hold `nbytes` of the budget for the block. Inside a block that already holds a reservation in this
        thread, the outer estimate covers the work (a page's estimate covers the figures it draws)."""
        nbytes = int(nbytes)
        if nbytes < self.free_below or getattr(self._held, "depth", False):
            yield
            return
        if nbytes > self.total:
            raise Busy(f"{what} needs about {nbytes / MiB:,.0f} MB, more than the server's whole work budget of "
                       f"{self.total / MiB:,.0f} MB: use a smaller tensor.")
        deadline = time.monotonic() + self.wait
        with self._changed:
            self.waiting += 1
            try:
                while self.reserved + nbytes > self.total:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        self.refused += 1
                        raise Busy(
                            f"The server is busy with other large tensors ({self.reserved / MiB:,.0f} of "
                            f"{self.total / MiB:,.0f} MB in use); {what} needs about {nbytes / MiB:,.0f} MB. "
                            "Try again in a moment, or use a smaller tensor.")
                    self._changed.wait(left)
            finally:
                self.waiting -= 1
            self.reserved += nbytes
            self.peak = max(self.peak, self.reserved)
        self._held.depth = 1
        try:
            yield
        finally:
            self._held.depth = 0
            with self._changed:
                self.reserved -= nbytes
                self._changed.notify_all()


class TooLong(Busy):
    """A view whose estimated CPU time passes what one view may take: refused before it starts, at any load."""


class HeavyLane:
    """Time as well as bytes: one heavy computation at a time, the others queued in turns, the longest refused.

    A view's CPU seconds are estimated before it starts (from its sizes, parts, nodes). Up to `light` seconds it runs
    at once, as every default view does; past `most` it is refused with TooLong; in between it waits for one of
    `slots` (one: the other core stays with the visitors whose views are light), up to `wait` seconds, then gives
    up with Busy. Without it, six distinct 32-second Split links at once took 220-235 s each and slowed every other
    page to 1.5-6 s; identical heavy views wait here while the first computes, then find its results in the shared
    cache.

    The waiting views take turns by owner (a visitor's session): a freed slot goes to the owner who has waited
    longest since its last turn, so eight visitors queueing five views each do not keep a ninth waiting for forty.
    """

    def __init__(self, slots: int = 1, light: float = 1.0, most: float = 12.0, wait: float = 30.0) -> None:
        self.light, self.most, self.wait = light, most, wait
        self.waiting = self.refused = self.queued = 0
        self._free = slots
        # owner -> deque of its waiting tickets, in turn order
        self._turns: collections.OrderedDict[Hashable, collections.deque[object]] = collections.OrderedDict()
        self._changed = threading.Condition()
        self._held = threading.local()

    def needs_slot(self, seconds: float) -> bool:
        return seconds > self.light and not getattr(self._held, "depth", 0)

    @contextlib.contextmanager
    def admit(self, seconds: float, what: str = "this view", on_wait: Callable[[], None] | None = None,
              owner: Hashable = None) -> Iterator[None]:
        """Hold a slot for the block when `seconds` is heavy; `on_wait()` is called once if the block must wait
        (in `owner`'s turn)."""
        if seconds > self.most:
            self.refused += 1
            raise TooLong(f"{what} would take about {seconds:,.0f} s of the server's time; one view may take at most "
                          f"{self.most:,.0f} s here (the server is shared by a whole class). Use fewer parts or a "
                          "smaller tensor.")
        if not self.needs_slot(seconds):
            yield
            return
        if not self._take(owner, on_wait):
            self.refused += 1
            raise Busy(f"The server is busy with other long computations; {what} needs about {seconds:,.0f} s of "
                       "it. Try again in a moment, or use a smaller tensor.")
        self._held.depth = 1
        try:
            yield
        finally:
            self._held.depth = 0
            with self._changed:
                self._free += 1
                self._changed.notify_all()

    def _take(self, owner: Hashable, on_wait: Callable[[], None] | None) -> bool:
        with self._changed:
            if self._free and not self._turns:
                self._free -= 1
                return True
            ticket = object()
            self._turns.setdefault(owner, collections.deque()).append(ticket)
            self.waiting += 1
            self.queued += 1
        if on_wait is not None:
            on_wait()
        deadline = time.monotonic() + self.wait
        with self._changed:
            try:
                while not (self._free and next(iter(self._turns.values()))[0] is ticket):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._changed.wait(left)
                self._free -= 1
                return True
            finally:
                self.waiting -= 1
                tickets = self._turns[owner]
                tickets.remove(ticket)
                del self._turns[owner]
                if tickets:
                    self._turns[owner] = tickets  # its next view waits for a turn behind the others'
                self._changed.notify_all()
