"""Guards around any operator on DirectML (ops.runtime.directml, docs/directml.md "Running any operator"): the
resources DirectML asks for checked before they are allocated, the worker's memory over many distinct operators, and
a worker that crashes or hangs in the middle of a call replaced, its caller told so."""

import dataclasses
import os
import signal

import numpy as np
import pytest

from ops.runtime import directml as dml
from ops.runtime.directml import cost
from ops.runtime.directml.process import Worker, install_dir
from ops.runtime.directml_check import packed_desc
from support.directml_descs import simple_desc, simple_operators

pytestmark = pytest.mark.directml


@pytest.fixture
def own_worker(directml, monkeypatch):
    """A worker of the test's own behind run_desc, so crashing or stopping it leaves the shared one alone."""
    worker = Worker(install_dir())
    monkeypatch.setattr(dml, "_worker", lambda: worker)
    yield worker
    if worker.process is not None:
        os.kill(worker.process.pid, signal.SIGCONT)
        worker._kill()


def gemm(n, owned=False):
    a = np.ones((n, n), np.float32)
    b_desc = packed_desc((n, n), np.float32)
    desc = dml.OperatorDesc("GEMM", {"ATensor": packed_desc((n, n), np.float32),
                                     "BTensor": dataclasses.replace(b_desc, Flags="OWNED_BY_DML") if owned else b_desc,
                                     "OutputTensor": packed_desc((n, n), np.float32), "TransA": "NONE",
                                     "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0})
    return desc, {"ATensor": a.tobytes(), "BTensor": a.tobytes()}


def test_resources_past_their_budget_are_refused_before_they_are_allocated(own_worker, monkeypatch):
    desc, inputs = gemm(32, owned=True)  # DirectML keeps B (4 KB) in the persistent resource
    monkeypatch.setattr(cost, "RESOURCE_BUDGET", 1000)
    with pytest.raises(cost.OverBudget, match=r"DML_OPERATOR_GEMM: DirectML asks for 0 bytes of temporary and "
                                              r"4,096 bytes of persistent resources, past the 1,000 bytes one call "
                                              r"may take here \(the resource budget\)"):
        dml.run_desc(desc, inputs)
    assert own_worker.starts == 1 and own_worker.process.poll() is None
    monkeypatch.setattr(cost, "RESOURCE_BUDGET", 4096)  # the budget's refusal was not kept as DirectML's answer
    result = dml.run_desc(desc, inputs)
    assert result.ok and dict(result.resources)["persistent"] == 4096
    assert np.all(np.frombuffer(result.output("OutputTensor"), np.float32) == 32)


def test_the_worker_s_memory_stays_bounded_over_many_distinct_operators(own_worker):
    """Every operator whose desc is tensors, FLOATs and a ScaleBias (88 at the schema's commit), on three shapes:
    each shape compiles every operator anew, and the worker's resident memory grows by little (the compiled operators
    are costed by what each added to it, within the worker's 128 MB budget for them)."""
    operators = simple_operators()
    assert len(operators) >= 60
    sizes, ran = [], set()
    for shape in ((4, 5), (3, 7), (2, 2, 9)):
        for op in operators:
            desc = simple_desc(op, shape)
            packed = dml.pack(desc)
            inputs = [bytes(t.TotalTensorSizeInBytes) for t in packed.inputs]
            if dml.run_desc(desc, inputs).ok:
                ran.add((op.name, shape))
            sizes.append(own_worker._rss)
    assert len({name for name, _ in ran}) >= 60 and len(ran) >= 180
    assert own_worker.starts == 1
    assert max(sizes) - sizes[0] < 100 << 20, (sizes[0] >> 20, max(sizes) >> 20)


def interrupt_after_sending(worker, signal_number):
    """Send `signal_number` to the worker as soon as a request has been written to it: it is then working on it."""
    send = worker._send

    def sent(parts, deadline):
        send(parts, deadline)
        os.kill(worker.process.pid, signal_number)

    worker._send = sent
    return lambda: setattr(worker, "_send", send)


def test_a_worker_crashing_in_a_call_is_reported_and_replaced(own_worker):
    desc, inputs = gemm(64)
    assert dml.run_desc(desc, inputs).ok
    restore = interrupt_after_sending(own_worker, signal.SIGSEGV)
    # process.py polls for the exit status as the pipe closes: the kernel may not have reaped the worker yet.
    with pytest.raises(dml.WorkerFailed, match=r"^the DirectML worker ended( \(exit status -11\))?.*; a fresh "
                                               r"worker takes the next call$") as failed:
        dml.run_desc(*gemm(65))
    assert type(failed.value) is dml.WorkerFailed
    restore()
    assert dml.run_desc(desc, inputs).ok and own_worker.starts == 2


def test_a_worker_hanging_in_a_call_is_stopped_at_the_deadline_and_replaced(own_worker):
    desc, inputs = gemm(64)
    assert dml.run_desc(desc, inputs).ok
    restore = interrupt_after_sending(own_worker, signal.SIGSTOP)
    with pytest.raises(dml.WorkerFailed, match=r"^the DirectML worker did not answer in time and was stopped; a "
                                               r"fresh worker takes the next call$"):
        dml.run_desc(*gemm(66), seconds=3)
    restore()
    assert dml.run_desc(desc, inputs).ok and own_worker.starts == 2
