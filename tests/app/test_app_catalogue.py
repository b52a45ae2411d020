"""The Operator catalogue as a visitor uses it, through app.py's router in AppTest: every operator of DirectML's schema
listed, a search and a narrowing, an operator's fields and enums as the schema holds them, its example handed to the
workbench, hostile links; DirectML missing said, never a crash. Its one-click run on DirectML itself is in
tests/directml/test_directml_workbench.py."""

import json
import re

import pytest

import ops
from ops import OPERATORS, catalogue, load_model, schema
from ops.runtime import onnx_twins
from support.app import run_through_app, shown


def open_catalogue(**query):
    at = run_through_app("catalogue", query=query)
    assert not at.exception, [e.message for e in at.exception]
    return at


def overview(at):
    return next(t.value for t in at.dataframe if "DML_OPERATOR_TYPE" in t.value.columns)


def fields(at):
    return next(t.value for t in at.dataframe if "counted by" in t.value.columns)


@pytest.fixture(scope="module")
def default():
    return open_catalogue()


def test_every_operator_is_listed_with_its_facts(default):
    rows = overview(default)
    assert list(rows["operator"]) == list(catalogue.names()) and len(rows) == len(schema.SCHEMAS) == 174
    by_name = rows.set_index("operator")
    for name in ("GEMM", "CONVOLUTION", "JOIN", "ROI_ALIGN_GRAD"):
        op = schema.schema(name)
        assert by_name.loc[name, "DML_OPERATOR_TYPE"] == op.code and by_name.loc[name, "feature level"] == op.level
        assert by_name.loc[name, "core models it"] == (name in OPERATORS)
        assert (by_name.loc[name, "ONNX twin"] == "none") == (onnx_twins.twin(name) is None)
    assert int(rows["core models it"].sum()) == len(OPERATORS)
    assert int((rows["ONNX twin"] != "none").sum()) == sum(onnx_twins.twin(n) is not None for n in schema.SCHEMAS)


def test_the_default_operator_shows_its_fields_enums_and_example(default):
    assert default.selectbox(key="cat_op").value == "GEMM"
    gemm = schema.schema("GEMM")
    shown_fields = fields(default)
    assert list(shown_fields["field"]) == [f.name for f in gemm.fields]
    assert list(shown_fields["optional"]) == [f.optional for f in gemm.fields]
    assert list(shown_fields.set_index("field").loc[["ATensor", "OutputTensor", "Alpha"], "kind"]) == [
        "input tensor", "output tensor", "attribute"]
    assert shown_fields.set_index("field").loc["TransA", "enum"] == "DML_MATRIX_TRANSFORM"
    members = [t.value for t in default.dataframe if "member" in t.value.columns]
    assert [list(m["member"]) for m in members] == [["DML_MATRIX_TRANSFORM_NONE", "DML_MATRIX_TRANSFORM_TRANSPOSE"]]
    assert list(members[0]["value"]) == [0, 1]
    facts = "\n".join(shown(m.value) for m in default.markdown)
    assert "DML_GEMM_OPERATOR_DESC" in facts and "feature level **1_0**" in facts
    assert "the core does not model it" in facts and "accumulated" in facts
    example = json.loads(next(c.value for c in default.code if c.language == "json"))
    assert example == catalogue.example("GEMM").model()
    load_model(example)  # a valid DxDispatch model


def test_a_search_narrows_the_list_and_the_choice():
    at = open_catalogue(cat_q="convolution")
    names = list(overview(at)["operator"])
    assert names == ["CONVOLUTION", "CONVOLUTION_INTEGER", "QUANTIZED_LINEAR_CONVOLUTION"]
    assert at.selectbox(key="cat_op").options == [f"DML_OPERATOR_{n}" for n in names]
    assert at.selectbox(key="cat_op").value == "CONVOLUTION"
    # a field's name finds its operators, the prefix and the case do not matter
    at.text_input(key="cat_q").input("dml_operator_FusedActivation").run()
    assert not at.exception
    found = set(overview(at)["operator"])
    assert found == {n for n, op in schema.SCHEMAS.items() if any(f.name == "FusedActivation" for f in op.fields)}
    at.text_input(key="cat_q").input("").run()
    at.radio(key="cat_show").set_value("core").run()
    assert set(overview(at)["operator"]) == set(OPERATORS)
    at.radio(key="cat_show").set_value("directml").run()
    assert not set(overview(at)["operator"]) & set(OPERATORS) and len(overview(at)) == 174 - len(OPERATORS)
    at.radio(key="cat_show").set_value("twin").run()
    assert all(onnx_twins.twin(n) is not None for n in overview(at)["operator"])
    assert at.query_params["cat_show"] == "twin"


def test_an_operator_chosen_by_link_shows_its_enums():
    at = open_catalogue(cat_op="CONVOLUTION")
    members = [list(t.value["member"]) for t in at.dataframe if "member" in t.value.columns]
    assert members == [["DML_CONVOLUTION_MODE_CONVOLUTION", "DML_CONVOLUTION_MODE_CROSS_CORRELATION"],
                       ["DML_CONVOLUTION_DIRECTION_FORWARD", "DML_CONVOLUTION_DIRECTION_BACKWARD"]]
    assert list(fields(at)["counted by"])[list(fields(at)["field"]).index("Strides")] == "DimensionCount"


def test_nothing_found_is_said():
    at = open_catalogue(cat_q="no such operator")
    assert any("No operator matches" in shown(i.value) for i in at.info)
    assert not [t for t in at.dataframe]


CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+\1", re.S)
HOSTILE = {
    "an operator that is not one": ({"cat_op": "<script>alert(1)</script>"}, "cat_op"),
    "an operator outside the search": ({"cat_q": "gemm", "cat_op": "CONVOLUTION"}, "cat_op"),
    "a search too long": ({"cat_q": "A" * 100_000}, "cat_q"),
    "a narrowing that is not one": ({"cat_show": "](javascript:alert(1))"}, "cat_show"),
    "a search of Markdown": ({"cat_q": "**[x](https://example.com)**"}, None),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_links_fall_back_with_a_note(case):
    query, named = HOSTILE[case]
    at = open_catalogue(**query)
    notes = [shown(w.value) for w in at.warning]
    if named:
        assert any(named in n for n in notes), notes
    # Nothing from the link is live Markdown: outside inert code spans, no link or tag drawn from it, anywhere.
    page = CODE_SPAN.sub("", "\n".join(m.value for kind in (at.markdown, at.caption, at.info, at.warning)
                                       for m in kind))
    assert "](https://example.com)" not in page and "<script>" not in page


def test_open_in_the_workbench_hands_the_example_over(default):
    at = open_catalogue(cat_op="CONVOLUTION")
    at.button(key="cat_open").click().run()
    assert not at.exception, at.exception
    assert json.loads(at.session_state["wb_text"]) == catalogue.example("CONVOLUTION").model()
    assert "workbench" in at.title[0].value.lower()


def test_directml_missing_is_said_not_a_crash(monkeypatch):
    unavailable = ops.DirectMLStatus(False, "libdirectml.so is not set up here (test)")
    monkeypatch.setattr(ops, "directml_status", lambda: unavailable)
    at = open_catalogue(cat_op="JOIN")
    assert any("DirectML cannot run it here: libdirectml.so is not set up here (test)" in shown(i.value)
               for i in at.info)
    assert at.button(key="cat_run").disabled
