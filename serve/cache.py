"""One cache for the whole server, bounded by bytes, where identical work is done once.

A class opens the same link thirty times at once. Streamlit's caches bound entries, not bytes (64 entries of a
512 MB report each is 32 GB), and two sessions asking for the same missing entry both compute it. Here an entry
costs its measured size, the least recently used entries go when the budget is exceeded, an entry larger than a
quarter of the budget is handed back without being kept (a cap-size tensor is not worth keeping for one visitor),
and a second caller asking for a key that is being computed waits for that computation instead of repeating it.

The bookkeeping is cachetools': an LRUCache whose sizes are bytes, and cached() with a condition, under which the
callers of a key being computed wait for it. What is added here is handing them an outcome that is not kept.
"""

from __future__ import annotations

import collections
import dataclasses
import sys
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

import cachetools
import numpy as np

MiB = 1 << 20
_clock = time.monotonic  # when a value kept for a while expires (tests move it)


def size_of(value: Any, _depth: int = 0) -> int:
    """Bytes a cached value holds: numpy buffers in full, containers by their items, other objects roughly."""
    if isinstance(value, np.ndarray):
        # A view costs what its base holds, since keeping it keeps the base alive.
        base = value if value.base is None or not isinstance(value.base, np.ndarray) else value.base
        return base.nbytes + 112
    if hasattr(value, "cached_size"):
        return int(value.cached_size)
    if _depth > 6:
        return sys.getsizeof(value)
    if isinstance(value, (str, bytes, bytearray)):
        return sys.getsizeof(value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size_of(k, _depth + 1) + size_of(v, _depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sys.getsizeof(value) + sum(size_of(v, _depth + 1) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sys.getsizeof(value) + sum(size_of(getattr(value, f.name), _depth + 1)
                                          for f in dataclasses.fields(value))
    return sys.getsizeof(value)


class _Outcome:
    """What one computation of a key gave: its value and measured size, or the error it raised; `until`: the
    monotonic time after which it is computed again (None: kept while there is room)."""

    __slots__ = ("value", "size", "error", "until")

    def __init__(self, value=None, size=0, error=None, until=None):
        self.value, self.size, self.error, self.until = value, size, error, until

    def expired(self):
        return self.until is not None and _clock() >= self.until


class _Store(cachetools.LRUCache):
    """cachetools' LRU by bytes, keeping only outcomes worth keeping.

    An outcome not kept (too large, or an error) still has to reach the callers that waited for it: cachetools
    makes a waiter look the key up again once the computation is over, and a miss there would have each waiter
    repeat the computation in turn. So such an outcome stays in `passing` while callers of its key are in get().
    """

    def __init__(self, budget, largest):
        super().__init__(maxsize=budget, getsizeof=lambda outcome: outcome.size)
        self.largest = largest
        self.passing = {}
        self.too_large = 0

    def __setitem__(self, key, outcome):
        if outcome.error is None and outcome.size <= self.largest:
            super().__setitem__(key, outcome)
        else:
            self.too_large += outcome.error is None
            self.passing[key] = outcome

    def __missing__(self, key):
        return self.passing[key]


def _compute(key, compute, measure, lifetime):
    # `key` only feeds cachetools' key function. Errors are handed to the waiting callers like values; control-flow
    # exceptions (KeyboardInterrupt, Streamlit's rerun and stop: BaseException) belong to the caller's own session,
    # so they pass through and the waiters compute for themselves.
    try:
        value = compute()
        seconds = lifetime(value) if lifetime is not None else None
        return _Outcome(value, measure(value), until=None if seconds is None else _clock() + seconds)
    except Exception as error:
        return _Outcome(error=error)


class SharedCache:
    """Least-recently-used entries, at most `budget` bytes in all; one computation per key at a time."""

    def __init__(self, budget: int, largest: int | None = None) -> None:
        self.budget = int(budget)
        # Above the budget, cachetools would refuse the entry outright and the waiting callers would compute it again.
        self.largest = min(int(largest if largest is not None else budget // 4), self.budget)
        self._store = _Store(self.budget, self.largest)
        self._condition = threading.Condition()
        self._cached = cachetools.cached(self._store, key=lambda key, compute, measure, lifetime: key,
                                         condition=self._condition)(_compute)
        self._callers: collections.Counter[Hashable] = collections.Counter()
        self.hits = self.misses = self.shared = 0

    @property
    def used(self) -> float:
        return self._store.currsize

    @property
    def too_large(self) -> int:
        return self._store.too_large

    def get(self, key: Hashable, compute: Callable[[], Any], measure: Callable[[Any], int] = size_of,
            lifetime: Callable[[Any], float | None] | None = None) -> Any:
        """The cached value of `key`, or compute() once for every caller asking at the same time. `lifetime(value)`:
        seconds to keep that value before computing it again (None: while there is room), for answers that hold
        only for a while (a runtime too busy to answer)."""
        with self._condition:
            self._drop_expired(key)
            if key in self._store:
                self.hits += 1
            elif self._callers[key]:
                self.shared += 1
            else:
                self.misses += 1
            self._callers[key] += 1
        try:
            outcome = self._cached(key, compute, measure, lifetime)
        finally:
            with self._condition:
                self._callers[key] -= 1
                if not self._callers[key]:
                    del self._callers[key]
                    self._store.passing.pop(key, None)
        if outcome.error is not None:
            raise outcome.error
        return outcome.value

    def peek(self, key: Hashable) -> tuple[bool, Any]:
        """(True, value) when `key` is cached, else (False, None): nothing is computed. A cached error is raised."""
        with self._condition:
            self._drop_expired(key)
            if key not in self._store:
                return False, None
            outcome = self._store[key]
            self.hits += 1
        if outcome.error is not None:
            raise outcome.error
        return True, outcome.value

    def _drop_expired(self, key: Hashable) -> None:
        outcome = self._store.get(key) if key in self._store else None
        if outcome is not None and outcome.expired() and not self._callers[key]:
            del self._store[key]

    def clear(self) -> None:
        with self._condition:
            self._store.clear()

    def stats(self) -> dict[str, float]:
        with self._condition:
            return dict(entries=len(self._store), used=self.used, budget=self.budget, hits=self.hits,
                        misses=self.misses, shared=self.shared, too_large=self.too_large)
