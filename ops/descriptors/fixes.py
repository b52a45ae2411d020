"""The nearest valid settings to invalid ones, by the names the operator pages call: each asks its operator.

What "nearest" means and the Fix/Fixes they return: ops/operators/fixes.py; the rules and their fixes: each
operator family's fixes.py.
"""

from ..errors import DescriptorError
from ..operators import operator
from ..operators.depth_space import DIRECTIONS
from ..operators.fixes import NONE
from ..operators.split_join import SPLIT
from ..operators.split_join.fixes import axis_fixes, count_fixes, even_split_fixes

__all__ = ["NONE", "axis_fixes", "count_fixes", "depth_space_fixes", "even_split_fixes",
           "inverse_shape", "split_fixes"]


def depth_space_fixes(direction, sizes, block_size):
    """Fixes for DEPTH_TO_SPACE1 (direction 'depth_to_space') or SPACE_TO_DEPTH1 settings {N, C, H, W}."""
    return operator(DIRECTIONS[direction]).fixes([sizes], {"block_size": block_size})


def inverse_shape(direction, sizes, block_size):
    """The output sizes of `direction` on `sizes`: what the other direction takes as its input to undo it.

    None when the settings break a rule (there is no output to carry over)."""
    sizes = tuple(int(s) for s in sizes)
    if min(sizes) < 1:
        return None
    op = operator(DIRECTIONS[direction])
    try:
        return tuple(op.output_shapes([sizes], op.canonical_attrs({"block_size": block_size}))[0])
    except DescriptorError:
        return None


def split_fixes(sizes, axis, output_sizes):
    """Fixes for SPLIT settings: an Axis out of range, or output sizes along Axis that do not add up."""
    return SPLIT.fixes([sizes], {"axis": axis, "sizes": output_sizes})
