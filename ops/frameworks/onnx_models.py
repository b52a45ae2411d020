"""Opening an uploaded ONNX model: its nodes of the ONNX operators the registry's operators map to (DepthToSpace,
SpaceToDepth, the Bitwise operators, BitShift, Split, Concat: OPERATOR_NODES) as DirectML settings, the constructions
known to go wrong, and one node cross-checked on ONNX Runtime.

An uploaded model is untrusted: it is read from bytes under a size cap, a model whose tensors live in external
files is refused (loading them would open paths the model names), as is any node outside the standard ONNX
domain (custom operators run code the project does not know). Nothing in the model is executed except one
extracted node, by ONNX Runtime.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence

import numpy as np

from ..datatypes import numpy_dtype, type_name
from ..detective.identify import identify
from ..errors import DescriptorError
from ..guard import check_element_count
from ..isolated import run_limited
from ..operators import OPERATORS, Call
from ..operators.depth_space import DEPTH_TO_SPACE1, DIRECTIONS, SPACE_TO_DEPTH1
from ..operators.depth_space import OPERATORS as DEPTH_SPACE_OPERATORS
from ..runtime.onnxruntime_check import _options, _runtime, select_provider
from ..runtime.report import CrossCheckReport, compare_outputs, first_line
from .onnx_census import census

# 16 MB as a browser counts megabytes outside Windows (10^6 bytes; Streamlit's uploader, utils.ts): a file the
# upload box admits is what the app opens, and the server's own limit (server.maxUploadSize, 16 MiB) is above both.
ONNX_BYTE_CAP = 16 * 10**6
# What parsing costs is counted from the wire format before parsing (onnx_census): about 150 bytes a field to parse,
# as much again in the checker's copy. Real models under the byte cap hold a few thousand nodes.
MAX_NODES = 30_000
MAX_FIELDS = 300_000
FIELD_BYTES = 600  # held per field at most while checking: parsed, the checker's copy, shape inference's two
PARSE_FIELD_BYTES = 150  # held per field by the parsed model the listing reads
# The checker and shape inference run in a child process (ops.isolated) within these limits: memory beyond its
# start (a small model's inference holds a few MB; a Shape -> Concat fan of 2 KB asked for 1.1 GB), CPU time and a
# wall-clock deadline (a model under the caps was checked and inferred in under a second).
CHILD_FLOOR = 64 << 20
CHILD_CPU_SECONDS = 10
CHILD_WALL_SECONDS = 30
CHILD_FUNCTION = "ops.frameworks.onnx_isolated:check_and_infer"
STANDARD_DOMAINS = ("", "ai.onnx")
# The ONNX operators whose nodes are listed: each registered operator's ONNX form, where its frameworks read one.
# Operators sharing an ONNX operator (BitShift, LEFT or RIGHT) are told apart by their onnx_attributes.
def _listed_operators():
    nodes = {}
    for op in OPERATORS.values():
        if op.frameworks and op.frameworks.from_onnx:
            nodes.setdefault(op.onnx, []).append(op)
    return nodes


OPERATOR_NODES = _listed_operators()
# Reshape -> Transpose -> Reshape chains are traced on an index tensor of this many elements at most, and all of a
# model's chains on this many together (a 13 KB model of 100 chains at the cap took 30 s); identical chains once.
TRACE_CAP = 2**22
TRACE_BUDGET = 2**24
# A model-wide risk names at most this many of the nodes it concerns (every DCR node named every CRD node:
# 20,000 nodes of each added 1.25 GB of text).
NAMED_NODES = 5
# What exporters leave in node names and metadata (torch.onnx: node names such as "/ps/DepthToSpace" or
# "node_pixel_shuffle", metadata "pkg.torch.onnx.class_hierarchy" naming torch.nn.modules.pixelshuffle.PixelShuffle;
# seen here with torch 2.13.0 and onnxscript 0.7.2).
_PIXEL_SHUFFLE = re.compile(r"pixel_?shuffle", re.IGNORECASE)
_PIXEL_UNSHUFFLE = re.compile(r"pixel_?unshuffle", re.IGNORECASE)


@dataclasses.dataclass
class ModelNode:
    """One node of the model's main graph whose ONNX operator is listed (OPERATOR_NODES).

    settings: the DirectML operator's settings as a plain dict for the operator page's URL ({"operator", "DataType"
    and, per operator, "Sizes", "BlockSize", "Order", "ASizes", "BSizes", "Axis", "AxisSizes", "InputSizes"}), or
    None when the node has no DirectML equivalent here (`problem` says why: unknown shapes, a type DirectML lacks).
    """

    index: int
    name: str
    op_type: str
    inputs: list
    outputs: list
    input_shapes: list  # per input: a list of sizes (int, or str for a symbolic dimension, None unknown), or None
    input_types: list  # per input: a DirectML type name, or the ONNX type name when DirectML has none, or None
    attributes: dict
    settings: dict | None
    problem: str | None
    risks: list
    call: Call | None = None  # the registry's call the settings describe (None with them)
    stored: tuple | None = None  # each input's sizes as stored (a broadcast input is smaller than the call's)


@dataclasses.dataclass
class Rearrangement:
    """A Reshape -> Transpose -> Reshape chain between 4-D tensors, traced with the layout detective."""

    indices: list  # graph.node positions of the three nodes
    names: list
    input: str
    output: str
    settings: dict | None  # the DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 it computes, else None
    note: str
    risks: list
    call: Call | None = None  # the same as the registry's call

@dataclasses.dataclass
class OnnxModelReport:
    nodes: list  # ModelNode
    rearrangements: list  # Rearrangement
    opset: int
    ir_version: int
    producer: str
    node_count: int
    notes: list
    model: object = dataclasses.field(repr=False)  # the parsed onnx.ModelProto, as uploaded
    infos: dict = dataclasses.field(repr=False, default_factory=dict)  # value name -> (type, sizes), inferred


# ---------------------------------------------------------------- reading and refusing


def _parse(data, max_bytes):
    import onnx
    from google.protobuf.message import DecodeError

    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise DescriptorError(f"model: expected the bytes of an .onnx file, got {type(data).__name__}")
    if len(data) > max_bytes:
        raise DescriptorError(f"model: {len(data):,} bytes exceed the cap of {max_bytes:,} bytes for an .onnx upload")
    census(data, MAX_FIELDS, MAX_NODES)
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, ValueError, RuntimeError) as error:
        raise DescriptorError(f"model: not an ONNX model (the bytes do not parse as a ModelProto: {error})") from None
    if model.ir_version < 1 or not model.opset_import or not model.graph.node:
        raise DescriptorError(
            "model: not an ONNX model (no IR version, opset import or graph node; a protobuf parser reads "
            "almost any bytes, so this is what arbitrary data looks like)"
        )
    return model


def _graphs(model):
    """(where, graph) for the main graph, every subgraph in attributes, training graphs and function bodies."""
    pending = [("graph", model.graph)]
    pending += [(f"training_info[{i}].{k}", getattr(t, k)) for i, t in enumerate(model.training_info)
                for k in ("initialization", "algorithm")]
    while pending:
        where, graph = pending.pop(0)
        yield where, graph
        for node in graph.node:
            for attribute in node.attribute:
                label = f"{where} node {node.name or node.op_type} attribute {attribute.name}"
                if attribute.HasField("g"):
                    pending.append((label, attribute.g))
                pending += [(label, g) for g in attribute.graphs]


def _tensors(model):
    """(where, TensorProto) for every tensor stored in the model."""
    for where, graph in _graphs(model):
        for tensor in graph.initializer:
            yield f"{where} initializer {tensor.name!r}", tensor
        for sparse in graph.sparse_initializer:
            yield f"{where} sparse initializer {sparse.values.name!r}", sparse.values
            yield f"{where} sparse initializer {sparse.values.name!r} indices", sparse.indices
        for node in graph.node:
            for attribute in node.attribute:
                label = f"{where} node {node.name or node.op_type} attribute {attribute.name}"
                if attribute.HasField("t"):
                    yield label, attribute.t
                yield from ((label, t) for t in attribute.tensors)
                if attribute.HasField("sparse_tensor"):
                    yield label, attribute.sparse_tensor.values
                yield from ((label, s.values) for s in attribute.sparse_tensors)


def _all_nodes(model):
    for where, graph in _graphs(model):
        for node in graph.node:
            yield where, node
    for function in model.functions:
        for node in function.node:
            yield f"function {function.domain}:{function.name}", node


def _refuse_unsafe(model):
    from onnx import TensorProto

    for where, tensor in _tensors(model):
        if tensor.data_location == TensorProto.EXTERNAL or len(tensor.external_data):
            location = next((e.value for e in tensor.external_data if e.key == "location"), None)
            named = f" (location {location!r})" if location else ""
            raise DescriptorError(
                f"model: {where} keeps its data in an external file{named}; external data is refused: "
                "an uploaded model may not make the app open files it names (save the model with its weights inside)"
            )
    for where, node in _all_nodes(model):
        if node.domain not in STANDARD_DOMAINS:
            raise DescriptorError(
                f"model: {where} node {node.name or node.op_type!r} is {node.domain}:{node.op_type}; custom domains "
                "are refused: only the standard ONNX domain ('' or 'ai.onnx') is opened, since custom operators "
                "run code this app does not know"
            )


def child_bytes(data):
    """The memory the child process checking and inferring the model's shapes may use (its RLIMIT_AS beyond what it
    starts with): the checker's and shape inference's copies of the model, counted from its wire format."""
    counted = census(bytes(data), MAX_FIELDS, MAX_NODES)
    return CHILD_FLOOR + 4 * len(data) + FIELD_BYTES * counted.fields


def open_bytes(data, max_bytes=ONNX_BYTE_CAP):
    """The memory open_onnx_model(data) holds at most, estimated from the file's wire format before parsing: the
    model parsed here, and what the child checking it may use (child_bytes). DescriptorError for a file over its
    caps, as open_onnx_model would refuse it."""
    if not isinstance(data, (bytes, bytearray, memoryview)) or len(data) > max_bytes:
        return 0  # refused by open_onnx_model before anything is held
    counted = census(bytes(data), MAX_FIELDS, MAX_NODES)
    return len(data) + PARSE_FIELD_BYTES * counted.fields + child_bytes(data)


def _default_opset(model):
    return next((o.version for o in model.opset_import if o.domain in STANDARD_DOMAINS), 0)


# ---------------------------------------------------------------- what the graph knows: shapes, types, constants


def _value_infos(model, values):
    """name -> (DirectML or ONNX type name, sizes) from `values` (the main graph's inputs, inferred values and outputs
    as onnx_isolated.check_and_infer gives them) and the model's initializers."""
    from onnx import helper

    def type_of(elem_type):
        try:
            return type_name(helper.tensor_dtype_to_np_dtype(elem_type))
        except (DescriptorError, KeyError, TypeError, ValueError):
            return helper.tensor_dtype_to_string(elem_type).replace("TensorProto.", "") if elem_type else None

    infos = {name: (type_of(elem_type), shape) for name, elem_type, shape in values}
    for tensor in model.graph.initializer:
        infos[tensor.name] = (type_of(tensor.data_type), list(tensor.dims))
    return infos


def _constants(model, notes=None):
    """name -> numpy array for initializers and Constant node outputs of the main graph. A Constant whose value is
    sparse (sparse_value: its dense size is whatever its dims claim) or that does not convert is left out, as a
    value computed at run time would be, with a note in `notes`."""
    from onnx import AttributeProto, helper, numpy_helper

    values, skipped = {}, []
    for tensor in model.graph.initializer:
        try:
            values[tensor.name] = numpy_helper.to_array(tensor)
        except (ValueError, TypeError, KeyError) as error:
            skipped.append(f"initializer {tensor.name!r} ({first_line(error)})")
    for node in model.graph.node:
        if node.op_type == "Constant" and node.output and node.attribute:
            attribute = node.attribute[0]
            if attribute.type in (AttributeProto.SPARSE_TENSOR, AttributeProto.SPARSE_TENSORS):
                skipped.append(f"Constant {node.name or node.output[0]!r} ({attribute.name}: a sparse value is not "
                               "made dense here)")
                continue
            try:
                value = helper.get_attribute_value(attribute)
                values[node.output[0]] = numpy_helper.to_array(value) if hasattr(value, "dims") else np.array(value)
            except (ValueError, TypeError, KeyError) as error:
                skipped.append(f"Constant {node.name or node.output[0]!r} ({attribute.name}: {first_line(error)})")
    if skipped and notes is not None:
        shown = "; ".join(skipped[:NAMED_NODES]) + (f"; and {len(skipped) - NAMED_NODES:,} more"
                                                     if len(skipped) > NAMED_NODES else "")
        notes.append(f"Values not read, so treated as computed at run time: {shown}.")
    return values


def _attributes(node):
    from onnx import helper

    plain = {}
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        plain[attribute.name] = value.decode() if isinstance(value, bytes) else value
    return plain


def _static(shape):
    return shape is not None and all(isinstance(s, int) and s > 0 for s in shape)


# ---------------------------------------------------------------- nodes as DirectML settings


def _call_for(node, infos, constants, opset):
    """(Call, stored input sizes) of the DirectML call the node amounts to; DescriptorError if none."""
    spec = _operator_of(node)
    # Inputs past the operator's own (Split's second, its sizes) are settings, not data.
    data_inputs = [name for name in node.input if name][:spec.arity[1]]
    shapes = [infos.get(name, (None, None))[1] for name in data_inputs]
    types = {infos.get(name, (None, None))[0] for name in data_inputs}
    for name, shape in zip(data_inputs, shapes):
        if not _static(shape):
            raise DescriptorError(
                f"input {name!r} has sizes {shape} after shape inference; DirectML needs them all known"
            )
    data_type = types.pop() if len(types) == 1 else None
    if data_type is None:
        raise DescriptorError("the input data type is unknown after shape inference")
    input_sizes, settings = spec.frameworks.from_onnx(node, _attributes(node), shapes, constants, opset)
    return spec.frameworks.checked(spec, input_sizes, data_type, settings)


def _operator_of(node):
    """The registered operator a listed node computes: the one whose ONNX attributes the node has."""
    attributes = _attributes(node)
    candidates = OPERATOR_NODES[node.op_type]
    for spec in candidates:
        if all(attributes.get(name) == value for name, value in spec.onnx_attributes):
            return spec
    wanted = " or ".join(", ".join(f"{name} {value}" for name, value in spec.onnx_attributes) for spec in candidates)
    raise DescriptorError(f"{node.op_type} with {attributes}: DirectML has an operator for {wanted} only")


def _settings(call, stored):
    """The call as the operator pages' settings (ModelNode.settings)."""
    return {"operator": call.op, "DataType": call.data_type, **call.operator.frameworks.page_settings(call, stored)}


def _provenance(node):
    """Text an exporter left about where the node came from: its name and metadata values."""
    return " ".join([node.name] + [p.value for p in node.metadata_props])


# ---------------------------------------------------------------- Reshape -> Transpose -> Reshape


def _consumers(graph):
    users = {}
    for i, node in enumerate(graph.node):
        for name in node.input:
            users.setdefault(name, []).append(i)
    return users


def _reshape_target(node, infos, constants, source_shape):
    """The sizes a Reshape produces: inferred, else its shape input resolved (0 copies, -1 fills, per ONNX Reshape)."""
    inferred = infos.get(node.output[0], (None, None))[1]
    if _static(inferred):
        return inferred
    if len(node.input) < 2 or node.input[1] not in constants:
        return None
    target = [int(s) for s in np.ravel(constants[node.input[1]])]
    allow_zero = _attributes(node).get("allowzero", 0)
    copied = [s == 0 and not allow_zero and i < len(source_shape) for i, s in enumerate(target)]
    target = [source_shape[i] if copy else s for i, (s, copy) in enumerate(zip(target, copied))]
    # Python's integers: numpy's int64 products wrap past 2^63 (sizes of 2^32 x 2^32 multiply to 0).
    if target.count(-1) == 1:
        known = math.prod(s for s in target if s != -1)
        total = math.prod(source_shape)
        if known == 0 or total % known:
            return None
        target[target.index(-1)] = total // known
    return target if _static(target) and math.prod(target) == math.prod(source_shape) else None


def _rearrangements(model, infos, constants, notes):
    graph = model.graph
    producers = {name: i for i, node in enumerate(graph.node) for name in node.output}
    users = _consumers(graph)
    found, traced, budget, untraced = [], {}, TRACE_BUDGET, 0
    for t_index, transpose in enumerate(graph.node):
        if transpose.op_type != "Transpose" or not transpose.input or transpose.input[0] not in producers:
            continue
        first_index = producers[transpose.input[0]]
        first = graph.node[first_index]
        after = users.get(transpose.output[0], []) if transpose.output else []
        if first.op_type != "Reshape" or len(after) != 1 or graph.node[after[0]].op_type != "Reshape":
            continue
        last_index = after[0]
        last = graph.node[last_index]
        if not first.input or not first.output or not last.output:
            continue
        source = infos.get(first.input[0], (None, None))[1]
        if not _static(source) or len(source) != 4 or math.prod(source) > TRACE_CAP:
            continue
        middle = _reshape_target(first, infos, constants, source)
        if middle is None:
            continue
        perm = _attributes(transpose).get("perm", list(range(len(middle)))[::-1])
        if sorted(perm) != list(range(len(middle))):
            continue  # not a permutation of the axes: the model is broken there, nothing to trace
        end = _reshape_target(last, infos, constants, [middle[p] for p in perm])
        if end is None or len(end) != 4:
            continue
        shapes = (tuple(source), tuple(middle), tuple(perm), tuple(end))
        if shapes not in traced:
            if math.prod(source) > budget:
                untraced += 1
                continue
            budget -= math.prod(source)
            flat = np.arange(math.prod(source), dtype=np.int64).reshape(source)
            moved = flat.reshape(middle).transpose(perm).reshape(end)
            traced[shapes] = (flat, moved, identify(flat, moved))
        found.append(_named_rearrangement([first_index, t_index, last_index], graph, *traced[shapes], infos))
    if untraced:
        notes.append(f"{untraced:,} more Reshape -> Transpose -> Reshape chain(s) are not traced: one model's chains "
                     f"are traced on {TRACE_BUDGET:,} elements at most in all (identical chains once).")
    return found


def _named_rearrangement(indices, graph, flat, traced, report, infos):
    nodes = [graph.node[i] for i in indices]
    names = [n.name or n.op_type for n in nodes]
    data_type = infos.get(nodes[0].input[0], (None, None))[0]
    settings, call, risks = None, None, []
    depth_space = [m for m in report.matches if m["operator"] in DIRECTIONS.values()]
    chain = "Reshape -> Transpose -> Reshape"
    if depth_space and depth_space[0]["BlockSize"] > 1:
        m = depth_space[0]
        settings = {"operator": m["operator"], "DataType": data_type, "Sizes": list(flat.shape),
                    "BlockSize": m["BlockSize"], "Order": m["Order"]}
        if data_type is not None:
            call = Call.of(m["operator"], [flat.shape], data_type, block_size=m["BlockSize"], order=m["Order"])
        both = " (both orders agree here: one channel per block)" if len(depth_space) > 1 else ""
        note = f"This {chain} computes {m['operator']} with BlockSize {m['BlockSize']} and Order {m['Order']}{both}."
        if m["operator"] == SPACE_TO_DEPTH1.name and m["Order"] == "COLUMN_ROW_DEPTH" and not both:
            # torch.onnx's TorchScript exporter writes pixel_unshuffle this way (pytorch/pytorch
            # torch/onnx/symbolic_opset9.py, pixel_unshuffle: perm [0, 1, 3, 5, 2, 4]); so did torch 2.13.0 with
            # onnxscript 0.7.2 here. ONNX SpaceToDepth has no CRD mode to replace it (onnx/onnx#6162, #3739).
            note += " This is how torch.onnx exports PyTorch's PixelUnshuffle (ONNX SpaceToDepth has no CRD mode)."
    elif report.permuted_matches:
        best = report.permuted_matches[0]
        d = best["descriptor"]
        note = (
            f"This {chain} moves depth and space in neither DirectML order: it is {d['operator']} with BlockSize "
            f"{d['BlockSize']} and Order {d['Order']} only after permuting the {best['applies_to']} with "
            f"{best['permutation'].tolist()}."
        )
        risks.append(
            "a depth/space rearrangement in neither DCR nor CRD order, but one of them after a channel permutation: "
            "the mark of a DCR/CRD mix-up in a conversion (as in PINTO0309/onnx2tf#91); check the order was meant"
        )
    else:
        note = f"This {chain} is a rearrangement that none of {' and '.join(DIRECTIONS.values())} reproduces."
        if any(op.candidates([flat.shape], [traced.shape]) for op in DEPTH_SPACE_OPERATORS):
            risks.append(
                "its sizes are those of a depth/space operation, but it moves the elements in neither DCR nor CRD "
                "order, nor in one after permuting channels: an early torch.onnx PixelShuffle export was reported "
                "to scramble elements like this (pytorch/pytorch#18429); check what was meant"
            )
    return Rearrangement(indices, names, nodes[0].input[0], nodes[-1].output[0], settings, note, risks, call)


# ---------------------------------------------------------------- risks


def _order_of(entry):
    settings = entry.settings
    if settings and settings["operator"] in DIRECTIONS.values() and settings["BlockSize"] > 1:
        return settings["Order"]
    return None


def _flag_risks(model, nodes, rearrangements):
    graph = model.graph
    for entry in nodes:
        node = graph.node[entry.index]
        provenance = _provenance(node)
        if node.op_type == SPACE_TO_DEPTH1.onnx and _PIXEL_UNSHUFFLE.search(provenance):
            entry.risks.append(
                "exported from PyTorch's PixelUnshuffle, which is COLUMN_ROW_DEPTH, but ONNX SpaceToDepth is "
                "DEPTH_COLUMN_ROW: its output channels come out permuted (microsoft/onnxscript#2891); the CRD "
                "equivalent is a Reshape -> Transpose -> Reshape graph, or reorder the next convolution's input "
                "channels (ops.permute_conv_input_channels)"
            )
        if (node.op_type == DEPTH_TO_SPACE1.onnx and entry.attributes.get("mode", "DCR") == "DCR"
                and _PIXEL_SHUFFLE.search(provenance) and not _PIXEL_UNSHUFFLE.search(provenance)):
            entry.risks.append(
                "named after PyTorch's PixelShuffle, which is COLUMN_ROW_DEPTH (torch.onnx exports it with mode CRD), "
                "but this node's mode is DCR: the channels land in other places unless the weights before it were "
                "reordered (ops.channel_permutation)"
            )
    orders = {}
    for entry in list(nodes) + list(rearrangements):
        order = _order_of(entry)
        if order:
            orders.setdefault(order, []).append(entry)
    if len(orders) == 2:
        crd = orders["COLUMN_ROW_DEPTH"]
        crd_names = ", ".join(e.name if isinstance(e, ModelNode) else " -> ".join(e.names) for e in crd[:NAMED_NODES])
        if len(crd) > NAMED_NODES:
            crd_names += f" and {len(crd) - NAMED_NODES:,} more"
        # One text for the model, shared by every DCR entry: it grows with what is shown, not with DCR x CRD.
        risk = (f"this model also moves depth and space in COLUMN_ROW_DEPTH order ({crd_names}), PixelShuffle's "
                "order; this one is DEPTH_COLUMN_ROW: if both stand for a "
                "PixelShuffle/PixelUnshuffle pair, one of them has its channels permuted")
        for entry in orders["DEPTH_COLUMN_ROW"]:
            entry.risks.append(risk)


# ---------------------------------------------------------------- the entry points


def open_onnx_model(data: bytes, max_bytes: int = ONNX_BYTE_CAP) -> OnnxModelReport:
    """Read an uploaded .onnx file (bytes) and list its nodes of the ONNX operators in OPERATOR_NODES.

    Refused with DescriptorError naming the rule: more than `max_bytes`, bytes that are not an ONNX model, tensors
    with external data, nodes outside the standard domain, a model the ONNX checker refuses, a model whose checking
    passes its child process's limits (ops.isolated.Exceeded, naming the limit). Shapes come from ONNX shape inference
    (with data propagation); a model it cannot infer is still listed, with unknown shapes.
    """
    model = _parse(data, max_bytes)
    _refuse_unsafe(model)
    # The checker and shape inference, in a child process within limits (ops.isolated): their cost is not the file's.
    inferred = run_limited(CHILD_FUNCTION, bytes(data), child_bytes(data), CHILD_CPU_SECONDS, CHILD_WALL_SECONDS,
                           "model: checking it and inferring its shapes")
    notes = [inferred["note"]] if inferred["note"] else []
    infos, constants, opset = _value_infos(model, inferred["values"]), _constants(model, notes), _default_opset(model)
    nodes = []
    for index, node in enumerate(model.graph.node):
        if node.op_type not in OPERATOR_NODES:
            continue
        entry = ModelNode(
            index, node.name or f"{node.op_type}_{index}", node.op_type, list(node.input), list(node.output),
            [infos.get(n, (None, None))[1] if n else None for n in node.input],
            [infos.get(n, (None, None))[0] if n else None for n in node.input],
            _attributes(node), None, None, [],
        )
        try:
            entry.call, entry.stored = _call_for(node, infos, constants, opset)
            entry.settings = _settings(entry.call, entry.stored)
        except DescriptorError as error:
            entry.problem = str(error)
        nodes.append(entry)
    rearrangements = _rearrangements(model, infos, constants, notes)
    _flag_risks(model, nodes, rearrangements)
    if any(a.HasField("g") or len(a.graphs) for n in model.graph.node for a in n.attribute):
        notes.append("Nodes inside subgraphs (If, Loop, Scan bodies) are not listed.")
    return OnnxModelReport(nodes, rearrangements, opset, model.ir_version, model.producer_name,
                           len(model.graph.node), notes, model, infos)


def _listed(report, index):
    entry = next((n for n in report.nodes if n.index == index), None)
    if entry is None:
        listed = ", ".join(str(n.index) for n in report.nodes) or "none"
        raise DescriptorError(f"node index {index!r}: not one of the listed nodes ({listed})")
    return entry


def extract_node(report, index):
    """A standalone ONNX model (bytes) holding only node `index`: its constant inputs become initializers, the
    others graph inputs with the shapes and types inference found."""
    from onnx import helper, numpy_helper

    entry = _listed(report, index)
    if entry.settings is None:
        raise DescriptorError(f"node {entry.name!r}: cannot be extracted ({entry.problem})")
    model, constants, infos = report.model, _constants(report.model), report.infos
    node = model.graph.node[index]
    feeds, initializers = [], []
    for name in node.input:
        if not name:
            continue
        if name in constants:
            initializers.append(numpy_helper.from_array(constants[name], name))
        else:
            feeds.append(name)

    def info(name):
        data_type, shape = infos.get(name, (entry.settings["DataType"], None))
        element = helper.np_dtype_to_tensor_dtype(numpy_dtype(data_type))
        return helper.make_tensor_value_info(name, element, shape if _static(shape) else None)

    graph = helper.make_graph([node], f"extracted_{entry.name}", [info(n) for n in feeds],
                              [info(n) for n in node.output if n], initializer=initializers)
    opsets = [helper.make_opsetid("", report.opset)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=report.ir_version).SerializeToString()


def _default_input(sizes, data_type, salt):
    """Distinct-looking values that fit the type: 0, 1, 2, ... (wrapping in narrow integer types), shifted by salt."""
    dtype = numpy_dtype(data_type)
    count = check_element_count(sizes, "InputTensor Sizes")
    codes = np.arange(count, dtype=np.int64) * (2 * salt + 1) + salt
    if dtype.kind == "f":
        return codes.astype(dtype).reshape(sizes)
    wrapped = (codes % (2 ** (8 * dtype.itemsize))).astype(np.uint64).astype(f"u{dtype.itemsize}")
    return wrapped.view(dtype).reshape(sizes)


def cross_check_node(report: OnnxModelReport, index: int, inputs: Sequence[np.ndarray] | None = None,
                     provider: str | None = None) -> CrossCheckReport:
    """Run node `index`, extracted into a model of its own, on ONNX Runtime and compare its outputs byte for byte with
    the reference core's for the node's DirectML settings. `inputs` feed the node's non-constant inputs in order
    (default: values 0, 1, 2, ... of the node's sizes and type). Returns a CrossCheckReport, never raises for a
    runtime failure (the report says what happened)."""
    entry = _listed(report, index)
    model_bytes = extract_node(report, index)
    constants = _constants(report.model)
    feeds_needed = [n for n in entry.inputs if n and n not in constants]
    if inputs is None:
        shapes = dict(zip(entry.inputs, entry.input_shapes))
        inputs = [_default_input(shapes[n], entry.settings["DataType"], i) for i, n in enumerate(feeds_needed)]
    if not isinstance(inputs, (list, tuple)) or len(inputs) != len(feeds_needed):
        raise DescriptorError(
            f"inputs: node {entry.name!r} takes {len(feeds_needed)} input array(s) ({', '.join(feeds_needed)})"
        )
    shapes = dict(zip(entry.inputs, entry.input_shapes))
    dtype = numpy_dtype(entry.settings["DataType"])
    for name, array in zip(feeds_needed, inputs):
        if not isinstance(array, np.ndarray) or array.dtype != dtype or list(array.shape) != shapes[name]:
            got = f"{array.dtype} {list(array.shape)}" if isinstance(array, np.ndarray) else type(array).__name__
            raise DescriptorError(f"inputs: {name!r} must be a {dtype} array of sizes {shapes[name]}, got {got}")
    given = dict(zip(feeds_needed, inputs))
    call = entry.call
    arrays = [given[n] if n in given else constants[n] for n in entry.inputs if n][:call.operator.arity[1]]
    # An input ONNX broadcasts (Bitwise OR's B) reaches the call's sizes as DirectML's 0 strides read it.
    expected = call.run([np.ascontiguousarray(np.broadcast_to(a, sizes)) for a, sizes in zip(arrays, call.input_sizes)])
    operator = call.op
    attributes = "".join(f", {k} {v}" for k, v in entry.attributes.items())
    described = f"node {entry.name!r} ({entry.op_type}{attributes})"
    try:
        ort = _runtime()
        version = ort.__version__
        chosen, refusal = select_provider(ort.get_available_providers(), provider)
    except Exception as error:  # a broken install fails in many ways
        note = f"ONNX Runtime is unavailable: {first_line(error)}."
        return CrossCheckReport(operator, provider, False, False, expected, [], note)
    if chosen is None:
        return CrossCheckReport(operator, provider, False, False, expected, [], refusal, ort_version=version)
    try:
        session = ort.InferenceSession(model_bytes, _options(ort, chosen), providers=[chosen])
        actual = session.run(None, {n: np.ascontiguousarray(a) for n, a in given.items()})
    except Exception as error:  # the provider lacks a kernel for this node, or refuses it
        return CrossCheckReport(
            operator, chosen, False, False, expected, [], ort_version=version,
            note=f"Could not run {described} on {chosen}, onnxruntime {version}: {first_line(error)}. "
                 "ops.cross_check runs the same settings reinterpreting the bits where a kernel is missing.",
        )
    first_mismatch, outcome = compare_outputs(expected, actual)
    note = (f"Ran {described}, extracted from the model, on {chosen}, onnxruntime {version}, opset {report.opset}, "
            f"graph optimizations off. {outcome}")
    return CrossCheckReport(operator, chosen, True, first_mismatch is None, expected, actual, note,
                            first_mismatch=first_mismatch, ort_version=version, ran_as=entry.settings["DataType"])
