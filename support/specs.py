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


# ---------------------------------------------------------------- slice, pad, tile, reverse, upsample


def _every_index(shape):
    return itertools.product(*(range(s) for s in shape))


def slice1_spec(x, offsets, window_sizes, strides, output_sizes):
    """DML_SLICE1_OPERATOR_DESC's pseudo-code: CopyStart = offsets, moved to the window's end where a stride is
    negative; Output[o] = Input[CopyStart + strides * o]."""
    start = [off + size - 1 if stride < 0 else off for off, size, stride in zip(offsets, window_sizes, strides)]
    out = np.empty(output_sizes, dtype=x.dtype)
    for o in _every_index(output_sizes):
        out[o] = x[tuple(s + st * i for s, st, i in zip(start, strides, o))]
    return out


def _reflected(j, n, mode):
    """The input index an out-of-range index j reads, folding over the edges one step at a time, as one would by
    hand: REFLECTION bounces off the edge elements, SYMMETRIC off the edges between elements."""
    if n == 1 or mode == "EDGE":
        return min(max(j, 0), n - 1)
    while not 0 <= j < n:
        if mode == "REFLECTION":
            j = -j if j < 0 else 2 * (n - 1) - j
        else:
            j = -j - 1 if j < 0 else 2 * n - 1 - j
    return j


def padding1_spec(x, mode, start, end, value):
    """DML_PADDING1_OPERATOR_DESC: the input at StartPadding, the rest by the mode (the value, the edge, or a mirror
    folded as often as it takes)."""
    shape = tuple(n + a + b for n, a, b in zip(x.shape, start, end))
    out = np.empty(shape, dtype=x.dtype)
    for o in _every_index(shape):
        j = [i - a for i, a in zip(o, start)]
        if all(0 <= k < n for k, n in zip(j, x.shape)):
            out[o] = x[tuple(j)]
        elif mode == "CONSTANT":
            out[o] = value
        else:
            out[o] = x[tuple(_reflected(k, n, mode) for k, n in zip(j, x.shape))]
    return out


def tile_spec(x, repeats):
    shape = tuple(n * r for n, r in zip(x.shape, repeats))
    out = np.empty(shape, dtype=x.dtype)
    for o in _every_index(shape):
        out[o] = x[tuple(i % n for i, n in zip(o, x.shape))]
    return out


def reverse_subsequences_spec(x, lengths, axis):
    """Every line along Axis reversed over its first L elements, L its length as DirectML 1.13 reads it: the low 32
    bits, and an index past the line read at its last element (docs/directml.md)."""
    out = np.empty_like(x)
    n = x.shape[axis]
    for o in _every_index(x.shape):
        line = tuple(0 if d == axis else i for d, i in enumerate(o))
        length = int(lengths[line]) % 2**32
        i = o[axis]
        source = min(length - 1 - i, n - 1) if i < length else i
        out[o] = x[o[:axis] + (source,) + o[axis + 1:]]
    return out


def upsample_2d_spec(x, height_scale, width_scale):
    """NEAREST_NEIGHBOR with whole scales: output (h, w) reads input (h div scale, w div scale); a FLOAT16 signalling
    NaN (exponent all ones, mantissa not 0, its top bit clear) gets that top bit set, as DirectML 1.13 writes it."""
    shape = (*x.shape[:-2], x.shape[-2] * height_scale, x.shape[-1] * width_scale)
    out = np.empty(shape, dtype=x.dtype)
    for o in _every_index(shape):
        out[o] = x[(*o[:-2], o[-2] // height_scale, o[-1] // width_scale)]
    if x.dtype == np.float16:
        bits = out.view(np.uint16).reshape(-1)
        for i, b in enumerate(bits.tolist()):
            if b & 0x7C00 == 0x7C00 and b & 0x03FF and not b & 0x0200:
                bits[i] = b | 0x0200
    return out
