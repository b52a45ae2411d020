"""SPLIT and JOIN taught: one element's move with its numbers, and quiz questions on it.

The rule (SPEC sections 5 and 6, restating DML_SPLIT_OPERATOR_DESC and DML_JOIN_OPERATOR_DESC): part k of the
whole tensor (SPLIT's OutputTensors[k], JOIN's InputTensors[k]) holds the indices o_k <= i < o_k + s_k along Axis,
with s_k its size along Axis and o_k = s_0 + ... + s_(k-1); every other index is the same on both sides.

The quiz's wrong choices are the mistakes people make: the index left unshifted, the offset of the wrong part, and
the neighbouring part.
"""

from itertools import accumulate

from ...errors import DescriptorError
from ..lessons import Formula, QuestionDraft, Term, checked_cell, index_text, random_index


def _whole_and_parts(op, call):
    """(the whole tensor's sizes, every part's sizes): SPLIT's input and outputs, JOIN's output and inputs."""
    if op.field(op.whole_name).is_input:
        return call.input_sizes[0], call.output_sizes
    return call.output_sizes[0], call.input_sizes


def _offset_term(k, sizes):
    """o_k, the first index along Axis of part k: the sizes before it added up."""
    before = [int(s) for s in sizes[:k]]
    general = "0" if k == 0 else " + ".join(f"s_{i}" for i in range(k))
    substituted = " + ".join(map(str, before)) if before else "0"
    return Term(f"o_{k}", general, substituted, sum(before))


def _from_whole(op, whole, sizes, axis, cell, side):
    """(whole index, (k, index in part k), terms) for an element given as an index of the whole tensor."""
    index = checked_cell(cell, whole, f"{side} index")
    i = index[axis]
    k = next(k for k in range(len(sizes)) if i < sum(sizes[:k + 1]))
    offset = _offset_term(k, sizes)
    local = Term(f"index along Axis in {op.parts_name}[{k}]", f"i - o_{k}", f"{i} - {offset.value}",
                 i - offset.value)
    return index, (k, *index[:axis], local.value, *index[axis + 1:]), (offset, local)


def _from_part(op, parts, sizes, axis, cell, side):
    """(whole index, (k, index in part k), terms) for an element given as (k, index in part k)."""
    k, *rest = (int(v) for v in cell)
    if not 0 <= k < len(parts):
        raise DescriptorError(f"{side} index: tensor number {k} is not in [0, {len(parts) - 1}]")
    part_index = checked_cell(rest, parts[k], f"{side} index in {op.parts_name}[{k}]")
    offset = _offset_term(k, sizes)
    j = part_index[axis]
    full = Term("index along Axis in the whole tensor", f"o_{k} + j", f"{offset.value} + {j}", offset.value + j)
    return (*part_index[:axis], full.value, *part_index[axis + 1:]), (k, *part_index), (offset, full)


def formula(op, call, cell, side):
    """The Formula of `call` taking one element across: `cell` is an index of the whole tensor, or (k, index in
    part k) on the side of the parts."""
    axis = call.attr("axis")
    whole, parts = _whole_and_parts(op, call)
    sizes = [p[axis] for p in parts]
    whole_is_input = op.field(op.whole_name).is_input
    if whole_is_input == (side == "input"):
        whole_cell, part_cell, terms = _from_whole(op, whole, sizes, axis, cell, side)
    else:
        whole_cell, part_cell, terms = _from_part(op, parts, sizes, axis, cell, side)
    symbols = (("Axis", "the cut dimension", axis),
               *((f"s_{k}", f"{op.parts_name}[{k}] size along Axis", s) for k, s in enumerate(sizes)))
    rule = (f"{op.name} along Axis {axis}: {op.parts_name}[k] holds indices o_k <= i < o_k + s_k of the whole tensor "
            "along Axis, with o_k = s_0 + ... + s_(k-1); every other index is the same on both sides")
    source, destination = (whole_cell, part_cell) if whole_is_input else (part_cell, whole_cell)
    return Formula(call, rule, symbols, terms, tuple(source), tuple(destination))


def question(op, quiz, rng, kind):
    """"where" an element lands, or where it "feeds" from, given on the whole tensor or on a part."""
    call = quiz.call
    axis = call.attr("axis")
    whole, parts = _whole_and_parts(op, call)
    sizes = [p[axis] for p in parts]
    # SPLIT "where": whole -> part; JOIN "where": part -> whole; "feeds" the other way round.
    part_given = op.field(op.whole_name).is_input != (kind == "where")
    if part_given:
        k = int(rng.integers(0, len(parts)))
        cell = (k, *random_index(rng, parts[k]))
    else:
        cell = random_index(rng, whole)
    found = formula(op, call, cell, "input" if kind == "where" else "output")
    right = found.destination if kind == "where" else found.source

    def part_text(value):
        return f"{op.parts_name}[{value[0]}] {index_text(value[1:])}"

    def whole_text(index):
        return f"{op.whole_name} {index_text(index)}"

    if part_given:  # the answer is an index of the whole tensor
        mistakes, guess, text = _whole_mistakes(cell, sizes, axis, whole), lambda: random_index(rng, whole), whole_text
        given = part_text(cell)
    else:  # the answer is (k, index in part k)
        mistakes, text, given = _part_mistakes(cell, right, sizes, axis), part_text, whole_text(cell)

        def guess():
            k2 = int(rng.integers(0, len(parts)))
            return (k2, *random_index(rng, parts[k2]))

    verb = "land" if kind == "where" else "come from"
    prompt = f"{op.name} along Axis {axis} with sizes {sizes}: where does {given} {verb}?"
    return QuestionDraft(kind, prompt, tuple(right), mistakes, guess, text, tuple(found.lines()), tuple(cell),
                         found.source, found.destination)


def _whole_mistakes(cell, sizes, axis, whole):
    """For (k, index in part k): the index left unshifted, and shifted by the next part's offset instead."""
    k, *index = cell
    too_far = index[axis] + list(accumulate(sizes))[k]
    return (tuple(index),
            tuple(index[:axis] + [too_far] + index[axis + 1:]) if too_far < whole[axis] else None)


def _part_mistakes(cell, right, sizes, axis):
    """For an index of the whole tensor: the index read in part k unshifted, and the same index in a neighbour."""
    k, *index = right
    unshifted = (k, *cell) if cell[axis] < sizes[k] else None
    neighbours = [(k2, *index) for k2 in (k - 1, k + 1) if 0 <= k2 < len(sizes) and index[axis] < sizes[k2]]
    return (unshifted, *neighbours)
