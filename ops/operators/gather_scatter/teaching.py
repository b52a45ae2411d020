"""The gather and scatter family taught: one element's way with its numbers, and quiz questions on it.

What moves where depends on IndicesTensor's values, so every formula and question takes them: `indices` (an array of
the call's IndicesTensor sizes and type) for a formula, and for a quiz the IndicesTensor's values (its input's tuple in
QuizSettings.values, row-major). The arithmetic is DirectML's (core.py): an index is read as its low 32 bits, a
negative one has its axis's size added (modulo 2^32), and the element's address is its coordinates times the
strides, modulo 2^32; a gather reads at most the buffer's last element, a scatter drops what lands past the buffer.

The quiz's wrong choices are the mistakes people make (pytorch/pytorch#11776: torch.gather is GATHER_ELEMENTS, not
ONNX's Gather): the other gather's answer, the negative index not counted from the end, the index on the
neighbouring axis, and for a scatter the first of colliding updates instead of the last the core keeps (DirectML
keeps one of them, not guaranteed which: the question says so).
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import DescriptorError
from ..lessons import Formula, QuestionDraft, Term, checked_cell, index_text, random_index
from . import core

WORD = 1 << 32


def _indices_of(call, indices):
    """The IndicesTensor of `call` as an array of its sizes and type, from an array or row-major values."""
    spec = call.operator
    position = spec.input_labels(len(call.input_sizes)).index("IndicesTensor")
    sizes, dtype = call.input_sizes[position], np.dtype(call.attr("indices_type").lower())
    if indices is None:
        raise DescriptorError(f"indices: {call.op}'s element moves depend on IndicesTensor's values; give them")
    array = np.asarray(indices)
    if array.size != math.prod(sizes):
        raise DescriptorError(f"indices: {array.size} values for an IndicesTensor of Sizes {list(sizes)}")
    return np.array(array.ravel(), dtype=dtype).reshape(sizes) if array.dtype != dtype else array.reshape(sizes)


def _index_terms(name, value, dtype, size):
    """Terms reading one index as DirectML does: the value, its low 32 bits, counted from the end if negative."""
    dtype = np.dtype(dtype)
    bits = int(np.array(value, dtype).view(f"u{dtype.itemsize}"))
    raw = int(value)
    terms = [Term(name, "IndicesTensor element", str(raw), raw)]
    low = bits % WORD
    if bits != low:
        terms.append(Term("its low 32 bits", f"{name} & 0xFFFFFFFF", f"{bits} & {WORD - 1}", low))
    sign = core.SIGN_BITS[dtype.name.upper()]
    if sign is not None and (bits >> sign) & 1:
        terms.append(Term("counted from the end", f"(low 32 bits + {size}) mod 2^32", f"({low} + {size}) % {WORD}",
                          (low + size) % WORD))
    return terms


def _address_terms(coordinates, sizes, itemsize, tensor):
    """The address of `coordinates` (Python ints, indices standing in) in a packed tensor of `sizes`, and where it
    lies: the element, the buffer's padding, or past the buffer."""
    strides = core.packed_strides(sizes)
    products = " + ".join(f"{c}*{s}" for c, s in zip(coordinates, strides))
    address = sum(c * s for c, s in zip(coordinates, strides)) % WORD
    return [Term(f"address in {tensor}", "sum of coordinate*stride, mod 2^32", f"({products}) % {WORD}", address)], \
        address, core.buffer_elements(math.prod(sizes), itemsize)


def _read_terms(coordinates, sizes, itemsize):
    """A gather's read: the address, clamped to the input buffer's last element; (terms, source index or ())."""
    terms, address, buffer = _address_terms(coordinates, sizes, itemsize, "InputTensor")
    read = min(address, buffer - 1)
    if read != address:
        terms.append(Term("read at", f"the buffer's last element, the address being past it ({buffer} elements)",
                          str(read), read))
    return terms, (tuple(int(c) for c in np.unravel_index(read, sizes)) if read < math.prod(sizes) else ())


def _gather_read(op, call, cell, indices):
    """(index coordinates, input coordinates with the indices standing in, terms) of one GATHER-family output."""
    x_sizes = call.input_sizes[0]
    if op.name == "GATHER":
        axis, k = call.attr("axis"), call.attr("index_dimensions")
        full = cell[1:] if k == 0 else (0,) * (k - 1) + cell
        chosen = indices.reshape(indices.shape[len(x_sizes) - k:])
        j = tuple(full[axis:axis + k])
        terms = _index_terms("i", chosen[j], indices.dtype, x_sizes[axis])
        where = tuple(full[:axis]) + (terms[-1].value,) + tuple(full[axis + k:])
        index_cell = (0,) * (indices.ndim - k) + j
    elif op.name == "GATHER_ELEMENTS":
        axis = call.attr("axis")
        terms = _index_terms("i", indices[cell], indices.dtype, x_sizes[axis])
        if x_sizes[axis] == 1:
            terms.append(Term("an axis of size 1", "0 whatever the index (DirectML)", "0", 0))
        where, index_cell = cell[:axis] + (terms[-1].value,) + cell[axis + 1:], cell
    else:
        m, q = call.attr("input_dimensions"), call.attr("indices_dimensions")
        b = call.attr("batch_dimensions") if "batch_dimensions" in call.attributes else 0
        t = indices.shape[-1]
        meaningful_input = x_sizes[len(x_sizes) - m:]
        result = core.nd_meaningful(x_sizes, indices.shape, m, q, b)
        o = cell[len(cell) - len(result):]
        tuple_cell = tuple(o[:q - 1])
        index_cell = (0,) * (indices.ndim - q) + tuple_cell + (0,)
        tuples = indices.reshape(indices.shape[indices.ndim - q:])
        terms, chosen = [], []
        for c in range(t):
            read = _index_terms(f"i{c}", tuples[tuple_cell + (c,)], indices.dtype, meaningful_input[b + c])
            terms += read
            chosen.append(read[-1].value)
        where = (0,) * (len(x_sizes) - m) + tuple(o[:b]) + tuple(chosen) + tuple(o[q - 1:])
    return index_cell, where, terms


def _scatter_write(op, call, cell, indices):
    """(index coordinates, output coordinates with the index standing in, terms) of one update."""
    x_sizes = call.input_sizes[0]
    if op.name == "SCATTER":
        axis = call.attr("axis")
        terms = _index_terms("i", indices[cell], indices.dtype, x_sizes[axis])
        if x_sizes[axis] == 1:
            terms.append(Term("an axis of size 1", "0 whatever the index (DirectML)", "0", 0))
        return cell, cell[:axis] + (terms[-1].value,) + cell[axis + 1:], terms
    m, q = call.attr("input_dimensions"), call.attr("indices_dimensions")
    meaningful = core.nd_meaningful(x_sizes, indices.shape, m, q, 0)
    u = cell[len(cell) - len(meaningful):]
    tuples = indices.reshape(indices.shape[indices.ndim - q:])
    tuple_cell = tuple(u[:q - 1])
    terms, chosen = [], []
    for c in range(indices.shape[-1]):
        read = _index_terms(f"i{c}", tuples[tuple_cell + (c,)], indices.dtype, x_sizes[len(x_sizes) - m + c])
        terms += read
        chosen.append(read[-1].value)
    where = (0,) * (len(x_sizes) - m) + tuple(chosen) + tuple(u[q - 1:])
    return (0,) * (indices.ndim - q) + tuple_cell + (0,), where, terms


RULES = {
    "GATHER": "GATHER: output[o] = input[o before Axis, indices[o's IndexDimensions coordinates], o after]",
    "GATHER_ELEMENTS": "GATHER_ELEMENTS: output[o] = input[o with its Axis coordinate = indices[o]]",
    "GATHER_ND": "GATHER_ND: output[o] = input[indices[o's leading coordinates, :], o's trailing coordinates]",
    "GATHER_ND1": "GATHER_ND1: output[b, o] = input[b, indices[b, o, :], trailing coordinates]",
    "SCATTER": "SCATTER: output = input, then output[u with its Axis coordinate = indices[u]] = updates[u], in order",
    "SCATTER_ND": "SCATTER_ND: output = input, then output[indices[u's leading coordinates, :], u's trailing "
                  "coordinates] = updates[u], in order",
    "ONE_HOT": "ONE_HOT: output[o] = OnValue if indices[o with 0 along Axis] = o's Axis coordinate, else OffValue",
}
ADDRESSING = ("; DirectML reads an index as its low 32 bits, adds the axis's size to a negative one, and addresses "
              "sum(coordinate*stride) mod 2^32")


def formula(op, call, cell, side, indices=None):
    """The Formula of one element of `call`: an output element's source (side "output"); for a scatter also an
    update's destination (side "input": `cell` an index of UpdatesTensor). `indices`: IndicesTensor's values."""
    indices = _indices_of(call, indices)
    symbols = tuple((f.name, f.name, call.attr(f.attribute)) for f in op.scalar_fields() if f.attribute)
    rule = RULES[op.name] + ADDRESSING
    itemsize = np.dtype(call.data_type.lower()).itemsize
    if op.name == "ONE_HOT":
        return _one_hot_formula(op, call, cell, side, indices, rule, symbols)
    scatter = op.name.startswith("SCATTER")
    if side == "input" and not scatter:
        raise DescriptorError(f"side input: an input element of {op.name} may feed many output elements or none; "
                              "ask where an output element comes from (side output)")
    if side == "input":
        updates = call.input_sizes[2]
        cell = checked_cell(cell, updates, "UpdatesTensor index")
        _, where, terms = _scatter_write(op, call, cell, indices)
        address_terms, address, buffer = _address_terms(where, call.input_sizes[0], itemsize, "OutputTensor")
        size = math.prod(call.input_sizes[0])
        destination = tuple(int(c) for c in np.unravel_index(address, call.input_sizes[0])) if address < size else ()
        if address >= buffer:
            address_terms.append(Term("dropped", f"1: the address is past the output's buffer ({buffer} elements)",
                                      "1", 1))
        return Formula(call, rule, symbols, tuple(terms + address_terms), cell, destination)
    cell = checked_cell(cell, call.output_sizes[0], "output index")
    if scatter:
        return _scatter_output_formula(op, call, cell, indices, rule, symbols, itemsize)
    _, where, terms = _gather_read(op, call, cell, indices)
    read_terms, source = _read_terms(where, call.input_sizes[0], itemsize)
    return Formula(call, rule, symbols, tuple(terms + read_terms), source, cell)


def _addressing(op, call, cell, indices):
    """The positions (row-major) of the updates addressing output element `cell`, in order."""
    inputs = [np.zeros(sizes, np.uint8) for sizes in call.input_sizes]
    inputs[1] = indices
    found = op.provenance(inputs, **call.attributes)
    flat = int(np.ravel_multi_index(cell, call.output_sizes[0]))
    return [int(u) for u in np.flatnonzero(found.landing.ravel() == flat)]


def _scatter_output_formula(op, call, cell, indices, rule, symbols, itemsize):
    """Where an output element of a scatter comes from, led by the tensor's number: (2, update) for the last update
    addressing it (the core's choice among colliding ones), else (0, cell), InputTensor's own element."""
    addressing = _addressing(op, call, cell, indices)
    terms = [Term("updates addressing it", "count", str(len(addressing)), len(addressing))]
    if not addressing:
        return Formula(call, rule, symbols, tuple(terms), (0, *cell), cell)
    last = addressing[-1]
    terms.append(Term("the one the core keeps", f"the last in row-major order of updates {addressing} (DirectML "
                                                "writes one of them, which one not guaranteed)", str(last), last))
    update = tuple(int(c) for c in np.unravel_index(last, call.input_sizes[2]))
    return Formula(call, rule, symbols, tuple(terms), (2, *update), cell)


def _one_hot_formula(op, call, cell, side, indices, rule, symbols):
    if side != "output":
        raise DescriptorError("side input: ONE_HOT's output elements come from ValuesTensor; ask about an output "
                              "element (side output)")
    cell = checked_cell(cell, call.output_sizes[0], "output index")
    axis, depth = call.attr("axis"), call.attr("depth")
    sequence = cell[:axis] + (0,) + cell[axis + 1:]
    if indices.dtype == np.uint64:  # compared whole
        value = int(indices[sequence])
        terms = [Term("i", "IndicesTensor element (UINT64: compared whole)", str(value), value)]
    else:
        terms = _index_terms("i", indices[sequence], indices.dtype, depth)
    position = terms[-1].value
    on = int(position == cell[axis])
    terms.append(Term("OnValue here", f"1 if i is the Axis coordinate {cell[axis]}, else 0", str(on), on))
    values = call.input_sizes[1]
    return Formula(call, rule, symbols, tuple(terms), tuple(int(c) for c in np.unravel_index(on, values)), cell)


# ---------------------------------------------------------------- the quiz


def _quiz_indices(quiz):
    position = quiz.call.operator.input_labels(len(quiz.call.input_sizes)).index("IndicesTensor")
    if len(quiz.values) <= position or not quiz.values[position]:
        raise DescriptorError(f"quiz: {quiz.call.op}'s questions need IndicesTensor's values")
    return _indices_of(quiz.call, quiz.values[position])


def question(op, quiz, rng, kind):
    """"feeds": which element an output element comes from; "where": for a gather, which IndicesTensor element
    chose an output element, for a scatter where an update lands, for ONE_HOT whether OnValue lands in an output
    element."""
    call, indices = quiz.call, _quiz_indices(quiz)
    if op.name == "ONE_HOT":
        return _one_hot_question(call, indices, rng, kind)
    scatter = op.name.startswith("SCATTER")
    if scatter and kind == "where":
        return _landing_question(op, call, indices, rng)
    cell = random_index(rng, call.output_sizes[0])
    found = formula(op, call, cell, "output", indices=indices)
    if kind == "where":
        index_cell, _, _ = _gather_read(op, call, cell, indices)
        mistakes = (_clamped(cell, indices.shape),)  # the output's own coordinates
        return QuestionDraft(kind, f"{op.name}: which IndicesTensor element chose output element {index_text(cell)}?",
                             tuple(int(c) for c in index_cell), mistakes, lambda: random_index(rng, indices.shape),
                             lambda answer: f"IndicesTensor {index_text(answer)}", tuple(found.lines()), cell,
                             found.source, found.destination)
    asked = f"{op.name}: which element lands in output element {index_text(cell)}?"
    if scatter:
        right = found.source
        mistakes = _scatter_mistakes(op, call, cell, indices, right)
        guess = lambda: (2, *random_index(rng, call.input_sizes[2]))  # noqa: E731
        text = _scatter_answer
        colliding = next(t.value for t in found.terms if t.name == "updates addressing it")
        if colliding > 1:
            asked = (f"{op.name}: {colliding} updates address output element {index_text(cell)}, and DirectML keeps "
                     "one of them, not guaranteed which: which one does the core keep?")
    else:
        right = found.source
        mistakes = _gather_mistakes(op, call, cell, found, right)
        guess = lambda: random_index(rng, call.input_sizes[0])  # noqa: E731
        text = _gather_answer
    return QuestionDraft(kind, asked, tuple(right), mistakes, guess, text, tuple(found.lines()), cell, found.source,
                         found.destination)


def _clamped(cell, shape):
    return tuple(min(int(c), s - 1) for c, s in zip(cell, shape))


def _gather_answer(answer):
    return f"InputTensor {index_text(answer)}" if answer else "the buffer's padding, past the tensor"


def _scatter_answer(answer):
    return f"{'UpdatesTensor' if answer[0] == 2 else 'InputTensor'} {index_text(answer[1:])}"


def _gather_mistakes(op, call, cell, found, right):
    """The index on the neighbouring axis, a negative index not counted from the end (clamped), and nothing moved."""
    shape = call.input_sizes[0]
    mistakes = [_clamped(cell[len(cell) - len(shape):] if len(cell) >= len(shape) else cell, shape)]
    axis = call.attributes.get("axis")
    if right and axis is not None:
        for other in (axis - 1, axis + 1):
            if 0 <= other < len(shape):
                swapped = list(right)
                swapped[axis], swapped[other] = right[other], right[axis]
                mistakes.append(_clamped(swapped, shape))
        raw = next(t for t in found.terms if t.name in ("i", "i0"))
        if raw.value < 0:
            as_is = list(right)
            as_is[axis] = min(-raw.value, shape[axis] - 1)
            mistakes.append(tuple(as_is))
    return tuple(tuple(int(c) for c in m) for m in mistakes if len(m) == len(shape))


def _scatter_mistakes(op, call, cell, indices, right):
    """The first of colliding updates instead of the last the core keeps, and the input's own element as if nothing
    were written."""
    mistakes = [(0, *cell)]
    addressing = _addressing(op, call, cell, indices)
    if len(addressing) > 1:
        mistakes.append((2, *(int(c) for c in np.unravel_index(addressing[0], call.input_sizes[2]))))
    return tuple(m for m in mistakes if m != tuple(right))


def _landing_question(op, call, indices, rng):
    update = random_index(rng, call.input_sizes[2])
    found = formula(op, call, update, "input", indices=indices)
    shape = call.output_sizes[0]
    mistakes = (_clamped(update, shape),)  # where the update sits in its own tensor
    return QuestionDraft("where", f"{op.name}: where does update {index_text(update)} land in the output?",
                         tuple(found.destination), mistakes, lambda: random_index(rng, shape),
                         lambda answer: f"output {index_text(answer)}" if answer else "nowhere (not in the tensor)",
                         tuple(found.lines()), update, found.source, found.destination)


def _one_hot_question(call, indices, rng, kind):
    cell = random_index(rng, call.output_sizes[0])
    found = formula(call.operator, call, cell, "output", indices=indices)
    values = call.input_sizes[1]
    on = found.terms[-1].value
    right, other = (tuple(int(c) for c in np.unravel_index(v, values)) for v in (on, 1 - on))

    def text(answer):
        return f"{'OnValue' if np.ravel_multi_index(answer, values) == 1 else 'OffValue'} (ValuesTensor " \
               f"{index_text(answer)})"

    return QuestionDraft(kind, f"ONE_HOT: OnValue or OffValue in output element {index_text(cell)}?", right,
                         (other,), lambda: other, text, tuple(found.lines()), cell, found.source, found.destination)
