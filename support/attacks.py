"""Hostile inputs the tests and the benchmark make (never stored as files)."""

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def unclosed_escapes(size):
    """The issue's freezing text: a quote, then escaped quotes, never closed (10.7 s at 30 KB, hours at 1 MB)."""
    return '{"resources": "' + '\\"' * ((size - 16) // 2)


def varint(value):
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def raw_model(graph_body):
    """A ModelProto's bytes around a GraphProto's: IR version 8, opset 18 (field numbers of onnx/onnx.proto)."""
    return b"\x08\x08" + b"\x3a" + varint(len(graph_body)) + graph_body + b"\x42\x02\x10\x12"


def empty_nodes(size):
    """The issue's 15.8 MB file: nothing but empty nodes, two bytes each (2.7 GB to parse and check)."""
    return raw_model(b"\x0a\x00" * ((size - 16) // 2))


def one_node_of_empty_attributes(count):
    node = b"\x2a\x00" * count
    return raw_model(b"\x0a" + varint(len(node)) + node)


def model(nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()


def value(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def dcr_and_crd(count):
    """`count` DepthToSpace nodes of each mode on one input: every DCR node used to name every CRD node."""
    nodes = [helper.make_node("DepthToSpace", ["x"], [f"{mode}{i}"], name=f"{mode}{i}", blocksize=2, mode=mode)
             for mode in ("DCR", "CRD") for i in range(count)]
    outputs = [value(f"{mode}{i}", [1, 1, 4, 4]) for mode in ("DCR", "CRD") for i in range(count)]
    return model(nodes, [value("x", [1, 4, 2, 2])], outputs)


def chains(count, distinct=False):
    """`count` Reshape -> Transpose -> Reshape chains (PixelShuffle(2) in CRD order, written out) on inputs at the
    trace cap, {1, 16, 512, 512}; `distinct`: each one a column narrower, so no two are the same trace."""
    nodes, inputs, outputs, initializers = [], [], [], []
    for i in range(count):
        w = 512 - i if distinct else 512
        initializers += [numpy_helper.from_array(np.array((1, 4, 2, 2, 512, w), np.int64), f"middle{i}"),
                         numpy_helper.from_array(np.array((1, 4, 1024, 2 * w), np.int64), f"end{i}")]
        nodes += [helper.make_node("Reshape", [f"x{i}", f"middle{i}"], [f"m{i}"]),
                  helper.make_node("Transpose", [f"m{i}"], [f"t{i}"], perm=[0, 1, 4, 2, 5, 3]),
                  helper.make_node("Reshape", [f"t{i}", f"end{i}"], [f"y{i}"])]
        inputs.append(value(f"x{i}", [1, 16, 512, w]))
        outputs.append(value(f"y{i}", [1, 4, 1024, 2 * w]))
    return model(nodes, inputs, outputs, initializers)
