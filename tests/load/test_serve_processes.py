"""More than one process: serve/serve.sh starts app processes behind nginx, which keeps each browser on one of them.

Twenty visitors at once through the proxy see no exception and are spread over both processes; a browser's page
and its websocket reach the same process (its session lives there), and the page works through the proxy.
"""

import os
import re
import shutil

import pytest

from support.browser import open_group
from support.visitor import SBIN_PATH, run_visitors, served_behind_nginx

pytestmark = pytest.mark.load

PAGES = [("", ""), ("depth_space", ""), ("bitwise_or", ""), ("split_join", "")]


@pytest.fixture(scope="module")
def proxied():
    """(url, run folder) of serve/serve.sh with 2 processes; the run folder holds nginx's access log."""
    if not shutil.which("nginx", path=SBIN_PATH):
        if os.environ.get("CI"):
            pytest.fail("nginx missing: apt-get install nginx")
        pytest.skip("nginx missing: apt-get install nginx")
    with served_behind_nginx(2) as (url, run_dir, _):
        yield url, run_dir


def upstreams(run_dir, pattern):
    log = (run_dir / "access.log").read_text()
    return [m[1] for m in re.finditer(rf'"GET {pattern}[^"]*" \d+ upstream=(\S+) route=(\S+)', log)]


def test_twenty_visitors_at_once_through_the_proxy_see_no_exception_and_use_both_processes(proxied):
    url, run_dir = proxied
    visits = run_visitors(url, [[PAGES[(i + k) % len(PAGES)] for k in range(3)] for i in range(20)])
    assert all(v.ok for v in visits), [(v.page, v.exceptions, v.failure) for v in visits if not v.ok]
    assert len(set(upstreams(run_dir, "/_stcore/stream"))) == 2


def test_a_browser_stays_on_one_process_and_the_page_works_through_the_proxy(proxied, page):
    url, run_dir = proxied
    before = len(upstreams(run_dir, "/"))
    page.goto(url + "/depth_space?C=18&BlockSize=3")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60_000)
    open_group(page, "Shape")
    page.locator('input[aria-label="H"]').fill("4")
    page.locator('input[aria-label="H"]').press("Enter")
    page.wait_for_function("() => location.search.includes('H=4')", timeout=60_000)
    assert page.locator('[data-testid="stException"]').count() == 0
    served = upstreams(run_dir, "/")[before:]
    assert served and len(set(served)) == 1, served  # the page, its files and its websocket: one process
