"""The nearest valid depth/space settings to invalid ones (ops/operators/fixes.py says what "nearest" means).

DEPTH_TO_SPACE1 needs C divisible by BlockSize^2, which its output sizes {N, C/BlockSize^2, H*BlockSize,
W*BlockSize} imply (DML_DEPTH_TO_SPACE1_OPERATOR_DESC, SPEC section 2); SPACE_TO_DEPTH1 needs H and W divisible by
BlockSize (SPEC section 3). A fix changes the settings named BlockSize and N, C, H, W (the input's Sizes).
"""

from ..fixes import NONE, Fix, Fixes, nearest_below_and_above, nearest_multiple

MAX_BLOCK = 64  # the largest BlockSize a fix offers


def nearest_fixes(op, input_sizes, attrs):
    """Fixes for the operator `op` on one input of `input_sizes[0]` = {N, C, H, W} with attrs["block_size"]."""
    sizes = [int(s) for s in input_sizes[0]]
    block_size = attrs["block_size"]
    zero = [(name, size) for name, size in zip(op.dimension_names, sizes) if size < 1]
    if zero:
        return _zero_sizes_fixes(op, sizes, attrs, zero)
    _, c, h, w = sizes

    def fits(b):
        return not op.indivisible(sizes, b)

    if block_size >= 1 and fits(block_size):
        return NONE
    limit = MAX_BLOCK if op.to_space else min(MAX_BLOCK, h, w)
    # BlockSize 1 always fits, so a BlockSize below 1 is offered at least that.
    options = [_block_fix(b) for b in nearest_below_and_above(block_size, [b for b in range(1, limit + 1) if fits(b)])]
    if block_size < 1:
        return Fixes(f"BlockSize {block_size} is not at least 1", tuple(options))
    if op.to_space:
        channels = nearest_multiple(c, block_size * block_size)
        options.append(Fix(f"C = {channels}", (("C", channels),)))
        return Fixes(f"C = {c} is not divisible by BlockSize² = {block_size * block_size}", tuple(options))
    changes = tuple((name, nearest_multiple(size, block_size)) for name, size in (("H", h), ("W", w))
                    if size % block_size)
    options.append(Fix(", ".join(f"{name} = {value}" for name, value in changes), changes))
    broken = [f"{name} = {size}" for name, size in (("H", h), ("W", w)) if size % block_size]
    verb = "is" if len(broken) == 1 else "are"
    return Fixes(f"{' and '.join(broken)} {verb} not divisible by BlockSize {block_size}", tuple(options))


def _zero_sizes_fixes(op, sizes, attrs, zero):
    reason = f"{', '.join(f'{name} = {size}' for name, size in zero)} is not a size (at least 1)"
    ones = tuple((name, 1) for name, _ in zero)
    # The sizes made 1 may break the BlockSize rule in turn: each fix then changes both, so one click is enough.
    rest = nearest_fixes(op, [[max(1, s) for s in sizes]], attrs)
    combined = []
    for fix in rest.options or (Fix("", ()),):
        changes = {**dict(ones), **fix.as_dict}
        words = [f"{name} = 1" for name, _ in ones if name not in fix.as_dict] + ([fix.label] if fix.label else [])
        combined.append(Fix(", ".join(words), tuple(changes.items())))
    return Fixes(reason, tuple(combined))


def _block_fix(block_size):
    return Fix(f"BlockSize {block_size}", (("BlockSize", block_size),))
