"""The nearest valid SPLIT and JOIN settings to invalid ones (ops/operators/fixes.py says what "nearest" means).

Both need Axis in [0, DimensionCount - 1]; SPLIT's output sizes along Axis add up to the input's size there
(DML_SPLIT_OPERATOR_DESC, SPEC section 5). A fix changes the settings named axis, sizes (the input's Sizes),
output_sizes (SPLIT's sizes along Axis), and for the split and join controls parts, axis_size, count and join_sizes.
"""

from ..fixes import NONE, Fix, Fixes, nearest_below_and_above, nearest_multiple, values_text


def nearest_fixes(op, input_sizes, attrs):
    """An Axis outside the whole tensor's dimensions, then (SPLIT) output sizes that do not add up."""
    sizes = [int(s) for s in input_sizes[0]]
    axis = attrs["axis"]
    wrong_axis = axis_fixes(axis, len(sizes))
    if wrong_axis.reason or "sizes" not in attrs:
        return wrong_axis
    return _sum_fixes(sizes, axis, attrs["sizes"])


def axis_fixes(axis, dimension_count):
    """An Axis outside [0, dimension_count - 1]: the nearest one inside."""
    if 0 <= axis < dimension_count or dimension_count < 1:
        return NONE
    nearest = min(max(axis, 0), dimension_count - 1)
    return Fixes(f"Axis {axis} is not in [0, {dimension_count - 1}]",
                 (Fix(f"Axis {nearest}", (("axis", nearest),)),))


def _sum_fixes(sizes, axis, output_sizes):
    """Fixes for SPLIT settings whose output sizes along Axis do not add up to the input's size there.

    Offered: the last output resized to take up the difference (when it stays at least 1), the input's size along
    Axis set to the sum, and the input shared out evenly into as many outputs."""
    output_sizes = [int(s) for s in output_sizes]
    if not output_sizes:
        return NONE
    if any(s < 1 for s in output_sizes):
        fixed = tuple(max(1, s) for s in output_sizes)
        return Fixes(f"output sizes {output_sizes} include a size below 1",
                     (Fix(f"output sizes {values_text(fixed)}", (("output_sizes", fixed),)),))
    total, got = sizes[axis], sum(output_sizes)
    if total == got:
        return NONE
    options = []
    last = total - sum(output_sizes[:-1])
    if last >= 1:
        fixed = (*output_sizes[:-1], last)
        options.append(Fix(f"output sizes {values_text(fixed)}", (("output_sizes", fixed),)))
    grown = (*sizes[:axis], got, *sizes[axis + 1:])
    options.append(Fix(f"input Sizes {values_text(grown)}", (("sizes", grown),)))
    count = len(output_sizes)
    if total % count == 0 and last < 1:
        even = (total // count,) * count
        options.append(Fix(f"output sizes {values_text(even)}", (("output_sizes", even),)))
    reason = f"{' + '.join(map(str, output_sizes))} = {got} is not the input's size {total} along Axis {axis}"
    return Fixes(reason, tuple(options))


def even_split_fixes(total, parts, axis):
    """Fixes for an even SPLIT of `total` elements along Axis into `parts` outputs that does not divide."""
    if parts >= 1 and total % parts == 0:
        return NONE
    divisors = [k for k in range(1, total + 1) if total % k == 0]
    options = [Fix(f"Parts K = {k}", (("parts", k),)) for k in nearest_below_and_above(parts, divisors)]
    if parts >= 1:
        options.append(Fix(f"input size along Axis = {nearest_multiple(total, parts)}",
                           (("axis_size", nearest_multiple(total, parts)),)))
    return Fixes(f"{total} along Axis {axis} is not divisible by K = {parts}", tuple(options))


def count_fixes(count, sizes_along_axis):
    """JOIN settings whose number of inputs disagrees with the list of their sizes along Axis."""
    sizes_along_axis = [int(s) for s in sizes_along_axis]
    if count == len(sizes_along_axis):
        return NONE
    options = [Fix(f"{len(sizes_along_axis)} inputs", (("count", len(sizes_along_axis)),))]
    if count >= 1:
        resized = tuple(sizes_along_axis[:count]) + (1,) * max(0, count - len(sizes_along_axis))
        options.append(Fix(f"sizes along Axis {values_text(resized)}", (("join_sizes", resized),)))
    return Fixes(f"{count} inputs, but {len(sizes_along_axis)} sizes along Axis", tuple(options))
