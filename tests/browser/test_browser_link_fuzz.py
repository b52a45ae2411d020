"""Issue 30: nothing on screen is foreign. Every link parameter each page declares to ui.url_state (support.links:
its default view, the views its presets and examples set, and those one switch or named option away) is set to
Markdown and HTML at once (a link, an image, an autolink, a frame); in Chromium the page must draw no link, image or
frame of the foreign host, ask it for nothing, and show no traceback or JavaScript error.

CI loads the bounded sample: each key that takes free text alone, and per reaching view the keys that refuse the
payload together (their refusals are echoed by one note). scripts/link_fuzz.py loads every key alone with each
payload, and serves another checkout to measure before and after.
"""

import urllib.parse

import pytest

from app_pages.registry import PAGES
from support.links import PAYLOADS, fuzz_cases, fuzz_load, link_keys

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("page", PAGES, ids=[p.url_path or "overview" for p in PAGES])
def test_no_link_value_draws_or_fetches_anything_foreign(browser, app_url, page):
    keys = link_keys(page)
    assert keys
    found = {}
    for query, names in fuzz_cases(keys, PAYLOADS["both"]):
        drawn = fuzz_load(browser, f"{app_url}/{page.url_path}?{urllib.parse.urlencode(query)}")
        if drawn:
            found[names] = drawn
    assert not found, found
