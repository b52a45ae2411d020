"""Every link parameter of every page set to Markdown and to HTML, each page load checked in Chromium: no foreign
link, image, frame or request, no traceback, no JavaScript error.

    .venv/bin/python scripts/link_fuzz.py [--sample] [--root CHECKOUT]

The keys are the ones each page declares to ui.url_state as it runs (support.links.link_keys). Whole (the default):
each key alone with each payload; --sample: what tests/browser/test_browser_link_fuzz.py loads in CI (each key that
takes free text alone, the keys that refuse the payload together). --root serves another checkout (the keys are
still found in this one), to measure before and after.
"""

import argparse
import signal
import sys
import time
import urllib.parse

from playwright.sync_api import sync_playwright

from app_pages.registry import PAGES
from support.browser import CHROMIUM, CHROMIUM_ARGS
from support.links import PAYLOADS, fuzz_cases, fuzz_load, link_keys
from support.paths import ROOT
from support.visitor import served_app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", action="store_true", help="the bounded set CI loads")
    parser.add_argument("--root", default=str(ROOT), help="the checkout to serve")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a stopped run still stops the server it started
    started = time.perf_counter()
    keys = {page.path: link_keys(page) for page in PAGES}  # Page holds presets' dicts: not hashable
    print(f"{sum(map(len, keys.values()))} keys on {len(PAGES)} pages, found in {time.perf_counter() - started:.0f} s",
          flush=True)
    clean = total = 0
    failures = []
    with served_app(root=args.root, env={"PYTHONPATH": args.root}) as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for page in PAGES:
            for name, payload in PAYLOADS.items():
                if (name == "both") != args.sample:  # the sample loads both payloads at once
                    continue
                for query, names in fuzz_cases(keys[page.path], payload, whole=not args.sample):
                    address = f"{url}/{page.url_path}?{urllib.parse.urlencode(query)}"
                    found = fuzz_load(browser, address)
                    total += 1
                    if found:
                        failures.append((page.url_path, name, names, found))
                        print(f"FOREIGN {page.url_path or 'overview'} {name} {','.join(names)}: {found}", flush=True)
                    else:
                        clean += 1
                        print(f"clean {page.url_path or 'overview'} {name} {','.join(names)}", flush=True)
        browser.close()
    covered = sorted({(page.url_path, key) for page in PAGES for key in keys[page.path]})
    print(f"{clean} of {total} page loads clean; {len(covered)} keys covered; "
          f"{time.perf_counter() - started:.0f} s in all")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
