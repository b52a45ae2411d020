"""Issue 31, point 4: a passing DirectML failure is never the verdict, and DirectML's queue is fair.

A worker busy with other calls (its lock held past LOCK_SECONDS) or stopped at its deadline says nothing of the call:
the report is `transient`, the page shows it for RETRY_SECONDS, then asks again. Before, "DirectML is busy with other
calls; try again" stayed the answer of the link for as long as the cache kept it.
"""

import os
import signal

import numpy as np
import pytest

import ops
from ops.runtime import directml as dml
from ops.runtime.directml.process import Worker
from ui import shared, work

pytestmark = pytest.mark.directml


def seed_input():
    return np.arange(8 * 2 * 3, dtype=np.uint32).reshape(1, 8, 2, 3)


def check_of(values, monkeypatch):
    """ui.work.check of DEPTH_TO_SPACE1 on `values`, as the page asks for it (cached under the values' bytes)."""
    return work.check("DEPTH_TO_SPACE1", ("transient test", values.tobytes()), lambda: [values],
                      (("block_size", 2),))


@pytest.fixture
def fresh_cache():
    shared.reset()
    yield
    shared.reset()


def test_a_busy_worker_is_a_transient_report(directml, monkeypatch):
    monkeypatch.setattr("ops.runtime.directml.process.LOCK_SECONDS", 0.05)
    with dml._worker().lock:
        report = ops.cross_check("DEPTH_TO_SPACE1", [seed_input()], runtime="directml", block_size=2)
    assert not report.available and report.transient
    assert ops.cross_check("DEPTH_TO_SPACE1", [seed_input()], runtime="directml", block_size=2).matches


def test_a_busy_answer_is_shown_then_asked_again_not_kept(directml, monkeypatch, fresh_cache):
    monkeypatch.setattr("ops.runtime.directml.process.LOCK_SECONDS", 0.05)
    values = seed_input() + 1000
    with dml._worker().lock:
        busy = check_of(values, monkeypatch)
    assert busy.transient and not busy.directml.available
    assert busy.directml.note == "DirectML is busy with other calls; try again."
    assert busy.onnxruntime.matches  # ONNX Runtime's verdict still comes with it
    found, kept = shared.CACHE.peek(("check", "DEPTH_TO_SPACE1", ("transient test", values.tobytes()),
                                     (("block_size", 2),)))
    assert found and kept is busy  # the pages waiting for it see it ...
    monkeypatch.setattr("serve.cache._clock", lambda: float("inf"))  # ... until RETRY_SECONDS have passed
    again = check_of(values, monkeypatch)
    assert not again.transient and again.directml.available and again.directml.matches


def test_a_worker_stopped_at_its_deadline_is_restarted_and_its_failure_not_kept(directml, monkeypatch, fresh_cache):
    # The case: the worker stopped (SIGSTOP), a page asks for a new verdict, the worker is killed at its
    # deadline and a new one started; reopening the same link must ask the new worker, not show the failure.
    worker = dml._worker()
    ops.cross_check("DEPTH_TO_SPACE1", [seed_input()], runtime="directml", block_size=2)  # a live worker
    os.kill(worker.process.pid, signal.SIGSTOP)
    values = seed_input() + 2000
    with monkeypatch.context() as short:  # a deadline of half a second instead of RUN_SECONDS
        short.setattr(worker, "call", lambda request, buffers, seconds: Worker.call(worker, request, buffers, 0.5))
        stopped = check_of(values, monkeypatch)
    assert stopped.transient and "did not answer in time and was stopped" in stopped.directml.note
    monkeypatch.setattr("serve.cache._clock", lambda: float("inf"))
    assert check_of(values, monkeypatch).directml.matches
