"""The multi-threaded paths of bit_or, split and join give what numpy's one-call versions give."""

import contextlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ops.operators import parallel
from ops.operators.bitwise import bit_or
from ops.operators.split_join import join, split

DTYPES = [np.dtype(t) for t in ("float64", "float32", "float16", "int64", "int8", "uint32", "uint16")]


@contextlib.contextmanager
def tiny_chunks():
    """Chunks of a few bytes, so even small tensors take the threaded path with uneven pieces."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel, "MIN_PARALLEL_BYTES", 1)
        patch.setattr(parallel, "CHUNK_BYTES", 7)
        yield


shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=6)


def random_bytes(shape, dtype, seed):
    raw = np.random.default_rng(seed).integers(0, 256, int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


@given(shape=shapes, dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1))
def test_threaded_bit_or_equals_numpy(shape, dtype, seed):
    a, b = random_bytes(shape, dtype, seed), random_bytes(shape, dtype, seed + 1)
    bits = np.dtype(f"u{dtype.itemsize}")
    with tiny_chunks():
        result = bit_or(a, b)
    assert result.tobytes() == np.bitwise_or(a.view(bits), b.view(bits)).tobytes()


@given(shape=shapes, dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_threaded_split_and_join_equal_numpy(shape, dtype, seed, data):
    x = random_bytes(shape, dtype, seed)
    axis = data.draw(st.integers(0, len(shape) - 1))
    cuts = sorted(data.draw(st.lists(st.integers(1, shape[axis] - 1), unique=True)) if shape[axis] > 1 else [])
    sizes = np.diff([0, *cuts, shape[axis]]).tolist()
    with tiny_chunks():
        parts = split(x, axis, sizes)
        joined = join(parts, axis)
    assert [p.tobytes() for p in parts] == [p.tobytes() for p in np.split(x, cuts, axis=axis)]
    assert joined.tobytes() == x.tobytes()


def test_small_tensors_stay_on_the_calling_thread():
    assert parallel._chunks((2, 3), 24) == [()]
    pieces = parallel._chunks((1, 8, 1 << 20), 8 << 20)
    assert len(pieces) == 2 and pieces[0] == (slice(None), slice(0, 4))
