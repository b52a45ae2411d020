"""DirectML's C structures for the operators this project covers, as ctypes, built from the core's tensor descs.

Layouts, field order and enum values are facts from DirectML.h (microsoft/DirectML): DML_TENSOR_DATA_TYPE counts
UNKNOWN=0, FLOAT32, FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64; DML_OPERATOR_TYPE
counts INVALID=0 then the operators in declaration order (ELEMENT_WISE_IDENTITY 1, SPLIT 62, JOIN 63,
DEPTH_TO_SPACE1 113, SPACE_TO_DEPTH1 114, ELEMENT_WISE_BIT_OR 122). Only ctypes and the standard library are used:
this module runs inside the DirectML worker.
"""

import ctypes

DATA_TYPES = {
    "FLOAT32": 1, "FLOAT16": 2, "UINT32": 3, "UINT16": 4, "UINT8": 5, "INT32": 6, "INT16": 7, "INT8": 8,
    "FLOAT64": 9, "UINT64": 10, "INT64": 11,
}
OPERATOR_TYPES = {
    "ELEMENT_WISE_IDENTITY": 1, "SPLIT": 62, "JOIN": 63, "DEPTH_TO_SPACE1": 113, "SPACE_TO_DEPTH1": 114,
    "ELEMENT_WISE_BIT_OR": 122,
}
ORDERS = {"DEPTH_COLUMN_ROW": 0, "COLUMN_ROW_DEPTH": 1}
TENSOR_TYPE_BUFFER = 1
FEATURE_TENSOR_DATA_TYPE_SUPPORT = 0
FEATURE_FEATURE_LEVELS = 1
EXECUTION_FLAG_DISABLE_META_COMMANDS = 0x2
FEATURE_LEVEL_CODES = (0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000, 0x5100, 0x5200, 0x6000, 0x6100,
                       0x6200, 0x6300, 0x6400)


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


_TENSOR = ctypes.POINTER(TensorDesc)


class IdentityDesc(ctypes.Structure):
    _fields_ = [("InputTensor", _TENSOR), ("OutputTensor", _TENSOR), ("ScaleBias", ctypes.POINTER(ScaleBias))]


class BitOrDesc(ctypes.Structure):
    _fields_ = [("ATensor", _TENSOR), ("BTensor", _TENSOR), ("OutputTensor", _TENSOR)]


class DepthSpaceDesc(ctypes.Structure):
    """DML_DEPTH_TO_SPACE1_OPERATOR_DESC and DML_SPACE_TO_DEPTH1_OPERATOR_DESC share this layout."""

    _fields_ = [("InputTensor", _TENSOR), ("OutputTensor", _TENSOR), ("BlockSize", ctypes.c_uint),
                ("Order", ctypes.c_int)]


class SplitDesc(ctypes.Structure):
    _fields_ = [("InputTensor", _TENSOR), ("OutputCount", ctypes.c_uint), ("OutputTensors", _TENSOR),
                ("Axis", ctypes.c_uint)]


class JoinDesc(ctypes.Structure):
    _fields_ = [("InputCount", ctypes.c_uint), ("InputTensors", _TENSOR), ("OutputTensor", _TENSOR),
                ("Axis", ctypes.c_uint)]


class FeatureLevelsQuery(ctypes.Structure):
    _fields_ = [("RequestedFeatureLevelCount", ctypes.c_uint), ("RequestedFeatureLevels", ctypes.POINTER(ctypes.c_int))]


class OperatorDescription:
    """A DML_OPERATOR_DESC and everything it points to, kept alive together; `pointer` is what CreateOperator takes."""

    def __init__(self, op, inputs, outputs, attrs):
        self._keep = []
        tensors_in = [self._tensor(t) for t in inputs]
        tensors_out = [self._tensor(t) for t in outputs]
        if op == "ELEMENT_WISE_IDENTITY":
            scale_bias = attrs.get("scale_bias")
            bias = ctypes.pointer(self._hold(ScaleBias(*scale_bias))) if scale_bias is not None else None
            desc = IdentityDesc(tensors_in[0], tensors_out[0], bias)
        elif op == "ELEMENT_WISE_BIT_OR":
            desc = BitOrDesc(tensors_in[0], tensors_in[1], tensors_out[0])
        elif op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
            desc = DepthSpaceDesc(tensors_in[0], tensors_out[0], attrs["block_size"], ORDERS[attrs["order"]])
        elif op == "SPLIT":
            desc = SplitDesc(tensors_in[0], len(outputs), self._array(outputs), attrs["axis"])
        elif op == "JOIN":
            desc = JoinDesc(len(inputs), self._array(inputs), tensors_out[0], attrs["axis"])
        else:
            raise ValueError(f"op: {op} is not one of {', '.join(OPERATOR_TYPES)}")
        self._hold(desc)
        self.desc = self._hold(OperatorDesc(OPERATOR_TYPES[op], ctypes.addressof(desc)))
        self.pointer = ctypes.byref(self.desc)

    def _hold(self, value):
        self._keep.append(value)
        return value

    def _buffer_desc(self, tensor):
        sizes = self._hold((ctypes.c_uint * len(tensor["sizes"]))(*tensor["sizes"]))
        strides = None
        if tensor.get("strides") is not None:
            strides = self._hold((ctypes.c_uint * len(tensor["strides"]))(*tensor["strides"]))
        return self._hold(BufferTensorDesc(DATA_TYPES[tensor["data_type"]], 0, len(tensor["sizes"]), sizes, strides,
                                           tensor["total_bytes"], 0))

    def _tensor(self, tensor):
        buffer = self._buffer_desc(tensor)
        return ctypes.pointer(self._hold(TensorDesc(TENSOR_TYPE_BUFFER, ctypes.addressof(buffer))))

    def _array(self, tensors):
        array = self._hold((TensorDesc * len(tensors))())
        for slot, tensor in zip(array, tensors):
            slot.Type = TENSOR_TYPE_BUFFER
            slot.Desc = ctypes.addressof(self._buffer_desc(tensor))
        return ctypes.cast(array, _TENSOR)
