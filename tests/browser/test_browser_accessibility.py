"""axe-core's WCAG 2 A and AA rules on every page in Chromium: zero violations (axe-playwright-python ships
axe-core; https://github.com/dequelabs/axe-core/blob/develop/doc/rule-descriptions.md lists the rules by tag)."""

import pytest

from support.browser import open_group, wait_until_settled

pytestmark = pytest.mark.browser

WCAG_TAGS = ["wcag2a", "wcag2aa"]
# Each page at its default settings, and two error states reached as a user reaches them (so the fix buttons and
# the greyed last valid view are there too): (path, text to wait for, a change typed into an input of one of the
# page's groups of settings as (group, label, text) or None).
VIEWS = {
    "overview": ("", "Overview", None),
    "depth_space": ("depth_space", "Depth ↔ Space", None),
    "bitwise_or": ("bitwise_or", "DML_ELEMENT_WISE_BIT_OR", None),
    "split_join": ("split_join", "DML_SPLIT and DML_JOIN", None),
    "workbench": ("workbench", "Descriptor workbench", None),
    "layouts": ("layouts", "DML_ELEMENT_WISE_IDENTITY", None),
    "catalogue": ("catalogue", "Operator catalogue", None),
    "converter": ("converter", "DCR ↔ CRD converter", None),
    "detective": ("detective", "The layout detective", None),
    "onnx_model": ("onnx_model", "Open an ONNX model", None),
    "depth_space_error": ("depth_space", "Depth ↔ Space", ("Shape", "BlockSize", "3")),
    "split_join_error": ("split_join", "DML_SPLIT and DML_JOIN",
                         ("Operator & sizes", "Output sizes along Axis", "2,1,4")),
}


def settled(page, url, marker, change=None):
    """The page after its script run has finished and its figures have drawn (after `change`, if any)."""
    page.goto(url)
    page.get_by_text(marker).first.wait_for(timeout=60_000)
    wait_until_settled(page)
    if change is not None:
        group, label, text = change
        open_group(page, group)
        page.get_by_label(label, exact=True).fill(text)
        page.keyboard.press("Enter")
        page.get_by_text("Last valid view").wait_for(timeout=60_000)
    wait_until_settled(page)


def violations(page):
    """axe-core's WCAG 2 A/AA violations as {rule id: [offending element's HTML, ...]}."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS},
                                       "resultTypes": ["violations"]})
    return {v["id"]: [node["html"][:200] for node in v["nodes"]] for v in results.response["violations"]}


@pytest.mark.parametrize("view", list(VIEWS))
def test_no_wcag_violations(page, app_url, view):
    path, marker, change = VIEWS[view]
    settled(page, f"{app_url}/{path}", marker, change)
    assert violations(page) == {}
    assert page.js_errors == []
