"""ELEMENT_WISE_BIT_OR taught: one bit of one element worked through, and quiz questions on whole elements.

The rule (SPEC section 4, restating DML_ELEMENT_WISE_BIT_OR_OPERATOR_DESC): Output[i] = A[i] | B[i] on the raw
bits, each bit k on its own; the data type only sets the width. B is read at offset i_0*t_0 + ... with its
descriptor's strides t (0 = broadcast).

The quiz's wrong choices are the mistakes people make: AND, XOR or addition instead of OR.
"""

import numpy as np

from ...errors import DescriptorError
from ..lessons import Formula, QuestionDraft, Term


def _width(call):
    return call.dtype.itemsize * 8


def formula(op, call, cell, side, values=None, b_strides=None):
    """The Formula of bit k of element i: `cell` is (i, k), the same on both sides; `values` are the element's bit
    patterns in A and B (unsigned ints); `b_strides`, when given, B's descriptor strides."""
    shape, width = call.input_sizes[0], _width(call)
    if values is None or len(values) != 2:
        raise DescriptorError(f"values: {op.name} needs the element's bit patterns in A and B")
    a, b = (int(v) for v in values)
    if not (0 <= a < 1 << width and 0 <= b < 1 << width):
        raise DescriptorError(f"values: A and B must be {width}-bit patterns of {call.data_type}")
    element, bit = (int(v) for v in cell)
    count = int(np.prod(shape))
    if not 0 <= element < count:
        raise DescriptorError(f"element {element}: not in [0, {count - 1}] for Sizes {list(shape)}")
    if not 0 <= bit < width:
        raise DescriptorError(f"bit {bit}: not in [0, {width - 1}]")
    index = tuple(int(i) for i in np.unravel_index(element, shape))
    hx = width // 4
    terms = [Term(f"A bit {bit}", "(A >> k) & 1", f"(0x{a:0{hx}X} >> {bit}) & 1", (a >> bit) & 1),
             Term(f"B bit {bit}", "(B >> k) & 1", f"(0x{b:0{hx}X} >> {bit}) & 1", (b >> bit) & 1)]
    terms.append(Term(f"Output bit {bit}", "A bit | B bit", f"{terms[0].value} | {terms[1].value}",
                      terms[0].value | terms[1].value))
    terms.append(Term("Output", "A | B", f"0x{a:0{hx}X} | 0x{b:0{hx}X}", a | b, hex_width=width))
    if b_strides is not None:
        terms.append(_b_offset_term(index, shape, b_strides))
    rule = (f"{op.name}: Output[i] = A[i] | B[i] on the raw bits, each bit k on its own; B is read at "
            "offset i_0*t_0 + ... with its descriptor's strides t (0 = broadcast)")
    symbols = (("k", "bit number, 0 = least significant", bit), ("i", "element index", element))
    return Formula(call, rule, symbols, tuple(terms), index, index)


def _b_offset_term(index, shape, b_strides):
    strides = [int(s) for s in b_strides]
    if len(strides) != len(shape):
        raise DescriptorError(f"B Strides {strides}: need {len(shape)} values for Sizes {list(shape)}")
    general = " + ".join(f"i_{d}*t_{d}" for d in range(len(shape)))
    substituted = " + ".join(f"{i}*{t}" for i, t in zip(index, strides))
    return Term("B element read", general, substituted, sum(i * t for i, t in zip(index, strides)))


def _bit_pattern_text(bits, dtype):
    raw = np.array([bits], dtype=f"u{dtype.itemsize}")
    value = raw.view(dtype)[0]
    return f"0x{bits:0{dtype.itemsize * 2}X} ({value})"  # numpy prints the shortest text that reads back the same


def question(op, quiz, rng, kind):
    """What the operator writes for one of the first elements, whose bit patterns in A and B `quiz.values`
    holds (A's, then B's)."""
    if len(quiz.values) != 2 or not quiz.values[0] or len(quiz.values[0]) != len(quiz.values[1]):
        raise DescriptorError(f"values: {op.name} questions need the bit patterns of A's and B's first elements")
    call = quiz.call
    width, dtype = _width(call), call.dtype
    mask = (1 << width) - 1
    element = int(rng.integers(0, len(quiz.values[0])))
    a, b = int(quiz.values[0][element]), int(quiz.values[1][element])
    right = a | b
    # The bit worked through is the highest one where A and B differ (there OR is neither A's nor B's bit
    # alone), else the highest one set.
    bit = ((a ^ b) or right or 1).bit_length() - 1
    found = formula(op, call, (element, bit), "input", values=(a, b))
    prompt = (f"{call.data_type} element {element}: A = {_bit_pattern_text(a, dtype)}, "
              f"B = {_bit_pattern_text(b, dtype)}. What does {op.name} write?")
    bits = [f"A     = {a:0{width}b}", f"B     = {b:0{width}b}", f"A | B = {a | b:0{width}b}  (bit 0 on the right)"]
    return QuestionDraft("or", prompt, right, (a & b, a ^ b, (a + b) & mask),
                         lambda: right ^ (1 << int(rng.integers(0, width))),  # one bit off the right answer
                         lambda pattern: _bit_pattern_text(pattern, dtype),
                         tuple(found.lines()) + tuple(bits), (element,), (element, bit), (element, bit))
