"""What a view really costs beside what it was estimated to cost: the corpus of issue 31's point 3, shared by its
tests and benchmarks. Each measure runs in a fresh interpreter, so that its peak memory is its own."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap

from ops.isolated import status_bytes

from .paths import ROOT

_VIEW = """
import json, resource, sys, time, urllib.parse
from support.costs import estimates_recorded, peak_reset, peak_grown
from support.app import run_through_app
from ui import shared
page, query = sys.argv[1], dict(urllib.parse.parse_qsl(sys.argv[2], keep_blank_values=True))
if sys.argv[3] == "unbounded":  # calibration: measure views past the lane's limit too
    shared.LANE.most = float("inf")
run_through_app(page)  # imports, first compiles, the page's own cached defaults
shared.wait_for_background()
recorded = estimates_recorded()
before = peak_reset()
cpu = time.process_time()
at = run_through_app(page, query=query)
if sys.argv[4]:  # a file to upload into the page's uploader, then the run that reads it
    from pathlib import Path
    from support.app import uploader
    uploader(at).set_value((Path(sys.argv[4]).name, Path(sys.argv[4]).read_bytes(), "application/octet-stream")).run()
shared.wait_for_background()
cpu = time.process_time() - cpu
print(json.dumps(dict(cpu=cpu, grown=peak_grown(before), seconds=sum(recorded["seconds"]),
                      bytes=sum(recorded["bytes"]), exception=bool(at.exception),
                      messages=[w.value[:200] for w in list(at.warning) + list(at.error)])))
"""


def peak_reset():
    """Reset this process's peak resident size (Linux: /proc/self/clear_refs, 5) and return the resident size now."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    return status_bytes("VmRSS")


def peak_grown(before):
    return status_bytes("VmHWM") - before


def estimates_recorded():
    """{"seconds": [...], "bytes": [...]}: every estimate the views of this process admit from now on (the heavy
    lane's seconds, the work budget's bytes)."""
    from ui import shared

    recorded = {"seconds": [], "bytes": []}
    lane_admit, budget_admit = shared.LANE.admit, shared.BUDGET.admit

    def lane(seconds, *args, **kwargs):
        recorded["seconds"].append(seconds)
        return lane_admit(seconds, *args, **kwargs)

    def budget(nbytes, *args, **kwargs):
        recorded["bytes"].append(nbytes)
        return budget_admit(nbytes, *args, **kwargs)

    shared.LANE.admit, shared.BUDGET.admit = lane, budget
    return recorded


def view_cost(page, query, root=ROOT, timeout=600, unbounded=False, upload=None):
    """{"cpu": s, "grown": peak bytes over the start, "seconds": estimated s, "bytes": estimated bytes (every estimate
    admitted, the page's and its cross-checks', added up), "messages": its warnings and errors} of one run of `page`
    (a registry page's script path or url path) with `query` (a query string), cross-checks included, in a fresh
    interpreter; `unbounded`: past the heavy lane's limit too (calibration); `upload`: (file name, bytes) put in the
    page's file uploader after its first run, the run that reads it measured too."""
    with tempfile.TemporaryDirectory() as folder:
        path = ""
        if upload is not None:
            path = os.path.join(folder, upload[0])
            with open(path, "wb") as file:
                file.write(upload[1])
        # Without DirectML, as on a server where it cannot run: the cross-checks then run on ONNX Runtime in the
        # server's own process, where the estimates must cover them (with DirectML they run in its worker, and a
        # 20,000-part Split cost the page's process 1.9 s against 4.7 s without it).
        env = {**os.environ, "DML_VISUALIZER_DIRECTML": os.path.join(folder, "no-directml")}
        return _measured(page, query, root, timeout, unbounded, path, env)


def _measured(page, query, root, timeout, unbounded, path, env):
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_VIEW), page, query,
                           "unbounded" if unbounded else "bounded", path], capture_output=True,
                          text=True, timeout=timeout, cwd=root, env=env)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])
