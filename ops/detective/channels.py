"""The DCR <-> CRD converter: the channel permutation that turns one depth/space order into the other.

The two orders read the same output position (c', bh, bw) from different input channels; permuting the
depth-side channels beforehand (for example by reordering the output channels of the convolution that
produces them) makes one order compute what the other would have.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import DescriptorError
from ..guard import check_positive_int
from ..operators.depth_space import depth_to_space, order_name


def _depth_channels(channels, block_size, order):
    """For every space-side position (c', bh, bw), the depth channel it is read from under `order`."""
    return depth_to_space(np.arange(channels, dtype=np.int64).reshape(1, channels, 1, 1), block_size, order).ravel()


def channel_permutation(channels: int, block_size: int, source: str, target: str) -> np.ndarray:
    """P (int64, length `channels`) with depth_to_space(x[:, P], block_size, target) ==
    depth_to_space(x, block_size, source) for every x with that many channels.

    Read the other way round: space_to_depth(x, block_size, source) == space_to_depth(x, block_size, target)[:, Q]
    with Q = inverse_permutation(P).
    """
    channels = check_positive_int(channels, "C (channels)")
    block_size = check_positive_int(block_size, "BlockSize")
    source, target = order_name(source), order_name(target)
    if channels % (block_size * block_size):
        raise DescriptorError(
            f"C (channels) {channels}: must be divisible by BlockSize^2 = {block_size * block_size} "
            f"(BlockSize {block_size})"
        )
    # Both orders visit the positions (c', bh, bw) in the same sequence, so target channel t_k must hold s_k.
    permutation = np.empty(channels, dtype=np.int64)
    permutation[_depth_channels(channels, block_size, target)] = _depth_channels(channels, block_size, source)
    return permutation


def inverse_permutation(permutation):
    """Q with Q[P] == arange: undoes the reordering x[:, P]."""
    p = np.asarray(permutation)
    if p.ndim != 1 or p.dtype.kind not in "iu" or not np.array_equal(np.sort(p), np.arange(p.size)):
        raise DescriptorError(f"permutation {p.tolist()}: must hold each of 0 .. {p.size - 1} exactly once")
    inverse = np.empty(p.size, dtype=np.int64)
    inverse[p] = np.arange(p.size)
    return inverse


def _check_conv(weights, permutation, axis, field):
    if not isinstance(weights, np.ndarray) or weights.ndim < 2:
        raise DescriptorError(f"{field}: expected a numpy array of convolution weights [out, in, ...]")
    inverse_permutation(permutation)
    p = np.asarray(permutation, dtype=np.int64)
    if p.size != weights.shape[axis]:
        raise DescriptorError(
            f"{field} shape {list(weights.shape)}: axis {axis} has {weights.shape[axis]} channels, "
            f"but the permutation has {p.size}"
        )
    return p


def permute_conv_output_channels(weights: np.ndarray, bias: np.ndarray | None,
                                 permutation: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(weights[P], bias[P]): the convolution that produces x[:, P] from what produced x.

    Reordering a convolution's output channels this way lets a depth_to_space of one order, placed after it,
    compute what the other order computed before: pass P = channel_permutation(C, bs, old, new).
    """
    p = _check_conv(weights, permutation, 0, "weights")
    if bias is None:
        return weights[p], None
    bias = np.asarray(bias)
    if bias.shape != (weights.shape[0],):
        raise DescriptorError(f"bias shape {list(bias.shape)}: must be [{weights.shape[0]}], one per output channel")
    return weights[p], bias[p]


def permute_conv_input_channels(weights: np.ndarray, permutation: Sequence[int] | np.ndarray) -> np.ndarray:
    """weights[:, Q] with Q = inverse_permutation(P): the convolution that, reading z, computes what `weights`
    computed reading z[:, P].

    After a space_to_depth whose order changed, the old output is the new one with its channels permuted
    (space_to_depth(x, bs, old) == space_to_depth(x, bs, new)[:, P], P = inverse_permutation(
    channel_permutation(C, bs, old, new))); the convolution that follows keeps its result with these weights.
    """
    p = _check_conv(weights, permutation, 1, "weights")
    return weights[:, inverse_permutation(p)]
