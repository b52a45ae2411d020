"""DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1 taught: one element's move with its numbers, and quiz questions on it.

Names (SPEC section 2, restating DML_DEPTH_TO_SPACE1_OPERATOR_DESC): the depth side is {N, C, H, W}, the space side
{N, C', H*bs, W*bs} with C' = C / bs^2; a space-side element (n, c', h', w') has h' = h*bs + bh and w' = w*bs + bw,
and
  DEPTH_COLUMN_ROW: depth channel c = (bh*bs + bw)*C' + c'
  COLUMN_ROW_DEPTH: depth channel c = c'*bs*bs + bh*bs + bw
DEPTH_TO_SPACE1 reads the depth side and writes the space side; SPACE_TO_DEPTH1 the other way round.

The quiz's wrong choices are the mistakes people make: the other order's answer, the block's row and column
swapped, and the element left where it was.
"""

from ..lessons import Formula, QuestionDraft, Term, checked_cell, index_text, random_index

# The channel formula of each order exactly as SPEC.md section 2 writes it.
CHANNEL_FORMULA = {
    "DEPTH_COLUMN_ROW": "(bh*bs + bw)*C' + c'",
    "COLUMN_ROW_DEPTH": "c'*bs*bs + bh*bs + bw",
}


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


def _space_channels(op, call):
    """C', the space side's channel count."""
    return (call.output_sizes if op.to_space else call.input_sizes)[0][1]


def formula(op, call, cell, side):
    """The Formula of `call` taking the element `cell` (a 4-index on `side`) across."""
    bs, order = call.attr("block_size"), call.attr("order")
    c_space = _space_channels(op, call)
    cell = checked_cell(cell, (call.input_sizes if side == "input" else call.output_sizes)[0], f"{side} index")
    # The depth-side channel is the input channel of DEPTH_TO_SPACE1 and the output channel of SPACE_TO_DEPTH1.
    channel_name = "input channel c" if op.to_space else "output channel c"
    if op.to_space == (side == "input"):  # the cell is on the depth side
        terms, other = _depth_to_space_terms(cell, order, bs, c_space, channel_name)
    else:
        terms, other = _space_to_depth_terms(cell, order, bs, c_space, channel_name)
    source, destination = (cell, other) if side == "input" else (other, cell)
    rule = (f"{op.name}, {order}: depth side [N, C, H, W] with C = bs*bs*C'; space side [N, C', H*bs, W*bs] with "
            f"h' = h*bs + bh, w' = w*bs + bw; depth channel c = {CHANNEL_FORMULA[order]}")
    symbols = (("bs", "BlockSize", bs), ("C'", "space-side channels", c_space))
    return Formula(call, rule, symbols, tuple(terms), source, tuple(destination))


def question(op, quiz, rng, kind):
    """"where" an input element lands, or which input element "feeds" an output element."""
    call = quiz.call
    order = call.attr("order")
    other = next(o for o in op.field("Order").enum.names if o != order)
    (in_shape,), (out_shape,) = call.input_sizes, call.output_sizes
    side, asked_shape, answer_shape = ("input", in_shape, out_shape) if kind == "where" else \
        ("output", out_shape, in_shape)
    cell = random_index(rng, asked_shape)

    def answer_of(asked):
        found = formula(op, asked, cell, side)
        return found, (found.destination if kind == "where" else found.source)

    found, right = answer_of(call)
    noun = "output" if kind == "where" else "input"
    mistakes = (answer_of(call.replace(attrs={"order": other}))[1], _block_swapped(op, call, found, right, kind),
                # The naive guess: nothing moves, the element keeps its own index (clamped into the other sizes).
                tuple(min(i, s - 1) for i, s in zip(cell, answer_shape)))
    if kind == "where":
        prompt = (f"Input element (n, c, h, w) = {index_text(cell)}: where does {op.name} ({order}) write it in the "
                  "output?")
    else:
        prompt = (f"Output element (n, c, h, w) = {index_text(cell)}: which input element does {op.name} ({order}) "
                  "copy there?")
    return QuestionDraft(kind, prompt, tuple(right), tuple(tuple(int(v) for v in m) for m in mistakes),
                         lambda: random_index(rng, answer_shape), lambda index: f"{noun} {index_text(index)}",
                         tuple(found.lines()), cell, found.source, found.destination)


def _block_swapped(op, call, found, right, kind):
    """The answer with the block's row and column swapped: the element bw rows and bh columns into the block."""
    bs, order = call.attr("block_size"), call.attr("order")
    parts = {t.name: t.value for t in found.terms}
    space_cell = found.destination if op.to_space else found.source
    bh, bw, cp = parts["bh"], parts["bw"], space_cell[1]
    n, c, h, w = right
    if op.to_space == (kind == "where"):  # the answer is on the space side
        return n, c, h - bh + bw, w - bw + bh
    return n, _channel_term("", order, bs, _space_channels(op, call), bw, bh, cp).value, h, w
