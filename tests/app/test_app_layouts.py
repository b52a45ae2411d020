"""The Layouts page run through app.py as a user sees it (Streamlit AppTest): defaults, every preset, hostile input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from support.app import chart_figures, click_button, error_texts, run_through_app, shown
from support.figures import changed_traces
from viz.layouts_fig import Trace

PAGE = "app_pages/layouts/page.py"


@pytest.fixture
def at():
    app = run_through_app(PAGE)
    assert not app.exception
    return app


def charts(app):
    return chart_figures(app)


def successes(app):
    return [shown(s.value) for s in app.success]


def valid_at_6_4(app):
    """The validation verdict, whatever it adds about the level DirectML runs here."""
    return any(s.startswith("Valid at DML_FEATURE_LEVEL_6_4 ") for s in successes(app))


def set_text(app, key, value):
    app.text_input(key=key).set_value(value).run()
    assert not app.exception
    return app


def copy_meta(app):
    return charts(app)[3]["layout"]["meta"]


def test_default_is_valid_drawn_and_cross_checked(at):
    assert error_texts(at) == []
    assert any(s.startswith("Valid at DML_FEATURE_LEVEL_6_4 ") for s in successes(at))
    assert any("byte-identical" in s for s in successes(at))
    maps, logical, copy = charts(at)[:2], charts(at)[2], charts(at)[3]
    assert [m["layout"]["title"]["text"].split("<br>")[0] for m in maps] == ["Input buffer", "Output buffer"]
    assert logical["layout"]["yaxis"]["autorange"] == "reversed"  # row 0 at the top
    # The default transposes a 3 x 4: the output's memory order reads the input down its columns.
    assert copy["layout"]["meta"]["steps"] == 12 and len(copy["frames"]) <= 64
    assert dict(at.query_params) == {}  # defaults stay out of the link


@pytest.mark.parametrize("name", list(ops.LAYOUT_PRESETS))
def test_each_preset_is_valid_matches_the_core_and_is_in_the_link(name):
    app = run_through_app(PAGE)
    click_button(app, name.split(" ")[0])
    assert not app.exception and error_texts(app) == []
    assert any("byte-identical" in s for s in successes(app))
    inp, out = ops.layout_preset(name, "UINT32")
    assert app.text_input(key="ly_in_sizes").value == ",".join(map(str, inp["Sizes"]))
    assert app.text_input(key="ly_out_strides").value == ",".join(map(str, out.get("Strides", [])))
    # The page's output buffer text equals the core's copy of the same origin-coded buffer (0, 1, 2, ...).
    copy = charts(app)[3]
    in_elements = int(copy["layout"]["annotations"][0]["text"].split(": ")[1].split(" ")[0])
    expected = ops.element_wise_identity(np.arange(in_elements, dtype=np.uint32), inp, out)
    drawn = [t for row in copy["data"][Trace.OUTPUT]["text"] for t in row if t != ""]
    assert drawn == [str(v) for v in expected.tolist()]
    fresh = run_through_app(PAGE, query=dict(app.query_params))
    assert fresh.text_input(key="ly_out_strides").value == app.text_input(key="ly_out_strides").value
    assert not fresh.exception and error_texts(fresh) == []


def test_nchw_to_nhwc_copy_order_reads_channels_innermost():
    app = run_through_app(PAGE)
    click_button(app, "NCHW")
    logical = charts(app)[2]
    assert logical["layout"]["title"]["text"].startswith("Logical tensor [1, 3, 2, 4]")
    copy = charts(app)[3]
    first_frame = changed_traces(copy["frames"][1])[Trace.INPUT]["z"]
    assert copy["layout"]["meta"]["done"][1] == 1
    # ONNX Runtime's report names the graph it ran (DirectML's report, beside it, names DirectML).
    assert any("Transpose" in s and "byte-identical" in s for s in successes(app))
    assert first_frame  # the input grid after one element copied


@pytest.mark.parametrize("key, value, message", [
    ("ly_out_strides", "1,1", "both write buffer element"),
    ("ly_out_strides", "-1,3", "OutputTensor Strides [-1, 3]: -1 is not allowed"),
    ("ly_out_strides", "1,3,9", "Strides has 3 entries"),
    ("ly_out_strides", "one,three", "'one' is not a whole number"),
    ("ly_out_strides", "1,100000", "this page draws buffers of up to 4,096 elements"),
    ("ly_in_sizes", "100,100", "this page draws tensors of up to 1,024 elements"),
    ("ly_in_sizes", "0,4", "a size of 0 is invalid"),
    ("ly_in_sizes", "1,1,1,1,1,1,1,1,2", "at most 8"),
    ("ly_out_sizes", "4,3", "OutputTensor.Sizes [4, 3]: must equal InputTensor.Sizes [3, 4]"),
])
def test_hostile_fields_name_the_field_and_never_raise(at, key, value, message):
    set_text(at, key, value)
    assert any(message in e for e in error_texts(at)), error_texts(at)
    assert not valid_at_6_4(at)


def test_overlapping_output_still_maps_the_conflict(at):
    set_text(at, "ly_out_strides", "1,1")
    maps = charts(at)
    assert len(maps) == 2  # the two memory maps, no copy
    legend = [d.get("name") for d in maps[1]["data"] if d["type"] == "scatter"]
    assert "written more than once: conflict" in legend


def test_total_size_rules(at):
    at.number_input(key="ly_out_total").set_value(52).run()
    assert error_texts(at) == [] and not at.exception  # larger than implied is fine: padding at the end
    at.number_input(key="ly_out_total").set_value(50).run()
    assert error_texts(at) == [] and not at.exception  # not a multiple of 4, and DirectML accepts it
    at.number_input(key="ly_out_total").set_value(47).run()
    assert any("TotalTensorSizeInBytes 47: below the 48 bytes" in e for e in error_texts(at))
    at.number_input(key="ly_out_total").set_value(8).run()
    assert any("TotalTensorSizeInBytes 8: below the 48 bytes" in e for e in error_texts(at))
    maps = charts(at)
    assert "fall outside the buffer" in maps[1]["layout"]["title"]["text"]


def test_feature_level_rules_come_from_the_support_table():
    app = run_through_app(PAGE, level="2_1", dtype="FLOAT32")
    assert any("takes 4 to 5 dimensions; it needs feature level 3_0" in e for e in error_texts(app))
    app = run_through_app(PAGE, level="3_0", dtype="FLOAT64")
    assert any("DataType FLOAT64 is not supported" in e for e in error_texts(app))


def test_typed_values_with_the_wrong_count_are_named():
    app = run_through_app(PAGE, pattern="custom", values="1 2 3")
    assert not app.exception
    assert any("3 values given" in e for e in error_texts(app))


def test_random_bytes_float16_is_byte_identical():
    app = run_through_app(PAGE, pattern="random_bytes", dtype="FLOAT16", seed=7)
    assert not app.exception and error_texts(app) == []
    assert any("byte-identical" in s for s in successes(app))


@pytest.mark.parametrize("query, parameter", [
    ({"ly_in_total": "lots"}, "ly_in_total"),
    ({"ly_out_total": "-8"}, "ly_out_total"),
    ({"ly_in_total": "99999999999"}, "ly_in_total"),
])
def test_hostile_links_fall_back_with_a_note(query, parameter):
    app = run_through_app(PAGE, query=query)
    assert not app.exception
    assert any(f"Link parameter {parameter}=" in w.value for w in app.warning)
    assert any(s.startswith("Valid at DML_FEATURE_LEVEL_6_4 ") for s in successes(app))


def test_memory_maps_by_byte_keep_the_layout_rows():
    app = run_through_app(PAGE, dtype="UINT16", ly_unit="byte")
    assert not app.exception and error_texts(app) == []
    maps = charts(app)[:2]
    # UINT16 {3, 4} packed: 4 elements = 8 bytes per row in, the transposed output 3 elements = 6 bytes per row.
    assert [m["layout"]["xaxis"]["range"][1] + 0.5 for m in maps] == [8, 6]
    assert all("byte offset within row" in m["layout"]["xaxis"]["title"]["text"] for m in maps)


def test_open_in_workbench_runs_the_same_copy(at):
    click_button(at, "NCHW")
    click_button(at, "Open in Descriptor workbench")
    assert not at.exception, at.exception
    assert at.title[0].value == "Descriptor workbench"
    printed = next(c.value for c in at.code if c.value.startswith("Resource 'output'"))
    expected = ops.element_wise_identity(np.arange(24, dtype=np.uint32), *ops.layout_preset("NCHW -> NHWC", "UINT32"))
    assert printed == "Resource 'output': " + ", ".join(map(str, expected.tolist()))
    assert any("Cross-check" in s and "**matches**" in s for s in successes(at))


@settings(max_examples=8, deadline=None)
@given(st.text(alphabet="0123456789,- x[]a", max_size=14), st.text(alphabet="0123456789,- x[]a", max_size=14),
       st.text(alphabet="0123456789,-", max_size=10))
def test_any_typed_fields_give_a_view_or_a_named_error(sizes, strides, out_strides):
    app = run_through_app(PAGE, ly_in_sizes=sizes, ly_in_strides=strides, ly_out_strides=out_strides)
    assert not app.exception, (sizes, strides, out_strides, app.exception)
    valid = valid_at_6_4(app)
    assert valid or error_texts(app)
    assert all(e.split(":")[0].split(" ")[0] in ("InputTensor", "OutputTensor", "desc.InputTensor",
                                                   "desc.OutputTensor") or e.startswith("desc.")
               for e in error_texts(app)), error_texts(app)
