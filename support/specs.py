"""Plain-loop specifications, straight from the definitions, that property tests hold the fast core to (the
Tensor Puzzles way): slow and obvious on purpose."""

import itertools

import numpy as np

from ops.tensor_desc import normalize_tensor_desc, packed_strides, type_name


def make_tensor_desc(data_type, sizes, strides=None, **fields):
    """TensorDesc from Python values (fields as in the C struct), checked like a JSON desc."""
    obj = {"DataType": type_name(data_type), "Sizes": [int(s) for s in sizes], **fields}
    if strides is not None:
        obj["Strides"] = [int(s) for s in strides]
    return normalize_tensor_desc(obj)


def identity_spec(input_buffer, input_sizes, input_strides, output_buffer, output_strides):
    """Plain loops over every logical index, straight from the definitions (for tests): returns a new buffer."""
    result = output_buffer.copy()
    in_strides = input_strides or packed_strides(input_sizes)
    out_strides = output_strides or packed_strides(input_sizes)
    for index in itertools.product(*(range(s) for s in input_sizes)):
        source = sum(i * s for i, s in zip(index, in_strides))
        destination = sum(i * s for i, s in zip(index, out_strides))
        result[destination] = input_buffer[source]
    return result


def _element_bits(array):
    """Each element's bit pattern as a Python int, in C order."""
    return [int(v) for v in array.view(f"u{array.dtype.itemsize}").ravel()]


def _from_bits(patterns, like, dtype=None):
    dtype = np.dtype(dtype or like.dtype)
    return np.array(patterns, dtype=f"u{dtype.itemsize}").view(dtype).reshape(like.shape)


def _bit(value, k):
    return (value >> k) & 1


def directml_shift_amount(b, width):
    """What DirectML shifts an element of `width` bits by for the amount `b`, as observed on DirectML
    (docs/directml.md, "Shifts past the width"): 8-, 16- and 32-bit elements by b mod 32; 64-bit ones by b's low
    32 bits s, or 32 + (s mod 32) once s reaches 32."""
    if width < 64:
        return b % 32
    s = b % 2**32
    return s if s < 32 else 32 + s % 32


def bitwise_spec(name, inputs, output_type=None):
    """The bitwise family bit by bit: output bit k of every element from the definitions on its API page (AND, OR,
    XOR per bit of A and B; NOT flips it; a left shift by e takes A's bit k - e, a right shift A's bit k + e, zeros
    where there is none; BIT_COUNT adds the bits up)."""
    x = inputs[0]
    width = x.dtype.itemsize * 8
    elements = [_element_bits(a) for a in inputs]
    per_bit = {"ELEMENT_WISE_BIT_AND": lambda p, q: p & q, "ELEMENT_WISE_BIT_OR": lambda p, q: p | q,
               "ELEMENT_WISE_BIT_XOR": lambda p, q: p ^ q}
    out = []
    for values in zip(*elements):
        if name == "ELEMENT_WISE_BIT_COUNT":
            out.append(sum(_bit(values[0], k) for k in range(width)))
            continue
        bits = []
        for k in range(width):
            if name in per_bit:
                bits.append(per_bit[name](_bit(values[0], k), _bit(values[1], k)))
            elif name == "ELEMENT_WISE_BIT_NOT":
                bits.append(1 - _bit(values[0], k))
            else:
                e = directml_shift_amount(values[1], width)
                source = k - e if name == "ELEMENT_WISE_BIT_SHIFT_LEFT" else k + e
                bits.append(_bit(values[0], source) if 0 <= source < width else 0)
        out.append(sum(bit << k for k, bit in enumerate(bits)))
    return _from_bits(out, x, output_type)
