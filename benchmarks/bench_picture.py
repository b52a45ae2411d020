"""The classroom picture measured (issue 22): how much of an operator page's first figure a learner sees with a
control open, and how the figure fits a 1280x720 projector.

    .venv/bin/python benchmarks/bench_picture.py [--root PATH] [--before PATH]

Serves this checkout (or `--root`) and, with `--before`, another checkout beside it, so that before and after are
measured in one run, and prints per operator page:

- in sight: the smallest share of the first figure on screen and uncovered while one of the page's controls is open
  (a popover of the older toolbar, or a group of settings beside the figure), at 1400x1000 and at 800x900; the
  share counts points of a 30x30 grid over the figure's box that are in the window and hit the figure itself;
- projector: with ?present=true at 1280x720, the first figure's bottom and its Play's bottom (px from the window's
  top: more than 720 is below the screen) and the smallest cell number drawn (px).

Geometry, not time: one visit per page and size is enough. The machine's load average is printed beside.
"""

import argparse
import contextlib
import os

from playwright.sync_api import sync_playwright

from support.browser import CHROMIUM, CHROMIUM_ARGS, SETTINGS_GROUPS, visible_share
from support.paths import ROOT
from support.visitor import served_app

WINDOWS = ((1400, 1000), (800, 900))
PROJECTOR = (1280, 720)
TIMEOUT = 60_000
CHART = ".js-plotly-plot .main-svg"
# Not support.browser's SETTLED: a checkout before issue 21 does not mark its charts aria-busy, so any mark but busy
# counts; and the first figure is any plotly plot (`--before`'s charts have no .dml-chart class).
SETTLED = """() => !document.querySelector('[data-testid="stStatusWidget"]')
    && [...document.querySelectorAll('.dml-chart')].every(c => c.getAttribute('aria-busy') !== 'true')"""
PROJECTED = """() => {
    const plot = document.querySelector('.js-plotly-plot');
    const play = [...plot.querySelectorAll('.updatemenu-button')].find(b => b.textContent.trim() === 'Play');
    const sizes = [...plot.querySelectorAll('.heatmaplayer text')]
        .filter(t => t.textContent.trim() && Number(getComputedStyle(t).fillOpacity) > 0
                     && getComputedStyle(t).fill !== 'rgba(0, 0, 0, 0)')
        .map(t => parseFloat(getComputedStyle(t).fontSize));
    return {bottom: plot.getBoundingClientRect().bottom, play: play ? play.getBoundingClientRect().bottom : null,
            smallest: sizes.length ? Math.min(...sizes) : null};
}"""


def settle(page):
    page.wait_for_selector(CHART, timeout=TIMEOUT)
    page.wait_for_function(SETTLED, timeout=TIMEOUT)


def open_control(page, label):
    """Open the control `label`: a popover's button in the page, or else a group's expander in the sidebar.
    Returns how to close it again."""
    popover = page.locator('[data-testid="stPopover"] button').filter(has_text=label)
    if popover.count():
        popover.first.click()
        page.locator('[data-testid="stPopoverBody"]').first.wait_for(timeout=TIMEOUT)
        return lambda: page.keyboard.press("Escape")
    expander = page.locator('[data-testid="stSidebar"] [data-testid="stExpander"]').filter(
        has=page.locator("summary p").get_by_text(label, exact=True)).first
    if page.locator('[data-testid="stSidebar"][aria-expanded="false"]').count():
        page.locator('[data-testid="stExpandSidebarButton"]').click()
    expander.wait_for(timeout=TIMEOUT)
    if expander.locator("details[open]").count() == 0:
        expander.locator("summary").click()
    expander.locator("details[open]").wait_for(timeout=TIMEOUT)
    return lambda: expander.locator("summary").click()


def in_sight(browser, url, size, labels):
    """The smallest share of the first figure in sight while one of `labels` is open, and the control it was."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        page.goto(url)
        settle(page)
        shares = []
        for label in labels:
            close = open_control(page, label)
            page.wait_for_function(SETTLED, timeout=TIMEOUT)
            shares.append((visible_share(page, ".js-plotly-plot"), label))
            close()
        return min(shares)
    finally:
        context.close()


def projected(browser, url):
    context = browser.new_context(viewport={"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page = context.new_page()
    try:
        page.goto(f"{url}?present=true")
        settle(page)
        return page.evaluate(PROJECTED)
    finally:
        context.close()


def measure(browser, name, url):
    for path, labels in SETTINGS_GROUPS.items():
        sight = [in_sight(browser, f"{url}/{path}", size, labels) for size in WINDOWS]
        shown = projected(browser, f"{url}/{path}")
        sight_text = "  ".join(f"{w}x{h}: {share:4.0%} ({label} open)"
                               for (w, h), (share, label) in zip(WINDOWS, sight))
        play = "no Play" if shown["play"] is None else f"Play ends {shown['play']:.0f}"
        smallest = "none" if shown["smallest"] is None else f"{shown['smallest']:.0f} px"
        print(f"{name:6} {path:12} in sight {sight_text} | projector: figure ends {shown['bottom']:.0f}, {play}, "
              f"smallest cell number {smallest}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=str(ROOT), help="the checkout measured (default: this one)")
    parser.add_argument("--before", help="another checkout, measured in the same run")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with contextlib.ExitStack() as stack, sync_playwright() as playwright:
        servers = [("after", stack.enter_context(served_app(root=args.root))[0])]
        if args.before:
            servers.insert(0, ("before", stack.enter_context(served_app(root=args.before))[0]))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, url in servers:
            measure(browser, name, url)
        browser.close()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
