"""DML_DEPTH_TO_SPACE1 and DML_SPACE_TO_DEPTH1: moving channel blocks into space and back."""

import numpy as np

from . import parallel
from ..errors import DescriptorError
from ..guard import check_element_count, check_positive_int, check_tensor
from ..names import enum_suffix

ORDERS = ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")
_ORDER_ALIASES = {"DCR": "DEPTH_COLUMN_ROW", "CRD": "COLUMN_ROW_DEPTH"}
ORDER_PREFIX = "DML_DEPTH_SPACE_ORDER_"

# Input bytes per tile. Large enough that numpy's per-call overhead is small next to the copy,
# small enough that a tile's source and destination stay in the shared L3 while its bw passes run.
TILE_BYTES = 1 << 20


def order_name(order):
    """DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH from any accepted spelling (full name, suffix, DCR/CRD)."""
    name = enum_suffix(order, ORDER_PREFIX, ORDERS + tuple(_ORDER_ALIASES))
    if name:
        return _ORDER_ALIASES.get(name, name)
    raise DescriptorError(
        f"Order {order!r}: expected DEPTH_COLUMN_ROW (DCR) or COLUMN_ROW_DEPTH (CRD), "
        f"optionally prefixed with {ORDER_PREFIX}"
    )


def depth_to_space_shape(input_sizes, block_size):
    n, c, h, w = input_sizes
    if c % (block_size * block_size):
        raise DescriptorError(
            f"BlockSize {block_size}: the input's channel count {c} is not divisible by "
            f"BlockSize^2 = {block_size * block_size}"
        )
    return (n, c // (block_size * block_size), h * block_size, w * block_size)


def space_to_depth_shape(input_sizes, block_size):
    n, c, h, w = input_sizes
    for name, size in (("height", h), ("width", w)):
        if size % block_size:
            raise DescriptorError(
                f"BlockSize {block_size}: the input's {name} {size} is not divisible by BlockSize {block_size}"
            )
    return (n, c * block_size * block_size, h // block_size, w // block_size)


def _space_and_depth_views(space, depth, block_size, order):
    """Both sides of the operator as 6-D arrays that name each element by the same index.

    space axes [N, C', H, bh, W, bw]; depth axes [N, bw, C', H, bh, W]. With bw leading on the depth
    side, space[n, c, h, :, :, bw] and depth[n, bw, c, h] are the same elements, so one strided
    assignment moves a whole slab with W as numpy's inner loop (a reshape/transpose copy would make
    the block axis the inner loop and run several times slower).
    """
    n, c, h, w = depth.shape
    bs = block_size
    c_out = c // (bs * bs)
    space6 = space.reshape(n, c_out, h, bs, w, bs)
    if order == "DEPTH_COLUMN_ROW":
        depth6 = depth.reshape(n, bs, bs, c_out, h, w).transpose(0, 2, 3, 4, 1, 5)
    else:
        depth6 = depth.reshape(n, c_out, bs, bs, h, w).transpose(0, 3, 1, 4, 2, 5)
    return space6, depth6


def _tiles(space6, itemsize):
    """(n, channel slice, row slice) tiles of about TILE_BYTES each, in memory order."""
    n, c_out, h, bs, w, _ = space6.shape
    row_bytes = bs * bs * w * itemsize
    rows = max(1, min(h, TILE_BYTES // row_bytes))
    channels = max(1, min(c_out, TILE_BYTES // (row_bytes * rows)))
    return [
        (i, slice(c0, c0 + channels), slice(h0, h0 + rows))
        for i in range(n)
        for c0 in range(0, c_out, channels)
        for h0 in range(0, h, rows)
    ]


def _move(space6, depth6, block_size, to_space):
    """Copy every element between the two views; all bw passes of a tile run while it is in cache."""

    def tile(task):
        n, channels, rows = task
        for bw in range(block_size):
            if to_space:
                space6[n, channels, rows, :, :, bw] = depth6[n, bw, channels, rows]
            else:
                depth6[n, bw, channels, rows] = space6[n, channels, rows, :, :, bw]

    parallel.run(_tiles(space6, depth6.itemsize), tile)


def depth_to_space(x, block_size, order="DEPTH_COLUMN_ROW"):
    check_tensor(x, "InputTensor", dims=4)
    block_size = check_positive_int(block_size, "BlockSize")
    order = order_name(order)
    shape = depth_to_space_shape(x.shape, block_size)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=x.dtype)
    space6, depth6 = _space_and_depth_views(out, x, block_size, order)
    _move(space6, depth6, block_size, to_space=True)
    return out


def space_to_depth(x, block_size, order="DEPTH_COLUMN_ROW"):
    check_tensor(x, "InputTensor", dims=4)
    block_size = check_positive_int(block_size, "BlockSize")
    order = order_name(order)
    shape = space_to_depth_shape(x.shape, block_size)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=x.dtype)
    space6, depth6 = _space_and_depth_views(x, out, block_size, order)
    _move(space6, depth6, block_size, to_space=False)
    return out
