"""A class with DirectML on (issue 23, point 10): visitors open the three operator pages at once on a fresh server.

Rounds, each on its own fresh server: every visitor opening one operator page (a third of the class on each), then
every visitor opening all three in turn, on the pages' default settings (one DirectML operator per
page, compiled once for all), the same with DirectML off (ONNX Runtime alone, the cost of DirectML side by side),
the defaults again through nginx with two app processes (serve/serve.sh, each with its own DirectML worker), then
every visitor on settings of its own (sizes, types and orders: each visit a
distinct operator for the DirectML worker to compile). For each: page times, failures, the server's and its
DirectML worker's peak resident memory, and the seconds until the last DirectML verdict had been computed (the
pages never wait for it; the server computes it beside them). Prints a table; asserts nothing (tests/load asserts
correctness under load).

    .venv/bin/python benchmarks/bench_class_directml.py [--visitors 30] [--root <checkout>]
"""

import argparse
import contextlib
import os
import time
from pathlib import Path

from support.load import PeakMemory, percentile, worker_pids
from support.paths import ROOT
from support.visitor import memory_of, run_visitors, served_app, served_behind_nginx

MiB = 1 << 20
PAGES = ("depth_space", "bitwise_or", "split_join")
TYPES = ("UINT32", "FLOAT32", "UINT8", "INT16", "FLOAT16", "UINT64")


def default_plans(visitors, pages=3):
    """Each visitor opens `pages` of the three pages in turn, starting at a different one (a third of the class
    on each)."""
    return [[(PAGES[(i + k) % 3], "") for k in range(pages)] for i in range(visitors)]


def distinct_plans(visitors):
    """Each visitor opens the three pages with settings no other visitor uses."""
    plans = []
    for i in range(visitors):
        dtype = TYPES[i % len(TYPES)]
        order = "DEPTH_COLUMN_ROW" if i % 2 else "COLUMN_ROW_DEPTH"
        plans.append([
            ("depth_space", f"dtype={dtype}&C=8&H={2 + i}&W=3&Order={order}"),
            ("bitwise_or", f"dtype={dtype}&or_sizes=2,{3 + i}"),
            ("split_join", f"dtype={dtype}&sj_sizes=1,1,{6 + i},2&sj_split=2,1,{3 + i}"),
        ])
    return plans


@contextlib.contextmanager
def one_process(root, env):
    with served_app(root=root, env=env) as (url, process):
        yield url, process


@contextlib.contextmanager
def two_processes(root, env):
    """serve/serve.sh's nginx and two app processes (this checkout's): its process group is measured as one."""
    with served_behind_nginx(2) as (url, _, server):
        yield url, server


def round_of(root, name, plans, quiet_seconds, env=None, serve=one_process):
    with serve(root, env) as (url, process):
        # The launcher starts the worker before it listens; one look at the Overview finishes the session imports.
        run_visitors(url, [[("", "")]])
        before = memory_of(process.pid)[0]
        with PeakMemory(process.pid) as peaks:
            start = time.perf_counter()
            visits = run_visitors(url, plans)
            pages_done = time.perf_counter() - start
            # The verdicts are computed beside the pages: wait until the server has been idle for a while.
            while time.perf_counter() - peaks.last_busy < quiet_seconds:
                time.sleep(0.1)
            checks_done = peaks.last_busy - start
        seconds = [v.seconds for v in visits]
        after = memory_of(process.pid)[0]
        workers = worker_pids(process.pid)
    print(f"| {name} | {len(plans)} | {len(visits)} | {sum(not v.ok for v in visits)} | "
          f"{percentile(seconds, .5):.2f} | {percentile(seconds, .95):.2f} | {max(seconds):.2f} | {pages_done:.1f} | "
          f"{checks_done:.1f} | {before / MiB:.0f} | {peaks.peak / MiB:.0f} | {peaks.worker / MiB:.0f} | "
          f"{after / MiB:.0f} | {len(workers)} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--visitors", type=int, default=30)
    parser.add_argument("--quiet", type=float, default=3.0, help="idle seconds that mean the verdicts are done")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| settings | visitors | page runs | failed | p50 s | p95 s | max s | all pages s | all verdicts s | "
          "server MB before | server peak MB | worker peak MB | server MB after | workers |")
    print("| --- | " + "---: | " * 13)
    round_of(args.root, "defaults, one page each", default_plans(args.visitors, pages=1), args.quiet)
    round_of(args.root, "defaults", default_plans(args.visitors), args.quiet)
    # A folder with no DirectML in it leaves ONNX Runtime alone, as on a machine without DirectML.
    round_of(args.root, "defaults, DirectML off", default_plans(args.visitors), args.quiet,
             env={"DML_VISUALIZER_DIRECTML": "/nonexistent"})
    round_of(args.root, "defaults, 2 processes", default_plans(args.visitors), args.quiet, serve=two_processes)
    round_of(args.root, "distinct", distinct_plans(args.visitors), args.quiet)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
