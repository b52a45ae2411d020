"""Large copies spread over the cores: numpy releases the GIL while it moves bytes, so threads scale."""

import os
from concurrent.futures import ThreadPoolExecutor

# Below this many bytes a task is not worth a thread hand-off.
MIN_PARALLEL_BYTES = 1 << 21
CHUNK_BYTES = 1 << 22
_pool = None


def run(tasks, work):
    """work(task) for every task, on all cores when there is more than one task."""
    global _pool
    tasks = list(tasks)
    if len(tasks) <= 1 or (os.cpu_count() or 1) == 1:
        for task in tasks:
            work(task)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(os.cpu_count(), thread_name_prefix="ops")
    for _ in _pool.map(work, tasks):
        pass


def _chunks(shape, nbytes):
    """Index tuples cutting `shape` along its outermost axis longer than 1 into pieces of about CHUNK_BYTES."""
    if nbytes < MIN_PARALLEL_BYTES:
        return [()]
    axis = next((d for d, size in enumerate(shape) if size > 1), None)
    if axis is None:
        return [()]
    pieces = min(shape[axis], -(-nbytes // CHUNK_BYTES))
    bounds = [shape[axis] * i // pieces for i in range(pieces + 1)]
    lead = (slice(None),) * axis
    return [lead + (slice(start, stop),) for start, stop in zip(bounds[:-1], bounds[1:])]


def elementwise(fn, out, *inputs):
    """fn(out_piece, *input_pieces) over matching pieces of arrays that all have out's shape."""
    run(_chunks(out.shape, out.nbytes), lambda index: fn(out[index], *(a[index] for a in inputs)))


def copy(dst, src):
    elementwise(lambda d, s: d.__setitem__(Ellipsis, s), dst, src)
