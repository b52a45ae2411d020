"""Random valid calls of the gather and scatter family, for the unit tests (against plain loops) and the DirectML
tests (against DirectML): any data type, any index type, 1 to 4 dimensions, and indices that reach past their axes
either way, count from the end, carry bits past 32 or are arbitrary bits; calls whose updates collide, and outputs as
a runtime choosing another of the colliding updates than the core writes them."""

import math

import numpy as np

import ops
from ops.operators.gather_scatter import core

DTYPES = [ops.numpy_dtype(t) for t in ops.DML_TYPES]
INDEX_DTYPES = [np.dtype(t) for t in (np.int64, np.int32, np.uint64, np.uint32)]


def random_bytes(rng, shape, dtype):
    return rng.integers(0, 256, math.prod(shape) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


def interesting_indices(rng, shape, size, dtype):
    """Indices in range, counting from the end, past the axis either way, with bit 32 set, and arbitrary bits."""
    count = math.prod(shape)
    picks = np.stack([rng.integers(0, size, count), -rng.integers(1, size + 1, count),
                      rng.integers(size, size + 4, count), -rng.integers(size + 1, size + 5, count),
                      rng.integers(0, size, count) + (1 << 32)]).astype(np.int64).view(np.uint64)
    arbitrary = np.frombuffer(rng.bytes(8 * count), np.uint64)
    kind = rng.integers(0, 6, count)
    values = np.where(kind < 5, picks[np.minimum(kind, 4), np.arange(count)], arbitrary)
    return values.astype(f"u{dtype.itemsize}").view(dtype).reshape(shape)  # cut to the type's width


def _sizes(rng, count, low=1, high=4):
    return tuple(int(s) for s in rng.integers(low, high + 1, count))


def random_call(name, rng, dtype=None, index_dtype=None):
    """(inputs, attrs) of a valid call of operator `name`, drawn with `rng` (the types too, unless given)."""
    dtype = dtype or DTYPES[rng.integers(len(DTYPES))]
    index_dtype = index_dtype or INDEX_DTYPES[rng.integers(len(INDEX_DTYPES))]
    r = int(rng.integers(1, 5))
    sizes = _sizes(rng, r)
    if name == "GATHER":
        axis = int(rng.integers(0, r))
        k = int(rng.integers(0, axis + 2))
        idx = interesting_indices(rng, (1,) * (r - k) + _sizes(rng, k, high=3), sizes[axis], index_dtype)
        return [random_bytes(rng, sizes, dtype), idx], {"axis": axis, "index_dimensions": k}
    if name in ("GATHER_ELEMENTS", "SCATTER"):
        axis = int(rng.integers(0, r))
        shape = list(sizes)
        shape[axis] = int(rng.integers(1, (sizes[axis] if name == "SCATTER" else 4) + 1))
        inputs = [random_bytes(rng, sizes, dtype), interesting_indices(rng, shape, sizes[axis], index_dtype)]
        return inputs + ([random_bytes(rng, shape, dtype)] if name == "SCATTER" else []), {"axis": axis}
    if name == "ONE_HOT":
        axis, depth = int(rng.integers(0, r)), int(rng.integers(1, 6))
        shape = list(sizes)
        shape[axis] = 1
        values = random_bytes(rng, (int(rng.integers(2, 4)),), dtype)
        return [interesting_indices(rng, shape, depth, index_dtype), values], {"axis": axis, "depth": depth}
    m = int(rng.integers(1, r + 1))
    b = int(rng.integers(0, m)) if name == "GATHER_ND1" else 0
    t = int(rng.integers(1, m - b + 1))
    meaningful = sizes[r - m:]
    # The batches are usually the input's; DirectML also takes others (docs/directml.md).
    batches = meaningful[:b] if rng.random() < 0.7 else _sizes(rng, b, high=3)
    middle = _sizes(rng, int(rng.integers(0, r - b)), high=3)
    if len(batches) + len(middle) + len(meaningful[b + t:]) > r:
        middle = ()
    q = b + len(middle) + 1
    tuples = (1,) * (r - q) + batches + middle
    idx = np.stack([interesting_indices(rng, tuples, meaningful[b + c], index_dtype) for c in range(t)], -1)
    x = random_bytes(rng, (1,) * (r - m) + tuple(meaningful), dtype)
    attrs = {"input_dimensions": m, "indices_dimensions": q}
    if name == "GATHER_ND1":
        return [x, idx], {**attrs, "batch_dimensions": b}
    if name == "GATHER_ND":
        return [x, idx], attrs
    updates = random_bytes(rng, core.nd_sizes(x.shape, idx.shape, m, q, 0, r), dtype)
    return [x, idx, updates], attrs


def with_other_winners(output, undetermined, pick):
    """`output` as a runtime choosing otherwise than the core would write it: each element `undetermined` (an
    ops.operators.undetermined.Undetermined) leaves open holds its candidate number pick(count) (0 the first,
    -1 the last) instead."""
    changed = np.array(output, copy=True, order="C")
    chosen = [int(start) + pick(int(count)) % int(count) for start, count in zip(undetermined.starts,
                                                                                undetermined.counts)]
    changed.reshape(-1)[undetermined.elements] = undetermined.candidates[np.array(chosen, np.int64)]
    return changed


def colliding_updates(n, dtype=np.float32, untouched=4):
    """(inputs, attrs) of a SCATTER of updates 1..n all to element 0 of an input of n + `untouched` values 10,000 and
    up, which no update addresses."""
    x = (np.arange(n + untouched) + 10_000).astype(dtype)
    return [x, np.zeros(n, np.uint32), np.arange(1, n + 1).astype(dtype)], {"axis": 0}
