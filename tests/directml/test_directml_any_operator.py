"""Any DirectML operator on DirectML itself, packed from its schema alone (ops.runtime.directml.run_desc): each output
equals values computed independently here (plain numpy loops from the operators' API pages, onnx.reference), and each
refusal names its stage or rule and comes back within its deadline.

The operators cover every field type the schema names but UINT64, which no operator has (tests/unit/
test_directml_packing.py): tensor arrays (JOIN, SPLIT), fused activations alone (ADD1) and as an array (RNN), UINT,
INT and FLOAT arrays (CONVOLUTION, SLICE1, VALUE_SCALE_2D), ScaleBias (IDENTITY), Size2D (UPSAMPLE_2D), scalar unions
(FILL_VALUE_SEQUENCE, CLIP1), BOOL (LOCAL_RESPONSE_NORMALIZATION_GRAD), optional inputs and outputs left out, and an
input DirectML owns (GEMM's B, bound at initialization).
"""

import dataclasses
import itertools
import time

import numpy as np
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

from ops.errors import DescriptorError
from ops.runtime import directml as dml
from ops.runtime.directml_check import packed_desc

pytestmark = pytest.mark.directml

RNG = np.random.default_rng(27)
SECONDS = 60


def desc(array, **changes):
    return dataclasses.replace(packed_desc(array.shape, array.dtype), **changes)


def out(shape, dtype=np.float32):
    return packed_desc(shape, dtype)


def ran(operator, fields, inputs, **options):
    """DirectML's outputs of one run, by name, as arrays of their descs' shapes and types."""
    result = dml.run_desc(dml.OperatorDesc(operator, fields), inputs, seconds=SECONDS, **options)
    assert result.ok, result.reason
    packed = dml.pack(dml.OperatorDesc(operator, fields))
    return {name: np.frombuffer(data, t.dtype, t.element_count).reshape(t.Sizes)
            for name, t, data in zip(result.output_names, packed.outputs, result.outputs) if t is not None}


def onnx_run(op_type, inputs, **attributes):
    names = [f"x{i}" for i in range(len(inputs))]
    node = helper.make_node(op_type, names, ["y"], **attributes)
    return ReferenceEvaluator(node).run(None, dict(zip(names, inputs)))[0]


def floats(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# ---------------------------------------------------------------- GEMM


@pytest.mark.parametrize("trans_a, trans_b", [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_gemm_with_transposes_alpha_beta_and_c(directml, trans_a, trans_b):
    m, k, n = 5, 7, 3
    a = floats(*((k, m) if trans_a else (m, k)))
    b = floats(*((n, k) if trans_b else (k, n)))
    c = floats(m, n)
    got = ran("GEMM", {"ATensor": desc(a), "BTensor": desc(b), "CTensor": desc(c), "OutputTensor": out((m, n)),
                       "TransA": "TRANSPOSE" if trans_a else "NONE", "TransB": "TRANSPOSE" if trans_b else "NONE",
                       "Alpha": 0.75, "Beta": -1.5},
              {"ATensor": a.tobytes(), "BTensor": b.tobytes(), "CTensor": c.tobytes()})["OutputTensor"]
    expected = onnx_run("Gemm", [a, b, c], transA=trans_a, transB=trans_b, alpha=0.75, beta=-1.5)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_gemm_with_b_owned_by_directml_is_bound_at_initialization_and_baked_into_the_compiled_operator(directml):
    a, b1, b2 = floats(4, 6), floats(6, 5), floats(6, 5)
    fields = {"ATensor": desc(a), "BTensor": desc(b1, Flags="OWNED_BY_DML"), "OutputTensor": out((4, 5)),
              "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0}
    for b in (b1, b2, b1):  # the same desc: each B's bytes compile their own operator
        result = dml.run_desc(dml.OperatorDesc("GEMM", fields), {"ATensor": a.tobytes(), "BTensor": b.tobytes()},
                              seconds=SECONDS)
        assert result.ok, result.reason
        np.testing.assert_allclose(np.frombuffer(result.output("OutputTensor"), np.float32).reshape(4, 5),
                                   onnx_run("Gemm", [a, b]), rtol=1e-5, atol=1e-5)
        # DirectML copied B into the persistent resource it asked for (DML_TENSOR_FLAG_OWNED_BY_DML's page).
        assert dict(result.resources)["persistent"] >= b.nbytes
    plain = dml.run_desc(dml.OperatorDesc("GEMM", {**fields, "BTensor": desc(b1)}),
                         {"ATensor": a.tobytes(), "BTensor": b1.tobytes()}, seconds=SECONDS)
    assert plain.ok and dict(plain.resources)["persistent"] == 0


# ---------------------------------------------------------------- convolutions


def conv_fields(x, w, bias, strides, dilations, start, end, groups, output_shape):
    return {"InputTensor": desc(x), "FilterTensor": desc(w), "BiasTensor": desc(bias),
            "OutputTensor": out(output_shape), "Mode": "CROSS_CORRELATION", "Direction": "FORWARD",
            "Strides": strides, "Dilations": dilations, "StartPadding": start, "EndPadding": end,
            "OutputPadding": [0] * len(strides), "GroupCount": groups}


@pytest.mark.parametrize("case", [
    # input, filter, strides, dilations, start and end padding, groups
    dict(x=(1, 4, 7, 6), w=(6, 2, 3, 3), strides=[2, 1], dilations=[1, 2], start=[1, 0], end=[1, 2], groups=2),
    dict(x=(2, 2, 4, 5, 3), w=(3, 2, 2, 3, 2), strides=[1, 2, 1], dilations=[1, 1, 1], start=[0, 1, 1],
         end=[1, 0, 0], groups=1),
], ids=["2-D", "3-D"])
def test_convolution_with_bias_strides_padding_dilations_and_groups(directml, case):
    x, w = floats(*case["x"]), floats(*case["w"])
    bias = floats(1, case["w"][0], *[1] * (len(case["x"]) - 2))
    expected = onnx_run("Conv", [x, w, bias.reshape(-1)], strides=case["strides"], dilations=case["dilations"],
                        pads=case["start"] + case["end"], group=case["groups"])
    fields = conv_fields(x, w, bias, case["strides"], case["dilations"], case["start"], case["end"], case["groups"],
                         expected.shape)
    got = ran("CONVOLUTION", fields, {"InputTensor": x.tobytes(), "FilterTensor": w.tobytes(),
                                      "BiasTensor": bias.tobytes()})["OutputTensor"]
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------- RNN with a fused activation per direction


def elu(x, alpha):
    return np.where(x > 0, x, alpha * (np.exp(x) - 1))


def rnn_spec(x, w, r, bias, activations):
    """DML_RNN_OPERATOR_DESC's recurrence, step by step: H_t = f(X_t W^T + H_(t-1) R^T + Wb + Rb), the second
    direction from the last step to the first. x {1, seq, batch, input}, w {1, dirs, hidden, input}, bias {1, 1,
    dirs, 2 hidden}; returns the sequence {seq, dirs, batch, hidden} and the last states {1, dirs, batch, hidden}."""
    _, seq, batch, _ = x.shape
    dirs, hidden = w.shape[1], w.shape[2]
    sequence = np.zeros((seq, dirs, batch, hidden))
    single = np.zeros((1, dirs, batch, hidden))
    for d in range(dirs):
        state = np.zeros((batch, hidden))
        steps = range(seq) if d == 0 else range(seq - 1, -1, -1)
        for t in steps:
            pre = x[0, t].astype(np.float64) @ w[0, d].T + state @ r[0, d].T + bias[0, 0, d, :hidden] + \
                bias[0, 0, d, hidden:]
            state = activations[d](pre)
            sequence[t, d] = state
        single[0, d] = state
    return sequence, single


def test_rnn_bidirectional_with_an_array_of_fused_activations(directml):
    seq, batch, inputs, hidden = 4, 3, 5, 6
    x, w, r = floats(1, seq, batch, inputs), floats(1, 2, hidden, inputs) * 0.5, floats(1, 2, hidden, hidden) * 0.3
    bias = floats(1, 1, 2, 2 * hidden)
    fields = {"InputTensor": desc(x), "WeightTensor": desc(w), "RecurrenceTensor": desc(r), "BiasTensor": desc(bias),
              "OutputSequenceTensor": out((seq, 2, batch, hidden)), "OutputSingleTensor": out((1, 2, batch, hidden)),
              "ActivationDescs": [dml.OperatorDesc("ACTIVATION_ELU", {"Alpha": 0.5}),
                                  dml.OperatorDesc("ACTIVATION_TANH")],
              "Direction": "BIDIRECTIONAL"}
    got = ran("RNN", fields, {"InputTensor": x.tobytes(), "WeightTensor": w.tobytes(), "RecurrenceTensor": r.tobytes(),
                              "BiasTensor": bias.tobytes()})
    sequence, single = rnn_spec(x, w, r, bias, [lambda v: elu(v, 0.5), np.tanh])
    np.testing.assert_allclose(got["OutputSequenceTensor"], sequence, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got["OutputSingleTensor"], single, rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------- reductions and scans


@pytest.mark.parametrize("function, reduce", [
    ("SUM", np.sum), ("MAX", np.max), ("AVERAGE", np.mean), ("L2", lambda v, axis, keepdims: np.sqrt(
        np.sum(v.astype(np.float64) ** 2, axis=axis, keepdims=keepdims))), ("MULTIPLY", np.prod)])
def test_reduce_over_two_axes(directml, function, reduce):
    x = floats(2, 3, 4, 5)
    got = ran("REDUCE", {"Function": function, "InputTensor": desc(x), "OutputTensor": out((2, 1, 4, 1)),
                         "Axes": [1, 3]}, {"InputTensor": x.tobytes()})["OutputTensor"]
    np.testing.assert_allclose(got, reduce(x, axis=(1, 3), keepdims=True), rtol=1e-5, atol=1e-6)


def cumulative_product_spec(x, axis, reverse, exclusive):
    """Plain loops: each element the product of the elements before it along `axis` (after it when `reverse`), its
    own included unless `exclusive`."""
    result = np.empty_like(x)
    size = x.shape[axis]
    for index in np.ndindex(*x.shape):
        i = index[axis]
        span = range(i + 1, size) if reverse else range(i)
        product = np.float32(1) if exclusive else x[index]
        for j in span:
            product = np.float32(product * x[index[:axis] + (j,) + index[axis + 1:]])
        result[index] = product
    return result


@pytest.mark.parametrize("direction, exclusive", [("INCREASING", 0), ("DECREASING", 1)])
def test_cumulative_product_along_an_axis(directml, direction, exclusive):
    x = (RNG.integers(1, 4, (2, 3, 4)) * RNG.choice([-1, 1], (2, 3, 4))).astype(np.float32)  # exact products
    got = ran("CUMULATIVE_PRODUCT", {"InputTensor": desc(x), "OutputTensor": out(x.shape), "Axis": 2,
                                     "AxisDirection": direction, "HasExclusiveProduct": exclusive},
              {"InputTensor": x.tobytes()})["OutputTensor"]
    np.testing.assert_array_equal(got, cumulative_product_spec(x, 2, direction == "DECREASING", exclusive))


# ---------------------------------------------------------------- scalar unions (FLOAT16)


def test_fill_value_sequence_with_float16_scalar_unions(directml):
    got = ran("FILL_VALUE_SEQUENCE", {"OutputTensor": out((2, 5), np.float16), "ValueDataType": "FLOAT16",
                                      "ValueStart": -1.5, "ValueDelta": 0.375}, {})["OutputTensor"]
    expected = np.array([-1.5 + 0.375 * i for i in range(10)], np.float16).reshape(2, 5)  # every value exact
    assert got.tobytes() == expected.tobytes()
    # Not exact in float16: DirectML writes start + i x delta rounded once, so within half a float16 step.
    inexact = ran("FILL_VALUE_SEQUENCE", {"OutputTensor": out((8,), np.float16), "ValueDataType": "FLOAT16",
                                          "ValueStart": 3.2, "ValueDelta": 1.5}, {})["OutputTensor"]
    reference = float(np.float16(3.2)) + np.arange(8) * 1.5
    assert np.all(np.abs(inexact.astype(np.float64) - reference) <= np.spacing(reference.astype(np.float16)) / 2)


def test_clip1_with_float16_scalar_unions(directml):
    x = (RNG.standard_normal(24) * 3).astype(np.float16)
    got = ran("ELEMENT_WISE_CLIP1", {"InputTensor": desc(x), "OutputTensor": out(x.shape, np.float16),
                                     "MinMaxDataType": "FLOAT16", "Min": -0.5, "Max": 1.25},
              {"InputTensor": x.tobytes()})["OutputTensor"]
    assert got.tobytes() == np.clip(x, np.float16(-0.5), np.float16(1.25)).tobytes()
    # The same bounds as their bytes, as a caller holding them already encoded passes them.
    again = ran("ELEMENT_WISE_CLIP1", {"InputTensor": desc(x), "OutputTensor": out(x.shape, np.float16),
                                       "MinMaxDataType": "FLOAT16", "Min": np.float16(-0.5).tobytes(),
                                       "Max": np.float16(1.25).tobytes()}, {"InputTensor": x.tobytes()})
    assert again["OutputTensor"].tobytes() == got.tobytes()


# ---------------------------------------------------------------- Size2D, INT and FLOAT arrays


def upsample_spec(x, scale_h, scale_w, linear):
    """Nearest: output (i, j) reads input (i // scale_h, j // scale_w). Linear: pixel centres, input coordinate
    (i + 0.5) / scale - 0.5 clamped to the input, interpolated between its two neighbours in each direction."""
    n, c, h, w = x.shape
    result = np.zeros((n, c, h * scale_h, w * scale_w))
    for i, j in itertools.product(range(h * scale_h), range(w * scale_w)):
        if not linear:
            result[:, :, i, j] = x[:, :, i // scale_h, j // scale_w]
            continue
        y0 = min(max((i + 0.5) / scale_h - 0.5, 0), h - 1)
        x0 = min(max((j + 0.5) / scale_w - 0.5, 0), w - 1)
        top, left = int(y0), int(x0)
        bottom, right = min(top + 1, h - 1), min(left + 1, w - 1)
        dy, dx = y0 - top, x0 - left
        result[:, :, i, j] = (x[:, :, top, left] * (1 - dy) * (1 - dx) + x[:, :, top, right] * (1 - dy) * dx +
                              x[:, :, bottom, left] * dy * (1 - dx) + x[:, :, bottom, right] * dy * dx)
    return result


@pytest.mark.parametrize("mode", ["NEAREST_NEIGHBOR", "LINEAR"])
def test_upsample_2d_with_a_size_2d_scale(directml, mode):
    x = floats(1, 2, 2, 3)
    got = ran("UPSAMPLE_2D", {"InputTensor": desc(x), "OutputTensor": out((1, 2, 4, 9)),
                              "ScaleSize": {"Width": 3, "Height": 2}, "InterpolationMode": mode},
              {"InputTensor": x.tobytes()})["OutputTensor"]
    np.testing.assert_allclose(got, upsample_spec(x, 2, 3, mode == "LINEAR"), rtol=1e-5, atol=1e-6)


def slice1_spec(x, offsets, sizes, strides, output_shape):
    """DML_SLICE1_OPERATOR_DESC's pseudo-code: a negative stride starts at the window's end."""
    start = [o + (s - 1 if st < 0 else 0) for o, s, st in zip(offsets, sizes, strides)]
    result = np.empty(output_shape, x.dtype)
    for index in np.ndindex(*output_shape):
        result[index] = x[tuple(b + st * i for b, st, i in zip(start, strides, index))]
    return result


def test_slice1_with_negative_int_array_strides(directml):
    x = np.arange(2 * 5 * 6, dtype=np.int32).reshape(1, 2, 5, 6)
    offsets, sizes, strides = [0, 0, 1, 0], [1, 2, 4, 6], [1, -1, -2, 3]
    got = ran("SLICE1", {"InputTensor": desc(x), "OutputTensor": out((1, 2, 2, 2), np.int32),
                         "InputWindowOffsets": offsets, "InputWindowSizes": sizes, "InputWindowStrides": strides},
              {"InputTensor": x.tobytes()})["OutputTensor"]
    np.testing.assert_array_equal(got, slice1_spec(x, offsets, sizes, strides, (1, 2, 2, 2)))


def test_value_scale_2d_with_a_float_array_bias(directml):
    x = floats(2, 3, 2, 4)
    got = ran("VALUE_SCALE_2D", {"InputTensor": desc(x), "OutputTensor": out(x.shape), "Scale": 0.5,
                                 "Bias": [1.0, -2.0, 0.25]}, {"InputTensor": x.tobytes()})["OutputTensor"]
    expected = x * np.float32(0.5) + np.array([1.0, -2.0, 0.25], np.float32).reshape(1, 3, 1, 1)
    np.testing.assert_allclose(got, expected, rtol=1e-6)


# ---------------------------------------------------------------- BOOL: LOCAL_RESPONSE_NORMALIZATION_GRAD


def lrn_windows(shape, cross_channel, size):
    """For each element, the elements of its window (DirectML's LRN page: LocalSize elements across channels, or a
    LocalSize x LocalSize square in the plane), centred with the extra element after it for an even size."""
    low, high = (size - 1) // 2, size // 2
    windows = {}
    for n, c, h, w in np.ndindex(*shape):
        if cross_channel:
            windows[n, c, h, w] = [(n, k, h, w) for k in range(max(0, c - low), min(shape[1], c + high + 1))]
        else:
            windows[n, c, h, w] = [(n, c, i, j) for i in range(max(0, h - low), min(shape[2], h + high + 1))
                                   for j in range(max(0, w - low), min(shape[3], w + high + 1))]
    return windows


def lrn(x, windows, size, alpha, beta, bias):
    """Output = Input / (Bias + (Alpha / LocalSize) * sum(Input^2 over the window))^Beta, in float64."""
    s = {i: bias + alpha / size * sum(x[j] ** 2 for j in window) for i, window in windows.items()}
    return np.array([x[i] / s[i] ** beta for i in np.ndindex(*x.shape)]).reshape(x.shape), s


def lrn_gradient(x, g, windows, size, alpha, beta, bias):
    """d(sum g y)/dx_k = g_k s_k^-beta - (2 alpha beta / size) x_k sum over the windows i holding k of
    g_i x_i s_i^(-beta-1)."""
    _, s = lrn(x, windows, size, alpha, beta, bias)
    result = np.array([g[k] * s[k] ** -beta for k in np.ndindex(*x.shape)]).reshape(x.shape)
    for i, window in windows.items():
        for k in window:
            result[k] -= 2 * alpha * beta / size * x[k] * g[i] * x[i] * s[i] ** (-beta - 1)
    return result


@pytest.mark.parametrize("cross_channel", [True, False])
def test_local_response_normalization_grad_with_its_bool_field(directml, cross_channel):
    size, alpha, beta, bias = 3, 0.8, 0.75, 1.5
    x, g = floats(1, 4, 3, 3), floats(1, 4, 3, 3)
    windows = lrn_windows(x.shape, cross_channel, size)
    expected = lrn_gradient(x.astype(np.float64), g.astype(np.float64), windows, size, alpha, beta, bias)
    # The reference's own check: its gradient is the forward's by central differences.
    step, k = 1e-6, (0, 1, 1, 2)
    bumped = [x.astype(np.float64) for _ in range(2)]
    bumped[0][k] += step
    bumped[1][k] -= step
    numeric = (np.sum(g * lrn(bumped[0], windows, size, alpha, beta, bias)[0]) -
               np.sum(g * lrn(bumped[1], windows, size, alpha, beta, bias)[0])) / (2 * step)
    assert abs(numeric - expected[k]) < 1e-6
    got = ran("LOCAL_RESPONSE_NORMALIZATION_GRAD", {
        "InputTensor": desc(x), "InputGradientTensor": desc(g), "OutputGradientTensor": out(x.shape),
        "CrossChannel": cross_channel, "LocalSize": size, "Alpha": alpha, "Beta": beta, "Bias": bias},
        {"InputTensor": x.tobytes(), "InputGradientTensor": g.tobytes()})["OutputGradientTensor"]
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("normalize_variance", [True, False])
def test_mean_variance_normalization1_with_a_uint_read_as_a_bool(directml, normalize_variance):
    x = floats(2, 3, 4, 5)
    got = ran("MEAN_VARIANCE_NORMALIZATION1", {
        "InputTensor": desc(x), "OutputTensor": out(x.shape), "Axes": [2, 3], "NormalizeVariance": normalize_variance,
        "Epsilon": 1e-5}, {"InputTensor": x.tobytes()})["OutputTensor"]
    centred = x.astype(np.float64) - x.mean(axis=(2, 3), keepdims=True)
    expected = centred / np.sqrt(x.var(axis=(2, 3), keepdims=True) + 1e-5) if normalize_variance else centred
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------- ScaleBias, fused activations, tensor arrays


def test_identity_with_scale_bias(directml):
    x = floats(3, 4)
    got = ran("ELEMENT_WISE_IDENTITY", {"InputTensor": desc(x), "OutputTensor": out(x.shape),
                                        "ScaleBias": {"Scale": 2.0, "Bias": 10.0}},
              {"InputTensor": x.tobytes()})["OutputTensor"]
    np.testing.assert_array_equal(got, x * np.float32(2) + np.float32(10))


def test_add1_with_a_fused_elu(directml):
    a, b = floats(2, 7), floats(2, 7)
    got = ran("ELEMENT_WISE_ADD1", {"ATensor": desc(a), "BTensor": desc(b), "OutputTensor": out(a.shape),
                                    "FusedActivation": dml.OperatorDesc("ACTIVATION_ELU", {"Alpha": 0.5})},
              {"ATensor": a.tobytes(), "BTensor": b.tobytes()})["OutputTensor"]
    np.testing.assert_allclose(got, elu((a + b).astype(np.float64), 0.5), rtol=1e-5, atol=1e-6)


def test_join_and_split_with_tensor_arrays(directml):
    parts = [floats(2, k, 3) for k in (1, 3, 2)]
    joined = ran("JOIN", {"InputTensors": [desc(p) for p in parts], "OutputTensor": out((2, 6, 3)), "Axis": 1},
                 {"InputTensors": [p.tobytes() for p in parts]})["OutputTensor"]
    assert joined.tobytes() == np.concatenate(parts, axis=1).tobytes()
    split = ran("SPLIT", {"InputTensor": desc(joined), "OutputTensors": [out(p.shape) for p in parts], "Axis": 1},
                {"InputTensor": joined.tobytes()})
    assert [split[f"OutputTensors[{i}]"].tobytes() for i in range(3)] == [p.tobytes() for p in parts]


# ---------------------------------------------------------------- refusals: each with its stage or rule, none hangs


def test_an_array_shorter_than_its_count_never_reaches_the_worker(directml, monkeypatch):
    calls = []
    monkeypatch.setattr(dml._worker(), "call", lambda *args: calls.append(args))
    x, w = floats(1, 1, 5, 5), floats(1, 1, 3, 3)
    fields = {**conv_fields(x, w, floats(1, 1, 1, 1), [1, 1], [1, 1], [0, 0], [0, 0], 1, (1, 1, 3, 3)),
              "DimensionCount": 2, "EndPadding": [0]}
    with pytest.raises(DescriptorError, match=r"CONVOLUTION\.EndPadding: 1 elements, but DimensionCount is 2"):
        dml.run_desc(dml.OperatorDesc("CONVOLUTION", fields), {"InputTensor": x.tobytes(), "FilterTensor": w.tobytes(),
                                                               "BiasTensor": bytes(4)})
    assert calls == []


def test_a_gemm_with_a_wrong_output_size_is_refused_by_create_operator(directml):
    a, b = floats(3, 1), floats(1, 3)
    start = time.monotonic()
    result = dml.run_desc(dml.OperatorDesc("GEMM", {"ATensor": desc(a), "BTensor": desc(b), "OutputTensor": out((3, 2)),
                                                    "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0}),
                          {"ATensor": a.tobytes(), "BTensor": b.tobytes()}, seconds=SECONDS)
    assert (result.ok, result.stage, result.hresult_text) == (False, "CreateOperator", "E_INVALIDARG (0x80070057)")
    assert result.reason.startswith("CreateOperator returned E_INVALIDARG (0x80070057)")
    assert result.outputs == () and time.monotonic() - start < SECONDS


def test_execution_flags_reach_compile_operator(directml):
    a, b = floats(2, 3), floats(3, 2)
    desc_ = dml.OperatorDesc("GEMM", {"ATensor": desc(a), "BTensor": desc(b), "OutputTensor": out((2, 2)),
                                      "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0})
    inputs = {"ATensor": a.tobytes(), "BTensor": b.tobytes()}
    assert dml.run_desc(desc_, inputs, flags=1).ok  # DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION
    refused = dml.run_desc(desc_, inputs, flags=8)  # no DML_EXECUTION_FLAGS member has this bit
    assert (refused.stage, refused.hresult_text) == ("CompileOperator", "E_INVALIDARG (0x80070057)")


def test_an_operator_after_this_directml_s_feature_level_is_refused_before_it_runs(directml, monkeypatch):
    calls = []
    monkeypatch.setattr(dml._worker(), "call", lambda *args: calls.append(args))
    x = floats(1, 2, 3, 4)
    with pytest.raises(DescriptorError, match=r"DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2 was introduced in DirectML "
                                              r"feature level 6_3 \(DirectML 1\.14\); this DirectML build supports "
                                              r"feature levels up to 6_2 \(DirectML 1\.13\), so it cannot run it"):
        dml.run_desc(dml.OperatorDesc("MEAN_VARIANCE_NORMALIZATION2", {
            "InputTensor": desc(x), "OutputTensor": out(x.shape), "Axes": [3], "UseMean": True, "UseVariance": True,
            "Epsilon": 1e-5}), {"InputTensor": x.tobytes()})
    assert calls == []


def test_an_unknown_operator_type_is_refused_by_the_schema_and_by_directml(directml):
    with pytest.raises(DescriptorError, match=r"operator type 999 is no DML_OPERATOR_TYPE \(1 to 177\)"):
        dml.verdict(dml.OperatorDesc(999))
    with pytest.raises(DescriptorError, match=r"operator type 176 \(DML_OPERATOR_FOLD\) has no schema"):
        dml.verdict(dml.OperatorDesc(176))
    # Past the schema, as a crafted request would reach the worker: DirectML's own CreateOperator refuses it.
    x = floats(3)
    request = dml._wire_request("verdict", dml.pack(dml.OperatorDesc("ELEMENT_WISE_ABS", {
        "InputTensor": desc(x), "OutputTensor": out(x.shape)})), "6_2")
    request["desc"]["type"] = 9999
    answer, _ = dml._worker().call(request, [], SECONDS)
    assert (answer["stage"], answer["hr"]) == ("CreateOperator", 0x80070057)


def test_a_malformed_request_is_answered_and_the_worker_carries_on(directml):
    x = floats(3)
    desc_ = dml.OperatorDesc("ELEMENT_WISE_ABS", {"InputTensor": desc(x), "OutputTensor": out(x.shape)})
    request = dml._wire_request("run", dml.pack(desc_), "6_2")
    request["desc"]["fields"][0][1] = ["input", 5]  # a reference past the request's inputs
    worker = dml._worker()
    starts = worker.starts
    answer, outputs = worker.call(request, [x.tobytes(), bytes(12)], SECONDS)
    assert (answer["stage"], answer["hr"], outputs) == ("packing the desc", 0x80070057, [])
    assert answer["diagnostics"] == ["a malformed desc: IndexError: list index out of range"]
    result = dml.run_desc(desc_, {"InputTensor": x.tobytes()})
    assert result.ok and worker.starts == starts
    assert np.frombuffer(result.output("OutputTensor"), np.float32).tolist() == np.abs(x).tolist()
