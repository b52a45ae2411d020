"""One ELEMENT_WISE_IDENTITY copy on DirectML itself (lavapipe through vkd3d, in the worker process), next to the same
copy on ONNX Runtime (CPU, an Identity node, which may hand back its input without copying), the reference core, and a plain numpy copy, in one run.

Run: .venv/bin/python benchmarks/bench_directml.py [--repeats N]

DirectML's time is what the app pays per cross-check once the operator is compiled (the worker keeps it): the
request over the pipe, the upload, the dispatch on llvmpipe, the read-back and the answer. The first run of a
descriptor, which compiles it, is timed apart. Prints one markdown table.
"""

import argparse
import os
import time

import numpy as np
import onnxruntime as ort
from bench_core import interleaved_medians_ms
from onnx import TensorProto, helper

import ops
from ops.runtime import directml as dml
from ops.runtime.directml_check import packed_desc


def ort_copy(shape):
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "copy",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def main(repeats):
    status = dml.directml_status()
    if not status.available:
        raise SystemExit(status.reason)
    print(f"DirectML: {status.provider}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}\n")
    print("| tensor | DirectML first run (compiles) ms | DirectML ms | ONNX Runtime ms | core ms | numpy copy ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for shape in [(2, 3), (512, 512), (1024, 1024)]:
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        desc = packed_desc(shape, x.dtype)
        data, empty = x.tobytes(), bytes(desc.TotalTensorSizeInBytes)
        flat = x.reshape(-1)
        session = ort_copy(shape)

        def on_directml():
            result = dml.run_operator("ELEMENT_WISE_IDENTITY", [(desc, data)], [(desc, empty)], {})
            assert result.ok and result.outputs[0] == data

        start = time.perf_counter()
        on_directml()
        first = (time.perf_counter() - start) * 1e3
        times = interleaved_medians_ms([
            on_directml,
            lambda: session.run(None, {"x": x}),
            lambda: ops.element_wise_identity(flat, desc, desc),
            lambda: x.copy(),
        ], repeats)
        label = f"{' x '.join(map(str, shape))} FLOAT32 ({x.nbytes // 1024} KiB)" if x.nbytes >= 1024 else \
            f"{' x '.join(map(str, shape))} FLOAT32 ({x.nbytes} B)"
        print(f"| {label} | {first:.1f} | " + " | ".join(f"{t:.3f}" for t in times) + " |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    main(parser.parse_args().repeats)
