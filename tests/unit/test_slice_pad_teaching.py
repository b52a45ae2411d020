"""The slice, pad and tile family taught, fixed and recognised: formulas whose arithmetic lands where the operators'
index maps put each element (hypothesis), quiz questions whose right answer is the operator's and whose wrong ones
are the mix-ups between neighbours (REFLECTION and SYMMETRIC, tile and repeat, a negative stride's start), nearest
fixes that the core then accepts, and the detective naming each operator from an input and an output alone."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops import Call, DescriptorError, QuizSettings, index_formula, quiz_questions
from ops.detective.identify import descriptor_call
from ops.operators import slice_pad
from ops.operators.slice_pad import teaching
from support.arithmetic import check_terms
from support.slice_pad_calls import calls

FAMILY = [op.name for op in slice_pad.OPERATORS]
AXIS_BY_AXIS = [op.name for op in slice_pad.OPERATORS if not op.along_axis]


def call_of(op, inputs, attrs):
    spec = ops.operator(op)
    types = spec.attrs_with_input_types(inputs, attrs)
    return Call.of(op, [a.shape for a in inputs], ops.type_name(inputs[0].dtype), **types)


def maps(op, inputs, attrs):
    """(the call, its index map: each output element's flat index in the input, -1 for none)."""
    extra = {"lengths": inputs[1]} if op == "REVERSE_SUBSEQUENCES" else {}
    [(_, flat)] = ops.operator(op).index_map([inputs[0].shape], **extra, **attrs)
    return call_of(op, inputs, attrs), flat


def given_values(op, inputs):
    return {"lengths": inputs[1]} if op == "REVERSE_SUBSEQUENCES" else {}


@settings(max_examples=150, deadline=None)
@given(calls(FAMILY), st.integers(0, 10**6))
def test_the_formula_from_an_output_cell_is_the_index_map(case, pick):
    op, inputs, attrs = case
    call, flat = maps(op, inputs, attrs)
    cell = np.unravel_index(pick % flat.size, flat.shape)
    formula = index_formula(call, cell, side="output", **given_values(op, inputs))
    check_terms(formula)
    source = flat[cell]
    if source < 0:
        assert formula.source == ()  # a constant pad's value: from no input element
    else:
        assert formula.source == tuple(int(i) for i in np.unravel_index(source, inputs[0].shape))


@settings(max_examples=150, deadline=None)
@given(calls(FAMILY), st.integers(0, 10**6))
def test_the_formula_from_an_input_cell_finds_its_first_copy_and_counts_them(case, pick):
    op, inputs, attrs = case
    call, flat = maps(op, inputs, attrs)
    shape = inputs[0].shape
    cell = tuple(int(i) for i in np.unravel_index(pick % inputs[0].size, shape))
    formula = index_formula(call, cell, side="input", **given_values(op, inputs))
    check_terms(formula)
    holding = np.argwhere(flat == np.ravel_multi_index(cell, shape))
    copies = next(t for t in formula.terms if t.name == "copies")
    assert copies.value == len(holding)
    assert formula.destination == (tuple(int(i) for i in holding[0]) if len(holding) else ())


def test_the_formula_of_a_negative_stride_starts_at_the_window_s_end():
    example = next(e for e in ops.operator("SLICE1").examples if "negative" in e.name)
    call = call_of("SLICE1", list(example.inputs), example.attrs)
    formula = index_formula(call, (0, 0, 1, 0), side="output")
    assert [str(t) for t in formula.terms if t.name in ("start_2", "i_2")] == [
        "start_2 = InputWindowOffsets[2] + InputWindowSizes[2] - 1 = 0 + 4 - 1 = 3",
        "i_2 = start_2 + InputWindowStrides[2] * o_2 = 3 + (-2) * 1 = 1"]
    assert formula.source == (0, 0, 1, 1)  # Input[{0,0,1,1}] = 6, the page's Output[0,0,1,0]


def test_the_formula_of_a_reflection_folds_back():
    call = Call.of("PADDING1", [(3,)], mode="REFLECTION", start_padding=(7,), end_padding=(8,))
    formula = index_formula(call, (0,), side="output")
    assert formula.lines()[-4:] == ["j_0 = o_0 - StartPadding[0] = 0 - 7 = -7", "p_0 = 2 * (n_0 - 1) = 2 * (3 - 1) = 4",
                                    "m_0 = j_0 % p_0 = -7 % 4 = 1", "i_0 = m_0 (< n_0 = 3) = 1"]


def test_the_formula_of_a_length_past_the_axis_reads_the_last_element():
    call = Call.of("REVERSE_SUBSEQUENCES", [(1, 4), (1, 1)], axis=1)
    formula = index_formula(call, (0, 0), side="output", lengths=np.array([[5]], np.uint32))
    assert formula.source == (0, 3)
    assert str(formula.terms[-1]) == "i = n - 1 (r >= n = 4: DirectML reads the last element) = 4 - 1 = 3"


def test_reverse_needs_its_lengths():
    call = Call.of("REVERSE_SUBSEQUENCES", [(1, 4), (1, 1)], axis=1)
    with pytest.raises(DescriptorError, match="needs the SequenceLengthsTensor's values"):
        index_formula(call, (0, 0), side="output")


# ---------------------------------------------------------------- the quiz


def quiz_of(op, inputs, attrs):
    values = ((), tuple(int(v) for v in inputs[1].ravel())) if op == "REVERSE_SUBSEQUENCES" else ()
    return QuizSettings(call_of(op, inputs, attrs), values)


@settings(max_examples=60, deadline=None)
@given(calls(FAMILY), st.integers(0, 2**31))
def test_quiz_answers_are_the_operators_and_the_choices_distinct(case, seed):
    op, inputs, attrs = case
    quiz = quiz_of(op, inputs, attrs)
    _, flat = maps(op, inputs, attrs)
    questions = quiz_questions(quiz, seed)
    assert questions == quiz_questions(quiz, seed)  # a pure function of the settings and the seed
    for q in questions:
        assert len(set(q.choices)) == len(q.choices)
        assert len(q.choices) >= 2 or len(np.unique(flat)) == 1  # one choice only when every cell holds one element
        if q.kind == "feeds":  # output cell -> the input element it holds
            source = flat[q.cell]
            expected = teaching.PADDING_VALUE if source < 0 else \
                f"InputTensor {teaching.index_text(np.unravel_index(source, inputs[0].shape))}"
            assert q.right == expected
        else:  # input element -> an output cell that holds it, and no wrong choice does
            held = np.ravel_multi_index(q.cell, inputs[0].shape)
            assert flat[q.destination] == held
            for choice in q.choices:
                if choice != q.right:
                    index = tuple(int(v) for v in choice.removeprefix("OutputTensor (").rstrip(")").split(", "))
                    assert flat[index] != held


def test_the_quiz_offers_the_other_mirror_as_the_mistake():
    x = np.arange(4, dtype=np.float32)
    quiz = QuizSettings(Call.of("PADDING1", [(4,)], mode="REFLECTION", start_padding=(3,), end_padding=(0,)))
    drafts = [ops.operator("PADDING1").question(quiz, np.random.default_rng(seed), "feeds") for seed in range(40)]
    draft = next(d for d in drafts if d.cell[0] < 3)  # an output cell in the pad
    symmetric = ops.run("PADDING1", [np.arange(4)], mode="SYMMETRIC", start_padding=(3,), end_padding=(0,))[0]
    assert (int(symmetric[draft.cell]),) in draft.mistakes
    assert x.size == 4


def test_a_tile_question_offers_a_repeat_as_the_mistake():
    quiz = QuizSettings(Call.of("TILE", [(2, 3)], repeats=(2, 2)))
    draft = ops.operator("TILE").question(quiz, np.random.default_rng(1), "feeds")
    assert tuple(o // 2 for o in draft.cell) in draft.mistakes


# ---------------------------------------------------------------- nearest fixes


FIXABLE = [
    ("SLICE1", (4, 4), {"window_offsets": (0, 2), "window_sizes": (4, 4), "window_strides": (1, 1)}),
    ("SLICE1", (4, 4), {"window_offsets": (0, 0), "window_sizes": (4, 4), "window_strides": (1, 0)}),
    ("SLICE1", (4, 4), {"window_offsets": (0,), "window_sizes": (4, 4), "window_strides": (1, 1)}),
    ("SLICE1", (4, 4), {"window_offsets": (0, 0), "window_sizes": (4, 3), "window_strides": (1, 2),
                        "output_sizes": (4, 3)}),
    ("SLICE1", (4, 4), {"window_offsets": (0, 0), "window_sizes": (4, 0), "window_strides": (1, 1)}),
    ("PADDING1", (4, 2), {"mode": "WRAP", "start_padding": (1, 0), "end_padding": (1, 0)}),
    ("PADDING1", (4, 2), {"start_padding": (1,), "end_padding": (1, 0)}),
    ("TILE", (2, 3), {"repeats": (1, 0)}),
    ("TILE", (2, 3), {"repeats": (2, 2, 2)}),
    ("REVERSE_SUBSEQUENCES", (2, 3), {"axis": 5}),
    ("UPSAMPLE_2D", (1, 1, 2, 2), {"scale_size": (0, 2)}),
    ("UPSAMPLE_2D", (1, 1, 2, 2), {"scale_size": (2, 2), "mode": "LINEAR"}),
]


def sizes_of(op, shape, attrs):
    if op == "REVERSE_SUBSEQUENCES":
        axis = attrs["axis"] if 0 <= attrs["axis"] < len(shape) else 0
        return [shape, slice_pad.lengths_shape(shape, axis)]
    return [shape]


@pytest.mark.parametrize("op, shape, attrs", FIXABLE, ids=lambda v: v if isinstance(v, str) else None)
def test_every_fix_offered_is_accepted(op, shape, attrs):
    fixes = ops.operator(op).fixes([shape], attrs)
    assert fixes.reason and fixes.options
    with pytest.raises(DescriptorError):
        Call.of(op, sizes_of(op, shape, attrs), "FLOAT32", **attrs)
    for fix in fixes.options:
        fixed = {**attrs, **fix.as_dict}
        Call.of(op, sizes_of(op, shape, fixed), "FLOAT32", **fixed)


@pytest.mark.parametrize("op", FAMILY)
def test_valid_settings_need_no_fix(op):
    example = next(iter(ops.operator(op).examples), None)
    attrs = example.attrs if example else {"scale_size": (2, 3)}
    shape = example.inputs[0].shape if example else (1, 1, 2, 2)
    assert ops.operator(op).fixes([shape], attrs).reason is None


# ---------------------------------------------------------------- the detective names them


@settings(max_examples=120, deadline=None)
@given(calls(AXIS_BY_AXIS))
def test_the_detective_names_a_descriptor_that_reproduces_y(case):
    op, inputs, attrs = case
    x = ops.origin_coded_input(inputs[0].shape, "FLOAT32")  # a type every operator of the family takes
    if attrs.get("mode") == "CONSTANT":
        attrs = {**attrs, "padding_value": -1}  # a value x does not hold
    [y] = ops.run(op, [x], **attrs)
    report = ops.identify(x, y)
    if np.array_equal(report.source_index.ravel(), np.arange(x.size)) and y.shape == x.shape:
        assert not [m for m in report.matches if m["operator"] in FAMILY]  # y = x: nothing worth naming
        return
    named = [m for m in report.matches if m["operator"] in AXIS_BY_AXIS]
    assert named, report.note
    for descriptor in named:
        call = descriptor_call(descriptor, [x.shape], [y.shape], ops.type_name(x.dtype))
        assert np.array_equal(call.run([x])[0], y, equal_nan=True)
    assert any(m["operator"] == op for m in named), report.note


def test_the_detective_names_a_reversal_a_negative_stride():
    x = ops.origin_coded_input((2, 5), "FLOAT32")
    report = ops.identify(x, x[:, ::-1].copy())
    assert report.matches == [{"operator": "SLICE1", "DimensionCount": 2, "InputWindowOffsets": (0, 0),
                               "InputWindowSizes": (2, 5), "InputWindowStrides": (1, -1)}]
