"""Opening an ONNX model: the five operators listed as DirectML settings, risky constructions flagged, one node
extracted and cross-checked on ONNX Runtime, and every unsafe or malformed upload refused with a message."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import ops
from ops.frameworks.example_model import example_upscaling_model
from ops.frameworks.onnx_models import ONNX_BYTE_CAP, extract_node
from ops.operators.depth_space import depth_to_space, space_to_depth

FLOAT = TensorProto.FLOAT


def model_bytes(nodes, inputs, outputs, initializers=(), opset=18, ir_version=8, functions=(), extra_opsets=()):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializer=list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets, ir_version=ir_version, functions=list(functions))
    return model.SerializeToString()


def value(name, sizes, element=FLOAT):
    return helper.make_tensor_value_info(name, element, sizes)


def constant(name, values):
    tensor = numpy_helper.from_array(np.array(values, np.int64), name + "_value")
    return helper.make_node("Constant", [], [name], value=tensor)


def upscaler():
    """A small super-resolution network: Conv -> PixelShuffle (DepthToSpace CRD, as torch.onnx names it), then a
    PixelUnshuffle written as torch.onnx's TorchScript exporter writes it (Constant shapes with -1 for the batch,
    Reshape -> Transpose [0, 1, 3, 5, 2, 4] -> Reshape), and a Conv reading the result."""
    rng = np.random.default_rng(0)
    weights = numpy_helper.from_array(rng.integers(-2, 3, (12, 3, 3, 3)).astype(np.float32), "conv.weight")
    bias = numpy_helper.from_array(rng.integers(-2, 3, 12).astype(np.float32), "conv.bias")
    head = numpy_helper.from_array(rng.integers(-2, 3, (2, 12, 1, 1)).astype(np.float32), "head.weight")
    nodes = [
        helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["features"], name="/conv/Conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["features"], ["activated"], name="/relu/Relu"),
        helper.make_node("DepthToSpace", ["activated"], ["upscaled"], name="/ps/DepthToSpace", blocksize=2, mode="CRD"),
        constant("blocks", [-1, 3, 4, 2, 4, 2]),
        helper.make_node("Reshape", ["upscaled", "blocks"], ["split_space"], name="/pu/Reshape"),
        helper.make_node("Transpose", ["split_space"], ["moved"], name="/pu/Transpose", perm=[0, 1, 3, 5, 2, 4]),
        constant("depth", [-1, 12, 4, 4]),
        helper.make_node("Reshape", ["moved", "depth"], ["unshuffled"], name="/pu/Reshape_1"),
        helper.make_node("Conv", ["unshuffled", "head.weight"], ["y"], name="/head/Conv"),
    ]
    return model_bytes(nodes, [value("x", [1, 3, 4, 4])], [value("y", [1, 2, 4, 4])], [weights, bias, head])


def node_named(report, name):
    return next(n for n in report.nodes if n.name == name)


# ---------------------------------------------------------------- the upscaler


def test_upscaler_lists_its_pixel_shuffle_with_settings_for_the_operator_page():
    report = ops.open_onnx_model(upscaler())
    assert [n.op_type for n in report.nodes] == ["DepthToSpace"]
    shuffle = report.nodes[0]
    assert shuffle.index == 2 and shuffle.inputs == ["activated"] and shuffle.input_shapes == [[1, 12, 4, 4]]
    assert shuffle.input_types == ["FLOAT32"] and shuffle.attributes == {"blocksize": 2, "mode": "CRD"}
    assert shuffle.settings == {
        "operator": "DEPTH_TO_SPACE1", "DataType": "FLOAT32", "Sizes": [1, 12, 4, 4], "BlockSize": 2,
        "Order": "COLUMN_ROW_DEPTH",
    }
    assert shuffle.problem is None and shuffle.risks == []
    assert report.opset == 18 and report.node_count == 9 and report.notes == []


def test_upscaler_pixel_unshuffle_chain_is_traced_as_space_to_depth_crd():
    report = ops.open_onnx_model(upscaler())
    [chain] = report.rearrangements
    assert chain.indices == [4, 5, 7] and chain.input == "upscaled" and chain.output == "unshuffled"
    assert chain.settings == {
        "operator": "SPACE_TO_DEPTH1", "DataType": "FLOAT32", "Sizes": [1, 3, 8, 8], "BlockSize": 2,
        "Order": "COLUMN_ROW_DEPTH",
    }
    assert "PixelUnshuffle" in chain.note and chain.risks == []


def test_upscaler_node_cross_checks_on_onnx_runtime():
    report = ops.open_onnx_model(upscaler())
    check = ops.cross_check_node(report, 2)
    assert check.available and check.matches and check.provider == "CPUExecutionProvider"
    assert check.op == "DEPTH_TO_SPACE1" and "'/ps/DepthToSpace'" in check.note and "byte-identical" in check.note
    x = ops.origin_coded_input((1, 12, 4, 4))
    check = ops.cross_check_node(report, 2, inputs=[x])
    assert check.matches and check.actual[0].tobytes() == depth_to_space(x, 2, "CRD").tobytes()


def test_extracted_node_is_a_valid_standalone_model():
    report = ops.open_onnx_model(upscaler())
    extracted = onnx.load_from_string(extract_node(report, 2))
    onnx.checker.check_model(extracted)
    assert [n.op_type for n in extracted.graph.node] == ["DepthToSpace"]
    assert [i.name for i in extracted.graph.input] == ["activated"]
    dims = [d.dim_value for d in extracted.graph.input[0].type.tensor_type.shape.dim]
    assert dims == [1, 12, 4, 4]


# ---------------------------------------------------------------- risky constructions


def test_space_to_depth_exported_from_pixel_unshuffle_is_flagged():
    # What microsoft/onnxscript#2891 describes: PixelUnshuffle (CRD) lowered to SpaceToDepth (always DCR).
    node = helper.make_node("SpaceToDepth", ["x"], ["y"], name="node_pixel_unshuffle", blocksize=2)
    node.metadata_props.add(key="pkg.torch.onnx.class_hierarchy",
                            value="['M', 'torch.nn.modules.pixelshuffle.PixelUnshuffle']")
    report = ops.open_onnx_model(model_bytes([node], [value("x", [1, 2, 4, 4])], [value("y", [1, 8, 2, 2])]))
    [entry] = report.nodes
    assert entry.settings["Order"] == "DEPTH_COLUMN_ROW"
    assert len(entry.risks) == 1 and "microsoft/onnxscript#2891" in entry.risks[0]


def test_a_space_to_depth_next_to_crd_operations_is_flagged_as_a_mixed_pair():
    nodes = [
        helper.make_node("SpaceToDepth", ["x"], ["depth"], name="down", blocksize=2),
        helper.make_node("DepthToSpace", ["depth"], ["y"], name="up", blocksize=2, mode="CRD"),
    ]
    report = ops.open_onnx_model(model_bytes(nodes, [value("x", [1, 3, 4, 4])], [value("y", [1, 3, 4, 4])]))
    down, up = report.nodes
    assert up.risks == [] and len(down.risks) == 1
    assert "COLUMN_ROW_DEPTH order (up)" in down.risks[0]
    # The pair really does not invert: the core says so too.
    x = ops.origin_coded_input((1, 3, 4, 4))
    assert not np.array_equal(depth_to_space(space_to_depth(x, 2, "DCR"), 2, "CRD"), x)


def test_depth_to_space_dcr_named_after_pixel_shuffle_is_flagged():
    node = helper.make_node("DepthToSpace", ["x"], ["y"], name="/upsample/pixel_shuffle/DepthToSpace", blocksize=2)
    report = ops.open_onnx_model(model_bytes([node], [value("x", [1, 8, 2, 2])], [value("y", [1, 2, 4, 4])]))
    [entry] = report.nodes
    assert entry.settings["Order"] == "DEPTH_COLUMN_ROW" and "PixelShuffle" in entry.risks[0]


def test_a_scrambling_reshape_transpose_reshape_chain_is_flagged():
    # Reshape to [N, r, r, C', H, W] but transpose as if it were [N, C', r, r, H, W]: neither order.
    nodes = [
        constant("blocks", [1, 2, 2, 3, 2, 3]),
        helper.make_node("Reshape", ["x", "blocks"], ["b"], name="r1"),
        helper.make_node("Transpose", ["b"], ["t"], name="t", perm=[0, 1, 4, 2, 5, 3]),
        constant("space", [1, 3, 4, 6]),
        helper.make_node("Reshape", ["t", "space"], ["y"], name="r2"),
    ]
    report = ops.open_onnx_model(model_bytes(nodes, [value("x", [1, 12, 2, 3])], [value("y", [1, 3, 4, 6])]))
    [chain] = report.rearrangements
    assert chain.settings is None and chain.names == ["r1", "t", "r2"]
    assert "neither DCR nor CRD" in chain.risks[0]


def test_a_chain_that_is_dcr_after_a_channel_permutation_names_the_permutation():
    # DEPTH_TO_SPACE1 DCR of x[:, P]: written as Gather-free Reshape/Transpose/Reshape by folding P into the split.
    # With C' = 1 the split [N, bw, bh, 1, H, W] swaps the block axes: a permutation of the 4 channels.
    nodes = [
        constant("blocks", [1, 2, 2, 1, 2, 3]),
        helper.make_node("Reshape", ["x", "blocks"], ["b"]),
        helper.make_node("Transpose", ["b"], ["t"], perm=[0, 3, 4, 2, 5, 1]),
        constant("space", [1, 1, 4, 6]),
        helper.make_node("Reshape", ["t", "space"], ["y"]),
    ]
    report = ops.open_onnx_model(model_bytes(nodes, [value("x", [1, 4, 2, 3])], [value("y", [1, 1, 4, 6])]))
    [chain] = report.rearrangements
    assert chain.settings is None and "[0, 2, 1, 3]" in chain.note
    assert "after a channel permutation" in chain.risks[0]


# ---------------------------------------------------------------- split, concat, bitwise or


def test_split_concat_and_bitwise_or_settings():
    nodes = [
        helper.make_node("Split", ["x", "sizes"], ["a", "b", "c"], name="split", axis=-1),
        helper.make_node("Split", ["x"], ["p", "q", "r"], name="thirds", axis=3, num_outputs=3),
        helper.make_node("Concat", ["c", "a", "b"], ["joined"], name="concat", axis=-1),
        helper.make_node("BitwiseOr", ["mask", "ints"], ["ored"], name="or"),
    ]
    inputs = [value("x", [1, 2, 3, 8]), value("ints", [2, 3, 4], TensorProto.INT32),
              value("mask", [1, 1, 4], TensorProto.INT32)]
    outputs = [value("p", [1, 2, 3, 3]), value("q", [1, 2, 3, 3]), value("r", [1, 2, 3, 2]),
               value("joined", [1, 2, 3, 8]), value("ored", [2, 3, 4], TensorProto.INT32)]
    sizes = numpy_helper.from_array(np.array([2, 1, 5], np.int64), "sizes")
    report = ops.open_onnx_model(model_bytes(nodes, inputs, outputs, [sizes]))
    split, thirds, concat, ored = report.nodes
    assert split.settings == {"operator": "SPLIT", "DataType": "FLOAT32", "Sizes": [1, 2, 3, 8], "Axis": 3,
                              "AxisSizes": [2, 1, 5]}
    # ONNX Split with num_outputs that does not divide the size: equal parts, the last one smaller.
    assert thirds.settings["AxisSizes"] == [3, 3, 2]
    assert concat.settings == {"operator": "JOIN", "DataType": "FLOAT32",
                               "InputSizes": [[1, 2, 3, 5], [1, 2, 3, 2], [1, 2, 3, 1]], "Axis": 3}
    # A broadcast A is swapped into B: OR commutes.
    assert ored.settings == {"operator": "ELEMENT_WISE_BIT_OR", "DataType": "INT32", "Sizes": [2, 3, 4],
                             "ASizes": [2, 3, 4], "BSizes": [1, 1, 4]}
    for entry in report.nodes:
        check = ops.cross_check_node(report, entry.index)
        assert check.available and check.matches, check.note
    with pytest.raises(ops.DescriptorError, match="takes 2 input array"):
        ops.cross_check_node(report, ored.index, inputs=[np.zeros((2, 3, 4), np.int32)])
    with pytest.raises(ops.DescriptorError, match="'mask' must be a int32 array of sizes \\[1, 1, 4\\], got float32"):
        ops.cross_check_node(report, ored.index,
                             inputs=[np.zeros((1, 1, 4), np.float32), np.zeros((2, 3, 4), np.int32)])


def test_the_listed_nodes_are_of_the_operators_the_registry_reads_from_onnx():
    # ELEMENT_WISE_IDENTITY's ONNX form is Identity, but it reads no model node (it has no framework forms): an Identity
    # is no operator the pages show, so it is not listed.
    nodes = [helper.make_node("Identity", ["x"], ["copy"], name="copy"),
             helper.make_node("Concat", ["copy", "x"], ["y"], name="concat", axis=0)]
    report = ops.open_onnx_model(model_bytes(nodes, [value("x", [2])], [value("y", [4])]))
    assert [(n.name, n.settings["operator"]) for n in report.nodes] == [("concat", "JOIN")]
    assert report.nodes[0].call == ops.Call.of("JOIN", [[2], [2]], "FLOAT32", axis=0)


def test_nodes_without_directml_settings_say_why():
    nodes = [
        helper.make_node("DepthToSpace", ["x"], ["y"], name="dynamic", blocksize=2),
        helper.make_node("DepthToSpace", ["h"], ["z"], name="half", blocksize=2),
        helper.make_node("Split", ["f", "runtime_sizes"], ["s0", "s1"], name="runtime", axis=1),
    ]
    inputs = [value("x", ["N", 8, 2, 2]), value("h", [1, 4, 2, 2], TensorProto.BFLOAT16), value("f", [1, 4, 2, 2]),
              value("runtime_sizes", [2], TensorProto.INT64)]
    outputs = [value("y", ["N", 2, 4, 4]), value("z", [1, 1, 4, 4], TensorProto.BFLOAT16), value("s0", [1, "a", 2, 2]),
               value("s1", [1, "b", 2, 2])]
    report = ops.open_onnx_model(model_bytes(nodes, inputs, outputs))
    dynamic, half, runtime = report.nodes
    assert dynamic.settings is None and "['N', 8, 2, 2]" in dynamic.problem and dynamic.input_shapes == [["N", 8, 2, 2]]
    assert half.settings is None and "BFLOAT16" in half.problem and half.input_types == ["BFLOAT16"]
    assert runtime.settings is None and "computed at run time" in runtime.problem
    with pytest.raises(ops.DescriptorError, match="cannot be extracted"):
        ops.cross_check_node(report, dynamic.index)
    with pytest.raises(ops.DescriptorError, match="not one of the listed nodes"):
        extract_node(report, 99)


def test_a_node_onnx_runtime_has_no_kernel_for_is_reported_not_raised():
    node = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="CRD")
    data = model_bytes([node], [value("x", [1, 4, 1, 2], TensorProto.INT32)],
                       [value("y", [1, 1, 2, 4], TensorProto.INT32)])
    report = ops.open_onnx_model(data)
    check = ops.cross_check_node(report, 0)
    assert not check.available and "Could not run" in check.note and "ops.cross_check" in check.note
    # ops.cross_check, reinterpreting the bits, runs the same settings.
    x = np.arange(8, dtype=np.int32).reshape(1, 4, 1, 2)
    assert ops.cross_check("DEPTH_TO_SPACE1", [x], block_size=2, order="CRD").matches


def test_a_provider_that_is_missing_is_reported():
    report = ops.open_onnx_model(upscaler())
    check = ops.cross_check_node(report, 2, provider="DmlExecutionProvider")
    assert not check.available and "not available" in check.note


# ---------------------------------------------------------------- refusals


def external(tensor, location):
    tensor.data_location = TensorProto.EXTERNAL
    tensor.ClearField("raw_data")
    tensor.external_data.add(key="location", value=location)
    return tensor


def custom_domain_model():
    node = helper.make_node("FusedPixelShuffle", ["x"], ["y"], domain="com.example", blocksize=2)
    return model_bytes([node], [value("x", [1, 4, 2, 2])], [value("y", [1, 1, 4, 4])], extra_opsets=["com.example"])


def subgraph_custom_domain_model():
    inner = helper.make_graph(
        [helper.make_node("Mystery", ["x"], ["z"], domain="com.example")], "inner", [], [value("z", [2])]
    )
    branch = helper.make_node("If", ["cond"], ["y"], then_branch=inner, else_branch=inner)
    return model_bytes([branch], [value("cond", [], TensorProto.BOOL), value("x", [2])], [value("y", [2])],
                       extra_opsets=["com.example"])


def external_initializer_model():
    weights = external(numpy_helper.from_array(np.zeros((2, 2), np.float32), "w"), "/etc/hostname")
    node = helper.make_node("Concat", ["x", "w"], ["y"], axis=0)
    return model_bytes([node], [value("x", [2, 2])], [value("y", [4, 2])], [weights])


def external_constant_model():
    tensor = external(numpy_helper.from_array(np.zeros(2, np.float32), "c"), "weights.bin")
    nodes = [helper.make_node("Constant", [], ["c"], value=tensor),
             helper.make_node("Concat", ["x", "c"], ["y"], axis=0)]
    return model_bytes(nodes, [value("x", [2])], [value("y", [4])])


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "not an ONNX model \\(no IR version"),
        (b"\x08\x96\x01garbage!!", "not an ONNX model \\(the bytes do not parse"),
        (upscaler()[:-40], "not an ONNX model"),
        ("model.onnx", "expected the bytes"),
        (external_initializer_model(),
         "initializer 'w' keeps its data in an external file \\(location '/etc/hostname'\\)"),
        (external_constant_model(), "attribute value keeps its data in an external file"),
        (custom_domain_model(), "is com.example:FusedPixelShuffle; custom domains are refused"),
        (subgraph_custom_domain_model(), "(then|else)_branch node .* com.example:Mystery; custom domains are refused"),
        (model_bytes([helper.make_node("Relu", ["nowhere"], ["y"])], [value("x", [2])], [value("y", [2])]),
         "the ONNX checker refuses it"),
    ],
)
def test_unsafe_and_malformed_models_are_refused(data, message):
    with pytest.raises(ops.DescriptorError, match=message):
        ops.open_onnx_model(data)


def test_oversized_uploads_are_refused_before_parsing():
    data = upscaler()
    with pytest.raises(ops.DescriptorError, match=f"{len(data):,} bytes exceed the cap of 1,000 bytes"):
        ops.open_onnx_model(data, max_bytes=1000)
    # 16 MB as the browser's upload box counts it (10^6 bytes a megabyte), so the two caps agree (issue 24, point 10).
    assert ONNX_BYTE_CAP == 16 * 10**6


def test_custom_domain_function_calls_are_refused():
    body = helper.make_node("Relu", ["a"], ["b"])
    function = helper.make_function("com.example", "MyRelu", ["a"], ["b"], [body], [helper.make_opsetid("", 18)])
    call = helper.make_node("MyRelu", ["x"], ["y"], domain="com.example")
    data = model_bytes([call], [value("x", [2])], [value("y", [2])], functions=[function], extra_opsets=["com.example"])
    with pytest.raises(ops.DescriptorError, match="custom domains are refused"):
        ops.open_onnx_model(data)


# ---------------------------------------------------------------- a real PyTorch export, when torch is here


def test_a_real_torch_export_of_pixel_shuffle_and_unshuffle():
    torch = pytest.importorskip("torch")
    import io

    class Network(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 12, 3, padding=1)
            self.shuffle = torch.nn.PixelShuffle(2)
            self.unshuffle = torch.nn.PixelUnshuffle(2)

        def forward(self, x):
            return self.unshuffle(self.shuffle(self.conv(x)))

    stream = io.BytesIO()
    try:
        torch.onnx.export(Network().eval(), (torch.zeros(1, 3, 4, 4),), stream, dynamo=False, opset_version=18)
    except Exception as error:  # an exporter this torch build lacks is not what this test is about
        pytest.skip(f"torch.onnx.export (TorchScript) unavailable: {error}")
    report = ops.open_onnx_model(stream.getvalue())
    [shuffle] = report.nodes
    assert shuffle.settings["Order"] == "COLUMN_ROW_DEPTH" and shuffle.risks == []
    [chain] = report.rearrangements
    assert chain.settings["operator"] == "SPACE_TO_DEPTH1" and chain.settings["Order"] == "COLUMN_ROW_DEPTH"
    assert ops.cross_check_node(report, shuffle.index).matches


# ---------------------------------------------------------------- the bundled example


def test_the_example_model_runs_and_lists_every_operator_with_its_risks():
    ort = pytest.importorskip("onnxruntime")
    data = example_upscaling_model()
    onnx.checker.check_model(onnx.load_from_string(data))
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    y, flags = session.run(None, {"x": np.zeros((1, 3, 8, 8), np.float32),
                                  "flags": np.arange(8, dtype=np.uint8).reshape(2, 4)})
    assert y.shape == (1, 3, 16, 16) and flags.ravel().tolist() == [v | 0x80 for v in range(8)]
    report = ops.open_onnx_model(data)
    assert [n.op_type for n in report.nodes] == ["SpaceToDepth", "Split", "Concat", "DepthToSpace", "BitwiseOr"]
    unshuffle, _, _, shuffle, _ = report.nodes
    assert shuffle.settings["Order"] == "COLUMN_ROW_DEPTH" and shuffle.settings["BlockSize"] == 4
    assert any("onnxscript#2891" in r for r in unshuffle.risks)
    [chain] = report.rearrangements
    assert chain.settings == {"operator": "DEPTH_TO_SPACE1", "DataType": "FLOAT32", "Sizes": [1, 12, 8, 8],
                              "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}
    for entry in report.nodes:
        check = ops.cross_check_node(report, entry.index)
        assert check.available and check.matches, check.note
