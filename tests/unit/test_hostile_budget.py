"""Issue 24, points 5 and 9: a budget for time as well as bytes, and freed memory handed back to the system.

Threads wait on events, never on sleeps; no time is asserted.
"""

import threading

import numpy as np
import pytest

from serve.budget import Busy, HeavyLane, TooLong
from serve.memory import release


def test_a_view_past_the_limit_is_refused_before_it_starts():
    lane = HeavyLane(most=12.0)
    with pytest.raises(TooLong, match=r"this view \(65,536 parts\) would take about 131 s .* at most 12 s"):
        with lane.admit(131.0, "this view (65,536 parts)"):
            pytest.fail("the block ran")
    assert lane.refused == 1


def test_heavy_views_take_turns_and_light_ones_never_wait():
    lane = HeavyLane(slots=1, light=1.0, wait=60.0)
    inside, leave, waited, order = threading.Event(), threading.Event(), threading.Event(), []

    def first():
        with lane.admit(5.0, "first"):
            order.append("first in")
            inside.set()
            leave.wait()
            order.append("first out")

    def second():
        with lane.admit(5.0, "second", on_wait=waited.set):
            order.append("second in")

    one = threading.Thread(target=first)
    one.start()
    inside.wait()
    two = threading.Thread(target=second)
    two.start()
    waited.wait()  # the second heavy view was told it waits
    with lane.admit(0.5, "light"):  # a light view runs while the lane is held
        order.append("light")
    leave.set()
    one.join()
    two.join()
    assert order == ["first in", "light", "first out", "second in"]
    assert lane.queued == 1 and lane.waiting == 0


def test_a_view_that_waits_too_long_gets_busy():
    lane = HeavyLane(slots=1, wait=0.01)
    inside, leave = threading.Event(), threading.Event()

    def holder():
        with lane.admit(5.0):
            inside.set()
            leave.wait()

    thread = threading.Thread(target=holder)
    thread.start()
    inside.wait()
    with pytest.raises(Busy, match="busy with other long computations"):
        with lane.admit(5.0, "this view"):
            pass
    leave.set()
    thread.join()


def test_a_heavy_view_inside_a_heavy_view_does_not_wait_for_itself():
    lane = HeavyLane(slots=1, wait=60.0)
    with lane.admit(5.0):
        with lane.admit(5.0):
            pass
    with lane.admit(5.0):  # the slot came back
        pass


def resident():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) << 10 for line in status if line.startswith("VmRSS:"))


def test_freed_small_objects_go_back_to_the_system():
    release()
    start = resident()
    held = [np.zeros(64) for _ in range(1_000_000)]  # about 600 MB of small blocks from the heap arenas
    grown = resident() - start
    del held
    assert release()
    assert resident() - start < grown / 4, (start >> 20, grown >> 20, resident() >> 20)


def test_visitors_of_one_workbench_link_share_its_run(monkeypatch):
    """30 visitors on one heavy workbench link each ran the model (55 s each where one took 1.35 s)."""
    import json

    from app_pages.workbench import work
    from app_pages.workbench.settings import LINK_CODEC
    from support.app import run_through_app

    runs = []
    run = work.run_model_detailed
    monkeypatch.setattr(work, "run_model_detailed", lambda model: runs.append(1) or run(model))
    count = 2**16
    model = {"resources": {"in": {"initialValuesDataType": "FLOAT32",
                                  "initialValues": {"valueCount": count, "valueStart": 0, "valueDelta": 1}},
                           "out": {"initialValuesDataType": "FLOAT32",
                                   "initialValues": {"valueCount": count, "value": 0}}},
             "dispatchables": {"copy": {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {
                 "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 256, 256]},
                 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 256, 256]}}}},
             "commands": [{"type": "dispatch", "dispatchable": "copy",
                           "bindings": {"InputTensor": "in", "OutputTensor": "out"}}] * 3,
             "$schema": f"shared-run-test-{id(runs)}"}  # a text no other test opened
    query = {"wb_source": "Paste JSON", "wb_text": LINK_CODEC.encode(json.dumps(model))}
    pages = [run_through_app("app_pages/workbench/page.py", query=query) for _ in range(3)]
    assert runs == [1]
    for at in pages:
        assert not at.exception and not at.error
        assert sum(s.value.startswith("Cross-check") for s in at.success) == 3
