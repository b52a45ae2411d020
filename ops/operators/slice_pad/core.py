"""The data-movement family's reference core: each output element is a copy of one input element (or, in a
constant pad, of the padding value), found by index arithmetic alone.

SLICE1, PADDING1, TILE and UPSAMPLE_2D work axis by axis: along each axis d an output index o reads the input index
`sources[d][o]` (-1: no input element, the padding value). REVERSE_SUBSEQUENCES reads along one axis an index that
depends on the subsequence's length. These index arrays are the operators' definitions, the ones the teaching
formulas substitute numbers into and the detective reads back; the functions below compute the same outputs the
fastest way numpy offers (views and np.take, np.pad, np.tile, np.repeat, blocks of take_along_axis), and the tests
hold them to the index arrays and to plain-loop specs:

- SLICE1 (DML_SLICE1_OPERATOR_DESC): start = offset, or offset + window size - 1 for a negative stride; o -> start +
  stride * o.
- PADDING1 (DML_PADDING1_OPERATOR_DESC): with i = o - StartPadding and n the input's size, CONSTANT reads nothing
  outside [0, n); EDGE clamps i to [0, n - 1]; REFLECTION folds i over the edges without repeating them (period
  2(n - 1)); SYMMETRIC folds repeating them (period 2n). Pads wider than the input fold again, periodically, as the
  page says. Where the page is silent DirectML 1.13 decides (docs/directml.md, "Slice, pad and tile"): REFLECTION of
  a size-1 dimension repeats its one element.
- TILE: o -> o mod n. UPSAMPLE_2D in NEAREST_NEIGHBOR mode: o -> o div scale along the last two axes; the one
  operator here that does not copy every bit: DirectML 1.13 writes a FLOAT16 signalling NaN quiet (0x7C01 as 0x7E01),
  and the core does too.
- REVERSE_SUBSEQUENCES: along Axis, i -> L - 1 - i for i < L, else i, where L is the subsequence's length. Its page
  says lengths past the axis behave as if clamped to it; DirectML 1.13 does otherwise, and the core does what
  DirectML does (docs/directml.md): it reads a UINT64 length's low 32 bits, and clamps the index it reads to n - 1
  rather than the length, so with n = 4 a length of 5 gives [x3, x3, x2, x1], not [x3, x2, x1, x0].
"""

import numpy as np

from .. import parallel

PADDING_MODES = ("CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC")
LOW_32_BITS = 0xFFFFFFFF


def slice_sources(offset, window_size, stride, count):
    """The input index each of `count` output indices reads along one axis of a SLICE1."""
    start = offset + window_size - 1 if stride < 0 else offset
    return start + stride * np.arange(count, dtype=np.int64)


def slice_copied(window_size, stride):
    """MaxCopiedElements: how many elements a window of this size yields at this stride, 1 + (size - 1) div |stride|
    (the page's formula divides by the signed stride; DirectML takes its magnitude, as its Example 2 shows)."""
    return 1 + (window_size - 1) // abs(stride)


def padding_sources(size, start, end, mode):
    """The input index each output index reads along one padded axis: -1 where a CONSTANT pad writes the value."""
    i = np.arange(-start, size + end, dtype=np.int64)
    if mode == "CONSTANT":
        return np.where((i >= 0) & (i < size), i, -1)
    if mode == "EDGE" or size == 1:  # a size-1 dimension reflects (either way) to its one element
        return np.clip(i, 0, size - 1)
    if mode == "REFLECTION":
        period = 2 * (size - 1)
        folded = i % period
        return np.where(folded < size, folded, period - folded)
    period = 2 * size  # SYMMETRIC
    folded = i % period
    return np.where(folded < size, folded, period - 1 - folded)


def tile_sources(size, repeats):
    return np.arange(size * repeats, dtype=np.int64) % size


def upsample_sources(size, scale):
    return np.arange(size * scale, dtype=np.int64) // scale


def _as_slice(index):
    """A Python slice reading `index` (an arithmetic progression of a non-zero step), else None."""
    if len(index) == 1:
        return slice(int(index[0]), int(index[0]) + 1)
    step = int(index[1] - index[0])
    if step == 0 or not np.array_equal(np.diff(index), np.full(len(index) - 1, step)):
        return None
    stop = int(index[-1]) + (1 if step > 0 else -1)
    return slice(int(index[0]), None if stop < 0 else stop, step)


def _read(x, sources):
    """x read through per-axis index arrays, as a view where every axis reads a progression: a slice for those, one
    np.take along each other axis."""
    for d, index in enumerate(sources):
        if len(index) == x.shape[d] and np.array_equal(index, np.arange(x.shape[d])):
            continue
        window = _as_slice(index)
        x = x[(slice(None),) * d + (window,)] if window is not None else np.take(x, index, axis=d)
    return x


def gather_axes(x, sources):
    """x read through per-axis index arrays: out[o0, o1, ...] = x[sources[0][o0], sources[1][o1], ...]. The last
    step copies on every core (parallel.copy), so a slice costs about one copy of its output."""
    out = np.empty(tuple(len(s) for s in sources), dtype=x.dtype)
    parallel.copy(out, _read(x, sources))
    return out


def reverse_sources(shape, lengths, axis, start=0, stop=None):
    """The index along `axis` each output element at positions [start, stop) along it reads: i -> min(L - 1 - i,
    n - 1) for i < L, else i, L being the subsequence's length's low 32 bits (what DirectML 1.13 reads)."""
    n = shape[axis]
    stop = n if stop is None else stop
    lengths = (lengths.astype(np.uint64) & np.uint64(LOW_32_BITS)).astype(np.int64)
    along = np.arange(start, stop, dtype=np.int64).reshape([stop - start if d == axis else 1
                                                            for d in range(len(shape))])
    reversed_index = np.minimum(lengths - 1 - along, n - 1)
    return np.where(along < lengths, reversed_index, along)


def slice1(x, offsets, window_sizes, strides, output_sizes):
    return gather_axes(x, [slice_sources(*args) for args in zip(offsets, window_sizes, strides, output_sizes)])


# np.pad's modes are DirectML's, pads wider than the input and size-1 dimensions included (checked against DirectML,
# docs/directml.md; the tests hold it to padding_sources and a plain-loop spec): it copies the input once and fills
# the borders by slices, four times faster here than reading through the index arrays.
_NUMPY_MODES = {"CONSTANT": "constant", "EDGE": "edge", "REFLECTION": "reflect", "SYMMETRIC": "symmetric"}


def padding1(x, mode, start_padding, end_padding, value):
    """`value` is the padding value already in x's type (a numpy scalar), used by CONSTANT alone."""
    widths = list(zip(start_padding, end_padding))
    if mode == "CONSTANT":
        return np.pad(x, widths, mode="constant", constant_values=value)
    return np.pad(x, widths, mode=_NUMPY_MODES[mode])


def tile(x, repeats):
    return np.tile(x, repeats)  # whole copies: tile_sources' o mod n along every axis


def reverse_subsequences(x, lengths, axis):
    """The input as (before Axis, Axis, after Axis), no transpose; its lines grouped by length (at most 2n - 1
    lengths differ: from there every index read is n - 1), each group read through two slices along Axis, the rest
    of every line copied as it is."""
    n = x.shape[axis]
    outer, inner = int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis + 1:]))
    source = np.ascontiguousarray(x).reshape(outer, n, inner)
    out = np.empty_like(source)
    parallel.copy(out, source)
    if n == 1:
        return out.reshape(x.shape)  # one element a line: nothing moves, whatever the lengths
    read = np.minimum(lengths.astype(np.uint64).reshape(-1) & np.uint64(LOW_32_BITS), 2 * n - 1)
    # Lengths below 2^16 sort by radix (numpy's stable sort of 16-bit integers), in linear time.
    read = read.astype(np.uint16 if 2 * n - 1 < 2**16 else np.int64)
    order = np.argsort(read, kind="stable")
    ordered = read[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    for first, stop in zip(starts, np.r_[starts[1:], len(order)]):
        length = int(ordered[first])
        if length <= 1:
            continue  # a length of 0 or 1 reverses nothing
        before, after = np.divmod(order[first:stop], inner)  # the lines, by their place around Axis
        if length <= n:
            out[before, :length, after] = source[before, length - 1::-1, after]
            continue
        last = min(length - n + 1, n)  # positions 0 .. length - n read the last element
        out[before, :last, after] = source[before, n - 1:n, after]
        if last < n:
            out[before, last:, after] = source[before, n - 2:length - n - 1:-1, after]
    return out.reshape(x.shape)


def upsample_2d(x, height_scale, width_scale):
    """NEAREST_NEIGHBOR: each element repeated over a height_scale x width_scale block of the last two axes; a FLOAT16
    signalling NaN arrives quiet, as DirectML 1.13 writes it (its FLOAT32 keeps every bit)."""
    out = np.repeat(np.repeat(x, height_scale, axis=-2), width_scale, axis=-1)
    return quieted_float16(out) if out.dtype == np.float16 else out


FLOAT16_EXPONENT, FLOAT16_MANTISSA, FLOAT16_QUIET = 0x7C00, 0x03FF, 0x0200


def quieted_float16(x):
    """FLOAT16 bits with each signalling NaN made quiet (its quiet bit set; sign and payload kept)."""
    bits = x.view(np.uint16)
    signalling = ((bits & FLOAT16_EXPONENT) == FLOAT16_EXPONENT) & ((bits & FLOAT16_MANTISSA) != 0) & \
        ((bits & FLOAT16_QUIET) == 0)
    return np.where(signalling, bits | np.uint16(FLOAT16_QUIET), bits).view(np.float16)
