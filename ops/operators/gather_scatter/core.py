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
  changes no element of the tensor); of colliding updates it writes one, which one not guaranteed (its page: "no
  guarantee of which last write wins"): the core keeps the last in row-major order, as observed on a quiet machine,
  and `collisions` lists the others the cross-check also accepts;
- ONE_HOT sets OnValue where the wrapped index is below the depth; its UINT64 indices alone are compared whole.

Each operator is written as a `Plan`: the output's sizes and, for any flat output (gather) or update (scatter)
positions, the addresses they read or write and the flat IndicesTensor element that chose them. One plan gives
both the values (`read`, `write`) and the provenance the pages draw (`read_sources`, `write_sources`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
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
    indices) where the index is negative, modulo 2^32; uint32 values, the arithmetic wrapping as DirectML's does."""
    sign = SIGN_BITS[index_type_of(indices)]
    flat = np.ascontiguousarray(indices)
    if flat.itemsize == 8:
        bits = flat.view(np.uint64)
        low = bits.astype(np.uint32)  # the cast keeps the low 32 bits
        negative = (bits >> np.uint64(63)).astype(np.uint32) if sign else None
    else:
        low = flat.view(np.uint32)
        negative = low >> np.uint32(31) if sign else None
    if negative is None:
        return low
    return low + negative * np.asarray(size, np.uint32)


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
    # A gather's output by numpy's own indexing (x -> output), where every index lies inside its axis: the same
    # elements as `addresses` then reads, faster.
    direct: Callable | None = None


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
    if plan.direct is not None:
        return np.ascontiguousarray(plan.direct(x)).reshape(plan.sizes)
    buffer = _buffer(x)
    last = np.uint64(buffer.size - 1)
    out = np.empty(plan.count, x.dtype)

    def work(start, stop, p):
        out[start:stop] = buffer[np.minimum(plan.addresses(p), last)]

    _in_pieces(plan.count, work)
    return out.reshape(plan.sizes)


@dataclasses.dataclass(frozen=True)
class Provenance:
    """Where every element of one call's output comes from, as the pages draw it. Arrays of the output's sizes:
    `which`, the input it comes from (its number in the desc's order: 0 InputTensor, 1 ONE_HOT's ValuesTensor, 2 a
    scatter's UpdatesTensor); `flat`, its flat element there (a gather's may lie past the tensor, in its buffer's
    padding); `chooser`, the flat IndicesTensor element that chose it (of a tuple, its first coordinate), -1 where
    none did (what a scatter copies from InputTensor). A scatter's also, of its updates' sizes: `landing`, the flat
    output element each update addresses (at or past the output's size: its buffer's padding; -1: past the buffer,
    dropped) and `overwritten`, True where a later update addressed the same element; and of the output's sizes
    `hits`, how many updates addressed each element (2 or more: a collision)."""

    which: np.ndarray
    flat: np.ndarray
    chooser: np.ndarray
    landing: np.ndarray | None = None
    overwritten: np.ndarray | None = None
    hits: np.ndarray | None = None


def read_sources(input_sizes, itemsize, plan):
    """A gather's Provenance: each output element from InputTensor's buffer at min(address, its last element)."""
    last = np.uint64(buffer_elements(math.prod(input_sizes), itemsize) - 1)
    source, chooser = np.empty(plan.count, np.int64), np.empty(plan.count, np.int64)

    def work(start, stop, p):
        source[start:stop] = np.minimum(plan.addresses(p), last)
        chooser[start:stop] = plan.chooser(p)

    _in_pieces(plan.count, work)
    return Provenance(np.zeros(plan.sizes, np.int64), source.reshape(plan.sizes), chooser.reshape(plan.sizes))


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
    inside = np.flatnonzero((addresses >= 0) & (addresses < size))
    winner = np.full(size, -1, np.int64)
    np.maximum.at(winner, addresses[inside], inside)  # the latest position addressing each element
    kept = np.flatnonzero(winner >= 0)
    return kept, winner[kept]


def write(x, updates, plan):
    """A scatter's output: x, with every update whose address lies inside the output's buffer written there, the
    last of colliding updates staying."""
    out = np.array(x, copy=True, order="C")
    flat = out.reshape(-1)
    addresses = _destinations(plan, buffer_elements(flat.size, flat.itemsize))
    where, which = _last_writes(addresses, flat.size)
    flat[where] = np.ascontiguousarray(updates).reshape(-1)[which]
    return out


def write_sources(output_sizes, itemsize, plan, updates_input=2):
    """A scatter's Provenance: the last update addressing an element inside the output wins it; the rest is copied
    from InputTensor."""
    count = math.prod(output_sizes)
    buffer = buffer_elements(count, itemsize)
    landing = _destinations(plan, buffer)
    # The buffer's padding past the tensor is written too, and kept by the last update there: no element of the output.
    written, which = _last_writes(landing, buffer)
    where, which_inside = written[written < count], which[written < count]
    chooser = plan.chooser(np.arange(plan.count, dtype=np.uint64)).astype(np.int64)
    flat, source, chosen = np.arange(count, dtype=np.int64), np.zeros(count, np.int64), np.full(count, -1, np.int64)
    flat[where], source[where], chosen[where] = which_inside, updates_input, chooser[which_inside]
    overwritten = landing >= 0  # dropped updates are not overwritten
    overwritten[which] = False
    hits = np.bincount(landing[(landing >= 0) & (landing < count)], minlength=count)
    return Provenance(source.reshape(output_sizes), flat.reshape(output_sizes), chosen.reshape(output_sizes),
                      landing.reshape(plan.sizes), overwritten.reshape(plan.sizes), hits.reshape(output_sizes))


def collisions(output_sizes, itemsize, plan):
    """(elements, starts, updates): the flat output elements two or more updates address, ascending, and those
    updates' flat positions, in row-major order: elements[i]'s are updates[starts[i]:starts[i + 1]]. The core keeps
    the last of them; DirectML writes one of them, which one not guaranteed (docs/directml.md)."""
    count = math.prod(output_sizes)
    landing = _destinations(plan, buffer_elements(count, itemsize))
    inside = np.flatnonzero((landing >= 0) & (landing < count))
    updates = inside[np.argsort(landing[inside], kind="stable")]  # by element, each element's in row-major order
    elements, counts = np.unique(landing[updates], return_counts=True)
    colliding = counts > 1
    starts = np.concatenate([[0], np.cumsum(counts[colliding])]).astype(np.int64)
    return elements[colliding], starts, updates[np.repeat(colliding, counts)]


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
    inner = math.prod(input_sizes[axis + 1:])
    # The chosen indices are IndicesTensor's last IndexDimensions dimensions; the ones before are all 1, so their
    # flat positions are the first `chosen` elements. IndexDimensions 0: the one element there is.
    chosen = math.prod(indices.shape[len(input_sizes) - index_dimensions:])
    words = wrapped(np.ascontiguousarray(indices).reshape(-1)[:chosen], n)

    def chooser(p):
        return (p // np.uint64(inner)) % np.uint64(chosen)

    def addresses(p):
        outer = p // np.uint64(inner * chosen)
        return (outer * np.uint64(n * inner) + words[chooser(p).astype(np.intp)] * np.uint64(inner)
                + p % np.uint64(inner)) & LOW_WORD

    direct = None
    if words.max() < n:  # numpy's take, on the block the cut dimensions leave (read at coordinate 0)
        cut = max(index_dimensions - 1, 0)
        taken = words.astype(np.intp).reshape(indices.shape[len(input_sizes) - index_dimensions:])
        direct = lambda x: np.take(x[(0,) * cut], taken, axis=axis - cut)  # noqa: E731
    return Plan(sizes, math.prod(sizes), addresses, chooser, direct)


def elements_plan(input_sizes, indices, axis):
    """GATHER_ELEMENTS and SCATTER_ELEMENTS: each IndicesTensor element chooses the Axis coordinate of the element at
    its own coordinates; the other coordinates are its own."""
    n, sizes = int(input_sizes[axis]), tuple(indices.shape)
    inner = math.prod(input_sizes[axis + 1:])  # the axis's stride; the indices match the input after it
    # DirectML reads an axis of size 1 at coordinate 0 whatever the index (observed): its stride is 0.
    stride = 0 if n == 1 else inner
    words = wrapped(np.ascontiguousarray(indices).reshape(-1), n)
    along = sizes[axis] * inner  # one slab of the indices across Axis and after it

    def chooser(p):
        return p

    def addresses(p):
        base = p // np.uint64(along) * np.uint64(n * inner) + p % np.uint64(inner)
        return (base + words[p.astype(np.intp)] * np.uint64(stride)) & LOW_WORD

    direct = None
    if n == 1 or not words.size or words.max() < n:
        chosen = (words * (n > 1)).astype(np.intp).reshape(sizes)
        direct = functools.partial(np.take_along_axis, indices=chosen, axis=axis)
    return Plan(sizes, math.prod(sizes), addresses, chooser, direct)


def nd_meaningful(input_sizes, indices_sizes, input_dimensions, indices_dimensions, batch_dimensions):
    """GATHER_ND(1)'s output sizes, and SCATTER_ND's updates' (batch 0), without leading 1s: IndicesTensor's
    meaningful sizes (its last IndicesDimensionCount) but the last (the tuple size t), then the meaningful input sizes
    (its last InputDimensionCount) after the batch and the t tuple dimensions. The batch sizes are IndicesTensor's:
    DirectML reads the input at the same batch coordinates whatever its own sizes there (docs/directml.md)."""
    t = int(indices_sizes[-1])
    return (tuple(indices_sizes[len(indices_sizes) - indices_dimensions:-1])
            + tuple(input_sizes[len(input_sizes) - input_dimensions + batch_dimensions + t:]))


def nd_sizes(input_sizes, indices_sizes, input_dimensions, indices_dimensions, batch_dimensions, rank):
    """nd_meaningful right-aligned to `rank` dimensions with leading 1s."""
    meaningful = nd_meaningful(input_sizes, indices_sizes, input_dimensions, indices_dimensions, batch_dimensions)
    return (1,) * (rank - len(meaningful)) + meaningful


def nd_plan(input_sizes, indices, input_dimensions, indices_dimensions, batch_dimensions=0):
    """GATHER_ND, GATHER_ND1 and SCATTER_ND: each tuple of t coordinates (IndicesTensor's last dimension) chooses
    t input coordinates after the batch ones; each tensor's meaningful dimensions are its last InputDimensionCount
    (input) or IndicesDimensionCount (indices), those before them all 1. The plan's positions run over the
    meaningful result (a gather's output, a scatter's updates), its leading 1s left to the caller."""
    b = batch_dimensions
    sizes = nd_meaningful(input_sizes, indices.shape, input_dimensions, indices_dimensions, b)
    strides = packed_strides(input_sizes)
    first = len(input_sizes) - input_dimensions  # the input's first meaningful dimension
    t = int(indices.shape[-1])
    tuples = np.ascontiguousarray(indices).reshape(-1, t)
    words = wrapped(tuples, np.array([input_sizes[first + b + c] for c in range(t)]))
    meaningful = tuple(indices.shape[len(indices.shape) - indices_dimensions:-1])
    batches, middle = meaningful[:b], math.prod(meaningful[b:])
    inner = math.prod(input_sizes[first + b + t:])

    def tuple_number(p):
        return p // np.uint64(inner)

    def chooser(p):
        return tuple_number(p) * np.uint64(t)

    def addresses(p):
        number = tuple_number(p)
        total = p % np.uint64(inner)  # the trailing dimensions are the input's last ones: stride 1 and up
        for c, coordinate in enumerate(coordinates(number // np.uint64(middle), batches)):
            total = total + coordinate * np.uint64(strides[first + c])
        chosen = words[number.astype(np.intp)]
        for c in range(t):
            total = total + chosen[:, c] * np.uint64(strides[first + b + c])
        return total & LOW_WORD

    return Plan(sizes, math.prod(sizes), addresses, chooser)


# ---------------------------------------------------------------- the operators


def gather(x, indices, axis, index_dimensions):
    return read(x, gather_plan(x.shape, indices, axis, index_dimensions))


def gather_elements(x, indices, axis):
    return read(x, elements_plan(x.shape, indices, axis))


def gather_nd(x, indices, input_dimensions, indices_dimensions):
    return gather_nd1(x, indices, input_dimensions, indices_dimensions, 0)


def gather_nd1(x, indices, input_dimensions, indices_dimensions, batch_dimensions):
    plan = nd_plan(x.shape, indices, input_dimensions, indices_dimensions, batch_dimensions)
    return read(x, plan).reshape(nd_sizes(x.shape, indices.shape, input_dimensions, indices_dimensions,
                                          batch_dimensions, x.ndim))


def scatter_elements(x, indices, updates, axis):
    return write(x, updates, elements_plan(x.shape, indices, axis))


def scatter_nd(x, indices, updates, input_dimensions, indices_dimensions):
    return write(x, updates, nd_plan(x.shape, indices, input_dimensions, indices_dimensions))


def one_hot_hits(indices, axis, depth):
    """Where ONE_HOT puts OnValue: a bool array of the output's sizes, True where the sequence's index (counted from
    the end when negative; UINT64 ones compared whole) equals the position along Axis and is below the depth."""
    if index_type_of(indices) == "UINT64":
        position = indices.astype(np.uint64)
    else:
        position = wrapped(indices, depth)
    along = np.arange(depth, dtype=np.uint64).reshape([-1 if d == axis else 1 for d in range(indices.ndim)])
    return along == position  # size 1 at Axis against the depth: broadcast


def one_hot(indices, values, axis, depth):
    """OffValue (ValuesTensor's element 0) everywhere but OnValue (its element 1) at each sequence's index along
    Axis."""
    off, on = np.ascontiguousarray(values).reshape(-1)[:2]
    return np.where(one_hot_hits(indices, axis, depth), on, off)


def one_hot_sources(indices, axis, depth):
    """ONE_HOT's Provenance: every element from ValuesTensor (input 1), element 1 where OnValue lands, else 0, chosen
    by its sequence's index."""
    hits = one_hot_hits(indices, axis, depth)
    chooser = np.broadcast_to(np.arange(indices.size, dtype=np.int64).reshape(indices.shape), hits.shape)
    return Provenance(np.ones(hits.shape, np.int64), hits.astype(np.int64), chooser.copy())
