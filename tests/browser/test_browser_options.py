"""No option's text is cut, in an 800 px window: every select box (its value, and each option of its open list) and
every radio button on every page, with each of the page's groups of settings open and each tab shown. The Bitwise
page's Operation list cut every name at "ELEMENT_WISE_BIT_SHIF", where they start to differ."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from app_pages.registry import PAGES
from support.browser import LOAD_TIMEOUT, wait_until_settled

pytestmark = pytest.mark.browser

# Text elements (and inputs) inside `root` whose content is wider than their box: cut, or scrolled out of sight.
CUT = """root => [...root.querySelectorAll('*')]
    .filter(e => (e.tagName === 'INPUT' ? e.value : e.children.length === 0 && e.textContent.trim())
                 && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.tagName === 'INPUT' ? e.value : e.textContent.trim())"""


def open_every_group(page):
    """Opens each closed group of settings in the sidebar (opening one may draw others)."""
    for _ in range(5):
        closed = page.locator('[data-testid="stSidebar"] details:not([open]) > summary')
        if not closed.count():
            return
        closed.first.click()
        wait_until_settled(page)


def list_cut(page, field):
    """The cut texts of a select box's open list. ArrowDown on the focused field opens it, a click only sometimes;
    a key pressed while the page reruns can be lost, and a rerun (a cross-check's verdict arriving) can close the
    list before it is read: each way is tried in turn until the list is open and read."""
    listbox = page.locator('[role="listbox"]')
    for attempt in range(8):
        wait_until_settled(page)
        field.focus()
        if attempt % 2:
            field.click()
        else:
            field.press("ArrowDown")
        try:
            listbox.wait_for(timeout=5_000)
            return listbox.evaluate(CUT, timeout=5_000)
        except PlaywrightTimeoutError:
            continue
    listbox.wait_for(timeout=LOAD_TIMEOUT)
    return listbox.evaluate(CUT)


def cut_options(page):
    """{widget label: [its cut texts]} of the visible select boxes (value and open list) and radio groups."""
    found = {}
    boxes = page.locator('[data-testid="stSelectbox"]')
    for index in range(boxes.count()):
        box = boxes.nth(index)
        if not box.is_visible():
            continue
        field = box.locator("input")
        label = field.get_attribute("aria-label")
        cut = box.evaluate(CUT)
        if field.is_disabled():  # no list to open: its value is all it shows
            if cut:
                found[label] = cut
            continue
        cut += list_cut(page, field)
        field.press("Escape")
        page.locator('[role="listbox"]').wait_for(state="detached", timeout=LOAD_TIMEOUT)
        if cut:
            found[label] = cut
    radios = page.locator('[data-testid="stRadio"]')
    for index in range(radios.count()):
        group = radios.nth(index)
        if group.is_visible() and group.evaluate(CUT):
            found[group.get_attribute("aria-label") or group.inner_text()[:40]] = group.evaluate(CUT)
    return found


@pytest.mark.parametrize("path", [page.url_path for page in PAGES], ids=[p.url_path or "overview" for p in PAGES])
def test_no_option_is_cut(page, app_url, path):
    page.set_viewport_size({"width": 800, "height": 900})
    page.goto(f"{app_url}/{path}")
    page.get_by_role("heading", level=1).first.wait_for(timeout=LOAD_TIMEOUT)
    wait_until_settled(page)
    open_every_group(page)
    cut = cut_options(page)
    tabs = page.locator('[data-testid="stMain"] [role="tab"]')
    for index in range(tabs.count()):
        tabs.nth(index).click()
        wait_until_settled(page)
        cut.update(cut_options(page))
    assert cut == {}
    assert page.js_errors == []
