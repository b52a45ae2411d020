"""Loading 1 MB DxDispatch models, before and after in one run: seconds and memory grown for each model, read by
`ops.load_model` in a fresh Python of each checkout. Prints a table; asserts nothing (tests/unit/test_any_operator.py
asserts what is read and that the reading stays linear).

    .venv/bin/python benchmarks/bench_reader.py --before ../main      # another checkout (a git worktree or archive)

Every model is made here, just under the 1 MB text cap; a checkout that does not read an operator refuses it, which
the table says.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from support.paths import ROOT

SNIPPET = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from ops import DescriptorError, load_model
text = open({path!r}).read()
def rss(): return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) / 1024
before, start = rss(), time.perf_counter()
try:
    load_model(text); result = "loaded"
except DescriptorError as error:
    result = "refused: " + str(error)[:70]
seconds = time.perf_counter() - start
print(json.dumps(dict(seconds=seconds, grown_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before,
                      result=result)))
"""


def tensor(sizes, data_type="FLOAT32"):
    return {"DataType": data_type, "Sizes": sizes}


def model(kind, desc, bindings, resources, count=1):
    dispatchables = {f"d{i}": {"type": kind, "desc": desc} for i in range(count)}
    return {"resources": resources, "dispatchables": dispatchables,
            "commands": [{"type": "dispatch", "dispatchable": "d0", "bindings": bindings}]}


def zeros(count, data_type="FLOAT32"):
    return {"initialValuesDataType": data_type, "initialValues": {"valueCount": count, "value": 0}}


def models():
    """{label: model}: what grows in each, to just under 1 MB of text."""
    bit_or = model("DML_OPERATOR_ELEMENT_WISE_BIT_OR",
                   {"ATensor": tensor([4], "UINT32"), "BTensor": tensor([4], "UINT32"),
                    "OutputTensor": tensor([4], "UINT32")},
                   {"ATensor": "a", "BTensor": "b", "OutputTensor": "out"},
                   {"a": {"initialValuesDataType": "UINT32", "initialValues": list(range(135_000))},
                    "b": zeros(4, "UINT32"), "out": zeros(4, "UINT32")})
    join = model("DML_OPERATOR_JOIN", {"InputCount": 2, "InputTensors": [tensor([1, 2]), tensor([1, 2])],
                                       "OutputTensor": tensor([2, 2]), "Axis": 0},
                 {"InputTensors": ["a", "b"], "OutputTensor": "out"},
                 {"a": zeros(2), "b": zeros(2), "out": zeros(4)}, count=4_200)
    gemm_desc = {"ATensor": tensor([1, 1, 2, 3]), "BTensor": tensor([1, 1, 3, 2]), "OutputTensor": tensor([1, 1, 2, 2]),
                 "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0,
                 "FusedActivation": {"Type": "ACTIVATION_ELU", "Alpha": 0.5}}
    gemms = model("DML_OPERATOR_GEMM", gemm_desc, {"ATensor": "a", "BTensor": "b", "OutputTensor": "out"},
                  {"a": zeros(6), "b": zeros(6), "out": zeros(4)}, count=2_800)
    rnn_desc = {"InputTensor": tensor([1, 3, 1, 2]), "WeightTensor": tensor([1, 1, 2, 2]),
                "RecurrenceTensor": tensor([1, 1, 2, 2]), "OutputSingleTensor": tensor([1, 1, 1, 2]),
                "ActivationDescCount": 23_500, "ActivationDescs": [{"Type": "ACTIVATION_ELU", "Alpha": 0.5}] * 23_500,
                "Direction": "FORWARD"}
    rnn = model("DML_OPERATOR_RNN", rnn_desc,
                {"InputTensor": "x", "WeightTensor": "w", "RecurrenceTensor": "r", "OutputSingleTensor": "out"},
                {"x": zeros(6), "w": zeros(4), "r": zeros(4), "out": zeros(2)})
    scales = [0.5 + i / 1024 for i in range(70_000)]
    resample = model("DML_OPERATOR_RESAMPLE",
                     {"InputTensor": tensor([1, 1, 1, 2]), "OutputTensor": tensor([1, 1, 1, 4]),
                      "InterpolationMode": "NEAREST_NEIGHBOR", "ScaleCount": len(scales), "Scales": scales},
                     {"InputTensor": "x", "OutputTensor": "out"}, {"x": zeros(2), "out": zeros(4)})
    offsets = [0] * 105_000
    slice_model = model("DML_OPERATOR_SLICE",
                        {"InputTensor": tensor([4]), "OutputTensor": tensor([2]), "DimensionCount": len(offsets),
                         "Offsets": offsets, "Sizes": offsets, "Strides": offsets},
                        {"InputTensor": "x", "OutputTensor": "out"}, {"x": zeros(4), "out": zeros(2)})
    return {"BIT_OR, 135,000 initial values (the core's)": bit_or,
            "4,200 JOIN dispatchables (the core's)": join,
            "2,800 GEMM dispatchables with a fused ELU": gemms,
            "RNN with 23,500 fused activations": rnn,
            "RESAMPLE with 70,000 FLOAT scales": resample,
            "SLICE with 3 x 105,000 UINTs": slice_model}


def run(root, path):
    out = subprocess.run([sys.executable, "-c", SNIPPET.format(root=str(root), path=str(path))],
                         capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(root)})
    if out.returncode:
        return {"seconds": float("nan"), "grown_mb": float("nan"), "result": out.stderr.strip()[-90:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    roots = ([("before", args.before.resolve())] if args.before else []) + [("after", ROOT)]
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} at the start; median of {args.runs} runs")
    with tempfile.TemporaryDirectory() as folder:
        for label, value in models().items():
            path = Path(folder) / "model.json"
            path.write_text(json.dumps(value))
            size = path.stat().st_size
            assert size < 1_000_000, (label, size)
            for name, root in roots:
                results = [run(root, path) for _ in range(args.runs)]
                seconds = statistics.median(r["seconds"] for r in results)
                grown = statistics.median(r["grown_mb"] for r in results)
                print(f"| {label} ({size / 1e6:.2f} MB) | {name} | {seconds:.3f} s | {grown:.1f} MB | "
                      f"{results[0]['result']} |")


if __name__ == "__main__":
    main()
