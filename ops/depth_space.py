"""DML_DEPTH_TO_SPACE1 and DML_SPACE_TO_DEPTH1: moving channel blocks into space and back."""

import numpy as np

from .errors import DescriptorError
from .guard import check_element_count, check_positive_int, check_tensor

ORDERS = ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")
_ORDER_ALIASES = {"DCR": "DEPTH_COLUMN_ROW", "CRD": "COLUMN_ROW_DEPTH"}
ORDER_PREFIX = "DML_DEPTH_SPACE_ORDER_"


def order_name(order):
    """DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH from any accepted spelling (full name, suffix, DCR/CRD)."""
    if isinstance(order, str):
        name = order.strip().upper()
        if name.startswith(ORDER_PREFIX):
            name = name[len(ORDER_PREFIX):]
        name = _ORDER_ALIASES.get(name, name)
        if name in ORDERS:
            return name
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


def _depth_channels(bh, bw, block_size, out_channels, order):
    """The input channels that feed block position (bh, bw), as a slice, one per output channel."""
    position = bh * block_size + bw
    if order == "DEPTH_COLUMN_ROW":
        return slice(position * out_channels, (position + 1) * out_channels)
    return slice(position, None, block_size * block_size)


def depth_to_space(x, block_size, order="DEPTH_COLUMN_ROW"):
    check_tensor(x, "InputTensor", dims=4)
    block_size = check_positive_int(block_size, "BlockSize")
    order = order_name(order)
    shape = depth_to_space_shape(x.shape, block_size)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=x.dtype)
    for bh in range(block_size):
        for bw in range(block_size):
            out[:, :, bh::block_size, bw::block_size] = x[:, _depth_channels(bh, bw, block_size, shape[1], order)]
    return out


def space_to_depth(x, block_size, order="DEPTH_COLUMN_ROW"):
    check_tensor(x, "InputTensor", dims=4)
    block_size = check_positive_int(block_size, "BlockSize")
    order = order_name(order)
    shape = space_to_depth_shape(x.shape, block_size)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=x.dtype)
    for bh in range(block_size):
        for bw in range(block_size):
            out[:, _depth_channels(bh, bw, block_size, x.shape[1], order)] = x[:, :, bh::block_size, bw::block_size]
    return out
