"""DirectML itself (lavapipe through vkd3d-proton, in the worker process) next to ONNX Runtime (CPU) and the reference
core, in one run: DEPTH_TO_SPACE1 (the seeds' call and a 4 MiB one) and an ELEMENT_WISE_IDENTITY copy.

Run: .venv/bin/python benchmarks/bench_directml.py [--repeats N]

DirectML's first run of a descriptor compiles it (CreateOperator, CompileOperator, the initializer) in a worker
that has just started; its time is shown apart, with the worker's start. The repeated time is what the app pays per
cross-check once the operator is compiled (the worker keeps it): the request over the pipe, the upload, the
dispatch on llvmpipe, the read-back and the answer. ONNX Runtime runs a session built beforehand. Prints one
markdown table.
"""

import argparse
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


def session(node, x, out_shape):
    graph = helper.make_graph([node], "bench", [helper.make_tensor_value_info("x", ONNX_TYPES[x.dtype], list(x.shape))],
                              [helper.make_tensor_value_info("y", ONNX_TYPES[x.dtype], list(out_shape))])
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


def main(repeats):
    status = dml.directml_status()
    if not status.available:
        raise SystemExit(status.reason)
    print(f"DirectML: {status.provider}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}\n")
    print("| call | worker start ms | DirectML first run (compiles) ms | DirectML ms | ONNX Runtime ms | core ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, op, x, attrs, node, core, expected in calls():
        worker = Worker(install_dir())  # a fresh worker: the first run compiles in it
        in_desc, out_desc = packed_desc(x.shape, x.dtype), packed_desc(expected.shape, expected.dtype)
        request = dml._request("run", op, [in_desc], [out_desc], attrs, status.max_feature_level)
        request["flags"] = 0
        buffers = [x.tobytes(), bytes(out_desc.TotalTensorSizeInBytes)]

        def on_directml(worker=worker, request=request, buffers=buffers, expected=expected):
            answer, outputs = worker.call(request, buffers, 60)
            assert answer["hr"] == 0 and outputs[0][:expected.nbytes] == expected.tobytes()

        start = time.perf_counter()
        worker.describe()
        started = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        on_directml()
        first = (time.perf_counter() - start) * 1e3
        onnx = session(node, x, expected.shape)
        times = interleaved_medians_ms([on_directml, functools.partial(onnx.run, None, {"x": x}), core], repeats)
        worker._kill()
        print(f"| {label} | {started:.0f} | {first:.0f} | " + " | ".join(f"{t:.3f}" for t in times) + " |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    main(parser.parse_args().repeats)
