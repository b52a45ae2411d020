"""The gather and scatter family: every worked example of the API pages, the core against plain-loop specs of what
DirectML does (hypothesis, indices in and past their axes, negative, 64-bit), onnx.reference on the ONNX twins, the
provenance the pages draw, every rule with its field, the support tables and the work budget."""

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from onnx import helper
from onnx.reference import ReferenceEvaluator

import ops
from ops.operators.gather_scatter import OPERATORS, core
from ops.operators.gather_scatter.examples import EXAMPLES
from ops.runtime.onnxruntime_check import IR_VERSION, OPSET
from support.arithmetic import evaluate
from support.gather_calls import INDEX_DTYPES, random_bytes, random_call
from support.observed import GATHER_SCATTER
from support.paths import ROOT
from support.specs import (
    gather_elements_spec,
    gather_nd_spec,
    gather_spec,
    one_hot_spec,
    scatter_elements_spec,
    scatter_nd_spec,
)

FAMILY = [op.name for op in OPERATORS]


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---------------------------------------------------------------- the API pages' worked examples


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_worked_example_of_the_pages_comes_out_exactly(example):
    [out] = ops.run(example.op, example.arrays, **example.attributes)
    assert same_bits(out, example.output.array)


def test_the_examples_cover_every_operator_and_say_where_the_pages_err():
    assert {e.op for e in EXAMPLES} == set(FAMILY)
    assert len(EXAMPLES) == 17 and len({e.key for e in EXAMPLES}) == 17
    corrected = {e.key for e in EXAMPLES if e.correction}
    assert corrected == {"gather-3", "gather-4", "gather-5", "gather-elements-1", "scatter-2", "scatter-nd-1"}


def test_gather_example_3_as_printed_gives_row_0_alone():
    example = next(e for e in EXAMPLES if e.key == "gather-3")
    [out] = ops.run("GATHER", example.arrays, axis=1, index_dimensions=2)
    assert out.shape == (1, 2) and out.tolist() == [[2, 1]]


# ---------------------------------------------------------------- the core against plain loops


@st.composite
def calls(draw, name):
    """(inputs, attrs) of a valid call of `name` (support.gather_calls): any data and index type, 1 to 4
    dimensions, indices that reach past their axes."""
    return random_call(name, np.random.default_rng(draw(st.integers(0, 2**32 - 1))))


SPECS = {
    "GATHER": lambda x, i, axis, index_dimensions: gather_spec(x, i, axis, index_dimensions),
    "GATHER_ELEMENTS": gather_elements_spec,
    "GATHER_ND": gather_nd_spec,
    "GATHER_ND1": gather_nd_spec,
    "SCATTER": scatter_elements_spec,
    "SCATTER_ND": scatter_nd_spec,
    "ONE_HOT": one_hot_spec,
}


@pytest.mark.parametrize("name", FAMILY)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_core_is_the_plain_loop_spec_of_what_directml_does(name, data):
    inputs, attrs = data.draw(calls(name))
    [out] = ops.run(name, inputs, **attrs)
    assert same_bits(out, SPECS[name](*inputs, **attrs))


@pytest.mark.parametrize("dtype", INDEX_DTYPES, ids=str)
def test_indices_are_read_as_directml_reads_them(dtype):
    """Observed on DirectML 1.13 (docs/directml.md): the low 32 bits, the axis size added when the type's top bit is
    set (UINT64's too), the sum modulo 2^32; the pages' own negative indices count from the end."""
    size = 5
    values = {"int32": [-1, -5, -6, 4, 5, 2**31 - 1], "uint32": [4, 5, 2**32 - 1, 2**31],
              "int64": [-1, -5, 2**32, 2**32 + 1, -2**32 - 3, 2**62 + 2],
              "uint64": [2**32 + 1, 2**64 - 5, 2**63 + 2, 3]}
    expected = {"int32": [4, 0, 2**32 - 1, 4, 5, 2**31 - 1], "uint32": [4, 5, 2**32 - 1, 2**31],
                "int64": [4, 0, 0, 1, 2, 2], "uint64": [1, 0, 7, 3]}
    got = core.wrapped(np.array(values[dtype.name], dtype), size)
    assert got.tolist() == expected[dtype.name]


def test_a_gather_past_the_axis_reads_on_then_the_buffer_s_last_element():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    [out] = ops.run("GATHER", [x, np.array([[7, 1, 4]], np.uint32)], axis=1, index_dimensions=1)
    assert out.tolist() == [[7, 1, 4], [11, 5, 8], [11, 9, 11]]  # row 0 reads into row 1, row 2 stops at the end
    small = np.array([1, 2, 3], np.uint8)  # a 3-byte tensor in a 4-byte buffer: index 3 and on read the padding
    [out] = ops.run("GATHER", [small, np.array([5, 3, 2], np.uint32)], axis=0, index_dimensions=1)
    assert out.tolist() == [0, 0, 3]


def test_a_scatter_past_the_buffer_is_dropped_and_the_last_collision_stays():
    x = np.arange(6, dtype=np.float32) + 100
    [out] = ops.run("SCATTER", [x, np.array([9, 0, 0], np.uint32), np.array([1, 2, 3], np.float32)], axis=0)
    assert out.tolist() == [3, 101, 102, 103, 104, 105]


def test_one_hot_s_uint64_indices_are_compared_whole():
    values = np.array([0, 1], np.float32)
    wide = np.array([[2**32], [2**64 - 1], [3]], np.uint64)
    signed = np.array([[2**32], [-1], [3]], np.int64)
    [whole] = ops.run("ONE_HOT", [wide, values], axis=1, depth=4)
    [low] = ops.run("ONE_HOT", [signed, values], axis=1, depth=4)
    assert whole.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    assert low.tolist() == [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1]]


def test_gather_cuts_the_leading_dimensions_and_reads_them_at_zero():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[[0, 1, 2, 2, 1], [2, 2, 0, 0, 1]]], np.uint32)
    [out] = ops.run("GATHER", [x, idx], axis=1, index_dimensions=2)
    assert out.shape == (2, 5, 4)  # InputTensor's 2 before Axis is cut off: DirectML reads batch 0 only
    assert same_bits(out, np.take(x[0], idx[0], axis=0))


# ---------------------------------------------------------------- the ONNX twins on onnx.reference


def _executed(snippet, bound):
    namespace = dict(bound)
    exec(compile(snippet.code, f"<{snippet.framework} snippet>", "exec"), namespace)
    return np.asarray(namespace[snippet.result])


def _reference(name, inputs, attrs):
    spec = ops.OPERATORS[name]
    data = inputs[spec.input_labels(len(inputs)).index(spec.data_label(len(inputs)))]
    nodes, initializers = spec.onnx_graph(spec.canonical_attrs(attrs), [a.shape for a in inputs], data.dtype)
    values = [helper.make_tensor_value_info(f"x{i}", helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
              for i, a in enumerate(inputs)]
    graph = helper.make_graph(nodes, name, values,
                              [helper.make_tensor_value_info("y0", helper.np_dtype_to_tensor_dtype(data.dtype), None)],
                              initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)
    return ReferenceEvaluator(model).run(None, {f"x{i}": a for i, a in enumerate(inputs)})[0]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_the_onnx_twin_gives_every_example_on_onnx_reference(example):
    out = _reference(example.op, example.arrays, example.attributes)
    assert same_bits(np.asarray(out).reshape(example.output.sizes).astype(example.output.array.dtype),
                     example.output.array)


def in_range(name, inputs, attrs):
    """The call's inputs with every index inside its axis (ONNX's domain), every other one of a signed type counted
    from the end, and OneHot's values 0 and 1 (onnx.reference computes off + hit * (on - off)); None where ONNX's
    operator means something else (GatherND's batches must agree, colliding updates have no order)."""
    position = 0 if name == "ONE_HOT" else 1
    x, idx = inputs[0], inputs[position]
    if name in ("GATHER_ND", "GATHER_ND1", "SCATTER_ND"):
        m, q, b = attrs["input_dimensions"], attrs["indices_dimensions"], attrs.get("batch_dimensions", 0)
        meaningful = x.shape[x.ndim - m:]
        if meaningful[:b] != idx.shape[idx.ndim - q:][:b]:
            return None
        bounds = np.array(meaningful[b:b + idx.shape[-1]])
    else:
        bounds = attrs["depth"] if name == "ONE_HOT" else x.shape[attrs["axis"]]
    number = np.arange(idx.size).reshape(idx.shape)
    chosen = (number * 7 + 3) % bounds
    if idx.dtype.kind == "i":
        chosen = chosen - np.where(number % 2 == 1, bounds, 0)
    inputs = list(inputs)
    inputs[position] = chosen.astype(idx.dtype)
    if name == "ONE_HOT":
        inputs[1] = np.arange(inputs[1].size).astype(inputs[1].dtype)
    if name in ("SCATTER", "SCATTER_ND"):
        plan = (core.elements_plan(x.shape, inputs[1], attrs["axis"]) if name == "SCATTER" else
                core.nd_plan(x.shape, inputs[1], attrs["input_dimensions"], attrs["indices_dimensions"]))
        addresses = plan.addresses(np.arange(plan.count, dtype=np.uint64))
        if len(np.unique(addresses)) < addresses.size:
            return None
    return inputs


@pytest.mark.parametrize("name", FAMILY)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_onnx_twin_and_the_numpy_snippet_are_the_core_where_indices_are_in_range(name, data):
    inputs, attrs = data.draw(calls(name))
    inputs = in_range(name, inputs, attrs)
    assume(inputs is not None)
    [out] = ops.run(name, inputs, **attrs)
    assert same_bits(np.asarray(_reference(name, inputs, attrs)).reshape(out.shape), out)
    spec = ops.OPERATORS[name]
    [snippet] = [s for s in ops.framework_snippets(name, [a.shape for a in inputs], spec.data_type_of(inputs),
                                                   **spec.attrs_with_input_types(inputs, attrs))
                 if s.framework == "numpy"]
    assert same_bits(_executed(snippet, dict(zip(snippet.inputs, inputs))).reshape(out.shape), out)


# ---------------------------------------------------------------- provenance: what the pages draw


def _buffer(array):
    flat = array.ravel()
    count = core.buffer_elements(flat.size, flat.itemsize)
    return np.concatenate([flat, np.zeros(count - flat.size, flat.dtype)])


@pytest.mark.parametrize("name", FAMILY)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_provenance_reads_back_the_output(name, data):
    inputs, attrs = data.draw(calls(name))
    [out] = ops.run(name, inputs, **attrs)
    found = ops.OPERATORS[name].provenance(inputs, **attrs)
    assert found.which.shape == found.flat.shape == found.chooser.shape == out.shape
    sources = {which: _buffer(array) for which, array in enumerate(inputs)}
    rebuilt = np.empty(out.size, out.dtype)
    for which, buffer in sources.items():
        taken = found.which.ravel() == which
        rebuilt[taken] = buffer[found.flat.ravel()[taken]]
    assert same_bits(rebuilt.reshape(out.shape), out)
    chosen = found.chooser.ravel()
    index_count = inputs[0 if name == "ONE_HOT" else 1].size
    assert ((chosen >= 0) & (chosen < index_count) | ((chosen == -1) & (found.which.ravel() == 0))).all()
    if found.landing is not None:
        assert found.hits.sum() == ((found.landing >= 0) & (found.landing < out.size)).sum()
        # every update either won its element, lost it to a later one, landed in the padding or was dropped
        won = np.zeros(found.landing.size, bool)
        won[found.flat.ravel()[found.which.ravel() == 2]] = True
        inside = (found.landing >= 0) & (found.landing < out.size)
        assert (won.reshape(found.landing.shape) == (inside & ~found.overwritten)).all()


def test_provenance_names_the_index_that_chose_each_element():
    example = next(e for e in EXAMPLES if e.key == "gather-2")
    found = ops.OPERATORS["GATHER"].provenance(example.arrays, **example.attributes)
    assert found.chooser.tolist() == [[0, 0], [1, 1], [2, 2], [3, 3]]  # rows 0, 1, 1, 2 of the input
    assert found.flat.tolist() == [[0, 1], [2, 3], [2, 3], [4, 5]]
    example = next(e for e in EXAMPLES if e.key == "gather-nd1-2")
    found = ops.OPERATORS["GATHER_ND1"].provenance(example.arrays, **example.attributes)
    assert found.chooser.ravel().tolist() == [0, 2, 4, 6, 8, 10]  # each tuple's first coordinate


def test_provenance_shows_the_collision_of_the_page_s_scatter():
    example = next(e for e in EXAMPLES if e.key == "scatter-1")  # indices [3, 1, 3, 0]: updates 0 and 2 meet
    found = ops.OPERATORS["SCATTER"].provenance(example.arrays, **example.attributes)
    assert found.hits.tolist() == [1, 1, 0, 2, 0]
    assert found.landing.tolist() == [3, 1, 3, 0] and found.overwritten.tolist() == [True, False, False, False]
    assert found.which.tolist() == [2, 2, 0, 2, 0] and found.flat.tolist() == [3, 1, 2, 2, 4]
    assert found.chooser.tolist() == [3, 1, -1, 2, -1]


def test_provenance_of_updates_in_the_padding_or_past_the_buffer():
    x = np.array([1, 2, 3], np.uint8)  # a 4-byte buffer: element 3 is padding, 4 and on are past it
    found = ops.OPERATORS["SCATTER"].provenance([x, np.array([3, 5, 0], np.uint32), x], axis=0)
    assert found.landing.tolist() == [3, -1, 0] and found.overwritten.tolist() == [False, False, False]
    assert found.hits.tolist() == [1, 0, 0]
    found = ops.OPERATORS["GATHER"].provenance([x, np.array([3, 9], np.uint32)], axis=0, index_dimensions=1)
    assert found.flat.tolist() == [3, 3]  # the padding, read by both


def test_one_hot_provenance_is_off_and_on_by_sequence():
    example = next(e for e in EXAMPLES if e.key == "one-hot-4")  # indices -3, 100, 3 along depth 4
    found = ops.OPERATORS["ONE_HOT"].provenance(example.arrays, **example.attributes)
    assert (found.which == 1).all()
    assert found.flat.reshape(3, 4).tolist() == [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    assert found.chooser.reshape(3, 4).tolist() == [[0] * 4, [1] * 4, [2] * 4]


def test_the_index_map_asks_for_the_indices():
    with pytest.raises(ops.DescriptorError, match="depends on IndicesTensor's values"):
        ops.OPERATORS["GATHER"].index_map([(3,), (2,)], axis=0, index_dimensions=1)


# ---------------------------------------------------------------- every rule names its field


X = np.zeros((3, 4), np.float32)
I32 = np.int32
RULES = [
    ("GATHER", [X, np.zeros((1, 2), np.float32)], {"axis": 0, "index_dimensions": 1},
     "IndicesTensor DataType FLOAT32: GATHER takes INT64, INT32, UINT64, UINT32"),
    ("GATHER", [X, np.zeros((2,), I32)], {"axis": 0, "index_dimensions": 1},
     r"IndicesTensor.DimensionCount 1: must equal InputTensor.DimensionCount 2"),
    ("GATHER", [X, np.zeros((1, 2), I32)], {"axis": 2, "index_dimensions": 1}, r"Axis 2: must be in \[0, 1\]"),
    ("GATHER", [X, np.zeros((1, 2), I32)], {"axis": 0, "index_dimensions": 2},
     r"IndexDimensions 2: must be at most Axis \+ 1 = 1; DirectML 1.13 aborts its process"),
    ("GATHER", [X, np.zeros((2, 2), I32)], {"axis": 1, "index_dimensions": 1},
     r"IndicesTensor.Sizes \[2, 2\]: the first DimensionCount - IndexDimensions = 1 must be 1"),
    ("GATHER", [X, np.zeros((1, 2), I32)], {"axis": -1, "index_dimensions": 1}, "Axis -1: must be a non-negative"),
    ("GATHER_ELEMENTS", [X, np.zeros((2, 2), I32)], {"axis": 0},
     r"IndicesTensor.Sizes\[1\] = 2: must equal InputTensor.Sizes\[1\] = 4 \(only Axis 0 may differ\)"),
    ("SCATTER", [X, np.zeros((4, 4), I32), np.zeros((4, 4), np.float32)], {"axis": 0},
     r"IndicesTensor.Sizes\[0\] = 4: must be at most InputTensor.Sizes\[0\] = 3"),
    ("SCATTER", [X, np.zeros((3, 4), I32), np.zeros((3, 3), np.float32)], {"axis": 0},
     r"UpdatesTensor.Sizes \[3, 3\]: must be \[3, 4\] \(IndicesTensor.Sizes\)"),
    ("SCATTER", [X, np.zeros((3, 4), I32), np.zeros((3, 4), np.float16)], {"axis": 0},
     "UpdatesTensor DataType float16: must equal InputTensor DataType float32"),
    ("GATHER_ND", [X, np.zeros((2, 3), I32)], {"input_dimensions": 2, "indices_dimensions": 2},
     r"IndicesTensor.Sizes\[1\] = 3 coordinates per index: at most InputDimensionCount - BatchDimensionCount = 2"),
    ("GATHER_ND", [X, np.zeros((2, 1), I32)], {"input_dimensions": 3, "indices_dimensions": 2},
     r"InputDimensionCount 3: must be in \[1, 2\]"),
    ("GATHER_ND", [X, np.zeros((2, 1), I32)], {"input_dimensions": 1, "indices_dimensions": 2},
     r"InputTensor.Sizes \[3, 4\]: the first DimensionCount - InputDimensionCount = 1 must be 1"),
    ("GATHER_ND1", [X, np.zeros((3, 1), I32)], {"input_dimensions": 2, "indices_dimensions": 2,
                                                 "batch_dimensions": 2}, "BatchDimensionCount 2: must be below"),
    ("GATHER_ND", [np.zeros((2, 3, 4), np.float32), np.zeros((2, 5, 1), I32)],
     {"input_dimensions": 3, "indices_dimensions": 3}, "OutputTensor needs 4 dimensions"),
    ("SCATTER_ND", [X, np.zeros((2, 1), I32), np.zeros((2, 3), np.float32)],
     {"input_dimensions": 2, "indices_dimensions": 2}, r"UpdatesTensor.Sizes \[2, 3\]: must be \[2, 4\]"),
    ("ONE_HOT", [np.zeros((3, 2), I32), np.zeros((2,), np.float32)], {"axis": 1, "depth": 4},
     r"IndicesTensor.Sizes\[1\] = 2: must be 1"),
    ("ONE_HOT", [np.zeros((3, 1), I32), np.zeros((1,), np.float32)], {"axis": 1, "depth": 4},
     r"ValuesTensor.Sizes \[1\]: must hold at least 2 elements"),
    ("ONE_HOT", [np.zeros((3, 1), I32), np.zeros((2,), np.float32)], {"axis": 1, "depth": 0},
     "depth 0: OutputTensor.Sizes\\[Axis\\] must be a positive integer"),
    ("ONE_HOT", [np.zeros((3, 1), I32), np.zeros((2,), np.float32)], {"axis": 1, "depth": 2**40},
     "OutputTensor Sizes .*exceed the cap"),
    ("ONE_HOT", [np.zeros((3, 1), I32), np.zeros((2,), np.float32)], {"axis": 1}, "depth: required by ONE_HOT"),
]


@pytest.mark.parametrize("name, inputs, attrs, message", RULES, ids=[f"{r[0]}-{i}" for i, r in enumerate(RULES)])
def test_every_refusal_names_the_field_and_the_rule(name, inputs, attrs, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.run(name, inputs, **attrs)


def test_an_absurd_depth_is_refused_before_any_work():
    with ops.element_cap_set_to(1000):
        with pytest.raises(ops.DescriptorError, match="exceed the cap of 1,000"):
            ops.Call.of("ONE_HOT", [(10, 1), (2,)], "FLOAT32", axis=1, depth=101)
        with pytest.raises(ops.DescriptorError, match="IndicesTensor Sizes .*exceed the cap"):
            ops.run("GATHER", [np.zeros(4, np.float32), np.zeros(1001, np.uint32)], axis=0, index_dimensions=1)


def test_scatter_elements_is_scatter():
    assert ops.operator("DML_OPERATOR_SCATTER_ELEMENTS") is ops.operator("SCATTER") is ops.OPERATORS["SCATTER"]


# ---------------------------------------------------------------- descriptors: validation and support tables


def tensor(data_type, sizes):
    return {"DataType": data_type, "Sizes": list(sizes)}


def gather_desc(data_type="FLOAT32", index_type="UINT32", dims=4, axis=None, k=1, output=None):
    sizes = [2] * dims
    indices = [1] * (dims - 1) + [3]
    axis = dims - 1 if axis is None else axis
    out = output or sizes[:axis] + [3] + sizes[axis + 1:]
    return {"type": "DML_OPERATOR_GATHER", "desc": {
        "InputTensor": tensor(data_type, sizes), "IndicesTensor": tensor(index_type, indices),
        "OutputTensor": tensor(data_type, out), "Axis": axis, "IndexDimensions": k}}


def test_a_page_example_as_a_descriptor_is_valid_from_its_level():
    assert ops.validate(gather_desc(), "1_0") == []
    assert ops.validate(gather_desc("INT8"), "2_1") == []
    assert any("DataType INT8 is not supported" in p and "it needs feature level 2_1" in p
               for p in ops.validate(gather_desc("INT8"), "2_0"))


@pytest.mark.parametrize("index_type, level, says", [
    ("INT64", "2_1", "IndicesTensor.DataType: DataType INT64 is not supported by DML_OPERATOR_GATHER at feature level "
                     "2_1 (supported for IndicesTensor: UINT32); it needs feature level 3_0"),
    ("INT32", "3_0", None),
    ("UINT64", "3_0", None),
    ("FLOAT32", "6_4", "supported for IndicesTensor: INT64, INT32, UINT64, UINT32); no feature level supports it"),
])
def test_the_indices_have_types_of_their_own_by_level(index_type, level, says):
    problems = ops.validate(gather_desc(index_type=index_type), level)
    assert problems == [] if says is None else any(says in p for p in problems), problems


def test_data_types_follow_the_data_s_rows_and_the_indices_never_need_to_match_them():
    assert ops.validate(gather_desc("INT64", "INT32", dims=2), "4_1") == []
    assert any("it needs feature level 4_1" in p for p in ops.validate(gather_desc("INT64", "INT32", dims=2), "3_0"))
    assert any("DataType FLOAT16: must equal InputTensor.DataType FLOAT32" in p
               for p in ops.validate({**gather_desc(), "desc": {**gather_desc()["desc"],
                                                               "OutputTensor": tensor("FLOAT16", [2, 2, 2, 3])}},
                                     "6_4"))


@pytest.mark.parametrize("change, path, words", [
    ({"Axis": 4}, "desc.Axis", "Axis 4: must be in [0, 3]"),
    ({"IndexDimensions": 5}, "desc.IndexDimensions", "must be at most Axis + 1 = 4"),
    ({"OutputTensor": tensor("FLOAT32", [2, 2, 2, 4])}, "desc.OutputTensor.Sizes",
     "OutputTensor.Sizes [2, 2, 2, 4]: must be [2, 2, 2, 3]"),
    ({"IndicesTensor": tensor("UINT32", [2, 1, 1, 3])}, "desc.IndicesTensor.Sizes", "the first"),
])
def test_each_gather_rule_reports_its_path(change, path, words):
    dispatchable = gather_desc()
    dispatchable["desc"].update(change)
    problems = ops.validate_problems(dispatchable, "6_4")
    assert any(p.path == path and words in p.message for p in problems), problems


def test_one_hot_takes_its_depth_from_the_output_and_values_of_any_dimension_count():
    desc = {"IndicesTensor": tensor("INT32", [3, 1]), "ValuesTensor": tensor("FLOAT32", [2]),
            "OutputTensor": tensor("FLOAT32", [3, 5]), "Axis": 1}
    assert ops.validate({"type": "DML_OPERATOR_ONE_HOT", "desc": desc}, "6_4") == []
    parsed = ops.descriptors.validate.normalized_dispatchable({"type": "DML_OPERATOR_ONE_HOT", "desc": desc})
    call = ops.OPERATORS["ONE_HOT"].call_of(parsed)
    assert call.attributes == {"axis": 1, "depth": 5, "indices_type": "INT32"}
    assert call.input_types == ("INT32", "FLOAT32") and call.output_types == ("FLOAT32",)


def test_a_call_s_dispatchable_carries_the_indices_own_type():
    call = ops.Call.of("GATHER", [(3, 4), (1, 2)], "FLOAT16", axis=1, index_dimensions=1, indices_type="INT64")
    spec = call.operator
    desc = spec.dispatchable(call.input_sizes, call.data_type, call.attributes, call.output_sizes)["desc"]
    assert desc["IndicesTensor"]["DataType"] == "INT64" and desc["OutputTensor"]["DataType"] == "FLOAT16"
    assert ops.validate({"type": "DML_OPERATOR_GATHER", "desc": desc}, "3_0") == []


@pytest.mark.parametrize("name", FAMILY)
def test_every_operator_s_support_table_starts_where_the_schema_says_and_grows(name):
    spec = ops.OPERATORS[name]
    assert spec.support[0].level == ops.schema.schema(name).level
    for previous, row in zip(spec.support, spec.support[1:]):
        assert set(previous.types) <= set(row.types)
        assert set(previous.types_for("IndicesTensor")) <= set(row.types_for("IndicesTensor"))
    assert spec.support[-1].level == "4_1" and set(spec.support[-1].types) == set(ops.DML_TYPES)
    assert spec.supported_types_of("IndicesTensor") == ("INT64", "INT32", "UINT64", "UINT32")


# ---------------------------------------------------------------- on ONNX Runtime, every example in every type

# ONNX Runtime 1.32's CPU OneHot writes float, int64 and strings with int64 depths; its float16 kernel quiets
# signalling NaNs. Every other operator of the family has a kernel copying any type's bits.
ONE_HOT_ON_ONNX_RUNTIME = {"FLOAT32", "INT64"}


def _with_random_data(example, data_type):
    dtype = ops.numpy_dtype(data_type)
    rng = np.random.default_rng(len(example.key) * 31 + len(data_type))
    indices = 0 if example.op == "ONE_HOT" else 1
    return [a if i == indices else random_bytes(rng, a.shape, dtype) for i, a in enumerate(example.arrays)]


@pytest.mark.parametrize("data_type", ops.DML_TYPES)
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_onnx_runtime_gives_every_example_in_every_type_byte_for_byte(example, data_type):
    pytest.importorskip("onnxruntime")
    report = ops.cross_check(example.op, _with_random_data(example, data_type), runtime="onnxruntime",
                             **example.attributes)
    if example.op == "ONE_HOT" and data_type not in ONE_HOT_ON_ONNX_RUNTIME:
        assert not report.available and "no bit-exact way to run" in report.note
        return
    assert report.available and report.matches, report.note


@pytest.mark.parametrize("name, what, inputs, attrs, observed", GATHER_SCATTER, ids=[r[1] for r in GATHER_SCATTER])
def test_the_core_writes_what_directml_was_observed_to_write(name, what, inputs, attrs, observed):
    arrays = [np.array(values, dtype).reshape(sizes) for dtype, sizes, values in inputs]
    [out] = ops.run(name, arrays, **attrs)
    assert out.ravel().tolist() == observed


# ---------------------------------------------------------------- teaching: formulas and the quiz


def _call_of(name, inputs, attrs):
    spec = ops.OPERATORS[name]
    return ops.Call.of(name, [a.shape for a in inputs], spec.data_type_of(inputs),
                       **spec.attrs_with_input_types(inputs, attrs))


def _indices(name, inputs):
    return inputs[0 if name == "ONE_HOT" else 1]


@pytest.mark.parametrize("name", FAMILY)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_each_formula_s_arithmetic_leads_where_the_operator_puts_the_element(name, data):
    inputs, attrs = data.draw(calls(name))
    call, indices = _call_of(name, inputs, attrs), _indices(name, inputs)
    found = ops.OPERATORS[name].provenance(inputs, **attrs)
    cell = data.draw(st.tuples(*(st.integers(0, s - 1) for s in call.output_sizes[0])))
    formula = ops.index_formula(call, cell, side="output", indices=indices)
    for term in formula.terms:
        assert evaluate(term.substituted) == term.value, str(term)
    which, flat = int(found.which[cell]), int(found.flat[cell])
    source_sizes = inputs[which].shape
    inside = tuple(int(c) for c in np.unravel_index(flat, source_sizes)) if flat < inputs[which].size else ()
    assert formula.source == ((which, *inside) if name.startswith("SCATTER") else inside)
    assert formula.destination == cell
    if name.startswith("SCATTER"):
        update = data.draw(st.tuples(*(st.integers(0, s - 1) for s in inputs[2].shape)))
        landing = int(found.landing[update])
        lands = ops.index_formula(call, update, side="input", indices=indices)
        expected = tuple(int(c) for c in np.unravel_index(landing, call.output_sizes[0])) \
            if 0 <= landing < math.prod(call.output_sizes[0]) else ()
        assert lands.destination == expected and lands.source == update


def test_a_formula_needs_the_indices_and_a_gather_is_asked_from_its_output():
    example = next(e for e in EXAMPLES if e.key == "gather-2")
    call = _call_of("GATHER", example.arrays, example.attributes)
    with pytest.raises(ops.DescriptorError, match="depend on IndicesTensor's values"):
        ops.index_formula(call, (0, 0), side="output")
    with pytest.raises(ops.DescriptorError, match="may feed many output elements or none"):
        ops.index_formula(call, (0, 0), side="input", indices=example.arrays[1])
    lines = ops.index_formula(call, (2, 1), side="output", indices=example.arrays[1]).lines()
    assert lines[-1] == "address in InputTensor = sum of coordinate*stride, mod 2^32 = (1*2 + 1*1) % 4294967296 = 3"


def test_the_formula_of_a_negative_index_past_32_bits_shows_each_step():
    x = np.arange(5, dtype=np.float32)
    call = _call_of("GATHER", [x, np.array([-2**32 - 3], np.int64)], {"axis": 0, "index_dimensions": 1})
    lines = ops.index_formula(call, (0,), side="output", indices=np.array([-2**32 - 3], np.int64)).lines()
    assert lines[-4:] == ["i = IndicesTensor element = -4294967299",
                          "its low 32 bits = i & 0xFFFFFFFF = 18446744069414584317 & 4294967295 = 4294967293",
                          "counted from the end = (low 32 bits + 5) mod 2^32 = (4294967293 + 5) % 4294967296 = 2",
                          "address in InputTensor = sum of coordinate*stride, mod 2^32 = (2*1) % 4294967296 = 2"]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_quiz_answers_are_the_operator_s_and_reproducible(example):
    call = _call_of(example.op, example.arrays, example.attributes)
    values = tuple(tuple(int(v) for v in a.ravel()) for a in example.arrays)
    questions = ops.quiz_questions(ops.QuizSettings(call, values), seed=7)
    assert questions == ops.quiz_questions(ops.QuizSettings(call, values), seed=7)
    found = ops.OPERATORS[example.op].provenance(example.arrays, **example.attributes)
    for question in questions:
        assert len(set(question.choices)) == len(question.choices) >= 2
        if question.kind == "feeds" and example.op != "ONE_HOT":
            which, flat = int(found.which[question.cell]), int(found.flat[question.cell])
            source = tuple(int(c) for c in np.unravel_index(flat, example.arrays[which].shape))
            assert question.source == ((which, *source) if example.op.startswith("SCATTER") else source)


def test_a_quiz_without_the_indices_says_so():
    call = ops.Call.of("GATHER", [(4,), (2,)], "FLOAT32", axis=0, index_dimensions=1)
    with pytest.raises(ops.DescriptorError, match="need IndicesTensor's values"):
        ops.quiz_questions(ops.QuizSettings(call), seed=1)


# ---------------------------------------------------------------- nearest fixes


# The rules between settings (not a type, a sign or a missing setting, which no change of another setting mends).
SHAPE_RULES = [r for r in RULES if not any(word in r[3] for word in ("cap", "depth", "DataType", "non-negative"))]


@pytest.mark.parametrize("name, inputs, attrs, message", SHAPE_RULES,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(SHAPE_RULES)])
def test_every_broken_rule_offers_fixes_that_mend_it(name, inputs, attrs, message):
    from ops.operators.gather_scatter.fixes import SIZES

    spec = ops.OPERATORS[name]
    shapes = [a.shape for a in inputs]
    fixes = spec.fixes(shapes, spec.canonical_attrs({**attrs}))
    assert fixes.reason and fixes.options, message
    rule = spec.rules(spec.sizes_by_field(shapes), spec.canonical_attrs(attrs))[0][0]
    for fix in fixes.options:
        changes = fix.as_dict
        fixed_shapes = [changes.get(SIZES[label], shape) for label, shape in zip(spec.input_labels(len(shapes)),
                                                                                shapes)]
        fixed = spec.canonical_attrs({**attrs, **{k: v for k, v in changes.items() if k not in SIZES.values()}})
        still = spec.rules(spec.sizes_by_field(fixed_shapes), fixed)
        assert not still or still[0][0] != rule, (fix, still)


def test_valid_settings_need_no_fix():
    assert ops.OPERATORS["GATHER"].fixes([(3, 4), (1, 2)], {"axis": 1, "index_dimensions": 1}).reason is None


# ---------------------------------------------------------------- the layout detective names gathers


def _replayed(descriptor, x):
    """y as the descriptor's operator computes it from x and the descriptor's IndicesTensor."""
    indices = np.array(descriptor["Indices"], np.uint32).reshape(descriptor["IndicesTensor"]["Sizes"])
    sizes = descriptor.get("InputTensor", {"Sizes": x.shape})["Sizes"]
    attrs = {"axis": descriptor["Axis"]}
    if "IndexDimensions" in descriptor:
        attrs["index_dimensions"] = descriptor["IndexDimensions"]
    return ops.run(descriptor["operator"], [x.reshape(sizes), indices], **attrs)[0]


@pytest.mark.parametrize("make, first", [
    (lambda x: np.take(x, [2, 0, 0, 1], axis=1), ("GATHER", 1, [2, 0, 0, 1])),  # numpy's take: ONNX Gather
    (lambda x: np.take(x, [[3, 0], [1, 1]], axis=2), ("GATHER", 3, [3, 0, 1, 1])),  # 2-D indices: x gains a 1
    (lambda x: np.take_along_axis(x, np.array([[[1, 0, 2, 2]], [[0, 0, 1, 1]]]), axis=1),  # torch.gather
     ("GATHER_ELEMENTS", 1, [1, 0, 2, 2, 0, 0, 1, 1])),
    (lambda x: x[:, ::-1].copy(), ("GATHER", 1, [2, 1, 0])),  # a reversal is a gather too
])
def test_the_detective_names_the_gather_and_its_indices(make, first):
    x = ops.origin_coded_input((2, 3, 4))
    y = make(x)
    report = ops.identify(x, y)
    best = report.index_matches[0]
    assert (best["operator"], best["Axis"], best["Indices"]) == first
    assert best["operator"] in report.note and str(first[2])[1:-1] in report.note
    for descriptor in report.index_matches:  # each proposal reproduces y when run
        assert same_bits(_replayed(descriptor, x).reshape(y.shape), y)


def test_the_detective_proposes_no_gather_for_a_transpose_or_a_value_not_in_x():
    x = ops.origin_coded_input((2, 3, 4))
    assert ops.identify(x, x.transpose(0, 2, 1).copy()).index_matches == []
    y = np.take(x, [1, 0], axis=2)
    y[0, 0, 0] = -1
    assert ops.identify(x, y).index_matches == []


# ---------------------------------------------------------------- the same call in numpy and ONNX


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_the_numpy_and_onnx_snippets_compute_every_example(example):
    spec = ops.OPERATORS[example.op]
    arrays = example.arrays
    snippets = ops.framework_snippets(example.op, [a.shape for a in arrays], spec.data_type_of(arrays),
                                      **spec.attrs_with_input_types(arrays, example.attributes))
    bound = dict(zip(snippets[0].inputs, arrays))
    by_framework = {s.framework: s for s in snippets}
    assert by_framework["einops"].code is None and "no gather or scatter" in by_framework["einops"].note
    assert by_framework["pytorch"].order and by_framework["tensorflow"].order  # each convention stated
    for snippet in snippets:  # PyTorch and TensorFlow are not installed here: their code is compiled, not run
        if snippet.code and snippet.language == "python":
            compile(snippet.code, f"<{snippet.framework} snippet>", "exec")
    for framework in ("numpy", "onnx"):
        assert same_bits(_executed(by_framework[framework], bound).reshape(example.output.sizes),
                         example.output.array), framework


# ---------------------------------------------------------------- DxDispatch models


def test_the_example_models_run_as_their_pages_say():
    """examples/gather.json is GATHER's Example 2; examples/scatter.json SCATTER's Example 1 with its collision, the
    colliding index written as -2 (INT32, counted from the end: 3)."""
    assert ops.run_model((ROOT / "examples" / "gather.json").read_text())["output"].tolist() == [1, 2, 3, 4, 3, 4, 5,
                                                                                                    6]
    assert ops.run_model((ROOT / "examples" / "scatter.json").read_text())["output"].tolist() == [8, 6, 2, 7, 4]


def test_a_model_file_names_scatter_as_dxdispatch_reads_it():
    model = json.loads((ROOT / "examples" / "scatter.json").read_text())
    model["dispatchables"]["scatter"]["type"] = "DML_OPERATOR_SCATTER_ELEMENTS"  # DirectML.h's alias
    with pytest.raises(ops.DescriptorError, match="DxDispatch reads this operator only as DML_OPERATOR_SCATTER"):
        ops.run_model(model)
    assert ops.validate(model["dispatchables"]["scatter"], "6_4") == []  # the Python API takes either name
