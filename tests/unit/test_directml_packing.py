"""Any DirectML desc packed from the schema alone (ops/runtime/directml: descs.py checks and writes the wire desc,
api.py packs it in the worker), without DirectML: every one of the 174 schemas packs from a value of each of its
field types, and each value's bytes are read back at the offset ops.schema gives its field (struct, not ctypes), with
what every pointer points to; refusals name the field and the rule."""

import ctypes
import dataclasses
import json
import struct

import numpy as np
import pytest

from ops import schema
from ops.errors import DescriptorError
from ops.runtime import directml as dml
from ops.runtime.directml import api
from ops.runtime.directml_check import packed_desc
from support.directml_descs import synthetic_desc

SCALARS = {"UINT": "<I", "UINT64": "<Q", "INT": "<i", "FLOAT": "<f", "BOOL": "<i"}
ELEMENTS = {"UINT_ARRAY": "I", "INT_ARRAY": "i", "FLOAT_ARRAY": "f"}
DATA_TYPES = schema.ENUMS["DML_TENSOR_DATA_TYPE"]
TENSOR_FLAGS = schema.ENUMS["DML_TENSOR_FLAGS"]


def read(address, size):
    return ctypes.string_at(address, size)


def pointer(raw):
    return int.from_bytes(raw[:8], "little")


def check_tensor(address, tensor, path):
    """A DML_TENSOR_DESC {Type, Desc} at `address`: a buffer tensor desc holding `tensor` field by field."""
    tensor_type, desc = struct.unpack("<i4xQ", read(address, 16))
    assert tensor_type == 1, path  # DML_TENSOR_TYPE_BUFFER
    data_type, flags, dims, sizes, strides, total, alignment = struct.unpack("<iiI4xQQQI4x", read(desc, 48))
    assert (data_type, flags, dims, total, alignment) == (
        DATA_TYPES.value(tensor.DataType), TENSOR_FLAGS.value(tensor.Flags), len(tensor.Sizes),
        tensor.TotalTensorSizeInBytes, tensor.GuaranteedBaseOffsetAlignment), path
    assert struct.unpack(f"<{dims}I", read(sizes, 4 * dims)) == tuple(tensor.Sizes), path
    if tensor.Strides is None:
        assert strides == 0, path
    else:
        assert struct.unpack(f"<{dims}I", read(strides, 4 * dims)) == tuple(tensor.Strides), path


def check_operator(address, op, values, path):
    """A DML_OPERATOR_DESC {Type, Desc} at `address` whose desc holds `values` (descs.Packed.values' form) at the
    offsets of `op`'s layout."""
    code, desc = struct.unpack("<i4xQ", read(address, 16))
    assert code == op.code, path
    raw = read(desc, op.size)
    for f, offset in op.layout:
        at, value, where = raw[offset:offset + f.c.size], values[f.name], f"{path}.{f.name}"
        if f.type in SCALARS:
            expected = np.float32(value) if f.type == "FLOAT" else int(value)
            assert struct.unpack(SCALARS[f.type], at)[0] == expected, where
        elif f.type == "SIZE_2D":
            assert struct.unpack("<II", at) == tuple(value), where
        elif f.type == "SCALAR_UNION":
            assert at == value, where
        elif value is None:
            assert pointer(at) == 0, where
        elif f.type == "TENSOR_DESC":
            check_tensor(pointer(at), value, where)
        elif f.type == "TENSOR_DESC_ARRAY":
            for i, tensor in enumerate(value):
                check_tensor(pointer(at) + 16 * i, tensor, f"{where}[{i}]")
        elif f.type == "OPERATOR_DESC":
            check_operator(pointer(at), schema.schema(value.type), value.fields, where)
        elif f.type == "OPERATOR_DESC_ARRAY":
            for i, nested in enumerate(value):
                check_operator(pointer(at) + 16 * i, schema.schema(nested.type), nested.fields, f"{where}[{i}]")
        elif f.type in ELEMENTS:
            got = struct.unpack(f"<{len(value)}{ELEMENTS[f.type]}", read(pointer(at), 4 * len(value)))
            assert got == tuple(np.float32(v) if f.type == "FLOAT_ARRAY" else v for v in value), where
        elif f.type == "SCALE_BIAS":
            assert struct.unpack("<ff", read(pointer(at), 8)) == tuple(np.float32(v) for v in value), where
        else:
            raise AssertionError(f"{where}: no check for {f.type}")


def worker_side(packed):
    """What the worker packs from the request (api.py), through the JSON the pipe carries."""
    request = json.loads(json.dumps(dml._wire_request("run", packed, "6_2")))
    return api.OperatorDescription(request["desc"], request["inputs"], request["outputs"])


def test_every_field_type_has_its_c_size_and_alignment():
    for name, layout in schema.FIELD_TYPES.items():
        ctype = api.FIELD_CTYPES[name]
        assert (ctypes.sizeof(ctype), ctypes.alignment(ctype)) == (layout.size, layout.align), name
        if layout.pointee is not None:
            pointee = ctype._type_
            assert (ctypes.sizeof(pointee), ctypes.alignment(pointee)) == (layout.pointee_size, layout.pointee_align)
    assert set(api.FIELD_CTYPES) == set(schema.FIELD_TYPES)


@pytest.mark.parametrize("op", schema.SCHEMAS.values(), ids=lambda op: op.name)
def test_every_schema_packs_each_value_at_its_field_s_offset(op):
    struct_type = api.desc_layout(tuple(f.type for f in op.fields))
    assert ctypes.sizeof(struct_type) == op.size
    assert [getattr(struct_type, f"field{i}").offset for i in range(len(op.fields))] == [o for _, o in op.layout]
    for variant in (dict(optional=True), dict(optional=False, scalar_bytes=True)):
        packed = dml.pack(synthetic_desc(op, **variant))
        description = worker_side(packed)
        check_operator(ctypes.addressof(description.desc), op, packed.values, op.name)


@pytest.mark.parametrize("op", schema.SCHEMAS.values(), ids=lambda op: op.name)
def test_tensors_bind_in_directml_s_order_and_counts_are_the_arrays_lengths(op):
    packed = dml.pack(synthetic_desc(op))
    expected = {side: [] for side in (schema.INPUT_TENSOR, schema.OUTPUT_TENSOR)}
    for f in op.inputs + op.outputs:
        value = packed.values[f.name]
        names = [f"{f.name}[{i}]" for i in range(len(value))] if f.type == "TENSOR_DESC_ARRAY" else [f.name]
        expected[f.kind] += names
    assert list(packed.input_names) == expected[schema.INPUT_TENSOR]
    assert list(packed.output_names) == expected[schema.OUTPUT_TENSOR]
    for f in op.fields:
        for name in f.counted_arrays:
            assert packed.values[f.name] == len(packed.values[name]), (op.name, f.name, name)
    refs = [item for kind, item, *_ in packed.wire["fields"] if kind == "TENSOR_DESC" and item is not None]
    assert all(packed.inputs[i] is not None if side == "input" else packed.outputs[i] is not None for side, i in refs)


def test_a_fused_activation_is_packed_with_its_tensors_null():
    packed = dml.pack(dml.OperatorDesc("ELEMENT_WISE_ADD1", {
        "ATensor": packed_desc((3,), np.float32), "BTensor": packed_desc((3,), np.float32),
        "OutputTensor": packed_desc((3,), np.float32),
        "FusedActivation": dml.OperatorDesc("ACTIVATION_ELU", {"Alpha": 0.5})}))
    nested = packed.wire["fields"][3][1]
    assert nested == {"type": schema.schema("ACTIVATION_ELU").code,
                      "fields": [["TENSOR_DESC", None], ["TENSOR_DESC", None], ["FLOAT", 0.5]]}
    with pytest.raises(DescriptorError, match=r"FusedActivation\(ACTIVATION_ELU\)\.InputTensor: a fused activation's "
                                              r"tensors are its operator's"):
        dml.pack(dml.OperatorDesc("ELEMENT_WISE_ADD1", {
            "ATensor": packed_desc((3,), np.float32), "BTensor": packed_desc((3,), np.float32),
            "OutputTensor": packed_desc((3,), np.float32),
            "FusedActivation": dml.OperatorDesc("ACTIVATION_ELU", {"InputTensor": packed_desc((3,), np.float32)})}))


def test_scale_bias_and_size_2d_are_taken_as_pairs_mappings_or_objects_with_their_fields():
    desc = packed_desc((1, 1, 2, 2), np.float32)

    @dataclasses.dataclass
    class Size:
        Width: int
        Height: int

    for scale in ((3, 2), {"Height": 2, "Width": 3}, Size(3, 2)):
        packed = dml.pack(dml.OperatorDesc("UPSAMPLE_2D", {"InputTensor": desc, "OutputTensor": desc,
                                                           "ScaleSize": scale, "InterpolationMode": 0}))
        assert packed.values["ScaleSize"] == (3, 2)


def test_a_scalar_union_is_written_as_its_type_field_s_data_type():
    def clip1(data_type, low, high):
        desc = packed_desc((4,), np.float16)
        return dml.pack(dml.OperatorDesc("ELEMENT_WISE_CLIP1", {"InputTensor": desc, "OutputTensor": desc,
                                                                "MinMaxDataType": data_type, "Min": low, "Max": high}))

    packed = clip1("FLOAT16", 2, 4.5)
    assert packed.values["Min"] == np.float16(2).tobytes() + bytes(6)
    assert packed.values["Max"] == np.float16(4.5).tobytes() + bytes(6)
    assert clip1("DML_TENSOR_DATA_TYPE_INT8", -3, 7).values["Min"] == b"\xfd" + bytes(7)
    assert clip1(6, -3, 7).values["Min"] == np.int32(-3).tobytes() + bytes(4)  # INT32 by its value
    assert clip1("FLOAT16", b"\x00\x40", b"\x00\x44").values["Max"] == b"\x00\x44" + bytes(6)  # bytes as given
    with pytest.raises(DescriptorError, match=r"ELEMENT_WISE_CLIP1\.Min 300: out of range for UINT8 \[0, 255\]"):
        clip1("UINT8", 300, 4)
    with pytest.raises(DescriptorError, match=r"ELEMENT_WISE_CLIP1\.Min 2\.5: UINT8 takes whole numbers"):
        clip1("UINT8", 2.5, 4)
    with pytest.raises(DescriptorError, match=r"ELEMENT_WISE_CLIP1\.Min 1e\+300: beyond FLOAT16's range"):
        clip1("FLOAT16", 1e300, 4)
    with pytest.raises(DescriptorError, match=r"ELEMENT_WISE_CLIP1\.Min: 9 bytes; a DML_SCALAR_UNION holds 8"):
        clip1("FLOAT16", bytes(9), 4)
    with pytest.raises(DescriptorError, match=r"DML_TENSOR_DATA_TYPE 'float16': expected one of"):
        clip1("float16", 2, 4)


def gemm(**changes):
    fields = {"ATensor": packed_desc((2, 3), np.float32), "BTensor": packed_desc((3, 4), np.float32),
              "OutputTensor": packed_desc((2, 4), np.float32), "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0,
              "Beta": 0.0}
    return dml.OperatorDesc("GEMM", {**fields, **changes})


def convolution(**changes):
    fields = {"InputTensor": packed_desc((1, 1, 5, 5), np.float32),
              "FilterTensor": packed_desc((1, 1, 3, 3), np.float32),
              "OutputTensor": packed_desc((1, 1, 3, 3), np.float32), "Mode": "CROSS_CORRELATION",
              "Direction": "FORWARD", "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0],
              "EndPadding": [0, 0], "OutputPadding": [0, 0], "GroupCount": 1}
    return dml.OperatorDesc("CONVOLUTION", {**fields, **changes})


@pytest.mark.parametrize("desc, message", [
    (convolution(DimensionCount=2, Strides=[1]),
     r"CONVOLUTION\.Strides: 1 elements, but DimensionCount is 2: DirectML reads exactly DimensionCount elements"),
    (convolution(Strides=[1]), r"CONVOLUTION\.DimensionCount: left out, but the arrays it counts differ in length: "
                               r"Strides 1, Dilations 2"),
    (convolution(Strides=None), r"CONVOLUTION\.Strides: required \(UINT_ARRAY\)"),
    (convolution(Strides=5), r"CONVOLUTION\.Strides 5: expected a list"),
    (convolution(Strides=[1] * 20000), r"CONVOLUTION\.Strides: 20,000 elements; at most 16,384 are sent"),
    (convolution(Strides=[1, -1]), r"CONVOLUTION\.Strides\[1\] -1: out of range for UINT \[0, 4294967295\]"),
    (convolution(Mode="CONVOLUTION_MODE_CROSS"), r"DML_CONVOLUTION_MODE 'CONVOLUTION_MODE_CROSS': expected one of "
                                                 r"CONVOLUTION, CROSS_CORRELATION"),
    (convolution(Filter=1), r"CONVOLUTION\.Filter: DML_CONVOLUTION_OPERATOR_DESC has no such field; its fields: "
                            r"InputTensor, FilterTensor"),
    (convolution(FilterTensor=None), r"CONVOLUTION\.FilterTensor: required \(input tensor\)"),
    (convolution(InputTensor=[1, 5]), r"CONVOLUTION\.InputTensor \[1, 5\]: expected a TensorDesc"),
    (convolution(InputTensor=dataclasses.replace(packed_desc((1,), np.float32), DataType="BFLOAT16")),
     r"CONVOLUTION\.InputTensor\.DataType 'BFLOAT16': expected one of FLOAT32"),
    (convolution(GroupCount=1.5), r"CONVOLUTION\.GroupCount 1\.5: expected an integer"),
    (convolution(FusedActivation="RELU"), r"CONVOLUTION\.FusedActivation 'RELU': expected an OperatorDesc"),
    (gemm(Alpha="1"), r"GEMM\.Alpha '1': expected a number"),
    (gemm(Alpha=1e39), r"GEMM\.Alpha 1e\+39: beyond float32's range"),
    (dml.OperatorDesc("UPSAMPLE_2D", {"InputTensor": packed_desc((1, 1, 2, 2), np.float32),
                                      "OutputTensor": packed_desc((1, 1, 4, 4), np.float32),
                                      "ScaleSize": {"Width": 2}, "InterpolationMode": 0}),
     r"UPSAMPLE_2D\.ScaleSize \{'Width': 2\}: expected the keys Width and Height"),
    (dml.OperatorDesc("NOT_AN_OPERATOR"), r"operator type 'NOT_AN_OPERATOR': not a DirectML operator"),
    (dml.OperatorDesc(999), r"operator type 999 is no DML_OPERATOR_TYPE"),
    (dml.OperatorDesc("gemm"), r"names are exact: DML_OPERATOR_GEMM"),
])
def test_a_desc_the_schema_refuses_names_the_field_and_the_rule(desc, message):
    with pytest.raises(DescriptorError, match=message):
        dml.pack(desc)


def test_the_worker_refuses_an_array_shorter_than_its_count_and_a_malformed_desc_even_if_the_app_sent_one():
    def refused(change, message):
        request = dml._wire_request("run", dml.pack(convolution()), "6_2")
        change(request["desc"]["fields"])
        with pytest.raises(api.PackError, match=message):
            api.OperatorDescription(request["desc"], request["inputs"], request["outputs"])

    refused(lambda fields: fields[7].__setitem__(1, [1]), r"field 7: a UINT_ARRAY of 1 elements where field 6 counts 2")
    refused(lambda fields: fields[0].__setitem__(0, "DOUBLE"), "field 0: unknown field type 'DOUBLE'")
    refused(lambda fields: fields[0].__setitem__(1, ["input", 7]), "a malformed desc: IndexError")
    refused(lambda fields: fields[12].__setitem__(1, "seven"), "a malformed desc: TypeError")


def test_buffers_are_taken_by_field_name_or_in_binding_order_and_must_hold_their_tensor():
    packed = dml.pack(dml.OperatorDesc("JOIN", {
        "InputTensors": [packed_desc((2,), np.float32), packed_desc((3,), np.float32)],
        "OutputTensor": packed_desc((5,), np.float32), "Axis": 0}))
    assert packed.input_names == ("InputTensors[0]", "InputTensors[1]") and packed.values["InputCount"] == 2
    a, b = bytes(8), bytes(12)
    assert dml._buffers(packed.input_names, packed.inputs, {"InputTensors": [a, b]}, "input") == [a, b]
    assert dml._buffers(packed.input_names, packed.inputs, [a, b], "input") == [a, b]
    assert dml._buffers(packed.output_names, packed.outputs, {}, "output") == [bytes(20)]
    with pytest.raises(DescriptorError, match=r"input InputTensors\[1\]: its buffer must hold TotalTensorSizeInBytes "
                                              r"12 bytes; given 8 bytes"):
        dml._buffers(packed.input_names, packed.inputs, [a, a], "input")
    with pytest.raises(DescriptorError, match=r"1 input buffers for 2 input bindings \(InputTensors\[0\], "):
        dml._buffers(packed.input_names, packed.inputs, [a], "input")
    with pytest.raises(DescriptorError, match=r"input 'ATensor': not a input tensor field; they are InputTensors"):
        dml._buffers(packed.input_names, packed.inputs, {"ATensor": a}, "input")


def test_the_registered_operators_map_onto_their_schema_by_field_name():
    desc_in, desc_out = packed_desc((1, 8, 2, 3), np.uint32), packed_desc((1, 2, 4, 6), np.uint32)
    desc = dml.registry_desc("DEPTH_TO_SPACE1", {"block_size": 2, "order": "DCR"}, [desc_in], [desc_out])
    assert desc == dml.OperatorDesc("DEPTH_TO_SPACE1", {"InputTensor": desc_in, "OutputTensor": desc_out,
                                                        "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"})
    assert [item for _, item, *_ in dml.pack(desc).wire["fields"]] == [["input", 0], ["output", 0], 2, 0]
    parts = [packed_desc((2,), np.float32), packed_desc((4,), np.float32)]
    split = dml.pack(dml.registry_desc("SPLIT", {"axis": 0}, [packed_desc((6,), np.float32)], parts))
    assert split.wire["fields"] == [["TENSOR_DESC", ["input", 0]], ["UINT", 2],
                                    ["TENSOR_DESC_ARRAY", [["output", 0], ["output", 1]], 1], ["UINT", 0]]
    identity = dml.pack(dml.registry_desc("ELEMENT_WISE_IDENTITY", {"scale_bias": (2.0, 1.0)}, parts[:1], parts[:1]))
    assert identity.wire["fields"][2] == ["SCALE_BIAS", [2.0, 1.0]]


def test_every_owned_input_is_named_and_sent_with_its_flag():
    owned = dataclasses.replace(packed_desc((3, 4), np.float32), Flags="OWNED_BY_DML")
    packed = dml.pack(gemm(BTensor=owned))
    assert packed.owned == ("BTensor",)
    assert dml._wire_request("run", packed, "6_2")["inputs"][1]["flags"] == "OWNED_BY_DML"
    with pytest.raises(DescriptorError, match=r"GEMM\.BTensor\.Flags 'OWNED': expected one of NONE, OWNED_BY_DML"):
        dml.pack(gemm(BTensor=dataclasses.replace(owned, Flags="OWNED")))


def test_execution_flags_are_a_32_bit_unsigned_integer():
    packed = dml.pack(gemm())
    assert dml._wire_request("run", packed, "6_2", flags=1)["flags"] == 1
    for bad in (-1, 2**32, True, "1"):
        with pytest.raises(DescriptorError, match="expected DML_EXECUTION_FLAGS"):
            dml._wire_request("run", packed, "6_2", flags=bad)


def test_no_operator_holds_a_uint64_field_and_the_worker_still_packs_one_in_its_place():
    """Issue 27 asks for a UINT64 field on DirectML if any operator has one: none has, at the schema's commit. The
    worker packs the type where the schema puts it: after a UINT, at the next multiple of 8."""
    assert not [(op.name, f.name) for op in schema.SCHEMAS.values() for f in op.fields if f.type == "UINT64"]
    description = api.OperatorDescription({"type": 1, "fields": [["UINT", 7], ["UINT64", 2**40 + 3]]}, [], [])
    raw = read(description.desc.Desc, 16)
    assert struct.unpack("<I4xQ", raw) == (7, 2**40 + 3)
