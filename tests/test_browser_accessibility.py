"""axe-core's WCAG 2 A and AA rules on every page in Chromium: zero violations (axe-playwright-python ships
axe-core; https://github.com/dequelabs/axe-core/blob/develop/doc/rule-descriptions.md lists the rules by tag)."""

import pytest

pytestmark = pytest.mark.browser

WCAG_TAGS = ["wcag2a", "wcag2aa"]
# Each page at its default settings, and the two error states that add elements of their own (fix buttons, the
# greyed last valid view).
VIEWS = {
    "overview": ("", "Overview"),
    "depth_space": ("depth_space", "Depth ↔ Space"),
    "bitwise_or": ("bitwise_or", "DML_ELEMENT_WISE_BIT_OR"),
    "split_join": ("split_join", "DML_SPLIT and DML_JOIN"),
    "workbench": ("workbench", "Descriptor workbench"),
    "depth_space_error": ("depth_space?C=16&H=2&W=2&BlockSize=3", "Nearest valid settings"),
    "split_join_error": ("split_join?sj_split=2,1,4", "Nearest valid settings"),
}


def settled(page, url, marker):
    """The page after its script run has finished and its figures have drawn."""
    page.goto(url)
    page.get_by_text(marker).first.wait_for(timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_selector('[data-testid="stStatusWidget"] button', state="detached", timeout=60_000)
    page.wait_for_timeout(500)  # Plotly draws after the elements arrive


def violations(page):
    """axe-core's WCAG 2 A/AA violations as {rule id: [offending element's HTML, ...]}."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS},
                                       "resultTypes": ["violations"]})
    return {v["id"]: [node["html"][:200] for node in v["nodes"]] for v in results.response["violations"]}


@pytest.mark.parametrize("view", list(VIEWS))
def test_no_wcag_violations(page, app_url, view):
    path, marker = VIEWS[view]
    settled(page, f"{app_url}/{path}", marker)
    assert violations(page) == {}
    assert page.js_errors == []
