"""DML_SCALE_BIAS on ELEMENT_WISE_IDENTITY: g(x) = x * Scale + Bias, as DirectML computes it.

DirectML's page does not say how that rounds per data type, so the arithmetic here is DirectML's as observed
(docs/directml.md, "ScaleBias"): DirectML 1.13 on vkd3d-proton 2.14 and lavapipe (x86-64), byte for byte over random
and edge-case inputs of every type it accepts:

- Scale 1 and Bias 0 (either zero): the plain copy, bit for bit (signalling NaNs and -0.0 arrive as they left).
- Otherwise each element in float32: x converted (FLOAT16 exactly, integers to nearest, ties to even), multiplied
  by Scale and rounded, then Bias added and rounded: two roundings to nearest even, not a fused multiply-add.
  Subnormals are kept. A NaN operand gives that NaN made quiet (Scale's before x's in the product, the product's
  before Bias's in the sum); an invalid operation (inf * 0, inf - inf) gives the NaN 0xFFC00000.
- Back to the data type: FLOAT32 as is; FLOAT16 rounded toward zero, but anything beyond +-65504 becomes +-inf, and
  a NaN keeps its sign and top payload bits; integers truncated toward zero and saturated to the type's range, NaN
  to 0.
- 64-bit types (INT64, UINT64, FLOAT64) with a ScaleBias: DirectML's CreateOperator refuses them (E_INVALIDARG at
  every feature level), and so does the core's validation.
"""

import numpy as np

from ...datatypes import type_name
from ...errors import DescriptorError

# What an invalid float32 operation gave (inf * 0, inf - inf): x86-64's default NaN, sign set.
INVALID_NAN = np.uint32(0xFFC00000)
QUIET_BIT = np.uint32(0x00400000)
FLOAT16_MAX_BITS = 0x477FE000  # 65504.0 as float32


def _mul_add_float32(x, scale, bias):
    """round(round(x * scale) + bias) in float32, NaNs as observed (see the module's docstring)."""
    scale, bias = np.float32(scale), np.float32(bias)
    with np.errstate(all="ignore"):
        product = x * scale
        invalid = (np.isinf(x) & (scale == 0)) | ((x == 0) & np.isinf(scale))
        bits = np.where(invalid, INVALID_NAN, product.view(np.uint32))
        bits = np.where(np.isnan(x), x.view(np.uint32) | QUIET_BIT, bits)
        if np.isnan(scale):
            bits = np.full_like(bits, np.float32(scale).view(np.uint32) | QUIET_BIT)
        product = bits.view(np.float32)
        total = product + bias
        invalid = np.isinf(product) & np.isinf(bias) & (np.signbit(product) != np.signbit(bias))
        bits = np.where(invalid, INVALID_NAN, total.view(np.uint32))
        if np.isnan(bias):
            bits = np.full_like(bits, np.float32(bias).view(np.uint32) | QUIET_BIT)
        bits = np.where(np.isnan(product), product.view(np.uint32), bits)
    return bits.view(np.float32)


def _float32_to_float16_toward_zero(values):
    """float32 -> float16 bits: truncated toward zero, beyond +-65504 to +-inf, NaN quiet with its top payload."""
    bits = values.view(np.uint32)
    sign = ((bits >> 16) & 0x8000).astype(np.uint16)
    magnitude = bits & 0x7FFFFFFF
    exponent = (magnitude >> 23).astype(np.int64)
    # Below float16's smallest normal: the value in units of 2**-24, truncated (the implicit bit made explicit).
    shift = np.clip(126 - exponent, 0, 31).astype(np.uint32)
    subnormal = np.where((exponent >= 1) & (exponent <= 112),
                         ((magnitude & 0x7FFFFF) | 0x800000) >> shift, 0).astype(np.uint32)
    # A normal float16: the exponent rebiased from 127 to 15, the mantissa's low 13 bits dropped.
    normal = (magnitude - np.uint32(0x38000000)) >> 13
    result = np.where(magnitude >= 0x38800000, normal, subnormal)
    result = np.where(magnitude > FLOAT16_MAX_BITS, 0x7C00, result)
    result = np.where(magnitude > 0x7F800000, 0x7E00 | ((magnitude >> 13) & 0x3FF), result)
    return (result.astype(np.uint16) | sign).view(np.float16)


def apply_scale_bias(values, scale, bias):
    """x * Scale + Bias over `values` (a numpy array of a DirectML data type) as DirectML computes it."""
    values = np.asarray(values)
    if float(np.float32(scale)) == 1.0 and float(np.float32(bias)) == 0.0:
        return values.copy()
    if values.dtype.itemsize == 8:
        raise DescriptorError(f"ScaleBias: DirectML refuses it for {type_name(values.dtype)} tensors")
    if values.dtype == np.float32:
        return _mul_add_float32(values, scale, bias)
    result = _mul_add_float32(values.astype(np.float32), scale, bias)
    if values.dtype == np.float16:
        return _float32_to_float16_toward_zero(result)
    info = np.iinfo(values.dtype)
    wide = np.trunc(np.nan_to_num(result.astype(np.float64), nan=0.0, posinf=np.inf, neginf=-np.inf))
    return np.clip(wide, info.min, info.max).astype(values.dtype)
