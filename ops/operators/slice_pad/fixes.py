"""The nearest valid settings of the family's operators to invalid ones (ops/operators/fixes.py says what "nearest"
means). A fix changes the call's attributes by their names (window_offsets, window_sizes, window_strides,
output_sizes, start_padding, end_padding, padding_value, mode, repeats, axis, scale_size) and the input's Sizes as
"sizes".

The rules are the pages' (and DirectML's where they are silent, docs/directml.md): one array value per dimension; a
SLICE1 window inside the input, a stride not 0, at most MaxCopiedElements per dimension; Repeats and ScaleSize at
least 1; an Axis inside the input; WRAP (6_4) and LINEAR (which computes) are
not modelled.
"""

from ..fixes import NONE, Fix, Fixes, values_text
from . import core

_DEFAULTS = {"window_offsets": 0, "window_strides": 1, "start_padding": 0, "end_padding": 0, "repeats": 1}


def _ints(value):
    """A list of ints from an attribute as given, or None when it is not one."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__len__"):
        return None
    try:
        return [int(v) for v in value]
    except (TypeError, ValueError):
        return None


def _per_dimension(name, values, sizes):
    """An array with a value count other than the input's dimension count: cut to it, or filled with the default
    (a window or a repeat of the whole axis)."""
    if values is None or len(values) == len(sizes):
        return None
    default = [_DEFAULTS.get(name, n) for n in sizes]
    fixed = tuple(values[:len(sizes)] + default[len(values):])
    return Fixes(f"{name} has {len(values)} values for a {len(sizes)}-D input; it takes one per dimension",
                 (Fix(f"{name} {values_text(fixed)}", ((name, fixed),)),))


def _below(name, values, minimum):
    """Values below their minimum (a Repeats or window size of 0, a negative offset): raised to it."""
    if values is None or all(v >= minimum for v in values):
        return None
    fixed = tuple(max(v, minimum) for v in values)
    return Fixes(f"{name} {values_text(values)} has a value below {minimum}",
                 (Fix(f"{name} {values_text(fixed)}", ((name, fixed),)),))


def _first(*found):
    return next((f for f in found if f is not None), NONE)


def slice_fixes(op, input_sizes, attrs):
    sizes = [int(s) for s in input_sizes[0]]
    offsets, windows, strides = (_ints(attrs.get(n)) for n in ("window_offsets", "window_sizes", "window_strides"))
    wrong = _first(*(_per_dimension(n, v, sizes) for n, v in (("window_offsets", offsets), ("window_sizes", windows),
                                                                ("window_strides", strides))),
                   _below("window_offsets", offsets, 0), _below("window_sizes", windows, 1))
    if wrong.reason or None in (offsets, windows, strides):
        return wrong
    if 0 in strides:
        fixed = tuple(s or 1 for s in strides)
        return Fixes("InputWindowStrides may not be 0", (Fix(f"window_strides {values_text(fixed)}",
                                                             (("window_strides", fixed),)),))
    past = [d for d, (n, o, w) in enumerate(zip(sizes, offsets, windows)) if o + w > n]
    if past:
        options = []
        moved = tuple(min(o, max(n - w, 0)) for n, o, w in zip(sizes, offsets, windows))
        if all(m + w <= n for n, m, w in zip(sizes, moved, windows)):
            options.append(Fix(f"window_offsets {values_text(moved)}", (("window_offsets", moved),)))
        shrunk = tuple(min(w, n - min(o, n - 1)) for n, o, w in zip(sizes, offsets, windows))
        kept = tuple(min(o, n - 1) for n, o in zip(sizes, offsets))
        options.append(Fix(f"window_offsets {values_text(kept)}, window_sizes {values_text(shrunk)}",
                           (("window_offsets", kept), ("window_sizes", shrunk))))
        d = past[0]
        return Fixes(f"the window along dimension {d}, [{offsets[d]}, {offsets[d] + windows[d]}), runs past the "
                     f"input's size {sizes[d]}", tuple(options))
    wanted = _ints(attrs.get("output_sizes"))
    if wanted is not None and len(wanted) == len(sizes):
        copied = [core.slice_copied(w, s) for w, s in zip(windows, strides)]
        if any(not 1 <= o <= c for o, c in zip(wanted, copied)):
            fixed = tuple(min(max(o, 1), c) for o, c in zip(wanted, copied))
            return Fixes(f"output sizes {values_text(wanted)}: the window yields at most {values_text(copied)}",
                         (Fix(f"output_sizes {values_text(fixed)}", (("output_sizes", fixed),)),))
    return NONE


def padding_fixes(op, input_sizes, attrs):
    sizes = [int(s) for s in input_sizes[0]]
    starts, ends = _ints(attrs.get("start_padding")), _ints(attrs.get("end_padding"))
    wrong = _first(_per_dimension("start_padding", starts, sizes), _per_dimension("end_padding", ends, sizes),
                   _below("start_padding", starts, 0), _below("end_padding", ends, 0))
    if wrong.reason:
        return wrong
    mode = attrs.get("mode", "CONSTANT")
    if isinstance(mode, str) and mode.upper().removeprefix("DML_PADDING_MODE_") == "WRAP":
        return Fixes("WRAP needs DML_FEATURE_LEVEL_6_4; this DirectML is 1.13 (6_2)",
                     tuple(Fix(f"mode {m}", (("mode", m),)) for m in ("REFLECTION", "EDGE")))
    return NONE


def tile_fixes(op, input_sizes, attrs):
    sizes = [int(s) for s in input_sizes[0]]
    repeats = _ints(attrs.get("repeats"))
    return _first(_per_dimension("repeats", repeats, sizes), _below("repeats", repeats, 1))


def reverse_fixes(op, input_sizes, attrs):
    axis, rank = attrs.get("axis"), len(input_sizes[0])
    if not isinstance(axis, int) or 0 <= axis < rank:
        return NONE
    nearest = min(max(axis, 0), rank - 1)
    return Fixes(f"Axis {axis} is not in [0, {rank - 1}]", (Fix(f"axis {nearest}", (("axis", nearest),)),))


def upsample_fixes(op, input_sizes, attrs):
    mode = attrs.get("mode", "NEAREST_NEIGHBOR")
    if isinstance(mode, str) and mode.upper().removeprefix("DML_INTERPOLATION_MODE_") == "LINEAR":
        return Fixes("LINEAR averages elements into new values; NEAREST_NEIGHBOR copies them",
                     (Fix("mode NEAREST_NEIGHBOR", (("mode", "NEAREST_NEIGHBOR"),)),))
    scale = attrs.get("scale_size")
    pair = [scale.get("Width"), scale.get("Height")] if isinstance(scale, dict) else _ints(scale)
    if pair and len(pair) == 2 and all(isinstance(v, int) for v in pair) and min(pair) < 1:
        fixed = tuple(max(v, 1) for v in pair)
        return Fixes("ScaleSize Width and Height must be at least 1",
                     (Fix(f"scale_size Width {fixed[0]}, Height {fixed[1]}", (("scale_size", fixed),)),))
    return NONE
