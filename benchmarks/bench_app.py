"""Page timings and figure sizes, run through app.py with AppTest, plus the cold start in Chromium.

    .venv/bin/python benchmarks/bench_app.py [--reruns 5] [--no-browser]

For every page of the registry (app_pages/registry.py): one run at default settings and, where a configuration is
known, one at the render cap (4,096 cells per heatmap) and one far past it ("large"); each reports the first run (caches
cold), the median of reruns, and the bytes of Plotly specs sent. Goals: <= 150 ms per rerun at
default, <= 1 s at the cap, figures <= 2 MB. Cold start: the server launched to the first chart drawn in Chromium.
"""

import argparse
import statistics
import time

from streamlit import logger as streamlit_logger
from streamlit.testing.v1 import AppTest

from app_pages.registry import BITWISE, DEPTH_SPACE, PAGES, SPLIT_JOIN
from support.app import open_page
from support.browser import CHROMIUM_ARGS
from support.paths import ROOT
from support.visitor import served_app
from ui.url_state import query_of

GOALS = {"default": 0.150, "cap": 1.0, "large": 1.0}
FIGURE_BUDGET = 2_000_000

# Settings (given as the page's URL) that fill a page up to its drawing cap (pages not listed get the default run).
CAP_STATES = {
    DEPTH_SPACE.url_path: dict(N=1, C=256, H=4, W=4, BlockSize=2),  # 4,096 elements, 64 frames
    BITWISE.url_path: dict(or_sizes="128,32", or_rows=128),
    SPLIT_JOIN.url_path: dict(sj_sizes="1,1,64,64", sj_split="16,16,32"),
}
# Tensors far past the drawing cap: computed and cross-checked whole, drawn in part.
LARGE_STATES = {
    DEPTH_SPACE.url_path: dict(N=2, C=64, H=128, W=128, BlockSize=4),  # 2,097,152 elements
}


def page_run(page, settings, reruns):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    for key, text in query_of(settings).items():
        at.query_params[key] = text
    open_page(at, page)
    start = time.perf_counter()
    at.run()
    first = time.perf_counter() - start
    times = []
    for _ in range(reruns):
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
    # ui.charts' component carries its figure as JSON bytes
    spec_bytes = sum(len(chart.proto.bytes) for chart in at.get("bidi_component"))
    problems = [e.value for e in at.exception]
    return first, statistics.median(times), spec_bytes, problems


def cold_start(chromium="/usr/bin/chromium"):
    """Seconds from launching the server to a healthy server, and to the overview's first chart in Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        start = time.perf_counter()
        try:
            with served_app() as (url, _):
                served = time.perf_counter() - start
                page = browser.new_page()
                page.goto(url)
                page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60_000)
                drawn = time.perf_counter() - start
        finally:
            browser.close()
    return served, drawn


def main():
    # AppTest runs pages outside a server; Streamlit warns about that on every run.
    streamlit_logger.set_log_level("error")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=5)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()

    print(f"{'page':<16} {'settings':<8} {'first run':>10} {'rerun (median)':>15} {'figures':>12}  verdict")
    for page in PAGES:
        name = page.url_path
        runs = [("default", {})] + ([("cap", CAP_STATES[name])] if name in CAP_STATES else []) \
            + ([("large", LARGE_STATES[name])] if name in LARGE_STATES else [])
        for label, state in runs:
            first, rerun, spec_bytes, problems = page_run(page, state, args.reruns)
            ok = rerun <= GOALS[label] and spec_bytes <= FIGURE_BUDGET and not problems
            verdict = "ok" if ok else "OVER GOAL" + (f" (exception: {problems[0][:60]})" if problems else "")
            print(f"{name or 'overview':<16} {label:<8} {first * 1000:>8.0f}ms {rerun * 1000:>13.0f}ms "
                  f"{spec_bytes / 1000:>10.1f}kB  {verdict}")
    if not args.no_browser:
        served, drawn = cold_start()
        print(f"cold start: server healthy after {served:.2f} s, first chart drawn in Chromium after {drawn:.2f} s")


if __name__ == "__main__":
    main()
