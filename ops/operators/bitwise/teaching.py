"""The bitwise family taught: one bit of one element worked through, and quiz questions on whole elements.

Each operator's lesson (a Lesson below) states its rule on one element's raw bits (SPEC section 4 for OR; each API
page for the others, DirectML's observed answer for shifts past the width, core.py), the arithmetic of one output
bit and of the whole element with the element's numbers substituted, and the mistakes people make, which the quiz
offers as wrong answers: for AND, OR and XOR the other two and a neighbour (NAND, XNOR, addition); for NOT the
two's complement negation and a logical NOT; for the shifts the other direction, a rotation, and the amounts C and
numpy would use (a shift past the width emptying the element, an amount taken modulo the width); for the count the
zeros counted instead, and the highest set bit's position.

An element is given as its bit patterns in each input (unsigned ints, `values`), as DirectML reads them; B is read at
offset i_0*t_0 + ... with its descriptor's strides t (0 = broadcast).
"""

import numpy as np

from ...errors import DescriptorError
from ..lessons import Formula, QuestionDraft, Term

LOW_WORD = 0xFFFFFFFF


def _width(call):
    return call.dtype.itemsize * 8


def _hex(value, width):
    return f"0x{value:0{width // 4}X}"


def _bit(name, symbol, value, bit, width):
    return Term(f"{name} bit {bit}", f"({symbol} >> k) & 1", f"({_hex(value, width)} >> {bit}) & 1", (value >> bit) & 1)


def _bit_pattern_text(bits, dtype):
    raw = np.array([bits], dtype=f"u{dtype.itemsize}")
    value = raw.view(dtype)[0]
    return f"{_hex(bits, dtype.itemsize * 8)} ({value})"  # numpy prints the shortest text that reads back the same


class Lesson:
    """What one operator of the family teaches about an element whose inputs' bit patterns are `values`."""

    names = ("A", "B")  # the inputs as the formula names them
    word = ""  # the operation, for the question's kind
    # Output bit k comes from bit k of each input alone (AND, OR, XOR, NOT): a picture may fill it bit by bit.
    per_bit = False
    second = ""  # what the second input means, when it is not a plain operand (the shifts' amount)

    def expression(self, names):
        """The operation as a picture's title writes it, on inputs called `names` ("A | B", "~A")."""
        raise NotImplementedError

    def bit_text(self, values, bit, width, names):
        """Bit `bit` of an element whose inputs' bit patterns are `values`, worked out in a few words."""
        raise NotImplementedError

    def rule(self, op, call):
        raise NotImplementedError

    def value(self, values, width):
        """What DirectML writes for the element."""
        raise NotImplementedError

    def terms(self, values, bit, width):
        raise NotImplementedError

    def mistakes(self, values, width):
        raise NotImplementedError

    def worked_bit(self, values, width):
        """The bit the question's explanation works through."""
        raise NotImplementedError

    def pattern_lines(self, values, width):
        raise NotImplementedError

    def answer_text(self, call):
        return lambda pattern: _bit_pattern_text(pattern, call.dtype)

    def guess(self, right, width, rng):
        return lambda: right ^ (1 << int(rng.integers(0, width)))  # one bit off the right answer


class Logic(Lesson):
    """AND, OR, XOR: bit k of the output from bit k of A and bit k of B alone."""

    per_bit = True

    def __init__(self, word, symbol, function, mistakes, worked):
        self.word, self.symbol, self.function = word, symbol, function
        self._mistakes, self._worked = mistakes, worked

    def expression(self, names):
        return f"{names[0]} {self.symbol} {names[1]}"

    def bit_text(self, values, bit, width, names):
        (a, b), s = ((v >> bit) & 1 for v in values), self.symbol
        return f"{names[0]} {a} {s} {names[1]} {b} = {self.function(a, b)}"

    def rule(self, op, call):
        return (f"{op.name}: Output[i] = A[i] {self.symbol} B[i] on the raw bits, each bit k on its own; B is read at "
                "offset i_0*t_0 + ... with its descriptor's strides t (0 = broadcast)")

    def value(self, values, width):
        return self.function(*values)

    def terms(self, values, bit, width):
        (a, b), s = values, self.symbol
        a_bit, b_bit = _bit("A", "A", a, bit, width), _bit("B", "B", b, bit, width)
        return [a_bit, b_bit,
                Term(f"Output bit {bit}", f"A bit {s} B bit", f"{a_bit.value} {s} {b_bit.value}",
                     self.function(a_bit.value, b_bit.value)),
                Term("Output", f"A {s} B", f"{_hex(a, width)} {s} {_hex(b, width)}", self.function(a, b),
                     hex_width=width)]

    def mistakes(self, values, width):
        return self._mistakes(*values, (1 << width) - 1)

    def worked_bit(self, values, width):
        return (self._worked(*values) or 1).bit_length() - 1

    def pattern_lines(self, values, width):
        (a, b), s = values, self.symbol
        return [f"A     = {a:0{width}b}", f"B     = {b:0{width}b}",
                f"A {s} B = {self.function(a, b):0{width}b}  (bit 0 on the right)"]


# The bit worked through is one where the operator differs from the one it is taken for: for AND and OR the highest
# bit where A and B differ (there the result is neither A's bit nor B's alone), for XOR the highest where both are 1
# (XOR 0, OR 1); failing that, the highest bit set.
LOGIC = {
    "&": Logic("and", "&", lambda a, b: a & b, lambda a, b, mask: (a | b, a ^ b, ~(a & b) & mask),
               lambda a, b: (a ^ b) or (a & b)),
    "|": Logic("or", "|", lambda a, b: a | b, lambda a, b, mask: (a & b, a ^ b, (a + b) & mask),
               lambda a, b: (a ^ b) or (a | b)),
    "^": Logic("xor", "^", lambda a, b: a ^ b, lambda a, b, mask: (a | b, a & b, ~(a ^ b) & mask),
               lambda a, b: (a & b) or (a ^ b)),
}


class Not(Lesson):
    names = ("X",)
    word = "not"
    per_bit = True

    def expression(self, names):
        return f"~{names[0]}"

    def bit_text(self, values, bit, width, names):
        x = (values[0] >> bit) & 1
        return f"~{names[0]} {x} = {1 - x}"

    def rule(self, op, call):
        return f"{op.name}: Output[i] = ~X[i] on the raw bits (X: InputTensor), each bit k flipped"

    def value(self, values, width):
        return ((1 << width) - 1) ^ values[0]

    def terms(self, values, bit, width):
        x, mask = values[0], (1 << width) - 1
        x_bit = _bit("X", "X", x, bit, width)
        return [x_bit, Term(f"Output bit {bit}", "1 - X bit", f"1 - {x_bit.value}", 1 - x_bit.value),
                Term("Output", "~X", f"{_hex(mask, width)} - {_hex(x, width)}", mask - x, hex_width=width)]

    def mistakes(self, values, width):
        x = values[0]
        return (-x & ((1 << width) - 1), int(x == 0))  # the two's complement negation; a logical NOT

    def worked_bit(self, values, width):
        return (values[0] or 1).bit_length() - 1

    def pattern_lines(self, values, width):
        return [f"X  = {values[0]:0{width}b}", f"~X = {self.value(values, width):0{width}b}  (bit 0 on the right)"]


def shift_amount(b, width):
    """The bits DirectML shifts an element of `width` bits by for the amount `b` (core.shift_amounts, on ints)."""
    if width < 64:
        return b & 31
    s = b & LOW_WORD
    return s if s < 32 else 32 | (s & 31)


class Shift(Lesson):
    def __init__(self, left):
        self.left = left
        self.symbol = "<<" if left else ">>"
        self.word = "shift left" if left else "shift right"
        self.second = "the shift amount"

    def expression(self, names):
        return f"{names[0]} {self.symbol} {names[1]}"

    def bit_text(self, values, bit, width, names):
        a, b = values
        e = shift_amount(b, width)
        source = bit - e if self.left else bit + e
        moved = (f"{names[0]} bit {source} = {(a >> source) & 1}" if 0 <= source < width else
                 "0 (shifted in)")
        return f"{names[1]} = {b} shifts by e = {e}: Output bit {bit} = {moved}"

    def rule(self, op, call):
        if _width(call) < 64:
            how = ("by e = B & 31: the element shifts in 32 bits and keeps its own width, so e = 8..31 empties a UINT8 "
                   "and B = 32 leaves it unchanged")
        else:
            how = "by e = s if s < 32, else 32 | (s & 31), s = B & 0xFFFFFFFF: never by 64 or more"
        return (f"{op.name}: Output[i] = A[i] {self.symbol} e, a logical shift {how} (DirectML's own answer past the "
                "width, observed: docs/directml.md)")

    def _shifted(self, a, e, width):
        return ((a << e) & ((1 << width) - 1)) if self.left else a >> e

    def value(self, values, width):
        a, b = values
        return self._shifted(a, shift_amount(b, width), width)

    def terms(self, values, bit, width):
        a, b = values
        e = shift_amount(b, width)
        if width < 64:
            amounts = [Term("Shift amount e", "B & 31", f"{b} & 31", e)]
        else:
            low = b & LOW_WORD
            amounts = [Term("Amount's low word s", "B & 0xFFFFFFFF", f"{b} & 0xFFFFFFFF", low),
                       Term("Shift amount e", "s (s < 32)", str(low), e) if low < 32 else
                       Term("Shift amount e", "32 | (s & 31) (s >= 32)", f"32 | ({low} & 31)", e)]
        if not self.left:
            moved = Term(f"Output bit {bit}", "(A >> (k + e)) & 1", f"({_hex(a, width)} >> ({bit} + {e})) & 1",
                         (a >> (bit + e)) & 1)
        elif bit >= e:
            moved = Term(f"Output bit {bit}", "(A >> (k - e)) & 1", f"({_hex(a, width)} >> ({bit} - {e})) & 1",
                         (a >> (bit - e)) & 1)
        else:
            moved = Term(f"Output bit {bit}", "0 (k < e: a 0 shifted in)", "0", 0)
        mask = (1 << width) - 1
        whole = (Term("Output", "(A << e) & mask", f"({_hex(a, width)} << {e}) & {_hex(mask, width)}",
                      self.value(values, width), hex_width=width) if self.left else
                 Term("Output", "A >> e", f"{_hex(a, width)} >> {e}", self.value(values, width), hex_width=width))
        return [*amounts, moved, whole]

    def mistakes(self, values, width):
        a, b = values
        e = shift_amount(b, width)
        mask = (1 << width) - 1
        other = ((a >> e) if self.left else (a << e)) & mask
        turn = e % width
        rotated = ((a << turn) | (a >> (width - turn))) & mask if self.left else \
            ((a >> turn) | (a << (width - turn))) & mask
        past_width_empties = self._shifted(a, b, width) if b < width else 0  # numpy's and C's intuition
        modulo_width = self._shifted(a, b % width, width)  # an x86 shift of the element's own width
        return (other, rotated, past_width_empties, modulo_width)

    def worked_bit(self, values, width):
        value = self.value(values, width)
        return value.bit_length() - 1 if value else width - 1

    def pattern_lines(self, values, width):
        (a, b), s = values, self.symbol
        return [f"A      = {a:0{width}b}", f"B      = {b} -> e = {shift_amount(b, width)}",
                f"A {s} e = {self.value(values, width):0{width}b}  (bit 0 on the right)"]


SHIFTS = {"<<": Shift(left=True), ">>": Shift(left=False)}


class Count(Lesson):
    names = ("X",)
    word = "count"

    def expression(self, names):
        return f"popcount({names[0]})"

    def bit_text(self, values, bit, width, names):
        x = values[0]
        return f"{names[0]} bit {bit} = {(x >> bit) & 1}, one of the {x.bit_count()} bits set: Output = {x.bit_count()}"

    def rule(self, op, call):
        return (f"{op.name}: Output[i] = the number of bits set in X[i]'s raw bits (X: InputTensor), written as "
                f"{call.output_types[0]}")

    def value(self, values, width):
        return values[0].bit_count()

    def terms(self, values, bit, width):
        x = values[0]
        return [_bit("X", "X", x, bit, width),
                Term("Output", f"X bit {width - 1} + ... + X bit 0",
                     " + ".join(str((x >> k) & 1) for k in reversed(range(width))), x.bit_count())]

    def mistakes(self, values, width):
        x = values[0]
        return (width - x.bit_count(), x.bit_length())  # the zeros counted; the highest set bit's position

    def worked_bit(self, values, width):
        return max(values[0].bit_length() - 1, 0)

    def pattern_lines(self, values, width):
        x = values[0]
        return [f"X = {x:0{width}b}  (bit 0 on the right): {x.bit_count()} bits set"]

    def answer_text(self, call):
        return str

    def guess(self, right, width, rng):
        return lambda: int(rng.integers(0, width + 1))


NOT, COUNT = Not(), Count()


def _element_values(op, call, values):
    names = op.lesson.names
    if values is None or len(values) != len(names):
        raise DescriptorError(f"values: {op.name} needs the element's bit patterns in {' and '.join(names)}")
    width = _width(call)
    values = tuple(int(v) for v in values)
    if not all(0 <= v < 1 << width for v in values):
        raise DescriptorError(f"values: {' and '.join(names)} must be {width}-bit patterns of {call.data_type}")
    return values


def formula(op, call, cell, side, values=None, b_strides=None):
    """The Formula of bit k of element i: `cell` is (i, k), the same on both sides; `values` are the element's bit
    patterns in each input (unsigned ints); `b_strides`, when given, B's descriptor strides (binary operators)."""
    shape, width = call.input_sizes[0], _width(call)
    values = _element_values(op, call, values)
    element, bit = (int(v) for v in cell)
    count = int(np.prod(shape))
    if not 0 <= element < count:
        raise DescriptorError(f"element {element}: not in [0, {count - 1}] for Sizes {list(shape)}")
    if not 0 <= bit < width:
        raise DescriptorError(f"bit {bit}: not in [0, {width - 1}]")
    index = tuple(int(i) for i in np.unravel_index(element, shape))
    terms = op.lesson.terms(values, bit, width)
    if b_strides is not None:
        if len(values) != 2:
            raise DescriptorError(f"b_strides: {op.name} has no BTensor")
        terms.append(_b_offset_term(index, shape, b_strides))
    symbols = (("k", "bit number, 0 = least significant", bit), ("i", "element index", element))
    return Formula(call, op.lesson.rule(op, call), symbols, tuple(terms), index, index)


def _b_offset_term(index, shape, b_strides):
    strides = [int(s) for s in b_strides]
    if len(strides) != len(shape):
        raise DescriptorError(f"B Strides {strides}: need {len(shape)} values for Sizes {list(shape)}")
    general = " + ".join(f"i_{d}*t_{d}" for d in range(len(shape)))
    substituted = " + ".join(f"{i}*{t}" for i, t in zip(index, strides))
    return Term("B element read", general, substituted, sum(i * t for i, t in zip(index, strides)))


def question(op, quiz, rng, kind):
    """What the operator writes for one of the first elements, whose bit patterns in each input `quiz.values`
    holds (A's, then B's)."""
    lesson, call = op.lesson, quiz.call
    names = lesson.names
    first = quiz.values[0] if quiz.values else ()
    if len(quiz.values) != len(names) or not first or any(len(v) != len(first) for v in quiz.values):
        wanted = " and ".join(f"{n}'s" for n in names)
        raise DescriptorError(f"values: {op.name} questions need the bit patterns of {wanted} first elements")
    width = _width(call)
    element = int(rng.integers(0, len(first)))
    values = tuple(int(v[element]) for v in quiz.values)
    right = lesson.value(values, width)
    bit = lesson.worked_bit(values, width)
    found = formula(op, call, (element, bit), "input", values=values)
    shown = ", ".join(f"{n} = {_bit_pattern_text(v, call.dtype)}" for n, v in zip(names, values))
    prompt = f"{call.data_type} element {element}: {shown}. What does {op.name} write?"
    return QuestionDraft(lesson.word, prompt, right, lesson.mistakes(values, width), lesson.guess(right, width, rng),
                         lesson.answer_text(call), tuple(found.lines()) + tuple(lesson.pattern_lines(values, width)),
                         (element,), (element, bit), (element, bit))
