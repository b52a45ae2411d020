"""Nearest-fix suggestions: every offered fix is accepted by the core, and none is farther than it needs to be."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ops import DescriptorError, operator
from ops.descriptors.fixes import (
    axis_fixes,
    count_fixes,
    depth_space_fixes,
    even_split_fixes,
    inverse_shape,
    split_fixes,
)
from ops.operators.depth_space import depth_to_space_shape, space_to_depth_shape
from ops.operators.split_join import split

SHAPE_OF = {"depth_to_space": depth_to_space_shape, "space_to_depth": space_to_depth_shape}
DIMS = ("N", "C", "H", "W")


def accepted(direction, sizes, block_size):
    if block_size < 1 or min(sizes) < 1:
        return False
    try:
        SHAPE_OF[direction](sizes, block_size)
    except DescriptorError:
        return False
    return True


def applied(sizes, block_size, fix):
    changes = fix.as_dict
    return [changes.get(name, size) for name, size in zip(DIMS, sizes)], changes.get("BlockSize", block_size)


def test_the_issue_example():
    fixes = depth_space_fixes("depth_to_space", [1, 16, 2, 2], 3)
    assert fixes.reason == "C = 16 is not divisible by BlockSize² = 9"
    assert fixes.suggestion() == "use BlockSize 2 or 4, or C = 18"
    assert [f.as_dict for f in fixes.options] == [{"BlockSize": 2}, {"BlockSize": 4}, {"C": 18}]


def test_space_to_depth_names_both_broken_sizes():
    fixes = depth_space_fixes("space_to_depth", [1, 8, 3, 5], 2)
    assert fixes.reason == "H = 3 and W = 5 are not divisible by BlockSize 2"
    assert fixes.options[-1].as_dict == {"H": 4, "W": 6}  # ties go to the larger multiple


def test_valid_settings_get_no_fixes():
    assert depth_space_fixes("depth_to_space", [1, 8, 2, 3], 2).reason is None
    assert split_fixes([1, 1, 6, 2], 2, [2, 1, 3]).reason is None
    assert even_split_fixes(6, 3, 2).reason is None
    assert axis_fixes(2, 4).reason is None
    assert count_fixes(3, [1, 2, 3]).reason is None


@settings(max_examples=200)
@given(st.sampled_from(list(SHAPE_OF)), st.lists(st.integers(0, 40), min_size=4, max_size=4), st.integers(-2, 12))
def test_every_depth_space_fix_is_accepted_and_nearest(direction, sizes, block_size):
    fixes = depth_space_fixes(direction, sizes, block_size)
    if accepted(direction, sizes, block_size):
        assert fixes.reason is None
        return
    assert fixes.options
    for fix in fixes.options:
        assert accepted(direction, *applied(sizes, block_size, fix)), fix
    offered = [f.as_dict["BlockSize"] for f in fixes.options if set(f.as_dict) == {"BlockSize"}]
    if min(sizes) >= 1:
        # Nearest: no accepted BlockSize lies strictly between the current one and an offered one.
        for b in offered:
            between = range(min(b, block_size) + 1, max(b, block_size))
            assert not [k for k in between if accepted(direction, sizes, k)], (b, block_size)
        for fix in fixes.options:
            if "BlockSize" not in fix.as_dict:
                for name, value in fix.as_dict.items():
                    old = sizes[DIMS.index(name)]
                    closer = [v for v in range(max(1, old - abs(value - old) + 1), old + abs(value - old))
                              if v != value and accepted(direction, *applied(sizes, block_size,
                                                                             type(fix)("", ((name, v),))))]
                    assert not [v for v in closer if abs(v - old) < abs(value - old)], (name, value, closer)


@settings(max_examples=100)
@given(st.sampled_from(list(SHAPE_OF)), st.lists(st.integers(1, 12), min_size=4, max_size=4), st.integers(1, 4))
def test_inverse_shape_undoes_the_direction(direction, sizes, block_size):
    shape = inverse_shape(direction, sizes, block_size)
    if not accepted(direction, sizes, block_size):
        assert shape is None
        return
    other = "space_to_depth" if direction == "depth_to_space" else "depth_to_space"
    assert shape == SHAPE_OF[direction](sizes, block_size)
    assert list(SHAPE_OF[other](shape, block_size)) == list(sizes)


@settings(max_examples=150)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.data())
def test_every_split_fix_is_accepted_by_split(sizes, data):
    axis = data.draw(st.integers(0, len(sizes) - 1))
    output_sizes = data.draw(st.lists(st.integers(0, 6), min_size=1, max_size=5))
    fixes = split_fixes(sizes, axis, output_sizes)
    if sum(output_sizes) == sizes[axis] and min(output_sizes) >= 1:
        assert fixes.reason is None
        return
    assert fixes.options
    for fix in fixes.options:
        changes = fix.as_dict
        fixed_sizes = list(changes.get("sizes", sizes))
        fixed_outputs = list(changes.get("output_sizes", output_sizes))
        if min(fixed_outputs) >= 1 and sum(fixed_outputs) != fixed_sizes[axis]:
            # A size below 1 is fixed first; the sum may then need a second fix, which is offered next time.
            assert min(output_sizes) < 1
            continue
        parts = split(np.zeros(fixed_sizes, np.uint8), axis, fixed_outputs)
        assert [p.shape[axis] for p in parts] == fixed_outputs


def test_split_sum_example_keeps_the_other_outputs():
    fixes = split_fixes([1, 1, 6, 2], 2, [2, 1, 4])
    assert fixes.options[0].as_dict == {"output_sizes": (2, 1, 3)}
    assert fixes.options[1].as_dict == {"sizes": (1, 1, 7, 2)}


@pytest.mark.parametrize("total, parts", [(6, 4), (7, 2), (12, 5), (5, 0)])
def test_even_split_fixes_divide(total, parts):
    fixes = even_split_fixes(total, parts, 0)
    for fix in fixes.options:
        changes = fix.as_dict
        k, size = changes.get("parts", parts), changes.get("axis_size", total)
        assert k >= 1 and size % k == 0
    ks = [f.as_dict["parts"] for f in fixes.options if "parts" in f.as_dict]
    for k in ks:  # nearest divisors on each side
        assert not [d for d in range(min(k, parts) + 1, max(k, parts)) if total % d == 0]


def test_axis_and_count_fixes():
    assert axis_fixes(5, 4).options[0].as_dict == {"axis": 3}
    assert axis_fixes(-1, 4).options[0].as_dict == {"axis": 0}
    fixes = count_fixes(4, [2, 1])
    assert [f.as_dict for f in fixes.options] == [{"count": 2}, {"join_sizes": (2, 1, 1, 1)}]


def test_the_operators_own_their_fixes():
    """The thin names above ask the registry: SPLIT and JOIN name an Axis out of range first, and an operator with
    no rule of this kind offers nothing."""
    split_op, join_op = operator("SPLIT"), operator("JOIN")
    assert split_op.fixes([(2, 6)], {"axis": 2, "sizes": (1, 1)}).options[0].as_dict == {"axis": 1}
    assert split_op.fixes([(2, 6)], {"axis": 1, "sizes": (1, 1)}).options[0].as_dict == {"output_sizes": (1, 5)}
    assert join_op.fixes([(2, 6), (2, 1)], {"axis": -1}).options[0].as_dict == {"axis": 0}
    assert join_op.fixes([(2, 6), (2, 1)], {"axis": 1}).reason is None
    assert operator("ELEMENT_WISE_BIT_OR").fixes([(2,), (3,)], {}).reason is None
    assert operator("SPACE_TO_DEPTH1").fixes([(1, 8, 3, 5)], {"block_size": 2}) == \
        depth_space_fixes("space_to_depth", [1, 8, 3, 5], 2)
