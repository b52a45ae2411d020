"""What the DCR <-> CRD converter computes, shared between sessions (ui.shared): the permutation, its inverse and
its picture, and the downloads that hold them."""

from __future__ import annotations

import numpy as np

from ops import channel_permutation
from ops.detective.channels import inverse_permutation
from ops.detective.origin import to_npy_bytes
from ui.shared import shared
from ui.work import frozen
from viz import converter_fig
from viz.spec import SpecFigure


@shared
def conversion(channels: int, block_size: int, source: str, target: str) -> tuple[np.ndarray, np.ndarray]:
    """(P, its inverse Q) with depth_to_space(x[:, P], block_size, target) == depth_to_space(x, ..., source)."""
    p = channel_permutation(channels, block_size, source, target)
    return frozen(p), frozen(inverse_permutation(p))


@shared
def conversion_picture(channels: int, block_size: int, source: str, target: str) -> SpecFigure:
    return converter_fig.converter_figure(conversion(channels, block_size, source, target)[0], block_size,
                                          source, target)


def permutation_text(channels: int, block_size: int, source: str, target: str, which: int) -> str:
    """P (which=0) or its inverse Q (which=1) as text numpy.loadtxt(..., delimiter=",", dtype=int) reads back."""
    p = conversion(channels, block_size, source, target)[which]
    meaning = (f"depth_to_space(x[:, P], {block_size}, {target}) == depth_to_space(x, {block_size}, {source})"
               if which == 0 else "Q[P] == arange(C): Q undoes the reordering x[:, P]")
    name = "P" if which == 0 else "Q"
    return f"# {name} for C={channels}, BlockSize={block_size}: {meaning}\n" + ", ".join(map(str, p.tolist())) + "\n"


def permutation_npy(channels: int, block_size: int, source: str, target: str, which: int) -> bytes:
    return to_npy_bytes(conversion(channels, block_size, source, target)[which])
