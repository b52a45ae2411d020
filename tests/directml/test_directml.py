"""DirectML itself (ops/runtime/directml): the device, the documented examples computed by DirectML, the bridge, and
the worker's behaviour when it crashes, stalls, is stopped or grows.

Every expectation about values is the core's, or a fact from the seeds (README, docs/core.md): DirectML must give
the same bytes. The device facts (vkd3d-proton 2.14, lavapipe from Mesa 25.0.7) are what scripts/setup_directml.sh
installs.
"""

import json
import os
import signal
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ops
from app_pages.workbench.reading import cross_check_call
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.layouts import identity_descs
from ops.operators.depth_space import depth_to_space
from ops.operators.split_join import split
from ops.runtime import directml as dml
from ops.runtime.directml.process import MEMORY_LIMIT, Worker, install_dir
from ops.runtime.directml_check import packed_desc
from ops.runtime.onnxruntime_check import probe_tensor
from support.paths import ROOT

pytestmark = pytest.mark.directml


EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def seed_input():
    """The seeds' DEPTH_TO_SPACE1 input {1,8,2,3}: channel c holds 9c + 3h + w."""
    c, h, w = np.meshgrid(np.arange(8), np.arange(2), np.arange(3), indexing="ij")
    return (9 * c + 3 * h + w).astype(np.uint32)[None]


def identity(buffer, desc, runtime="directml"):
    return ops.cross_check("ELEMENT_WISE_IDENTITY", [buffer], input_desc=desc, output_desc=desc, runtime=runtime)


# ---------------------------------------------------------------- the device


def test_status_names_directml_vkd3d_proton_and_the_device(directml):
    assert directml.provider.startswith("DirectML 1.13 (feature level 6_2, from torch-directml 0.2.5.dev240914)")
    assert directml.vkd3d == "vkd3d-proton 2.14" and f"via {directml.vkd3d} on" in directml.provider
    assert directml.device.startswith("llvmpipe") and directml.driver.startswith("Mesa 25.0.7")
    assert directml.device in directml.provider and directml.driver in directml.provider


def test_every_type_but_float64_is_supported_and_float64_for_the_driver_s_reason(directml):
    assert set(directml.type_support) == set(ops.DML_TYPES) - {"FLOAT64"}
    fp64 = dict(directml.fp64)
    # vkd3d-proton's condition (libs/vkd3d/device.c, d3d12_device_caps_init_feature_options): the driver has
    # shaderFloat64 but does not promise to keep float64 denormals, so the device answers FALSE.
    assert fp64 == {"DoublePrecisionFloatShaderOps": 0, "shaderFloat64": 1, "shaderDenormPreserveFloat64": 0,
                    "denormBehaviorIndependence": fp64["denormBehaviorIndependence"]}
    report = identity(np.zeros(2, np.float64), packed_desc((2,), np.float64))
    assert not report.available
    assert "DoublePrecisionFloatShaderOps FALSE" in report.note and "does not promise" in report.note


# ---------------------------------------------------------------- the documented examples, computed by DirectML


def test_depth_to_space_rows_of_both_orders(directml):
    rows = {}
    for order in ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"):
        report = ops.cross_check("DEPTH_TO_SPACE1", [seed_input()], runtime="directml", block_size=2, order=order)
        assert report.runtime == "directml" and report.matches, report.note
        rows[order] = report.actual[0][0, 0, 0].tolist()
    assert rows == {"DEPTH_COLUMN_ROW": [0, 18, 1, 19, 2, 20], "COLUMN_ROW_DEPTH": [0, 9, 1, 10, 2, 11]}


def test_bit_or_of_one_and_two_is_infinity(directml):
    report = ops.cross_check("ELEMENT_WISE_BIT_OR", [np.float32([1.0]), np.float32([2.0])], runtime="directml")
    assert report.matches and report.actual[0].view(np.uint32).tolist() == [0x7F800000]


def test_split_into_2_1_3(directml):
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 6, 2)
    report = ops.cross_check("SPLIT", [x], runtime="directml", axis=2, sizes=(2, 1, 3))
    assert report.matches, report.note
    assert [a.ravel().tolist() for a in report.actual] == [[0, 1, 2, 3], [4, 5], [6, 7, 8, 9, 10, 11]]


def test_join_and_space_to_depth_undo_split_and_depth_to_space(directml):
    parts = split(np.arange(12, dtype=np.float32).reshape(1, 1, 6, 2), 2, (2, 1, 3))
    joined = ops.cross_check("JOIN", parts, runtime="directml", axis=2)
    assert joined.matches and joined.actual[0].ravel().tolist() == list(range(12))
    back = ops.cross_check("SPACE_TO_DEPTH1", [depth_to_space(seed_input(), 2)], runtime="directml", block_size=2)
    assert back.matches and back.actual[0].tobytes() == seed_input().tobytes()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_model_s_dispatches_on_directml(directml, path):
    model = json.loads(path.read_text())
    result = run_model_detailed(model)
    assert result.dispatches
    for record in result.dispatches:
        inputs, attrs, expected = cross_check_call(record, model["dispatchables"][record.dispatchable])
        report = ops.cross_check(record.operator, inputs, expected=expected, runtime="directml", **attrs)
        assert report.runtime == "directml" and report.matches, report.note


@pytest.mark.parametrize("data_type", [t for t in ops.DML_TYPES if t != "FLOAT64"])
def test_identity_returns_nan_payloads_signed_zeros_and_subnormals_unchanged(directml, data_type):
    values = probe_tensor(ops.numpy_dtype(data_type))
    desc = packed_desc(values.shape, values.dtype)
    buffer = np.concatenate([values, np.zeros(desc.buffer_elements - values.size, values.dtype)])
    report = identity(buffer, desc)
    assert report.available and report.matches, report.note
    assert report.provider == directml.provider and report.actual[0].tobytes() == buffer.tobytes()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_identity_copies_any_packed_tensor_byte_for_byte(directml, data):
    data_type = data.draw(st.sampled_from(directml.type_support))
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=8)))
    desc = packed_desc(shape, ops.numpy_dtype(data_type))
    size = desc.buffer_elements * desc.element_size
    values = np.frombuffer(data.draw(st.binary(min_size=size, max_size=size)), desc.dtype)
    report = identity(values, desc)
    assert report.available and report.matches, report.note


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_float16_layout_changes_keep_or_quiet_signalling_nans_as_the_core_says(directml, data):
    """ops.operators.identity.travels_through_float32, against DirectML on random permuted, padded and broadcast
    layouts of signalling NaNs (the one thing its float32 round trip changes)."""
    dims = data.draw(st.integers(1, 5))
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=dims, max_size=dims))
    def strides(order, gaps):
        out, step = [0] * dims, 1
        for axis in reversed(order):
            out[axis], step = step, step * (sizes[axis] + gaps[axis])
        return out
    permutation = st.permutations(range(dims))
    gaps = st.lists(st.sampled_from([0, 0, 0, 1]), min_size=dims, max_size=dims)
    source = {"DataType": "FLOAT16", "Sizes": sizes, "Strides": strides(data.draw(permutation), data.draw(gaps))}
    target = {"DataType": "FLOAT16", "Sizes": sizes, "Strides": strides(data.draw(permutation), data.draw(gaps))}
    if data.draw(st.booleans()):
        source["Strides"][data.draw(st.integers(0, dims - 1))] = 0
    inp, _ = identity_descs(source, target)
    buffer = np.full(inp.buffer_elements, 0x7C01, np.uint16).view(np.float16)
    report = ops.cross_check("ELEMENT_WISE_IDENTITY", [buffer], input_desc=source, output_desc=target,
                             runtime="directml")
    assert report.available and report.matches, report.note


def test_by_default_directml_checks_the_seed_calls_and_onnx_runtime_what_it_refuses(directml, monkeypatch):
    report = ops.cross_check("DEPTH_TO_SPACE1", [seed_input()], block_size=2)
    assert report.runtime == "directml" and report.matches
    asked = []
    shared = dml._worker()
    call = shared.call
    def counted(request, buffers, seconds):
        asked.append((request["kind"], len(buffers)))
        return call(request, buffers, seconds)

    monkeypatch.setattr(shared, "call", counted)
    fallback = ops.cross_check("DEPTH_TO_SPACE1", [seed_input().astype(np.float64)], block_size=2)
    assert fallback.runtime == "onnxruntime" and fallback.matches
    assert fallback.note.startswith("DirectML could not run this call: CreateOperator returned E_INVALIDARG")
    assert "DoublePrecisionFloatShaderOps FALSE" in fallback.note
    assert asked == [("verdict", 0)]  # DirectML's verdict was asked; the tensors it would not take were not sent


def test_create_operator_accepts_the_seed_descriptor_and_refuses_a_broken_one(directml):
    desc_in, desc_out = packed_desc((1, 8, 2, 3), np.uint32), packed_desc((1, 2, 4, 6), np.uint32)
    valid = dml.create_operator_verdict("DEPTH_TO_SPACE1", [desc_in], [desc_out],
                                        {"block_size": 2, "order": "DEPTH_COLUMN_ROW"}, "2_1")
    broken = dml.create_operator_verdict("DEPTH_TO_SPACE1", [desc_in], [desc_out],
                                         {"block_size": 3, "order": "DEPTH_COLUMN_ROW"}, "2_1")
    assert (valid, broken) == (0, 0x80070057)


# ---------------------------------------------------------------- the worker


def run_identity(worker, values, seconds=30):
    desc = packed_desc(values.shape, values.dtype)
    request = dml._request("run", "ELEMENT_WISE_IDENTITY", [desc], [desc], {}, "6_2")
    request["flags"] = 0
    return worker.call(request, [values.tobytes(), bytes(values.nbytes)], seconds)


@pytest.fixture
def worker(directml):
    """A worker of the test's own, so stopping or killing it leaves the app's shared one alone."""
    own = Worker(install_dir())
    yield own
    if own.process is not None:
        os.kill(own.process.pid, signal.SIGCONT)
        own._kill()


def test_a_worker_killed_by_a_crash_is_replaced_on_the_next_call(worker):
    values = np.arange(6, dtype=np.uint32)
    assert run_identity(worker, values)[1] == [values.tobytes()]
    os.kill(worker.process.pid, signal.SIGSEGV)
    worker.process.wait()
    assert run_identity(worker, values)[1] == [values.tobytes()]
    assert worker.starts == 2


def test_a_call_past_its_time_limit_stops_the_worker_and_the_next_call_starts_another(worker):
    values = np.arange(4, dtype=np.uint32)
    with pytest.raises(dml.WorkerFailed, match="in time and was stopped"):
        run_identity(worker, values, seconds=1e-6)
    assert worker.process is None
    assert run_identity(worker, values)[1] == [values.tobytes()]


def test_a_stopped_worker_and_a_large_request_answer_every_caller_within_the_deadline(worker):
    """Issue 24: a worker that stopped reading (SIGSTOP) and a request larger than the pipe's 64 KB: the writer
    gives up at its deadline and kills the worker, the callers queued on the lock hear 'busy' or get a fresh
    worker's answer, and nobody waits past the deadline."""
    small = np.arange(8, dtype=np.uint32)
    run_identity(worker, small)
    os.kill(worker.process.pid, signal.SIGSTOP)
    large = np.zeros(1 << 16, dtype=np.uint32)  # 256 KB: four pipes full
    answers, done = [], threading.Event()

    def caller(values):
        try:
            answers.append(("answer", run_identity(worker, values, seconds=3)[1] == [values.tobytes()]))
        except dml.WorkerBusy as error:
            answers.append(("busy", str(error)))
        except dml.WorkerFailed as error:
            answers.append(("failed", str(error)))
        if len(answers) == 3:
            done.set()

    writing, send = threading.Event(), worker._send
    worker._send = lambda data, deadline: (writing.set(), send(data, deadline))
    threading.Thread(target=caller, args=(large,)).start()
    assert writing.wait(timeout=30)  # the large request holds the lock and is being written
    for values in (small, small):
        threading.Thread(target=caller, args=(values,)).start()
    assert done.wait(timeout=3 + 10 + 5), answers  # the deadline, LOCK_SECONDS for the last in the queue, margin
    kinds = sorted(kind for kind, _ in answers)
    assert ("failed", "the DirectML worker did not take the request in time and was stopped") in answers
    assert all(text is True or kind in ("busy", "failed") for kind, text in answers)
    assert kinds.count("failed") == 1
    assert run_identity(worker, small)[1] == [small.tobytes()]  # a fresh worker serves the next call


def test_a_busy_worker_gives_a_report_not_an_exception(directml, monkeypatch):
    shared = dml._worker()
    monkeypatch.setattr("ops.runtime.directml.process.LOCK_SECONDS", 0.05)
    with shared.lock:
        report = ops.cross_check("DEPTH_TO_SPACE1", [seed_input()], runtime="directml", block_size=2)
    assert not report.available and report.runtime == "directml"
    assert report.note == "DirectML is busy with other calls; try again."
    fallback = None
    with shared.lock:
        fallback = ops.cross_check("DEPTH_TO_SPACE1", [seed_input()], block_size=2)
    assert fallback.runtime == "onnxruntime" and fallback.matches
    assert fallback.note.startswith("DirectML is busy with other calls; try again. ONNX Runtime ran it instead.")


def test_every_answer_reports_the_worker_s_memory_and_a_worker_at_its_limit_is_replaced(directml):
    probe = Worker(install_dir())
    values = np.arange(6, dtype=np.uint32)
    try:
        answer, _ = run_identity(probe, values)
        assert answer["rss"] == probe.peak_rss > 400 << 20  # lavapipe's descriptor sets alone are 488 MB
        limited = Worker(install_dir(), memory_limit=answer["rss"])
        run_identity(limited, values)
        assert limited.process is None and limited.replaced_for_memory == 1
        run_identity(limited, values)
        assert limited.starts == 2
    finally:
        for w in (probe, locals().get("limited")):
            if w is not None:
                w._kill()


def test_a_call_too_large_for_even_a_fresh_worker_is_refused_before_it_is_sent(directml):
    values = np.arange(1 << 18, dtype=np.uint32)  # 1 MiB in, 1 MiB out: about 8 MiB in the worker
    small = Worker(install_dir())
    try:
        started = small.describe()["rss"]  # a fresh worker's resident size
        small.memory_limit = started + (4 << 20)
        with pytest.raises(dml.WorkerTooSmall, match=r"need about 8 MB in the DirectML worker beside"):
            run_identity(small, values)
        assert small.replaced_for_memory == 0 and small.starts == 1  # refused as it stood: no fresh worker helps
        small.memory_limit = MEMORY_LIMIT
        grown, _ = run_identity(small, np.arange(6, dtype=np.uint32))  # a compile: the worker grows
        small.memory_limit = started + (9 << 20)  # room in a fresh worker, none left in this one
        assert grown["rss"] + (8 << 20) >= small.memory_limit
        assert run_identity(small, values)[1] == [values.tobytes()]
        assert small.starts == 2  # a fresh worker ran it
    finally:
        small._kill()


def test_the_worker_s_memory_stays_flat_over_many_compiled_operators(directml):
    """Each compiled operator used to hold a descriptor heap of its own: two 256 MB lavapipe allocations. Now they
    share one, so sixty distinct operators add little to the worker's resident memory."""
    worker = Worker(install_dir())
    try:
        first, _ = run_identity(worker, np.arange(2, dtype=np.uint32))
        for n in range(3, 63):
            last, _ = run_identity(worker, np.arange(n, dtype=np.uint32))
        assert last["rss"] - first["rss"] < 100 << 20, (first["rss"], last["rss"])
    finally:
        worker._kill()


def test_vkd3d_proton_s_error_lines_reach_the_status(directml, monkeypatch):
    """vkd3d-proton's own log line (tid:err:function: message) says why its device could not be made. Without
    VK_EXT_robustness2, which vkd3d-proton requires (VKD3D_DISABLE_EXTENSIONS, its README), D3D12CreateDevice fails
    and the reason arrives as a diagnostic, then in the status's sentence."""
    from ops.runtime.directml import process

    normal = process.worker_environment
    monkeypatch.setattr(process, "worker_environment",
                        lambda root, base: {**normal(root, base), "VKD3D_DISABLE_EXTENSIONS": "VK_EXT_robustness2"})
    broken = Worker(install_dir())
    try:
        hello = broken.describe()
    finally:
        broken._kill()
    assert (hello["stage"], hello["hr"]) == ("D3D12CreateDevice", 0x80070057)
    assert hello["diagnostics"] == ["vkd3d_init_device_caps: Robustness2 features not supported. This is required."]
    status = dml.status_of(hello)
    assert not status.available and status.reason == (
        "DirectML could not start: D3D12CreateDevice returned E_INVALIDARG (0x80070057); vkd3d-proton said: "
        "vkd3d_init_device_caps: Robustness2 features not supported. This is required.")


def test_a_call_s_error_lines_are_its_diagnostics_and_the_rest_stays_in_the_log(directml, monkeypatch, capfd):
    """The worker's reading of vkd3d-proton's log format (libs/vkd3d-common/debug.c: thread, level, function,
    message): err lines become the call's diagnostics, other levels do not, and everything still reaches stderr."""
    import importlib.util

    monkeypatch.syspath_prepend(str(ROOT / "ops/runtime/directml"))
    spec = importlib.util.spec_from_file_location("dml_worker", ROOT / "ops/runtime/directml/worker.py")
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    log = (b"01a2:err:d3d12_pipeline_state_init_compute: Failed to create pipeline, vr -3.\n"
           b"01a2:warn:vkd3d_physical_device_info_apply_workarounds: not an error.\n"
           b"01a2:err:d3d12_pipeline_state_init_compute: Failed to create pipeline, vr -3.\n")
    result, errors = worker.diagnosed(lambda: os.write(2, log) and 7)
    assert result == 7
    assert errors == ["d3d12_pipeline_state_init_compute: Failed to create pipeline, vr -3."]
    assert capfd.readouterr().err.encode() == log
