"""The bitwise family's reference core: each element's raw bits, the data type only setting the width.

Every page of the family says so ("The bitwise operation is applied to tensor data in its native encoding.
Therefore, the tensor data type is ignored except for determining the width of each element", e.g.
https://learn.microsoft.com/windows/win32/api/directml/ns-directml-dml_element_wise_bit_and_operator_desc), so each
function works on the unsigned integer of the element's width and views the result back.

The shifts' pages give only f(a, b) = (a << b) and (a >> b), "a logical left/right shift ... by a number of bits given
by the corresponding element of BTensor", and are silent about amounts of the element's width or more. What they do
then is DirectML's own answer, observed on DirectML 1.13 (feature level 6_2) and modelled here exactly
(docs/directml.md, "Shifts past the width"; tests/directml/test_directml_bitwise.py):
- UINT8, UINT16 and UINT32 elements shift in 32 bits by the amount's low 5 bits (B & 31) and keep their own width:
  UINT8 0x8B << 8 is 0, << 32 is 0x8B, << 33 is 0x16; UINT32 0x8000000B << 32 is 0x8000000B.
- UINT64 elements shift by the amount's low 32 bits s when s < 32, else by 32 | (s & 31): never by 64 or more.
  0x800000000000000B << 64 is 0x0000000B00000000 (a shift by 32), << 2^32 is the element unchanged.
"""

import numpy as np

from ...datatypes import unsigned_of_width
from ...errors import DescriptorError
from ...guard import check_tensor
from .. import parallel

# The amount's bits a 32-bit shift uses, and the 64-bit shifts' split between the low and the high word.
LOW_FIVE_BITS = 31
HIGH_WORD_SHIFT = 32
LOW_WORD = 0xFFFFFFFF


def _bits(x):
    """`x` viewed as the unsigned integer of its width."""
    return x.view(unsigned_of_width(x.dtype.itemsize))


def _checked(arrays, labels):
    for array, label in zip(arrays, labels):
        check_tensor(array, label, dims=(1, 8))
    a = arrays[0]
    for array, label in zip(arrays[1:], labels[1:]):
        if array.dtype != a.dtype:
            raise DescriptorError(f"{label} DataType {array.dtype}: must equal {labels[0]} DataType {a.dtype}")
        if array.shape != a.shape:
            raise DescriptorError(
                f"{label} Sizes {list(array.shape)}: must equal {labels[0]} Sizes {list(a.shape)} "
                "(DirectML has no implicit broadcasting; use a 0 stride in the descriptor)"
            )


def _elementwise(function, out_dtype, *arrays):
    """function(out piece, *input pieces as unsigned bits) over the arrays, on every core for large ones."""
    out = np.empty(arrays[0].shape, dtype=out_dtype)
    parallel.elementwise(function, out, *(_bits(a) for a in arrays))
    return out


def _binary(ufunc, a, b):
    _checked([a, b], ["ATensor", "BTensor"])
    return _elementwise(lambda o, x, y: ufunc(x, y, out=o), unsigned_of_width(a.dtype.itemsize), a, b).view(a.dtype)


def bit_and(a, b):
    return _binary(np.bitwise_and, a, b)


def bit_or(a, b):
    return _binary(np.bitwise_or, a, b)


def bit_xor(a, b):
    return _binary(np.bitwise_xor, a, b)


def bit_not(x):
    _checked([x], ["InputTensor"])
    return _elementwise(lambda o, v: np.invert(v, out=o), unsigned_of_width(x.dtype.itemsize), x).view(x.dtype)


def bit_count(x, output_type=np.uint32):
    """The number of bits set in each element, as `output_type` (DirectML writes UINT32 or UINT8)."""
    _checked([x], ["InputTensor"])
    return _elementwise(lambda o, v: np.copyto(o, np.bitwise_count(v), casting="unsafe"), output_type, x)


def shift_amounts(b):
    """The number of bits DirectML shifts each element by for the amounts `b` (unsigned, the elements' type)."""
    if b.dtype.itemsize < 8:
        return b & b.dtype.type(LOW_FIVE_BITS)
    s = b & np.uint64(LOW_WORD)
    return np.where(s < HIGH_WORD_SHIFT, s, np.uint64(HIGH_WORD_SHIFT) | (s & np.uint64(LOW_FIVE_BITS)))


def _shift(a, b, left):
    _checked([a, b], ["ATensor", "BTensor"])
    bits = unsigned_of_width(a.dtype.itemsize)
    # Narrow elements shift in 32 bits and are cut back to their width, so amounts of 8..31 (UINT8) empty them.
    wide = np.dtype(np.uint32) if bits.itemsize < 4 else bits
    shift = np.left_shift if left else np.right_shift

    def work(out, x, y):
        np.copyto(out, shift(x.astype(wide), shift_amounts(y).astype(wide)), casting="unsafe")

    return _elementwise(work, bits, a, b).view(a.dtype)


def bit_shift_left(a, b):
    return _shift(a, b, left=True)


def bit_shift_right(a, b):
    return _shift(a, b, left=False)
