"""The same operation elsewhere: copyable code that computes what a DirectML operator computes, per framework.

Every snippet is generated from the settings (operator, sizes, data type, BlockSize and Order, Axis and sizes, B's
broadcast), binds its inputs by name (x; a and b; xs for a join) and leaves its result in `y` (an array), `ys` (a
list of arrays) or `model` (an onnx ModelProto whose graph inputs and outputs carry those names). Which framework
uses which order, with its source:

- numpy has no depth/space operator; the reshape/transpose pairs below are the ones ONNX writes down as the
  definition of DepthToSpace DCR and CRD (https://onnx.ai/onnx/operators/onnx__DepthToSpace.html).
- ONNX DepthToSpace has `mode` DCR (the default) or CRD (same page); ONNX SpaceToDepth has no mode and computes
  the DCR arrangement (https://onnx.ai/onnx/operators/onnx__SpaceToDepth.html; its example and onnx's reference
  implementation, onnx/reference/ops/op_space_to_depth.py, transpose with [0, 3, 5, 1, 2, 4]).
- PyTorch's pixel_shuffle maps (*, C x r^2, H, W) to (*, C, H x r, W x r)
  (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelShuffle.html), C the major part of the depth
  index: COLUMN_ROW_DEPTH. torch.onnx exports it as DepthToSpace mode CRD (pytorch/pytorch
  torch/onnx/symbolic_opset11.py, pixel_shuffle), the mode added to ONNX for exactly that (onnx/onnx#2163:
  "Using CRD mode, depthToSpace would be an equivalent of pytorch pixel_shuffle"). pixel_unshuffle is its inverse
  (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelUnshuffle.html), so also CRD.
- TensorFlow's depth_to_space takes "the Y, X coordinates within each block ... [from] the high order component of
  the input channel index" and space_to_depth makes them "the high order component of the output channel index"
  (https://www.tensorflow.org/api_docs/python/tf/nn/depth_to_space,
  https://www.tensorflow.org/api_docs/python/tf/nn/space_to_depth): block position major, DCR, on NHWC data.
- einops states the layout in the pattern itself (https://einops.rocks/api/rearrange/): (b1 b2 c) is DCR,
  (c b1 b2) is CRD.
"""

import dataclasses

import numpy as np

from ..datatypes import FLOAT_TYPES, numpy_dtype, type_name, unsigned_of_width
from ..descriptors.export import cpp_snippet, export_operator_name
from ..levels import OPERATOR_PREFIX
from ..descriptors.validate import normalized_dispatchable
from ..errors import DescriptorError
from ..guard import check_element_count, check_positive_int
from ..operators.depth_space import depth_to_space_shape, order_name, space_to_depth_shape
from ..operators.split_join import check_axis

FRAMEWORKS = ("numpy", "einops", "onnx", "pytorch", "tensorflow", "directml")
ONNX_OPSET = 18
# ONNX IR 8 carries opset 18 and loads in older ONNX Runtime releases too (see ops/runtime/cross_check.py).
ONNX_IR_VERSION = 8
# BitCast, which reinterprets float bits for BitwiseOr, exists from opset 26
# (https://onnx.ai/onnx/operators/onnx__BitCast.html), which needs IR 13 (onnx.helper.VERSION_TABLE).
ONNX_BITCAST_OPSET, ONNX_BITCAST_IR_VERSION = 26, 13
_ONNX_TYPES = {
    "FLOAT32": "FLOAT", "FLOAT16": "FLOAT16", "FLOAT64": "DOUBLE", "UINT8": "UINT8", "UINT16": "UINT16",
    "UINT32": "UINT32", "UINT64": "UINT64", "INT8": "INT8", "INT16": "INT16", "INT32": "INT32", "INT64": "INT64",
}
_ORDER_SHORT = {"DEPTH_COLUMN_ROW": "DCR", "COLUMN_ROW_DEPTH": "CRD"}
# One sentence per framework: the depth/space order its own operation uses, each from that framework's documentation.
ORDER_CONVENTIONS = {
    # numpy has no depth/space function; ONNX writes both orders down as numpy reshape/transpose
    # (https://onnx.ai/onnx/operators/onnx__DepthToSpace.html), which the snippet follows.
    "numpy": "No order of its own: the reshape and transpose spell out the Order chosen here.",
    # https://einops.rocks/api/rearrange/: the parenthesised group is the composition of axes, major first.
    "einops": "The pattern is the order: (b1 b2 c) is DEPTH_COLUMN_ROW (DCR), (c b1 b2) is COLUMN_ROW_DEPTH (CRD).",
    # https://onnx.ai/onnx/operators/onnx__DepthToSpace.html ("By default, mode = DCR", mode DCR or CRD);
    # https://onnx.ai/onnx/operators/onnx__SpaceToDepth.html (no mode attribute; its reference transposes
    # [0, 3, 5, 1, 2, 4], block position major: DCR).
    "onnx": "DepthToSpace has mode DCR (the default) or CRD; SpaceToDepth has no mode and is always DCR.",
    # https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelShuffle.html: (*, C x r^2, H, W) ->
    # (*, C, H x r, W x r), C the major part of the channel index; PixelUnshuffle is its inverse
    # (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelUnshuffle.html).
    "pytorch": "pixel_shuffle and pixel_unshuffle are COLUMN_ROW_DEPTH (CRD); DCR needs the channels reordered.",
    # https://www.tensorflow.org/api_docs/python/tf/nn/depth_to_space: "The Y, X coordinates within each block
    # ... are determined by the high order component of the input channel index"; space_to_depth likewise
    # (https://www.tensorflow.org/api_docs/python/tf/nn/space_to_depth). data_format defaults to NHWC.
    "tensorflow": "tf.nn.depth_to_space and space_to_depth are DEPTH_COLUMN_ROW (DCR), on NHWC data; CRD needs "
                  "the channels reordered.",
    # https://learn.microsoft.com/windows/win32/api/directml/ne-directml-dml_depth_space_order: the Order field of
    # DML_DEPTH_TO_SPACE1_OPERATOR_DESC and DML_SPACE_TO_DEPTH1_OPERATOR_DESC, either layout.
    "directml": "Order is a field of the descriptor: DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH.",
}
_PYTORCH_PIXEL_SHUFFLE = "https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelShuffle.html"
_PYTORCH_PIXEL_UNSHUFFLE = "https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelUnshuffle.html"
_TF_DEPTH_TO_SPACE = "https://www.tensorflow.org/api_docs/python/tf/nn/depth_to_space"
_TF_SPACE_TO_DEPTH = "https://www.tensorflow.org/api_docs/python/tf/nn/space_to_depth"


@dataclasses.dataclass(frozen=True)
class Snippet:
    """Code for one framework: `code` is None when the framework has no equivalent (the note says why)."""

    framework: str
    language: str  # "python" or "cpp"
    code: str | None
    note: str
    inputs: tuple  # names the code expects bound: ("x",), ("a", "b") or ("xs",)
    result: str  # where the code leaves its result: "y", "ys", "model" or "operatorDesc"
    order: str = ""  # for depth/space operators: which order the framework's own operation uses (ORDER_CONVENTIONS)


@dataclasses.dataclass(frozen=True)
class Call:
    """Checked settings of one operator call (checked_call makes them)."""

    operator: str
    data_type: str
    inputs: tuple  # sizes of each input (bit_or: A's, then B's stored sizes)
    outputs: tuple  # sizes of each output
    block_size: int = 0
    order: str = ""
    axis: int = 0
    split: tuple = ()

    @property
    def dtype(self):
        return numpy_dtype(self.data_type)


def _sizes(value, field, dims=None):
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise DescriptorError(f"{field} {value!r}: expected a list of sizes")
    low, high = dims or (1, 8)
    if not low <= len(value) <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise DescriptorError(f"{field} {list(value)}: {len(value)} dimensions; this operator needs {wanted}")
    sizes = tuple(check_positive_int(s, f"{field}[{i}]") for i, s in enumerate(value))
    check_element_count(sizes, field)
    return sizes


def _check_attrs(operator, attrs, allowed):
    for key in attrs:
        if key not in allowed:
            raise DescriptorError(
                f"{key}: not a setting of {OPERATOR_PREFIX}{operator}; expected {', '.join(allowed) or 'none'}"
            )


def checked_call(op, input_sizes, data_type, attrs):
    """Call with every setting checked against the operator's rules (see framework_snippets for the arguments):
    the sizes and settings are read here, the descriptor they make is then validated as DirectML would at the
    newest feature level."""
    operator = export_operator_name(op)
    data_type = type_name(data_type)
    if operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        _check_attrs(operator, attrs, ("block_size", "order"))
        if "block_size" not in attrs:
            raise DescriptorError(f"block_size: missing setting for {OPERATOR_PREFIX}{operator}")
        sizes = _sizes(input_sizes, "InputTensor Sizes", (4, 4))
        block_size = check_positive_int(attrs["block_size"], "BlockSize")
        shape = depth_to_space_shape if operator == "DEPTH_TO_SPACE1" else space_to_depth_shape
        call = Call(operator, data_type, (sizes,), (shape(sizes, block_size),), block_size,
                    order_name(attrs.get("order", "DEPTH_COLUMN_ROW")))
    elif operator == "ELEMENT_WISE_BIT_OR":
        _check_attrs(operator, attrs, ("b_sizes",))
        a = _sizes(input_sizes, "ATensor Sizes")
        b = _sizes(attrs.get("b_sizes", a), "BTensor Sizes", (1, len(a)))
        b = (1,) * (len(a) - len(b)) + b
        for d, (size_a, size_b) in enumerate(zip(a, b)):
            if size_b not in (1, size_a):
                raise DescriptorError(
                    f"BTensor Sizes {list(b)}: dimension {d} is {size_b}; B reaches ATensor's {size_a} only by "
                    "broadcasting from size 1 (a 0 stride in DirectML)"
                )
        call = Call(operator, data_type, (a, b), (a,))
    elif operator == "SPLIT":
        _check_attrs(operator, attrs, ("axis", "sizes"))
        sizes = _sizes(input_sizes, "InputTensor Sizes")
        axis = check_axis(attrs.get("axis"), len(sizes))
        split = attrs.get("sizes")
        if isinstance(split, (str, bytes)) or not hasattr(split, "__len__") or len(split) == 0:
            raise DescriptorError(f"sizes {split!r}: expected a non-empty list of output sizes along Axis")
        split = tuple(check_positive_int(s, f"OutputTensors[{i}] Sizes[{axis}]") for i, s in enumerate(split))
        outputs = tuple(sizes[:axis] + (s,) + sizes[axis + 1:] for s in split)
        call = Call(operator, data_type, (sizes,), outputs, axis=axis, split=split)
    else:
        _check_attrs(operator, attrs, ("axis",))
        if isinstance(input_sizes, (str, bytes)) or not hasattr(input_sizes, "__len__") or len(input_sizes) == 0:
            raise DescriptorError("InputTensors Sizes: expected a non-empty list of sizes, one per input")
        inputs = tuple(_sizes(s, f"InputTensors[{i}] Sizes") for i, s in enumerate(input_sizes))
        axis = check_axis(attrs.get("axis"), len(inputs[0]))
        split = tuple(s[axis] if len(s) > axis else 0 for s in inputs)
        output = inputs[0][:axis] + (sum(split),) + inputs[0][axis + 1:]
        check_element_count(output, "OutputTensor Sizes")
        call = Call(operator, data_type, inputs, (output,), axis=axis, split=split)
    normalized_dispatchable(_dispatchable(call))
    return call


def _t(sizes):
    """Sizes as Python literal items: (1, 8, 2, 3) -> '1, 8, 2, 3'."""
    return ", ".join(str(s) for s in sizes)


def _bindings(call):
    if call.operator == "ELEMENT_WISE_BIT_OR":
        return ("a", "b")
    return ("xs",) if call.operator == "JOIN" else ("x",)


def _result(call):
    return "ys" if call.operator == "SPLIT" else "y"


def _shape_comment(call):
    if call.operator == "ELEMENT_WISE_BIT_OR":
        a, b = call.inputs
        broadcast = f"; b stored as [{_t(b)}], broadcast" if a != b else ""
        return f"# a, b: {call.data_type} [{_t(a)}]{broadcast}"
    if call.operator == "JOIN":
        return f"# xs: {len(call.inputs)} {call.data_type} arrays " + ", ".join(f"[{_t(s)}]" for s in call.inputs)
    return f"# x: {call.data_type} [{_t(call.inputs[0])}]"


def _title(call):
    if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        return f"{call.operator}, BlockSize {call.block_size}, Order {call.order} ({_ORDER_SHORT[call.order]})"
    if call.operator == "SPLIT":
        return f"SPLIT along Axis {call.axis} into sizes {list(call.split)}"
    if call.operator == "JOIN":
        return f"JOIN along Axis {call.axis}"
    return "ELEMENT_WISE_BIT_OR"


# ---------------------------------------------------------------- numpy


def _depth_space_steps(call):
    """(first reshape, transpose axes, last reshape, comments) of the 6-D route between depth and space."""
    (n, c, h, w), b = call.inputs[0], call.block_size
    dcr = call.order == "DEPTH_COLUMN_ROW"
    if call.operator == "DEPTH_TO_SPACE1":
        c_out = c // (b * b)
        if dcr:
            split, axes, named = (n, b, b, c_out, h, w), (0, 3, 4, 1, 5, 2), "[N, bh, bw, C', H, W]"
        else:
            split, axes, named = (n, c_out, b, b, h, w), (0, 1, 4, 2, 5, 3), "[N, C', bh, bw, H, W]"
        return split, axes, call.outputs[0], (named, "[N, C', H, bh, W, bw]", "[N, C', H*bs, W*bs]")
    split = (n, c, h // b, b, w // b, b)
    if dcr:
        axes, moved = (0, 3, 5, 1, 2, 4), "[N, bh, bw, C, H', W']"
    else:
        axes, moved = (0, 1, 3, 5, 2, 4), "[N, C, bh, bw, H', W']"
    return split, axes, call.outputs[0], ("[N, C, H', bh, W', bw]", moved, "[N, C*bs*bs, H', W']")


def _numpy(call):
    lines = ["import numpy as np", "", f"# {_title(call)}", _shape_comment(call)]
    if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        split, axes, out, named = _depth_space_steps(call)
        lines += [
            f"y = x.reshape({_t(split)})  # {named[0]}",
            f"y = y.transpose({_t(axes)})  # {named[1]}",
            f"y = y.reshape({_t(out)})  # {named[2]}",
        ]
        note = "numpy has no depth/space function: a reshape exposes the block axes, a transpose moves them."
    elif call.operator == "ELEMENT_WISE_BIT_OR":
        bits = f"np.{unsigned_of_width(call.dtype.itemsize)}"
        if call.inputs[0] != call.inputs[1]:
            lines.append("# numpy broadcasts b's size-1 dimensions, as DirectML's 0 strides in BTensor do.")
        if call.data_type in FLOAT_TYPES:
            lines += [
                "# OR the bit patterns: view both as the unsigned integer of the same width, and the result back.",
                f"y = np.bitwise_or(a.view({bits}), b.view({bits})).view(np.{call.dtype})",
            ]
        else:
            lines.append("y = np.bitwise_or(a, b)")
        note = "np.bitwise_or works on integers; floats go through same-width unsigned views, bits unchanged."
    elif call.operator == "SPLIT":
        cuts = np.cumsum(call.split[:-1]).tolist()
        lines += [
            "# np.split takes the cut positions, the running sums of the sizes.",
            f"ys = np.split(x, [{_t(cuts)}], axis={call.axis})",
        ]
        note = "np.split returns views into x; DirectML writes separate output tensors."
    else:
        lines.append(f"y = np.concatenate(xs, axis={call.axis})")
        note = "np.concatenate is JOIN."
    return Snippet("numpy", "python", "\n".join(lines) + "\n", note, _bindings(call), _result(call))


# ---------------------------------------------------------------- einops


def _axis_names(count):
    return [f"d{i}" for i in range(count)]


def _einops(call):
    head = ["from einops import rearrange", "", f"# {_title(call)}", _shape_comment(call)]
    if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        depth = "(b1 b2 c)" if call.order == "DEPTH_COLUMN_ROW" else "(c b1 b2)"
        space = "c (h b1) (w b2)"
        if call.operator == "DEPTH_TO_SPACE1":
            pattern = f"n {depth} h w -> n {space}"
        else:
            pattern = f"n {space} -> n {depth} h w"
        b = call.block_size
        code = head + [f'y = rearrange(x, "{pattern}", b1={b}, b2={b})']
        note = "The pattern is the layout: b1 and b2 are the block row and column, c the channel within the block."
        return Snippet("einops", "python", "\n".join(code) + "\n", note, ("x",), "y")
    if call.operator in ("SPLIT", "JOIN") and len(set(call.split)) == 1:
        names = _axis_names(len(call.inputs[0]))
        merged = " ".join(names[:call.axis] + [f"(k {names[call.axis]})"] + names[call.axis + 1:])
        stacked = f"k {' '.join(names)}"
        if call.operator == "SPLIT":
            code = head + [f'ys = list(rearrange(x, "{merged} -> {stacked}", k={len(call.split)}))']
            note = "einops splits only into equal parts: k pieces stacked on a new first axis, then listed."
            return Snippet("einops", "python", "\n".join(code) + "\n", note, ("x",), "ys")
        code = head + [f'y = rearrange(xs, "{stacked} -> {merged}")']
        note = "einops joins only equal parts: the list is stacked on a new first axis k, which merges into Axis."
        return Snippet("einops", "python", "\n".join(code) + "\n", note, ("xs",), "y")
    if call.operator == "ELEMENT_WISE_BIT_OR":
        why = "einops rearranges, reduces and repeats axes; it has no bitwise operation: see the numpy snippet."
    else:
        why = f"einops has no {call.operator.lower()} of unequal parts ({list(call.split)}): see the numpy snippet."
    return Snippet("einops", "python", None, why, _bindings(call), _result(call))


# ---------------------------------------------------------------- ONNX


def _onnx_graph(call):
    """(node lines, initializer lines, input names with sizes, output names with sizes, opset, IR version, note)."""
    b = call.block_size
    inits = []
    if call.operator == "DEPTH_TO_SPACE1":
        # DepthToSpace's mode attribute is DCR or CRD (https://onnx.ai/onnx/operators/onnx__DepthToSpace.html).
        mode = _ORDER_SHORT[call.order]
        nodes = [f'helper.make_node("DepthToSpace", ["x"], ["y"], blocksize={b}, mode="{mode}")']
        note = f"ONNX DepthToSpace with mode {mode}."
    elif call.operator == "SPACE_TO_DEPTH1" and call.order == "DEPTH_COLUMN_ROW":
        # SpaceToDepth has only blocksize (https://onnx.ai/onnx/operators/onnx__SpaceToDepth.html), and its
        # definition moves the block position major: DCR.
        nodes = [f'helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize={b})']
        note = "ONNX SpaceToDepth has no mode: it is always DEPTH_COLUMN_ROW (DCR)."
    elif call.operator == "SPACE_TO_DEPTH1":
        split, axes, out, _ = _depth_space_steps(call)
        inits = [
            f'numpy_helper.from_array(np.array([{_t(split)}], np.int64), "blocks")',
            f'numpy_helper.from_array(np.array([{_t(out)}], np.int64), "depth")',
        ]
        nodes = [
            "# ONNX SpaceToDepth has only DCR; COLUMN_ROW_DEPTH keeps the block axes behind the channel:",
            'helper.make_node("Reshape", ["x", "blocks"], ["space_blocks"])  # [N, C, H\', bh, W\', bw]',
            f'helper.make_node("Transpose", ["space_blocks"], ["moved"], perm=[{_t(axes)}])'
            "  # [N, C, bh, bw, H', W']",
            'helper.make_node("Reshape", ["moved", "depth"], ["y"])',
        ]
        note = "ONNX SpaceToDepth lacks COLUMN_ROW_DEPTH, so this is the Reshape -> Transpose -> Reshape graph."
    elif call.operator == "ELEMENT_WISE_BIT_OR" and call.data_type in FLOAT_TYPES:
        bits = _ONNX_TYPES[type_name(unsigned_of_width(call.dtype.itemsize))]
        nodes = [
            "# BitwiseOr takes integers only: BitCast reinterprets the float bits (opset 26) and back.",
            f'helper.make_node("BitCast", ["a"], ["a_bits"], to=TensorProto.{bits})',
            f'helper.make_node("BitCast", ["b"], ["b_bits"], to=TensorProto.{bits})',
            'helper.make_node("BitwiseOr", ["a_bits", "b_bits"], ["y_bits"])',
            f'helper.make_node("BitCast", ["y_bits"], ["y"], to=TensorProto.{_ONNX_TYPES[call.data_type]})',
        ]
        note = "ONNX BitwiseOr (opset 18) has no float types; BitCast (opset 26) moves the bits unchanged."
        return nodes, inits, [("a", call.inputs[0]), ("b", call.inputs[1])], [("y", call.outputs[0])], \
            ONNX_BITCAST_OPSET, ONNX_BITCAST_IR_VERSION, note
    elif call.operator == "ELEMENT_WISE_BIT_OR":
        nodes = ['helper.make_node("BitwiseOr", ["a", "b"], ["y"])']
        note = "ONNX BitwiseOr broadcasts b the way numpy does."
        return nodes, inits, [("a", call.inputs[0]), ("b", call.inputs[1])], [("y", call.outputs[0])], \
            ONNX_OPSET, ONNX_IR_VERSION, note
    elif call.operator == "SPLIT":
        outputs = [f"y{i}" for i in range(len(call.outputs))]
        inits = [f'numpy_helper.from_array(np.array([{_t(call.split)}], np.int64), "split")']
        nodes = [f'helper.make_node("Split", ["x", "split"], {outputs}, axis={call.axis})']
        note = "ONNX Split takes the sizes as a second input (opset 13 and later)."
        named_outputs = list(zip(outputs, call.outputs))
        return nodes, inits, [("x", call.inputs[0])], named_outputs, ONNX_OPSET, ONNX_IR_VERSION, note
    else:
        inputs = [f"x{i}" for i in range(len(call.inputs))]
        nodes = [f'helper.make_node("Concat", {inputs}, ["y"], axis={call.axis})']
        note = "ONNX Concat is JOIN."
        return nodes, inits, list(zip(inputs, call.inputs)), [("y", call.outputs[0])], ONNX_OPSET, ONNX_IR_VERSION, note
    return nodes, inits, [("x", call.inputs[0])], [("y", call.outputs[0])], ONNX_OPSET, ONNX_IR_VERSION, note


def _onnx(call):
    nodes, inits, inputs, outputs, opset, ir_version, note = _onnx_graph(call)
    element = f"TensorProto.{_ONNX_TYPES[call.data_type]}"

    def listed(items):
        """List items one a line with their commas, comments kept after them."""
        lines = []
        for item in items:
            code, _, comment = item.partition("  # ")
            line = "    " + (code if code.startswith("#") else code + ",")
            lines.append(line + (f"  # {comment}" if comment else ""))
        return lines

    if call.operator == "JOIN":
        feeds = "{f\"x{i}\": part for i, part in enumerate(xs)}"
    else:
        feeds = "{" + ", ".join(f'"{name}": {name}' for name, _ in inputs) + "}"
    run = "session.run(None, feeds)" + ("" if call.operator == "SPLIT" else "[0]")
    imports = ["import numpy as np"] if inits else []
    imports += ["import onnx", "import onnxruntime as ort"]
    imports.append("from onnx import TensorProto, helper" + (", numpy_helper" if inits else ""))
    lines = [
        *imports,
        "",
        f"# {_title(call)}",
        _shape_comment(call),
        "nodes = [",
        *listed(nodes),
        "]",
        *(["initializers = [", *listed(inits), "]"] if inits else ["initializers = []"]),
        "graph = helper.make_graph(",
        "    nodes,",
        f'    "{call.operator.lower()}",',
        "    [" + ", ".join(f'helper.make_tensor_value_info("{n}", {element}, [{_t(s)}])' for n, s in inputs) + "],",
        "    [" + ", ".join(f'helper.make_tensor_value_info("{n}", {element}, [{_t(s)}])' for n, s in outputs) + "],",
        "    initializer=initializers,",
        ")",
        f'model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", {opset})], ir_version={ir_version})',
        "onnx.checker.check_model(model)",
        "",
        'session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])',
        f"feeds = {feeds}",
        f"{_result(call)} = {run}",
    ]
    native_node = call.operator == "DEPTH_TO_SPACE1" or (
        call.operator == "SPACE_TO_DEPTH1" and call.order == "DEPTH_COLUMN_ROW"
    )
    if native_node and call.data_type not in ORT_CPU_DEPTH_SPACE_TYPES:
        note += (
            f" ONNX Runtime's CPU provider has no DepthToSpace/SpaceToDepth kernel for {call.data_type} (measured with "
            "onnxruntime 1.31.1, SPEC section 8): the model is valid ONNX, but run it as the same-width "
            "integer type there (ops.cross_check does)."
        )
    if native_node and call.data_type == "FLOAT16":
        note += (
            " ONNX Runtime's CPU FLOAT16 kernel does not keep NaN bit patterns (measured with onnxruntime 1.32.0: "
            "signalling 0x7C01 came back as 0x7E01, quiet 0xFF49 as 0xFE00); ops.cross_check moves FLOAT16 as bytes "
            "for that reason."
        )
    return Snippet("onnx", "python", "\n".join(lines) + "\n", note, _bindings(call), _result(call))


# Measured with onnxruntime 1.31.1's CPU provider (SPEC section 8, ops/runtime/cross_check.py).
ORT_CPU_DEPTH_SPACE_TYPES = ("FLOAT64", "FLOAT32", "FLOAT16", "INT8", "UINT8")


# ---------------------------------------------------------------- PyTorch


# torch 2.13.0's CPU pixel_shuffle and pixel_unshuffle have no kernel for uint16/32/64 (measured here: "not implemented
# for 'UInt32'"); the same bits move as the signed type of the same width.
_TORCH_UNSIGNED = {"UINT16": "int16", "UINT32": "int32", "UINT64": "int64"}


def _pytorch(call):
    signed = _TORCH_UNSIGNED.get(call.data_type) if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1") else None
    lines = (["import numpy as np"] if signed else []) + ["import torch", "", f"# {_title(call)}", _shape_comment(call)]
    if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        c, b = call.inputs[0][1], call.block_size
        if signed:
            lines += [
                f"# torch has no pixel_(un)shuffle kernel for {call.data_type.lower()}: the same bits move as {signed}",
                f"t = torch.from_numpy(x.view(np.{signed}))",
            ]
        else:
            lines.append("t = torch.from_numpy(x)")
        back = f".view(np.{call.dtype})" if signed else ""
        if call.operator == "DEPTH_TO_SPACE1":
            lines.append(
                f"# pixel_shuffle is COLUMN_ROW_DEPTH: (*, C*r^2, H, W) -> (*, C, H*r, W*r), {_PYTORCH_PIXEL_SHUFFLE}"
            )
            if call.order == "DEPTH_COLUMN_ROW":
                c_out = c // (b * b)
                lines += [
                    "# Reading the channels in this order first makes it DEPTH_COLUMN_ROW",
                    f'# (ops.channel_permutation({c}, {b}, "DCR", "CRD")):',
                    f"order = torch.arange({c}).reshape({b}, {b}, {c_out}).permute(2, 0, 1).flatten()",
                    "t = t[:, order]",
                ]
            lines.append(f"y = torch.nn.functional.pixel_shuffle(t, {b}).numpy(){back}")
            dcr = call.order == "DEPTH_COLUMN_ROW"
            note = "pixel_shuffle is CRD" + ("; DCR needs the channels reordered first." if dcr else ".")
        else:
            depth = c * b * b
            lines += [f"# pixel_unshuffle is its inverse, so COLUMN_ROW_DEPTH too: {_PYTORCH_PIXEL_UNSHUFFLE}",
                      f"t = torch.nn.functional.pixel_unshuffle(t, {b})"]
            if call.order == "DEPTH_COLUMN_ROW":
                lines += [
                    "# Reordering its output channels makes it DEPTH_COLUMN_ROW",
                    f'# (ops.channel_permutation({depth}, {b}, "CRD", "DCR")):',
                    f"order = torch.arange({depth}).reshape({c}, {b}, {b}).permute(1, 2, 0).flatten()",
                    "t = t[:, order]",
                ]
            lines.append(f"y = t.numpy(){back}")
            dcr = call.order == "DEPTH_COLUMN_ROW"
            note = "pixel_unshuffle is CRD" + ("; DCR needs its output channels reordered." if dcr else ".")
    elif call.operator == "ELEMENT_WISE_BIT_OR":
        if call.data_type in FLOAT_TYPES:
            bits = f"torch.{unsigned_of_width(call.dtype.itemsize)}"
            lines += [
                "# bitwise_or takes integers: view the float bits as the unsigned type of the same width, and back.",
                f"bits = torch.bitwise_or(torch.from_numpy(a).view({bits}), torch.from_numpy(b).view({bits}))",
                f"y = bits.view(torch.{call.dtype}).numpy()",
            ]
        else:
            lines.append("y = torch.bitwise_or(torch.from_numpy(a), torch.from_numpy(b)).numpy()")
        note = "torch.bitwise_or broadcasts b; floats go through Tensor.view(dtype), which keeps the bits."
    elif call.operator == "SPLIT":
        parts = f"torch.split(torch.from_numpy(x), [{_t(call.split)}], dim={call.axis})"
        lines.append(f"ys = [part.numpy() for part in {parts}]")
        note = "torch.split with a list of sizes is SPLIT."
    else:
        lines.append(f"y = torch.cat([torch.from_numpy(part) for part in xs], dim={call.axis}).numpy()")
        note = "torch.cat is JOIN."
    return Snippet("pytorch", "python", "\n".join(lines) + "\n", note, _bindings(call), _result(call))


# ---------------------------------------------------------------- TensorFlow


def _tensorflow(call):
    depth_space = call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1")
    reorders = depth_space and call.order == "COLUMN_ROW_DEPTH" and call.block_size > 1
    lines = ["import numpy as np"] if reorders else []
    lines += ["import tensorflow as tf", "", f"# {_title(call)}", _shape_comment(call)]
    if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1") and call.block_size == 1:
        # TensorFlow's DepthToSpace and SpaceToDepth ops declare block_size min=2 (measured: "Value for attr
        # 'block_size' of 1 must be at least minimum 2", TensorFlow 2.21).
        lines += ["# TensorFlow refuses block_size 1 (its ops need at least 2); BlockSize 1 moves nothing.",
                  "y = tf.identity(x).numpy()"]
        note = "BlockSize 1 is the identity, which TensorFlow's depth/space ops refuse to be asked for."
    elif call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        c, b = call.inputs[0][1], call.block_size
        # TensorFlow 2.21's CPU kernels refuse data_format="NCHW" ("Could not find device for node", measured here).
        lines.append("# TensorFlow's CPU kernel takes NHWC only: transpose NCHW to NHWC and back.")
        if call.operator == "DEPTH_TO_SPACE1":
            lines += [
                "# tf.nn.depth_to_space is DEPTH_COLUMN_ROW: the block position is the high-order part of the channel",
                f"# index ({_TF_DEPTH_TO_SPACE}).",
            ]
            if call.order == "COLUMN_ROW_DEPTH":
                c_out = c // (b * b)
                lines += [
                    "# Reading the channels in this order first makes it COLUMN_ROW_DEPTH",
                    f'# (ops.channel_permutation({c}, {b}, "CRD", "DCR")):',
                    f"order = np.arange({c}).reshape({c_out}, {b}, {b}).transpose(1, 2, 0).ravel()",
                    "x = tf.gather(x, order, axis=1)",
                ]
            nhwc = f"tf.nn.depth_to_space(tf.transpose(x, [0, 2, 3, 1]), {b})"
            lines.append(f"y = tf.transpose({nhwc}, [0, 3, 1, 2]).numpy()")
            crd = call.order == "COLUMN_ROW_DEPTH"
            note = "tf.nn.depth_to_space is DCR on NHWC" + ("; CRD needs the channels reordered first." if crd else ".")
        else:
            depth = c * b * b
            lines += [
                "# tf.nn.space_to_depth is DEPTH_COLUMN_ROW: the block position becomes the high-order part of the",
                f"# channel index ({_TF_SPACE_TO_DEPTH}).",
                f"y = tf.transpose(tf.nn.space_to_depth(tf.transpose(x, [0, 2, 3, 1]), {b}), [0, 3, 1, 2])",
            ]
            if call.order == "COLUMN_ROW_DEPTH":
                lines += [
                    "# Reordering its output channels makes it COLUMN_ROW_DEPTH",
                    f'# (ops.channel_permutation({depth}, {b}, "DCR", "CRD")):',
                    f"order = np.arange({depth}).reshape({b}, {b}, {c}).transpose(2, 0, 1).ravel()",
                    "y = tf.gather(y, order, axis=1)",
                ]
            lines.append("y = y.numpy()")
            crd = call.order == "COLUMN_ROW_DEPTH"
            reorder = "; CRD needs its output channels reordered." if crd else "."
            note = "tf.nn.space_to_depth is DCR on NHWC" + reorder
    elif call.operator == "ELEMENT_WISE_BIT_OR":
        lines.append("b = tf.broadcast_to(b, a.shape)  # DirectML's 0 strides, spelled out")
        if call.data_type in FLOAT_TYPES:
            bits = f"tf.{unsigned_of_width(call.dtype.itemsize)}"
            lines += [
                "# tf.bitwise takes integers: tf.bitcast to the unsigned type of the same width keeps the bits.",
                f"ored = tf.bitwise.bitwise_or(tf.bitcast(a, {bits}), tf.bitcast(b, {bits}))",
                f"y = tf.bitcast(ored, tf.{call.dtype}).numpy()",
            ]
        else:
            lines.append("y = tf.bitwise.bitwise_or(a, b).numpy()")
        note = "tf.bitwise.bitwise_or on integers; floats through tf.bitcast."
    elif call.operator == "SPLIT":
        lines.append(f"ys = [part.numpy() for part in tf.split(x, [{_t(call.split)}], axis={call.axis})]")
        note = "tf.split with a list of sizes is SPLIT."
    else:
        lines.append(f"y = tf.concat(xs, axis={call.axis}).numpy()")
        note = "tf.concat is JOIN."
    return Snippet("tensorflow", "python", "\n".join(lines) + "\n", note, _bindings(call), _result(call))


# ---------------------------------------------------------------- DirectML


def _dispatchable(call):
    """The DxDispatch dispatchable (dict) of a checked call; B's broadcast as 0 strides."""
    def tensor(sizes, strides=None):
        desc = {"DataType": call.data_type, "Sizes": list(sizes)}
        if strides is not None:
            desc["Strides"] = list(strides)
        return desc

    desc = {}
    if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        desc = {"InputTensor": tensor(call.inputs[0]), "OutputTensor": tensor(call.outputs[0]),
                "BlockSize": call.block_size, "Order": call.order}
    elif call.operator == "ELEMENT_WISE_BIT_OR":
        a, b = call.inputs
        strides = None
        if a != b:
            packed = np.cumprod((1,) + b[:0:-1])[::-1].tolist()
            strides = [0 if size_b == 1 and size_a > 1 else step for size_a, size_b, step in zip(a, b, packed)]
        desc = {"ATensor": tensor(a), "BTensor": tensor(a, strides), "OutputTensor": tensor(a)}
    elif call.operator == "SPLIT":
        desc = {"InputTensor": tensor(call.inputs[0]), "OutputCount": len(call.outputs),
                "OutputTensors": [tensor(s) for s in call.outputs], "Axis": call.axis}
    else:
        desc = {"InputCount": len(call.inputs), "InputTensors": [tensor(s) for s in call.inputs],
                "OutputTensor": tensor(call.outputs[0]), "Axis": call.axis}
    return {"type": OPERATOR_PREFIX + call.operator, "desc": desc}


def _directml(call):
    note = "The descriptor itself, as C++ filling DML_BUFFER_TENSOR_DESCs and the operator desc"
    if call.operator == "ELEMENT_WISE_BIT_OR" and call.inputs[0] != call.inputs[1]:
        note += "; B's broadcast is its 0 strides"
    return Snippet("directml", "cpp", cpp_snippet(_dispatchable(call)), note + ".", (), "operatorDesc")


_GENERATORS = {"numpy": _numpy, "einops": _einops, "onnx": _onnx, "pytorch": _pytorch,
               "tensorflow": _tensorflow, "directml": _directml}


def framework_snippets(op, input_sizes, data_type="FLOAT32", **settings):
    """One Snippet per framework (FRAMEWORKS order) computing what the DirectML operator computes.

    op: DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 (settings block_size, order), ELEMENT_WISE_BIT_OR (b_sizes: B's stored
    sizes, broadcast to A's, default A's), SPLIT (axis, sizes: the outputs' sizes along axis) or JOIN (axis;
    input_sizes is then a list of sizes, one per input); core names (depth_to_space, ...) work too. input_sizes are
    the (first) input's sizes. Invalid settings raise DescriptorError before any code is generated.
    """
    call = checked_call(op, input_sizes, data_type, settings)
    snippets = [_GENERATORS[name](call) for name in FRAMEWORKS]
    if call.operator in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        snippets = [dataclasses.replace(s, order=ORDER_CONVENTIONS[s.framework]) for s in snippets]
    return snippets
