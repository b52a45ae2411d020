"""DirectML tensor data types and their numpy equivalents."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import DTypeLike

from .errors import DescriptorError
from .names import enum_suffix

PREFIX = "DML_TENSOR_DATA_TYPE_"

# Enum order of DML_TENSOR_DATA_TYPE in DirectML.h (UNKNOWN = 0).
DML_TYPES = (
    "FLOAT32",
    "FLOAT16",
    "UINT32",
    "UINT16",
    "UINT8",
    "INT32",
    "INT16",
    "INT8",
    "FLOAT64",
    "UINT64",
    "INT64",
)

NUMPY_DTYPES = {
    "FLOAT32": np.dtype(np.float32),
    "FLOAT16": np.dtype(np.float16),
    "UINT32": np.dtype(np.uint32),
    "UINT16": np.dtype(np.uint16),
    "UINT8": np.dtype(np.uint8),
    "INT32": np.dtype(np.int32),
    "INT16": np.dtype(np.int16),
    "INT8": np.dtype(np.int8),
    "FLOAT64": np.dtype(np.float64),
    "UINT64": np.dtype(np.uint64),
    "INT64": np.dtype(np.int64),
}

_BY_NUMPY = {dtype: name for name, dtype in NUMPY_DTYPES.items()}

FLOAT_TYPES = ("FLOAT64", "FLOAT32", "FLOAT16")


def type_name(data_type: DTypeLike, field: str = "DataType") -> str:
    """Canonical DML type name (no prefix) from a name with or without prefix, or a numpy dtype."""
    if isinstance(data_type, str):
        name = enum_suffix(data_type, PREFIX, NUMPY_DTYPES)
        if name:
            return name
        raise DescriptorError(
            f"{field} {data_type!r}: not a DirectML data type; expected one of {', '.join(DML_TYPES)}"
        )
    try:
        dtype = np.dtype(data_type)
    except TypeError:
        raise DescriptorError(f"{field} {data_type!r}: not a DirectML data type") from None
    if dtype.newbyteorder("=") in _BY_NUMPY and dtype.isnative:
        return _BY_NUMPY[dtype.newbyteorder("=")]
    raise DescriptorError(
        f"{field} {dtype}: no DirectML data type; expected one of "
        + ", ".join(str(d) for d in NUMPY_DTYPES.values())
    )


def numpy_dtype(data_type: DTypeLike, field: str = "DataType") -> np.dtype:
    return NUMPY_DTYPES[type_name(data_type, field)]


def element_size(data_type, field="DataType"):
    return numpy_dtype(data_type, field).itemsize


def unsigned_of_width(itemsize):
    """The unsigned integer dtype whose width matches, for moving bit patterns unchanged."""
    return np.dtype(f"u{itemsize}")


def scalar_value(value, data_type, field):
    """`value` (a Python or numpy number) as a numpy scalar of `data_type`, as a DML_SCALAR_UNION of that type holds
    it: an integer type takes an integer in its range; a float type a number within its range, an infinity or NaN,
    rounded to nearest (ties to even) as numpy converts it (and DxDispatch reads a JSON number)."""
    dtype = numpy_dtype(data_type)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise DescriptorError(f"{field} {value!r:.40}: must be a number")
    if dtype.kind == "f":
        if math.isfinite(float(value)) and abs(float(value)) > float(np.finfo(dtype).max):
            raise DescriptorError(f"{field} {value!r}: beyond {type_name(dtype)}'s range (±{np.finfo(dtype).max})")
        return dtype.type(value)
    if isinstance(value, (float, np.floating)) and not float(value).is_integer():
        raise DescriptorError(f"{field} {value!r}: a {type_name(dtype)} holds integers only")
    info = np.iinfo(dtype)
    if not info.min <= int(value) <= info.max:
        raise DescriptorError(f"{field} {value!r}: outside {type_name(dtype)}'s range [{info.min}, {info.max}]")
    return dtype.type(int(value))
