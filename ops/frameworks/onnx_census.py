"""What parsing an uploaded .onnx file would cost, counted from its protobuf wire format before it is parsed.

Parsing holds one Python-visible object per field occurrence, whatever its size: a 15.8 MB file of empty nodes
(two bytes each) took 2.7 GB to parse and check, about 145 bytes a node to parse and as much again in the checker's
copy. The bytes of a file say little; its fields say it all. `census` walks the wire format (protobuf's encoding:
https://protobuf.dev/programming-guides/encoding/) left to right, descending into every field that holds a message (the
installed onnx package's own descriptors of onnx.proto say which), counts every field occurrence and every node,
and stops as soon as a count passes its cap, so the walk costs at most the cap's worth of steps whatever the file
holds.
"""

import dataclasses
import functools

from ..errors import DescriptorError

MAX_DEPTH = 64  # nested subgraphs and types; protobuf's own parser stops at 100


@functools.cache
def _schema():
    """{message full name: {field number: the message type it holds}} for every message reachable from ModelProto,
    and the (message, field) pairs that are nodes."""
    from google.protobuf.descriptor import FieldDescriptor
    from onnx import ModelProto

    schema, pending = {}, [ModelProto.DESCRIPTOR]
    while pending:
        message = pending.pop()
        if message.full_name in schema:
            continue
        schema[message.full_name] = {field.number: field.message_type.full_name for field in message.fields
                                     if field.type == FieldDescriptor.TYPE_MESSAGE}
        pending += [field.message_type for field in message.fields if field.type == FieldDescriptor.TYPE_MESSAGE]
    nodes = {(message, number) for message, fields in schema.items() for number, kind in fields.items()
             if kind == "onnx.NodeProto"}
    return schema, nodes


@dataclasses.dataclass
class Census:
    fields: int  # field occurrences, submessages descended into
    nodes: int  # nodes of every graph and function


def _varint(data, at, end):
    value = shift = 0
    while at < end:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
        if shift > 63:
            break
    raise DescriptorError("model: not an ONNX model (the bytes do not parse as a ModelProto: a truncated number)")


def census(data, max_fields, max_nodes):
    """The fields and nodes of a serialized ModelProto; DescriptorError naming the cap as soon as one is passed,
    or when the bytes are not protobuf's wire format."""
    schema, node_fields = _schema()
    fields = nodes = 0
    stack = [("onnx.ModelProto", 0, len(data))]  # (kind, next byte, end) of each message being walked
    while stack:
        kind, at, end = stack.pop()
        if at >= end:
            continue
        key, at = _varint(data, at, end)
        number, wire = key >> 3, key & 7
        fields += 1
        if wire == 0:
            _, at = _varint(data, at, end)
        elif wire in (1, 5):
            at += 8 if wire == 1 else 4
        elif wire == 2:
            length, at = _varint(data, at, end)
            child = schema[kind].get(number)
            if child is not None and at + length <= end:
                if (kind, number) in node_fields:
                    nodes += 1
                if len(stack) >= MAX_DEPTH:
                    raise DescriptorError(f"model: graphs and types nested deeper than {MAX_DEPTH} levels are refused")
                stack.append((kind, at + length, end))
                stack.append((child, at, at + length))
                at = end  # this message goes on from the entry pushed above, after the child
            else:
                at += length
        else:  # groups (3, 4) are not in ONNX; 6 and 7 do not exist
            raise DescriptorError(f"model: not an ONNX model (the bytes do not parse as a ModelProto: wire type "
                                  f"{wire} in field {number})")
        if at > end:
            raise DescriptorError("model: not an ONNX model (the bytes do not parse as a ModelProto: a field runs "
                                  "past the end of its message)")
        if nodes > max_nodes:
            raise DescriptorError(f"model: more than {max_nodes:,} nodes; this app opens models of at most "
                                  f"{max_nodes:,} nodes (graphs and functions together)")
        if fields > max_fields:
            raise DescriptorError(f"model: more than {max_fields:,} protobuf fields (nodes, attributes, names, "
                                  f"dimensions); this app opens models of at most {max_fields:,}: parsing costs "
                                  "memory for each one, whatever its size")
        if at < end:
            stack.append((kind, at, end))
    return Census(fields, nodes)
