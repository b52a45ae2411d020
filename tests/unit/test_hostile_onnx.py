"""Issue 24, points 2, 3 and 7, and issue 31, point 1: uploaded .onnx files cost what they show, never what an
attacker multiplies; the ONNX checker and shape inference run in a child process within limits (ops.isolated).

Every hostile model is built by support/attacks.py, from onnx.helper or from raw protobuf bytes.
"""

import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import ops
from ops import isolated
from ops.frameworks import onnx_models
from ops.frameworks.example_model import example_upscaling_model
from ops.frameworks.onnx_census import census
from support.app import error_texts, run_through_app
from support.attacks import (
    chains,
    dcr_and_crd,
    empty_nodes,
    model,
    one_node_of_empty_attributes,
    raw_model,
    shape_fan,
    value,
)
from support.visitor import process_tree

PAGE = "app_pages/onnx_model/page.py"
INFER = "ops.frameworks.onnx_isolated:check_and_infer"
MiB = 1 << 20


def peak_opening(data_expression):
    """Peak resident MB of a fresh Python opening the model `data_expression` builds (support.attacks as t)."""
    code = textwrap.dedent(f"""
        import resource, sys
        import ops
        from support import attacks as t
        data = {data_expression}
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            ops.open_onnx_model(data)
        except ops.DescriptorError as error:
            print("refused:", error)
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True).stdout
    *lines, grown = out.strip().splitlines()
    return "\n".join(lines), int(grown) / 1024


def test_a_file_of_empty_nodes_is_refused_before_it_is_parsed():
    message, grown = peak_opening("t.empty_nodes(15_800_000)")
    assert f"more than {onnx_models.MAX_NODES:,} nodes" in message
    assert grown < 64, grown  # MB over the opened file: parsing it took 2.7 GB


def test_a_node_of_a_million_attributes_is_refused_by_its_field_count():
    with pytest.raises(ops.DescriptorError, match=f"more than {onnx_models.MAX_FIELDS:,} protobuf fields"):
        ops.open_onnx_model(one_node_of_empty_attributes(1_000_000))


@pytest.mark.parametrize("data", [b"\x0b\x00", b"\x3a\x05\x0a", b"\x08" + b"\xff" * 11,
                                  b"\x3a" + b"\xff" * 9 + b"\x01"])
def test_broken_wire_bytes_get_the_not_a_model_message(data):
    with pytest.raises(ops.DescriptorError, match="not an ONNX model"):
        ops.open_onnx_model(data)


def test_the_census_counts_what_parsing_makes():
    data = example_upscaling_model()
    counted = census(data, 10**6, 10**6)
    import onnx

    parsed = onnx.ModelProto.FromString(data)
    assert counted.nodes == len(parsed.graph.node) + sum(len(f.node) for f in parsed.functions)
    assert counted.fields > 10 * counted.nodes


def test_risks_between_dcr_and_crd_grow_with_the_nodes_not_their_product():
    report = ops.open_onnx_model(dcr_and_crd(300))
    dcr = [n for n in report.nodes if n.attributes.get("mode") == "DCR"]
    assert len(dcr) == 300 and all(len(n.risks) == 1 for n in dcr)
    risk = dcr[0].risks[0]
    assert "(CRD0, CRD1, CRD2, CRD3, CRD4 and 295 more)" in risk
    # One text for the model, shared: the report holds it once.
    assert len({id(n.risks[0]) for n in dcr}) == 1
    assert len(risk) < 1000


def test_a_sparse_constant_is_a_note_not_a_traceback():
    sparse = helper.make_sparse_tensor(helper.make_tensor("v", TensorProto.FLOAT, [2], [1.0, 2.0]),
                                       helper.make_tensor("i", TensorProto.INT64, [2], [0, 3]), [2**40])
    nodes = [helper.make_node("Constant", [], ["c"], name="huge", sparse_value=sparse),
             helper.make_node("Split", ["x"], ["a", "b"], axis=1, num_outputs=2)]
    report = ops.open_onnx_model(model(nodes, [value("x", [1, 4, 2, 2])], [value("a", [1, 2, 2, 2]),
                                                                             value("b", [1, 2, 2, 2])]))
    assert any("Constant 'huge' (sparse_value: a sparse value is not made dense here)" in n for n in report.notes)
    assert report.nodes[0].settings["AxisSizes"] == [2, 2]


def test_a_reshape_chain_whose_sizes_multiply_past_2_to_the_63_is_not_traced():
    sizes = [2**32, 2**32, 1, 1]  # int64 products wrap to 0 here
    shape = numpy_helper.from_array(np.array(sizes, np.int64), "shape")
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["m"]),
             helper.make_node("Transpose", ["m"], ["t"], perm=[1, 0, 2, 3]),
             helper.make_node("Reshape", ["t", "shape"], ["y"])]
    report = ops.open_onnx_model(model(nodes, [value("x", sizes)], [value("y", sizes)], [shape]))
    assert report.rearrangements == []


def test_identical_chains_are_traced_once_and_all_chains_within_a_budget(monkeypatch):
    calls = []
    identify = onnx_models.identify
    monkeypatch.setattr(onnx_models, "identify", lambda x, y: calls.append(x.size) or identify(x, y))
    report = ops.open_onnx_model(chains(100))
    assert len(report.rearrangements) == 100 and calls == [2**22]
    assert report.rearrangements[0].settings["Order"] == "COLUMN_ROW_DEPTH"
    calls.clear()
    report = ops.open_onnx_model(chains(20, distinct=True))
    assert sum(calls) <= onnx_models.TRACE_BUDGET
    assert len(report.rearrangements) == len(calls) < 20
    assert any(f"{20 - len(calls):,} more Reshape -> Transpose -> Reshape chain(s) are not traced" in n
               for n in report.notes)


def test_a_refused_model_is_kept_so_a_rerun_does_not_open_it_again(monkeypatch):
    from app_pages.onnx_model import work as onnx_model_work

    opened = []
    monkeypatch.setattr(onnx_model_work, "open_onnx_model", lambda data: opened.append(1) or ops.open_onnx_model(data))
    data = raw_model(b"\x0a\x00" * 10)  # parses, then the checker refuses it
    for _ in range(3):
        with pytest.raises(ops.DescriptorError, match="checker refuses"):
            onnx_model_work.model_report("refused-model", data, 0)
    assert opened == [1]


@pytest.mark.parametrize("name, data, message", [
    ("empty-nodes.onnx", lambda: empty_nodes(4 * MiB), f"more than {onnx_models.MAX_NODES:,} nodes"),
    ("attributes.onnx", lambda: one_node_of_empty_attributes(400_000), "protobuf fields"),
])
def test_the_page_names_the_cap_an_upload_passes(name, data, message):
    at = run_through_app(PAGE, query={"onx_source": "upload"})
    at.file_uploader(key="onx_upload").set_value((name, data(), "application/octet-stream")).run()
    assert not at.exception
    assert any(message in text for text in error_texts(at)), error_texts(at)


# ---------------------------------------------------------------- issue 31: checking and inference in a limited child


def test_a_shape_concat_fan_is_refused_by_its_child_and_the_caller_does_not_grow():
    # 3.8 KB whose shape inference propagated 108 million values: 7.6 GB in the server before.
    message, grown = peak_opening("t.shape_fan(300)")
    assert "model: checking it and inferring its shapes needs more than the" in message
    assert "MB of memory it may use here" in message
    assert grown < 64, grown


def test_the_childs_cpu_limit_is_named():
    data = shape_fan(100)
    with pytest.raises(isolated.Exceeded, match="needs more than the 0 s of CPU time") as refused:
        isolated.run_limited(INFER, data, 8 << 30, 0, 60, "checking it")
    assert refused.value.limit == "cpu" and not refused.value.transient


def test_a_child_past_its_deadline_is_killed_and_the_refusal_is_transient():
    data = shape_fan(150)
    with pytest.raises(isolated.Exceeded, match="took longer than 0 s") as refused:
        isolated.run_limited(INFER, data, 8 << 30, 60, 0.05, "checking it")
    assert refused.value.transient
    server = isolated._fork_server().process.pid
    deadline = time.monotonic() + 10
    while [pid for pid in process_tree(server) if pid != server] and time.monotonic() < deadline:
        time.sleep(0.05)  # the kernel reaps the killed child (the fork server ignores SIGCHLD)
    assert not [pid for pid in process_tree(server) if pid != server]


def test_a_transient_refusal_is_not_kept_as_the_models_answer(monkeypatch):
    from app_pages.onnx_model import work as onnx_model_work

    answers = iter([isolated.Exceeded("model: took longer than 30 s", "wall"), "report"])

    def opened(data):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(onnx_model_work, "open_onnx_model", opened)
    with pytest.raises(isolated.Exceeded):
        onnx_model_work.model_report("busy-then-free", b"model", 0)
    assert onnx_model_work.model_report("busy-then-free", b"model", 0) == "report"


def test_shapes_computed_at_run_time_are_still_inferred():
    # Shape -> Slice -> Concat -> Reshape before a DepthToSpace, as a PyTorch export writes a reshape of the input's
    # own sizes: its sizes are only known with data propagation, which the child keeps.
    constants = [numpy_helper.from_array(np.array(v, np.int64), name)
                 for name, v in (("zero", [0]), ("two", [2]), ("hw", [4, 4]))]
    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Slice", ["s", "zero", "two"], ["nc"]),
             helper.make_node("Concat", ["nc", "hw"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["r"]),
             helper.make_node("DepthToSpace", ["r"], ["y"], blocksize=2)]
    report = ops.open_onnx_model(model(nodes, [value("x", [1, 8, 2, 8])], [value("y", [1, 2, 8, 8])], constants))
    [depth_to_space] = [n for n in report.nodes if n.op_type == "DepthToSpace"]
    assert depth_to_space.input_shapes == [[1, 8, 4, 4]]
    assert depth_to_space.settings["Sizes"] == [1, 8, 4, 4]


def test_a_model_of_large_weights_opens_within_its_childs_allowance():
    weights = numpy_helper.from_array(np.zeros((1, 3_990_000), np.float32), "w")  # 16 MB
    nodes = [helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2)]
    data = model(nodes, [value("x", [1, 4, 2, 2])], [value("y", [1, 1, 4, 4])], [weights])
    assert len(data) < onnx_models.ONNX_BYTE_CAP
    assert ops.open_onnx_model(data).nodes[0].settings["BlockSize"] == 2


def test_the_page_names_the_limit_a_fan_passes():
    at = run_through_app(PAGE, query={"onx_source": "upload"})
    at.file_uploader(key="onx_upload").set_value(("fan.onnx", shape_fan(150), "application/octet-stream")).run()
    assert not at.exception
    assert any("MB of memory it may use here" in text for text in error_texts(at)), error_texts(at)
