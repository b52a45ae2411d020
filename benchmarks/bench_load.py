"""The app under a class: page times for 1, 10 and 30 visitors at once, memory over cap-size links, and one user's
control changes and clicks in Chromium. Prints tables; asserts nothing (tests/load/test_load.py asserts correctness).

    .venv/bin/python benchmarks/bench_load.py                 # this checkout
    .venv/bin/python benchmarks/bench_load.py --root ../old   # another checkout (a git worktree), for "before"
    .venv/bin/python benchmarks/bench_load.py --before ../old --rounds 3 --skip cap browser processes
                                                              # both in one run: the visitors table, servers in turn

Each visitor count gets a freshly started server (cold: the first visitors pay for the imports). A visitor opens the
default pages in turn, each one `--repeat` times, over Streamlit's own websocket (benchmarks/visitor.py), so the
client costs little and the server's cores are what is measured.
"""

import argparse
import json
import statistics
import time
from pathlib import Path

from support.load import PeakMemory, percentile
from support.paths import ROOT
from support.visitor import cpu_seconds, memory_of, run_visitors, served_app, served_behind_nginx

DEFAULT_PAGES = [("", ""), ("depth_space", ""), ("bitwise_or", ""), ("split_join", "")]
CAP_LINK = "dtype=FLOAT64&pattern=random&seed={}&C=64&H=512&W=512"
MiB = 1 << 20


def row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def visitors_table(roots, counts, repeat, runtimes, rounds=1):
    """`roots`: {label: checkout}; with several, each count is served from each checkout in turn, `rounds` times, so
    that the machine's load drifts over all of them alike."""
    print("\n**Visitors at once, fresh server each**: every visitor opens the default pages (overview, depth, "
          f"bitwise, split) in turn, {repeat} page runs each; the server's CPU and memory include its DirectML "
          "worker\n")
    print(row(["checkout", "cross-check", "visitors", "page runs", "failed", "p50 s", "p95 s", "max s", "pages/s",
               "server CPU ms/page", "server peak MB"]))
    print(row(["---", "---"] + ["---:"] * 9))
    for runtime, count, _, (label, root) in ((runtime, count, k, root) for runtime in runtimes for count in counts
                                            for k in range(rounds) for root in roots.items()):
        # Pointing the app at a folder with no DirectML in it leaves ONNX Runtime alone, as on a machine without it.
        env = {} if runtime == "DirectML on" else {"DML_VISUALIZER_DIRECTML": "/nonexistent"}
        with served_app(root=root, env=env) as (url, process), PeakMemory(process.pid) as memory:
            plans = [[DEFAULT_PAGES[(i + k) % len(DEFAULT_PAGES)] for k in range(repeat)] for i in range(count)]
            cpu = cpu_seconds(process.pid)
            start = time.perf_counter()
            visits = run_visitors(url, plans)
            wall = time.perf_counter() - start
            cpu = cpu_seconds(process.pid) - cpu
        seconds = [v.seconds for v in visits]
        failed = sum(not v.ok for v in visits)
        print(row([label, runtime, count, len(visits), failed, f"{percentile(seconds, .5):.2f}",
                   f"{percentile(seconds, .95):.2f}", f"{max(seconds):.2f}", f"{len(visits) / wall:.1f}",
                   f"{1000 * cpu / len(visits):.0f}", f"{memory.peak / MiB:.0f}"]))


def cap_series(root, links):
    print(f"\n**Cap-size links** (FLOAT64 {{1,64,512,512}}, 128 MiB per tensor), {links} distinct seeds one after "
          "another, then 10 more at once\n")
    with served_app(root=root) as (url, process):
        run_visitors(url, [[("depth_space", "")]])
        base = memory_of(process.pid)[0]
        resident, seconds, peaks = [], [], []
        for seed in range(1, links + 1):
            with PeakMemory(process.pid) as memory:
                [visit] = run_visitors(url, [[("depth_space", CAP_LINK.format(seed))]])
            resident.append(memory_of(process.pid)[0])
            seconds.append(visit.seconds)
            peaks.append(memory.peak)
        print(f"- resident after the default page: {base / MiB:.0f} MB; after each link (MB): "
              + ", ".join(f"{r / MiB:.0f}" for r in resident))
        print(f"- one cap-size run: {statistics.median(seconds):.2f} s median; peak during a run "
              f"{max(p - r for p, r in zip(peaks, [base, *resident])) / MiB:.0f} MB above the resident before it")
        with PeakMemory(process.pid) as memory:
            start = time.perf_counter()
            visits = run_visitors(url, [[("depth_space", CAP_LINK.format(1000 + k))] for k in range(10)])
            wall = time.perf_counter() - start
        busy = sum(any("busy" in w for w in v.warnings) for v in visits)
        drawn = sum(v.charts > 0 for v in visits)
        print(f"- 10 at once: {wall:.1f} s for all, {drawn} drawn, {busy} told 'busy', "
              f"{sum(not v.ok for v in visits)} failed; server peak {memory.peak / MiB:.0f} MB, resident after "
              f"{memory_of(process.pid)[0] / MiB:.0f} MB")


def processes_table(counts, visitors, repeat):
    print(f"\n**Processes behind nginx** (serve/serve.sh): {visitors} visitors at once, {repeat} page runs each, "
          "cold processes\n")
    print(row(["processes", "page runs", "failed", "p50 s", "p95 s", "pages/s"]))
    print(row(["---:"] * 6))
    for count in counts:
        with served_behind_nginx(count) as (url, _, _):
            plans = [[DEFAULT_PAGES[(i + k) % len(DEFAULT_PAGES)] for k in range(repeat)] for i in range(visitors)]
            start = time.perf_counter()
            visits = run_visitors(url, plans)
            wall = time.perf_counter() - start
        seconds = [v.seconds for v in visits]
        print(row([count, len(visits), sum(not v.ok for v in visits), f"{percentile(seconds, .5):.2f}",
                   f"{percentile(seconds, .95):.2f}", f"{len(visits) / wall:.1f}"]))


# ---------------------------------------------------------------- one user in Chromium

SIGNATURE = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => [
    gd.data.map(t => [t.name, t.z && t.z.length, t.customdata && t.customdata.length, t.x && t.x.length]),
    (gd.layout.annotations || []).map(a => a.text), (gd.layout.shapes || []).map(s => s.path),
    gd.layout.height]).concat([document.querySelectorAll('[data-testid="stStatusWidget"]').length])"""
CHANGED = f"""(before) => {{ const now = ({SIGNATURE})();
    return JSON.stringify(now) !== before && now[now.length - 1] === 0; }}"""


# The page's main thread is busy in "long tasks" (over 50 ms) while plotly redraws: the browser's own record of them
# tells when a redraw is over, so the next action starts on a quiet page and its time includes the whole redraw.
WATCH_LONG_TASKS = """() => { window.__long = [];
    new PerformanceObserver(list => {
        for (const e of list.getEntries()) window.__long.push(e.startTime + e.duration); })
        .observe({entryTypes: ['longtask']}); }"""
QUIET = "(since) => performance.now() - Math.max(since, ...window.__long) > 400"


def _settle(page):
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=120_000)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=120_000)
    page.evaluate(WATCH_LONG_TASKS)
    page.wait_for_function(QUIET, arg=0, timeout=120_000)


def _timed(page, action):
    """Seconds from the action until the figure shows something new, no run is under way and the browser has
    finished the work it started (its last long task ended), on the page's own clock. Opening the group that
    holds the control is the user finding it, not the app answering: its time is left out."""
    page.wait_for_function(QUIET, arg=0, timeout=120_000)
    before = json.dumps(page.evaluate(SIGNATURE))
    page.opening_ms = 0.0
    start = page.evaluate("performance.now()")
    action()
    start += page.opening_ms
    page.wait_for_function(CHANGED, arg=before, timeout=120_000, polling="raf")
    changed = page.evaluate("performance.now()")
    page.wait_for_function(QUIET, arg=changed, timeout=120_000)
    busy_until = page.evaluate("Math.max(0, ...window.__long)")
    return (max(changed, busy_until) - start) / 1000


def _revealed(page, locator):
    """`locator`, after opening the group of settings beside the figure that holds it when it is folded
    (ui/toolbar.py). A group stays open while the page reruns: only a scenario's first action opens it."""
    if locator.count() and locator.first.is_visible():
        return locator
    opening = page.evaluate("performance.now()")
    try:
        group = page.locator('[data-testid="stSidebar"] [data-testid="stExpander"]').filter(has=locator).first
        group.locator("summary").click()
        locator.first.wait_for(state="visible")
        return locator
    finally:
        page.opening_ms += page.evaluate("performance.now()") - opening  # _timed started it at 0


def _set_number(page, label, value):
    box = _revealed(page, page.locator(f'input[aria-label="{label}"]'))
    box.fill(str(value))
    box.press("Enter")


def _set_text(page, label, value):
    box = _revealed(page, page.locator(f'input[aria-label="{label}"]'))
    box.fill(value)
    box.press("Enter")


def _pick_option(page, label):
    _revealed(page, page.get_by_text(label, exact=True)).first.click()


def _click_cell(page, index):
    """Click the index-th clickable cell of the first figure (its invisible click markers)."""
    point = page.evaluate(
        """(i) => { const gd = document.querySelector('.js-plotly-plot');
                    gd.scrollIntoView({block: 'center'});
                    const t = gd._fullData.find(t => t.type.startsWith('scatter') && t.mode === 'markers'
                                                     && t.x && t.x.length);
                    const k = i % t.x.length;
                    const xa = gd._fullLayout[t.xaxis.replace('x', 'xaxis')];
                    const ya = gd._fullLayout[t.yaxis.replace('y', 'yaxis')];
                    const box = gd.getBoundingClientRect();
                    return [box.left + xa._offset + xa.l2p(t.x[k]), box.top + ya._offset + ya.l2p(t.y[k])]; }""",
        index)
    page.mouse.click(*point)


def scenarios():
    """(name, start path, [actions]) where each action changes the view once."""
    def cycle(values, setter):
        return [lambda page, v=v: setter(page, v) for v in values]

    return [
        ("depth: change C 8 <-> 16 (default size)", "depth_space",
         cycle([16, 8] * 5, lambda p, v: _set_number(p, "C", v))),
        ("depth: change Order (default size)", "depth_space",
         cycle(["COLUMN_ROW_DEPTH", "DEPTH_COLUMN_ROW"] * 5, _pick_option)),
        ("depth: change C through 8..64 (most values new to the server)", "depth_space",
         cycle([16, 24, 32, 8, 40, 48, 16, 56, 64, 8], lambda p, v: _set_number(p, "C", v))),
        ("depth: click a cell (default size)", "depth_space",
         [lambda page, i=i: _click_cell(page, 7 * i + 3) for i in range(10)]),
        ("depth: change BlockSize (drawing cap, 4,096 cells)", "depth_space?C=64&H=8&W=8",
         cycle([4, 8, 2, 4, 8, 2, 4, 8, 2, 4], lambda p, v: _set_number(p, "BlockSize", v))),
        ("depth: click a cell (drawing cap)", "depth_space?C=64&H=8&W=8",
         [lambda page, i=i: _click_cell(page, 397 * i + 11) for i in range(10)]),
        ("bitwise: Sizes 2,3 <-> 3,2 (default size)", "bitwise_or",
         cycle(["3,2", "2,3"] * 5, lambda p, v: _set_text(p, "Sizes", v))),
        ("bitwise: Sizes 2,3 <-> 4,32 (default size <-> drawing cap)", "bitwise_or",
         cycle(["4,32", "2,3"] * 5, lambda p, v: _set_text(p, "Sizes", v))),
        ("bitwise: click a bit (128 elements drawn, cap)", "bitwise_or?or_sizes=4,32&or_rows=128",
         [lambda page, i=i: _click_cell(page, 131 * i + 5) for i in range(10)]),
        ("split: change Axis (default)", "split_join",
         cycle([3, 2] * 5, lambda p, v: _set_number(p, "Axis", v))),
        ("split: click a cell (64 x 64, cap)", "split_join?sj_sizes=64,64&sj_axis=1&sj_split=20,44",
         [lambda page, i=i: _click_cell(page, 263 * i + 9) for i in range(10)]),
    ]


def interactions(root):
    from playwright.sync_api import sync_playwright

    from support.browser import CHROMIUM, CHROMIUM_ARGS

    print("\n**One user in Chromium**: seconds from a control change or click until the new figure is drawn and "
          "no run is under way (10 actions each, the first page load not counted); the messages and bytes the "
          "server sent per action over the websocket (median), a measure of what a rerun redraws\n")
    print(row(["action", "p50 s", "p95 s", "max s", "messages", "kB sent"]))
    print(row(["---", "---:", "---:", "---:", "---:", "---:"]))
    with served_app(root=root) as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, path, actions in scenarios():
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            received = []  # sizes of the server's websocket messages, each a delta, a status or a figure
            page.on("websocket", lambda socket, received=received: socket.on(
                "framereceived", lambda frame: received.append(len(frame))))
            page.goto(f"{url}/{path}")
            _settle(page)
            times, counts, sizes = [], [], []
            for action in actions:
                already = len(received)
                try:
                    times.append(_timed(page, lambda action=action, page=page: action(page)))
                except Exception as error:  # a scenario the checkout cannot do (an older page) is reported
                    print(row([name, "failed", type(error).__name__, "", "", ""]))
                    break
                counts.append(len(received) - already)
                sizes.append(sum(received[already:]))
            if times:
                print(row([name, f"{percentile(times, .5):.2f}", f"{percentile(times, .95):.2f}",
                           f"{max(times):.2f}", f"{statistics.median(counts):.0f}",
                           f"{statistics.median(sizes) / 1000:.1f}"]))
            context.close()
        browser.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--before", type=Path, help="another checkout, served in turn with --root (visitors table)")
    parser.add_argument("--rounds", type=int, default=1, help="times each checkout serves each visitor count")
    parser.add_argument("--visitors", type=int, nargs="*", default=[1, 10, 30])
    parser.add_argument("--repeat", type=int, default=3, help="page runs per visitor")
    parser.add_argument("--directml", nargs="*", default=["DirectML on", "DirectML off"],
                        choices=["DirectML on", "DirectML off"], help="cross-check runtimes to serve the visitors with")
    parser.add_argument("--links", type=int, default=12, help="distinct cap-size links in the memory series")
    parser.add_argument("--processes", type=int, nargs="*", default=[1, 2],
                        help="app processes behind nginx to compare (this checkout only)")
    parser.add_argument("--skip", nargs="*", default=[], choices=["visitors", "cap", "browser", "processes"])
    args = parser.parse_args()
    print(f"Serving {args.root.resolve()}")
    if "visitors" not in args.skip:
        roots = {"after": args.root, "before": args.before} if args.before else {"this": args.root}
        visitors_table(roots, args.visitors, args.repeat, args.directml, args.rounds)
    if "cap" not in args.skip:
        cap_series(args.root, args.links)
    if "processes" not in args.skip:
        processes_table(args.processes, 30, args.repeat)
    if "browser" not in args.skip:
        interactions(args.root)


if __name__ == "__main__":
    main()
