"""The server-wide pieces in serve/: one cache bounded by bytes with one computation per key, and the work budget."""

import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from serve.budget import Busy, WorkBudget
from serve.cache import SharedCache, size_of
from ui import work
from ui.values import Values


def test_size_of_counts_numpy_buffers_and_views_by_their_base():
    a = np.zeros(1000, np.float64)
    assert size_of(a) >= 8000
    assert size_of(a[::2]) >= 8000  # keeping a view keeps its base
    assert size_of((a, [a.copy()], {"k": a})) >= 3 * 8000


def test_the_cache_keeps_at_most_its_budget_and_drops_the_least_recently_used():
    cache = SharedCache(budget=10_000, largest=10_000)
    for key in range(5):
        cache.get(key, lambda: np.zeros(2400 // 8 * 8, np.uint8))
    assert cache.used <= 10_000
    assert cache.stats()["entries"] == 3  # about 2.5 kB each: the two oldest went
    calls = []
    cache.get(4, lambda: calls.append(1))
    assert not calls  # still there
    cache.get(0, lambda: calls.append(1) or np.zeros(10, np.uint8))
    assert calls == [1]  # evicted, so computed again


def test_an_entry_over_the_largest_size_is_returned_but_not_kept():
    cache = SharedCache(budget=1 << 20)  # largest: a quarter
    big = cache.get("big", lambda: np.zeros(300_000, np.uint8))
    assert big.size == 300_000
    assert cache.stats()["entries"] == 0 and cache.stats()["too_large"] == 1


def until(condition, timeout=30.0):
    """Until condition() holds, looked at every millisecond: a computation waits so for the callers it is meant to
    overlap (the cache signals no one when a caller joins a computation), however slowly their threads start."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the callers never all joined the computation"
        threading.Event().wait(0.001)


def test_callers_of_a_key_being_computed_wait_for_that_one_computation():
    cache = SharedCache(budget=1 << 20)
    started = threading.Event()
    runs = []

    def slow():
        runs.append(1)
        started.set()
        until(lambda: cache.stats()["shared"] == 7)  # every other caller is waiting for this computation
        return np.arange(10)

    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.get("k", slow))) for _ in range(8)]
    threads[0].start()
    started.wait()
    for t in threads[1:]:
        t.start()
    for t in threads:
        t.join()
    assert runs == [1]
    assert all(r is results[0] for r in results)
    assert cache.stats()["shared"] == 7


def ask_at_once(cache, key, compute, callers=32):
    """Every caller asks for `key` at the same moment; their results, in no particular order."""
    start = threading.Barrier(callers)
    results = []

    def ask():
        start.wait()
        results.append(cache.get(key, compute))

    threads = [threading.Thread(target=ask) for _ in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.parametrize("length", [10, 300_000], ids=["kept", "too large to keep"])
def test_many_callers_asking_at_once_for_a_missing_key_share_one_computation(length):
    """The too-large case is the one a class meets with a cap-size link: its value is not kept, and the callers
    waiting for it must still get it instead of computing it again one after another."""
    cache = SharedCache(budget=1 << 20)
    runs = []

    def compute():
        runs.append(1)
        until(lambda: cache.stats()["misses"] + cache.stats()["shared"] == 32)  # all 32 callers asked
        return np.zeros(length, np.uint8)

    results = ask_at_once(cache, "k", compute)
    assert runs == [1]
    assert len(results) == 32 and all(r is results[0] for r in results)
    stats = cache.stats()
    assert stats["misses"] == 1 and stats["shared"] == 31
    assert stats["entries"] == (length == 10)


class Absent(Exception):
    pass


def kept(cache, key):
    """Whether `key` is in the cache, asked through get() with a computation that fails (errors are not kept)."""
    def absent():
        raise Absent
    try:
        cache.get(key, absent)
        return True
    except Absent:
        return False


@given(st.lists(st.integers(0, 3000), min_size=1, max_size=12), st.lists(st.integers(0, 11), max_size=60),
       st.integers(1, 8000), st.sampled_from([None, 1, 500, 10**6]))
def test_the_cache_never_holds_more_bytes_than_its_budget(sizes, asked, budget, largest):
    """Keys of any sizes asked for in any order (each value is its own size in bytes): the bytes kept never pass
    the budget, they are the sizes of the keys kept, and the key just asked for is kept exactly when it fits."""
    cache = SharedCache(budget=budget, largest=largest)
    fits = min(budget // 4 if largest is None else largest, budget)
    for key in asked:
        size = sizes[key % len(sizes)]
        assert cache.get(key, lambda size=size: size, measure=lambda value: value) == size
        assert kept(cache, key) == (size <= fits)
        used = cache.stats()["used"]
        assert used <= budget
        assert used == sum(sizes[k % len(sizes)] for k in set(asked) if kept(cache, k))


def test_an_error_reaches_every_waiting_caller_and_is_not_cached():
    cache = SharedCache(budget=1 << 20)

    def fails():
        until(lambda: cache.stats()["shared"] == 3)  # the three other callers wait for this computation
        raise ValueError("no")

    errors = []

    def call():
        try:
            cache.get("k", fails)
        except ValueError as error:
            errors.append(str(error))

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == ["no"] * 4
    assert cache.get("k", lambda: 5) == 5


def test_the_budget_queues_heavy_work_and_refuses_it_when_the_wait_runs_out():
    budget = WorkBudget(total=100, wait=0.3, free_below=10)
    order = []

    def heavy(name, holding=None, release=None):
        """Reserve 60 of the 100; with `holding`, say so and keep them until `release`."""
        with budget.admit(60, name):
            order.append(name)
            if holding is not None:
                holding.set()
                release.wait()

    holding, release = threading.Event(), threading.Event()
    first = threading.Thread(target=heavy, args=("first", holding, release))
    first.start()
    holding.wait()  # the first holds its 60
    second = threading.Thread(target=heavy, args=("second",))
    second.start()  # asks for 60 more than there is: waits for the first to finish, then runs
    release.set()
    first.join()
    second.join()
    assert order == ["first", "second"]
    assert budget.peak <= 100 and budget.reserved == 0

    holding, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=heavy, args=("holder", holding, release))
    holder.start()
    holding.wait()
    with pytest.raises(Busy, match="busy with other large tensors"):
        heavy("late")  # the holder keeps its 60 past the budget's wait
    release.set()
    holder.join()
    with budget.admit(5):  # small work never waits
        pass
    with pytest.raises(Busy, match="more than the server's whole work budget"):
        with budget.admit(1000, "a huge thing"):
            pass


def test_nested_admission_in_one_thread_counts_once():
    budget = WorkBudget(total=100, wait=0.1, free_below=1)
    with budget.admit(80):
        with budget.admit(80):  # the outer reservation covers the work inside it
            assert budget.reserved == 80
    assert budget.reserved == 0


def test_the_cross_check_cache_key_tells_apart_inputs_made_differently():
    """The shared cross-check summary is keyed by how its inputs are made: another seed or type is another entry."""
    made = []

    def inputs(seed):
        def make():
            made.append(seed)
            return [np.random.default_rng(seed).integers(0, 9, (1, 4, 2, 2)).astype(np.uint32)]
        return make

    attrs = (("block_size", 2), ("order", "DEPTH_COLUMN_ROW"))
    one = Values("random", "UINT32", seed=1)
    two = Values("random", "UINT32", seed=2)
    first = work.check("DEPTH_TO_SPACE1", ("test", one), inputs(1), attrs)
    again = work.check("DEPTH_TO_SPACE1", ("test", one), inputs(1), attrs)
    other = work.check("DEPTH_TO_SPACE1", ("test", two), inputs(2), attrs)
    assert made == [1, 2] and first is again and other is not first
    assert first.onnxruntime.matches and other.onnxruntime.matches


def test_the_launcher_warms_up_every_module_of_the_server_before_it_listens():
    """serve.launch imports ops, ui and viz whole before Streamlit listens; one module that cannot be imported in
    the server (the DirectML worker is a program of its own) stopped every server start."""
    from serve import launch

    launch.warm_up_process()
    for name in ("ops.runtime.directml.process", "ui.panels", "viz.layouts_fig"):
        assert name in sys.modules
    assert not any(name in sys.modules for name in launch.OTHER_PROCESSES)


def test_a_value_kept_for_a_while_is_computed_again_after_it(monkeypatch):
    # Issue 31: a cross-check DirectML could not answer for the moment is shown for a while, not kept as the verdict.
    from serve import cache as cache_module

    now = [0.0]
    monkeypatch.setattr(cache_module, "_clock", lambda: now[0])
    cache = SharedCache(budget=1 << 20)
    runs = []

    def answer():
        runs.append(1)
        return f"answer {len(runs)}"

    assert cache.get("k", answer, lifetime=lambda value: 10) == "answer 1"
    now[0] = 9.9
    assert cache.get("k", answer, lifetime=lambda value: 10) == "answer 1"
    assert cache.peek("k") == (True, "answer 1")
    now[0] = 10.0
    assert cache.peek("k") == (False, None)
    assert cache.get("k", answer, lifetime=lambda value: None) == "answer 2"
    now[0] = 1e9
    assert cache.get("k", answer) == "answer 2"  # a value without a lifetime stays while there is room
