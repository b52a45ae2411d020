"""Heavy work admitted through one server-wide memory budget.

Every session may ask for a tensor at the app's cap; ten such requests at once would allocate gigabytes. Work that
needs more than a little memory first reserves its estimated bytes here; when the budget is spent it waits a few
seconds for others to finish, then gives up with `Busy`, whose message the page shows ("busy, try again or a
smaller tensor") instead of allocating.
"""

import contextlib
import threading
import time

MiB = 1 << 20


class Busy(RuntimeError):
    """The server's work budget stayed spent for the whole wait."""


class WorkBudget:
    def __init__(self, total, wait=10.0, free_below=8 * MiB):
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
    def admit(self, nbytes, what="this computation"):
        """Hold `nbytes` of the budget for the block. Inside a block that already holds a reservation in this
        thread, the outer estimate covers the work (a page's estimate covers the figures it draws)."""
        nbytes = int(nbytes)
        if nbytes < self.free_below or getattr(self._held, "depth", 0):
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
