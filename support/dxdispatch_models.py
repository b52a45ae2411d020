"""Our own mirrors of the 18 DirectML models in DxDispatch's models/ folder (examples/dxdispatch_models/, each naming
the model it mirrors at microsoft/DirectML a9614e82) and the values each should leave in its resources, computed
here independently: plain loops from the operators' API pages, numpy, onnx.reference. The DirectML tests and
scripts/directml_catalogue.py share them.

dml_element_wise_add_npy.json, the folder's 19th DirectML model, reads its inputs from .npy and .dat files by
sourcePath: this app never reads files, so it has no mirror here (ops.inspect_model says why it cannot run)."""

import itertools
import json
import math

import numpy as np
from onnx import helper
from onnx.reference import ReferenceEvaluator

from ops.descriptors.jsonc import rapidjson_text
from support.paths import EXAMPLES

FOLDER = EXAMPLES / "dxdispatch_models"
COMMIT = "a9614e82c9226b09826d18c5e63926a774ca5ab5"
NAMES = ("convolution_2d", "convolution_3d", "cumulative_product", "element_wise_add", "element_wise_add1",
         "element_wise_clip", "element_wise_identity", "fill_value_sequence", "gemm", "gemm_graph", "join",
         "owned_tensors", "reduce", "rnn", "scalar_union_fp16", "slice", "split", "upsample_2d")
DTYPES = {"FLOAT32": np.float32, "FLOAT16": np.float16}


def text(name):
    return (FOLDER / f"{name}.json").read_text()


def initial_values(resource):
    """A resource's initial values as DxDispatch's initializers define them: a list, a constant or a sequence."""
    dtype = DTYPES[resource["initialValuesDataType"]]
    values = resource["initialValues"]
    if isinstance(values, list):
        return np.array(values, dtype)
    if "value" in values:
        return np.full(values["valueCount"], values["value"], dtype)
    # valueStart + i x valueDelta, each element computed in double and rounded once (DxDispatch's sequence).
    return np.array([values["valueStart"] + i * values["valueDelta"] for i in range(values["valueCount"])], dtype)


def inputs(name):
    model = json.loads(rapidjson_text(text(name), 64))
    return {key: initial_values(resource) for key, resource in model["resources"].items()}


def elu(x, alpha):
    x = np.asarray(x, np.float64)
    return np.where(x > 0, x, alpha * (np.exp(np.minimum(x, 0)) - 1))


def convolution(x, w):
    """Plain loops: a cross-correlation with stride 1, no padding, one channel in and out, any rank."""
    out_shape = tuple(a - b + 1 for a, b in zip(x.shape, w.shape))
    out = np.zeros(out_shape)
    for index in np.ndindex(*out_shape):
        for offset in np.ndindex(*w.shape):
            out[index] += x[tuple(i + o for i, o in zip(index, offset))] * w[offset]
    return out


def _convolution_2d(v):
    return {"result": convolution(v["image"].reshape(3, 3), v["kernel"].reshape(2, 2))}


def _convolution_3d(v):
    return {"result": convolution(v["volume"].reshape(3, 3, 3), v["kernel"].reshape(2, 2, 2))}


def _cumulative_product(v):
    running, products = 1.0, []
    for factor in v["factors"]:
        running *= float(factor)
        products.append(running)
    return {"products": products}


def _add(v):
    return {"sum": v["left"].astype(np.float64) + v["right"]}


def _add1(v):
    return {"sum": elu(v["left"].astype(np.float64) + v["right"], 0.5)}


def _clip(v):
    return {"ramp": [min(max(float(x), -2.5), 2.5) for x in v["ramp"]]}


def _identity(v):
    return {"copy": v["source"].astype(np.float64) * 2 + 10}


def _fill(v):
    # FILL_VALUE_SEQUENCE's page: element i is ValueStart + i x ValueDelta, both read as FLOAT32; rounded once.
    start, delta = float(np.float32(3.2)), float(np.float32(1.5))
    return {"sequence": [start + i * delta for i in range(5)]}


def _gemm(v):
    a, b = v["column"].reshape(3, 1), v["row"].reshape(1, 3)
    c = v["offsets"].reshape(3, 3)
    return {"product": [[a[i, 0] * b[0, j] + c[i, j] for j in range(3)] for i in range(3)]}


def _gemm_graph(v):
    a, b = v["left"].reshape(32, 32), v["weights"].reshape(32, 32)
    return {"product": [[sum(a[i, k] * b[k, j] for k in range(32)) for j in range(32)] for i in range(32)]}


def _join(v):
    return {"joined": list(v["digits"][:3]) + list(v["hundreds"][:2]) + list(v["digits"][4:9])}


def _owned(v):
    return {"sum": v["constant"].astype(np.float64) + v["varying"]}


def _reduce(v):
    m = v["matrix"].reshape(3, 3)
    return {"row_sums": [sum(float(x) for x in row) for row in m]}


def _rnn(v):
    """One step of both directions from a zero state, no bias: H = f(X W^T), batch 8, input 4, hidden 5
    (DML_RNN_OPERATOR_DESC; the recurrence multiplies the zero initial state)."""
    x, w = v["sequence"].reshape(8, 4).astype(np.float64), v["weights"].reshape(2, 5, 4).astype(np.float64)
    out = np.zeros((2, 8, 5))
    for direction, alpha in ((0, 0.5), (1, 3.5)):
        for b, h in itertools.product(range(8), range(5)):
            out[direction, b, h] = elu(sum(x[b, i] * w[direction, h, i] for i in range(4)), alpha)
    return {"last_state": out}


def _clip1(v):
    return {"clipped": np.clip(v["halves"], np.float16(2), np.float16(4))}


def _slice(v):
    grid = v["grid"].reshape(5, 5)
    return {"window": [grid[1 + i, 1 + 2 * j] for i in range(3) for j in range(2)]}


def _split(v):
    whole = v["whole"]
    return {"first": whole[0:2], "second": whole[2:4], "third": whole[4:6]}


def _upsample(v):
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear",
                            coordinate_transformation_mode="half_pixel")
    x = v["small"].reshape(1, 1, 2, 2)
    return {"large": ReferenceEvaluator(node).run(None, {"x": x, "scales": np.float32([1, 1, 2, 2])})[0]}


SPECS = {"convolution_2d": _convolution_2d, "convolution_3d": _convolution_3d,
         "cumulative_product": _cumulative_product, "element_wise_add": _add, "element_wise_add1": _add1,
         "element_wise_clip": _clip, "element_wise_identity": _identity, "fill_value_sequence": _fill,
         "gemm": _gemm, "gemm_graph": _gemm_graph, "join": _join, "owned_tensors": _owned, "reduce": _reduce,
         "rnn": _rnn, "scalar_union_fp16": _clip1, "slice": _slice, "split": _split, "upsample_2d": _upsample}
# Outputs computed with exp (ELU): DirectML's exp is within a few ULPs (onnx_twins.EXPONENTIAL); the rest exact.
RELATIVE = {"element_wise_add1": 1e-6, "rnn": 1e-6}


def expected(name):
    """The resources the model's dispatch writes, by name, as flat arrays of their initialValuesDataType."""
    v = inputs(name)
    return {key: np.asarray(value, np.float64).reshape(-1).astype(v[key].dtype)
            for key, value in SPECS[name](v).items()}


def largest_difference(got, want):
    """The largest |got - want| over the elements, and how many elements there are."""
    diff = np.abs(np.asarray(got, np.float64) - np.asarray(want, np.float64))
    return float(diff.max()) if diff.size else 0.0, math.prod(np.shape(got))
