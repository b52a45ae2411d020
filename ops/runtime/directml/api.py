"""DirectML's C structures, as ctypes, built from the core's tensor descs and an operator's fields.

An operator arrives as its DML_OPERATOR_TYPE value and its desc's fields in C order, each a (kind, value) pair (the
registry's, ops/runtime/directml/__init__.py): "tensor" (which input or output), "tensors" (an array of them), "uint",
"enum" (its DirectML.h value), "float" or "scale_bias" (None or [Scale, Bias]); so any operator is packed without this
module knowing its name. Layouts and enum values are facts from DirectML.h (microsoft/DirectML): DML_TENSOR_DATA_TYPE
counts UNKNOWN=0, FLOAT32, FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64. Only ctypes and
the standard library are used: this module runs inside the DirectML worker.
"""

import ctypes
import functools

DATA_TYPES = {
    "FLOAT32": 1, "FLOAT16": 2, "UINT32": 3, "UINT16": 4, "UINT8": 5, "INT32": 6, "INT16": 7, "INT8": 8,
    "FLOAT64": 9, "UINT64": 10, "INT64": 11,
}
TENSOR_TYPE_BUFFER = 1
FEATURE_TENSOR_DATA_TYPE_SUPPORT = 0
FEATURE_FEATURE_LEVELS = 1
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


# A field of each kind as its C type: DML_TENSOR_DESC pointers, UINT, an enum (int), FLOAT, _Maybenull_
# DML_SCALE_BIAS*.
FIELD_TYPES = {"tensor": _TENSOR, "tensors": _TENSOR, "uint": ctypes.c_uint, "enum": ctypes.c_int,
               "float": ctypes.c_float, "scale_bias": ctypes.POINTER(ScaleBias)}


@functools.lru_cache(maxsize=64)
def desc_layout(kinds):
    """The ctypes Structure of a DML_*_OPERATOR_DESC whose fields are of these kinds, in C order."""
    return type("OperatorFields", (ctypes.Structure,),
                {"_fields_": [(f"field{i}", FIELD_TYPES[kind]) for i, kind in enumerate(kinds)]})


class FeatureLevelsQuery(ctypes.Structure):
    _fields_ = [("RequestedFeatureLevelCount", ctypes.c_uint), ("RequestedFeatureLevels", ctypes.POINTER(ctypes.c_int))]


class OperatorDescription:
    """A DML_OPERATOR_DESC and everything it points to, kept alive together; `pointer` is what CreateOperator takes."""

    def __init__(self, operator_type, fields, inputs, outputs):
        self._keep = []
        tensors = {"input": inputs, "output": outputs}
        values = []
        for kind, value in fields:
            if kind == "tensor":
                side, number = value
                values.append(self._tensor(tensors[side][number]))
            elif kind == "tensors":
                side, numbers = value
                values.append(self._array([tensors[side][number] for number in numbers]))
            elif kind == "scale_bias":
                values.append(None if value is None else ctypes.pointer(self._hold(ScaleBias(*value))))
            else:
                values.append(value)
        desc = self._hold(desc_layout(tuple(kind for kind, _ in fields))(*values))
        self.desc = self._hold(OperatorDesc(operator_type, ctypes.addressof(desc)))
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
