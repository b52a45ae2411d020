"""Export: model_for round trips through run_model for every operator; C++ snippets compile."""

import copy
import json
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ops import DescriptorError, load_model
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.export import cpp_snippet, initial_values, model_for
from ops.operators.bitwise import bit_or
from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.operators.split_join import join, split
from support.cpp import MOCK_HEADER

DTYPES = [np.float32, np.float16, np.float64, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64]


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    raw = rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8)
    x = raw.view(dtype).reshape(shape).copy()
    if dtype.kind == "f":  # keep the payloads "nan" can express, plus infinities
        x[np.isnan(x)] = np.nan
        x.flat[0] = np.inf
    return x


def run_outputs(model):
    text = json.dumps(model)  # the model must survive real JSON
    record = run_model_detailed(text).dispatches[0]
    out = record.outputs.get("OutputTensors", record.outputs.get("OutputTensor"))
    return out if isinstance(out, list) else [out]


def assert_same_bits(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_array_equal(bits(g), bits(e))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(DTYPES), st.integers(0, 2**32 - 1), st.integers(1, 3), st.sampled_from(["DCR", "CRD"]))
def test_round_trip_depth_space(dtype, seed, block, order):
    rng = np.random.default_rng(seed)
    x = random_array(rng, (2, 2 * block * block, 2, 3), dtype)
    assert_same_bits(run_outputs(model_for("depth_to_space", x, block_size=block, order=order)),
                     [depth_to_space(x, block, order)])
    y = random_array(rng, (1, 2, 2 * block, block), dtype)
    assert_same_bits(run_outputs(model_for("DML_OPERATOR_SPACE_TO_DEPTH1", y, block_size=block, order=order)),
                     [space_to_depth(y, block, order)])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(DTYPES), st.integers(0, 2**32 - 1), st.lists(st.integers(1, 3), min_size=1, max_size=4))
def test_round_trip_bit_or_split_join(dtype, seed, shape):
    rng = np.random.default_rng(seed)
    a, b = random_array(rng, shape, dtype), random_array(rng, shape, dtype)
    got = run_outputs(model_for("bit_or", [a, b]))
    expected = bit_or(a, b)
    if np.dtype(dtype).kind == "f":  # an OR can create any NaN payload; compare NaN-ness there
        nan = np.isnan(expected)
        np.testing.assert_array_equal(np.isnan(got[0]), nan)
        np.testing.assert_array_equal(bits(got[0])[~nan], bits(expected)[~nan])
    else:
        assert_same_bits(got, [expected])
    axis = len(shape) - 1
    x = random_array(rng, shape[:-1] + [shape[-1] + 2], dtype)
    sizes = [1, shape[-1] + 1]
    assert_same_bits(run_outputs(model_for("split", x, axis=axis, sizes=sizes)), split(x, axis, sizes))
    parts = [random_array(rng, shape, dtype), random_array(rng, shape[:-1] + [1], dtype)]
    assert_same_bits(run_outputs(model_for("join", parts, axis=axis)), [join(parts, axis)])


def test_float_specials_written_as_strings():
    x = np.array([1.5, np.nan, np.inf, -np.inf, -0.0], dtype=np.float32)
    data_type, values = initial_values(x)
    assert data_type == "FLOAT32"
    assert values[1:4] == ["nan", "inf", "-inf"] and values[0] == 1.5
    model = model_for("bit_or", [x, np.zeros(5, np.float32)])
    assert '"nan"' in json.dumps(model)
    np.testing.assert_array_equal(bits(run_outputs(model)[0]), bits(x))


def test_nan_payload_kept_through_unsigned_type():
    x = np.array([0x7FC00001, 0xFFC00000, 0x3F800000], dtype=np.uint32).view(np.float32)
    data_type, values = initial_values(x)
    assert data_type == "UINT32" and values == [0x7FC00001, 0xFFC00000, 0x3F800000]
    model = model_for("split", x.reshape(1, 3), axis=1, sizes=[2, 1])
    got = run_outputs(model)
    assert bits(got[0]).tolist() == [[0x7FC00001, 0xFFC00000]]
    assert got[0].dtype == np.float32


def test_model_for_shape():
    model = model_for("split", np.zeros((1, 1, 6, 2), np.float32), axis=2, sizes=[2, 1, 3])
    assert set(model["resources"]) == {"input", "output0", "output1", "output2"}
    (dispatchable,) = model["dispatchables"].values()
    assert dispatchable["type"] == "DML_OPERATOR_SPLIT" and dispatchable["desc"]["OutputCount"] == 3
    assert [c["type"] for c in model["commands"]] == ["dispatch", "print", "print", "print"]
    assert model["resources"]["output1"]["initialValues"] == {"valueCount": 2, "value": 0}


@pytest.mark.parametrize(
    "op, inputs, attrs, words",
    [
        ("conv", [np.zeros(2)], {}, "not a supported operator"),
        ("split", [np.zeros((2, 2), np.float32)], {"axis": 0}, "sizes: required by SPLIT"),
        ("split", [np.zeros((2, 2), np.float32)], {"axis": 0, "sizes": [2], "block_size": 2},
         "block_size: not an attribute of SPLIT"),
        ("bit_or", [np.zeros(2, np.uint8)], {}, "takes exactly 2 input"),
        ("join", "x", {"axis": 0}, "numpy array"),
        ("depth_to_space", [np.zeros((1, 8, 2, 3), np.uint8)], {"block_size": 3}, "BlockSize 3"),
    ],
)
def test_model_for_refusals(op, inputs, attrs, words):
    with pytest.raises(DescriptorError, match=words):
        model_for(op, inputs, **attrs)


def test_normalize_model_is_json_with_defaults():
    model = load_model(model_for("join", [np.ones((1, 2), np.int8), np.ones((1, 2), np.int8)], axis=0))
    text = json.dumps(model)
    assert json.loads(text) == model
    desc = model["dispatchables"]["join"]["desc"]
    assert desc["OutputTensor"]["TotalTensorSizeInBytes"] == 4 and desc["InputTensors"][0]["Flags"] == "NONE"


# Just enough of DirectML.h's declarations (names and field types as in the header) to compile against.


SNIPPET_MODELS = {
    "d2s": model_for("depth_to_space", np.zeros((1, 8, 2, 3), np.uint32), block_size=2, order="CRD"),
    "s2d": model_for("space_to_depth", np.zeros((1, 2, 4, 6), np.float16), block_size=2),
    "or": model_for("bit_or", [np.zeros(3, np.int64), np.zeros(3, np.int64)]),
    "split": model_for("split", np.zeros((1, 1, 6, 2), np.float32), axis=2, sizes=[2, 1, 3]),
    "join": model_for("join", [np.zeros((2, 1), np.int8), np.zeros((2, 3), np.int8)], axis=1),
}


def only_dispatchable(model):
    (d,) = model["dispatchables"].values()
    return copy.deepcopy(d)


def test_cpp_snippet_fields():
    text = cpp_snippet(only_dispatchable(SNIPPET_MODELS["d2s"]))
    assert "DML_DEPTH_TO_SPACE1_OPERATOR_DESC" in text and "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH" in text
    assert "DML_TENSOR_DATA_TYPE_UINT32" in text and "inputTensorBuffer.TotalTensorSizeInBytes = 192;" in text
    assert "{1, 8, 2, 3}" in text and "{DML_OPERATOR_DEPTH_TO_SPACE1, &" in text
    strided = only_dispatchable(SNIPPET_MODELS["or"])
    strided["desc"]["BTensor"]["Strides"] = [0]
    text = cpp_snippet(strided)
    assert "const UINT bTensorStrides[1] = {0};" in text and "bTensorBuffer.TotalTensorSizeInBytes = 8;" in text
    assert "DML_TENSOR_DATA_TYPE_INT64" in text


def test_cpp_snippet_refuses_invalid():
    d = only_dispatchable(SNIPPET_MODELS["split"])
    d["desc"]["Axis"] = 7
    with pytest.raises(DescriptorError, match=r"desc\.Axis"):
        cpp_snippet(d)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_cpp_snippets_compile(tmp_path):
    bodies = [f"void make_{name}() {{\n{cpp_snippet(only_dispatchable(m))}(void)operatorDesc;\n}}"
              for name, m in SNIPPET_MODELS.items()]
    source = tmp_path / "snippets.cpp"
    source.write_text(MOCK_HEADER + "\n".join(bodies))
    result = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", str(source)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
