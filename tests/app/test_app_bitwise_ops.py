"""The Bitwise page's Operation setting, every operator of DirectML's bitwise family run through app.py as a user
sees it (Streamlit AppTest): grids, output, formula, quiz, steps, refusals and old links."""

import numpy as np
import pytest

import ops
from ops import Call, QuizSettings, quiz_questions
from ops.operators import bitwise
from support.app import chart_figures, click_button, error_texts, run_through_app, shown
from support.figures import bits_of
from support.links import AWAY
from support.specs import bitwise_spec
from viz.bitwise_fig import bit_matrix

PAGE = "app_pages/bitwise/page.py"
FAMILY = [op.name for op in bitwise.OPERATORS]  # from the registry: a new member is tested without listing it here
A_TEXT, B_TEXT = "0x8B 0x01 0xF0 0xFF", "1 8 33 3"  # B: shift amounts below, at and past UINT8's width
A = np.array([0x8B, 0x01, 0xF0, 0xFF], np.uint8)
B = np.array([1, 8, 33, 3], np.uint8)
TYPED = dict(dtype="UINT8", pattern="custom", values=A_TEXT, or_sizes="4", or_b_source="typed", or_b_text=B_TEXT)


def typed(name, **more):
    return run_through_app(PAGE, query={**TYPED, "bw_op": name, **more})


def inputs(name):
    return [A, B][:ops.OPERATORS[name].arity[0]]


def attrs_of(name):
    """The page's default attributes of the operator (BIT_COUNT's output type: UINT32)."""
    return {a.name: a.default for a in ops.OPERATORS[name].attributes}


def figure(at):
    (drawn,) = chart_figures(at)
    return drawn


def grid(drawn, name):
    return bits_of(drawn["data"][drawn["layout"]["meta"]["grids"].index(name)]["z"])


def titles(drawn):
    return [a["text"] for a in drawn["layout"]["annotations"] if a.get("yref") == "paper"]


def hex_of(array):
    width = array.dtype.itemsize
    return [f"0x{int(v):0{width * 2}X}" for v in array.view(f"u{width}")]


def assert_clean(at):
    assert not at.exception
    assert not error_texts(at), error_texts(at)


@pytest.mark.parametrize("name", FAMILY)
def test_every_operation_draws_its_grids_and_its_output_is_ops_run(name):
    at = typed(name)
    assert_clean(at)
    assert at.selectbox(key="bw_op").value == name
    expected = ops.run(name, inputs(name), **attrs_of(name))[0]
    # The plain loop of its API page agrees with the core the page runs.
    assert np.array_equal(expected, bitwise_spec(name, inputs(name), expected.dtype))
    table = at.dataframe[0].value
    assert table["Output bits"].tolist() == hex_of(expected)
    drawn = figure(at)
    names = ["A", "B", "Output"] if len(inputs(name)) == 2 else ["A", "Output"]
    assert drawn["layout"]["meta"]["grids"] == names
    assert ("B bits" in table.columns) == ("B" in names)
    assert titles(drawn)[-1].endswith("= " + ops.OPERATORS[name].lesson.expression(names[:-1]))
    assert np.array_equal(grid(drawn, "Output"), bit_matrix(expected))
    assert np.array_equal(grid(drawn, "A"), bit_matrix(A))
    assert any("Valid at DML_FEATURE_LEVEL" in s.value for s in at.success)
    assert name in at.caption[0].value or any(name in c.value for c in at.caption)


@pytest.mark.parametrize("name", FAMILY)
def test_every_operation_exports_its_own_descriptor(name):
    at = typed(name, or_panels_tab="Export")
    assert_clean(at)
    code = "\n".join(c.value for c in at.code)
    assert f"DML_{name}_OPERATOR_DESC" in code


@pytest.mark.parametrize("name", FAMILY)
def test_every_operation_has_its_quiz(name):
    at = typed(name, quiz="1")
    assert_clean(at)
    op = ops.OPERATORS[name]
    values = tuple(tuple(int(v) for v in x) for x in inputs(name))
    expected = quiz_questions(QuizSettings(Call.of(name, [(4,)] * op.arity[0], "UINT8", **attrs_of(name)), values),
                              0)[0]
    prompt = next(m.value for m in at.markdown if m.value.startswith("**Question "))
    assert expected.prompt in prompt
    (asked,) = chart_figures(at)  # the inputs alone: no Output grid
    assert len(asked["data"]) == op.arity[0] and not [t for t in asked["data"] if "Output" in t.get("name", "")]
    next(r for r in at.radio if r.label == "Your answer").set_value(expected.answer).run()
    click_button(at, "Check")
    assert [s.value for s in at.success if s.value.startswith("Right:")]


@pytest.mark.parametrize("name", FAMILY)
def test_every_operation_steps_through_the_bits_with_its_lesson(name):
    at = typed(name, steps="1", step="4")  # bit 3 of element 0
    assert_clean(at)
    lesson = ops.OPERATORS[name].lesson
    names = ("A", "B")[:len(inputs(name))]
    worked = lesson.bit_text(tuple(int(x[0]) for x in inputs(name)), 3, 8, names)
    assert any(f"element #0, bit 3: {worked}" in shown(m.value) for m in at.markdown), worked


def test_unary_operations_hide_b_and_shifts_name_b_the_shift_amount():
    at = typed("ELEMENT_WISE_BIT_NOT")
    assert not [r for r in at.radio if r.key == "or_b_source"]
    assert not [t for t in at.text_input if t.key == "or_bcast"]
    at = typed("ELEMENT_WISE_BIT_SHIFT_RIGHT")
    assert "shift amount" in at.radio(key="or_b_source").label
    assert "shift amount" in titles(figure(at))[1]
    at = typed("ELEMENT_WISE_BIT_OR")
    assert "shift amount" not in at.radio(key="or_b_source").label


@pytest.mark.parametrize("output_type, width", [("UINT32", 32), ("UINT8", 8)])
def test_bit_count_writes_its_output_type(output_type, width):
    at = typed("ELEMENT_WISE_BIT_COUNT", bw_out_type=output_type)
    assert_clean(at)
    assert at.radio(key="bw_out_type").value == output_type
    drawn = figure(at)
    assert grid(drawn, "Output").shape == (4, width)
    assert np.array_equal(grid(drawn, "Output"), bit_matrix(np.array([4, 1, 4, 8], dtype=f"u{width // 8}")))
    assert output_type.lower() in titles(drawn)[-1]
    assert at.dataframe[0].value["Output value"].tolist() == ["4", "1", "4", "8"]


def test_bit_count_output_type_switches_on_the_page():
    at = typed("ELEMENT_WISE_BIT_COUNT")
    assert grid(figure(at), "Output").shape[1] == 32
    at.radio(key="bw_out_type").set_value("UINT8").run()
    assert_clean(at)
    assert grid(figure(at), "Output").shape[1] == 8
    assert "Output UINT8" in at.caption[0].value or any("Output UINT8" in c.value for c in at.caption)


def test_presets_show_a_shift_past_the_width_and_a_count():
    at = run_through_app(PAGE)
    click_button(at, "uint8 0x8B << 7, 8, 32, 33")
    assert_clean(at)
    assert at.selectbox(key="bw_op").value == "ELEMENT_WISE_BIT_SHIFT_LEFT"
    # DirectML shifts 8-bit elements in 32 bits by the amount's low 5 bits (docs/directml.md).
    assert at.dataframe[0].value["Output bits"].tolist() == ["0x80", "0x00", "0x8B", "0x16"]
    click_button(at, "popcount of uint32")
    assert_clean(at)
    assert at.dataframe[0].value["Output bits"].tolist() == ["0x00", "0x01", "0x08", "0x02", "0x20"]
    click_button(at, "float32 1.0 | 2.0")  # an OR preset brings OR back
    assert_clean(at)
    assert at.selectbox(key="bw_op").value == "ELEMENT_WISE_BIT_OR"
    assert at.dataframe[0].value["Output class"].tolist() == ["+inf"]


def test_a_bad_operation_in_a_link_is_named_and_or_is_shown():
    at = run_through_app(PAGE, query={"bw_op": "ELEMENT_WISE_BIT_NAND"})
    assert not at.exception
    assert any("bw_op" in w.value for w in at.warning), [w.value for w in at.warning]
    assert at.selectbox(key="bw_op").value == "ELEMENT_WISE_BIT_OR"
    assert titles(figure(at))[-1].endswith("= A | B")


def test_a_bad_output_type_in_a_link_is_named():
    at = run_through_app(PAGE, query={"bw_op": "ELEMENT_WISE_BIT_COUNT", "bw_out_type": "FLOAT32"})
    assert not at.exception
    assert any("bw_out_type" in w.value for w in at.warning), [w.value for w in at.warning]
    assert grid(figure(at), "Output").shape[1] == 32


@pytest.mark.parametrize("name", [n for n in FAMILY if "FLOAT32" not in ops.OPERATORS[n].supported_types])
def test_a_type_the_operation_refuses_names_the_field_beside_the_greyed_figure(name):
    at = run_through_app(PAGE, query={"dtype": "FLOAT32"})
    assert_clean(at)
    at.selectbox(key="bw_op").set_value(name).run()
    assert not at.exception
    errors = error_texts(at)
    assert any("ATensor DataType FLOAT32" in e for e in errors), errors
    assert [node for node in chart_figures(at)]  # the last valid figure, greyed
    click_button(at, "DataType UINT32")  # the Fix: the operation's type of the same width
    assert_clean(at)
    assert at.selectbox(key="bw_op").value == name
    assert titles(figure(at))[-1].endswith("= " + ops.OPERATORS[name].lesson.expression(("A", "B")))


@pytest.mark.parametrize("link", [{}, {k: v for k, v in AWAY["bitwise_or"].items() if k != "bw_op"}],
                         ids=["default", "away"])
def test_old_links_open_the_same_view(link):
    """A link made before the Operation setting (no bw_op) opens OR, exactly as one naming OR does."""
    old = run_through_app(PAGE, **link)
    assert_clean(old)
    assert old.selectbox(key="bw_op").value == "ELEMENT_WISE_BIT_OR"
    assert "bw_op" not in old.query_params  # the default stays out of the link
    explicit = run_through_app(PAGE, **link, bw_op="ELEMENT_WISE_BIT_OR")
    assert figure(old) == figure(explicit)
    assert titles(figure(old))[-1].endswith("= A | B")


def test_the_title_names_the_operation_as_soon_as_it_is_chosen():
    at = run_through_app(PAGE)
    assert at.title[0].value == "Bitwise OR"  # as before the Operation setting
    at.selectbox(key="bw_op").set_value("ELEMENT_WISE_BIT_SHIFT_LEFT").run()
    assert at.title[0].value == "Bitwise SHIFT LEFT"
    assert at.query_params["bw_op"] in ("ELEMENT_WISE_BIT_SHIFT_LEFT", ["ELEMENT_WISE_BIT_SHIFT_LEFT"])
    assert run_through_app(PAGE, query={"bw_op": "ELEMENT_WISE_BIT_COUNT"}).title[0].value == "Bitwise COUNT"


@pytest.mark.parametrize("name, caption", [
    ("ELEMENT_WISE_BIT_NOT", "~A 1 = 0"),  # A[0] = 0x8B
    ("ELEMENT_WISE_BIT_SHIFT_LEFT", "B = 1 shifts by e = 1: Output bit 7 = A bit 6 = 0"),
])
def test_a_pick_is_worked_out_by_the_operation_and_outlined_in_its_grids(name, caption):
    at = typed(name, or_pick="0,7")
    assert_clean(at)
    assert [shown(c.value) for c in at.caption if c.value.startswith("Picked")] == [
        f"Picked: element #0, bit 7 (value): {caption}"]
    picked = {s["name"] for s in figure(at)["layout"].get("shapes", []) if s.get("name", "").startswith("pick-")}
    assert picked == {f"pick-{g}" for g in figure(at)["layout"]["meta"]["grids"]}


def test_a_descriptor_of_any_bitwise_operator_links_to_the_page_showing_it():
    """The detective's and the ONNX model page's links (app_pages.registry.operator_link) open the operation they
    found."""
    from app_pages.registry import BITWISE, operator_link

    page, query = operator_link(Call.of("ELEMENT_WISE_BIT_COUNT", [(2, 3)], "UINT32", output_type="UINT8"))
    assert page is BITWISE and "or_bcast" not in query
    at = run_through_app(PAGE, query=query)
    assert_clean(at)
    assert at.title[0].value == "Bitwise COUNT"
    assert grid(figure(at), "Output").shape == (6, 8)
    page, query = operator_link(Call.of("ELEMENT_WISE_BIT_OR", [(2, 3), (2, 3)], "UINT8"), [(2, 3), (1, 3)])
    assert "bw_op" not in query and query["or_bcast"] == "0"  # an OR link is what it was


@pytest.mark.parametrize("name", FAMILY)
def test_the_operands_caption_speaks_of_floats_only_where_the_operator_takes_them(name):
    """The caption said "on floats it works on the sign, exponent and mantissa fields" for the shifts too, which
    take unsigned integers only."""
    captions = " ".join(shown(c.value) for c in typed(name).caption)
    takes_floats = any(t.startswith("FLOAT") for row in ops.OPERATORS[name].support for t in row.types)
    assert ("on floats it works on the sign, exponent and mantissa" in captions) == takes_floats
    assert ("unsigned integers only" in captions) == (not takes_floats)
