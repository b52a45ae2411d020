"""The family taught: where one element comes from or goes, with its numbers, and quiz questions whose wrong
choices are the mistakes people make between these operators and their framework twins.

Along each axis d the output index o_d reads one input index i_d (core.py):
- SLICE1: start_d = InputWindowOffsets[d] (+ InputWindowSizes[d] - 1 for a negative stride), i_d = start_d +
  InputWindowStrides[d] * o_d.
- PADDING1: j_d = o_d - StartPadding[d]; CONSTANT reads nothing outside [0, n_d) (the padding value), EDGE the nearest
  edge, REFLECTION m_d = j_d mod 2(n_d - 1) folded back past n_d - 1, SYMMETRIC m_d = j_d mod 2 n_d folded back past
  n_d - 1 with the edge repeated.
- TILE: i_d = o_d mod n_d. UPSAMPLE_2D: i_d = o_d div scale on the last two axes.
- REVERSE_SUBSEQUENCES: along Axis, with L the line's length (its low 32 bits), i = L - 1 - o for o < L (never past
  n - 1, as DirectML reads it), else o.
An input element may land in several output cells (a tile's copies, a pad's mirrors) or in none (a slice's skipped
ones): from the input side the formula gives the first and counts them all.

The quiz's wrong choices: the negative stride started at the window's offset (numpy's x[a::-s] habit); REFLECTION and
SYMMETRIC swapped, or EDGE for either; a tile read as a repeat and a repeat as a tile (np.tile against np.repeat,
Tensor.repeat against repeat_interleave); a long subsequence's length clamped (what the page says) instead of its
index (what DirectML does), and a whole line reversed.
"""

import math

import numpy as np

from ...errors import DescriptorError
from ..lessons import Formula, QuestionDraft, Term, checked_cell, index_text, random_index
from . import core

PADDING_VALUE = "the padding value"


# ---------------------------------------------------------------- along one axis, output to input


def _slice_terms(call, d, o):
    offset, size, stride = (call.attr(a)[d] for a in ("window_offsets", "window_sizes", "window_strides"))
    if stride < 0:
        start = Term(f"start_{d}", f"InputWindowOffsets[{d}] + InputWindowSizes[{d}] - 1", f"{offset} + {size} - 1",
                     offset + size - 1)
    else:
        start = Term(f"start_{d}", f"InputWindowOffsets[{d}]", str(offset), offset)
    i = Term(f"i_{d}", f"start_{d} + InputWindowStrides[{d}] * o_{d}", f"{start.value} + ({stride}) * {o}",
             start.value + stride * o)
    return i.value, (start, i)


def _padding_terms(call, d, o):
    n, before, mode = call.input_sizes[0][d], call.attr("start_padding")[d], call.attr("mode")
    j = Term(f"j_{d}", f"o_{d} - StartPadding[{d}]", f"{o} - {before}", o - before)
    if 0 <= j.value < n:
        return j.value, (j,)
    if mode == "CONSTANT":
        return None, (j, Term(f"i_{d}", f"none: j_{d} is outside [0, {n - 1}], CONSTANT writes PaddingValue", "-1",
                              -1))
    if mode == "EDGE" or n == 1:
        edge = 0 if j.value < 0 else n - 1
        why = "the first element" if j.value < 0 else "the last element"
        rule = f"{why} (a size-1 dimension mirrors to its one element)" if mode != "EDGE" else why
        return edge, (j, Term(f"i_{d}", rule, str(edge), edge))
    reflect = mode == "REFLECTION"
    period = Term(f"p_{d}", f"2 * (n_{d} - 1)" if reflect else f"2 * n_{d}",
                  f"2 * ({n} - 1)" if reflect else f"2 * {n}", 2 * (n - 1) if reflect else 2 * n)
    m = Term(f"m_{d}", f"j_{d} % p_{d}", f"{j.value} % {period.value}", j.value % period.value)
    if m.value < n:
        return m.value, (j, period, m, Term(f"i_{d}", f"m_{d} (< n_{d} = {n})", str(m.value), m.value))
    back = period.value - m.value - (0 if reflect else 1)
    general = f"p_{d} - m_{d}" if reflect else f"p_{d} - 1 - m_{d}"
    substituted = f"{period.value} - {m.value}" if reflect else f"{period.value} - 1 - {m.value}"
    return back, (j, period, m, Term(f"i_{d}", f"{general} (m_{d} >= n_{d}: the way back)", substituted, back))


def _tile_terms(call, d, o):
    n = call.input_sizes[0][d]
    i = Term(f"i_{d}", f"o_{d} % n_{d}", f"{o} % {n}", o % n)
    return i.value, (i,)


def _upsample_terms(call, d, o):
    rank = len(call.input_sizes[0])
    if d < rank - 2:
        return o, (Term(f"i_{d}", f"o_{d}", str(o), o),)
    width, height = call.attr("scale_size")
    scale, name = (height, "Height") if d == rank - 2 else (width, "Width")
    i = Term(f"i_{d}", f"o_{d} // ScaleSize.{name}", f"{o} // {scale}", o // scale)
    return i.value, (i,)


# ---------------------------------------------------------------- REVERSE_SUBSEQUENCES, along Axis


def _lengths(call, given):
    lengths = given.get("lengths")
    if lengths is None:
        raise DescriptorError("lengths: REVERSE_SUBSEQUENCES' formula needs the SequenceLengthsTensor's values")
    lengths = np.asarray(lengths)
    wanted = tuple(1 if d == call.attr("axis") else s for d, s in enumerate(call.input_sizes[0]))
    if lengths.shape != wanted:
        raise DescriptorError(f"lengths Sizes {list(lengths.shape)}: must be {list(wanted)}")
    return lengths


def _line_length(call, lengths, cell):
    """The length of the line through `cell`, as DirectML reads it (its low 32 bits), with its Term."""
    axis = call.attr("axis")
    where = tuple(0 if d == axis else c for d, c in enumerate(cell))
    raw = int(lengths[where])
    return Term("L", f"SequenceLengthsTensor{index_text(where)} & 0xFFFFFFFF (its low 32 bits)",
                f"{raw} & {core.LOW_32_BITS}", raw & core.LOW_32_BITS)


def _reverse_terms(call, lengths, cell):
    """(input index along Axis, terms) for output `cell`."""
    axis = call.attr("axis")
    n, o = call.input_sizes[0][axis], cell[axis]
    length = _line_length(call, lengths, cell)
    if o >= length.value:
        return o, (length, Term("i", "o (o >= L: past the subsequence, in place)", str(o), o))
    back = Term("r", "L - 1 - o", f"{length.value} - 1 - {o}", length.value - 1 - o)
    if back.value < n:
        return back.value, (length, back, Term("i", "r", str(back.value), back.value))
    # DirectML clamps the index it reads, not the length (docs/directml.md).
    return n - 1, (length, back, Term("i", f"n - 1 (r >= n = {n}: DirectML reads the last element)", f"{n} - 1",
                                      n - 1))


# ---------------------------------------------------------------- the formula


def _symbols(op, call):
    shape = call.input_sizes[0]
    symbols = [(f"n_{d}", f"InputTensor.Sizes[{d}]", s) for d, s in enumerate(shape)]
    if op.along_axis:
        return (("Axis", "the reversed dimension", call.attr("axis")), ("n", "InputTensor.Sizes[Axis]",
                                                                         shape[call.attr("axis")]))
    return tuple(symbols)


def _source_of(op, call, cell, given):
    """(input index or None for the padding value, terms) of output `cell`."""
    if op.along_axis:
        i, terms = _reverse_terms(call, _lengths(call, given), cell)
        axis = call.attr("axis")
        return (*cell[:axis], i, *cell[axis + 1:]), terms
    index, terms = [], []
    for d, o in enumerate(cell):
        i, axis_terms = op.lesson.axis_terms(call, d, o)
        index.append(i)
        terms += axis_terms
    return (None if None in index else tuple(index)), tuple(terms)


def destinations(op, call, cell, **given):
    """Every output cell holding input element `cell`, as an array of indices (one row each), in row-major order."""
    if op.along_axis:
        axis = call.attr("axis")
        lengths = _lengths(call, given)
        line = [_reverse_terms(call, lengths, (*cell[:axis], o, *cell[axis + 1:]))[0]
                for o in range(call.input_sizes[0][axis])]
        found = [o for o, i in enumerate(line) if i == cell[axis]]
        return np.array([(*cell[:axis], o, *cell[axis + 1:]) for o in found], dtype=np.int64).reshape(-1, len(cell))
    per_axis = [np.flatnonzero(s == i) for s, i in zip(op.axis_sources(call), cell)]
    if any(len(p) == 0 for p in per_axis):
        return np.zeros((0, len(cell)), dtype=np.int64)
    mesh = np.meshgrid(*per_axis, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1)


def _copies_term(op, call, cell, given):
    """(first destination or None, terms): where input `cell` lands first, and how many cells hold it."""
    if op.along_axis:
        found = destinations(op, call, cell, **given)
        if not len(found):
            return None, (Term("copies", "output cells reading this element", "0", 0),)
        return tuple(int(v) for v in found[0]), (Term("copies", "output cells reading this element",
                                                      str(len(found)), len(found)),)
    per_axis = [np.flatnonzero(s == i) for s, i in zip(op.axis_sources(call), cell)]
    counts = [len(p) for p in per_axis]
    copies = Term("copies", " * ".join(f"c_{d}" for d in range(len(cell))) + " (output indices reading i_d, per "
                  "axis)", " * ".join(map(str, counts)), math.prod(counts))
    if not copies.value:
        skipped = next(d for d, c in enumerate(counts) if not c)
        return None, (Term(f"c_{skipped}", f"output indices reading i_{skipped} (the window or the stride skips it)",
                           "0", 0), copies)
    return tuple(int(p[0]) for p in per_axis), (copies,)


def formula(op, call, cell, side, **given):
    """The Formula taking one element of `call` across. From an output cell the source is its input element, or ()
    for a constant pad's value; from an input cell the destination is the first output cell holding it, () when
    none does, and the terms count them all."""
    if side == "output":
        cell = checked_cell(cell, call.output_sizes[0], "output index")
        source, terms = _source_of(op, call, cell, given)
        return Formula(call, op.lesson.rule(call), _symbols(op, call), terms, source or (), cell)
    cell = checked_cell(cell, call.input_sizes[0], "input index")
    first, terms = _copies_term(op, call, cell, given)
    return Formula(call, op.lesson.rule(call), _symbols(op, call), terms, cell, first or ())


# ---------------------------------------------------------------- the quiz


def _text(tensor):
    def text(value):
        return PADDING_VALUE if value == () else f"{tensor} {index_text(value)}"
    return text


def question(op, quiz, rng, kind):
    """"feeds": which input element (or the padding value) an output cell holds; "where": which of some output
    cells holds a given input element (the others do not)."""
    call = quiz.call
    given = {"lengths": np.array(quiz.values[1], dtype=np.uint64).reshape(
        tuple(1 if d == call.attr("axis") else s for d, s in enumerate(call.input_sizes[0])))} \
        if op.along_axis and len(quiz.values) > 1 else {}
    shape, out_shape = call.input_sizes[0], call.output_sizes[0]
    if kind == "feeds":
        cell = random_index(rng, out_shape)
        found = formula(op, call, cell, "output", **given)
        mistakes = tuple(m if m is not None else () for m in op.lesson.mistaken_sources(op, call, cell, given))
        if not op.along_axis and any((s < 0).any() for s in op.axis_sources(call)):
            mistakes += ((),)  # a constant pad's value, for a cell that holds an input element (or is the answer)
        prompt = f"{_describe(op, call)}: which input element does output {index_text(cell)} hold?"
        return QuestionDraft(kind, prompt, found.source, mistakes, lambda: random_index(rng, shape),
                             _text("InputTensor"), tuple(found.lines()), cell, found.source, cell)
    cell = _copied_input(op, call, rng, given)
    found = formula(op, call, cell, "input", **given)
    held = {tuple(int(v) for v in row) for row in destinations(op, call, cell, **given)}
    right = tuple(int(v) for v in destinations(op, call, cell, **given)[int(rng.integers(0, len(held)))])

    def guess():
        candidate = random_index(rng, out_shape)
        return None if candidate in held else candidate

    mistakes = tuple(m for m in op.lesson.mistaken_destinations(call, cell) if m not in held)
    prompt = (f"{_describe(op, call)}: which output cell holds input element {index_text(cell)}"
              + (f" (it is in {len(held)} of them)?" if len(held) > 1 else "?"))
    return QuestionDraft(kind, prompt, right, mistakes, guess, _text("OutputTensor"), tuple(found.lines()), cell,
                         cell, right)


def _copied_input(op, call, rng, given):
    """An input element some output cell holds (a slice skips some)."""
    shape = call.input_sizes[0]
    for _ in range(64):
        cell = random_index(rng, shape)
        if len(destinations(op, call, cell, **given)):
            return cell
    if op.along_axis:
        return random_index(rng, shape)  # every element of a line is read, unless a long length hides some
    return tuple(int(s[0]) for s in op.axis_sources(call))


def _describe(op, call):
    settings = ", ".join(f"{a.label} {list(v) if isinstance(v, tuple) else v}"
                         for a in op.attributes if (v := call.attributes.get(a.name)) is not None)
    return f"{op.name} of a {list(call.input_sizes[0])} input ({settings})"


# ---------------------------------------------------------------- each operator's lesson


class Lesson:
    """What one operator teaches: its rule in a line, the terms along one axis from an output index to the input's,
    and where people look for a source or a destination, wrongly."""

    def __init__(self, rule, axis_terms=None, mistaken_sources=None, mistaken_destinations=None):
        self.rule_text, self.axis_terms = rule, axis_terms
        self.mistaken_sources, self.mistaken_destinations = mistaken_sources, mistaken_destinations

    def rule(self, call):
        return self.rule_text(call) if callable(self.rule_text) else self.rule_text


def _inside(cells, shape):
    return [c for c in cells if c is not None and all(0 <= i < n for i, n in zip(c, shape))]


def _slice_from_offset(op, call, cell, given):
    """A negative stride started at the window's offset, as numpy's x[a::-s] starts at a."""
    wrong = tuple(off + st * o for off, st, o in zip(call.attr("window_offsets"), call.attr("window_strides"), cell))
    return _inside([wrong], call.input_sizes[0]) or [None]


def _slice_unstrided(call, cell):
    """The element's distance from the window's offset, the stride forgotten."""
    return _inside([tuple(i - off for i, off in zip(cell, call.attr("window_offsets")))], call.output_sizes[0])


_MODE_MIX_UPS = {"REFLECTION": ("SYMMETRIC", "EDGE"), "SYMMETRIC": ("REFLECTION", "EDGE"),
                 "EDGE": ("REFLECTION", "SYMMETRIC"), "CONSTANT": ("EDGE", "REFLECTION")}


def _padding_other_modes(op, call, cell, given):
    """REFLECTION and SYMMETRIC swapped, or EDGE for either: the other modes' sources."""
    return [_source_of(op, call.replace(attrs={"mode": mode}), cell, given)[0] or ()
            for mode in _MODE_MIX_UPS[call.attr("mode")]]


def _padding_forgotten(call, cell):
    return _inside([tuple(cell)], call.output_sizes[0])


def _tile_as_repeat(op, call, cell, given):
    """A tile read as a repeat (np.repeat, repeat_interleave): each element repeated Repeats[d] times."""
    return [tuple(o // r for o, r in zip(cell, call.attr("repeats")))]


def _tile_destination_as_repeat(call, cell):
    return _inside([tuple(i * r for i, r in zip(cell, call.attr("repeats")))], call.output_sizes[0])


def _repeat_as_tile(op, call, cell, given):
    """A repeat read as a tile (np.tile, Tensor.repeat): whole copies."""
    return [tuple(o % n for o, n in zip(cell, call.input_sizes[0]))]


def _repeat_destination_as_tile(call, cell):
    return _inside([tuple(cell)], call.output_sizes[0])


def _reverse_clamped_or_whole(op, call, cell, given):
    """The length clamped to the axis (what the page says) instead of the index (what DirectML does), and the whole
    line reversed."""
    axis, shape = call.attr("axis"), call.input_sizes[0]
    n, o = shape[axis], cell[axis]
    clamped = min(_line_length(call, _lengths(call, given), cell).value, n)
    return [(*cell[:axis], i, *cell[axis + 1:]) for i in (clamped - 1 - o if o < clamped else o, n - 1 - o)]


def _reverse_whole_line(call, cell):
    axis = call.attr("axis")
    return [(*cell[:axis], call.output_sizes[0][axis] - 1 - cell[axis], *cell[axis + 1:])]


def _padding_rule(call):
    mode = call.attr("mode")
    outside = {"CONSTANT": "PaddingValue", "EDGE": "the nearest edge",
               "REFLECTION": "mirrored without repeating the edge (period 2(n_d - 1))",
               "SYMMETRIC": "mirrored repeating the edge (period 2 n_d)"}[mode]
    return f"PADDING1 ({mode}): j_d = o_d - StartPadding[d], read inside [0, n_d); outside it {outside}"


SLICE = Lesson("SLICE1: i_d = start_d + InputWindowStrides[d] * o_d, start_d the window's first element in the "
               "stride's direction (its end for a negative stride)", _slice_terms, _slice_from_offset,
               _slice_unstrided)
PADDING = Lesson(_padding_rule, _padding_terms, _padding_other_modes, _padding_forgotten)
TILE = Lesson("TILE: i_d = o_d % n_d: whole copies of the input, one after another", _tile_terms, _tile_as_repeat,
              _tile_destination_as_repeat)
UPSAMPLE = Lesson("UPSAMPLE_2D (NEAREST_NEIGHBOR): i_d = o_d // scale on the last two axes: each element repeated "
                  "over a block", _upsample_terms, _repeat_as_tile, _repeat_destination_as_tile)
REVERSE = Lesson("REVERSE_SUBSEQUENCES along Axis: i = L - 1 - o for o < L (at most n - 1), else o; L the line's "
                 "length", None, _reverse_clamped_or_whole, _reverse_whole_line)
