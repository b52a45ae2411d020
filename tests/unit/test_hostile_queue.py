"""Issue 31, point 4: background work (the pages' cross-checks) is taken in turns between visitors, light work first,
each visitor's queue bounded (serve/fair.py): one visitor's distinct settings cannot push the others' verdicts back."""

import threading

from serve.budget import HeavyLane
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


def test_views_waiting_for_the_heavy_lane_take_turns_by_visitor():
    # Issue 31, point 5: eight visitors queueing five heavy views each kept a ninth waiting for forty.
    lane = HeavyLane(slots=1, light=0.25, most=100, wait=30)
    order, holding, release = [], threading.Event(), threading.Event()

    def view(owner, name, hold=False):
        with lane.admit(5.0, owner=owner):
            order.append(name)
            if hold:
                holding.set()
                release.wait(30)

    first = threading.Thread(target=view, args=("attacker", "a0", True))
    first.start()
    assert holding.wait(30)
    threads = []
    for name, owner in [("a1", "attacker"), ("a2", "attacker"), ("a3", "attacker"), ("s0", "student")]:
        threads.append(threading.Thread(target=view, args=(owner, name)))
        threads[-1].start()
        while lane.waiting < len(threads):  # each queued in this order
            threading.Event().wait(0.001)
    release.set()
    for thread in [first, *threads]:
        thread.join(30)
    assert order.index("s0") <= 2, order  # behind at most one more of the attacker's, not all three
