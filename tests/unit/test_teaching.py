"""ops.teaching: the index formulas and quiz questions hold against the operators themselves.

The formulas' substituted arithmetic is evaluated (integers only, through the ast) and compared with where the
operator actually puts the element, found by running the operator on a tensor of flat indices.
"""

import ast
import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops import DescriptorError, QuizSettings, index_formula, quiz_questions

BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
          ast.Mod: operator.mod, ast.RShift: operator.rshift, ast.BitAnd: operator.and_, ast.BitOr: operator.or_}


def evaluate(text):
    """Integer arithmetic as a reader would redo it; anything else fails the test."""
    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
            return BINARY[type(node.op)](walk(node.left), walk(node.right))
        raise AssertionError(f"not integer arithmetic: {ast.dump(node)}")
    return walk(ast.parse(text, mode="eval"))


def check_terms(formula):
    for term in formula.terms:
        assert evaluate(term.substituted) == term.value, str(term)


@st.composite
def depth_space_case(draw):
    bs = draw(st.integers(1, 3))
    c_space = draw(st.integers(1, 3))
    n, h, w = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    op = draw(st.sampled_from(["DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"]))
    shape = (n, c_space * bs * bs, h, w) if op == "DEPTH_TO_SPACE1" else (n, c_space, h * bs, w * bs)
    order = draw(st.sampled_from(ops.ORDERS))
    return op, order, bs, shape, draw(st.integers(0, 10**6))


def depth_space_map(op, shape, bs, order):
    return (ops.depth_to_space_map if op == "DEPTH_TO_SPACE1" else ops.space_to_depth_map)(shape, bs, order)


@settings(max_examples=60, deadline=None)
@given(depth_space_case())
def test_depth_space_formula_is_the_operators_move(case):
    op, order, bs, shape, pick = case
    out_map = depth_space_map(op, shape, bs, order)
    # From an input cell: the formula's destination holds that input's flat index.
    source = np.unravel_index(pick % int(np.prod(shape)), shape)
    formula = index_formula(op, order, bs, [shape], source)
    check_terms(formula)
    assert formula.source == tuple(int(i) for i in source)
    assert out_map[formula.destination] == np.ravel_multi_index(source, shape)
    # From an output cell: the formula's source is the input the operator copied there.
    cell = np.unravel_index(pick % out_map.size, out_map.shape)
    back = index_formula(op, order, bs, [shape], cell, side="output")
    check_terms(back)
    assert np.ravel_multi_index(back.source, shape) == out_map[cell]
    assert back.destination == tuple(int(i) for i in cell)


def test_seed_example_formula_text_matches_spec():
    """SPEC section 2: under DEPTH_COLUMN_ROW, input channel = (bh*bs + bw)*C' + c'; the seed's input element
    (0, 5, 1, 2) (value 9*5 + 3 + 2 = 50) lands at output (0, 1, 3, 4), where the seed's output holds 50."""
    formula = index_formula("DEPTH_TO_SPACE1", "DEPTH_COLUMN_ROW", 2, [(1, 8, 2, 3)], (0, 5, 1, 2))
    assert "input channel c = (bh*bs + bw)*C' + c' = (1*2 + 0)*2 + 1 = 5" in formula.lines()
    assert formula.destination == (0, 1, 3, 4)
    crd = index_formula("DEPTH_TO_SPACE1", "CRD", 2, [(1, 8, 2, 3)], (0, 5, 1, 2))
    assert "input channel c = c'*bs*bs + bh*bs + bw = 1*2*2 + 0*2 + 1 = 5" in crd.lines()
    assert crd.destination == (0, 1, 2, 5)


@st.composite
def split_join_case(draw):
    ndim = draw(st.integers(1, 4))
    axis = draw(st.integers(0, ndim - 1))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    whole = [draw(st.integers(1, 3)) for _ in range(ndim)]
    whole[axis] = sum(sizes)
    return tuple(whole), axis, sizes, draw(st.integers(0, 10**6))


@settings(max_examples=60, deadline=None)
@given(split_join_case())
def test_split_and_join_formulas_are_the_operators_moves(case):
    whole, axis, sizes, pick = case
    parts = [whole[:axis] + (s,) + whole[axis + 1:] for s in sizes]
    split_maps = ops.split_map(whole, axis, sizes)
    cell = np.unravel_index(pick % int(np.prod(whole)), whole)
    formula = index_formula("SPLIT", None, None, [whole, *parts], cell, axis=axis)
    check_terms(formula)
    k, *index = formula.destination
    assert split_maps[k][tuple(index)] == np.ravel_multi_index(cell, whole)
    back = index_formula("SPLIT", None, None, [whole, *parts], formula.destination, side="output", axis=axis)
    assert back.source == tuple(int(i) for i in cell)
    which, flat = ops.join_map(parts, axis)
    joined = index_formula("JOIN", None, None, parts, formula.destination, axis=axis)
    check_terms(joined)
    assert joined.destination == tuple(int(i) for i in cell)
    assert (which[cell], flat[cell]) == (k, np.ravel_multi_index(index, parts[k]))
    assert index_formula("JOIN", None, None, parts, cell, side="output", axis=axis).source == formula.destination


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["UINT8", "INT16", "FLOAT16", "FLOAT32", "UINT64", "FLOAT64"]),
       st.lists(st.integers(1, 3), min_size=1, max_size=3), st.data())
def test_bit_or_formula_is_the_operators_bits(data_type, sizes, data):
    dtype = ops.numpy_dtype(data_type)
    width = dtype.itemsize * 8
    unsigned = np.dtype(f"u{dtype.itemsize}")
    count = int(np.prod(sizes))
    broadcast = data.draw(st.sets(st.integers(0, len(sizes) - 1)))
    stored = [1 if d in broadcast else s for d, s in enumerate(sizes)]
    a = np.array(data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=count, max_size=count)),
                 dtype=unsigned).view(dtype).reshape(sizes)
    b_count = int(np.prod(stored))
    b_stored = np.array(data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=b_count, max_size=b_count)),
                        dtype=unsigned).view(dtype).reshape(stored)
    b = np.broadcast_to(b_stored, sizes)
    out = ops.bit_or(a, np.ascontiguousarray(b))
    element, bit = data.draw(st.integers(0, count - 1)), data.draw(st.integers(0, width - 1))
    index = np.unravel_index(element, sizes)
    packed = [int(np.prod(stored[d + 1:])) for d in range(len(sizes))]
    strides = [0 if d in broadcast else packed[d] for d in range(len(sizes))]
    a_bits, b_bits = (int(x[index].view(unsigned)) for x in (a, b))
    formula = index_formula("ELEMENT_WISE_BIT_OR", None, None, [sizes], (element, bit), values=(a_bits, b_bits, width),
                            b_strides=strides)
    check_terms(formula)
    terms = {t.name: t for t in formula.terms}
    out_bits = int(out[index].view(unsigned))
    assert terms["Output"].value == out_bits
    assert terms[f"Output bit {bit}"].value == (out_bits >> bit) & 1
    assert b_stored.ravel()[terms["B element read"].value].view(unsigned) == b[index].view(unsigned)


@pytest.mark.parametrize("call, field", [
    (lambda: index_formula("DEPTH_TO_SPACE1", "DCR", 2, [(1, 6, 2, 2)], (0, 0, 0, 0)), "BlockSize"),
    (lambda: index_formula("DEPTH_TO_SPACE1", "DCR", 2, [(1, 8, 2, 2)], (0, 8, 0, 0)), "input index"),
    (lambda: index_formula("DEPTH_TO_SPACE1", "sideways", 2, [(1, 8, 2, 2)], (0, 0, 0, 0)), "Order"),
    (lambda: index_formula("SPLIT", None, None, [(4,), (1,), (2,)], (0,), axis=0), "sum to 3, not 4"),
    (lambda: index_formula("JOIN", None, None, [(1,), (2,)], (2, 0), side="input", axis=0), "tensor number 2"),
    (lambda: index_formula("ELEMENT_WISE_BIT_OR", None, None, [(2,)], (0, 8), values=(1, 2, 8)), "bit 8"),
    (lambda: index_formula("CONVOLUTION", None, None, [(1,)], (0,)), "op 'CONVOLUTION'"),
])
def test_refusals_name_the_field(call, field):
    with pytest.raises(DescriptorError, match=field.replace("(", r"\(").replace("[", r"\[")):
        call()


QUIZ_SETTINGS = [
    QuizSettings("DEPTH_TO_SPACE1", (1, 8, 2, 3), "DEPTH_COLUMN_ROW", 2),
    QuizSettings("DEPTH_TO_SPACE1", (2, 18, 2, 2), "COLUMN_ROW_DEPTH", 3),
    QuizSettings("SPACE_TO_DEPTH1", (1, 2, 4, 6), "COLUMN_ROW_DEPTH", 2),
    QuizSettings("SPACE_TO_DEPTH1", (1, 3, 4, 4), "DEPTH_COLUMN_ROW", 4),
    QuizSettings("SPLIT", (1, 1, 6, 2), axis=2, part_sizes=(2, 1, 3)),
    QuizSettings("JOIN", (2, 5), axis=1, part_sizes=(1, 4)),
]


def parse_index(text):
    return tuple(int(v) for v in text[text.index("(") + 1:text.index(")")].split(","))


@pytest.mark.parametrize("quiz", QUIZ_SETTINGS, ids=lambda q: f"{q.op}-{q.order}")
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_quiz_answers_are_what_the_operator_does(quiz, seed):
    questions = quiz_questions(quiz, seed)
    assert len(questions) == 5 and {q.kind for q in questions} == {"where", "feeds"}
    for q in questions:
        assert len(set(q.choices)) == len(q.choices) >= 2
        right = parse_index(q.right)
        if quiz.op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
            out_map = depth_space_map(quiz.op, quiz.shape, quiz.block_size, quiz.order)
            if q.kind == "where":
                assert out_map[right] == np.ravel_multi_index(q.cell, quiz.shape)
            else:
                assert out_map[q.cell] == np.ravel_multi_index(right, quiz.shape)
        else:
            sizes = list(quiz.part_sizes)
            parts = [quiz.shape[:quiz.axis] + (s,) + quiz.shape[quiz.axis + 1:] for s in sizes]
            which, flat = ops.join_map(parts, quiz.axis)
            k_text = q.right[q.right.index("[") + 1:q.right.index("]")] if "s[" in q.right else None
            whole_index, (k, part_index) = ((q.cell, (int(k_text), right)) if k_text is not None
                                            else (right, (q.cell[0], q.cell[1:])))
            assert (which[whole_index], flat[whole_index]) == (k, np.ravel_multi_index(part_index, parts[k]))
        assert any(str(v) in " ".join(q.explanation) for v in right)


def test_quiz_is_reproducible_from_settings_and_seed():
    quiz = QUIZ_SETTINGS[0]
    assert quiz_questions(quiz, 3) == quiz_questions(quiz, 3)
    assert quiz_questions(quiz, 3) != quiz_questions(quiz, 4)


@pytest.mark.parametrize("data_type, a, b", [
    ("FLOAT32", (0x3F800000, 0x7F800000), (0x40000000, 0x00000001)),
    ("UINT8", (0x00, 0x0F, 0x55), (0x80, 0x80, 0xAA)),
    ("INT64", (1 << 62, 5), (3, 1 << 63)),
])
def test_or_questions_answer_with_bit_or(data_type, a, b):
    dtype = ops.numpy_dtype(data_type)
    unsigned = f"u{dtype.itemsize}"
    expected = ops.bit_or(np.array(a, dtype=unsigned).view(dtype), np.array(b, dtype=unsigned).view(dtype))
    quiz = QuizSettings("ELEMENT_WISE_BIT_OR", (len(a),), data_type=data_type, a=a, b=b)
    for q in quiz_questions(quiz, 5):
        element = q.cell[0]
        assert int(q.right.split()[0], 16) == int(expected[element].view(unsigned))
        assert f"Output = A | B = 0x{a[element]:0{dtype.itemsize * 2}X} | 0x{b[element]:0{dtype.itemsize * 2}X}" \
            in " ".join(q.explanation)
        assert len(set(q.choices)) == 4


def test_quiz_refuses_invalid_settings():
    with pytest.raises(DescriptorError, match="BlockSize 3"):
        quiz_questions(QuizSettings("DEPTH_TO_SPACE1", (1, 8, 2, 3), "DCR", 3), 0)


def test_or_explanation_spells_the_bits_and_works_the_bit_where_a_and_b_differ():
    quiz = QuizSettings("ELEMENT_WISE_BIT_OR", (1,), data_type="UINT8", a=(0b0101_0011,), b=(0b0110_0001,))
    question = quiz_questions(quiz, 0)[0]
    assert "A     = 01010011" in question.explanation and "B     = 01100001" in question.explanation
    assert "A | B = 01110011  (bit 0 on the right)" in question.explanation
    # Bits 6..0 of A ^ B = 0b0011_0010: the highest difference is bit 5 (A 0, B 1).
    assert "Output bit 5 = A bit | B bit = 0 | 1 = 1" in question.explanation


@pytest.mark.parametrize("quiz", QUIZ_SETTINGS, ids=lambda q: f"{q.op}-{q.order}")
def test_question_names_the_answer_on_both_sides(quiz):
    """source/destination (what the page outlines when it reveals) are the asked cell and the right answer."""
    for q in quiz_questions(quiz, 2):
        given, answer = (q.source, q.destination) if q.kind == "where" else (q.destination, q.source)
        assert tuple(given) == tuple(q.cell)
        assert tuple(answer) == parse_index(q.right) or tuple(answer[1:]) == parse_index(q.right)
