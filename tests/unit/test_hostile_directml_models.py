"""Hostile DxDispatch models for DirectML (support/attacks.py makes them): huge GEMMs, convolutions, RNN lengths and
fills on buffers of a few bytes, arrays shorter than their counts, deeply nested activations, an activation array
past the packer's limit, an operator after this DirectML's feature level. Each is refused by
`ops.run_model(model, runtime="directml")` with a message naming its field and rule, before the worker is asked
and before any tensor's logical values are read: the worker here is a stub that fails the test if called, and the
refusal's Python allocations stay under MEMORY_MB (a broadcast 4096 x 4096 GEMM allocated 321 MB and a broadcast
convolution 1,060 MB before its work was checked up front). benchmarks/bench_hostile_models.py times them."""

import re
import tracemalloc

import pytest

import ops
from support import attacks

MEMORY_MB = 64


def test_every_attack_is_covered():
    assert set(attacks.REFUSALS) == set(attacks.HOSTILE_MODELS.values())


@pytest.mark.parametrize("make", list(attacks.REFUSALS), ids=list(attacks.HOSTILE_MODELS))
def test_each_hostile_model_is_refused_before_the_worker_and_before_its_tensors_are_read(no_worker, make):
    text = make()
    assert len(text) <= 1_000_000  # each fits the reader's limit: the refusal is the guard's, not the size cap's
    tracemalloc.start()
    try:
        with pytest.raises(ops.DescriptorError, match=re.escape(attacks.REFUSALS[make])):
            ops.run_model(text, runtime="directml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_MB << 20, f"{peak / 2**20:.0f} MB"


def test_a_model_over_budget_is_refused_whole_before_its_first_dispatch_runs(no_worker):
    # Two dispatches: a small ADD, then the GEMM bomb. The ADD must not run either: the model is refused at once.
    model = ops.load_model(attacks.gemm_bomb())
    model["resources"]["x"] = {"initialValuesDataType": "FLOAT32", "initialValues": [1, 2]}
    model["dispatchables"]["add"] = {"type": "DML_OPERATOR_ELEMENT_WISE_ADD", "desc": {
        t: {"DataType": "FLOAT32", "Sizes": [2]} for t in ("ATensor", "BTensor", "OutputTensor")}}
    model["commands"].insert(0, {"type": "dispatch", "dispatchable": "add",
                                 "bindings": {"ATensor": "x", "BTensor": "x", "OutputTensor": "x"}})
    with pytest.raises(ops.DescriptorError, match="dispatchables.d.type: cannot run on DirectML: DML_OPERATOR_GEMM"):
        ops.run_model(model, runtime="directml")
