"""The family's ONNX twins, which the cross-check runs on ONNX Runtime: ONNX's Gather, GatherElements, GatherND,
ScatterElements, ScatterND and OneHot on DirectML's tensors (x0, x1[, x2] -> y0).

DirectML gives every tensor one DimensionCount and counts its meaningful dimensions from the end; ONNX's operators
take the meaningful dimensions only, so the graphs reshape around them. ONNX takes INT64 or INT32 indices (GatherND
INT64 alone) and no unsigned ones: each graph casts IndicesTensor to INT64, which keeps every UINT32 value and wraps
a UINT64 at or past 2^63 to a negative one. In-range indices (negative ones counting from the end) mean the same in
both; past their axis ONNX refuses or leaves the element off (OneHot), where DirectML reads on (core.py).
"""

import math

import numpy as np

INT64 = 7  # onnx.TensorProto.INT64


def _shape(numpy_helper, values, name):
    return numpy_helper.from_array(np.array([int(v) for v in values], np.int64), name)


def _indices(helper, shape=None, nodes=None, initializers=None):
    """Cast x1 to INT64, reshaped to `shape` when given: (name, nodes, initializers)."""
    from onnx import numpy_helper

    nodes = [helper.make_node("Cast", ["x1"], ["indices"], to=INT64)]
    initializers = []
    if shape is None:
        return "indices", nodes, initializers
    initializers.append(_shape(numpy_helper, shape, "indices_shape"))
    nodes.append(helper.make_node("Reshape", ["indices", "indices_shape"], ["indices_shaped"]))
    return "indices_shaped", nodes, initializers


def gather_graph(helper, attrs, shapes):
    from onnx import numpy_helper

    from .core import gather_sizes

    whole, indices_sizes = shapes[0], shapes[1]
    axis, k = attrs["axis"], attrs["index_dimensions"]
    r = len(whole)
    # IndexDimensions 0: one scalar index; else the indices' last k dimensions.
    name, nodes, initializers = _indices(helper, indices_sizes[r - k:] if k else [])
    data = "x0"
    if k > 1:  # DirectML reads the first k - 1 input dimensions at coordinate 0
        initializers += [_shape(numpy_helper, [math.prod(whole[:k - 1]), *whole[k - 1:]], "folded"),
                         numpy_helper.from_array(np.array(0, np.int64), "zero")]
        nodes += [helper.make_node("Reshape", ["x0", "folded"], ["folded_input"]),
                  helper.make_node("Gather", ["folded_input", "zero"], ["first_block"], axis=0)]
        data = "first_block"
    nodes.append(helper.make_node("Gather", [data, name], ["gathered"], axis=axis - max(k - 1, 0)))
    initializers.append(_shape(numpy_helper, gather_sizes(whole, indices_sizes, axis, k), "output_shape"))
    nodes.append(helper.make_node("Reshape", ["gathered", "output_shape"], ["y0"]))
    return nodes, initializers


def elements_graph(helper, op_type, attrs, shapes):
    name, nodes, initializers = _indices(helper)
    inputs = ["x0", name] + (["x2"] if len(shapes) == 3 else [])
    nodes.append(helper.make_node(op_type, inputs, ["y0"], axis=attrs["axis"]))
    return nodes, initializers


def nd_graph(helper, op_type, attrs, shapes):
    from onnx import numpy_helper

    from .core import nd_meaningful, nd_sizes

    whole, indices_sizes = shapes[0], shapes[1]
    m, q, b = attrs["input_dimensions"], attrs["indices_dimensions"], attrs.get("batch_dimensions", 0)
    meaningful = whole[len(whole) - m:]
    name, nodes, initializers = _indices(helper, indices_sizes[len(indices_sizes) - q:])
    initializers.append(_shape(numpy_helper, meaningful, "data_shape"))
    nodes.append(helper.make_node("Reshape", ["x0", "data_shape"], ["data"]))
    if op_type == "ScatterND":
        initializers += [_shape(numpy_helper, nd_meaningful(whole, indices_sizes, m, q, 0), "updates_shape"),
                         _shape(numpy_helper, whole, "output_shape")]
        nodes += [helper.make_node("Reshape", ["x2", "updates_shape"], ["updates"]),
                  helper.make_node("ScatterND", ["data", name, "updates"], ["scattered"]),
                  helper.make_node("Reshape", ["scattered", "output_shape"], ["y0"])]
        return nodes, initializers
    initializers.append(_shape(numpy_helper, nd_sizes(whole, indices_sizes, m, q, b, len(whole)), "output_shape"))
    nodes += [helper.make_node("GatherND", ["data", name], ["gathered"], batch_dims=b),
              helper.make_node("Reshape", ["gathered", "output_shape"], ["y0"])]
    return nodes, initializers


def one_hot_graph(helper, attrs, shapes):
    """DirectML's IndicesTensor has size 1 at Axis, where ONNX's OneHot inserts the depth: squeezed first; the
    ValuesTensor's first two elements are OffValue and OnValue."""
    from onnx import numpy_helper

    axis = attrs["axis"]
    initializers = [_shape(numpy_helper, [axis], "axis"),
                    numpy_helper.from_array(np.array(attrs["depth"], np.int64), "depth"),  # a scalar
                    _shape(numpy_helper, [-1], "flat"), _shape(numpy_helper, [0], "start"),
                    _shape(numpy_helper, [2], "stop")]
    nodes = [helper.make_node("Cast", ["x0"], ["indices"], to=INT64),
             helper.make_node("Squeeze", ["indices", "axis"], ["sequences"]),
             helper.make_node("Reshape", ["x1", "flat"], ["all_values"]),
             helper.make_node("Slice", ["all_values", "start", "stop"], ["off_on"]),
             helper.make_node("OneHot", ["sequences", "depth", "off_on"], ["y0"], axis=axis)]
    return nodes, initializers
