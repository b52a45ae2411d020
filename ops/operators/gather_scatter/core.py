"""The gather and scatter family's reference core: where DirectML reads each output element from, or writes each
update to, as DirectML 1.13 does it, for every descriptor shape DirectML accepts.

DirectML computes an element's address in its buffer (counted in elements, not bytes) in 32-bit unsigned arithmetic:
each coordinate times its dimension's stride, the indices standing in for the coordinates they choose, all modulo
2^32. An index is read as its low 32 bits; a negative one (its type's top bit set: bit 31 of INT32, bit 63 of INT64,
and bit 63 of UINT64 too) first has its axis's size added, modulo 2^32. Nothing is checked against the axis: what
an address past the tensor does is each operator's own (observed on DirectML; docs/directml.md, "Gather and scatter:
indices"):

- a gather reads the element at min(address, the last element of the input's buffer), so an index past its axis
  reads on into the next rows, then the last element of the buffer: for a tensor whose size is not a multiple of 4
  bytes, the padding DirectML's 4-byte buffer sizes add (zero bytes in the buffers this project packs);
- a scatter writes an update only where its address lies inside the output's buffer (an address in the padding
  changes no element of the tensor); of colliding updates the last in row-major order stays;
- ONE_HOT sets OnValue where the wrapped index is below the depth; its UINT64 indices alone are compared whole.

Each operator is written as a `Plan`: the output's sizes and, for any flat output (gather) or update (scatter)
positions, the addresses they read or write and the flat IndicesTensor element that chose them. One plan gives
both the values (`read`, `write`) and the provenance the pages draw (`read_sources`, `write_sources`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from ...errors import DescriptorError
from .. import parallel

LOW_WORD = np.uint64((1 << 32) - 1)
# Positions per piece of the address arithmetic (8 bytes each for an address and a chooser).
PIECE = 1 << 19

INDEX_DTYPES = {"INT64": np.dtype(np.int64), "INT32": np.dtype(np.int32), "UINT64": np.dtype(np.uint64),
                "UINT32": np.dtype(np.uint32)}
# The bit whose being set makes an index count from the end of its axis; UINT32 indices never do.
SIGN_BITS = {"INT64": 63, "INT32": 31, "UINT64": 63, "UINT32": None}


def index_type_of(indices):
    """INT64, INT32, UINT64 or UINT32: the DataType of an indices array, else DescriptorError naming IndicesTensor."""
    for name, dtype in INDEX_DTYPES.items():
        if indices.dtype == dtype:
            return name
    raise DescriptorError(f"IndicesTensor DataType {indices.dtype}: indices are INT64, INT32, UINT64 or UINT32")


def wrapped(indices, size):
    """Each index as DirectML uses it: its low 32 bits, plus `size` (an int, or an array broadcasting against the
    indices) where the index is negative, modulo 2^32; uint64 values below 2^32."""
    sign = SIGN_BITS[index_type_of(indices)]
    bits = np.ascontiguousarray(indices).view(np.uint64 if indices.itemsize == 8 else np.uint32).astype(np.uint64)
    low = bits & LOW_WORD
    if sign is None:
        return low
    negative = (bits >> np.uint64(sign)) & np.uint64(1)
    return (low + negative * np.asarray(size, np.uint64)) & LOW_WORD


def buffer_elements(count, itemsize):
    """Elements in a packed tensor's buffer: its bytes rounded up to 4 (DMLCalcBufferTensorSize)."""
    return -(-count * itemsize // 4) * 4 // itemsize


def packed_strides(sizes):
    strides, step = [], 1
    for size in reversed(sizes):
        strides.append(step)
        step *= int(size)
    return tuple(reversed(strides))


def coordinates(p, sizes):
    """The coordinates (uint64 arrays) of flat row-major positions p (uint64) in `sizes`."""
    found = []
    for size in reversed(sizes):
        found.append(p % np.uint64(size))
        p = p // np.uint64(size)
    return found[::-1]


@dataclasses.dataclass(frozen=True)
class Plan:
    """One call's element moves. `count` positions: a gather's output elements or a scatter's updates, row-major.
    addresses(p) -> uint64 addresses below 2^32 in the input's (gather) or output's (scatter) element space;
    chooser(p) -> the flat IndicesTensor element that chose each position (for a tuple of GATHER_ND's, its first
    coordinate)."""

    sizes: tuple  # a gather's output sizes; a scatter's updates' sizes
    count: int
    addresses: Callable
    chooser: Callable


def _in_pieces(count, work):
    parallel.run([(start, min(start + PIECE, count)) for start in range(0, count, PIECE)],
                 lambda bounds: work(*bounds, np.arange(*bounds, dtype=np.uint64)))


def _buffer(x):
    """x's elements followed by the zero bytes that round its buffer up to 4 bytes, as x's type."""
    flat = np.ascontiguousarray(x).reshape(-1)
    extra = buffer_elements(flat.size, flat.itemsize) - flat.size
    return np.concatenate([flat, np.zeros(extra, flat.dtype)]) if extra else flat


def read(x, plan):
    """A gather's output: each position reads x's buffer at min(address, last element of the buffer)."""
    buffer = _buffer(x)
    last = np.uint64(buffer.size - 1)
    out = np.empty(plan.count, x.dtype)

    def work(start, stop, p):
        out[start:stop] = buffer[np.minimum(plan.addresses(p), last)]

    _in_pieces(plan.count, work)
    return out.reshape(plan.sizes)


def read_sources(input_sizes, itemsize, plan):
    """(source, chooser): int64 arrays of the output's sizes holding, for each output element, the flat element of
    the input's buffer it is read from (at or past the input's element count: the buffer's padding) and the flat
    IndicesTensor element that chose it."""
    last = np.uint64(buffer_elements(int(np.prod(input_sizes)), itemsize) - 1)
    source, chooser = np.empty(plan.count, np.int64), np.empty(plan.count, np.int64)

    def work(start, stop, p):
        source[start:stop] = np.minimum(plan.addresses(p), last)
        chooser[start:stop] = plan.chooser(p)

    _in_pieces(plan.count, work)
    return source.reshape(plan.sizes), chooser.reshape(plan.sizes)


def _destinations(plan, buffer_size):
    """The addresses of every update (int64), -1 where the address lies past the output's buffer."""
    addresses = np.empty(plan.count, np.int64)

    def work(start, stop, p):
        found = plan.addresses(p).astype(np.int64)  # below 2^32: exact in int64
        addresses[start:stop] = np.where(found < buffer_size, found, -1)

    _in_pieces(plan.count, work)
    return addresses


def _last_writes(addresses, size):
    """(addresses, update positions) of the update that stays at each address written: the last in row-major order
    among those inside [0, size)."""
    order = np.flatnonzero((addresses >= 0) & (addresses < size))
    targets = addresses[order]
    # np.unique keeps each value's first occurrence: read the updates backwards to keep each address's last writer.
    kept, first_from_end = np.unique(targets[::-1], return_index=True)
    return kept, order[::-1][first_from_end]


def write(x, updates, plan):
    """A scatter's output: x, with every update whose address lies inside the output's buffer written there, the
    last of colliding updates staying."""
    out = np.array(x, copy=True, order="C")
    flat = out.reshape(-1)
    addresses = _destinations(plan, buffer_elements(flat.size, flat.itemsize))
    where, which = _last_writes(addresses, flat.size)
    flat[where] = np.ascontiguousarray(updates).reshape(-1)[which]
    return out


@dataclasses.dataclass(frozen=True)
class Writes:
    """A scatter's provenance. `from_updates`: bool array of the output's sizes, True where an update was written;
    `source`: int64 array of the output's sizes, the flat UpdatesTensor element written there, else the flat
    InputTensor element copied (its own position); `address`: int64 array of the updates' sizes, where each update
    goes (flat output element; past the tensor but inside its buffer: the padding; -1: dropped, past the buffer);
    `chooser`: the updates' flat IndicesTensor elements; `collisions`: {flat output element: the update positions
    that address it, in row-major order, the last staying} for every element more than one update addresses."""

    from_updates: np.ndarray
    source: np.ndarray
    address: np.ndarray
    chooser: np.ndarray
    collisions: dict


def write_sources(output_sizes, itemsize, plan):
    count = int(np.prod(output_sizes))
    addresses = _destinations(plan, buffer_elements(count, itemsize))
    where, which = _last_writes(addresses, count)
    source = np.arange(count, dtype=np.int64)
    from_updates = np.zeros(count, bool)
    source[where], from_updates[where] = which, True
    chooser = plan.chooser(np.arange(plan.count, dtype=np.uint64)).astype(np.int64)
    landed = addresses[addresses >= 0]
    taken, counts = np.unique(landed, return_counts=True)
    collisions = {}
    for element in taken[counts > 1]:
        collisions[int(element)] = tuple(int(u) for u in np.flatnonzero(addresses == element))
    return Writes(from_updates.reshape(output_sizes), source.reshape(output_sizes),
                  addresses.reshape(plan.sizes), chooser.reshape(plan.sizes), collisions)


# ---------------------------------------------------------------- the plans


def gather_sizes(input_sizes, indices_sizes, axis, index_dimensions):
    """DML_GATHER_OPERATOR_DESC's output sizes: InputTensor.Sizes before Axis, the last IndexDimensions sizes of
    IndicesTensor and InputTensor.Sizes after Axis, right-aligned to the tensors' DimensionCount. With
    IndexDimensions k >= 1 that cuts off the first k - 1 input sizes, which DirectML reads at coordinate 0 whatever
    their size; with k = 0 a leading 1 fills the place (DirectML also accepts any size there and repeats the
    values along it, which the core does not model: docs/directml.md)."""
    r, k = len(input_sizes), index_dimensions
    whole = tuple(input_sizes[:axis]) + tuple(indices_sizes[r - k:]) + tuple(input_sizes[axis + 1:])
    return (1,) + whole if k == 0 else whole[k - 1:]


def gather_plan(input_sizes, indices, axis, index_dimensions):
    sizes = gather_sizes(input_sizes, indices.shape, axis, index_dimensions)
    n = int(input_sizes[axis])
    inner = int(np.prod(input_sizes[axis + 1:], dtype=np.int64))
    # The chosen indices are IndicesTensor's last IndexDimensions dimensions; the ones before are all 1, so their
    # flat positions are the first `chosen` elements. IndexDimensions 0: the one element there is.
    chosen = max(1, int(np.prod(indices.shape[len(input_sizes) - index_dimensions:], dtype=np.int64)))
    words = wrapped(np.ascontiguousarray(indices).reshape(-1)[:chosen], n)

    def chooser(p):
        return (p // np.uint64(inner)) % np.uint64(chosen)

    def addresses(p):
        outer = p // np.uint64(inner * chosen)
        return (outer * np.uint64(n * inner) + words[chooser(p).astype(np.intp)] * np.uint64(inner)
                + p % np.uint64(inner)) & LOW_WORD

    return Plan(sizes, int(np.prod(sizes)), addresses, chooser)


def elements_plan(input_sizes, indices, axis):
    """GATHER_ELEMENTS and SCATTER_ELEMENTS: each IndicesTensor element chooses the Axis coordinate of the element at
    its own coordinates; the other coordinates are its own."""
    strides = list(packed_strides(input_sizes))
    if input_sizes[axis] == 1:
        strides[axis] = 0  # DirectML reads an axis of size 1 at coordinate 0 whatever the index (observed)
    sizes = tuple(indices.shape)
    words = wrapped(np.ascontiguousarray(indices).reshape(-1), int(input_sizes[axis]))

    def chooser(p):
        return p

    def addresses(p):
        total = words[p.astype(np.intp)] * np.uint64(strides[axis])
        for d, c in enumerate(coordinates(p, sizes)):
            if d != axis:
                total = total + c * np.uint64(strides[d])
        return total & LOW_WORD

    return Plan(sizes, int(np.prod(sizes)), addresses, chooser)


def nd_sizes(input_sizes, indices_sizes, input_dimensions, indices_dimensions, batch_dimensions):
    """GATHER_ND(1)'s output sizes, and SCATTER_ND's updates' (batch 0): IndicesTensor's meaningful sizes but the
    last (the tuple size t), then the meaningful input sizes after the batch and the t tuple dimensions, right-aligned
    to the DimensionCount with leading 1s. The batch sizes are IndicesTensor's: DirectML reads the input at the same
    batch coordinates whatever its own sizes there (docs/directml.md)."""
    r = len(input_sizes)
    t = int(indices_sizes[-1])
    meaningful = (tuple(indices_sizes[r - indices_dimensions:-1])
                  + tuple(input_sizes[r - input_dimensions + batch_dimensions + t:]))
    return (1,) * (r - len(meaningful)) + meaningful


def nd_plan(input_sizes, indices, input_dimensions, indices_dimensions, batch_dimensions=0):
    """GATHER_ND, GATHER_ND1 and SCATTER_ND: each tuple of t coordinates (IndicesTensor's last dimension) chooses
    t input coordinates after the batch ones; the meaningful dimensions are the last InputDimensionCount (input) and
    IndicesDimensionCount (indices) ones, those before them all 1."""
    r, b = len(input_sizes), batch_dimensions
    sizes = nd_sizes(input_sizes, indices.shape, input_dimensions, indices_dimensions, b)
    strides = packed_strides(input_sizes)
    first = r - input_dimensions  # the input's first meaningful dimension
    t = int(indices.shape[-1])
    tuples = np.ascontiguousarray(indices).reshape(-1, t)
    words = wrapped(tuples, np.array([input_sizes[first + b + c] for c in range(t)]))
    batches = tuple(indices.shape[r - indices_dimensions:][:b])
    middle = tuple(indices.shape[r - indices_dimensions:-1][b:])
    trailing = tuple(input_sizes[first + b + t:])
    inner = int(np.prod(trailing, dtype=np.int64))

    def tuple_number(p):
        return p // np.uint64(inner)

    def chooser(p):
        return tuple_number(p) * np.uint64(t)

    def addresses(p):
        number = tuple_number(p)
        total = p % np.uint64(inner)  # the trailing dimensions are the input's last ones: stride 1 and up
        batch = coordinates(number // np.uint64(int(np.prod(middle, dtype=np.int64))), batches)
        for c, coordinate in enumerate(batch):
            total = total + coordinate * np.uint64(strides[first + c])
        chosen = words[number.astype(np.intp)]
        for c in range(t):
            total = total + chosen[:, c] * np.uint64(strides[first + b + c])
        return total & LOW_WORD

    return Plan(sizes, int(np.prod(sizes)), addresses, chooser)


# ---------------------------------------------------------------- the operators


def gather(x, indices, axis, index_dimensions):
    return read(x, gather_plan(x.shape, indices, axis, index_dimensions))


def gather_elements(x, indices, axis):
    return read(x, elements_plan(x.shape, indices, axis))


def gather_nd(x, indices, input_dimensions, indices_dimensions):
    return read(x, nd_plan(x.shape, indices, input_dimensions, indices_dimensions))


def gather_nd1(x, indices, input_dimensions, indices_dimensions, batch_dimensions):
    return read(x, nd_plan(x.shape, indices, input_dimensions, indices_dimensions, batch_dimensions))


def scatter_elements(x, indices, updates, axis):
    return write(x, updates, elements_plan(x.shape, indices, axis))


def scatter_nd(x, indices, updates, input_dimensions, indices_dimensions):
    return write(x, updates, nd_plan(x.shape, indices, input_dimensions, indices_dimensions))


def one_hot_on(indices, axis, depth):
    """Where ONE_HOT puts OnValue: for each IndicesTensor element, the position along Axis (int64), -1 where none."""
    if index_type_of(indices) == "UINT64":  # compared whole, never counted from the end
        found = indices.astype(np.uint64)
    else:
        found = wrapped(indices, depth)
    inside = found < np.uint64(depth)
    return np.where(inside, found, np.uint64(0)).astype(np.int64) - ~inside


def one_hot(indices, values, axis, depth):
    """OffValue (ValuesTensor's element 0) everywhere but OnValue (its element 1) at each sequence's index along
    Axis, where that index (counted from the end when negative) is below the depth."""
    flat_values = np.ascontiguousarray(values).reshape(-1)
    sizes = list(indices.shape)
    sizes[axis] = depth
    out = np.full(sizes, flat_values[0], values.dtype)
    on = one_hot_on(indices, axis, depth)
    hit = on >= 0
    where = [np.broadcast_to(np.arange(s).reshape([-1 if d == i else 1 for d in range(len(sizes))]), on.shape)[hit]
             for i, s in enumerate(indices.shape)]
    where[axis] = on[hit]
    out[tuple(where)] = flat_values[1]
    return out
