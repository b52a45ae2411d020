"""How the layout detective recognises DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1: the BlockSize their shapes imply, and a
channel-order mix-up (DCR for CRD, or the reverse) found as a permutation of the depth side's channels.

The two orders read the same space position (c', bh, bw) from different depth channels (SPEC section 2), so a
converter that reorders channels for one order and then runs the other leaves a depth/space move that matches only
after a channel permutation: of the input's channels for DEPTH_TO_SPACE1, of the output's for SPACE_TO_DEPTH1.
"""

import numpy as np

from ...errors import DescriptorError

SHOWN_CHANNELS = 16  # a permutation longer than this is cut short in a sentence


def _block_size(op, input_shape, output_shape):
    """The BlockSize taking `input_shape` to `output_shape` under `op`, or None."""
    if len(input_shape) != 4 or len(output_shape) != 4:
        return None
    depth, space = (input_shape, output_shape) if op.to_space else (output_shape, input_shape)
    if space[2] % depth[2]:
        return None
    size = space[2] // depth[2]
    try:
        return size if tuple(op.output_shape(tuple(input_shape), size)) == tuple(output_shape) else None
    except DescriptorError:
        return None


def candidates(op, input_shapes, output_shapes):
    """Both orders at the one BlockSize that fits, when the shapes are those of a depth/space move."""
    if len(input_shapes) != 1 or len(output_shapes) != 1:
        return []
    size = _block_size(op, input_shapes[0], output_shapes[0])
    return [] if size is None else [{"block_size": size, "order": order} for order in op.field("Order").enum.names]


def channel_mix_ups(op, input_shape, output_shape, source):
    """(attrs, P, "input channels") for each order with source == op(x[:, P]) (DEPTH_TO_SPACE1), (attrs, P,
    "output channels") for each with source == op(x)[:, P] (SPACE_TO_DEPTH1); `source` holds x's flat indices.
    BlockSize 1 moves no channel, so it has none."""
    flat = np.arange(int(np.prod(input_shape)), dtype=np.int64).reshape(input_shape)
    found = []
    for attrs in candidates(op, [input_shape], [output_shape]):
        if attrs["block_size"] > 1:
            plain = op.compute([flat], attrs)[0]
            if op.to_space:
                p = _input_permutation(op, flat, plain, source, attrs)
            else:
                p = _output_permutation(plain, source)
            if p is not None:
                found.append((attrs, p, "input channels" if op.to_space else "output channels"))
    return found


def _input_permutation(op, flat, plain, source, attrs):
    """P with source == op(flat[:, P]), or None."""
    channels, plane = flat.shape[1], flat.shape[2] * flat.shape[3]
    # Where the plain map reads channel c, the permuted one reads channel P[c] (the rest of the index unchanged).
    p = np.empty(channels, dtype=np.int64)
    p[(plain.ravel() // plane) % channels] = (source.ravel() // plane) % channels
    return p if np.array_equal(op.compute([flat[:, p]], attrs)[0], source) else None


def _output_permutation(plain, source):
    """P with source == plain[:, P], or None."""
    firsts = plain[0, :, 0, 0]
    ranked = np.argsort(firsts)
    position = np.minimum(np.searchsorted(firsts[ranked], source[0, :, 0, 0]), firsts.size - 1)
    p = ranked[position]
    return p if np.array_equal(plain[:, p], source) else None


def _shown(permutation):
    """A permutation for a sentence: whole when short, else its start and its length."""
    values = permutation.tolist()
    if len(values) <= SHOWN_CHANNELS:
        return str(values)
    return f"[{', '.join(map(str, values[:SHOWN_CHANNELS]))}, ...] ({len(values)} channels)"


def mix_up_advice(op, match):
    """The mix-up in words, with where P goes: into the convolution before (input channels) or after (output
    channels)."""
    words, p = op.describe(match["descriptor"]), _shown(match["permutation"])
    if match["applies_to"] == "input channels":
        return (f"permuting x's channels first (x[:, P] with P = {p}) makes it {words}: a channel-order mix-up such as "
                "DCR for CRD; apply P to the preceding convolution's output channels (weights[P], bias[P])")
    return (f"y is {words} with its output channels permuted (y == out[:, P] with P = {p}): a channel-order mix-up "
            "such as DCR for CRD; the following convolution can absorb P in its input channels")
