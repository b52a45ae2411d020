"""The schema's DML_OPERATOR_TYPE values on DirectML itself (ops/schema, docs/schema.md).

Each probe is an operator outside the registry whose desc holds tensors (and, for two, FLOAT attributes), packed from
its schema alone. With the schema's value DirectML computes that operator (the expected values are numpy's); with a
neighbouring value whose desc has the same field types, DirectML computes something else or refuses. The probes
reach into the blocks of values of eight of the feature levels this DirectML (1.13, feature level 6_2) has, from 1_0
to 6_2 (4_0, 4_1 and 6_1 added only operators with attributes or many tensors; the registered operators' own values
are run by the other DirectML tests).
"""

import math

import numpy as np
import pytest

from ops import schema
from ops.runtime import directml as dml
from ops.runtime.directml_check import packed_desc

pytestmark = pytest.mark.directml

X = np.array([-2.5, -0.75, -0.25, 0.3, 0.9, 2.2], np.float32)
A = np.array([-7.5, -3.0, 2.5, 5.0, 6.5, -1.25], np.float32)
B = np.array([2.0, -2.5, 4.0, -1.5, 2.5, 0.5], np.float32)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# name: (inputs, FLOAT attributes by field name, what the operator computes, output type)
PROBES = {
    "ELEMENT_WISE_ABS": ([X], {}, np.abs, np.float32),
    "ACTIVATION_SIGMOID": ([X], {}, sigmoid, np.float32),
    "ACTIVATION_TANH": ([X], {}, np.tanh, np.float32),
    "ELEMENT_WISE_MEAN": ([A, B], {}, lambda a, b: (a + b) / 2, np.float32),
    "ELEMENT_WISE_SIGN": ([X], {}, np.sign, np.float32),
    "ELEMENT_WISE_COSH": ([X], {}, np.cosh, np.float32),
    "ELEMENT_WISE_MODULUS_FLOOR": ([A, B], {}, np.mod, np.float32),
    "ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL": ([A, B], {}, lambda a, b: (a <= b).astype(np.uint8), np.uint8),
    "ELEMENT_WISE_ATAN_YX": ([A, B], {}, np.arctan2, np.float32),
    "ELEMENT_WISE_DIFFERENCE_SQUARE": ([A, B], {}, lambda a, b: (a - b) ** 2, np.float32),
    "ELEMENT_WISE_NEGATE": ([X], {}, np.negative, np.float32),
    "ACTIVATION_GELU": ([X], {}, np.vectorize(lambda x: 0.5 * x * (1 + math.erf(x / math.sqrt(2)))), np.float32),
    "ACTIVATION_SWISH": ([X], {"SigmoidInputScale": 1.0}, lambda x: x * sigmoid(x), np.float32),
    "ACTIVATION_HARD_SWISH": ([X], {"Alpha": 1 / 6, "Beta": 0.5}, lambda x: x * np.clip(x / 6 + 0.5, 0, 1),
                              np.float32),
}


def run(code, operator, inputs, floats, output_type, level):
    """DirectML's output for `operator`'s desc sent with DML_OPERATOR_TYPE `code` (the desc packed from `operator`'s
    schema: each input tensor field the next input, the output field the output, ScaleBias left out, FLOAT fields
    from `floats`), or None if it refused."""
    tensors = iter(packed_desc(x.shape, x.dtype) for x in inputs)
    fields = {f.name: next(tensors) for f in operator.inputs}
    fields.update({f.name: packed_desc(inputs[0].shape, output_type) for f in operator.outputs}, **floats)
    packed = dml.pack(dml.OperatorDesc(operator.name, fields))
    request = dml._wire_request("run", packed, level)
    request["desc"]["type"] = code
    buffers = [x.tobytes() for x in inputs] + [bytes(t.TotalTensorSizeInBytes) for t in packed.outputs]
    answer, outputs = dml._worker().call(request, buffers, dml.RUN_SECONDS)
    if answer["hr"]:
        return None
    return np.frombuffer(outputs[0], output_type, inputs[0].size)


def same_field_types(a, b):
    return [(f.kind, f.type) for f in a.fields] == [(f.kind, f.type) for f in b.fields]


def same_layout_neighbours(operator):
    codes = {s.code: s for s in schema.SCHEMAS.values()}
    return [codes[c] for c in (operator.code - 1, operator.code + 1) if c in codes and
            same_field_types(codes[c], operator)]


def test_the_probes_span_the_levels_and_most_have_a_neighbour_of_their_layout():
    levels = {schema.SCHEMAS[name].level for name in PROBES}
    assert levels == {"1_0", "2_0", "2_1", "3_0", "3_1", "5_0", "5_1", "6_2"}
    for name in PROBES:
        assert all(f.type in ("TENSOR_DESC", "SCALE_BIAS", "FLOAT") for f in schema.SCHEMAS[name].fields), name
    assert sum(bool(same_layout_neighbours(schema.SCHEMAS[name])) for name in PROBES) == 10


@pytest.mark.parametrize("name", PROBES)
def test_the_schema_s_value_runs_the_operator_and_a_neighbour_s_does_not(directml, name):
    operator = schema.schema(name)
    inputs, floats, computes, output_type = PROBES[name]
    expected = computes(*inputs).astype(output_type)
    got = run(operator.code, operator, inputs, floats, output_type, directml.max_feature_level)
    assert got is not None, f"DirectML refused {name} as DML_OPERATOR_TYPE {operator.code}"
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5, err_msg=name)
    for neighbour in same_layout_neighbours(operator):
        other = run(neighbour.code, operator, inputs, floats, output_type, directml.max_feature_level)
        assert other is None or not np.allclose(other, expected, rtol=1e-4, atol=1e-5), \
            f"{neighbour.name} ({neighbour.code}) computed what {name} does"
