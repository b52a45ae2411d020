"""Where every output element comes from: each operator run on a tensor of flat input indices.

Running the real operator on indices (rather than re-deriving the formulas) keeps the maps exact by
construction: whatever the operator does to values, it does to their addresses.
"""

import math

import numpy as np

from .depth_space import depth_to_space, space_to_depth
from ..errors import DescriptorError
from ..guard import check_element_count
from .split_join import join, split


def _flat_indices(sizes, field):
    sizes = tuple(int(s) for s in sizes)
    if any(s < 1 for s in sizes):
        raise DescriptorError(f"{field} {list(sizes)}: a size of 0 is invalid in DirectML")
    check_element_count(sizes, field)
    return np.arange(math.prod(sizes), dtype=np.int64).reshape(sizes)


def depth_to_space_map(input_sizes, block_size, order="DEPTH_COLUMN_ROW"):
    """Array of the output's shape holding, for each output element, its flat index in the input."""
    return depth_to_space(_flat_indices(input_sizes, "InputTensor Sizes"), block_size, order)


def space_to_depth_map(input_sizes, block_size, order="DEPTH_COLUMN_ROW"):
    return space_to_depth(_flat_indices(input_sizes, "InputTensor Sizes"), block_size, order)


def split_map(input_sizes, axis, sizes):
    """One array per output, each element holding its flat index in the input."""
    return split(_flat_indices(input_sizes, "InputTensor Sizes"), axis, sizes)


def join_map(input_sizes_list, axis):
    """(which input, flat index in that input) for every element of the joined output."""
    sources = [
        np.full(tuple(int(s) for s in sizes), i, dtype=np.int64)
        for i, sizes in enumerate(input_sizes_list)
    ]
    flats = [_flat_indices(sizes, f"InputTensors[{i}] Sizes") for i, sizes in enumerate(input_sizes_list)]
    return join(sources, axis), join(flats, axis)
