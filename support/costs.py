"""What a view really costs beside what it was estimated to cost: the corpus of issue 31's point 3, shared by its
tests and benchmarks. Each measure runs in a fresh interpreter, so that its peak memory is its own."""

import json
import subprocess
import sys
import textwrap

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
shared.wait_for_background()
cpu = time.process_time() - cpu
print(json.dumps(dict(cpu=cpu, grown=peak_grown(before), seconds=max(recorded["seconds"], default=0),
                      bytes=max(recorded["bytes"], default=0), exception=bool(at.exception),
                      messages=[w.value[:200] for w in list(at.warning) + list(at.error)])))
"""


def peak_reset():
    """Reset this process's peak resident size (Linux: /proc/self/clear_refs, 5) and return the resident size now."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    return _status("VmRSS")


def peak_grown(before):
    return _status("VmHWM") - before


def _status(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) << 10
    return 0


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


def view_cost(page, query, root=ROOT, timeout=600, unbounded=False):
    """{"cpu": s, "grown": peak bytes over the start, "seconds": estimated s, "bytes": estimated bytes, ...} of one
    run of `page` (app_pages/...) with `query` (a query string), cross-checks included, in a fresh interpreter;
    `unbounded`: past the heavy lane's limit too (calibration)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_VIEW), page, query,
                           "unbounded" if unbounded else "bounded"], capture_output=True,
                          text=True, timeout=timeout, cwd=root)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])
