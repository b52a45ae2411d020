"""The same operation elsewhere: every generated snippet is executed and must reproduce the core bit for bit.

numpy and einops snippets run for random shapes, both orders and every operator (hypothesis); the ONNX snippets
build a model and run it on ONNX Runtime; PyTorch and TensorFlow snippets run when those frameworks are importable
(they are not project dependencies).
"""

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.frameworks import onnx_models
from ops.frameworks import snippets as snippets_module
from ops.frameworks.snippets import FRAMEWORKS
from ops.operators.depth_space import depth_to_space, order_name, space_to_depth
from ops.operators.depth_space.frameworks import ORDER_CONVENTIONS, ORT_CPU_DEPTH_SPACE_TYPES
from ops.operators.split_join import join, split

ORDERS = ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"]
TYPES = list(ops.DML_TYPES)
BITWISE = [name for name in ops.OPERATORS if name.startswith("ELEMENT_WISE_BIT_")]


def snippet(snippets, framework):
    return next(s for s in snippets if s.framework == framework)


def run(code_snippet, **bound):
    """Execute the snippet in a fresh namespace holding only the bound inputs; return its result."""
    namespace = dict(bound)
    exec(compile(code_snippet.code, f"<{code_snippet.framework} snippet>", "exec"), namespace)
    return namespace[code_snippet.result]


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def random_bits(rng, shape, data_type):
    dtype = ops.numpy_dtype(data_type)
    return rng.integers(0, 256, int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


def core(op, inputs, **attrs):
    """The reference core's outputs for a call as the snippets take it (B broadcast to A's sizes)."""
    if op == "DEPTH_TO_SPACE1":
        return depth_to_space(inputs[0], attrs["block_size"], attrs["order"])
    if op == "SPACE_TO_DEPTH1":
        return space_to_depth(inputs[0], attrs["block_size"], attrs["order"])
    if op in BITWISE:
        attrs = {k: v for k, v in attrs.items() if k != "b_sizes"}
        a, *rest = inputs
        return ops.run(op, [a] + [np.ascontiguousarray(np.broadcast_to(b, a.shape)) for b in rest], **attrs)[0]
    if op == "SPLIT":
        return split(inputs[0], attrs["axis"], attrs["sizes"])
    return join(list(inputs), attrs["axis"])


def bindings(op, inputs):
    if op in BITWISE and len(inputs) == 2:
        return {"a": inputs[0], "b": inputs[1]}
    return {"xs": list(inputs)} if op == "JOIN" else {"x": inputs[0]}


def without_float16_nans(array):
    """The array with FLOAT16 NaNs replaced by 0: ONNX Runtime's FLOAT16 depth/space kernels change NaN bit patterns
    (measured; the ONNX snippets' notes say so). Every other bit pattern, and NaNs of the other types, must pass."""
    if array.dtype != np.float16:
        return array
    return np.where(np.isnan(array), np.float16(0), array)


def check(framework, op, inputs, data_type, input_sizes, **attrs):
    if framework == "onnx":
        inputs = [without_float16_nans(a) for a in inputs]
    snippets = ops.framework_snippets(op, input_sizes, data_type, **attrs)
    s = snippet(snippets, framework)
    result = run(s, **bindings(op, inputs))
    expected = core(op, inputs, **attrs)
    if isinstance(expected, list):
        assert len(result) == len(expected) and all(same_bits(r, e) for r, e in zip(result, expected))
    else:
        assert same_bits(result, expected), (s.code, result, expected)


# ---------------------------------------------------------------- cases


@st.composite
def depth_space_cases(draw, types=TYPES):
    op = draw(st.sampled_from(["DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"]))
    bs = draw(st.integers(1, 4))
    n, k, h, w = (draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    sizes = (n, k * bs * bs, h, w) if op == "DEPTH_TO_SPACE1" else (n, k, h * bs, w * bs)
    data_type = draw(st.sampled_from(types))
    attrs = {"block_size": bs, "order": draw(st.sampled_from(ORDERS))}
    return op, sizes, data_type, attrs, draw(st.integers(0, 2**32 - 1))


@st.composite
def split_join_cases(draw, equal=None, types=TYPES):
    op = draw(st.sampled_from(["SPLIT", "JOIN"]))
    ndim = draw(st.integers(1, 5))
    shape = [draw(st.integers(1, 3)) for _ in range(ndim)]
    axis = draw(st.integers(0, ndim - 1))
    count = draw(st.integers(1, 3))
    equal = draw(st.booleans()) if equal is None else equal
    parts = [draw(st.integers(1, 3))] * count if equal else [draw(st.integers(1, 3)) for _ in range(count)]
    shape[axis] = sum(parts)
    return op, tuple(shape), axis, parts, draw(st.sampled_from(types)), draw(st.integers(0, 2**32 - 1))


@st.composite
def bit_or_cases(draw, types=TYPES):
    ndim = draw(st.integers(1, 5))
    a = tuple(draw(st.integers(1, 3)) for _ in range(ndim))
    b = tuple(size if draw(st.booleans()) else 1 for size in a)
    return a, b, draw(st.sampled_from(types)), draw(st.integers(0, 2**32 - 1))


def depth_space_inputs(sizes, data_type, seed):
    return [random_bits(np.random.default_rng(seed), sizes, data_type)]


def split_join_inputs(op, shape, axis, parts, data_type, seed):
    whole = random_bits(np.random.default_rng(seed), shape, data_type)
    if op == "SPLIT":
        return [whole], shape, {"axis": axis, "sizes": parts}
    pieces = split(whole, axis, parts)
    return pieces, [p.shape for p in pieces], {"axis": axis}


def bit_or_inputs(a, b, data_type, seed):
    rng = np.random.default_rng(seed)
    return [random_bits(rng, a, data_type), random_bits(rng, b, data_type)]


# ---------------------------------------------------------------- numpy and einops, for random shapes


@pytest.mark.parametrize("framework", ["numpy", "einops"])
@settings(max_examples=60, deadline=None)
@given(case=depth_space_cases())
def test_depth_space_snippets_match_the_core(framework, case):
    op, sizes, data_type, attrs, seed = case
    check(framework, op, depth_space_inputs(sizes, data_type, seed), data_type, sizes, **attrs)


@pytest.mark.parametrize("framework", ["numpy", "einops"])
@settings(max_examples=60, deadline=None)
@given(case=split_join_cases())
def test_split_join_snippets_match_the_core(framework, case):
    op, shape, axis, parts, data_type, seed = case
    inputs, input_sizes, attrs = split_join_inputs(op, shape, axis, parts, data_type, seed)
    s = snippet(ops.framework_snippets(op, input_sizes, data_type, **attrs), framework)
    if framework == "einops" and len(set(parts)) > 1:
        assert s.code is None and "unequal" in s.note
        return
    check(framework, op, inputs, data_type, input_sizes, **attrs)


@settings(max_examples=80, deadline=None)
@given(case=bit_or_cases())
def test_bit_or_numpy_snippet_matches_the_core_for_every_type_and_broadcast(case):
    a, b, data_type, seed = case
    check("numpy", "ELEMENT_WISE_BIT_OR", bit_or_inputs(a, b, data_type, seed), data_type, a, b_sizes=b)


def test_seed_example_through_the_einops_pattern_of_the_issue():
    c, h, w = np.indices((8, 2, 3))
    x = (9 * c + 3 * h + w).astype(np.uint32)[None]
    s = snippet(ops.framework_snippets("DEPTH_TO_SPACE1", x.shape, "UINT32", block_size=2, order="DCR"), "einops")
    assert '"n (b1 b2 c) h w -> n c (h b1) (w b2)", b1=2, b2=2' in s.code
    assert run(s, x=x)[0, 0, 0].tolist() == [0, 18, 1, 19, 2, 20]
    s = snippet(ops.framework_snippets("DEPTH_TO_SPACE1", x.shape, "UINT32", block_size=2, order="CRD"), "einops")
    assert '"n (c b1 b2) h w -> n c (h b1) (w b2)"' in s.code
    assert run(s, x=x)[0, 0, 0].tolist() == [0, 9, 1, 10, 2, 11]


def test_einops_has_no_bitwise_or():
    s = snippet(ops.framework_snippets("bit_or", [2, 2], "UINT8"), "einops")
    assert s.code is None and "no bitwise" in s.note


# ---------------------------------------------------------------- ONNX, on ONNX Runtime


ORT_TYPES = list(ORT_CPU_DEPTH_SPACE_TYPES)


@settings(max_examples=40, deadline=None)
@given(case=depth_space_cases(types=ORT_TYPES))
def test_onnx_depth_space_snippets_run_on_onnx_runtime(case):
    pytest.importorskip("onnxruntime")
    op, sizes, data_type, attrs, seed = case
    check("onnx", op, depth_space_inputs(sizes, data_type, seed), data_type, sizes, **attrs)


@pytest.mark.parametrize("data_type", ["UINT32", "INT16", "INT64"])
def test_onnx_crd_space_to_depth_runs_for_types_without_a_space_to_depth_kernel(data_type):
    pytest.importorskip("onnxruntime")
    x = random_bits(np.random.default_rng(1), (1, 3, 4, 6), data_type)
    check("onnx", "SPACE_TO_DEPTH1", [x], data_type, x.shape, block_size=2, order="CRD")
    dcr = snippet(ops.framework_snippets("SPACE_TO_DEPTH1", x.shape, data_type, block_size=2, order="DCR"), "onnx")
    assert "no DepthToSpace/SpaceToDepth kernel for " + data_type in dcr.note


@settings(max_examples=30, deadline=None)
@given(case=split_join_cases())
def test_onnx_split_and_concat_snippets_run_on_onnx_runtime(case):
    pytest.importorskip("onnxruntime")
    op, shape, axis, parts, data_type, seed = case
    inputs, input_sizes, attrs = split_join_inputs(op, shape, axis, parts, data_type, seed)
    check("onnx", op, inputs, data_type, input_sizes, **attrs)


@settings(max_examples=30, deadline=None)
@given(case=bit_or_cases())
def test_onnx_bitwise_or_snippet_runs_for_every_type_through_bitcast(case):
    pytest.importorskip("onnxruntime")
    a, b, data_type, seed = case
    check("onnx", "ELEMENT_WISE_BIT_OR", bit_or_inputs(a, b, data_type, seed), data_type, a, b_sizes=b)


@st.composite
def bitwise_cases(draw):
    """Any operator of the family, any type it takes, B broadcast or not, a shift's amounts raw bits (most of them
    past the width, where DirectML's answer is its own)."""
    name = draw(st.sampled_from(BITWISE))
    spec = ops.OPERATORS[name]
    a, b, data_type, seed = draw(bit_or_cases(types=list(spec.supported_types)))
    settings = {"b_sizes": b} if spec.arity[0] == 2 else {}
    if spec.attributes:
        settings["output_type"] = draw(st.sampled_from(spec.output_choices))
    rng = np.random.default_rng(seed)
    inputs = [random_bits(rng, a, data_type)] + ([random_bits(rng, b, data_type)] if spec.arity[0] == 2 else [])
    return name, inputs, data_type, a, settings


@pytest.mark.parametrize("framework", ["numpy", "onnx"])
@settings(max_examples=80, deadline=None)
@given(case=bitwise_cases())
def test_bitwise_family_snippets_match_the_core(framework, case):
    pytest.importorskip("onnxruntime")
    name, inputs, data_type, sizes, settings = case
    s = snippet(ops.framework_snippets(name, sizes, data_type, **settings), framework)
    if s.code is None:
        assert (framework, name) == ("onnx", "ELEMENT_WISE_BIT_COUNT") and "no population count" in s.note
        return
    assert same_bits(run(s, **bindings(name, inputs)), core(name, inputs, **settings)), s.code


def test_shift_snippets_say_why_they_compute_the_amount():
    s = ops.framework_snippets("ELEMENT_WISE_BIT_SHIFT_LEFT", [4], "UINT8")
    assert "y = (a.astype(np.uint32) << (b & 31)).astype(np.uint8)" in snippet(s, "numpy").code
    assert "empties the element once B reaches its width" in snippet(s, "onnx").note
    assert "clamps B" in snippet(s, "tensorflow").note
    wide = ops.framework_snippets("ELEMENT_WISE_BIT_SHIFT_RIGHT", [4], "UINT64")
    assert "y = a >> np.where(s < 32, s, 32 | (s & 31))" in snippet(wide, "numpy").code


def test_onnx_float_or_of_the_seed_gives_infinity():
    pytest.importorskip("onnxruntime")
    s = snippet(ops.framework_snippets("ELEMENT_WISE_BIT_OR", [1], "FLOAT32"), "onnx")
    assert 'opsetid("", 26)' in s.code and "BitCast" in s.code
    assert run(s, a=np.float32([1.0]), b=np.float32([2.0])).tolist() == [np.inf]


# ---------------------------------------------------------------- PyTorch and TensorFlow, when importable


def _framework_cases():
    """Every operator, both orders, BlockSize 1 to 3, every type: a fixed grid."""
    rng = np.random.default_rng(11)
    cases = []
    for data_type in TYPES:
        for bs in (1, 2, 3):
            for order in ORDERS:
                x = random_bits(rng, (2, 2 * bs * bs, 2, 3), data_type)
                cases.append(("DEPTH_TO_SPACE1", [x], data_type, x.shape, {"block_size": bs, "order": order}))
                x = random_bits(rng, (1, 3, 2 * bs, 3 * bs), data_type)
                cases.append(("SPACE_TO_DEPTH1", [x], data_type, x.shape, {"block_size": bs, "order": order}))
        for name in BITWISE:
            spec = ops.OPERATORS[name]
            if data_type not in spec.supported_types:
                continue
            a, b = random_bits(rng, (2, 3, 4), data_type), random_bits(rng, (1, 3, 1), data_type)
            if spec.arity[0] == 2:
                cases.append((name, [a, b], data_type, a.shape, {"b_sizes": b.shape}))
            else:
                for output_type in getattr(spec, "output_choices", [None]):
                    cases.append((name, [a], data_type, a.shape, {"output_type": output_type} if output_type else {}))
        x = random_bits(rng, (2, 5, 3), data_type)
        cases.append(("SPLIT", [x], data_type, x.shape, {"axis": 1, "sizes": [1, 3, 1]}))
        parts = split(x, 2, [2, 1])
        cases.append(("JOIN", parts, data_type, [p.shape for p in parts], {"axis": 2}))
    return cases


FRAMEWORK_CASES = _framework_cases()
CASE_IDS = [f"{op}-{t}-{a.get('block_size', '')}{a.get('order', '')[:3]}{a.get('output_type', '')}"
            for op, _, t, _, a in FRAMEWORK_CASES]


@pytest.mark.parametrize("op, inputs, data_type, sizes, attrs", FRAMEWORK_CASES, ids=CASE_IDS)
def test_pytorch_snippets_match_the_core(op, inputs, data_type, sizes, attrs):
    pytest.importorskip("torch")
    check("pytorch", op, inputs, data_type, sizes, **attrs)


@pytest.mark.parametrize("op, inputs, data_type, sizes, attrs", FRAMEWORK_CASES, ids=CASE_IDS)
def test_tensorflow_snippets_match_the_core(op, inputs, data_type, sizes, attrs):
    pytest.importorskip("tensorflow")
    check("tensorflow", op, inputs, data_type, sizes, **attrs)


@pytest.mark.parametrize("op, inputs, data_type, sizes, attrs", FRAMEWORK_CASES, ids=CASE_IDS)
def test_onnx_snippets_match_the_core_on_the_grid(op, inputs, data_type, sizes, attrs):
    pytest.importorskip("onnxruntime")
    kernel_missing = op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1") and data_type not in ORT_TYPES
    if kernel_missing and not (op == "SPACE_TO_DEPTH1" and order_name(attrs["order"]) == "COLUMN_ROW_DEPTH"):
        pytest.skip(f"ONNX Runtime's CPU provider has no DepthToSpace/SpaceToDepth kernel for {data_type}")
    if ops.OPERATORS[op].onnx is None:
        assert snippet(ops.framework_snippets(op, sizes, data_type, **attrs), "onnx").code is None
        return
    check("onnx", op, inputs, data_type, sizes, **attrs)


def test_the_orders_each_framework_names_in_its_snippets():
    d2s = {o: ops.framework_snippets("depth_to_space", [1, 8, 2, 2], block_size=2, order=o) for o in ("DCR", "CRD")}
    s2d = {o: ops.framework_snippets("space_to_depth", [1, 2, 4, 4], block_size=2, order=o) for o in ("DCR", "CRD")}
    # PyTorch: pixel_shuffle / pixel_unshuffle are CRD, used directly for CRD and after a reorder for DCR.
    assert "order" not in snippet(d2s["CRD"], "pytorch").code
    assert "pixel_shuffle(t, 2)" in snippet(d2s["CRD"], "pytorch").code
    assert "t = t[:, order]" in snippet(d2s["DCR"], "pytorch").code
    assert "order" not in snippet(s2d["CRD"], "pytorch").code
    assert "pixel_unshuffle(t, 2)" in snippet(s2d["CRD"], "pytorch").code
    # TensorFlow: depth_to_space / space_to_depth are DCR on NHWC, reordered for CRD.
    assert "gather" not in snippet(d2s["DCR"], "tensorflow").code and "gather" in snippet(d2s["CRD"], "tensorflow").code
    assert "gather" not in snippet(s2d["DCR"], "tensorflow").code and "gather" in snippet(s2d["CRD"], "tensorflow").code
    # ONNX: DepthToSpace has both modes; SpaceToDepth only DCR, CRD as a Reshape/Transpose/Reshape graph.
    assert 'mode="CRD"' in snippet(d2s["CRD"], "onnx").code and 'mode="DCR"' in snippet(d2s["DCR"], "onnx").code
    assert '"SpaceToDepth"' in snippet(s2d["DCR"], "onnx").code
    assert '"SpaceToDepth"' not in snippet(s2d["CRD"], "onnx").code
    assert '"Transpose"' in snippet(s2d["CRD"], "onnx").code


def test_depth_space_snippets_say_which_order_their_framework_uses():
    for op in ("depth_to_space", "space_to_depth"):
        snippets = ops.framework_snippets(op, [1, 8, 4, 4], block_size=2, order="CRD")
        assert {s.framework: s.order for s in snippets} == ORDER_CONVENTIONS
    assert "CRD" in ORDER_CONVENTIONS["pytorch"] and "DCR" not in ORDER_CONVENTIONS["pytorch"].split(";")[0]
    assert "(DCR), on NHWC" in ORDER_CONVENTIONS["tensorflow"]
    assert "SpaceToDepth has no mode and is always DCR" in ORDER_CONVENTIONS["onnx"]
    others = ops.framework_snippets("split", [4], "INT8", axis=0, sizes=[1, 3])
    assert all(s.order == "" for s in others)  # an order means nothing outside depth/space


def test_the_reorders_in_the_snippets_are_the_converter_permutations():
    # The inline expressions the PyTorch and TensorFlow snippets use, checked against ops.channel_permutation.
    c, b = 12, 2
    np.testing.assert_array_equal(
        np.arange(c).reshape(b, b, c // 4).transpose(2, 0, 1).ravel(), ops.channel_permutation(c, b, "DCR", "CRD")
    )
    np.testing.assert_array_equal(
        np.arange(c).reshape(c // 4, b, b).transpose(1, 2, 0).ravel(), ops.channel_permutation(c, b, "CRD", "DCR")
    )


# ---------------------------------------------------------------- DirectML and refusals


@pytest.mark.parametrize(
    "op, sizes, attrs",
    [
        ("DEPTH_TO_SPACE1", (1, 8, 2, 3), {"block_size": 2, "order": "COLUMN_ROW_DEPTH"}),
        ("SPACE_TO_DEPTH1", (1, 2, 4, 6), {"block_size": 2, "order": "DEPTH_COLUMN_ROW"}),
        ("ELEMENT_WISE_BIT_OR", (2, 3), {}),
        ("SPLIT", (1, 1, 6, 2), {"axis": 2, "sizes": [2, 1, 3]}),
    ],
)
def test_directml_snippet_is_the_export_of_the_same_call(op, sizes, attrs):
    s = snippet(ops.framework_snippets(op, sizes, "FLOAT32", **attrs), "directml")
    x = np.zeros(sizes, np.float32)
    inputs = [x, x] if op == "ELEMENT_WISE_BIT_OR" else [x]
    model = ops.model_for(op, inputs, **attrs)
    assert s.language == "cpp" and s.code == ops.cpp_snippet(next(iter(model["dispatchables"].values())))


def test_directml_snippet_for_a_broadcast_b_has_zero_strides():
    s = snippet(ops.framework_snippets("ELEMENT_WISE_BIT_OR", [2, 3, 4], "UINT8", b_sizes=[3, 1]), "directml")
    assert "const UINT bTensorStrides[3] = {0, 1, 0};" in s.code and "0 strides" in s.note


def test_join_directml_snippet_lists_every_input():
    s = snippet(ops.framework_snippets("JOIN", [[1, 2], [1, 3]], "INT8", axis=1), "directml")
    assert "const DML_TENSOR_DESC inputTensors[2]" in s.code and "joinDesc.Axis = 1;" in s.code


def test_snippets_come_in_framework_order_and_name_their_bindings():
    snippets = ops.framework_snippets("JOIN", [[2], [3]], "INT8", axis=0)
    assert [s.framework for s in snippets] == list(FRAMEWORKS)
    assert snippet(snippets, "numpy").inputs == ("xs",) and snippet(snippets, "numpy").result == "y"
    split = ops.framework_snippets("split", [4], "INT8", axis=0, sizes=[1, 3])
    assert snippet(split, "tensorflow").result == "ys"


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("TRANSPOSE", [1, 1, 1, 1]), {}, "not a supported operator"),
        (("DEPTH_TO_SPACE1", [1, 6, 2, 2]), {"block_size": 2}, "channel count 6 is not divisible"),
        (("DEPTH_TO_SPACE1", [1, 4, 2]), {"block_size": 2}, "3 dimensions; this operator needs 4"),
        (("DEPTH_TO_SPACE1", [1, 4, 2, 2]), {}, "block_size: required"),
        (("DEPTH_TO_SPACE1", [1, 4, 2, 2]), {"block_size": 2, "order": "RCD"}, "Order 'RCD'"),
        (("SPACE_TO_DEPTH1", [1, 1, 3, 4]), {"block_size": 2}, "height 3 is not divisible"),
        (("SPACE_TO_DEPTH1", [1, 1, 2, 2]), {"block_size": 2, "axis": 1}, "axis: not an attribute"),
        (("ELEMENT_WISE_BIT_OR", [2, 3]), {"b_sizes": [2, 2]}, "dimension 1 is 2"),
        (("ELEMENT_WISE_BIT_OR", [2, 3]), {"b_sizes": [1, 2, 3]}, "3 dimensions; this operator needs 1 to 2"),
        (("SPLIT", [4, 2]), {"axis": 0, "sizes": [1, 2]}, "1 \\+ 2 = 3, but the input's size along Axis is 4"),
        (("SPLIT", [4, 2]), {"axis": 2, "sizes": [4]}, "Axis 2: must be in \\[0, 1\\]"),
        (("SPLIT", [4, 2]), {"axis": 0, "sizes": []}, "OutputCount 0: must be greater than 0"),
        (("JOIN", [[2, 3], [2, 4]]), {"axis": 0}, "Sizes\\[1\\] = 4: must equal InputTensors\\[0\\] Sizes\\[1\\] = 3"),
        (("JOIN", [[2, 3], [2]]), {"axis": 1}, "DimensionCount 1: must equal InputTensors\\[0\\]'s 2"),
        (("JOIN", []), {"axis": 0}, "expected the sizes of each input"),
        (("DEPTH_TO_SPACE1", [1, 4, 1, 1], "BFLOAT16"), {"block_size": 2}, "not a DirectML data type"),
        (("ELEMENT_WISE_BIT_OR", [2, 3]), {"c_sizes": [2, 3]}, "c_sizes: not a setting of ELEMENT_WISE_BIT_OR"),
        (("ELEMENT_WISE_IDENTITY", [2, 3]), {}, "ELEMENT_WISE_IDENTITY: no snippets in other frameworks"),
    ],
)
def test_invalid_settings_raise_descriptor_errors(args, kwargs, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.framework_snippets(*args, **kwargs)



# ---------------------------------------------------------------- through the registry


@pytest.mark.parametrize("name", list(ops.OPERATORS))
def test_every_registered_operator_runs_in_each_framework_or_says_why_not(name):
    spec = ops.OPERATORS[name]
    if spec.frameworks is None:
        with pytest.raises(ops.DescriptorError, match=f"{name}: no snippets in other frameworks"):
            ops.framework_snippets(name, [4])
        return
    pytest.importorskip("onnxruntime")
    data_type = "UINT8" if "UINT8" in spec.supported_types else spec.supported_types[0]  # UPSAMPLE_2D: floats only
    x = (np.arange(4, dtype=np.uint8) * 37).astype(ops.numpy_dtype(data_type))
    # A call the operator takes: its identity where it has one, else a probe of its bits (ONE_HOT), else x for each
    # input (ELEMENT_WISE_BIT_COUNT).
    probes = [call for call in spec.route_probes(x, {}) if call]
    inputs, attrs = probes[0] if probes else ([x] * spec.arity[0], {})
    attrs = spec.attrs_with_input_types(inputs, attrs)  # the indices' own type, from their array
    # Each input's sizes where they are its own (JOIN's parts, a gather's indices); else A's (B broadcasts to them).
    sizes = [a.shape for a in inputs] if spec.arity[1] is None or spec.own_typed_inputs else inputs[0].shape
    all_snippets = ops.framework_snippets(name, sizes, spec.data_type_of(inputs), **attrs)
    assert [s.framework for s in all_snippets] == list(FRAMEWORKS)
    expected = ops.run(name, inputs, **attrs)
    for s in all_snippets:
        assert s.note
        if s.code is None or s.language != "python" or s.framework in ("pytorch", "tensorflow"):
            continue
        bound = {"xs": inputs} if s.inputs == ("xs",) else dict(zip(s.inputs, inputs))
        if "has no OneHot kernel" in s.note:  # the model is valid; ONNX Runtime cannot run it, as the note says
            with pytest.raises(Exception, match="NOT_IMPLEMENTED"):
                run(s, **bound)
            continue
        result = run(s, **bound)
        assert all(same_bits(r, e) for r, e in zip(result if s.result == "ys" else [result], expected, strict=True))


def test_the_framework_modules_name_no_operator():
    # What is specific to an operator is its own (ops/operators/<family>/frameworks.py); these modules ask for it.
    for module in (snippets_module, onnx_models):
        source = inspect.getsource(module)
        for spec in ops.OPERATORS.values():
            for name in (spec.name, spec.onnx):
                assert f'"{name}"' not in source and f"'{name}'" not in source, (module.__name__, name)
