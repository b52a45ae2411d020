"""The reference core against ONNX Runtime (CPU here), byte for byte, plus the checks on the check itself."""

import functools
import importlib
import os
import sys
import zlib

import numpy as np
import onnxruntime
import pytest

import ops
from ops.operators.depth_space import depth_to_space
from ops.operators.split_join import split
from ops.runtime.cross_check import cross_check as any_runtime_cross_check
from ops.runtime.onnxruntime_check import probe_tensor, select_provider
from ops.runtime.report import CrossCheckReport

# This file checks the core against ONNX Runtime, so every call asks for it: by default DirectML runs whatever it can
# (tests/test_directml*.py).
cross_check = functools.partial(any_runtime_cross_check, runtime="onnxruntime")
# ops exports the function cross_check, which hides the submodule of the same name.
cc_module = importlib.import_module("ops.runtime.onnxruntime_check")

DTYPES = [np.dtype(ops.numpy_dtype(t)) for t in ops.DML_TYPES]
ORDERS = ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")

# (input shape, block size): size-1 dims, block sizes 1..3.
DEPTH_TO_SPACE_CASES = [((1, 4, 1, 1), 2), ((2, 8, 2, 3), 2), ((1, 18, 2, 1), 3), ((3, 2, 1, 4), 1)]
SPACE_TO_DEPTH_CASES = [((1, 1, 2, 2), 2), ((2, 2, 4, 6), 2), ((1, 3, 3, 6), 3), ((2, 3, 1, 5), 1)]
BIT_OR_CASES = [(1,), (7,), (2, 1, 3), (1, 3, 1, 5), (2, 1, 3, 1, 2, 1, 2, 3)]
SPLIT_CASES = [  # (input shape, axis, sizes)
    ((7,), 0, [3, 4]),
    ((2, 5, 3), 1, [1, 1, 3]),
    ((1, 6, 1), 2, [1]),
    ((2, 1, 3, 1, 2, 1, 2, 3), 7, [1, 2]),
    ((2, 1, 3, 1, 2, 1, 2, 3), 2, [2, 1]),
]
JOIN_CASES = [  # (input shapes, axis)
    ([(3,), (1,)], 0),
    ([(2, 1, 3), (2, 4, 3), (2, 1, 3)], 1),
    ([(1, 1)], 0),
    ([(2, 1, 3, 1, 2, 1, 2, 3), (2, 1, 3, 1, 2, 1, 2, 1)], 7),
    ([(1, 1, 3, 1, 2, 1, 2, 3), (2, 1, 3, 1, 2, 1, 2, 3)], 0),
]


def random_bytes(shape, dtype, seed):
    """Arbitrary bit patterns, so NaN payloads (signalling too), -0.0 and subnormals all turn up."""
    count = int(np.prod(shape)) * dtype.itemsize
    return np.random.default_rng(seed).integers(0, 256, count, dtype=np.uint8).view(dtype).reshape(shape)


def _matrix():
    cases = []
    for dtype in DTYPES:
        name = ops.type_name(dtype)
        for order in ORDERS:
            for shape, block in DEPTH_TO_SPACE_CASES:
                cases.append(pytest.param("DEPTH_TO_SPACE1", [shape], dtype, {"block_size": block, "order": order},
                                          id=f"D2S-{name}-{order}-{shape}-b{block}"))
            for shape, block in SPACE_TO_DEPTH_CASES:
                cases.append(pytest.param("SPACE_TO_DEPTH1", [shape], dtype, {"block_size": block, "order": order},
                                          id=f"S2D-{name}-{order}-{shape}-b{block}"))
        for shape in BIT_OR_CASES:
            cases.append(pytest.param("ELEMENT_WISE_BIT_OR", [shape, shape], dtype, {}, id=f"OR-{name}-{shape}"))
        for shape, axis, sizes in SPLIT_CASES:
            cases.append(pytest.param("SPLIT", [shape], dtype, {"axis": axis, "sizes": sizes},
                                      id=f"SPLIT-{name}-{shape}-a{axis}-{sizes}"))
        for shapes, axis in JOIN_CASES:
            cases.append(pytest.param("JOIN", shapes, dtype, {"axis": axis}, id=f"JOIN-{name}-{shapes}-a{axis}"))
    return cases


MATRIX = _matrix()


def test_matrix_size():
    # 11 types x (2 orders x 4 shapes x 2 depth/space ops + 5 BIT_OR + 5 SPLIT + 5 JOIN) = 11 x 31
    assert len(MATRIX) == 11 * 31 == 341


@pytest.mark.parametrize("op, shapes, dtype, attrs", MATRIX)
def test_onnx_runtime_matches_the_core_byte_for_byte(op, shapes, dtype, attrs):
    seed = zlib.crc32(repr((op, shapes, dtype.str, attrs)).encode())
    inputs = [random_bytes(shape, dtype, seed + i) for i, shape in enumerate(shapes)]
    report = cross_check(op, inputs, **attrs)
    assert report.available, report.note
    assert report.provider == "CPUExecutionProvider"
    assert report.matches, report.note
    assert report.first_mismatch is None
    assert len(report.actual) == len(report.expected)


# ---------------------------------------------------------------- against the seeds, not the core

SEED_INPUT = (9 * np.arange(8)[:, None, None] + 3 * np.arange(2)[:, None] + np.arange(3)).astype(np.uint32)[None]
SEED_DCR = [[[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56], [3, 21, 4, 22, 5, 23], [39, 57, 40, 58, 41, 59]],
            [[9, 27, 10, 28, 11, 29], [45, 63, 46, 64, 47, 65], [12, 30, 13, 31, 14, 32], [48, 66, 49, 67, 50, 68]]]
SEED_CRD = [[[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29], [3, 12, 4, 13, 5, 14], [21, 30, 22, 31, 23, 32]],
            [[36, 45, 37, 46, 38, 47], [54, 63, 55, 64, 56, 65], [39, 48, 40, 49, 41, 50], [57, 66, 58, 67, 59, 68]]]


@pytest.mark.parametrize("order, seed_output", [("DEPTH_COLUMN_ROW", SEED_DCR), ("COLUMN_ROW_DEPTH", SEED_CRD)])
def test_seed_example_on_onnx_runtime(order, seed_output):
    report = cross_check("DML_OPERATOR_DEPTH_TO_SPACE1", [SEED_INPUT], block_size=2, order=order)
    assert report.matches, report.note
    np.testing.assert_array_equal(report.actual[0], np.array([seed_output], np.uint32))
    back = cross_check("SPACE_TO_DEPTH1", [report.actual[0]], block_size=2, order=order)
    assert back.matches, back.note
    np.testing.assert_array_equal(back.actual[0], SEED_INPUT)


def test_seed_split_example_on_onnx_runtime():
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    report = cross_check("SPLIT", [x], axis=3, sizes=[1, 1])
    assert report.matches
    assert [a.ravel().tolist() for a in report.actual] == [[1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10, 12]]


# ---------------------------------------------------------------- the check can fail


def test_crd_against_dcr_expectation_is_reported_with_the_first_difference():
    wrong = [depth_to_space(SEED_INPUT, 2, "DEPTH_COLUMN_ROW")]
    report = cross_check("DEPTH_TO_SPACE1", [SEED_INPUT], block_size=2, order="CRD", expected=wrong)
    assert report.available and not report.matches
    # Seed: row 0 is [0, 18, ...] in DCR and [0, 9, ...] in CRD.
    assert report.first_mismatch == (0, (0, 0, 0, 1))
    assert "index [0, 0, 0, 1]" in report.note and "0x00000012" in report.note and "0x00000009" in report.note


@pytest.mark.parametrize("stored, compared", [
    (0x80000000, 0x00000000),  # -0.0 vs +0.0: equal as numbers
    (0x7FC00001, 0x7FC00000),  # two quiet NaNs with different payloads
])
def test_equal_numbers_with_different_bytes_do_not_match(stored, compared):
    a = np.ones((2, 3), np.float32)
    b = np.ones((2, 2), np.float32)
    a.view(np.uint32)[1, 2] = stored
    expected = np.concatenate([a, b], axis=1)
    expected.view(np.uint32)[1, 2] = compared
    report = cross_check("JOIN", [a, b], axis=1, expected=[expected])
    assert not report.matches
    assert report.first_mismatch == (0, (1, 2))


def test_missing_expected_output_is_a_mismatch():
    x = np.arange(6, dtype=np.int16)
    core = split(x, 0, [2, 4])
    report = cross_check("SPLIT", [x], axis=0, sizes=[2, 4], expected=core[:1])
    assert not report.matches and report.first_mismatch == (1, None)


def test_wrong_shape_expectation_is_a_mismatch():
    x = np.arange(8, dtype=np.uint8).reshape(1, 4, 1, 2)
    report = cross_check("DEPTH_TO_SPACE1", [x], block_size=2, expected=[x])
    assert not report.matches and report.first_mismatch == (0, None)


# ---------------------------------------------------------------- reinterpretation, said in the note


def test_float_bit_or_runs_as_unsigned_and_says_so():
    report = cross_check("ELEMENT_WISE_BIT_OR", [np.float32([1.0]), np.float32([2.0])])
    assert report.matches and report.reinterpreted and report.ran_as == "UINT32"
    assert "FLOAT32 data ran reinterpreted as UINT32 bit patterns" in report.note
    assert np.isposinf(report.actual[0][0])  # SPEC section 4: 0x3F800000 | 0x40000000 = +inf


def test_int32_depth_to_space_runs_as_bytes_and_says_so():
    # Measured with onnxruntime 1.31.1 CPU: no INT32 or UINT32 DepthToSpace kernel, so UINT8 bytes carry the data.
    report = cross_check("DEPTH_TO_SPACE1", [random_bytes((2, 4, 1, 3), np.dtype(np.int32), 5)], block_size=2)
    assert report.matches and report.reinterpreted and report.ran_as == "UINT8"
    assert "batch dimension N" in report.note and "INT32 DepthToSpace" in report.note


def test_float16_depth_to_space_avoids_the_nan_quieting_kernel():
    # Measured with onnxruntime 1.31.1 CPU: the FLOAT16 DepthToSpace kernel turns signalling NaN 0x7C01 into 0x7E01.
    x = np.full((1, 4, 1, 1), 0x7C01, np.uint16).view(np.float16)
    report = cross_check("DEPTH_TO_SPACE1", [x], block_size=2)
    assert report.matches, report.note
    assert report.ran_as == "UINT8" and "altered bit patterns" in report.note


def test_native_type_is_not_called_reinterpreted():
    report = cross_check("JOIN", [np.float64([1.5, -0.0])], axis=0)
    assert report.matches and not report.reinterpreted and report.ran_as == "FLOAT64"
    assert "without reinterpretation" in report.note


def test_crd_space_to_depth_says_it_is_a_graph():
    x = random_bytes((1, 1, 2, 2), np.dtype(np.uint8), 1)
    report = cross_check("SPACE_TO_DEPTH1", [x], block_size=2, order="COLUMN_ROW_DEPTH")
    assert report.matches and "Reshape -> Transpose -> Reshape" in report.note


# Each route forced, so the bits and bytes encodings are proven on a real provider even where CPU needs none.
FORCED = [
    ("DEPTH_TO_SPACE1", [(2, 8, 1, 3)], {"block_size": 2, "order": "COLUMN_ROW_DEPTH"}, "bytes"),
    ("SPACE_TO_DEPTH1", [(2, 1, 4, 2)], {"block_size": 2, "order": "DEPTH_COLUMN_ROW"}, "bytes"),
    ("SPACE_TO_DEPTH1", [(2, 1, 4, 2)], {"block_size": 2, "order": "COLUMN_ROW_DEPTH"}, "bytes"),
    ("ELEMENT_WISE_BIT_OR", [(2, 3), (2, 3)], {}, "bits"),
    ("ELEMENT_WISE_BIT_OR", [(2, 3), (2, 3)], {}, "bytes"),
    ("SPLIT", [(2, 5)], {"axis": 1, "sizes": [2, 3]}, "bits"),
    ("SPLIT", [(2, 5)], {"axis": 1, "sizes": [2, 3]}, "bytes"),
    ("SPLIT", [(4, 3)], {"axis": 0, "sizes": [1, 3]}, "bytes"),
    ("JOIN", [(2, 2), (2, 3)], {"axis": 1}, "bits"),
    ("JOIN", [(2, 2), (2, 3)], {"axis": 1}, "bytes"),
    ("JOIN", [(1, 3), (2, 3)], {"axis": 0}, "bytes"),
]


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(np.int32), np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("op, shapes, attrs, kind", FORCED)
def test_every_route_is_bit_exact_when_forced(monkeypatch, op, shapes, attrs, kind, dtype):
    real_routes = cc_module._routes
    monkeypatch.setattr(cc_module, "_routes", lambda d: [r for r in real_routes(d) if r.kind == kind])
    monkeypatch.setattr(cc_module, "_chosen_routes", {})
    inputs = [random_bytes(shape, dtype, 40 + i) for i, shape in enumerate(shapes)]
    report = cross_check(op, inputs, **attrs)
    assert report.available, report.note
    assert report.matches, report.note
    assert report.ran_as == ("UINT8" if kind == "bytes" else ops.type_name(np.dtype(f"u{dtype.itemsize}")))


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)], ids=str)
def test_probe_tensor_holds_signalling_nans_and_negative_zero(dtype):
    width, mantissa = 8 * dtype.itemsize, np.finfo(dtype).nmant
    bits = [int(b) for b in probe_tensor(dtype).view(f"u{dtype.itemsize}")]
    exponent_all_ones = ((1 << (width - 1)) - 1) ^ ((1 << mantissa) - 1)
    quiet_bit = 1 << (mantissa - 1)
    signalling = [b for b in bits
                  if b & exponent_all_ones == exponent_all_ones and b & (quiet_bit - 1) and not b & quiet_bit]
    assert len(signalling) >= 2
    assert 1 << (width - 1) in bits  # -0.0


# ---------------------------------------------------------------- providers


@pytest.mark.parametrize("listed, chosen", [
    (["CPUExecutionProvider", "DmlExecutionProvider"], "DmlExecutionProvider"),
    (["CUDAExecutionProvider", "DmlExecutionProvider", "CPUExecutionProvider"], "DmlExecutionProvider"),
    (["CPUExecutionProvider", "CUDAExecutionProvider"], "CUDAExecutionProvider"),
    (["AzureExecutionProvider", "CPUExecutionProvider"], "CPUExecutionProvider"),
])
def test_default_provider_preference(listed, chosen):
    assert select_provider(listed) == (chosen, None)


def test_requested_provider_is_used_when_listed():
    assert select_provider(["DmlExecutionProvider", "CPUExecutionProvider"], "CPUExecutionProvider") == (
        "CPUExecutionProvider", None)


def test_unavailable_requested_provider_is_refused_with_a_reason():
    provider, reason = select_provider(["CPUExecutionProvider"], "DmlExecutionProvider")
    assert provider is None
    assert "DmlExecutionProvider is not available" in reason and "onnxruntime-directml" in reason


def test_no_known_provider_is_refused():
    provider, reason = select_provider(["AzureExecutionProvider"])
    assert provider is None and "AzureExecutionProvider" in reason


@pytest.mark.skipif("DmlExecutionProvider" in onnxruntime.get_available_providers(), reason="DirectML present")
def test_requesting_directml_here_gives_an_unavailable_report():
    report = cross_check("JOIN", [np.zeros(2, np.float32)], axis=0, provider="DmlExecutionProvider")
    assert isinstance(report, CrossCheckReport)
    assert not report.available and not report.matches and report.actual == []
    assert report.provider == "DmlExecutionProvider" and "not available" in report.note
    np.testing.assert_array_equal(report.expected[0], np.zeros(2, np.float32))


def test_report_names_provider_and_version():
    report = cross_check("JOIN", [np.zeros(2, np.int8)], axis=0, provider="CPUExecutionProvider")
    assert report.provider == "CPUExecutionProvider" and report.ort_version == onnxruntime.__version__
    assert "CPUExecutionProvider" in report.note and onnxruntime.__version__ in report.note


def test_provider_must_be_a_name():
    with pytest.raises(ops.DescriptorError, match="provider"):
        cross_check("JOIN", [np.zeros(2, np.int8)], axis=0, provider=3)


# ---------------------------------------------------------------- a missing or broken runtime


def test_missing_onnxruntime_gives_an_unavailable_report(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    report = cross_check("SPLIT", [np.arange(4, dtype=np.uint16)], axis=0, sizes=[1, 3])
    assert not report.available and not report.matches and report.provider is None
    assert "ONNX Runtime is unavailable" in report.note and report.ort_version is None
    assert [e.tolist() for e in report.expected] == [[0], [1, 2, 3]]


def test_invalid_configuration_raises_even_without_onnxruntime(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(ops.DescriptorError, match="BlockSize 3"):
        cross_check("DEPTH_TO_SPACE1", [np.zeros((1, 8, 1, 1), np.float32)], block_size=3)


def test_failing_session_creation_gives_an_unavailable_report(monkeypatch):
    def refuse(*args, **kwargs):
        raise RuntimeError("simulated session failure")

    monkeypatch.setattr(onnxruntime, "InferenceSession", refuse)
    monkeypatch.setattr(cc_module, "_chosen_routes", {})
    cc_module.sessions.clear()
    report = cross_check("JOIN", [np.zeros((3, 1), np.int64)], axis=1)
    assert not report.available and not report.matches
    assert "simulated session failure" in report.note


def test_rerun_reuses_the_cached_session(monkeypatch):
    x = random_bytes((1, 8, 2, 2), np.dtype(np.float32), 9)
    first = cross_check("DEPTH_TO_SPACE1", [x], block_size=2, order="CRD")
    made = []
    monkeypatch.setattr(onnxruntime, "InferenceSession", lambda *a, **k: made.append(a))
    second = cross_check("DEPTH_TO_SPACE1", [x], block_size=2, order="CRD")
    assert made == []
    assert first.matches and second.matches


# ---------------------------------------------------------------- invalid calls


@pytest.mark.parametrize("op, inputs, attrs, message", [
    ("DEPTH_TO_SPACE", [np.zeros((1, 4, 1, 1))], {"block_size": 2}, "op 'DEPTH_TO_SPACE'"),
    ("SPLIT", np.zeros(4), {"axis": 0, "sizes": [4]}, "inputs: expected a list"),
    ("ELEMENT_WISE_BIT_OR", [np.zeros(2, np.uint8)], {}, "exactly 2"),
    ("JOIN", [np.zeros(2, np.uint8)], {"axis": 0, "order": "DCR"}, "order: not an attribute of JOIN"),
    ("SPLIT", [np.zeros(2, np.uint8)], {"axis": 0}, "sizes: required by SPLIT"),
    ("SPLIT", [np.zeros(4, np.uint8)], {"axis": 0, "sizes": [1, 2]}, "1 \\+ 2 = 3"),
    ("SPACE_TO_DEPTH1", [np.zeros((1, 1, 3, 4), np.uint8)], {"block_size": 2}, "height 3"),
])
def test_invalid_calls_raise_descriptor_error(op, inputs, attrs, message):
    with pytest.raises(ops.DescriptorError, match=message):
        cross_check(op, inputs, **attrs)


def _resident_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads resident memory from Linux's /proc")
def test_cached_sessions_do_not_keep_their_outputs_memory():
    # Four distinct 32 MiB shapes: each cached session would hold its run's buffers in ONNX Runtime's arena.
    shapes = [(1, 32, 512, 512), (1, 32, 256, 1024), (1, 32, 1024, 256), (1, 32, 128, 2048)]
    x = np.zeros(shapes[0], np.float32)
    cross_check("DEPTH_TO_SPACE1", [x], block_size=2)  # the first run loads kernels and the runtime's own state
    del x
    before = _resident_mb()
    for shape in shapes[1:]:
        report = cross_check("DEPTH_TO_SPACE1", [np.zeros(shape, np.float32)], block_size=2)
        assert report.matches
        del report
    assert _resident_mb() - before < 64
