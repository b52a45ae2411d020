"""DirectML's C structures, as ctypes, packed from a desc that names each field's schema type.

This module runs inside the DirectML worker: only ctypes and the standard library, and no knowledge of any operator.
A desc arrives as the wire format of docs/directml.md ("Running any operator"), which the app writes from DirectML's
schema (ops/runtime/directml/descs.py):

    {"type": DML_OPERATOR_TYPE value, "fields": [[field type, value] or [field type, value, count position], ...]}

one entry per field of the DML_*_OPERATOR_DESC in struct order, each field type one of FIELD_CTYPES' keys (the
schema's, ops/schema FIELD_TYPES). An array's third item is the position of the UINT field holding its element
count: the array must have exactly that many elements (DirectML reads that many), checked here again before anything
is packed. Values: a tensor is ["input", i] or ["output", i] (the request's i-th input or output tensor, in
DirectML's binding order) or null; a tensor array a list of those; an operator desc (a fused activation) a nested
desc, its tensor fields null; UINT, UINT64, INT, FLOAT, BOOL a number; arrays a list or null; SCALE_BIAS null or
[Scale, Bias]; SIZE_2D [Width, Height]; SCALAR_UNION its 8 bytes as 16 hex digits, little-endian.

Layouts and enum values are facts from DirectML.h (microsoft/DirectML): DML_TENSOR_DATA_TYPE counts UNKNOWN=0,
FLOAT32, FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64; DML_TENSOR_FLAGS NONE=0,
OWNED_BY_DML=1. The struct of each desc is built from its field types alone and cached by them, so its layout is the
C compiler's (tests/unit/test_directml_packing.py checks every schema's offsets against ops.schema's).
"""

import ctypes
import functools

DATA_TYPES = {
    "FLOAT32": 1, "FLOAT16": 2, "UINT32": 3, "UINT16": 4, "UINT8": 5, "INT32": 6, "INT16": 7, "INT8": 8,
    "FLOAT64": 9, "UINT64": 10, "INT64": 11,
}
TENSOR_FLAGS = {"NONE": 0, "OWNED_BY_DML": 1}
TENSOR_TYPE_BUFFER = 1
FEATURE_TENSOR_DATA_TYPE_SUPPORT = 0
FEATURE_FEATURE_LEVELS = 1
FEATURE_LEVEL_CODES = (0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000, 0x5100, 0x5200, 0x6000, 0x6100,
                       0x6200, 0x6300, 0x6400)
# How deep fused activations may nest (DirectML's never do: a fused activation has none of its own).
MAX_DEPTH = 4


class BufferTensorDesc(ctypes.Structure):
    _fields_ = [("DataType", ctypes.c_int), ("Flags", ctypes.c_int), ("DimensionCount", ctypes.c_uint),
                ("Sizes", ctypes.POINTER(ctypes.c_uint)), ("Strides", ctypes.POINTER(ctypes.c_uint)),
                ("TotalTensorSizeInBytes", ctypes.c_uint64), ("GuaranteedBaseOffsetAlignment", ctypes.c_uint)]


class TensorDesc(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


class OperatorDesc(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


class ScaleBias(ctypes.Structure):
    _fields_ = [("Scale", ctypes.c_float), ("Bias", ctypes.c_float)]


class Size2D(ctypes.Structure):
    _fields_ = [("Width", ctypes.c_uint), ("Height", ctypes.c_uint)]


# Each schema field type as the C type DxDispatch writes it (SchemaHelpers.h): pointers for tensors, operator descs,
# arrays and ScaleBias; a scalar union as its uint64_t (DML_SCALAR_UNION is 8 bytes, 8-aligned); BOOL is Windows'
# int. For arrays, ELEMENTS gives the pointee.
FIELD_CTYPES = {
    "TENSOR_DESC": ctypes.POINTER(TensorDesc), "TENSOR_DESC_ARRAY": ctypes.POINTER(TensorDesc),
    "OPERATOR_DESC": ctypes.POINTER(OperatorDesc), "OPERATOR_DESC_ARRAY": ctypes.POINTER(OperatorDesc),
    "UINT": ctypes.c_uint32, "UINT64": ctypes.c_uint64, "INT": ctypes.c_int32, "FLOAT": ctypes.c_float,
    "BOOL": ctypes.c_int32, "UINT_ARRAY": ctypes.POINTER(ctypes.c_uint32), "INT_ARRAY": ctypes.POINTER(ctypes.c_int32),
    "FLOAT_ARRAY": ctypes.POINTER(ctypes.c_float), "SCALE_BIAS": ctypes.POINTER(ScaleBias), "SIZE_2D": Size2D,
    "SCALAR_UNION": ctypes.c_uint64,
}
ELEMENTS = {"UINT_ARRAY": ctypes.c_uint32, "INT_ARRAY": ctypes.c_int32, "FLOAT_ARRAY": ctypes.c_float}
ARRAYS = ("TENSOR_DESC_ARRAY", "OPERATOR_DESC_ARRAY", *ELEMENTS)


class PackError(ValueError):
    """A desc the worker will not hand to DirectML (it never should get one: the app checks first)."""


@functools.lru_cache(maxsize=256)
def desc_layout(types):
    """The ctypes Structure of a DML_*_OPERATOR_DESC whose fields have these schema types, in struct order."""
    return type("OperatorFields", (ctypes.Structure,),
                {"_fields_": [(f"field{i}", FIELD_CTYPES[t]) for i, t in enumerate(types)]})


class FeatureLevelsQuery(ctypes.Structure):
    _fields_ = [("RequestedFeatureLevelCount", ctypes.c_uint), ("RequestedFeatureLevels", ctypes.POINTER(ctypes.c_int))]


class OperatorDescription:
    """A DML_OPERATOR_DESC and everything it points to, kept alive together; `pointer` is what CreateOperator takes.
    `inputs` and `outputs` are the request's tensors (dicts, or None for an optional input left out)."""

    def __init__(self, desc, inputs, outputs):
        self._keep = []
        self._tensors = {"input": inputs, "output": outputs}
        try:
            self.desc = self._operator(desc, 0)
        except (KeyError, IndexError, TypeError, ValueError, OverflowError) as error:
            if isinstance(error, PackError):
                raise
            # A malformed request is answered, not fatal to the worker (the app's descs.py never sends one).
            raise PackError(f"a malformed desc: {type(error).__name__}: {error}") from error
        self.pointer = ctypes.byref(self.desc)

    def _hold(self, value):
        self._keep.append(value)
        return value

    def _operator(self, desc, depth):
        if depth > MAX_DEPTH:
            raise PackError(f"operator descs nested deeper than {MAX_DEPTH}")
        fields = desc["fields"]
        types = tuple(field[0] for field in fields)
        for position, field in enumerate(fields):
            if field[0] not in FIELD_CTYPES:
                raise PackError(f"field {position}: unknown field type {field[0]!r}")
            if field[0] in ARRAYS:
                self._check_count(fields, position)
        values = [self._value(field[0], field[1], depth) for field in fields]
        packed = self._hold(desc_layout(types)(*values))
        return OperatorDesc(desc["type"], ctypes.addressof(packed))

    @staticmethod
    def _check_count(fields, position):
        field_type, value, count_position = fields[position]
        count_type, count = fields[count_position][:2]
        length = 0 if value is None else len(value)
        if count_type != "UINT" or length != count:
            raise PackError(f"field {position}: a {field_type} of {length} elements where field {count_position} "
                            f"counts {count}")

    def _value(self, field_type, value, depth):
        if value is None:
            return None
        if field_type == "TENSOR_DESC":
            return ctypes.pointer(self._hold(self._tensor(value)))
        if field_type == "TENSOR_DESC_ARRAY":
            return self._array(TensorDesc, [self._tensor(v) for v in value])
        if field_type == "OPERATOR_DESC":
            return ctypes.pointer(self._hold(self._operator(value, depth + 1)))
        if field_type == "OPERATOR_DESC_ARRAY":
            return self._array(OperatorDesc, [self._operator(v, depth + 1) for v in value])
        if field_type in ELEMENTS:
            return self._array(ELEMENTS[field_type], value)
        if field_type == "SCALE_BIAS":
            return ctypes.pointer(self._hold(ScaleBias(*value)))
        if field_type == "SIZE_2D":
            return Size2D(*value)
        if field_type == "SCALAR_UNION":
            return int.from_bytes(bytes.fromhex(value), "little")
        return value

    def _array(self, element, values):
        array = self._hold((element * len(values))(*values))
        return ctypes.cast(array, ctypes.POINTER(element))

    def _tensor(self, reference):
        side, number = reference
        tensor = self._tensors[side][number]
        if tensor is None:
            raise PackError(f"{side} {number} is a tensor left out, referenced by a tensor field")
        sizes = self._hold((ctypes.c_uint * len(tensor["sizes"]))(*tensor["sizes"]))
        strides = None
        if tensor.get("strides") is not None:
            if len(tensor["strides"]) != len(tensor["sizes"]):
                raise PackError(f"{side} {number}: {len(tensor['strides'])} strides for {len(tensor['sizes'])} sizes")
            strides = self._hold((ctypes.c_uint * len(tensor["strides"]))(*tensor["strides"]))
        buffer = self._hold(BufferTensorDesc(DATA_TYPES[tensor["data_type"]], TENSOR_FLAGS[tensor.get("flags", "NONE")],
                                             len(tensor["sizes"]), sizes, strides, tensor["total_bytes"],
                                             tensor.get("alignment", 0)))
        return TensorDesc(TENSOR_TYPE_BUFFER, ctypes.addressof(buffer))
