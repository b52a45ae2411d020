"""ops.teaching: the index formulas and quiz questions, which each operator writes, hold against the operators
themselves.

The formulas' substituted arithmetic is evaluated (integers only, through the ast) and compared with where the
operator actually puts the element, found by running the operator on a tensor of flat indices.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops import Call, DescriptorError, QuizSettings, index_formula, quiz_questions
from ops.operators.bitwise import bit_or
from ops.operators.depth_space import ORDERS
from ops.operators.index_maps import depth_to_space_map, join_map, space_to_depth_map, split_map
from support.arithmetic import check_terms


@st.composite
def depth_space_case(draw):
    bs = draw(st.integers(1, 3))
    c_space = draw(st.integers(1, 3))
    n, h, w = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    op = draw(st.sampled_from(["DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"]))
    shape = (n, c_space * bs * bs, h, w) if op == "DEPTH_TO_SPACE1" else (n, c_space, h * bs, w * bs)
    order = draw(st.sampled_from(ORDERS))
    return op, order, bs, shape, draw(st.integers(0, 10**6))


def depth_space_map(op, shape, bs, order):
    return (depth_to_space_map if op == "DEPTH_TO_SPACE1" else space_to_depth_map)(shape, bs, order)


def depth_space_call(op, order, bs, shape):
    return Call.of(op, [shape], block_size=bs, order=order)


@settings(max_examples=60, deadline=None)
@given(depth_space_case())
def test_depth_space_formula_is_the_operators_move(case):
    op, order, bs, shape, pick = case
    out_map = depth_space_map(op, shape, bs, order)
    # From an input cell: the formula's destination holds that input's flat index.
    source = np.unravel_index(pick % int(np.prod(shape)), shape)
    call = depth_space_call(op, order, bs, shape)
    formula = index_formula(call, source)
    check_terms(formula)
    assert formula.source == tuple(int(i) for i in source)
    assert out_map[formula.destination] == np.ravel_multi_index(source, shape)
    # From an output cell: the formula's source is the input the operator copied there.
    cell = np.unravel_index(pick % out_map.size, out_map.shape)
    back = index_formula(call, cell, side="output")
    check_terms(back)
    assert np.ravel_multi_index(back.source, shape) == out_map[cell]
    assert back.destination == tuple(int(i) for i in cell)


def test_seed_example_formula_text_matches_spec():
    """SPEC section 2: under DEPTH_COLUMN_ROW, input channel = (bh*bs + bw)*C' + c'; the seed's input element
    (0, 5, 1, 2) (value 9*5 + 3 + 2 = 50) lands at output (0, 1, 3, 4), where the seed's output holds 50."""
    formula = index_formula(depth_space_call("DEPTH_TO_SPACE1", "DEPTH_COLUMN_ROW", 2, (1, 8, 2, 3)), (0, 5, 1, 2))
    assert "input channel c = (bh*bs + bw)*C' + c' = (1*2 + 0)*2 + 1 = 5" in formula.lines()
    assert formula.destination == (0, 1, 3, 4)
    crd = index_formula(depth_space_call("DEPTH_TO_SPACE1", "CRD", 2, (1, 8, 2, 3)), (0, 5, 1, 2))
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
    split_maps = split_map(whole, axis, sizes)
    cell = np.unravel_index(pick % int(np.prod(whole)), whole)
    split = Call.of("SPLIT", [whole], axis=axis, sizes=sizes)
    formula = index_formula(split, cell)
    check_terms(formula)
    k, *index = formula.destination
    assert split_maps[k][tuple(index)] == np.ravel_multi_index(cell, whole)
    back = index_formula(split, formula.destination, side="output")
    assert back.source == tuple(int(i) for i in cell)
    which, flat = join_map(parts, axis)
    join = Call.of("JOIN", parts, axis=axis)
    joined = index_formula(join, formula.destination)
    check_terms(joined)
    assert joined.destination == tuple(int(i) for i in cell)
    assert (which[cell], flat[cell]) == (k, np.ravel_multi_index(index, parts[k]))
    assert index_formula(join, cell, side="output").source == formula.destination


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
    out = bit_or(a, np.ascontiguousarray(b))
    element, bit = data.draw(st.integers(0, count - 1)), data.draw(st.integers(0, width - 1))
    index = np.unravel_index(element, sizes)
    packed = [int(np.prod(stored[d + 1:])) for d in range(len(sizes))]
    strides = [0 if d in broadcast else packed[d] for d in range(len(sizes))]
    a_bits, b_bits = (int(x[index].view(unsigned)) for x in (a, b))
    call = Call.of("ELEMENT_WISE_BIT_OR", [sizes, sizes], data_type)
    formula = index_formula(call, (element, bit), values=(a_bits, b_bits), b_strides=strides)
    check_terms(formula)
    terms = {t.name: t for t in formula.terms}
    out_bits = int(out[index].view(unsigned))
    assert terms["Output"].value == out_bits
    assert terms[f"Output bit {bit}"].value == (out_bits >> bit) & 1
    assert b_stored.ravel()[terms["B element read"].value].view(unsigned) == b[index].view(unsigned)


@pytest.mark.parametrize("call, field", [
    (lambda: index_formula(depth_space_call("DEPTH_TO_SPACE1", "DCR", 2, (1, 6, 2, 2)), (0, 0, 0, 0)), "BlockSize"),
    (lambda: index_formula(depth_space_call("DEPTH_TO_SPACE1", "DCR", 2, (1, 8, 2, 2)), (0, 8, 0, 0)), "input index"),
    (lambda: index_formula(depth_space_call("DEPTH_TO_SPACE1", "sideways", 2, (1, 8, 2, 2)), (0, 0, 0, 0)), "Order"),
    (lambda: index_formula(Call.of("SPLIT", [(4,)], axis=0, sizes=(1, 2)), (0,)), "= 3, but the input's size along "
                                                                                   "Axis is 4"),
    (lambda: index_formula(Call.of("JOIN", [(1,), (2,)], axis=0), (2, 0), side="input"), "tensor number 2"),
    (lambda: index_formula(Call.of("ELEMENT_WISE_BIT_OR", [(2,), (2,)], "UINT8"), (0, 8), values=(1, 2)), "bit 8"),
    (lambda: index_formula(Call.of("ELEMENT_WISE_BIT_OR", [(2,), (2,)], "UINT8"), (0, 0), values=(1, 256)),
     "8-bit patterns"),
    (lambda: index_formula(Call.of("ELEMENT_WISE_IDENTITY", [(1,)]), (0,)), "ELEMENT_WISE_IDENTITY: no index formula"),
    (lambda: index_formula(depth_space_call("DEPTH_TO_SPACE1", "DCR", 2, (1, 8, 2, 2)), (0,) * 4, side="across"),
     "side 'across'"),
])
def test_refusals_name_the_field(call, field):
    with pytest.raises(DescriptorError, match=field.replace("(", r"\(").replace("[", r"\[")):
        call()


QUIZ_SETTINGS = [
    QuizSettings(depth_space_call("DEPTH_TO_SPACE1", "DEPTH_COLUMN_ROW", 2, (1, 8, 2, 3))),
    QuizSettings(depth_space_call("DEPTH_TO_SPACE1", "COLUMN_ROW_DEPTH", 3, (2, 18, 2, 2))),
    QuizSettings(depth_space_call("SPACE_TO_DEPTH1", "COLUMN_ROW_DEPTH", 2, (1, 2, 4, 6))),
    QuizSettings(depth_space_call("SPACE_TO_DEPTH1", "DEPTH_COLUMN_ROW", 4, (1, 3, 4, 4))),
    QuizSettings(Call.of("SPLIT", [(1, 1, 6, 2)], axis=2, sizes=(2, 1, 3))),
    QuizSettings(Call.of("JOIN", [(2, 1), (2, 4)], axis=1)),
]


def quiz_id(quiz):
    return "-".join(str(v) for v in (quiz.call.op, *quiz.call.attributes.values()))


def parse_index(text):
    return tuple(int(v) for v in text[text.index("(") + 1:text.index(")")].split(","))


@pytest.mark.parametrize("quiz", QUIZ_SETTINGS, ids=quiz_id)
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_quiz_answers_are_what_the_operator_does(quiz, seed):
    questions = quiz_questions(quiz, seed)
    assert len(questions) == 5 and {q.kind for q in questions} == {"where", "feeds"}
    for q in questions:
        assert len(set(q.choices)) == len(q.choices) >= 2
        right = parse_index(q.right)
        call = quiz.call
        if call.op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
            [shape] = call.input_sizes
            out_map = depth_space_map(call.op, shape, call.attr("block_size"), call.attr("order"))
            if q.kind == "where":
                assert out_map[right] == np.ravel_multi_index(q.cell, shape)
            else:
                assert out_map[q.cell] == np.ravel_multi_index(right, shape)
        else:
            parts = call.output_sizes if call.op == "SPLIT" else call.input_sizes
            which, flat = join_map(parts, call.attr("axis"))
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
    expected = bit_or(np.array(a, dtype=unsigned).view(dtype), np.array(b, dtype=unsigned).view(dtype))
    quiz = QuizSettings(Call.of("ELEMENT_WISE_BIT_OR", [(len(a),)] * 2, data_type), (a, b))
    for q in quiz_questions(quiz, 5):
        element = q.cell[0]
        assert int(q.right.split()[0], 16) == int(expected[element].view(unsigned))
        assert f"Output = A | B = 0x{a[element]:0{dtype.itemsize * 2}X} | 0x{b[element]:0{dtype.itemsize * 2}X}" \
            in " ".join(q.explanation)
        assert len(set(q.choices)) == 4


def test_quiz_refuses_invalid_settings():
    with pytest.raises(DescriptorError, match="BlockSize 3"):
        quiz_questions(QuizSettings(depth_space_call("DEPTH_TO_SPACE1", "DCR", 3, (1, 8, 2, 3))), 0)
    with pytest.raises(DescriptorError, match="values: ELEMENT_WISE_BIT_OR questions need"):
        quiz_questions(QuizSettings(Call.of("ELEMENT_WISE_BIT_OR", [(2,), (2,)], "UINT8")), 0)
    with pytest.raises(DescriptorError, match="ELEMENT_WISE_IDENTITY: no questions"):
        quiz_questions(QuizSettings(Call.of("ELEMENT_WISE_IDENTITY", [(2,)])), 0)


def test_or_explanation_spells_the_bits_and_works_the_bit_where_a_and_b_differ():
    quiz = QuizSettings(Call.of("ELEMENT_WISE_BIT_OR", [(1,), (1,)], "UINT8"), ((0b0101_0011,), (0b0110_0001,)))
    question = quiz_questions(quiz, 0)[0]
    assert "A     = 01010011" in question.explanation and "B     = 01100001" in question.explanation
    assert "A | B = 01110011  (bit 0 on the right)" in question.explanation
    # Bits 6..0 of A ^ B = 0b0011_0010: the highest difference is bit 5 (A 0, B 1).
    assert "Output bit 5 = A bit | B bit = 0 | 1 = 1" in question.explanation


@pytest.mark.parametrize("quiz", QUIZ_SETTINGS, ids=quiz_id)
def test_question_names_the_answer_on_both_sides(quiz):
    """source/destination (what the page outlines when it reveals) are the asked cell and the right answer."""
    for q in quiz_questions(quiz, 2):
        given, answer = (q.source, q.destination) if q.kind == "where" else (q.destination, q.source)
        assert tuple(given) == tuple(q.cell)
        assert tuple(answer) == parse_index(q.right) or tuple(answer[1:]) == parse_index(q.right)


# ---------------------------------------------------------------- the bitwise family

BITWISE = [name for name in ops.OPERATORS if name.startswith("ELEMENT_WISE_BIT_")]


def bitwise_attrs(spec, draw):
    return {"output_type": draw(st.sampled_from(spec.output_choices))} if spec.attributes else {}


def element_arrays(values, dtype):
    return [np.array([v], dtype=f"u{dtype.itemsize}").view(dtype) for v in values]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BITWISE), st.data())
def test_every_bitwise_formula_is_the_operators_bits(name, data):
    spec = ops.OPERATORS[name]
    data_type = data.draw(st.sampled_from(spec.supported_types))
    dtype = ops.numpy_dtype(data_type)
    width = dtype.itemsize * 8
    values = tuple(data.draw(st.integers(0, (1 << width) - 1)) for _ in range(spec.arity[0]))
    attrs = bitwise_attrs(spec, data.draw)
    bit = data.draw(st.integers(0, width - 1))
    formula = index_formula(Call.of(name, [(1,)] * spec.arity[0], data_type, **attrs), (0, bit), values=values)
    check_terms(formula)
    (out,) = ops.run(name, element_arrays(values, dtype), **attrs)
    written = int(out.view(f"u{out.dtype.itemsize}")[0])
    terms = {t.name: t for t in formula.terms}
    assert terms["Output"].value == written
    if f"Output bit {bit}" in terms:
        assert terms[f"Output bit {bit}"].value == (written >> bit) & 1
    else:  # the count works through one input bit
        assert terms[f"X bit {bit}"].value == (values[0] >> bit) & 1


@pytest.mark.parametrize("name", BITWISE)
def test_bitwise_questions_answer_with_the_operator(name):
    spec = ops.OPERATORS[name]
    rng = np.random.default_rng(5)
    for data_type in spec.supported_types:
        dtype = ops.numpy_dtype(data_type)
        values = tuple(tuple(int(v) for v in rng.integers(0, 256, 3 * dtype.itemsize, dtype=np.uint8)
                             .view(f"u{dtype.itemsize}")) for _ in range(spec.arity[0]))
        attrs = {"output_type": "UINT8"} if spec.attributes else {}
        quiz = QuizSettings(Call.of(name, [(3,)] * spec.arity[0], data_type, **attrs), values)
        for q in quiz_questions(quiz, 7):
            element = q.cell[0]
            (out,) = ops.run(name, element_arrays([v[element] for v in values], dtype), **attrs)
            written = int(out.view(f"u{out.dtype.itemsize}")[0])
            assert int(q.right.split()[0], 0) == written, (data_type, q.prompt)
            assert len(set(q.choices)) == len(q.choices) >= 3 and f"What does {name} write?" in q.prompt


def test_shift_questions_offer_what_numpy_and_x86_would_answer():
    # UINT8 0x8B << 33: DirectML shifts by 33 & 31 = 1 (0x16); numpy empties the element (0x00), the other direction
    # gives 0x45, an amount taken modulo 8 gives 0x8B << 1 = 0x16 too, and a rotation by 1 gives 0x17.
    quiz = QuizSettings(Call.of("ELEMENT_WISE_BIT_SHIFT_LEFT", [(1,), (1,)], "UINT8"), ((0x8B,), (33,)))
    q = quiz_questions(quiz, 0, count=1)[0]
    assert q.right == "0x16 (22)" and {"0x00 (0)", "0x45 (69)", "0x17 (23)"} <= set(q.choices)
    assert "Shift amount e = B & 31 = 33 & 31 = 1" in q.explanation
    wide = QuizSettings(Call.of("ELEMENT_WISE_BIT_SHIFT_RIGHT", [(1,), (1,)], "UINT64"), ((1 << 63,), (64,)))
    explanation = quiz_questions(wide, 0, count=1)[0].explanation
    assert "Shift amount e = 32 | (s & 31) (s >= 32) = 32 | (64 & 31) = 32" in explanation


def test_not_and_count_questions_offer_the_usual_mistakes():
    q = quiz_questions(QuizSettings(Call.of("ELEMENT_WISE_BIT_NOT", [(1,)], "UINT8"), ((42,),)), 0, count=1)[0]
    assert q.right == "0xD5 (213)" and {"0xD6 (214)", "0x00 (0)"} <= set(q.choices)  # -42, a logical NOT
    q = quiz_questions(QuizSettings(Call.of("ELEMENT_WISE_BIT_COUNT", [(1,)], "UINT8"), ((0b0010_1100,),)), 0,
                       count=1)[0]
    assert q.right == "3" and {"5", "6"} <= set(q.choices)  # the zeros counted; the highest set bit's position
    assert "X = 00101100  (bit 0 on the right): 3 bits set" in q.explanation


def test_bitwise_refusals_name_the_inputs():
    with pytest.raises(DescriptorError, match="values: ELEMENT_WISE_BIT_NOT questions need the bit patterns of X's "
                                              "first elements"):
        quiz_questions(QuizSettings(Call.of("ELEMENT_WISE_BIT_NOT", [(2,)], "UINT8"), ((1,), (2,))), 0)
    with pytest.raises(DescriptorError, match="b_strides: ELEMENT_WISE_BIT_COUNT has no BTensor"):
        index_formula(Call.of("ELEMENT_WISE_BIT_COUNT", [(2,)], "UINT8"), (0, 0), values=(1,), b_strides=(1,))
