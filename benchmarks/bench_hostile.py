"""Issues 24's and 31's attacks, before and after, in one run: time and memory of each attack, and a class's page
times while attackers share the server. Prints tables; asserts nothing (tests/*/test_hostile_*.py assert correctness).

    .venv/bin/python benchmarks/bench_hostile.py --before ../old      # another checkout (a git worktree or archive)
    .venv/bin/python benchmarks/bench_hostile.py --before ../old --skip core served lock --attacks Split Depth

Core attacks run in a fresh Python of each checkout (its own code, this environment); server attacks on a freshly
started server of each checkout (support/visitor.py). Issue 31's attacks (support/attacks.issue31_plans) each get a
fresh server, a class of ten beside them and two visitors waiting for new cross-check verdicts: the attack's time,
the messages and bytes it was sent, the server's peak and idle memory (its DirectML worker and children included),
the class's page times and the verdicts' waits. Every hostile input is made by support/attacks.py.
"""

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import textwrap
import threading
import time
import urllib.parse
from pathlib import Path

from support.attacks import issue31_plans, many_parts_split
from support.load import PAGES, PeakMemory, percentile, wait_until_idle, worker_pids
from support.paths import ROOT
from support.visitor import cpu_seconds, memory_of, run_visitors, served_app, upload_files

MiB = 1 << 20
RETRY_SECONDS = 3  # ui.work.RETRY_SECONDS of this checkout
CLASS = [("", ""), ("depth_space", ""), ("bitwise_or", ""), ("split_join", "")]
SPLIT_ATTACK = "dtype=INT8&sj_sizes=1,1,16777216,1&sj_axis=2&sj_mode=even&sj_parts=65536"
CAP_LINK = "dtype=FLOAT64&pattern=random&seed={}&C=64&H=512&W=512"

# Each snippet runs in a fresh interpreter with the checkout first on sys.path; it prints one JSON line.
PRELUDE = """
import json, resource, sys, time
sys.path.insert(0, ROOT)
def rss(): return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) / 1024
def outcome(f):
    start, before = time.perf_counter(), rss()
    try:
        f(); result = "ok"
    except Exception as error:
        kind = "message: " if type(error).__name__ == "DescriptorError" else f"{type(error).__name__}: "
        result = kind + str(error)[:90]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(dict(seconds=time.perf_counter() - start, grown_mb=peak - before, result=result)))
"""

CORE = {
    "JSON: 30 KB of unclosed \\\" (link)": """
from ops.descriptors.dxdispatch import parse_model_text
outcome(lambda: parse_model_text('"' + '\\\\"' * 15_000))""",
    "JSON: 60 KB of unclosed \\\"": """
from ops.descriptors.dxdispatch import parse_model_text
outcome(lambda: parse_model_text('"' + '\\\\"' * 30_000))""",
    "JSON: 1 MB of unclosed \\\" (after only: hours before)": """
from ops.descriptors.dxdispatch import parse_model_text
outcome(lambda: parse_model_text('"' + '\\\\"' * 499_999))""",
    "JSON: 1 MB benign model, 500,000 values": """
from ops.descriptors.dxdispatch import parse_model_text
outcome(lambda: parse_model_text('{"a": [' + ','.join(['1'] * 499_990) + ']}'))""",
    "JSON: integer of 5,000 digits": """
from ops import load_model
outcome(lambda: load_model('{"resources": {"a": {"initialValuesDataType": "UINT8", "initialValues": [' + '9' * 5000
                           + ']}}, "dispatchables": {}, "commands": []}'))""",
    ".onnx: 15.8 MB of empty nodes": """
import ops
outcome(lambda: ops.open_onnx_model(b"\\x08\\x08\\x3a" + bytes([0xc0, 0xad, 0xc4, 0x07])
                                    + b"\\x0a\\x00" * 7_900_000 + b"\\x42\\x02\\x10\\x12"))""",
    ".onnx: 5,000 DCR + 5,000 CRD nodes": """
import ops
from onnx import TensorProto, helper
n = 5_000
names = [(m, f"{m}{i}") for m in ("DCR", "CRD") for i in range(n)]
nodes = [helper.make_node("DepthToSpace", ["x"], [name], name=name, blocksize=2, mode=m) for m, name in names]
outs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, 1, 4, 4]) for _, name in names]
g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 2, 2])], outs)
data = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()
outcome(lambda: ops.open_onnx_model(data))""",
    ".onnx: 100 Reshape-Transpose-Reshape chains": """
import numpy as np, ops
from onnx import TensorProto, helper, numpy_helper
nodes, ins, outs, inits = [], [], [], []
for i in range(100):
    inits += [numpy_helper.from_array(np.array((1, 4, 2, 2, 512, 512), np.int64), f"m{i}"),
              numpy_helper.from_array(np.array((1, 4, 1024, 1024), np.int64), f"e{i}")]
    nodes += [helper.make_node("Reshape", [f"x{i}", f"m{i}"], [f"a{i}"]),
              helper.make_node("Transpose", [f"a{i}"], [f"t{i}"], perm=[0, 1, 4, 2, 5, 3]),
              helper.make_node("Reshape", [f"t{i}", f"e{i}"], [f"y{i}"])]
    ins.append(helper.make_tensor_value_info(f"x{i}", TensorProto.FLOAT, [1, 16, 512, 512]))
    outs.append(helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, [1, 4, 1024, 1024]))
g = helper.make_graph(nodes, "g", ins, outs, initializer=inits)
data = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()
outcome(lambda: ops.open_onnx_model(data))""",
    ".onnx: Constant with sparse_value": """
import ops
from onnx import TensorProto, helper
sp = helper.make_sparse_tensor(helper.make_tensor("v", TensorProto.FLOAT, [2], [1., 2.]),
                               helper.make_tensor("i", TensorProto.INT64, [2], [0, 3]), [2**40])
nodes = [helper.make_node("Constant", [], ["c"], sparse_value=sp), helper.make_node("Identity", ["c"], ["y"])]
g = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
outcome(lambda: ops.open_onnx_model(
    helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()))""",
    ".onnx: Reshape chain past 2^63": """
import numpy as np, ops
from onnx import TensorProto, helper, numpy_helper
S = [2**32, 2**32, 1, 1]
nodes = [helper.make_node("Reshape", ["x", "s"], ["m"]), helper.make_node("Transpose", ["m"], ["t"], perm=[1, 0, 2, 3]),
         helper.make_node("Reshape", ["t", "s"], ["y"])]
g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, S)],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, S)],
                      initializer=[numpy_helper.from_array(np.array(S, np.int64), "s")])
outcome(lambda: ops.open_onnx_model(
    helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8).SerializeToString()))""",
    ".npy: header of 9,000 minus signs": """
import ops
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + "-" * 9000 + "1,), }"
h += " " * ((64 - (len(h) + 11) % 64) % 64) + "\\n"
outcome(lambda: ops.read_npy(b"\\x93NUMPY\\x01\\x00" + len(h).to_bytes(2, "little") + h.encode() + bytes(4)))""",
}
AFTER_ONLY = {"JSON: 1 MB of unclosed \\\" (after only: hours before)"}


def core(root):
    out = {}
    for name, snippet in CORE.items():
        if name in AFTER_ONLY and root != ROOT:
            continue
        code = f"ROOT = {str(root)!r}\n" + textwrap.dedent(PRELUDE) + textwrap.dedent(snippet)
        try:
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900, cwd=root)
            out[name] = json.loads(run.stdout.strip().splitlines()[-1]) if run.stdout.strip() else \
                dict(seconds=0, grown_mb=0, result="crashed: " + run.stderr.strip().splitlines()[-1][:90])
        except subprocess.TimeoutExpired:
            out[name] = dict(seconds=900, grown_mb=0, result="still running after 900 s")
    return out


def times(visits):
    seconds = sorted(v.seconds for v in visits)
    return (f"{statistics.median(seconds):.2f} / {seconds[int(0.95 * (len(seconds) - 1))]:.2f} / {seconds[-1]:.2f}",
            sum(not v.ok for v in visits))


def served(root, freeze_escapes):
    """Page times of a class of ten alone, then beside the attackers; memory peak while attacked, idle after."""
    from app_pages.workbench.settings import LINK_CODEC

    freeze = urllib.parse.urlencode({"wb_source": "Paste JSON",
                                     "wb_text": LINK_CODEC.encode('"' + '\\"' * freeze_escapes)})
    attacks = [[("workbench", freeze)], [("split_join", SPLIT_ATTACK)],
               [("depth_space", CAP_LINK.format(seed)) for seed in range(1, 4)]]
    out = {}
    with served_app(root=root) as (url, process):
        run_visitors(url, [[page] for page in CLASS + [("workbench", ""), ("onnx_model", ""), ("detective", "")]])
        start = memory_of(process.pid)[0]
        alone = run_visitors(url, [CLASS * 2 for _ in range(10)])
        out["class alone: p50 / p95 / max s (failed)"] = "%s (%d)" % times(alone)
        uploaded = []
        spam = threading.Thread(target=lambda: uploaded.extend(asyncio.run(upload_files(
            url, [(f"spam{i}.onnx", bytes(15_000_000)) for i in range(30)], page="onnx_model"))))
        with PeakMemory(process.pid) as memory:
            spam.start()
            began = time.perf_counter()
            visits = run_visitors(url, attacks + [CLASS * 2 for _ in range(10)])
            spam.join()
        attacked, class_visits = visits[:5], visits[5:]
        out["class under attack: p50 / p95 / max s (failed)"] = "%s (%d)" % times(class_visits)
        out["attack pages: freeze, split, 3 cap-size (s)"] = ", ".join(f"{v.seconds:.1f}" for v in attacked)
        out["attack phase wall s"] = f"{time.perf_counter() - began:.1f}"
        out["server MB: start / peak attacked / idle after"] = \
            f"{start / MiB:,.0f} / {max(start, memory.peak) / MiB:,.0f} / {memory_of(process.pid)[0] / MiB:,.0f}"
        out["30 uploads of 15 MB: HTTP statuses"] = ", ".join(f"{s} x{uploaded.count(s)}"
                                                             for s in sorted(set(uploaded), key=str))
        shared = heavy_workbench(url)
        out["30 visitors on one heavy workbench link: p50 / max s"] = shared
    return out


def heavy_workbench(url):
    from app_pages.workbench.settings import LINK_CODEC

    count = 2**20
    model = {"resources": {"in": {"initialValuesDataType": "FLOAT32",
                                  "initialValues": {"valueCount": count, "valueStart": 0, "valueDelta": 1}},
                           "out": {"initialValuesDataType": "FLOAT32",
                                   "initialValues": {"valueCount": count, "value": 0}}},
             "dispatchables": {"copy": {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {
                 "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 16, 256, 256]},
                 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 16, 256, 256]}}}},
             "commands": [{"type": "dispatch", "dispatchable": "copy",
                           "bindings": {"InputTensor": "in", "OutputTensor": "out"}}] * 4}
    query = urllib.parse.urlencode({"wb_source": "Paste JSON", "wb_text": LINK_CODEC.encode(json.dumps(model))})
    visits = run_visitors(url, [[("workbench", query)] for _ in range(30)])
    seconds = sorted(v.seconds for v in visits)
    return f"{statistics.median(seconds):.2f} / {seconds[-1]:.2f} ({sum(not v.ok for v in visits)} failed)"


# ---------------------------------------------------------------- issue 31: work the budgets did not see


def verdict_watchers(count=2, links=4, first_seed=7000):
    """Visitors who open small Depth <-> Space links of new seeds and wait for each cross-check verdict."""
    seeds = iter(range(first_seed, first_seed + count * links))
    return [[("depth_space", f"pattern=random&seed={next(seeds)}", None, 120.0, True) for _ in range(links)]
            for _ in range(count)]


def first_words(visits):
    texts = [t for v in visits for t in v.errors + v.warnings] + [v.failure for v in visits if v.failure]
    return (texts[0].replace("\\", "")[:110] + ("..." if len(texts[0]) > 110 else "")).replace("|", "/") \
        if texts else "no message"


def issue31(root, only=None):
    """Each of issue 31's attacks on a fresh server of `root`, beside a class of ten and two visitors waiting for
    new cross-check verdicts: {attack: {measure: text}}."""
    out = {}
    for name, plans in issue31_plans().items():
        if only and not any(word in name for word in only):
            continue
        with served_app(root=root) as (url, process):
            run_visitors(url, [[page] for page in PAGES])  # every page once: imports and first compiles paid
            wait_until_idle(process.pid)
            start = memory_of(process.pid)[0]
            watching = verdict_watchers()
            class_plans = [CLASS * 2 for _ in range(10)] + watching
            with PeakMemory(process.pid) as memory:
                began = time.perf_counter()
                visits = run_visitors(url, plans + class_plans)
                wall = time.perf_counter() - began
            waited = wait_until_idle(process.pid)
            idle = memory_of(process.pid)[0]
        attackers, watchers = sum(map(len, plans)), sum(map(len, watching))
        attack, students, watchers = visits[:attackers], visits[attackers:-watchers], visits[-watchers:]
        verdicts = [v.verdict_seconds for v in watchers if v.verdict_seconds is not None]
        out[name] = {
            "attack s (max), messages, MB sent": f"{max((v.seconds for v in attack), default=0):.1f}, "
                                                 f"{sum(v.messages for v in attack):,}, "
                                                 f"{sum(v.bytes_received for v in attack) / MiB:,.1f}",
            "attacker sees": first_words(attack),
            "server MB: start / peak / idle after": f"{start / MiB:,.0f} / {max(start, memory.peak) / MiB:,.0f} / "
                                                    f"{idle / MiB:,.0f} ({waited:.0f} s to idle, {wall:.0f} s wall)",
            "class p50 / p95 / max s (failed)": "%s (%d)" % times(students),
            "new verdicts p95 / max s (none)": (f"{percentile(verdicts, .95):.1f} / {max(verdicts):.1f} "
                                                if verdicts else "") + f"({len(watchers) - len(verdicts)})",
        }
    return out


def beside_one_heavy_view(root, visits=20):
    """A default page opened `visits` times alone, then beside one heavy view at a time (the heavy lane's one slot
    kept busy): the interpreter lock's share for light views (serve/launch.py, SWITCH_SECONDS)."""
    with served_app(root=root) as (url, process):
        run_visitors(url, [[page] for page in PAGES])
        alone = run_visitors(url, [[("depth_space", "")] * visits])
        stop, heavy = threading.Event(), []

        def attacker():
            # Split views of 5,000 parts and more (about 1.1 s, mostly Python): heavy in every checkout's estimate.
            parts = 5000
            while not stop.is_set():
                heavy.extend(run_visitors(url, [[("split_join", many_parts_split(parts))]]))
                parts += 1

        thread = threading.Thread(target=attacker)
        thread.start()
        wait_until_busy(process.pid)
        beside = run_visitors(url, [[("depth_space", "")] * visits])
        stop.set()
        thread.join()

    def line(v):
        seconds = [x.seconds for x in v]
        return f"{statistics.median(seconds):.3f} / {percentile(seconds, .95):.3f}"

    return {"light page alone: median / p95 s": line(alone), "beside one heavy view: median / p95 s": line(beside),
            "heavy views (s each)": f"{len(heavy)} ({statistics.median([v.seconds for v in heavy]):.1f})"}


def wait_until_busy(pid, timeout=30.0):
    """Until the server uses CPU (the heavy view started), or `timeout`."""
    start, cpu = time.perf_counter(), cpu_seconds(pid)
    while time.perf_counter() - start < timeout:
        time.sleep(0.1)
        if cpu_seconds(pid) - cpu > 0.05:
            return True
    return False


def transient_verdict(root):
    """Issue 31: DirectML's worker stopped (SIGSTOP) while two visitors ask for new verdicts; then the second link
    opened again once a new worker runs: does it get a verdict, or the busy answer kept from before?"""
    with served_app(root=root) as (url, process):
        run_visitors(url, [[page] for page in PAGES])
        [worker] = worker_pids(process.pid)
        os.kill(worker, signal.SIGSTOP)
        first, second = (("depth_space", f"pattern=random&seed={seed}", None, 120.0, True) for seed in (9001, 9002))
        # The first call holds the stopped worker until its deadline; the second, asked a moment later, waits for
        # the worker's lock meanwhile and is told DirectML is busy.
        answered = []
        asking = threading.Thread(target=lambda: answered.extend(run_visitors(url, [[first]])))
        asking.start()
        wait_until_busy(process.pid)
        time.sleep(2)
        stopped = run_visitors(url, [[second]])
        asking.join()
        stopped = answered + stopped
        wait_until_idle(process.pid)
        time.sleep(RETRY_SECONDS + 1)  # a transient answer is kept that long for the pages waiting on it
        [again] = run_visitors(url, [[second]])

    def said(visit):
        return f"{visit.verdict_seconds or 0:.1f} s: {(visit.verdict or 'no verdict')[:90]}"

    return {"first link, worker stopped": said(stopped[0]), "second link, worker stopped": said(stopped[1]),
            "second link opened again": said(again)}


def uploads_lockout(root, attackers=14):
    """Issue 31: a few sessions of one visitor fill the server's upload allowance (three 13 MB files each, sessions
    then closed), then five students upload a 15 MB model each: their HTTP statuses."""
    with served_app(root=root) as (url, process):
        run_visitors(url, [[page] for page in PAGES])

        async def sessions(count, files):
            return await asyncio.gather(*(upload_files(url, files, page="onnx_model") for _ in range(count)))

        spam = [s for statuses in asyncio.run(sessions(attackers, [(f"spam{i}.onnx", bytes(13_000_000))
                                                                    for i in range(3)])) for s in statuses]
        students = [s for statuses in asyncio.run(sessions(5, [("model.onnx", bytes(15_000_000))])) for s in statuses]
        idle = memory_of(process.pid)[0]
    def count(statuses):
        return ", ".join(f"{s} x{statuses.count(s)}" for s in sorted(set(statuses), key=str))

    return {f"{attackers} attacker sessions x 3 files of 13 MB": count(spam),
            "then 5 students' uploads of 15 MB": count(students),
            "server MB after": f"{idle / MiB:,.0f}"}


def table(title, before, after):
    print(f"\n**{title}**\n")
    print("| | before | after |")
    print("| --- | --- | --- |")
    for key in before | after:
        print(f"| {key} | {before.get(key, 'not run')} | {after.get(key, 'not run')} |")


def cell(measure):
    return f"{measure['seconds']:.2f} s, +{measure['grown_mb']:,.0f} MB: {measure['result']}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to measure as 'before'")
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["core", "served", "lock", "transient", "uploads", "issue31"])
    parser.add_argument("--attacks", nargs="*", default=None, help="issue 31 attacks to run, by a word of their name")
    parser.add_argument("--before-only", action="store_true", help="measure only the --before checkout")
    parser.add_argument("--only", nargs="*", default=None, help="core attacks to run, by name (default: all)")
    args = parser.parse_args()
    with open("/proc/loadavg") as load:
        print(f"machine load at start: {load.read().split()[:3]}")
    if args.only is not None:
        for name in list(CORE):
            if name not in args.only:
                del CORE[name]
    if "core" not in args.skip:
        before, after = core(args.before.resolve()), core(ROOT)
        table("Core attacks (fresh interpreter each): time, peak growth, outcome",
              {k: cell(v) for k, v in before.items()}, {k: cell(v) for k, v in after.items()})
    if "served" not in args.skip:
        # The old server's freeze link at 1 MB would hold it for hours: it gets the 30 KB one (10.7 s in the issue).
        before, after = served(args.before.resolve(), 15_000), served(ROOT, 499_999)
        table("A class of ten, alone and beside the attackers (freeze link, 65,536-part Split, 3 cap-size links, "
              "30 uploads), fresh server each", before, after)
    if "lock" not in args.skip:
        table("The interpreter lock: a light page beside one heavy view at a time", beside_one_heavy_view(
            args.before.resolve()), {} if args.before_only else beside_one_heavy_view(ROOT))
    if "transient" not in args.skip:
        table("DirectML's worker stopped: two new verdicts asked, then the second link again",
              transient_verdict(args.before.resolve()), {} if args.before_only else transient_verdict(ROOT))
    if "uploads" not in args.skip:
        table("Uploads: sessions of one visitor fill the server's allowance, then students upload",
              uploads_lockout(args.before.resolve()), {} if args.before_only else uploads_lockout(ROOT))
    if "issue31" not in args.skip:
        before = issue31(args.before.resolve(), args.attacks)
        after = {} if args.before_only else issue31(ROOT, args.attacks)
        for name in before:
            table(name, before[name], after.get(name, {k: "not run" for k in before[name]}))
    with open("/proc/loadavg") as load:
        print(f"\nmachine load at end: {load.read().split()[:3]}")


if __name__ == "__main__":
    main()
