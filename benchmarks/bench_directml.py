"""DirectML itself (lavapipe through vkd3d-proton, in the worker process) next to ONNX Runtime (CPU) and the reference
core, in one run: DEPTH_TO_SPACE1 (the seeds' call and a 4 MiB one) and an ELEMENT_WISE_IDENTITY copy; then operators
outside the registry through run_desc's request (a GEMM, also with B owned by DirectML, and a convolution) beside
ONNX Runtime's CPU run of the same.

Run: .venv/bin/python benchmarks/bench_directml.py [--repeats N]

DirectML's first run of a descriptor compiles it (CreateOperator, CompileOperator, the initializer) in a worker
that has just started; its time is shown apart, with the worker's start. The repeated time is what the app pays per
cross-check once the operator is compiled (the worker keeps it): the request over the pipe, the upload, the
dispatch on llvmpipe, the read-back and the answer. ONNX Runtime runs a session built beforehand. Prints two
markdown tables, the machine's cores and load before and after.
"""

import argparse
import dataclasses
import functools
import os
import time

import numpy as np
import onnxruntime as ort
from bench_core import interleaved_medians_ms
from onnx import TensorProto, helper

import ops
from ops.operators.depth_space import depth_to_space
from ops.runtime import directml as dml
from ops.runtime.directml.process import Worker, install_dir
from ops.runtime.directml_check import packed_desc

ONNX_TYPES = {np.dtype(np.float32): TensorProto.FLOAT}


def session(node, inputs, out_shape):
    """An ONNX Runtime CPU session of one node reading `inputs` (name -> array) and writing "y"."""
    graph = helper.make_graph([node], "bench", [helper.make_tensor_value_info(name, ONNX_TYPES[x.dtype], list(x.shape))
                                                for name, x in inputs.items()],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(out_shape))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def calls():
    """(label, op, x, attrs, ONNX node, core function, expected output)."""
    c, h, w = np.meshgrid(np.arange(8), np.arange(2), np.arange(3), indexing="ij")
    seed = (9 * c + 3 * h + w).astype(np.float32)[None]  # ONNX Runtime has no UINT32 DepthToSpace
    big = np.random.default_rng(0).standard_normal((1, 64, 128, 128)).astype(np.float32)
    for label, x in (("seed {1,8,2,3} FLOAT32", seed), ("{1,64,128,128} FLOAT32 (4 MiB)", big)):
        attrs = {"block_size": 2, "order": "DEPTH_COLUMN_ROW"}
        node = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="DCR")
        yield (f"DEPTH_TO_SPACE1 {label}", "DEPTH_TO_SPACE1", x, attrs, node,
               lambda x=x: depth_to_space(x, 2), depth_to_space(x, 2))
    x = np.random.default_rng(1).standard_normal((1024, 1024)).astype(np.float32)
    desc = packed_desc(x.shape, x.dtype)
    yield ("ELEMENT_WISE_IDENTITY {1024,1024} FLOAT32 (4 MiB)", "ELEMENT_WISE_IDENTITY", x, {},
           helper.make_node("Identity", ["x"], ["y"]), lambda: ops.element_wise_identity(x.reshape(-1), desc, desc),
           x)


def any_operators():
    """(label, OperatorDesc, input buffers by field name, ONNX node, ONNX inputs, expected output, tolerance)."""
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal((256, 256)).astype(np.float32) for _ in range(2))
    node = helper.make_node("Gemm", ["a", "b"], ["y"])
    for owned in (False, True):
        b_desc = packed_desc(b.shape, b.dtype)
        desc = dml.OperatorDesc("GEMM", {
            "ATensor": packed_desc(a.shape, a.dtype), "OutputTensor": packed_desc((256, 256), np.float32),
            "BTensor": dataclasses.replace(b_desc, Flags="OWNED_BY_DML") if owned else b_desc,
            "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0})
        label = "GEMM 256x256x256 FLOAT32" + (", B OWNED_BY_DML" if owned else "")
        yield label, desc, {"ATensor": a.tobytes(), "BTensor": b.tobytes()}, node, {"a": a, "b": b}, a @ b
    x = rng.standard_normal((1, 64, 56, 56)).astype(np.float32)
    w = rng.standard_normal((64, 64, 3, 3)).astype(np.float32)
    desc = dml.OperatorDesc("CONVOLUTION", {
        "InputTensor": packed_desc(x.shape, x.dtype), "FilterTensor": packed_desc(w.shape, w.dtype),
        "OutputTensor": packed_desc(x.shape, x.dtype), "Mode": "CROSS_CORRELATION", "Direction": "FORWARD",
        "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [1, 1], "EndPadding": [1, 1],
        "OutputPadding": [0, 0], "GroupCount": 1})
    node = helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])
    conv = session(node, {"x": x, "w": w}, x.shape).run(None, {"x": x, "w": w})[0]
    yield ("CONVOLUTION {1,64,56,56} x {64,64,3,3}, pads 1, FLOAT32", desc,
           {"InputTensor": x.tobytes(), "FilterTensor": w.tobytes()}, node, {"x": x, "w": w}, conv)


def load():
    return f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"


def main(repeats):
    status = dml.directml_status()
    if not status.available:
        raise SystemExit(status.reason)
    print(f"DirectML: {status.provider}; {load()}\n")
    print("| call | worker start ms | DirectML first run (compiles) ms | DirectML ms | ONNX Runtime ms | core ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, op, x, attrs, node, core, expected in calls():
        worker = Worker(install_dir())  # a fresh worker: the first run compiles in it
        in_desc, out_desc = packed_desc(x.shape, x.dtype), packed_desc(expected.shape, expected.dtype)
        request = dml._request("run", op, [in_desc], [out_desc], attrs, status.max_feature_level)
        buffers = [x.tobytes(), bytes(out_desc.TotalTensorSizeInBytes)]

        def on_directml(worker=worker, request=request, buffers=buffers, expected=expected):
            answer, outputs = worker.call(request, buffers, 60)
            assert answer["hr"] == 0 and outputs[0][:expected.nbytes] == expected.tobytes()

        started, first, times = timed(worker, on_directml, [functools.partial(
            session(node, {"x": x}, expected.shape).run, None, {"x": x}), core], repeats)
        print(f"| {label} | {started:.0f} | {first:.0f} | " + " | ".join(f"{t:.3f}" for t in times) + " |")
    print("\n| operator (run_desc) | worker start ms | DirectML first run (compile, initialize) ms | DirectML ms | "
          "ONNX Runtime ms | largest difference |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, desc, inputs, node, onnx_inputs, expected in any_operators():
        worker = Worker(install_dir())
        packed = dml.pack(desc)
        request = dml._wire_request("run", packed, status.max_feature_level)
        buffers = [b for b in dml._buffers(packed.input_names, packed.inputs, inputs, "input") if b is not None] + \
            [bytes(packed.outputs[0].TotalTensorSizeInBytes)]
        got = []

        def on_directml(worker=worker, request=request, buffers=buffers, got=got):
            answer, outputs = worker.call(request, buffers, 60)
            assert answer["hr"] == 0, answer
            got[:] = outputs

        started, first, times = timed(worker, on_directml, [functools.partial(
            session(node, onnx_inputs, expected.shape).run, None, onnx_inputs)], repeats)
        difference = np.max(np.abs(np.frombuffer(got[0], np.float32).reshape(expected.shape) - expected))
        print(f"| {label} | {started:.0f} | {first:.0f} | " + " | ".join(f"{t:.3f}" for t in times) +
              f" | {difference:.2e} |")
    print(f"\nAfter: {load()}")


def timed(worker, on_directml, others, repeats):
    """(worker start ms, first DirectML run ms, [DirectML, *others] medians ms), the worker killed afterwards."""
    start = time.perf_counter()
    worker.describe()
    started = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    on_directml()
    first = (time.perf_counter() - start) * 1e3
    times = interleaved_medians_ms([on_directml, *others], repeats)
    worker._kill()
    return started, first, times


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    main(parser.parse_args().repeats)
