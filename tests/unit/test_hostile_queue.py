"""Issue 31, point 4: background work (the pages' cross-checks) is taken in turns between visitors, light work first,
each visitor's queue bounded (serve/fair.py): one visitor's distinct settings cannot push the others' verdicts back."""

import threading

from serve.fair import FairQueue


def blocked_queue(**kwargs):
    """A queue whose one worker is held by a first job until `release` is set: (queue, release, order of runs)."""
    queue, release, order, started = FairQueue(workers=1, **kwargs), threading.Event(), [], threading.Event()
    queue.submit("first", "hold", 0.0, lambda: (started.set(), release.wait(30)))
    assert started.wait(30)
    return queue, release, order


def drain(queue, release):
    release.set()
    for done in queue.pending():
        assert done.wait(30)


def test_visitors_take_turns():
    queue, release, order = blocked_queue(per_owner=10)
    for i in range(3):
        queue.submit("attacker", f"a{i}", 0.0, order.append, f"a{i}")
    queue.submit("student", "s0", 0.0, order.append, "s0")
    drain(queue, release)
    assert order.index("s0") <= 1  # behind at most one of the attacker's, not all three


def test_a_visitor_keeps_at_most_a_few_jobs_queued_the_newest():
    queue, release, order = blocked_queue(per_owner=2)
    for i in range(10):
        queue.submit("attacker", f"a{i}", 0.0, order.append, f"a{i}")
    assert queue.stats()["queued"] == 2
    drain(queue, release)
    assert order == ["a8", "a9"] and queue.dropped == 8


def test_a_job_another_visitor_waits_for_is_not_dropped_with_the_first_ones():
    queue, release, order = blocked_queue(per_owner=1)
    queue.submit("attacker", "shared", 0.0, order.append, "shared")
    queue.submit("student", "shared", 0.0, order.append, "shared")
    queue.submit("attacker", "a1", 0.0, order.append, "a1")  # pushes the attacker's claim on "shared" out
    drain(queue, release)
    assert sorted(order) == ["a1", "shared"]  # run once, for the student


def test_light_jobs_pass_heavy_ones_and_a_thread_stays_with_them():
    queue = FairQueue(workers=2, per_owner=10, light=0.5, heavy_slots=1)
    heavy_started, release, order = threading.Event(), threading.Event(), []
    queue.submit("attacker", "h0", 5.0, lambda: (heavy_started.set(), release.wait(30), order.append("h0")))
    assert heavy_started.wait(30)
    queue.submit("attacker", "h1", 5.0, order.append, "h1")  # waits: one heavy job at a time
    light_done = threading.Event()
    queue.submit("student", "s0", 0.1, lambda: (order.append("s0"), light_done.set()))
    assert light_done.wait(30)  # the other thread took it while h0 ran
    assert order == ["s0"]
    release.set()
    for done in queue.pending():
        assert done.wait(30)
    assert order == ["s0", "h0", "h1"]
