"""The Operator catalogue's one-click run, as a visitor waits for it: a fresh app server (serve.launch, as the tests
serve it), Debian's Chromium through Playwright, the time from the click on "Run on DirectML" to DirectML's output
compared with its ONNX twin on the page. For each operator: the first click on a fresh server (DirectML compiles
the operator in its worker, runs it, the twin runs on ONNX Runtime, the figures are made), then the same click from a
second and a third visitor (the run is shared: only the page's own run and the browser's drawing).
The server's own share of the wait is the time the page states. The worker is started by the first page's sidebar
(ops.directml_status), before any click. Asserts nothing (tests/browser/test_browser_catalogue.py asserts the run).

Run: .venv/bin/python benchmarks/bench_catalogue_click.py [OPERATOR ...]   (default: GEMM CONVOLUTION)
"""

import os
import re
import sys
import time

from playwright.sync_api import sync_playwright

from support.browser import CHROMIUM, CHROMIUM_ARGS, LOAD_TIMEOUT, wait_until_settled
from support.visitor import served_app

STATED = re.compile(r"this page had the answer in ([0-9.]+) s")


def click(browser, url, operator):
    """(seconds from the click to the twin's verdict on the page, to every figure drawn, seconds the page states)
    of one visitor's click."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{url}/catalogue?cat_op={operator}")
        page.get_by_role("heading", name=f"DML_OPERATOR_{operator}").wait_for(timeout=LOAD_TIMEOUT)
        wait_until_settled(page)
        started = time.perf_counter()
        page.get_by_role("button", name="Run on DirectML").click()
        page.get_by_text("Ran on DirectML in its worker process").wait_for(timeout=LOAD_TIMEOUT)
        page.get_by_text(re.compile("ONNX twin|No ONNX twin")).first.wait_for(timeout=LOAD_TIMEOUT)
        verdict = time.perf_counter() - started
        wait_until_settled(page)
        drawn = time.perf_counter() - started
        stated = float(STATED.search(page.get_by_text("Ran on DirectML in its worker process").inner_text())[1])
        return verdict, drawn, stated
    finally:
        page.close()


def baseline(browser, url):
    """Seconds from a click that reruns the catalogue without running anything to the page settled again: what any
    rerun of the page costs on this machine at this load."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{url}/catalogue")
        page.get_by_text("174 of 174 operators.").wait_for(timeout=LOAD_TIMEOUT)
        wait_until_settled(page)
        started = time.perf_counter()
        page.get_by_text("with an ONNX twin").click()
        page.get_by_text("150 of 174 operators.").wait_for(timeout=LOAD_TIMEOUT)
        wait_until_settled(page)
        return time.perf_counter() - started
    finally:
        page.close()


def main():
    operators = sys.argv[1:] or ["GEMM", "CONVOLUTION"]
    print(f"nproc {os.cpu_count()}, load average before {os.getloadavg()}")
    with served_app() as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            print(f"a rerun of the catalogue without a run (Show: with an ONNX twin): {baseline(browser, url):.2f} s")
            print("| operator | click | to the twin's verdict (s) | to every figure drawn (s) | the server's share "
                  "(s) |")
            print("| --- | --- | --- | --- | --- |")
            for operator in operators:
                for label in ("first, on a fresh server", "a second visitor's (the run shared)", "a third visitor's"):
                    verdict, drawn, stated = click(browser, url, operator)
                    print(f"| {operator} | {label} | {verdict:.2f} | {drawn:.2f} | {stated:.2f} |")
        finally:
            browser.close()
    print(f"load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
