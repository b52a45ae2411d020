"""The cost of a DirectML call, estimated before the worker is asked (ops/runtime/directml/cost.py): each formula
against the multiply-adds (or window visits) a plain loop over the operator's definition counts, every schema costed
from a synthetic desc, and work past the budget refused with the limit named, the worker never asked."""

import itertools
import math

import numpy as np
import pytest

from ops import schema
from ops.errors import DescriptorError
from ops.runtime import directml as dml
from ops.runtime.directml import cost
from ops.runtime.directml_check import packed_desc
from support.directml_descs import synthetic_desc


def formula_work(desc):
    """The work the operator's formula adds to the generic bound (every tensor's elements)."""
    packed = dml.pack(desc)
    tensors = [t for t in packed.inputs + packed.outputs if t is not None]
    return cost.estimate(packed).work - sum(math.prod(t.Sizes) for t in tensors)


def t(*shape):
    return packed_desc(shape, np.float32)


@pytest.mark.parametrize("op", schema.SCHEMAS.values(), ids=lambda op: op.name)
def test_every_schema_is_costed_at_least_by_its_tensors(op):
    packed = dml.pack(synthetic_desc(op))
    estimate = cost.estimate(packed)
    elements = sum(math.prod(t.Sizes) for t in packed.inputs + packed.outputs if t is not None)
    assert estimate.work >= elements
    assert estimate.formula == ("" if op.name not in cost.WORK_FORMULAS else estimate.formula)
    assert estimate.tensor_bytes == sum(t.TotalTensorSizeInBytes for t in packed.inputs + packed.outputs if t)


def test_every_formula_is_keyed_by_a_schema_name():
    assert set(cost.WORK_FORMULAS) <= set(schema.SCHEMAS)


@pytest.mark.parametrize("trans_a", [0, 1])
def test_gemm_counts_output_times_the_reduced_dimension(trans_a):
    m, k, n = 3, 5, 4
    macs = sum(1 for _i, _j, _p in itertools.product(range(m), range(n), range(k)))  # out[i, j] += a[i, p] b[p, j]
    desc = dml.OperatorDesc("GEMM", {"ATensor": t(k, m) if trans_a else t(m, k), "BTensor": t(k, n),
                                     "OutputTensor": t(m, n), "TransA": trans_a, "TransB": 0, "Alpha": 1.0,
                                     "Beta": 0.0})
    assert formula_work(desc) == macs


def convolution_macs(input_shape, filter_shape, output_shape, groups):
    """Plain loops over DirectML's forward convolution: every output element visits every filter tap of its group's
    input channels (a tap on padding multiplies a zero, but is visited)."""
    batch, channels = input_shape[:2]
    out_channels, group_channels = filter_shape[:2]
    assert channels == group_channels * groups
    count = 0
    for _ in itertools.product(range(batch), range(out_channels), *map(range, output_shape[2:])):
        for _ in itertools.product(range(group_channels), *map(range, filter_shape[2:])):
            count += 1
    return count


@pytest.mark.parametrize("case", [
    dict(x=(2, 4, 6, 5), w=(6, 2, 3, 2), out=(2, 6, 3, 4), strides=[2, 1], dilations=[1, 1], start=[1, 0], groups=2),
    dict(x=(1, 2, 4, 4, 3), w=(3, 2, 2, 2, 2), out=(1, 3, 3, 3, 2), strides=[1, 1, 1], dilations=[1, 1, 1],
         start=[0, 0, 0], groups=1),
])
def test_a_forward_convolution_counts_every_filter_tap_at_every_output(case):
    n = len(case["strides"])
    desc = dml.OperatorDesc("CONVOLUTION", {
        "InputTensor": t(*case["x"]), "FilterTensor": t(*case["w"]), "OutputTensor": t(*case["out"]),
        "Mode": "CROSS_CORRELATION", "Direction": "FORWARD", "Strides": case["strides"],
        "Dilations": case["dilations"], "StartPadding": case["start"], "EndPadding": [0] * n,
        "OutputPadding": [0] * n, "GroupCount": case["groups"]})
    assert formula_work(desc) == convolution_macs(case["x"], case["w"], case["out"], case["groups"])


def test_a_transposed_convolution_counts_every_tap_at_every_input():
    # Backward: each input element spreads over the output channels of its group x window.
    x, w, out = (1, 4, 3, 3), (4, 2, 3, 3), (1, 2, 5, 5)
    macs = math.prod(x) * math.prod(w[1:])
    desc = dml.OperatorDesc("CONVOLUTION", {
        "InputTensor": t(*x), "FilterTensor": t(*w), "OutputTensor": t(*out), "Mode": "CROSS_CORRELATION",
        "Direction": "BACKWARD", "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0],
        "EndPadding": [0, 0], "OutputPadding": [0, 0], "GroupCount": 1})
    assert formula_work(desc) == macs


def test_pooling_counts_a_window_per_output():
    desc = dml.OperatorDesc("MAX_POOLING", {"InputTensor": t(1, 2, 6, 6), "OutputTensor": t(1, 2, 2, 3),
                                            "Strides": [3, 2], "WindowSize": [3, 2], "StartPadding": [0, 0],
                                            "EndPadding": [0, 0]})
    visits = sum(1 for _ in itertools.product(range(12), range(3), range(2)))
    assert formula_work(desc) == visits


def test_a_recurrent_network_counts_its_steps_and_their_multiply_adds():
    seq, batch, inputs, hidden, dirs = 7, 3, 4, 5, 2
    macs = 0
    for _d, _step in itertools.product(range(dirs), range(seq)):
        macs += batch * hidden * inputs + batch * hidden * hidden  # X_t W^T and H_(t-1) R^T
    desc = dml.OperatorDesc("RNN", {"InputTensor": t(1, seq, batch, inputs), "WeightTensor": t(1, dirs, hidden, inputs),
                                    "RecurrenceTensor": t(1, dirs, hidden, hidden),
                                    "OutputSequenceTensor": t(seq, dirs, batch, hidden),
                                    "ActivationDescs": [dml.OperatorDesc("ACTIVATION_TANH")] * 2,
                                    "Direction": "BIDIRECTIONAL"})
    assert formula_work(desc) == seq * dirs * cost.STEP + cost.SEQUENTIAL * macs


def test_attention_counts_every_query_against_every_key_and_value():
    batch, heads, queries, keys, past, head = 2, 3, 4, 5, 2, 6
    macs = 2 * sum(1 for _ in itertools.product(range(batch), range(heads), range(queries), range(keys + past),
                                                range(head)))
    hidden = heads * head
    desc = dml.OperatorDesc("MULTIHEAD_ATTENTION", {
        "QueryTensor": t(batch, queries, hidden), "KeyTensor": t(batch, keys, hidden),
        "ValueTensor": t(batch, keys, hidden), "PastKeyTensor": t(batch, heads, past, head),
        "PastValueTensor": t(batch, heads, past, head), "OutputTensor": t(batch, queries, hidden), "Scale": 1.0,
        "MaskFilterValue": -1e4, "HeadCount": heads, "MaskType": "NONE"})
    assert formula_work(desc) == macs


def test_top_k_counts_a_sort_of_its_axis():
    desc = dml.OperatorDesc("TOP_K1", {"InputTensor": t(2, 1000), "OutputValueTensor": t(2, 10),
                                       "OutputIndexTensor": packed_desc((2, 10), np.uint32), "Axis": 1, "K": 10,
                                       "AxisDirection": "DECREASING"})
    assert formula_work(desc) == 2000 * 10  # 1000 fits in 10 bits


def test_work_past_the_budget_is_refused_naming_the_limit_before_the_worker_is_asked(monkeypatch):
    def never(*_):
        raise AssertionError("the worker was asked")

    monkeypatch.setattr(dml, "_worker", never)
    n = 4096
    desc = dml.OperatorDesc("GEMM", {"ATensor": t(n, n), "BTensor": t(n, n), "OutputTensor": t(n, n),
                                     "TransA": 0, "TransB": 0, "Alpha": 1.0, "Beta": 0.0})
    data = bytes(n * n * 4)
    with pytest.raises(cost.OverBudget, match=r"DML_OPERATOR_GEMM: about 68,769,808,384 element operations \(by its "
                                              r"gemm formula\), past the 10,000,000,000 one DirectML call may take "
                                              r"here \(the work budget\)"):
        dml.run_desc(desc, {"ATensor": data, "BTensor": data})
    assert issubclass(cost.OverBudget, DescriptorError)  # callers show it as any refusal of a desc
