"""DirectML itself (ops/runtime/directml): the bridge, the worker, and what DirectML computes next to the core.

Every expectation here is what DirectML did on this machine (llvmpipe through vkd3d 2.1); a test that starts failing
says DirectML, vkd3d or the bridge now behaves differently, and docs/directml.md needs its table redone.
"""

import os
import signal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ops
from ops.operators.depth_space import depth_to_space
from ops.runtime import directml as dml
from ops.runtime.directml_check import packed_desc
from ops.runtime.onnxruntime_check import probe_tensor

pytestmark = pytest.mark.directml

SIXTEEN_BIT = ("FLOAT16", "UINT16", "INT16")
# vkd3d-shader 2.1's DXIL reader stops at this intrinsic in every shader DirectML compiles for these operators.
UNTRANSLATED = "dx.op.binaryWithTwoOuts.i32"


def seed_input():
    c, h, w = np.meshgrid(np.arange(8), np.arange(2), np.arange(3), indexing="ij")
    return (9 * c + 3 * h + w).astype(np.uint32)[None]


def test_status_names_directml_its_level_vkd3d_and_the_device(directml):
    assert directml.provider.startswith("DirectML 1.13 (feature level 6_2")
    assert directml.vkd3d.startswith("vkd3d-shader 2.") and directml.vkd3d in directml.provider
    assert directml.device.startswith("llvmpipe") and directml.device in directml.provider


def test_the_device_supports_every_type_but_the_16_bit_ones(directml):
    assert set(directml.type_support) == set(ops.DML_TYPES) - set(SIXTEEN_BIT)


def identity(buffer, desc, runtime="directml"):
    return ops.cross_check("ELEMENT_WISE_IDENTITY", [buffer], input_desc=desc, output_desc=desc, runtime=runtime)


@pytest.mark.parametrize("data_type", [t for t in ops.DML_TYPES if t not in SIXTEEN_BIT])
def test_identity_returns_nan_payloads_signed_zeros_and_subnormals_unchanged(directml, data_type):
    values = probe_tensor(ops.numpy_dtype(data_type))
    report = identity(values, packed_desc(values.shape, values.dtype))
    assert report.available and report.matches, report.note
    assert report.runtime == "directml" and report.provider == directml.provider
    assert report.actual[0].tobytes() == values.tobytes()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_identity_copies_any_packed_tensor_byte_for_byte(directml, data):
    data_type = data.draw(st.sampled_from(directml.type_support))
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=8)))
    desc = packed_desc(shape, ops.numpy_dtype(data_type))
    size = desc.buffer_elements * desc.element_size  # the whole buffer, TotalTensorSizeInBytes rounded to elements
    values = np.frombuffer(data.draw(st.binary(min_size=size, max_size=size)), desc.dtype)
    report = identity(values, desc)
    assert report.available and report.matches, report.note


@pytest.mark.parametrize("data_type", SIXTEEN_BIT)
def test_a_16_bit_identity_is_refused_and_says_the_device_lacks_the_type(directml, data_type):
    values = np.arange(6, dtype=ops.numpy_dtype(data_type))
    report = identity(values, packed_desc((2, 3), values.dtype))
    assert not report.available and not report.matches
    assert f"the device reports {data_type} tensors unsupported" in report.note


SEED_CALLS = {
    "DEPTH_TO_SPACE1 DEPTH_COLUMN_ROW": ("DEPTH_TO_SPACE1", lambda: [seed_input()],
                                         dict(block_size=2, order="DEPTH_COLUMN_ROW")),
    "DEPTH_TO_SPACE1 COLUMN_ROW_DEPTH": ("DEPTH_TO_SPACE1", lambda: [seed_input()],
                                         dict(block_size=2, order="COLUMN_ROW_DEPTH")),
    "SPACE_TO_DEPTH1": ("SPACE_TO_DEPTH1", lambda: [depth_to_space(seed_input(), 2)], dict(block_size=2)),
    "ELEMENT_WISE_BIT_OR 1.0 | 2.0": ("ELEMENT_WISE_BIT_OR", lambda: [np.float32([1.0]), np.float32([2.0])], {}),
    "SPLIT 2, 1, 3": ("SPLIT", lambda: [np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)],
                      dict(axis=2, sizes=(2, 1, 3))),
    "JOIN": ("JOIN", lambda: [np.ones((1, 1, 2, 2), np.float32), np.zeros((1, 1, 1, 2), np.float32)], dict(axis=2)),
}


@pytest.mark.parametrize("case", SEED_CALLS)
def test_the_seed_calls_stop_at_compile_operator_with_vkd3ds_reason(directml, case):
    op, inputs, attrs = SEED_CALLS[case]
    report = ops.cross_check(op, inputs(), runtime="directml", **attrs)
    assert not report.available and report.runtime == "directml"
    assert "CompileOperator returned E_FAIL (0x80004005)" in report.note
    assert UNTRANSLATED in report.note


@pytest.mark.parametrize("case", SEED_CALLS)
def test_by_default_onnx_runtime_checks_what_directml_cannot_and_says_why(directml, case):
    op, inputs, attrs = SEED_CALLS[case]
    report = ops.cross_check(op, inputs(), **attrs)
    assert report.available and report.matches and report.runtime == "onnxruntime"
    assert report.note.startswith("DirectML could not run this call: CompileOperator")
    assert "ONNX Runtime ran it instead." in report.note


def test_create_operator_accepts_the_seed_descriptor_and_refuses_a_broken_one(directml):
    valid = dml.create_operator_verdict("DEPTH_TO_SPACE1", [packed_desc((1, 8, 2, 3), np.uint32)],
                                        [packed_desc((1, 2, 4, 6), np.uint32)],
                                        {"block_size": 2, "order": "DEPTH_COLUMN_ROW"}, "2_1")
    broken = dml.create_operator_verdict("DEPTH_TO_SPACE1", [packed_desc((1, 8, 2, 3), np.uint32)],
                                         [packed_desc((1, 2, 4, 6), np.uint32)],
                                         {"block_size": 3, "order": "DEPTH_COLUMN_ROW"}, "2_1")
    assert (valid, broken) == (0, 0x80070057)


def test_a_worker_killed_by_a_crash_is_replaced_on_the_next_call(directml):
    worker = dml._worker()
    values = np.arange(6, dtype=np.uint32)
    assert identity(values, packed_desc((6,), np.uint32)).matches
    starts = worker.starts
    os.kill(worker.process.pid, signal.SIGSEGV)
    worker.process.wait()
    report = identity(values, packed_desc((6,), np.uint32))
    assert report.available and report.matches, report.note
    assert worker.starts == starts + 1


def test_a_call_past_its_time_limit_stops_the_worker_and_the_next_call_starts_another(directml):
    worker = dml._worker()
    desc = packed_desc((4,), np.uint32)
    data = np.arange(4, dtype=np.uint32).tobytes()
    with pytest.raises(dml.WorkerFailed, match="did not answer within"):
        dml.run_operator("ELEMENT_WISE_IDENTITY", [(desc, data)], [(desc, bytes(16))], {}, seconds=1e-6)
    assert worker.process is None
    result = dml.run_operator("ELEMENT_WISE_IDENTITY", [(desc, data)], [(desc, bytes(16))], {})
    assert result.ok and result.outputs[0] == data


def test_scale_bias_stops_at_compile_operator_so_its_arithmetic_cannot_be_observed_here(directml):
    # DxDispatch's dml_element_wise_identity.json: values 1, 2, 3 with Scale 2 and Bias 10 should give 12, 14, 16.
    desc = packed_desc((3,), np.float32)
    result = dml.run_operator("ELEMENT_WISE_IDENTITY", [(desc, np.float32([1, 2, 3]).tobytes())],
                              [(desc, bytes(12))], {"scale_bias": [2.0, 10.0]}, level="6_2")
    assert (result.hresult, result.stage) == (0x80004005, "CompileOperator")
    assert any("dx.op.bitcastI32toF32" in line for line in result.diagnostics)
