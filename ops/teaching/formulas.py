"""The index formula behind one element's move, with that element's numbers substituted.

Each formula is written as SPEC.md states it (/work/shared/SPEC.md sections 2 to 6, restating DirectML's
DML_DEPTH_TO_SPACE1_OPERATOR_DESC, DML_ELEMENT_WISE_BIT_OR_OPERATOR_DESC and DML_SPLIT_OPERATOR_DESC pages).
Every step is a Term whose `substituted` text is plain integer arithmetic (+ - * // % >> & |), so a reader can
redo it and a test can evaluate it and compare it with what the operator does.

Depth <-> space names (SPEC section 2): the depth side is {N, C, H, W}, the space side {N, C', H*bs, W*bs}
with C' = C / bs^2; a space-side element (n, c', h', w') has h' = h*bs + bh and w' = w*bs + bw, and
  DEPTH_COLUMN_ROW: depth channel c = (bh*bs + bw)*C' + c'
  COLUMN_ROW_DEPTH: depth channel c = c'*bs*bs + bh*bs + bw
DEPTH_TO_SPACE1 reads the depth side and writes the space side; SPACE_TO_DEPTH1 the other way round.
"""

import math
from dataclasses import dataclass

from ..errors import DescriptorError
from ..operators.depth_space import depth_to_space_shape, order_name, space_to_depth_shape

DEPTH_SPACE_OPS = ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1")
SPLIT_JOIN_OPS = ("SPLIT", "JOIN")
BIT_OR = "ELEMENT_WISE_BIT_OR"
OPS = DEPTH_SPACE_OPS + SPLIT_JOIN_OPS + (BIT_OR,)
SIDES = ("input", "output")

# The channel formula of each order exactly as SPEC.md section 2 writes it.
CHANNEL_FORMULA = {
    "DEPTH_COLUMN_ROW": "(bh*bs + bw)*C' + c'",
    "COLUMN_ROW_DEPTH": "c'*bs*bs + bh*bs + bw",
}


@dataclass(frozen=True)
class Term:
    """One step: `name = general = substituted = value`; `substituted` is integer arithmetic."""

    name: str
    general: str
    substituted: str
    value: int
    hex_width: int = 0  # > 0: the value reads as a bit pattern of that many bits

    @property
    def shown(self):
        return f"0x{self.value:0{self.hex_width // 4}X}" if self.hex_width else str(self.value)

    def __str__(self):
        parts = [self.name]
        for part in (self.general, self.substituted, self.shown):
            if part != parts[-1]:  # "o_0 = 0", not "o_0 = 0 = 0 = 0"
                parts.append(part)
        return " = ".join(parts)


@dataclass(frozen=True)
class Formula:
    """Where one element comes from and goes to, and the arithmetic that says so.

    source / destination: the element's index in the input / output. SPLIT's destination and JOIN's source
    lead with the tensor number k (OutputTensors[k] / InputTensors[k]). BIT_OR: the same index on both sides.
    """

    op: str
    order: str | None
    rule: str  # the operator's rule in one line, with symbols
    symbols: tuple  # (symbol, meaning, value) of the settings the terms use
    terms: tuple
    source: tuple
    destination: tuple

    def lines(self):
        """The whole explanation, one line each: the rule, the settings, then every term."""
        given = ", ".join(f"{symbol} = {value} ({meaning})" for symbol, meaning, value in self.symbols)
        return [self.rule, *([given] if given else []), *(str(term) for term in self.terms)]


def _cell(cell, shape, field):
    cell = tuple(int(i) for i in cell)
    if len(cell) != len(shape) or not all(0 <= i < s for i, s in zip(cell, shape)):
        raise DescriptorError(f"{field} {list(cell)}: not an index of a tensor of Sizes {list(shape)}")
    return cell


def _channel_parts(c, order, bs, c_space):
    """(bh, bw, c') of depth channel c: the order's formula solved for its three unknowns."""
    if order == "DEPTH_COLUMN_ROW":
        return [Term("bh", "c // (bs*C')", f"{c} // ({bs}*{c_space})", c // (bs * c_space)),
                Term("bw", "c // C' % bs", f"{c} // {c_space} % {bs}", c // c_space % bs),
                Term("c'", "c % C'", f"{c} % {c_space}", c % c_space)]
    return [Term("bh", "c // bs % bs", f"{c} // {bs} % {bs}", c // bs % bs),
            Term("bw", "c % bs", f"{c} % {bs}", c % bs),
            Term("c'", "c // (bs*bs)", f"{c} // ({bs}*{bs})", c // (bs * bs))]


def _channel_term(name, order, bs, c_space, bh, bw, cp):
    if order == "DEPTH_COLUMN_ROW":
        substituted, value = f"({bh}*{bs} + {bw})*{c_space} + {cp}", (bh * bs + bw) * c_space + cp
    else:
        substituted, value = f"{cp}*{bs}*{bs} + {bh}*{bs} + {bw}", cp * bs * bs + bh * bs + bw
    return Term(name, CHANNEL_FORMULA[order], substituted, value)


def _depth_to_space_terms(depth_cell, order, bs, c_space, channel_name):
    """Terms taking a depth-side (n, c, h, w) to its space-side index."""
    n, c, h, w = depth_cell
    parts = _channel_parts(c, order, bs, c_space)
    bh, bw, cp = (t.value for t in parts)
    terms = parts + [_channel_term(channel_name, order, bs, c_space, bh, bw, cp),
                     Term("h'", "h*bs + bh", f"{h}*{bs} + {bh}", h * bs + bh),
                     Term("w'", "w*bs + bw", f"{w}*{bs} + {bw}", w * bs + bw)]
    return terms, (n, cp, h * bs + bh, w * bs + bw)


def _space_to_depth_terms(space_cell, order, bs, c_space, channel_name):
    """Terms taking a space-side (n, c', h', w') to its depth-side index."""
    n, cp, hp, wp = space_cell
    terms = [Term("bh", "h' % bs", f"{hp} % {bs}", hp % bs), Term("h", "h' // bs", f"{hp} // {bs}", hp // bs),
             Term("bw", "w' % bs", f"{wp} % {bs}", wp % bs), Term("w", "w' // bs", f"{wp} // {bs}", wp // bs)]
    channel = _channel_term(channel_name, order, bs, c_space, hp % bs, wp % bs, cp)
    return terms + [channel], (n, channel.value, hp // bs, wp // bs)


def _depth_space(op, order, block_size, shape, cell, side):
    order = order_name(order)
    bs = int(block_size)
    if bs < 1:
        raise DescriptorError(f"BlockSize {bs}: must be at least 1")
    shape = tuple(int(s) for s in shape)
    if len(shape) != 4:
        raise DescriptorError(f"InputTensor Sizes {list(shape)}: {op} takes exactly 4 dimensions")
    if op == "DEPTH_TO_SPACE1":
        depth_shape, space_shape = shape, depth_to_space_shape(shape, bs)
        in_shape, out_shape = depth_shape, space_shape
    else:
        depth_shape, space_shape = space_to_depth_shape(shape, bs), shape
        in_shape, out_shape = space_shape, depth_shape
    c_space = space_shape[1]
    given_shape = in_shape if side == "input" else out_shape
    cell = _cell(cell, given_shape, f"{side} index")
    # The depth-side channel is the input channel of DEPTH_TO_SPACE1 and the output channel of SPACE_TO_DEPTH1.
    channel_name = "input channel c" if op == "DEPTH_TO_SPACE1" else "output channel c"
    cell_on_depth = (op == "DEPTH_TO_SPACE1") == (side == "input")
    if cell_on_depth:
        terms, other = _depth_to_space_terms(cell, order, bs, c_space, channel_name)
    else:
        terms, other = _space_to_depth_terms(cell, order, bs, c_space, channel_name)
    source, destination = (cell, other) if side == "input" else (other, cell)
    rule = (f"{op}, {order}: depth side [N, C, H, W] with C = bs*bs*C'; space side [N, C', H*bs, W*bs] with "
            f"h' = h*bs + bh, w' = w*bs + bw; depth channel c = {CHANNEL_FORMULA[order]}")
    symbols = (("bs", "BlockSize", bs), ("C'", "space-side channels", c_space))
    return Formula(op, order, rule, symbols, tuple(terms), source, tuple(destination))


def _offset_term(k, sizes):
    """o_k, the first index along Axis of tensor k: the sizes before it added up."""
    before = [int(s) for s in sizes[:k]]
    general = "0" if k == 0 else " + ".join(f"s_{i}" for i in range(k))
    substituted = " + ".join(map(str, before)) if before else "0"
    return Term(f"o_{k}", general, substituted, sum(before))


def _split_join(op, shapes, cell, side, axis):
    shapes = [tuple(int(s) for s in shape) for shape in shapes]
    if axis is None:
        raise DescriptorError(f"Axis: {op} needs an axis")
    axis = int(axis)
    if op == "SPLIT":
        whole, parts = shapes[0], shapes[1:]
    else:
        parts, whole = shapes, None
    if not parts:
        raise DescriptorError(f"{op}: needs at least one {'output' if op == 'SPLIT' else 'input'} shape")
    if not 0 <= axis < len(parts[0]):
        raise DescriptorError(f"Axis {axis}: not in [0, {len(parts[0]) - 1}]")
    sizes = [p[axis] for p in parts]
    if whole is None:
        whole = parts[0][:axis] + (sum(sizes),) + parts[0][axis + 1:]
    elif sum(sizes) != whole[axis]:
        raise DescriptorError(f"OutputTensors sizes along Axis {sizes} sum to {sum(sizes)}, not {whole[axis]}")
    whole_on_input = op == "SPLIT"
    given_whole = whole_on_input == (side == "input")
    word = "OutputTensors" if op == "SPLIT" else "InputTensors"
    symbols = (("Axis", "the cut dimension", axis),
               *((f"s_{k}", f"{word}[{k}] size along Axis", s) for k, s in enumerate(sizes)))
    if given_whole:
        index = _cell(cell, whole, f"{side} index")
        i = index[axis]
        k = next(k for k in range(len(sizes)) if i < sum(sizes[:k + 1]))
        offset = _offset_term(k, sizes)
        local = Term(f"index along Axis in {word}[{k}]", f"i - o_{k}", f"{i} - {offset.value}", i - offset.value)
        part_index = index[:axis] + (local.value,) + index[axis + 1:]
        whole_cell, part_cell = index, (k, *part_index)
        terms = (offset, local)
    else:
        k, *rest = (int(v) for v in cell)
        if not 0 <= k < len(parts):
            raise DescriptorError(f"{side} index: tensor number {k} is not in [0, {len(parts) - 1}]")
        part_index = _cell(rest, parts[k], f"{side} index in {word}[{k}]")
        offset = _offset_term(k, sizes)
        j = part_index[axis]
        full = Term("index along Axis in the whole tensor", f"o_{k} + j", f"{offset.value} + {j}", offset.value + j)
        whole_cell = part_index[:axis] + (full.value,) + part_index[axis + 1:]
        part_cell = (k, *part_index)
        terms = (offset, full)
    rule = (f"{op} along Axis {axis}: {word}[k] holds indices o_k <= i < o_k + s_k of the whole tensor along Axis, "
            "with o_k = s_0 + ... + s_(k-1); every other index is the same on both sides")
    source, destination = (whole_cell, part_cell) if op == "SPLIT" else (part_cell, whole_cell)
    return Formula(op, None, rule, symbols, terms, tuple(source), tuple(destination))


def _bit_or(shape, cell, values, b_strides):
    shape = tuple(int(s) for s in shape)
    if values is None or len(values) != 3:
        raise DescriptorError("values: BIT_OR needs (A's bits, B's bits, element width in bits)")
    a, b, width = (int(v) for v in values)
    if width not in (8, 16, 32, 64) or not (0 <= a < 1 << width and 0 <= b < 1 << width):
        raise DescriptorError(f"values: A and B must be {width}-bit patterns of an 8, 16, 32 or 64-bit type")
    element, bit = (int(v) for v in cell)
    if not 0 <= element < math.prod(shape):
        raise DescriptorError(f"element {element}: not in [0, {math.prod(shape) - 1}] for Sizes {list(shape)}")
    if not 0 <= bit < width:
        raise DescriptorError(f"bit {bit}: not in [0, {width - 1}]")
    index = tuple(int(i) for i in _unravel(element, shape))
    hx = width // 4
    terms = [Term(f"A bit {bit}", "(A >> k) & 1", f"(0x{a:0{hx}X} >> {bit}) & 1", (a >> bit) & 1),
             Term(f"B bit {bit}", "(B >> k) & 1", f"(0x{b:0{hx}X} >> {bit}) & 1", (b >> bit) & 1)]
    terms.append(Term(f"Output bit {bit}", "A bit | B bit", f"{terms[0].value} | {terms[1].value}",
                      terms[0].value | terms[1].value))
    terms.append(Term("Output", "A | B", f"0x{a:0{hx}X} | 0x{b:0{hx}X}", a | b, hex_width=width))
    if b_strides is not None:
        strides = [int(s) for s in b_strides]
        if len(strides) != len(shape):
            raise DescriptorError(f"B Strides {strides}: need {len(shape)} values for Sizes {list(shape)}")
        general = " + ".join(f"i_{d}*t_{d}" for d in range(len(shape)))
        substituted = " + ".join(f"{i}*{t}" for i, t in zip(index, strides))
        terms.append(Term("B element read", general, substituted, sum(i * t for i, t in zip(index, strides))))
    rule = ("ELEMENT_WISE_BIT_OR: Output[i] = A[i] | B[i] on the raw bits, each bit k on its own; B is read at "
            "offset i_0*t_0 + ... with its descriptor's strides t (0 = broadcast)")
    symbols = (("k", "bit number, 0 = least significant", bit), ("i", "element index", element))
    return Formula(BIT_OR, None, rule, symbols, tuple(terms), index, index)


def _unravel(flat, shape):
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def index_formula(op, order, block_size, shapes, cell, *, side="input", axis=None, values=None, b_strides=None):
    """The formula taking one element of `op` from input to output, with its numbers substituted.

    op: DEPTH_TO_SPACE1, SPACE_TO_DEPTH1, SPLIT, JOIN or ELEMENT_WISE_BIT_OR.
    shapes: depth/space and BIT_OR: (input sizes,); SPLIT: (input sizes, *output sizes); JOIN: input sizes.
    cell: the element, given on `side` ("input" or "output"): a 4-index for depth/space; an index of the whole
    tensor, or (k, index in tensor k) for SPLIT's outputs / JOIN's inputs; (element flat index, bit number) for
    BIT_OR with values = (A's bits, B's bits, width) and optionally B's descriptor strides.
    Raises DescriptorError naming the field for anything that does not fit.
    """
    if op not in OPS:
        raise DescriptorError(f"op {op!r}: expected one of {', '.join(OPS)}")
    if side not in SIDES:
        raise DescriptorError(f"side {side!r}: expected input or output")
    if op in DEPTH_SPACE_OPS:
        return _depth_space(op, order, block_size, shapes[0], cell, side)
    if op in SPLIT_JOIN_OPS:
        return _split_join(op, shapes, cell, side, axis)
    return _bit_or(shapes[0], cell, values, b_strides)
