"""How soon a fresh browser sees an operator page's first figure, against a page holding one Streamlit heatmap.

    .venv/bin/python benchmarks/bench_first_figure.py [--runs 7] [--root PATH] [--before PATH]

Servers with the same settings (this checkout's .streamlit/config.toml and flags): the app (`--root` serves another
checkout), a one-page app whose script draws one st.plotly_chart heatmap, and with `--before`, another checkout's app
beside it (its pages named "before/..."), so that before and after are measured in one run. Each run opens
every page in a fresh Chromium context (nothing cached), the pages in turn so that the machine's load drifts over all
of them alike, and reads from the browser's clock, from navigation start:

- drawn: the first figure's heatmap is on screen (its first `.hm` image or heatmap text);
- element: the figure's element was created (the page's script reached it and the browser mounted it);
- plotly: plotly.js was fetched (its resource timing's end), when the page loads it as a file;
- ready: plotly.js had run (window.Plotly was set), when the page loads it as a script of its own.

Each server's caches are warmed by one untimed visit per page first: a class opens one link after the teacher.
Medians are printed with the ratio to the one-heatmap page and the machine's load average.
"""

import argparse
import contextlib
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from support.browser import CHROMIUM, CHROMIUM_ARGS
from support.paths import ROOT
from support.visitor import served_app

PAGES = ("depth_space", "bitwise_or", "split_join", "gather_scatter", "slice_pad", "layouts")
ONE_HEATMAP = '''"""One heatmap, drawn by Streamlit's own chart: the reference for a page's first figure."""
import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="One heatmap", layout="wide")
st.title("One heatmap")
z = np.arange(48).reshape(6, 8)
st.plotly_chart(go.Figure(go.Heatmap(z=z, text=z, texttemplate="%{text}", showscale=False)))
'''
# Milliseconds from navigation start, read in the page once its first figure is drawn.
TIMES = """() => {
    const plot = document.querySelector('.js-plotly-plot');
    const plotly = performance.getEntriesByType('resource').find(entry => /plotly[^/]*\\.js/i.test(entry.name));
    return {drawn: performance.now(), element: window.__firstElement ?? null,
            plotly: plotly ? plotly.responseEnd : null, ready: window.__plotlyReady ?? null, heatmap: Boolean(plot)};
}"""
# Records when the first chart element appears (a MutationObserver installed before any script of the page runs).
WATCH = """
window.__firstElement = null;
new MutationObserver((records, observer) => {
    if (document.querySelector('.dml-chart, .js-plotly-plot, [data-testid="stPlotlyChart"]')) {
        window.__firstElement = performance.now();
        observer.disconnect();
    }
}).observe(document, {childList: true, subtree: true});
window.__plotlyReady = null;
let plotly;
Object.defineProperty(window, 'Plotly', {
    configurable: true, get: () => plotly,
    set: value => { plotly = value; window.__plotlyReady ??= performance.now(); }});
"""
DRAWN = ("() => [...document.querySelectorAll('.js-plotly-plot')].some(plot => "
         "plot.querySelector('.hm, .heatmaplayer image, .heatmaplayer text'))")


def one_heatmap_app(folder):
    """The reference app in `folder`, with this checkout's server settings."""
    folder = Path(folder)
    shutil.copytree(ROOT / ".streamlit", folder / ".streamlit")
    (folder / "app.py").write_text(ONE_HEATMAP)
    return folder


def visit(browser, url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        page.goto(url)
        page.wait_for_function(DRAWN, timeout=120_000, polling="raf")
        return page.evaluate(TIMES)
    finally:
        context.close()


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose app is measured")
    parser.add_argument("--before", help="another checkout, measured in the same run")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        reference, _ = stack.enter_context(served_app(root=one_heatmap_app(folder)))
        app, _ = stack.enter_context(served_app(root=args.root))
        urls = {"one heatmap": reference, **{page: f"{app}/{page}" for page in PAGES}}
        if args.before:
            before, _ = stack.enter_context(served_app(root=args.before))
            urls.update({f"before/{page}": f"{before}/{page}" for page in PAGES})
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        for url in urls.values():  # warm each server's caches, as the teacher's first visit does
            visit(browser, url)
        loads = [os.getloadavg()[0]]
        runs = {name: [] for name in urls}
        for _ in range(args.runs):
            for name, url in urls.items():
                runs[name].append(visit(browser, url))
            loads.append(os.getloadavg()[0])
    base = median([r["drawn"] for r in runs["one heatmap"]])
    print(f"checkout {args.root}{f', before: {args.before}' if args.before else ''}; {args.runs} runs; "
          f"load average (1 min) {min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} cores")
    print(f"{'page':<21} {'drawn':>8} {'x heatmap':>10} {'element':>9} {'plotly.js':>10} {'ready':>8}"
          "   (medians, ms from navigation)")
    for name, samples in runs.items():
        drawn = median([r["drawn"] for r in samples])
        element = median([r["element"] for r in samples])
        plotly, ready = (median([r[key] for r in samples]) for key in ("plotly", "ready"))
        print(f"{name:<21} {drawn:>8.0f} {drawn / base:>10.2f} {_ms(element):>9} {_ms(plotly):>10} {_ms(ready):>8}")


def _ms(value):
    return "-" if value is None else f"{value:.0f}"


if __name__ == "__main__":
    main()
