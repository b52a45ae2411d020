"""Issue 24, points 6 and 10: values from a link, a paste or an upload are echoed as inert, shortened text.

The hostile values are made here; the browser test checks what Chromium draws and fetches, since Markdown is
rendered there (AppTest hands over the Markdown source).
"""

import json
import re
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app_pages.workbench.settings import LINK_CODEC
from support.app import run_through_app, shown
from ui import echo
from ui.url_state import LINK_READ_CHARS

PHISHING = "[Click to log in](http://evil.example/login) ![t](http://evil.example/pixel.png)"
DEPTH_SPACE = "app_pages/depth_space/page.py"


def code_span_content(markdown):
    """The content of the one code span `markdown` is, by CommonMark's rule: a backtick string, then everything
    up to the next backtick string of exactly the same length; one space stripped each side when both are there."""
    match = re.fullmatch(r"(`+)(.*?)(?<!`)\1(?!`)(.*)", markdown, re.S)
    assert match, markdown
    content = match[2]
    if len(content) > 2 and content[0] == content[-1] == " " and content.strip():
        content = content[1:-1]
    return content, match[3]


@given(st.text(alphabet="`ab \n[]()!*_<>:/@", max_size=40))
def test_a_code_span_holds_any_value_whole(value):
    content, after = code_span_content(echo.code(value))
    assert content == (value.replace("\n", " ") or " ")
    assert after == ""


def test_a_long_value_is_cut_and_says_how_long_it_was():
    content, after = code_span_content(echo.code("x" * 100_000))
    assert content == "x" * echo.SHOWN_CHARS + "…"
    assert shown(after) == " (100,000 characters in all)"
    assert len(echo.text("y" * 100_000)) < 3 * echo.MESSAGE_CHARS


@given(st.text(alphabet="ab[]()!*_<>:/@`#$~|.-w\\\n ", max_size=60))
def test_escaped_text_reads_back_as_written_and_leaves_no_markup(message):
    escaped = echo.text(message)
    assert shown(escaped) == message
    # No character is left that opens a construct: those that do anywhere, `_` at a word's edge, `:` before a
    # letter, `|` in several lines, and a block's marker at a line's start.
    bare = escaped.replace("\\\\", "")
    assert not re.search(r"(?<!\\)([\[\]*<>`$~&]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])|:(?=[A-Za-z]))", bare)
    assert "\n" not in message or not re.search(r"(?<!\\)\|", bare)
    assert not re.search(r"(?m)^ {0,3}([#+=-]|\d+[.)])", escaped)


def test_autolinked_addresses_get_a_word_joiner():
    escaped = echo.text("http://evil.example www.evil.example me@evil.example")
    assert "://" not in escaped.replace("\\", "") and "www." not in escaped.replace("\\", "").lower()
    assert "@evil" not in escaped.replace("\\", "")


def test_figure_text_draws_no_tag():
    assert echo.figure_text('<a href="http://evil.example">x</a>') == '&lt;a href="http://evil.example"&gt;x&lt;/a&gt;'


def test_a_phishing_link_value_is_echoed_in_a_code_span():
    at = run_through_app(DEPTH_SPACE, query={"dtype": PHISHING})
    assert not at.exception
    [note] = [w.value for w in at.warning if w.value.startswith("Link parameter dtype=")]
    content, _ = code_span_content(note.removeprefix("Link parameter dtype=").split(" must be")[0])
    assert content == PHISHING


def test_a_long_link_value_is_shortened_and_a_longer_one_not_read():
    at = run_through_app(DEPTH_SPACE, query={"dtype": "F" * 10_000, "C": "9" * (LINK_READ_CHARS + 1)})
    assert not at.exception
    notes = [w.value for w in at.warning]
    assert any("(10,000 characters in all)" in shown(n) for n in notes), notes
    assert any(f"Link parameter C is {LINK_READ_CHARS + 1:,} characters long" in shown(n) for n in notes), notes
    assert max(map(len, notes)) < 1000


def test_a_workbench_name_with_backticks_stays_in_its_code_span():
    name = "a`` `[x](http://evil.example)`"
    model = {"resources": {"in": {"initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3, 4]},
                           "out": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 4, "value": 0}}},
             "dispatchables": {name: {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {
                 "InputTensor": {"DataType": "FLOAT32", "Sizes": [4]},
                 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [4]}}}},
             "commands": [{"type": "dispatch", "dispatchable": name,
                           "bindings": {"InputTensor": "in", "OutputTensor": "out"}}]}
    at = run_through_app("app_pages/workbench/page.py",
                         query={"wb_source": "Paste JSON", "wb_text": LINK_CODEC.encode(json.dumps(model))})
    assert not at.exception
    marker = ": valid from feature level"
    lines = [m.value.split(marker)[0] for m in at.markdown if marker in m.value]
    assert lines, [m.value for m in at.markdown]
    content, after = code_span_content(lines[0])
    assert content == name and after == ""


@pytest.mark.browser
def test_the_browser_draws_a_phishing_link_value_as_text_and_fetches_nothing(page, app_url):
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    link = "[Go](http://evil.example/login) www.evil.example me@evil.example ![t](http://evil.example/pixel.png)"
    page.goto(f"{app_url}/depth_space?{urllib.parse.urlencode({'dtype': link, 'pattern': '`x`` [y](http://e.example)'})}")
    # The notes stay once the cross-check's verdict arrives (the page runs again for it, not adopting the link again).
    page.get_by_text("Cross-checked on", exact=False).first.wait_for(timeout=60_000)
    note = page.locator('[data-testid="stAlertContentWarning"]').filter(has_text="Link parameter dtype=")
    note.wait_for(timeout=60_000)
    assert "[Go](http://evil.example/login)" in note.inner_text()
    alerts = page.locator('[data-testid="stAlert"]')
    assert alerts.locator("a").count() == 0 and alerts.locator("img").count() == 0
    assert page.locator('a[href*="evil.example"], img[src*="evil.example"]').count() == 0
    assert not [url for url in fetched if (urllib.parse.urlsplit(url).hostname or "").endswith("evil.example")]
    pattern_note = page.locator('[data-testid="stAlertContentWarning"]').filter(has_text="Link parameter pattern=")
    assert pattern_note.locator("code").first.inner_text() == "`x`` [y](http://e.example)"
