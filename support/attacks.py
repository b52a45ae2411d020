"""Hostile inputs the tests and the benchmark make (never stored as files)."""

import json

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


# ---------------------------------------------------------------- DxDispatch models DirectML must never compute


def directml_model(operator, desc, tensors, activations=None):
    """A DxDispatch model dispatching `operator` once: `desc` its fields, `tensors` {field: (DataType, Sizes,
    Strides or None)}, each bound to a resource holding exactly what the tensor reads (zero strides: one element)."""
    resources, bindings = {}, {}
    for field, (data_type, sizes, strides) in tensors.items():
        span = 1 + sum((s - 1) * d for s, d in zip(sizes, strides)) if strides is not None else int(np.prod(sizes))
        resources[field.lower()] = {"initialValuesDataType": data_type,
                                    "initialValues": {"valueCount": span, "value": 0}}
        desc[field] = {"DataType": data_type, "Sizes": list(sizes), **({"Strides": list(strides)} if strides else {})}
        bindings[field] = field.lower()
    if activations is not None:
        desc["ActivationDescCount"], desc["ActivationDescs"] = len(activations), activations
    return json.dumps({"resources": resources,
                       "dispatchables": {"d": {"type": f"DML_OPERATOR_{operator}", "desc": desc}},
                       "commands": [{"type": "dispatch", "dispatchable": "d", "bindings": bindings}]})


def broadcast(data_type, sizes):
    """A tensor of `sizes` reading one element (every stride 0): its buffer is 4 bytes whatever its Sizes."""
    return data_type, sizes, [0] * len(sizes)


def gemm_bomb(n=4096):
    """An n x n x n GEMM on broadcast tensors: n^3 multiply-adds from buffers of one element each."""
    square = broadcast("FLOAT32", [1, 1, n, n])
    return directml_model("GEMM", {"TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0},
                          {"ATensor": square, "BTensor": square, "OutputTensor": square})


def convolution_bomb(channels=1024, side=256):
    """A 3 x 3 convolution of `channels` to `channels` over side x side, every tensor broadcast."""
    plane = broadcast("FLOAT32", [1, channels, side, side])
    desc = {"Mode": "CROSS_CORRELATION", "Direction": "FORWARD", "DimensionCount": 2, "Strides": [1, 1],
            "Dilations": [1, 1], "StartPadding": [1, 1], "EndPadding": [1, 1], "OutputPadding": [0, 0],
            "GroupCount": 1}
    return directml_model("CONVOLUTION", desc, {"InputTensor": plane, "OutputTensor": plane,
                                                "FilterTensor": broadcast("FLOAT32", [channels, channels, 3, 3])})


def rnn_bomb(steps=10**7):
    """An RNN of `steps` time steps (DirectML runs them one after another) over a broadcast sequence."""
    one = ("FLOAT32", [1, 1, 1, 1], None)
    return directml_model("RNN", {"Direction": "FORWARD"},
                          {"InputTensor": broadcast("FLOAT32", [1, steps, 1, 1]), "WeightTensor": one,
                           "RecurrenceTensor": one, "OutputSingleTensor": one},
                          activations=[{"Type": "ACTIVATION_TANH"}])


def fill_bomb(elements=2**34):
    """FILL_VALUE_SEQUENCE writing `elements` values into a broadcast output."""
    return directml_model("FILL_VALUE_SEQUENCE", {"ValueDataType": "FLOAT32", "ValueStart": 0, "ValueDelta": 1},
                          {"OutputTensor": broadcast("FLOAT32", [elements // 65536, 256, 256, 1])})


def short_array():
    """A convolution whose Strides hold one element where DimensionCount says 2: DirectML would read past it."""
    plane = ("FLOAT32", [1, 1, 4, 4], None)
    desc = {"Mode": "CROSS_CORRELATION", "Direction": "FORWARD", "DimensionCount": 2, "Strides": [1],
            "Dilations": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0], "OutputPadding": [0, 0],
            "GroupCount": 1}
    return directml_model("CONVOLUTION", desc, {"InputTensor": plane, "OutputTensor": ("FLOAT32", [1, 1, 3, 3], None),
                                                "FilterTensor": ("FLOAT32", [1, 1, 2, 2], None)})


def nested_activations(depth=20_000):
    """ADD1's fused activation holding a fused activation, `depth` deep (no activation has one: each level is an
    unknown field, and the nesting is what a parser must survive)."""
    plane = ("FLOAT32", [1, 1, 2, 2], None)
    text = directml_model("ELEMENT_WISE_ADD1", {"FusedActivation": "NESTED"},
                          {"ATensor": plane, "BTensor": plane, "OutputTensor": plane})
    nested = '{"Type": "ACTIVATION_RELU", "FusedActivation": ' * depth + "null" + "}" * depth
    return text.replace('"NESTED"', nested)


def activation_array(count=30_000):
    """An RNN whose ActivationDescs hold `count` activations (it takes one per direction)."""
    one = ("FLOAT32", [1, 1, 1, 1], None)
    return directml_model("RNN", {"Direction": "FORWARD"},
                          {"InputTensor": one, "WeightTensor": one, "RecurrenceTensor": one,
                           "OutputSingleTensor": one}, activations=[{"Type": "ACTIVATION_TANH"}] * count)


def above_level():
    """MEAN_VARIANCE_NORMALIZATION2, introduced in feature level 6_3, after this DirectML build's 6_2."""
    plane = ("FLOAT32", [1, 1, 2, 2], None)
    desc = {"AxisCount": 1, "Axes": [3], "UseMean": True, "UseVariance": True, "Epsilon": 0.001}
    return directml_model("MEAN_VARIANCE_NORMALIZATION2", desc, {"InputTensor": plane, "OutputTensor": plane})


HOSTILE_MODELS = {"GEMM 4096^3 on broadcast tensors": gemm_bomb, "convolution 1024 -> 1024 channels, 256 x 256":
                  convolution_bomb, "RNN of 10^7 steps": rnn_bomb, "FILL_VALUE_SEQUENCE of 2^34 elements": fill_bomb,
                  "Strides shorter than DimensionCount": short_array,
                  "fused activations nested 20,000 deep": nested_activations,
                  "RNN with 30,000 activations": activation_array, "an operator of feature level 6_3": above_level}


def shape_fan(fan, levels=3):
    """Issue 31's 2-4 KB model that costs gigabytes: Shape(x), then `levels` Concat nodes each taking the previous
    output `fan` times (fan^levels times the shape's 4 values when shape inference propagates them), and one
    DepthToSpace so that the page has a node to list."""
    nodes = [helper.make_node("Shape", ["x"], ["s0"])]
    for level in range(1, levels + 1):
        nodes.append(helper.make_node("Concat", [f"s{level - 1}"] * fan, [f"s{level}"], axis=0))
    nodes.append(helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2))
    return model(nodes, [value("x", [1, 4, 2, 2])], [value("y", [1, 1, 4, 4])])


# ---------------------------------------------------------------- issue 31: the workbench


def _compact(model):
    return json.dumps(model, separators=(",", ":"))


def identity_resource(count=1, extra=None):
    """A DxDispatch resource of `count` FLOAT32 values, with `extra` fields DxDispatch ignores."""
    return {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": count, "value": 0}, **(extra or {})}


def unknown_fields_model(resources, fields):
    """A model of `resources` resources of `fields` fields DxDispatch ignores each (issue 31: 8,900 x 8 packed into a
    33 KB link sent 44,825 messages, one element per ignored field, until Streamlit dropped the client)."""
    resource = {"initialValuesDataType": "FLOAT32", "initialValues": [0], **{chr(97 + k): 0 for k in range(fields)}}
    return _compact({"resources": {str(i): resource for i in range(resources)},
                     "dispatchables": {}, "commands": []})


def unknown_keys_model(keys):
    """A model with `keys` top-level keys DxDispatch ignores (issue 31: 90,000 pasted cost 12 s and 37,725
    messages)."""
    model = {"resources": {"r": identity_resource()}, "dispatchables": {}, "commands": []}
    model.update({str(i): 0 for i in range(keys)})
    return _compact(model)


def many_dispatches_model(dispatches):
    """A model of `dispatches` identity dispatches on one small tensor (issue 31: 4,096 of them, a 3.9 KB link)."""
    desc = {"DataType": "FLOAT32", "Sizes": [1, 1, 16, 16]}
    return _compact({
        "resources": {"a": identity_resource(256), "b": identity_resource(256)},
        "dispatchables": {"copy": {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY",
                                   "desc": {"InputTensor": desc, "OutputTensor": desc}}},
        "commands": [{"type": "dispatch", "dispatchable": "copy",
                      "bindings": {"InputTensor": "a", "OutputTensor": "b"}}] * dispatches})


# ---------------------------------------------------------------- issue 31: links whose estimate was too light


def many_parts_split(parts):
    """A Split link of `parts` parts of one element each (issue 31: 5,000-5,900 distinct, eight visitors)."""
    return f"sj_sizes=1,1,{parts},1&sj_mode=even&sj_parts={parts}&pattern=random&seed={parts}"


def wide_depth_space(width):
    """A Depth <-> Space link of FLOAT32 {1, 64, 256, width} (issue 31: estimated at 0.3 s, distinct widths)."""
    return f"dtype=FLOAT32&C=64&H=256&W={width}"


# ---------------------------------------------------------------- issue 31's attackers, as visit plans


def issue31_plans():
    """{attack: [one visit plan per attacker]} of issue 31's attacks on a served app (support.visitor's plans:
    lists of (page, query[, widgets]))."""
    from app_pages.workbench.settings import LINK_CODEC

    def pasted(text):
        return ("workbench", "wb_source=Paste+JSON", {"wb_text": text})

    def upload(data, name="model.onnx"):
        return ("onnx_model", "onx_source=upload", {"onx_upload": (name, data)})

    link = "wb_source=Paste+JSON&wb_text=" + LINK_CODEC.encode(unknown_fields_model(8900, 8))
    dispatches = "wb_source=Paste+JSON&wb_tab=Run&wb_text=" + LINK_CODEC.encode(many_dispatches_model(4096))
    widths = iter(range(480, 560))
    parts = iter(range(5000, 5900, 23))
    return {
        "no attack: the class alone": [],
        "ONNX Shape->Concat fan 150 (2 KB)": [[upload(shape_fan(150))]],
        "ONNX Shape->Concat fan 250 (3.2 KB), twice at once": [[upload(shape_fan(250), f"fan{i}.onnx")]
                                                              for i in range(2)],
        "wb_text link: 8,900 resources x 8 unknown fields (33 KB)": [[("workbench", link)]],
        "pasted model: 90,000 unknown keys (0.9 MB)": [[pasted(unknown_keys_model(90_000))]],
        "pasted text of 20 MB": [[pasted(" " * 20_000_000)]],
        "Split: 8 visitors x 5 distinct N of 5,000-5,900 parts": [
            [("split_join", many_parts_split(next(parts))) for _ in range(5)] for _ in range(8)],
        "Depth: 8 visitors x 5 distinct W, C=64 H=256": [
            [("depth_space", wide_depth_space(next(widths))) for _ in range(5)] for _ in range(8)],
        "workbench link of 4,096 dispatches (2 KB), 4 visitors": [[("workbench", dispatches)] for _ in range(4)],
    }


# What ops.run_model(model, runtime="directml") says of each, before the worker is asked.
WORK = "past the 10,000,000,000 one DirectML call may take here (the work budget)"
REFUSALS = {
    gemm_bomb: "DML_OPERATOR_GEMM: about 68,769,808,384 element operations (by its gemm formula), " + WORK,
    convolution_bomb: "DML_OPERATOR_CONVOLUTION: about 618,618,945,536 element operations",
    rnn_bomb: "DML_OPERATOR_RNN: about 10,001,290,000,003 element operations (by its recurrent formula)",
    fill_bomb: "OutputTensor.Sizes: Sizes [262144, 256, 256, 1]: 17,179,869,184 elements exceed 2^32-1",
    short_array: "Strides has 1 element(s) but DimensionCount is 2",
    nested_activations: "model nesting is deeper than 32 levels",
    activation_array: "RNN.ActivationDescs: 30,000 elements; at most 16,384 are sent to DirectML",
    above_level: "MEAN_VARIANCE_NORMALIZATION2 was introduced in feature level 6_3; this DirectML build "
                 "supports feature levels up to 6_2",
}
