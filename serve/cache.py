"""One cache for the whole server, bounded by bytes, where identical work is done once.

A class opens the same link thirty times at once. Streamlit's caches bound entries, not bytes (64 entries of a
512 MB report each is 32 GB), and two sessions asking for the same missing entry both compute it. Here an entry
costs its measured size, the least recently used entries go when the budget is exceeded, an entry larger than a
quarter of the budget is handed back without being kept (a cap-size tensor is not worth keeping for one visitor),
and a second caller asking for a key that is being computed waits for that computation instead of repeating it.
"""

import collections
import dataclasses
import sys
import threading

import numpy as np

MiB = 1 << 20


def size_of(value, _depth=0):
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


class _Flight:
    """A computation under way; callers of the same key wait on it."""

    def __init__(self):
        self.done = threading.Event()
        self.value = None
        self.error = None


class SharedCache:
    """Least-recently-used entries, at most `budget` bytes in all; one computation per key at a time."""

    def __init__(self, budget, largest=None):
        self.budget = int(budget)
        self.largest = int(largest if largest is not None else budget // 4)
        self._entries = collections.OrderedDict()  # key -> (value, size)
        self._flights = {}
        self._lock = threading.Lock()
        self.used = 0
        self.hits = self.misses = self.shared = self.too_large = 0

    def get(self, key, compute, measure=size_of):
        """The cached value of `key`, or compute() once for every caller asking at the same time."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                self.hits += 1
                return self._entries[key][0]
            flight = self._flights.get(key)
            owner = flight is None
            if owner:
                flight = self._flights[key] = _Flight()
                self.misses += 1
            else:
                self.shared += 1
        if not owner:
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            return flight.value
        try:
            value = compute()
        except BaseException as error:
            flight.error = error
            with self._lock:
                del self._flights[key]
            flight.done.set()
            raise
        flight.value = value
        size = measure(value)
        with self._lock:
            del self._flights[key]
            if size <= self.largest:
                self._entries[key] = (value, size)
                self.used += size
                while self.used > self.budget:
                    _, (_, evicted) = self._entries.popitem(last=False)
                    self.used -= evicted
            else:
                self.too_large += 1
        flight.done.set()
        return value

    def clear(self):
        with self._lock:
            self._entries.clear()
            self.used = 0

    def stats(self):
        with self._lock:
            return dict(entries=len(self._entries), used=self.used, budget=self.budget, hits=self.hits,
                        misses=self.misses, shared=self.shared, too_large=self.too_large)
