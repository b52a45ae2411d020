"""The descriptor workbench as a user drives it: through app.py's router, in Streamlit's AppTest."""

import copy
import json

import numpy as np
import pytest

from ops import buffer_tensor_size, load_model
from ops.descriptors.export import model_for
from support.app import chart_figures, run_through_app, shown
from support.paths import ROOT

# The picker offers the examples in DxDispatch's own syntax too, after the others, named by their folder.
EXAMPLES = (sorted(p.stem for p in (ROOT / "examples").glob("*.json"))
            + sorted(f"dxdispatch/{p.stem}" for p in (ROOT / "examples" / "dxdispatch").glob("*.json")))
SPLIT = json.loads((ROOT / "examples" / "split_axis2.json").read_text())

# SPEC sections 2 and 5: the seeds' worked examples, flattened row-major.
DCR = [0, 18, 1, 19, 2, 20, 36, 54, 37, 55, 38, 56, 3, 21, 4, 22, 5, 23, 39, 57, 40, 58, 41, 59,
       9, 27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65, 12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68]
CRD = [0, 9, 1, 10, 2, 11, 18, 27, 19, 28, 20, 29, 3, 12, 4, 13, 5, 14, 21, 30, 22, 31, 23, 32,
       36, 45, 37, 46, 38, 47, 54, 63, 55, 64, 56, 65, 39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68]
CODED = [9 * c + 3 * h + w for c in range(8) for h in range(2) for w in range(3)]
SEED_PRINTS = {
    "split_axis2": ["Resource 'out0': 1, 2, 3, 4", "Resource 'out1': 5, 6", "Resource 'out2': 7, 8, 9, 10, 11, 12"],
    "split_axis3": ["Resource 'out0': 1, 3, 5, 7, 9, 11", "Resource 'out1': 2, 4, 6, 8, 10, 12"],
    "depth_to_space1_dcr": ["Resource 'output': " + ", ".join(map(str, DCR))],
    "depth_to_space1_crd": ["Resource 'output': " + ", ".join(map(str, CRD))],
    "space_to_depth1": ["Resource 'output': " + ", ".join(map(str, CODED))],
    "join": ["Resource 'output': " + ", ".join(str(v) for v in range(1, 13))],
}


def open_workbench(query=None, session=None):
    at = run_through_app("app_pages/workbench/page.py", query, session)
    assert not at.exception, [e.message for e in at.exception]
    return at


def paste(at, text):
    at.radio(key="wb_source").set_value("Paste JSON").run()
    at.text_area(key="wb_text").input(text).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def messages(at):
    """Every text the page shows the user as a message or a report line."""
    texts = [shown(e.value) for kind in (at.error, at.warning, at.info, at.success) for e in kind]
    texts += [shown(m.value) for m in at.markdown]
    texts += [json.dumps(t.value.to_dict() if hasattr(t.value, "to_dict") else t.value, default=str)
              for t in at.dataframe]
    return "\n".join(texts)


def code_blocks(at):
    return [c.value for c in at.code]


@pytest.fixture(scope="module")
def workbench():
    return open_workbench()


def test_example_choice_is_bound_to_the_url(workbench):
    assert workbench.selectbox(key="wb_example").options == EXAMPLES
    at = open_workbench(query={"wb_example": "join"})
    assert at.selectbox(key="wb_example").value == "join"
    assert any("examples/join.json: " in shown(s.value) for s in at.success)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_bundled_example_loads_validates_and_runs(name):
    at = open_workbench(query={"wb_example": name})
    assert not at.error, [shown(e.value) for e in at.error]
    assert any(f"examples/{name}.json" in shown(s.value) and "valid at feature level 6_4" in shown(s.value)
               for s in at.success)
    # the report: one row per feature level, every level from the operator's introduction on is ok
    table = at.dataframe[0].value
    assert list(table["feature level"]) == ["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1",
                                             "5_2", "6_0", "6_1", "6_2", "6_3", "6_4"]
    assert table.iloc[-1, 1] == "ok"
    # the run: every dispatch cross-checked against ONNX Runtime, byte for byte
    checks = [shown(s.value) for s in at.success if shown(s.value).startswith("Cross-check")]
    assert checks and all("**matches**" in c for c in checks)
    # a memory map and an export
    assert chart_figures(at)
    assert any("DML_OPERATOR_DESC operatorDesc" in c for c in code_blocks(at))
    if name in SEED_PRINTS:
        printed = next(c for c in code_blocks(at) if c.startswith("Resource '"))
        assert printed.splitlines() == SEED_PRINTS[name]


def test_feature_level_table_names_the_reasons_per_level():
    bit_or = json.loads((ROOT / "examples" / "bit_or.json").read_text())
    at = open_workbench()
    paste(at, json.dumps(bit_or))
    rows = at.dataframe[0].value.set_index("feature level")["bit_or"]
    # SPEC 4: BIT_OR arrives at 3_0 with unsigned types only, floats from 4_1
    assert "introduced at feature level 3_0" in rows["2_1"]
    assert "dispatchables.bit_or.desc.ATensor.DataType" in rows["3_0"]
    assert rows["4_0"].startswith("✗") and rows["4_1"] == "ok"


def _with(path, value):
    model = copy.deepcopy(SPLIT)
    target = model
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(model)


def _without(path):
    model = copy.deepcopy(SPLIT)
    target = model
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return json.dumps(model)


INPUT = ("dispatchables", "split", "desc", "InputTensor")
BROKEN = {
    "truncated": (json.dumps(SPLIT)[:120], "line 1, column"),
    "truncated multi-line": ('{\n  "resources": {\n    "a": [1, 2\n', "line 4, column"),
    "Sizes is a string": (_with(INPUT + ("Sizes",), "1,1,6,2"), "dispatchables.split.desc.InputTensor.Sizes"),
    "DataType is a number": (_with(INPUT + ("DataType",), 7), "dispatchables.split.desc.InputTensor.DataType"),
    "Axis is a string": (_with(("dispatchables", "split", "desc", "Axis"), "2"), "dispatchables.split.desc.Axis"),
    "size 1e400": (json.dumps(SPLIT).replace("[1, 1, 6, 2]", "[1, 1, 6e400, 2]"),
                   "dispatchables.split.desc.InputTensor.Sizes[2]"),
    "value 1e400": (json.dumps(SPLIT).replace('"valueStart": 1', '"valueStart": 1e400'),
                    "resources.input.initialValues.valueStart"),
    "size 2**70": (_with(INPUT + ("Sizes",), [1, 1, 2**70, 2]), "dispatchables.split.desc.InputTensor.Sizes[2]"),
    "valueCount 2**70": (_with(("resources", "input", "initialValues", "valueCount"), 2**70),
                         "resources.input.initialValues.valueCount"),
    "product of sizes too large": (_with(INPUT + ("Sizes",), [65536, 65536, 2, 2]),
                                   "dispatchables.split.desc.InputTensor.Sizes"),
    "unknown operator": (_with(("dispatchables", "split", "type"), "DML_OPERATOR_CONVOLUTION_3D"),
                         "dispatchables.split.type"),
    "another operator's fields": (_with(("dispatchables", "split", "type"), "DML_OPERATOR_CONVOLUTION"),
                                  "dispatchables.split.desc.FilterTensor: FilterTensor: missing required field"),
    "unknown resource": (_with(("commands", 0, "bindings", "InputTensor"), "nowhere"),
                         "commands[0].bindings.InputTensor.name"),
    "unknown dispatchable": (_with(("commands", 0, "dispatchable"), "nothing"), "commands[0].dispatchable"),
    "print of unknown resource": (_with(("commands", 1, "resource"), "nothing"), "commands[1].resource"),
    "sourcePath": (_with(("resources", "input", "initialValues"), {"sourcePath": "/etc/passwd"}),
                   "resources.input.initialValues.sourcePath"),
    "duplicate dispatchable name": (
        json.dumps(SPLIT).replace('"dispatchables": {', '"dispatchables": {"split": {}, ', 1),
        "dispatchables.split: duplicate key"),
    "too deep nesting": ('{"resources": ' + "[" * 40 + "]" * 40 + "}", "nesting is deeper than"),
    "negative size": (_with(INPUT + ("Sizes",), [1, 1, -6, 2]), "dispatchables.split.desc.InputTensor.Sizes[2]"),
    "zero size": (_with(INPUT + ("Sizes",), [1, 1, 0, 2]), "dispatchables.split.desc.InputTensor.Sizes[2]"),
    "binding too small": (_with(("resources", "out2", "initialValues", "valueCount"), 2),
                          "commands[0].bindings.OutputTensors[2]"),
    "split sizes do not sum": (_with(("dispatchables", "split", "desc", "OutputTensors", 2, "Sizes"), [1, 1, 2, 2]),
                               "dispatchables.split.desc.OutputTensors"),
    "missing Sizes": (_without(INPUT + ("Sizes",)), "dispatchables.split.desc.InputTensor.Sizes"),
    "missing commands": (_without(("commands",)), "commands"),
    "non-object root": ("[1, 2, 3]", "the root must be a JSON object"),
    "string root": ('"model"', "the root must be a JSON object"),
    "NaN constant": (json.dumps(SPLIT).replace('"valueStart": 1', '"valueStart": NaN'), "NaN"),
    "empty text": ("", "the model text is empty"),
    "blank text": ("  \n ", "the model text is empty"),
    "nan value in an integer buffer": (
        _with(("resources", "input"), {"initialValuesDataType": "UINT32", "initialValues": ["nan"]}),
        "resources.input.initialValues[0]"),
}


@pytest.fixture(scope="module")
def pasted():
    return open_workbench()


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_model_gets_a_message_naming_the_path(pasted, case):
    text, expected = BROKEN[case]
    paste(pasted, text)
    shown = messages(pasted)
    assert expected in shown, shown
    assert pasted.error or pasted.warning


def test_syntax_error_points_at_line_and_column(pasted):
    paste(pasted, '{\n  "resources": {},\n  "dispatchables": {,\n}')
    assert any("line 3, column 21" in shown(e.value) for e in pasted.error)
    source, caret = next(c for c in code_blocks(pasted) if "^" in c).splitlines()
    assert source.startswith("    3 | ") and source[caret.index("^")] == ","


def test_the_round_trip_opens_the_exported_model_unchanged():
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 6, 2)
    model = model_for("split", [x], axis=2, sizes=[2, 1, 3])
    sent = copy.deepcopy(model)
    at = open_workbench(session={"workbench_model": model})
    assert json.loads(at.text_area(key="wb_text").value) == sent
    assert any("received from the operator page, unchanged" in shown(i.value) for i in at.info)
    normalized = json.dumps(load_model(sent), indent=2)
    assert normalized in code_blocks(at)
    # the hand-over is consumed: the user's edits afterwards are not overwritten
    at.text_area(key="wb_text").input("{}").run()
    assert at.text_area(key="wb_text").value == "{}"


def test_upload_loads_the_file_and_refuses_oversized_and_non_utf8(workbench):
    at = open_workbench()
    at.radio(key="wb_source").set_value("Upload a file").run()
    at.file_uploader(key="wb_upload").set_value(("m.json", json.dumps(SPLIT).encode(), "application/json")).run()
    assert any(shown(s.value).startswith("m.json: 4 resources") for s in at.success)
    at.file_uploader(key="wb_upload").set_value(("big.json", b" " * 1_000_001, "application/json")).run()
    assert any("big.json: 1,000,001 bytes exceed" in shown(e.value) for e in at.error)
    at.file_uploader(key="wb_upload").set_value(("bad.json", b'{"a": "\xff"}', "application/json")).run()
    assert any("bad.json: not UTF-8" in shown(e.value) for e in at.error)
    assert not at.exception


def test_explorer_builds_a_desc_and_shows_the_arithmetic():
    at = open_workbench()
    at.selectbox(key="wb_desc").set_value("build one here").run()
    at.selectbox(key="wb_preset").set_value("padded rows").run()
    implied = buffer_tensor_size("UINT32", [1, 1, 3, 4], [18, 18, 6, 1])
    arithmetic = next(c for c in code_blocks(at) if c.startswith("index_of_last_element"))
    assert arithmetic.splitlines()[2].endswith(f"= {implied}")
    assert at.number_input(key="wb_columns").value == 0  # 0: the desc's natural width, 6 here
    assert "(6 here)" in at.number_input(key="wb_columns").help
    at.text_input(key="wb_sizes").input("1, two").run()
    assert any("Sizes '1, two'" in shown(e.value) for e in at.error)
    at.text_input(key="wb_sizes").input("1, 1, 3, 4").run()
    at.text_input(key="wb_total").input("8").run()
    assert any("desc.TotalTensorSizeInBytes" in shown(e.value) for e in at.error)
    assert not at.exception


def test_explorer_lists_every_tensor_desc_of_the_model(workbench):
    at = open_workbench(query={"wb_example": "split_axis2"})
    options = at.selectbox(key="wb_desc").options
    assert options[1:] == ["dispatchables.split.desc.InputTensor"] + [
        f"dispatchables.split.desc.OutputTensors[{i}]" for i in range(3)]


def test_output_overlap_is_reported_as_a_conflict():
    at = open_workbench()
    at.selectbox(key="wb_desc").set_value("build one here").run()
    at.text_input(key="wb_sizes").input("2, 3").run()
    at.text_input(key="wb_strides").input("1, 1").run()
    at.radio(key="wb_role").set_value("output").run()
    assert any("both write element" in shown(e.value) for e in at.error)


IN_PLACE = {
    "resources": {
        "buf": {"initialValuesDataType": "UINT16",
                "initialValues": {"valueCount": 16, "valueStart": 1, "valueDelta": 3}},
        "mask": {"initialValuesDataType": "UINT16", "initialValues": [256]},
    },
    "dispatchables": {"or": {"type": "ELEMENT_WISE_BIT_OR", "desc": {
        "ATensor": {"DataType": "UINT16", "Sizes": [2, 4]},
        "BTensor": {"DataType": "UINT16", "Sizes": [2, 4], "Strides": [0, 0]},
        "OutputTensor": {"DataType": "UINT16", "Sizes": [2, 4]}}}},
    "commands": [
        {"type": "dispatch", "dispatchable": "or", "bindings": {
            "ATensor": {"name": "buf", "elementOffset": 8, "elementCount": 8},
            "BTensor": "mask",
            "OutputTensor": {"name": "buf", "elementOffset": 8, "elementCount": 8}}},
        {"type": "print", "resource": "buf"},
    ],
}


def test_in_place_sub_range_with_a_broadcast_operand_runs_and_cross_checks():
    at = paste(open_workbench(), json.dumps(IN_PLACE))
    # elements 8..15 of 1, 4, 7, ... OR 256 (SPEC 4: in place on a bound sub-range; 0 strides broadcast B)
    second_half = [(1 + 3 * i) | 256 for i in range(8, 16)]
    first_half = [1 + 3 * i for i in range(8)]
    printed = next(c for c in code_blocks(at) if c.startswith("Resource 'buf'"))
    assert printed == "Resource 'buf': " + ", ".join(map(str, first_half + second_half))
    assert any(shown(s.value).startswith("Cross-check") and "**matches**" in shown(s.value) for s in at.success)
    at.selectbox(key="wb_desc").set_value("dispatchables.or.desc.BTensor").run()
    arithmetic = next(c for c in code_blocks(at) if c.startswith("index_of_last_element"))
    assert "(2-1)*0 + (4-1)*0 = 0" in arithmetic and arithmetic.splitlines()[2].endswith("= 4")
    assert not at.exception


def test_open_in_workbench_from_an_operator_page():
    at = run_through_app("app_pages/depth_space/page.py", ds_DEPTH_COLUMN_ROW_tab="Export")
    button = next(b for b in at.button if str(b.key).endswith("_workbench"))
    button.click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert any("received from the operator page" in shown(i.value) for i in at.info)
    handed = json.loads(at.text_area(key="wb_text").value)
    assert handed["dispatchables"]["depth_to_space1"]["type"] == "DML_OPERATOR_DEPTH_TO_SPACE1"
    assert any(shown(s.value).startswith("Cross-check") and "**matches**" in shown(s.value) for s in at.success)
