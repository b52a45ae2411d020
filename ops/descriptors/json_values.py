"""DxDispatch's readers of single JSON values (microsoft/DirectML DxDispatch/src/model/JsonParsers.cpp), shared by
the resources' initializers and the operator descs' fields: numbers as rapidjson types them, narrowed as gsl::narrow
narrows them, floats rounded as DxDispatch stores them. Every refusal is a DescriptorError starting with the JSON
path of the value."""

from __future__ import annotations

import math

import numpy as np

from ..datatypes import FLOAT_TYPES, NUMPY_DTYPES
from ..errors import DescriptorError
from ..tensor_desc import is_uint

UINT32_MAX = 2**32 - 1
UINT64_MAX = 2**64 - 1
FLOAT_WORDS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def fail(path, message):
    raise DescriptorError(f"{path}: {message}" if path else message)


def float_value(value, path):
    """ParseFloatingPointNumber: a number (an integer only if a double holds it exactly, IsLosslessDouble) or
    the strings inf, -inf, nan in any letter case (_stricmp), nothing else (JsonParsers.cpp)."""
    if isinstance(value, str) and value.lower() in FLOAT_WORDS:
        return FLOAT_WORDS[value.lower()]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        fail(path, f"{value!r:.60}: expected a number or one of 'NaN', 'Inf', '-Inf'")
    if isinstance(value, int) and abs(value) <= UINT64_MAX and float(value) != value:
        fail(path, f"{value}: an integer a double cannot hold exactly (rapidjson IsLosslessDouble is false)")
    try:
        return float(value)
    except OverflowError:
        fail(path, f"{value}: too large for a floating-point value")


def int_value(value, data_type, path):
    """ParseInt8 .. ParseUInt64: a JSON integer (IsInt64 / IsUint64; 1.0 and 1e0 are doubles there),
    narrowed with gsl::narrow, which throws when the value does not fit (JsonParsers.cpp)."""
    if isinstance(value, bool) or not isinstance(value, int):
        fail(path, f"{value!r:.60}: {data_type} values must be JSON integers (DxDispatch reads 1.0 and 1e0 as "
                   "doubles)")
    info = np.iinfo(NUMPY_DTYPES[data_type])
    if not info.min <= value <= info.max:
        kind = "an unsigned" if info.min == 0 and value < 0 else "a"
        fail(path, f"{value}: outside {data_type}'s range [{info.min}, {info.max}]; DxDispatch needs {kind} "
                   f"{data_type} value here")
    return value


def typed(values, data_type):
    """Python scalars in the element type as DxDispatch stores them: FLOAT16 through float first, because
    ParseFloat16 reads a float and converts it with half_float::half(float), round to nearest in the
    half 2.1.0 that DxDispatch fetches (DxDispatch/cmake/half.cmake; half.hpp HALF_ROUND_STYLE defaults to 1)."""
    if data_type in FLOAT_TYPES:
        wide = np.asarray(values, dtype=np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            if data_type == "FLOAT16":
                return wide.astype(np.float32).astype(np.float16)
            return wide.astype(NUMPY_DTYPES[data_type])
    return np.asarray(values, dtype=object).astype(NUMPY_DTYPES[data_type])


def scalar(value, data_type, path):
    """One value of `data_type` as Parse<Type> reads it (before typed() stores it)."""
    if data_type in FLOAT_TYPES:
        return float_value(value, path)
    return int_value(value, data_type, path)


def uint_value(value, path, name, limit=UINT32_MAX):
    """ParseUInt32 / ParseUInt64: a JSON integer (rapidjson IsUint64) that fits."""
    if not is_uint(value, limit):
        bits = 32 if limit < 2**32 else 64
        fail(path, f"{name} {value!r:.60}: must be a JSON integer in [0, 2^{bits}-1] (1.0 is not one)")
    return value
