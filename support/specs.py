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


# ---------------------------------------------------------------- gather and scatter, as DirectML 1.13 runs them

# The bit of each index type that makes an index count from the end, as observed on DirectML (docs/directml.md,
# "Gather and scatter"): the top bit of INT32, INT64 and, unlike the pages' "signed integral type", UINT64 too.
_SIGN = {"int32": 31, "int64": 63, "uint64": 63, "uint32": None}


def directml_index(index, size, dtype):
    """An index as DirectML uses it: its low 32 bits, plus the axis size when its sign bit is set, modulo 2^32."""
    bits = int(np.array(index, dtype).view(f"u{np.dtype(dtype).itemsize}"))
    sign = _SIGN[np.dtype(dtype).name]
    low = bits % 2**32
    return (low + size) % 2**32 if sign is not None and (bits >> sign) & 1 else low


def _address(coordinates, sizes):
    """The row-major element address of coordinates (Python ints, indices standing in), modulo 2^32."""
    return sum(c * s for c, s in zip(coordinates, packed_strides(sizes))) % 2**32


def _buffer_list(x):
    """x's elements then the zero elements that round its bytes up to 4, as Python scalars of x's type."""
    count = -(-x.size * x.itemsize // 4) * 4 // x.itemsize
    return list(x.ravel()) + [x.dtype.type(0)] * (count - x.size)


def _reads(x, address_of, out_sizes):
    """Each output element read at min(address, last buffer element)."""
    buffer = _buffer_list(x)
    values = [buffer[min(address_of(o), len(buffer) - 1)] for o in itertools.product(*(range(s) for s in out_sizes))]
    return np.array(values, x.dtype).reshape(out_sizes)


def gather_spec(x, indices, axis, index_dimensions):
    """DML_GATHER_OPERATOR_DESC element by element: output = input[..., indices[...], ...] with the output's
    coordinates right-aligned to the DimensionCount (the first IndexDimensions - 1 input dimensions read at 0)."""
    r, k = x.ndim, index_dimensions
    chosen = indices.reshape(indices.shape[r - k:])
    whole = x.shape[:axis] + chosen.shape + x.shape[axis + 1:]
    out_sizes = (1,) + whole if k == 0 else whole[k - 1:]
    full_lead = (0,) * max(k - 1, 0)

    def address_of(o):
        full = full_lead + (o[1:] if k == 0 else o)
        index = directml_index(chosen[full[axis:axis + k]], x.shape[axis], indices.dtype)
        return _address(full[:axis] + (index,) + full[axis + k:], x.shape)

    return _reads(x, address_of, out_sizes)


def gather_elements_spec(x, indices, axis):
    """output[c] = input[c with c[Axis] = indices[c]]; an axis of size 1 is read at 0 whatever the index."""

    def address_of(o):
        index = 0 if x.shape[axis] == 1 else directml_index(indices[o], x.shape[axis], indices.dtype)
        return _address(o[:axis] + (index,) + o[axis + 1:], x.shape)

    return _reads(x, address_of, indices.shape)


def _nd_parts(x_sizes, indices, input_dimensions, indices_dimensions, batch_dimensions):
    """(meaningful input sizes, meaningful indices, batch count, tuple size) of an ND call."""
    meaningful_input = x_sizes[len(x_sizes) - input_dimensions:]
    meaningful_indices = indices.reshape(indices.shape[indices.ndim - indices_dimensions:])
    return meaningful_input, meaningful_indices, batch_dimensions, indices.shape[-1]


def _nd_address(x_sizes, meaningful_input, tuples, b, t, result_coordinates, dtype):
    """The input address of one meaningful result element: batch coordinates, the tuple's coordinates, the rest."""
    tup = tuples[result_coordinates[:tuples.ndim - 1]]
    coordinates = list(result_coordinates[:b])
    coordinates += [directml_index(tup[c], meaningful_input[b + c], dtype) for c in range(t)]
    coordinates += list(result_coordinates[tuples.ndim - 1:])
    lead = len(x_sizes) - len(meaningful_input)
    return _address((0,) * lead + tuple(coordinates), x_sizes)


def gather_nd_spec(x, indices, input_dimensions, indices_dimensions, batch_dimensions=0):
    """DML_GATHER_ND1_OPERATOR_DESC: output[batch, ...] = input[batch, indices[batch, ..., :], ...]."""
    meaningful_input, tuples, b, t = _nd_parts(x.shape, indices, input_dimensions, indices_dimensions,
                                               batch_dimensions)
    meaningful = tuples.shape[:-1] + meaningful_input[b + t:]
    out = _reads(x, lambda o: _nd_address(x.shape, meaningful_input, tuples, b, t, o, indices.dtype), meaningful)
    return out.reshape((1,) * (x.ndim - len(meaningful)) + meaningful)


def _writes(x, updates, destinations):
    """x, then every update written in row-major order where its address lies inside the output's buffer."""
    out = x.copy().ravel()
    for update, address in zip(updates.ravel(), destinations):
        if address < out.size:
            out[address] = update
    return out.reshape(x.shape)


def scatter_elements_spec(x, indices, updates, axis):
    """DML_SCATTER_OPERATOR_DESC: output = input; output[c with c[Axis] = indices[c]] = updates[c], in order."""
    destinations = []
    for c in itertools.product(*(range(s) for s in indices.shape)):
        index = 0 if x.shape[axis] == 1 else directml_index(indices[c], x.shape[axis], indices.dtype)
        destinations.append(_address(c[:axis] + (index,) + c[axis + 1:], x.shape))
    return _writes(x, updates, destinations)


def scatter_nd_spec(x, indices, updates, input_dimensions, indices_dimensions):
    """DML_SCATTER_ND_OPERATOR_DESC: output = input; output[indices[...]] = updates[...], in order."""
    meaningful_input, tuples, b, t = _nd_parts(x.shape, indices, input_dimensions, indices_dimensions, 0)
    meaningful = tuples.shape[:-1] + meaningful_input[t:]
    destinations = [_nd_address(x.shape, meaningful_input, tuples, 0, t, c, indices.dtype)
                    for c in itertools.product(*(range(s) for s in meaningful))]
    return _writes(x, updates, destinations)


def one_hot_spec(indices, values, axis, depth):
    """DML_ONE_HOT_OPERATOR_DESC: OnValue (ValuesTensor's element 1) where the sequence's index (counted from the end
    when negative; a UINT64 one compared whole) equals the position along Axis, OffValue (element 0) elsewhere."""
    off, on = values.ravel()[:2]
    sizes = indices.shape[:axis] + (depth,) + indices.shape[axis + 1:]
    out = np.full(sizes, off, values.dtype)
    for c in itertools.product(*(range(s) for s in sizes)):
        index = indices[c[:axis] + (0,) + c[axis + 1:]]
        position = int(index) if indices.dtype == np.uint64 else directml_index(index, depth, indices.dtype)
        if position == c[axis]:
            out[c] = on
    return out


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


PHILOX_M = (0xD2511F53, 0xCD9E8D57)
PHILOX_W = (0x9E3779B9, 0xBB67AE85)


def philox_4x32_10(state, count):
    """`count` 32-bit values of Philox 4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
    SC11) from DML_RANDOM_GENERATOR's state: a 128-bit counter (four 32-bit words, the lowest first) and a 64-bit
    key; each counter value gives four values, the counter rising by one for each four. Plain Python integers."""
    counter = sum(int(word) << (32 * i) for i, word in enumerate(state[:4]))
    values = []
    for block in range(-(-count // 4)):
        c = [((counter + block) >> (32 * i)) & 0xFFFFFFFF for i in range(4)]
        k0, k1 = int(state[4]), int(state[5])
        for _ in range(10):
            p0, p1 = PHILOX_M[0] * c[0], PHILOX_M[1] * c[2]
            c = [(p1 >> 32) ^ c[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k1, p0 & 0xFFFFFFFF]
            k0, k1 = (k0 + PHILOX_W[0]) & 0xFFFFFFFF, (k1 + PHILOX_W[1]) & 0xFFFFFFFF
        values += c
    return values[:count]
