"""The ONNX model page through app.py (AppTest): the bundled example listed with its links and risk flags, single
nodes cross-checked, uploads of a test-built upscaler and of hostile files refused by name."""

from urllib.parse import parse_qsl

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from ops.frameworks.onnx_models import ONNX_BYTE_CAP
from support.app import error_texts, run_through_app, shown

PAGE = "app_pages/onnx_model/page.py"
PAGES = {"depth_space": "app_pages/depth_space/page.py", "bitwise_or": "app_pages/bitwise/page.py",
         "split_join": "app_pages/split_join/page.py"}


def model_page(**settings):
    at = run_through_app(PAGE, **settings)
    assert not at.exception, at.exception
    return at


def links(at):
    return [(link.proto.label, link.proto.page, dict(parse_qsl(link.proto.query_string)))
            for link in at.get("page_link")]


def upload(at, name, data):
    at.radio(key="onx_source").set_value("upload").run()
    at.file_uploader(key="onx_upload").set_value((name, data, "application/octet-stream")).run()
    assert not at.exception, at.exception
    return at


def pixel_shuffle_upscaler():
    """Conv (3 -> 12 channels) then PixelShuffle(2) written as Reshape -> Transpose -> Reshape, the way numpy code
    after PyTorch's documentation writes it, then a Conv reading the 3-channel image."""
    rng = np.random.default_rng(1)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["features"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Reshape", ["features", "blocks"], ["split"], name="ps/reshape"),
        helper.make_node("Transpose", ["split"], ["moved"], name="ps/transpose", perm=[0, 1, 4, 2, 5, 3]),
        helper.make_node("Reshape", ["moved", "space"], ["image"], name="ps/reshape_1"),
        helper.make_node("Conv", ["image", "head"], ["y"], name="head"),
    ]
    initializers = [
        numpy_helper.from_array(rng.integers(-2, 3, (12, 3, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(np.array([1, 3, 2, 2, 5, 4], np.int64), "blocks"),
        numpy_helper.from_array(np.array([1, 3, 10, 8], np.int64), "space"),
        numpy_helper.from_array(rng.integers(-2, 3, (1, 3, 1, 1)).astype(np.float32), "head"),
    ]
    graph = helper.make_graph(nodes, "upscaler", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 5, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 10, 8])],
                              initializer=initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()


# ---------------------------------------------------------------- the example


EXAMPLE_LINKS = [
    ("depth_space", {"dtype": "FLOAT32", "direction": "space_to_depth", "N": "1", "C": "3", "H": "8", "W": "8",
                     "BlockSize": "2", "Order": "DEPTH_COLUMN_ROW"}),
    ("split_join", {"dtype": "FLOAT32", "sj_sizes": "1,12,4,4", "sj_axis": "1", "sj_mode": "sizes", "sj_split": "4,8"}),
    ("split_join", {"dtype": "FLOAT32", "sj_sizes": "1,12,4,4", "sj_axis": "1", "sj_mode": "sizes", "sj_split": "4,8"}),
    ("depth_space", {"dtype": "FLOAT32", "direction": "depth_to_space", "N": "1", "C": "48", "H": "4", "W": "4",
                     "BlockSize": "4", "Order": "COLUMN_ROW_DEPTH"}),
    ("bitwise_or", {"dtype": "UINT8", "or_sizes": "2,4", "or_bcast": "0,1"}),
    ("depth_space", {"dtype": "FLOAT32", "direction": "depth_to_space", "N": "1", "C": "12", "H": "8", "W": "8",
                     "BlockSize": "2", "Order": "COLUMN_ROW_DEPTH"}),
]


def test_the_example_lists_every_node_with_links_and_risk_flags():
    at = model_page()
    assert at.title[0].value == "Open an ONNX model"
    table = at.dataframe[0].value
    assert table["op"].tolist() == ["SpaceToDepth", "Split", "Concat", "DepthToSpace", "BitwiseOr"]
    assert table["input sizes"].tolist()[0] == "[1, 3, 8, 8]"
    assert table["attributes"].tolist()[3] == "blocksize=4, mode=CRD"
    assert table["risks"].tolist() == [2, 0, 0, 0, 0]
    warnings = [shown(w.value) for w in at.warning]
    assert any("microsoft/onnxscript#2891" in w for w in warnings)
    assert [(page, query) for _, page, query in links(at)] == EXAMPLE_LINKS
    assert dict(at.query_params) == {}


@pytest.mark.parametrize("index", range(len(EXAMPLE_LINKS)))
def test_each_link_opens_its_operator_page_with_the_nodes_settings(index):
    page, query = EXAMPLE_LINKS[index]
    opened = run_through_app(PAGES[page], query=query)
    assert not opened.exception, opened.exception
    assert not error_texts(opened)
    assert not [shown(w.value) for w in opened.warning if "Link parameter" in shown(w.value)]
    widgets = {w.key: w.value for kind in ("number_input", "radio", "text_input", "selectbox")
               for w in opened.get(kind) if w.key}
    for key, text in query.items():
        assert str(widgets[key]) == text


def test_cross_checking_a_node_shows_its_verdict_and_stays_in_the_link():
    at = model_page()
    at.button(key="onx_check_6").click().run()
    assert not at.exception, at.exception
    [success] = [shown(s.value) for s in at.success]
    assert "'/up/pixel_shuffle/DepthToSpace'" in success and "byte-identical" in success
    assert dict(at.query_params) == {"onx_check": "6"}
    fresh = run_through_app(PAGE, query=dict(at.query_params))
    assert [shown(s.value) for s in fresh.success] == [success]


@pytest.mark.parametrize("index", [0, 2, 4, 14])
def test_every_other_node_cross_checks_on_onnx_runtime(index):
    at = model_page(onx_check=index)
    [success] = [shown(s.value) for s in at.success]
    assert "byte-identical" in success


# ---------------------------------------------------------------- uploads


def test_an_uploaded_upscaler_shows_its_pixel_shuffle_chain_as_crd():
    at = upload(model_page(), "upscaler.onnx", pixel_shuffle_upscaler())
    assert not error_texts(at)
    assert any("computes DEPTH_TO_SPACE1 with BlockSize 2 and Order COLUMN_ROW_DEPTH" in shown(m.value)
               for m in at.markdown)
    [(_, page, query)] = links(at)
    assert page == "depth_space" and query["C"] == "12" and query["H"] == "5" and query["Order"] == "COLUMN_ROW_DEPTH"


def test_an_uploaded_model_without_the_operators_says_so():
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    data = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()
    at = upload(model_page(), "relu.onnx", data)
    assert any("none of these operators: DepthToSpace, SpaceToDepth, BitwiseOr" in shown(i.value) for i in at.info)


def external_data_model():
    tensor = numpy_helper.from_array(np.zeros((2, 2), np.float32), "w")
    tensor.data_location = TensorProto.EXTERNAL
    tensor.ClearField("raw_data")
    tensor.external_data.add(key="location", value="../../etc/passwd")
    graph = helper.make_graph([helper.make_node("Concat", ["x", "w"], ["y"], axis=0)], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 2])], initializer=[tensor])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()


def custom_domain_model():
    graph = helper.make_graph([helper.make_node("Shuffle", ["x"], ["y"], domain="com.evil")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid("com.evil", 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("notes.onnx", b"This is not a model, just text.", "model: not an ONNX model"),
        ("image.onnx", b"\x89PNG\r\n\x1a\n" + bytes(64), "model: not an ONNX model"),
        ("truncated.onnx", pixel_shuffle_upscaler()[:-50], "model: not an ONNX model"),
        ("external.onnx", external_data_model(), "external data is refused"),
        ("custom.onnx", custom_domain_model(), "com.evil:Shuffle; custom domains are refused"),
        ("oversized.onnx", bytes(ONNX_BYTE_CAP + 1), f"exceed the cap of {ONNX_BYTE_CAP:,} bytes"),
    ],
)
def test_hostile_files_are_refused_with_a_message_and_no_traceback(name, data, message):
    at = upload(model_page(), name, data)
    errors = error_texts(at)
    assert len(errors) == 1 and message in errors[0]
    assert not at.dataframe


def test_upload_mode_without_a_file_asks_for_one():
    at = model_page(onx_source="upload")
    assert any("Upload a model" in shown(i.value) for i in at.info)


@pytest.mark.parametrize("settings, note", [(dict(onx_source="bogus"), "onx_source=`bogus`"),
                                            (dict(onx_check="x"), "onx_check=`x` must be a whole number")])
def test_link_values_the_page_cannot_take_are_named(settings, note):
    at = run_through_app(PAGE, query=settings)
    assert not at.exception, at.exception
    assert any(note in shown(w.value) for w in at.warning)
    assert at.dataframe  # the example is still listed


def test_a_checked_index_that_is_not_a_node_shows_no_result():
    at = model_page(onx_check=99)
    assert not at.success and not error_texts(at)


def test_a_model_with_many_nodes_shows_them_all_in_the_table_and_a_window_of_cards():
    count = 100
    nodes = [helper.make_node("Concat", [f"t{i}", "x"], [f"t{i + 1}"], name=f"cat{i}", axis=0) for i in range(count)]
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("t0", TensorProto.FLOAT, [1, 2]),
                                               helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
                              [helper.make_tensor_value_info(f"t{count}", TensorProto.FLOAT, [count + 1, 2])])
    data = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()
    at = upload(model_page(), "chain.onnx", data)
    assert len(at.dataframe[0].value) == count
    buttons = [b.key for b in at.button if b.key and b.key.startswith("onx_check_")]
    assert buttons == [f"onx_check_{i}" for i in range(40)]
    at.number_input(key="onx_first").set_value(80).run()
    buttons = [b.key for b in at.button if b.key and b.key.startswith("onx_check_")]
    assert buttons == [f"onx_check_{i}" for i in range(80, 100)]
