"""Outputs the detective can be tried on without a framework at hand: what a user's code typically hands back.

Each example takes origin-coded inputs of any sizes that fit it and returns the outputs the described code would
compute, written the way that code is written (reshape/transpose, NHWC round trips, np.split), not through the
core's operators, so that the detective has something independent to name.
"""

import dataclasses

import numpy as np

from ..errors import DescriptorError
from .channels import channel_permutation
from .origin import origin_coded_inputs

BLOCK = 2


@dataclasses.dataclass(frozen=True)
class Example:
    label: str
    sizes: tuple  # the input sizes it is shown with (one tuple per input)
    text: str


EXAMPLES = {
    "pixel_shuffle": Example(
        "PyTorch PixelShuffle(2)", ((1, 8, 2, 3),),
        "torch.nn.PixelShuffle(2) written as its reshape/transpose: (N, C·4, H, W) -> (N, C, 2H, 2W), the channel "
        "the major part of the depth.",
    ),
    "tf_nhwc": Example(
        "TF depth_to_space on NHWC", ((1, 8, 2, 3),),
        "tf.nn.depth_to_space(block_size=2) on the input transposed to NHWC, and the result transposed back to NCHW.",
    ),
    "mixed_up": Example(
        "A DCR/CRD mix-up", ((1, 8, 2, 3),),
        "A converter reordered the convolution's output channels so that a DCR DepthToSpace computes PixelShuffle, "
        "but the converted model still runs PixelShuffle (CRD): the reordering is applied once too often.",
    ),
    "pixel_unshuffle": Example(
        "PyTorch PixelUnshuffle(2)", ((1, 2, 4, 6),),
        "torch.nn.PixelUnshuffle(2) written as its reshape/transpose: (N, C, 2H, 2W) -> (N, C·4, H, W).",
    ),
    "transpose": Example(
        "NCHW -> NHWC transpose", ((1, 3, 2, 4),),
        "x.transpose(0, 2, 3, 1): a layout change, every element kept.",
    ),
    "split": Example(
        "np.split into channels [1, 3]", ((1, 4, 2, 3),),
        "np.split(x, [1], axis=1): two outputs along the channels.",
    ),
    "join": Example(
        "np.concatenate of two inputs", ((1, 2, 2, 3), (1, 1, 2, 3)),
        "np.concatenate([x0, x1], axis=1): two inputs joined along the channels.",
    ),
    "broadcast": Example(
        "A broadcast of the first column", ((1, 2, 3, 4),),
        "np.broadcast_to(x[..., :1], x.shape): each row repeats its first element.",
    ),
    "corrupted": Example(
        "PixelShuffle, 2 cells lost", ((1, 8, 2, 3),),
        "PixelShuffle(2) whose output lost two cells on the way back (a 0.5 and a NaN written over them).",
    ),
}


def _four_d(x, name):
    if x.ndim != 4 or x.shape[1] % (BLOCK * BLOCK):
        raise DescriptorError(
            f"Sizes {list(x.shape)}: the {EXAMPLES[name].label} example needs 4 dimensions with C divisible by "
            f"{BLOCK * BLOCK}"
        )


def _pixel_shuffle(x):
    # PyTorch's PixelShuffle: (*, C·r², H, W) -> (*, C, H·r, W·r) with the channel the major part of the depth
    # (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelShuffle.html; exported to ONNX as
    # DepthToSpace mode CRD).
    n, c, h, w = x.shape
    r = BLOCK
    return x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (r * r), h * r, w * r)


def _tf_depth_to_space_nhwc(x):
    # tf.nn.depth_to_space works on NHWC with the block position the major part of the depth
    # (https://www.tensorflow.org/api_docs/python/tf/nn/depth_to_space): DCR.
    n, h, w, c = x.shape
    r = BLOCK
    return x.reshape(n, h, w, r, r, c // (r * r)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * r, w * r, c // (r * r))


def _outputs(name, xs):
    x = xs[0]
    if name == "join":
        if len(xs) < 2:
            raise DescriptorError("Sizes: the join example needs at least two inputs (separate them with ';')")
        try:
            return [np.concatenate(xs, axis=1)]
        except ValueError:
            raise DescriptorError(
                f"Sizes {[list(a.shape) for a in xs]}: the join example needs inputs that agree in every dimension "
                "but 1"
            ) from None
    if len(xs) != 1:
        raise DescriptorError(f"Sizes: the {EXAMPLES[name].label} example takes one input, not {len(xs)}")
    if name in ("pixel_shuffle", "mixed_up", "corrupted"):
        _four_d(x, name)
        if name == "mixed_up":
            x = x[:, channel_permutation(x.shape[1], BLOCK, "COLUMN_ROW_DEPTH", "DEPTH_COLUMN_ROW")]
        y = _pixel_shuffle(x)
        if name == "corrupted":
            y = y.astype(np.float64)
            flat = y.reshape(-1)
            flat[min(5, flat.size - 1)] = 0.5
            flat[flat.size // 2] = np.nan
        return [y]
    if name == "tf_nhwc":
        _four_d(x, name)
        return [_tf_depth_to_space_nhwc(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)]
    if name == "pixel_unshuffle":
        if x.ndim != 4 or x.shape[2] % BLOCK or x.shape[3] % BLOCK:
            raise DescriptorError(
                f"Sizes {list(x.shape)}: the PixelUnshuffle example needs 4 dimensions with H and W divisible by "
                f"{BLOCK}"
            )
        # PyTorch's PixelUnshuffle, the inverse of PixelShuffle
        # (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelUnshuffle.html).
        n, c, h, w = x.shape
        r = BLOCK
        return [x.reshape(n, c, h // r, r, w // r, r).transpose(0, 1, 3, 5, 2, 4).reshape(n, c * r * r, h // r, w // r)]
    if name == "transpose":
        if x.ndim != 4:
            raise DescriptorError(f"Sizes {list(x.shape)}: the transpose example needs 4 dimensions")
        return [np.ascontiguousarray(x.transpose(0, 2, 3, 1))]
    if name == "split":
        if x.ndim < 2 or x.shape[1] < 2:
            raise DescriptorError(f"Sizes {list(x.shape)}: the split example needs dimension 1 of size 2 or more")
        return [np.ascontiguousarray(part) for part in np.split(x, [1], axis=1)]
    if name == "broadcast":
        return [np.ascontiguousarray(np.broadcast_to(x[..., :1], x.shape))]
    raise DescriptorError(f"example {name!r}: expected one of {', '.join(EXAMPLES)}")


def detective_example(name, sizes=None, data_type="FLOAT32"):
    """(inputs, outputs): origin-coded inputs of `sizes` (a list of input sizes; default the example's own) and
    what the example's code makes of them, both lists of arrays. DescriptorError when the sizes do not fit."""
    if name not in EXAMPLES:
        raise DescriptorError(f"example {name!r}: expected one of {', '.join(EXAMPLES)}")
    xs = origin_coded_inputs(EXAMPLES[name].sizes if sizes is None else sizes, data_type)
    return xs, _outputs(name, xs)
