"""The nearest valid settings to an invalid one: what an error message offers to change in one click.

Each function takes settings that break a rule and returns a `Fixes`: the broken rule in a few words and a short
list of `Fix`es, each a complete change (one click applies all of it) that the core accepts. "Nearest" means the
smallest change of one setting: the valid value just below and just above for a BlockSize or a part count, the
nearest multiple for a size. Settings that break no rule get no fixes (`Fixes.reason` is None).

The rules are the core's (ops.operators, validate): DEPTH_TO_SPACE1 needs C divisible by BlockSize^2, which its
output sizes {N, C/BlockSize^2, H*BlockSize, W*BlockSize} imply (DML_DEPTH_TO_SPACE1_OPERATOR_DESC); SPACE_TO_DEPTH1
needs H and W divisible by BlockSize; SPLIT's output sizes along Axis add up to the input's (DML_SPLIT_OPERATOR_DESC).
"""

import dataclasses

DIMENSION_NAMES = ("N", "C", "H", "W")


@dataclasses.dataclass(frozen=True)
class Fix:
    """One click's change: `changes` is ((setting name, new value), ...); `label` says it in words."""

    label: str
    changes: tuple

    @property
    def as_dict(self):
        return dict(self.changes)


@dataclasses.dataclass(frozen=True)
class Fixes:
    reason: str | None
    options: tuple = ()

    def suggestion(self):
        """'use BlockSize 2 or 4, or C = 18': the fixes in words, the values of one setting grouped."""
        groups = {}
        for fix in self.options:
            value = str(fix.changes[0][1])
            if len(fix.changes) == 1 and fix.label.endswith(" " + value):
                groups.setdefault(fix.label[: -len(value) - 1], []).append(value)
            else:
                groups.setdefault(fix.label, [])
        parts = [f"{key} {' or '.join(values)}" if values else key for key, values in groups.items()]
        return f"use {', or '.join(parts)}" if parts else ""


NONE = Fixes(None)


def _nearest_below_and_above(value, candidates):
    """The largest candidate below `value` and the smallest above it (those that exist)."""
    below = [c for c in candidates if c < value]
    above = [c for c in candidates if c > value]
    return ([max(below)] if below else []) + ([min(above)] if above else [])


def _nearest_multiple(value, unit):
    """The multiple of `unit` (at least `unit`) nearest `value`; on a tie, the larger."""
    lower = max(unit, value // unit * unit)
    upper = max(unit, -(-value // unit) * unit)
    return upper if upper - value <= value - lower else lower


def _block_fix(block_size):
    return Fix(f"BlockSize {block_size}", (("BlockSize", block_size),))


def depth_space_fixes(direction, sizes, block_size, max_block=64):
    """Fixes for DEPTH_TO_SPACE1 (direction 'depth_to_space') or SPACE_TO_DEPTH1 settings {N, C, H, W}."""
    sizes = [int(s) for s in sizes]
    zero = [(name, size) for name, size in zip(DIMENSION_NAMES, sizes) if size < 1]
    if zero:
        reason = f"{', '.join(f'{name} = {size}' for name, size in zero)} is not a size (at least 1)"
        ones = tuple((name, 1) for name, _ in zero)
        # The sizes made 1 may break the BlockSize rule in turn: each fix then changes both, so one click is enough.
        rest = depth_space_fixes(direction, [max(1, s) for s in sizes], block_size, max_block)
        combined = []
        for fix in rest.options or (Fix("", ()),):
            changes = {**dict(ones), **fix.as_dict}
            words = [f"{name} = 1" for name, _ in ones if name not in fix.as_dict] + ([fix.label] if fix.label else [])
            label = ", ".join(words)
            combined.append(Fix(label, tuple(changes.items())))
        return Fixes(reason, tuple(combined))

    n, c, h, w = sizes
    if direction == "depth_to_space":
        def fits(b):
            return c % (b * b) == 0
        limit = max_block
    else:
        def fits(b):
            return h % b == 0 and w % b == 0
        limit = min(max_block, h, w)
    if block_size >= 1 and fits(block_size):
        return NONE
    # BlockSize 1 always fits, so a BlockSize below 1 is offered at least that.
    options = [_block_fix(b) for b in _nearest_below_and_above(block_size, [b for b in range(1, limit + 1) if fits(b)])]
    if block_size < 1:
        return Fixes(f"BlockSize {block_size} is not at least 1", tuple(options))
    if direction == "depth_to_space":
        channels = _nearest_multiple(c, block_size * block_size)
        options.append(Fix(f"C = {channels}", (("C", channels),)))
        return Fixes(f"C = {c} is not divisible by BlockSize² = {block_size * block_size}", tuple(options))
    changes = tuple((name, _nearest_multiple(size, block_size)) for name, size in (("H", h), ("W", w))
                    if size % block_size)
    options.append(Fix(", ".join(f"{name} = {value}" for name, value in changes), changes))
    broken = [f"{name} = {size}" for name, size in (("H", h), ("W", w)) if size % block_size]
    verb = "is" if len(broken) == 1 else "are"
    return Fixes(f"{' and '.join(broken)} {verb} not divisible by BlockSize {block_size}", tuple(options))


def inverse_shape(direction, sizes, block_size):
    """The output sizes of `direction` on `sizes`: what the other direction takes as its input to undo it.

    None when the settings break the rule (there is no output to carry over)."""
    n, c, h, w = (int(s) for s in sizes)
    if block_size < 1 or min(n, c, h, w) < 1:
        return None
    if direction == "depth_to_space":
        if c % (block_size * block_size):
            return None
        return (n, c // (block_size * block_size), h * block_size, w * block_size)
    if h % block_size or w % block_size:
        return None
    return (n, c * block_size * block_size, h // block_size, w // block_size)


def split_fixes(sizes, axis, output_sizes):
    """Fixes for SPLIT settings whose output sizes along Axis do not add up to the input's size there.

    Offered: the last output resized to take up the difference (when it stays at least 1), the input's size along
    Axis set to the sum, and the input shared out evenly into as many outputs."""
    sizes, output_sizes = [int(s) for s in sizes], [int(s) for s in output_sizes]
    if not 0 <= axis < len(sizes) or not output_sizes:
        return NONE
    if any(s < 1 for s in output_sizes):
        fixed = tuple(max(1, s) for s in output_sizes)
        return Fixes(f"output sizes {output_sizes} include a size below 1",
                     (Fix(f"output sizes {_text(fixed)}", (("output_sizes", fixed),)),))
    total, got = sizes[axis], sum(output_sizes)
    if total == got:
        return NONE
    options = []
    last = total - sum(output_sizes[:-1])
    if last >= 1:
        fixed = (*output_sizes[:-1], last)
        options.append(Fix(f"output sizes {_text(fixed)}", (("output_sizes", fixed),)))
    grown = (*sizes[:axis], got, *sizes[axis + 1:])
    options.append(Fix(f"input Sizes {_text(grown)}", (("sizes", grown),)))
    count = len(output_sizes)
    if total % count == 0 and last < 1:
        even = (total // count,) * count
        options.append(Fix(f"output sizes {_text(even)}", (("output_sizes", even),)))
    reason = f"{' + '.join(map(str, output_sizes))} = {got} is not the input's size {total} along Axis {axis}"
    return Fixes(reason, tuple(options))


def even_split_fixes(total, parts, axis):
    """Fixes for an even split of `total` elements along Axis into `parts` outputs that does not divide."""
    if parts >= 1 and total % parts == 0:
        return NONE
    divisors = [k for k in range(1, total + 1) if total % k == 0]
    options = [Fix(f"Parts K = {k}", (("parts", k),)) for k in _nearest_below_and_above(parts, divisors)]
    if parts >= 1:
        options.append(Fix(f"input size along Axis = {_nearest_multiple(total, parts)}",
                           (("axis_size", _nearest_multiple(total, parts)),)))
    return Fixes(f"{total} along Axis {axis} is not divisible by K = {parts}", tuple(options))


def axis_fixes(axis, dimension_count):
    """An Axis outside [0, dimension_count - 1]: the nearest one inside."""
    if 0 <= axis < dimension_count or dimension_count < 1:
        return NONE
    nearest = min(max(axis, 0), dimension_count - 1)
    return Fixes(f"Axis {axis} is not in [0, {dimension_count - 1}]",
                 (Fix(f"Axis {nearest}", (("axis", nearest),)),))


def count_fixes(count, sizes_along_axis):
    """JOIN settings whose number of inputs disagrees with the list of their sizes along Axis."""
    sizes_along_axis = [int(s) for s in sizes_along_axis]
    if count == len(sizes_along_axis):
        return NONE
    options = [Fix(f"{len(sizes_along_axis)} inputs", (("count", len(sizes_along_axis)),))]
    if count >= 1:
        resized = tuple(sizes_along_axis[:count]) + (1,) * max(0, count - len(sizes_along_axis))
        options.append(Fix(f"sizes along Axis {_text(resized)}", (("join_sizes", resized),)))
    return Fixes(f"{count} inputs, but {len(sizes_along_axis)} sizes along Axis", tuple(options))


def _text(values):
    return ",".join(str(v) for v in values)
