"""The app as a class uses it: a freshly started server, many sessions at once over Streamlit's real websocket.

Correctness under load is asserted (no exception element, every run finishes, memory bounded); the timings of the
same runs are printed by benchmarks/bench_load.py, never asserted here.
"""


import pytest

from support.load import PAGES, GiB, PeakMemory, failures
from support.visitor import memory_of, run_visitors, served_app

pytestmark = pytest.mark.load

UNCHARTED = ("workbench", "onnx_model")  # their defaults show tables and text, no figure
# The app's cap: FLOAT64 {1, 64, 512, 512} = 2^24 elements, 128 MiB per tensor; links differ by the seed only.
CAP_LINK = "dtype=FLOAT64&pattern=random&seed={}&C=64&H=512&W=512"


def test_thirty_visitors_opening_every_page_at_once_on_a_fresh_server_see_no_exception():
    with served_app() as (url, _):
        # Each visitor starts on another page, so every page runs for the first time under concurrency.
        plans = [[PAGES[(i + k) % len(PAGES)] for k in range(len(PAGES))] for i in range(30)]
        visits = run_visitors(url, plans)
    assert len(visits) == 30 * len(PAGES)
    assert not failures(visits), failures(visits)
    assert not [v.errors for v in visits if v.errors]
    drawn = {v.page: v.charts for v in visits}
    assert all(drawn[page] >= 1 for page, _ in PAGES if page not in UNCHARTED), drawn


def test_memory_stays_bounded_over_distinct_cap_size_links_and_ten_at_once_queue():
    with served_app() as (url, process):
        run_visitors(url, [[("depth_space", "")]])
        resident = []
        for seed in range(1, 13):
            [visit] = run_visitors(url, [[("depth_space", CAP_LINK.format(seed))]])
            assert visit.ok and visit.charts == 1, (visit.exceptions, visit.errors, visit.warnings, visit.failure)
            resident.append(memory_of(process.pid)[0])
        # Goal: at most 1.5 GB after 12 distinct cap-size links, and flat after that.
        assert max(resident) <= 1.5 * GiB, [r >> 20 for r in resident]
        assert resident[-1] - resident[5] <= 128 << 20, [r >> 20 for r in resident]

        with PeakMemory(process.pid) as memory:
            visits = run_visitors(url, [[("depth_space", CAP_LINK.format(100 + k))] for k in range(10)])
        assert not failures(visits), failures(visits)
        for visit in visits:
            busy = any("busy" in w for w in visit.warnings)
            assert visit.charts == 1 or busy, (visit.errors, visit.warnings)
        # Ten at once queue through the work budget instead of holding ten cap-size runs (about 5 GB).
        assert memory.peak <= 2 * GiB, memory.peak >> 20
