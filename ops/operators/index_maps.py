"""Where every output element comes from, by the names the figures use: each is its operator's `index_map`
(base.py), which runs the operator itself on a tensor of flat input indices."""

from . import depth_space, split_join


def depth_to_space_map(input_sizes, block_size, order="DEPTH_COLUMN_ROW"):
    """Array of the output's shape holding, for each output element, its flat index in the input."""
    [(_, flat)] = depth_space.DEPTH_TO_SPACE1.index_map([input_sizes], block_size=block_size, order=order)
    return flat


def space_to_depth_map(input_sizes, block_size, order="DEPTH_COLUMN_ROW"):
    [(_, flat)] = depth_space.SPACE_TO_DEPTH1.index_map([input_sizes], block_size=block_size, order=order)
    return flat


def split_map(input_sizes, axis, sizes):
    """One array per output, each element holding its flat index in the input."""
    return [flat for _, flat in split_join.SPLIT.index_map([input_sizes], axis=axis, sizes=sizes)]


def join_map(input_sizes_list, axis):
    """(which input, flat index in that input) for every element of the joined output."""
    [(which, flat)] = split_join.JOIN.index_map(list(input_sizes_list), axis=axis)
    return which, flat
