"""How the layout detective recognises the family: from where every element of y came from in x (`sources`, flat
indices, -1 for an element x does not hold), the descriptors that would do that.

SLICE1, PADDING1, TILE and UPSAMPLE_2D read along each axis an index that depends on that axis' output index alone
(core.py), so each axis' first line of sources is that index, and each operator's rule is read off it: an arithmetic
progression is a slice (a negative step a reversal), o mod n a tile, o div s an upsample, and a pad the widths and
modes whose index (core.padding_sources) equals it. The detective then runs every proposal on indices
(Operator.index_map) and keeps those that reproduce y exactly, so a proposal here need only be plausible. A y equal
to x gets none: every operator of the family can leave x as it is, and saying so four times tells nothing.
"""

import numpy as np

from ..base import SCALAR_UNION, SIZE_2D
from . import core


def _axis_lines(input_shape, sources):
    """Per axis, the input index each output index along it reads, on the line through the first element y holds
    from x; None when y is not x's rank or holds nothing from x."""
    if sources.ndim != len(input_shape) or not (sources >= 0).any():
        return None
    coords = np.unravel_index(np.where(sources >= 0, sources, 0), input_shape)
    anchor = np.argwhere(sources >= 0)[0]  # a cell from x: a constant pad's lines through it cross x
    lines = []
    for d, coord in enumerate(coords):
        # The line along axis d through the anchor; -1 where the element is from nowhere.
        index = tuple(slice(None) if a == d else int(anchor[a]) for a in range(sources.ndim))
        lines.append(np.where(sources[index] >= 0, coord[index], -1).astype(np.int64))
    return lines


def _progression(line):
    """(start, step) when `line` is start, start + step, ... with step != 0 (a lone element: step 1), else None."""
    if (line < 0).any():
        return None
    if len(line) == 1:
        return int(line[0]), 1
    step = int(line[1] - line[0])
    if step == 0 or not np.array_equal(line, line[0] + step * np.arange(len(line))):
        return None
    return int(line[0]), step


def slice_candidates(input_shape, output_shape, lines):
    """The smallest window per axis that yields the progression read along it."""
    progressions = [_progression(line) for line in lines]
    if None in progressions:
        return []
    offsets, sizes, strides = [], [], []
    for (start, step), count in zip(progressions, output_shape):
        last = start + step * (count - 1)
        offsets.append(min(start, last))
        sizes.append(abs(step) * (count - 1) + 1)
        strides.append(step)
    return [{"window_offsets": tuple(offsets), "window_sizes": tuple(sizes), "window_strides": tuple(strides),
             "output_sizes": None}]


def padding_candidates(input_shape, output_shape, lines):
    """Every mode, and the start and end widths per axis, whose index equals each axis' line."""
    found = []
    for mode in core.PADDING_MODES:
        widths = []
        for n, out, line in zip(input_shape, output_shape, lines):
            extra = out - n
            fits = [a for a in range(extra + 1)
                    if np.array_equal(core.padding_sources(n, a, extra - a, mode), line)]
            if not fits:
                break
            widths.append((fits[0], extra - fits[0]))
        else:
            found.append({"mode": mode, "start_padding": tuple(a for a, _ in widths),
                          "end_padding": tuple(b for _, b in widths)})
    return found


def tile_candidates(input_shape, output_shape, lines):
    if any(out % n for n, out in zip(input_shape, output_shape)):
        return []
    repeats = tuple(out // n for n, out in zip(input_shape, output_shape))
    if all(np.array_equal(core.tile_sources(n, r), line) for n, r, line in zip(input_shape, repeats, lines)):
        return [{"repeats": repeats}]
    return []


def upsample_candidates(input_shape, output_shape, lines):
    rank = len(input_shape)
    if not 4 <= rank <= 5 or any(out % n for n, out in zip(input_shape, output_shape)):
        return []
    scales = [out // n for n, out in zip(input_shape, output_shape)]
    if any(s != 1 for s in scales[:-2]):
        return []
    if all(np.array_equal(core.upsample_sources(n, s), line) for n, s, line in zip(input_shape, scales, lines)):
        return [{"scale_size": (scales[-1], scales[-2])}]
    return []


def written_value(output, sources):
    """The one value y holds wherever it holds nothing of x (a constant pad's value), or None when those cells
    differ or there are none."""
    written = np.ascontiguousarray(output[sources < 0])
    if not written.size:
        return None
    bits = written.view(f"u{written.dtype.itemsize}")
    return written[0].item() if (bits == bits[0]).all() else None


def inferred(op, input_shapes, output_shapes, sources, outputs):
    """The attributes `sources` (and, for a constant pad, the values y holds where it holds nothing of x) suggest
    for `op` (one input, one output); none when y equals x."""
    if len(input_shapes) != 1 or len(output_shapes) != 1 or not isinstance(sources, np.ndarray):
        return []
    input_shape, output_shape = tuple(input_shapes[0]), tuple(output_shapes[0])
    if input_shape == output_shape and np.array_equal(sources.ravel(), np.arange(sources.size)):
        return []
    lines = _axis_lines(input_shape, sources)
    if lines is None:
        return []
    found = op.read_lines(input_shape, output_shape, lines)
    if (sources < 0).any():  # some values are written, not read: a constant pad's, the same everywhere
        value = written_value(outputs[0], sources)
        found = [] if value is None else [{**a, "padding_value": value} for a in found if a.get("mode") == "CONSTANT"]
    return [op.canonical_attrs(a) for a in found]


def _setting(field, value):
    if isinstance(value, (tuple, list)) and field.kind == SIZE_2D:
        return f"{{Width {value[0]}, Height {value[1]}}}"
    return str(list(value)) if isinstance(value, (tuple, list)) else str(value)


def describe(op, settings):
    """A descriptor as identify reports it, in words: 'SLICE1 with InputWindowOffsets [0, 1], ...'; a padding value
    only where the mode writes it."""
    shown = [f for f in op.scalar_fields() if settings.get(f.name) is not None
             and not (f.kind == SCALAR_UNION and settings.get("PaddingMode") != "CONSTANT")]
    return f"{op.name} with {', '.join(f'{f.name} {_setting(f, settings[f.name])}' for f in shown)}"
