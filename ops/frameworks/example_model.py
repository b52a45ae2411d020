"""A small super-resolution network built with onnx.helper, to open on the ONNX model page without an upload.

It holds what the page is for: a PixelShuffle exported as DepthToSpace CRD, the same upscaling written as
Reshape -> Transpose -> Reshape on a second branch (as older exporters wrote it), a PixelUnshuffle exported as
SpaceToDepth (which ONNX defines only as DCR, so it is flagged), a Split and Concat, and a BitwiseOr on a mask.
"""

import numpy as np

EXAMPLE_OPSET = 18
EXAMPLE_IR_VERSION = 8


def example_upscaling_model():
    """The bytes of the example model: x [1, 3, 8, 8] -> y [1, 3, 16, 16], plus a mask output."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2026)

    def weights(name, shape):
        return numpy_helper.from_array(rng.integers(-2, 3, shape).astype(np.float32), name)

    def shape_constant(name, values):
        return helper.make_node("Constant", [], [name], name=f"/{name}/Constant",
                                value=numpy_helper.from_array(np.array(values, np.int64), name))

    unshuffle = helper.make_node("SpaceToDepth", ["x"], ["down"], name="/down/pixel_unshuffle/SpaceToDepth",
                                 blocksize=2)
    nodes = [
        unshuffle,
        helper.make_node("Conv", ["down", "body.weight", "body.bias"], ["features"], name="/body/Conv",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Split", ["features", "split_sizes"], ["detail", "coarse"], name="/branch/Split", axis=1),
        helper.make_node("Relu", ["detail"], ["detail_act"], name="/branch/Relu"),
        helper.make_node("Concat", ["detail_act", "coarse"], ["merged"], name="/merge/Concat", axis=1),
        helper.make_node("Conv", ["merged", "up.weight", "up.bias"], ["up_features"], name="/up/Conv",
                         pads=[1, 1, 1, 1]),
        # PixelShuffle(4) as torch.onnx exports it: DepthToSpace with mode CRD.
        helper.make_node("DepthToSpace", ["up_features"], ["upscaled"], name="/up/pixel_shuffle/DepthToSpace",
                         blocksize=4, mode="CRD"),
        # A PixelShuffle(2) on a skip branch, written out as Reshape -> Transpose -> Reshape.
        helper.make_node("Conv", ["x", "skip.weight"], ["skip_features"], name="/skip/Conv"),
        shape_constant("skip_blocks", [1, 3, 2, 2, 8, 8]),
        helper.make_node("Reshape", ["skip_features", "skip_blocks"], ["skip_split"], name="/skip/Reshape"),
        helper.make_node("Transpose", ["skip_split"], ["skip_moved"], name="/skip/Transpose", perm=[0, 1, 4, 2, 5, 3]),
        shape_constant("skip_space", [1, 3, 16, 16]),
        helper.make_node("Reshape", ["skip_moved", "skip_space"], ["skip"], name="/skip/Reshape_1"),
        helper.make_node("Add", ["upscaled", "skip"], ["y"], name="/Add"),
        helper.make_node("BitwiseOr", ["flags", "mask"], ["flags_out"], name="/flags/BitwiseOr"),
    ]
    # torch.onnx records the module a node came from (metadata "pkg.torch.onnx.class_hierarchy").
    unshuffle.metadata_props.add(key="pkg.torch.onnx.class_hierarchy",
                                 value="['Upscaler', 'torch.nn.modules.pixelshuffle.PixelUnshuffle']")
    initializers = [
        weights("body.weight", (12, 12, 3, 3)), weights("body.bias", (12,)),
        numpy_helper.from_array(np.array([4, 8], np.int64), "split_sizes"),
        weights("up.weight", (48, 12, 3, 3)), weights("up.bias", (48,)),
        weights("skip.weight", (12, 3, 1, 1)),
        numpy_helper.from_array(np.array([0x80], np.uint8), "mask"),
    ]
    graph = helper.make_graph(
        nodes, "upscaler",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
         helper.make_tensor_value_info("flags", TensorProto.UINT8, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 16, 16]),
         helper.make_tensor_value_info("flags_out", TensorProto.UINT8, [2, 4])],
        initializer=initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", EXAMPLE_OPSET)],
                              ir_version=EXAMPLE_IR_VERSION, producer_name="dml-visualizer example")
    return model.SerializeToString()
