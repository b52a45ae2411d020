"""Figure builders before and after the plain-dict specs: build, to_dict, to_json and size, side by side.

    .venv/bin/python benchmarks/bench_figures.py [--before REF] [--repeats N]

"Before" is viz/ as it stands at git REF (default ea9defa, the last commit whose builders made plotly graph
objects), loaded from git into a temporary package; "after" is viz/ in this tree. Both get the same arrays.
Columns: the builder's time; to_dict (what st.plotly_chart calls first); plotly.io.to_json of that dict
with the `json` engine and with `orjson` (what st.plotly_chart calls next: plotly picks orjson whenever it
is installed); the JSON's size; whether before and after give equal JSON (parsed, so key order aside); and
for the figures that draw picks, with_pick on the cached plain figure (the click path). Medians of
--repeats runs, in ms, on whatever else the machine is doing: timings are printed, never asserted.
"""

import argparse
import importlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import plotly.io as pio

from ops.operators.bitwise import bit_or
from ops.operators.depth_space import depth_to_space
from support.paths import ROOT

BUILDERS = {
    "depth_space": ("depth_space_fig", "depth_space_figure"),
    "bitwise": ("bitwise_fig", "bitwise_figure"),
    "split_join": ("split_join_fig", "split_join_figure"),
    "memory_map": ("memory_map_fig", "memory_map_figure"),
    "tensor_heatmap": ("workbench_fig", "tensor_heatmap"),
}


def counting(shape, dtype=np.uint32):
    return np.arange(np.prod(shape)).astype(dtype).reshape(shape)


def depth_space_args(c, h, w):
    x = counting((1, c, h, w))
    return (x, depth_to_space(x, 2, "DCR"), 2, "DCR", "depth_to_space"), {}


def bitwise_args(count):
    a = counting((count,))
    b = np.flip(a).copy()
    return (a, b, bit_or(a, b)), {}


def split_join_args(shape, sizes):
    return (counting(shape, np.float32) + 1, 2, sizes), {}


# (label, builder, args) at the pages' defaults and at the drawing cap (4,096 cells, up to 64 frames),
# the cap sizes being those of benchmarks/bench_app.py.
CASES = [
    ("depth_space default {1,8,2,3}", "depth_space", lambda: depth_space_args(8, 2, 3)),
    ("depth_space cap {1,256,4,4}", "depth_space", lambda: depth_space_args(256, 4, 4)),
    ("bitwise default 2x3 UINT32", "bitwise", lambda: bitwise_args(6)),
    ("bitwise cap 128 UINT32", "bitwise", lambda: bitwise_args(128)),
    ("split_join default {1,1,6,2}", "split_join", lambda: split_join_args((1, 1, 6, 2), [2, 1, 3])),
    ("split_join cap {1,1,64,64}", "split_join", lambda: split_join_args((1, 1, 64, 64), [16, 16, 32])),
    ("memory_map padded rows", "memory_map", lambda: (([1, 1, 3, 4], [18, 18, 6, 1], 4, 72), {})),
    ("memory_map cap FLOAT32 [100,100]", "memory_map", lambda: (([100, 100], None, 4, 40000), {})),
    ("tensor_heatmap {1,2,4,6}", "tensor_heatmap",
     lambda: ((counting((1, 2, 4, 6)), "t"), {})),
    ("tensor_heatmap cap [64,64]", "tensor_heatmap",
     lambda: ((counting((64, 64), np.float32), "t"), {})),
]
PICKS = {"depth_space": 11, "bitwise": (3, 5), "split_join": (0, 0, 3, 1)}


def load_before(ref):
    """viz/ at git `ref` as the package viz_before, imported from a temporary directory."""
    names = subprocess.run(["git", "ls-tree", "--name-only", ref, "viz/"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    package = Path(tempfile.mkdtemp()) / "viz_before"
    package.mkdir()
    for name in names:
        source = subprocess.run(["git", "show", f"{ref}:{name}"], cwd=ROOT, check=True, capture_output=True,
                                text=True).stdout
        (package / Path(name).name).write_text(source)
    sys.path.insert(0, str(package.parent))
    return "viz_before"


def median_ms(fn, repeats):
    fn()  # warm-up: imports, caches
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def measure(package, builder, args, kwargs, repeats):
    module, function = BUILDERS[builder]
    build = getattr(importlib.import_module(f"{package}.{module}"), function)
    figure = build(*args, **kwargs)
    spec = figure.to_dict()
    row = dict(
        build=median_ms(lambda: build(*args, **kwargs), repeats),
        to_dict=median_ms(figure.to_dict, repeats),
        json=median_ms(lambda: pio.to_json(spec, validate=False, engine="json"), repeats),
        orjson=median_ms(lambda: pio.to_json(spec, validate=False, engine="orjson"), repeats),
        size=len(pio.to_json(spec, validate=False, engine="json")),
        parsed=json.loads(pio.to_json(spec, validate=False, engine="json")),
    )
    if package == "viz" and builder in PICKS:
        overlay = importlib.import_module(f"viz.{module}").with_pick
        row["with_pick"] = median_ms(lambda: overlay(figure, PICKS[builder]), repeats)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="ea9defa", help="git ref of the viz/ to compare against")
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    before = load_before(options.before)
    print(f"before = viz/ at {options.before}, after = this tree; median of {options.repeats} runs, ms; "
          f"plotly.io JSON engine by default: {pio.json.config.default_engine}\n")
    print("| figure | build before | build after | to_dict before | to_dict after | to_json json before "
          "| to_json json after | to_json orjson before | to_json orjson after | KB | same JSON | with_pick |")
    print("| --- | " + " | ".join(["---:"] * 9) + " | --- | ---: |")
    for label, builder, make_args in CASES:
        args, kwargs = make_args()
        old = measure(before, builder, args, kwargs, options.repeats)
        new = measure("viz", builder, args, kwargs, options.repeats)
        cells = [f"{old[k]:.1f} | {new[k]:.1f}" for k in ("build", "to_dict", "json", "orjson")]
        pick = f"{new['with_pick']:.2f}" if "with_pick" in new else ""
        same = "yes" if old["parsed"] == new["parsed"] else "NO"
        print(f"| {label} | {' | '.join(cells)} | {new['size'] / 1024:.0f} | {same} | {pick} |")


if __name__ == "__main__":
    main()
