"""Issue 30: every string that reaches the page goes through one boundary (ui/say.py) that tells the app's Markdown
from data; the unsafe path cannot be taken by accident.

Read from the source (no page run needed): outside ui/say.py, a Streamlit text element, a widget's label, help or
captions, or an md() template takes a string literal (the app's own words, trusted as Markdown) or Markdown from
ui/say.py, never a string built at run time (an f-string, a concatenation, a name, a call). And the boundary itself:
data reads back as written, Markdown stays Markdown.
"""

import ast
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.app import shown
from support.paths import ROOT
from ui import say

BOUNDARY = {"ui/say.py", "ui/echo.py"}
SOURCES = [ROOT / "app.py"] + sorted(p for folder in ("app_pages", "ui") for p in (ROOT / folder).rglob("*.py")
                                    if str(p.relative_to(ROOT)) not in BOUNDARY)
# Elements that render their text as Markdown (or HTML): st.markdown, st.caption, the alerts, headings ...
TEXT_ELEMENTS = {"markdown", "caption", "write", "write_stream", "info", "warning", "error", "success", "exception",
                 "toast", "title", "header", "subheader", "latex", "badge", "help", "html"}
# ... and widgets, whose label (their first argument), help and option captions render Markdown too.
WIDGETS = {"button", "download_button", "link_button", "checkbox", "toggle", "radio", "selectbox", "multiselect",
           "select_slider", "slider", "text_input", "number_input", "text_area", "file_uploader", "expander",
           "popover", "tabs", "form_submit_button", "metric", "color_picker", "date_input", "time_input"}
LABEL_KEYWORDS = {"label", "help", "captions", "placeholder", "body"}
# A line may say why its text needs no boundary (st.tabs keep their labels as the widget's value, so the callers
# give literals): the comment names what the text is.
EXCUSE_PREFIX = "# text: "
MARKDOWN_MAKERS = {"md", "plain", "code", "join", "lines", "as_markdown"}


def _maker(call):
    """Whether `call` makes Markdown through the boundary: md(...), say.plain(...) and the like."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in MARKDOWN_MAKERS
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "say"


def trusted(node, constants=frozenset()):
    """A literal, a module's constant holding one (an upper-case name in `constants`), or Markdown made by the
    boundary (alone, in a list, or chosen by a condition)."""
    if isinstance(node, ast.Name):
        return node.id in constants
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, str)
    if isinstance(node, ast.Call):
        return _maker(node)
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(trusted(e, constants) for e in node.elts)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return trusted(node.elt, constants)
    if isinstance(node, ast.IfExp):
        return trusted(node.body, constants) and trusted(node.orelse, constants)
    return False


def literal_constants(tree):
    """The module's upper-case names assigned a literal (or a list of them) at its top level."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and trusted(node.value, names):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name) and t.id.isupper())
    return frozenset(names)


def _method(call):
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None, None
    receiver = func.value.id if isinstance(func.value, ast.Name) else None
    return func.attr, receiver


def violations(source, name="<source>"):
    """Where `source` hands text to the page outside the boundary: (line, what) pairs."""
    found = []
    tree = ast.parse(source)
    constants = literal_constants(tree)
    found += [(f"{name}:{n.lineno}", f".{n.attr} taken as a value") for n in _taken_as_values(tree)]
    excused = {number for number, line in enumerate(source.splitlines(), 1) if EXCUSE_PREFIX in line}
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.lineno not in excused):
        method, receiver = _method(call)
        where = f"{name}:{call.lineno}"
        if isinstance(call.func, ast.Name) and call.func.id == "md" or (method == "md" and receiver == "say"):
            if not (call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                found.append((where, "md() template is not a literal"))
            continue
        if method is None or receiver == "say":
            continue
        texts = []
        if method == "html":
            found.append((where, "st.html outside the boundary (say.style takes a style sheet)"))
            continue
        if method in TEXT_ELEMENTS:
            texts = call.args[:1]
        elif method in WIDGETS:
            texts = call.args[:1]
        elif receiver == "url_state" and method == "widget":
            texts = call.args[1:2]
        elif receiver == "url_state" and method == "tabs":
            texts = call.args[:1]
        elif method != "page_link":
            continue
        if method in TEXT_ELEMENTS | WIDGETS or receiver == "url_state" or method == "page_link":
            texts = texts + [k.value for k in call.keywords if k.arg in LABEL_KEYWORDS]
        found += [(where, f".{method}() given {ast.unparse(t)[:60]}") for t in texts if not trusted(t, constants)]
    return found


def _taken_as_values(tree):
    """Text elements taken as values (`show = st.success if ok else st.error`): their text escapes the check."""
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in TEXT_ELEMENTS
            and id(n) not in called and ast.unparse(n.value) in ("st", "st.sidebar")]


def test_no_page_or_ui_module_hands_built_text_to_streamlit():
    found = [v for path in SOURCES for v in violations(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(f"{where}: {what}" for where, what in found)


@pytest.mark.parametrize("source", [
    'st.caption(f"Picked: {x}")', "st.markdown(note)", 'left.info("a" + b)', 'st.error(str(exc))',
    'st.button(label, key="k")', 'url_state.widget(st.radio, f"B {x}", "k", 1)', 'st.expander(f"{name}")',
    'st.page_link(p, label=title)', 'st.radio("R", [1], captions=CAPTIONS)', 'md(template)', 'say.md(f"{x}")',
    'st.html(css)', 'st.selectbox("S", [1], help=f"{n} items")', 'show = st.success if ok else st.error'])
def test_the_check_catches_text_built_at_run_time(source):
    assert violations(source)


@pytest.mark.parametrize("source", [
    'st.caption("**Literal** Markdown")', 'say.caption(md("**{}** {:code}", a, b))', 'say.error(exc)',
    'st.button(say.plain(label), key="k")', 'st.radio("R", [1], captions=[say.plain(c) for c in C])',
    'url_state.widget(st.radio, md("B {}", x), "k", 1, help="h")', 'st.page_link(p, label=md("Open {}", t))'])
def test_the_check_lets_literals_and_boundary_markdown_through(source):
    assert not violations(source)


@given(st.text(alphabet="ab[]()!*_<>:/@`#$~|.-w\\\n ", max_size=60))
def test_data_reads_back_as_written(value):
    assert shown(say.md("**{}**", value)) == f"**{value}**"[:2] + shown(say.plain(value)) + "**"
    assert shown(say.plain(value)) == value


def test_markdown_stays_markdown_and_data_joins_it_escaped():
    bold = say.md("**{}**", "x")
    assert bold + "~y~" == "**x**\\~y\\~" and "~y~" + bold == "\\~y\\~**x**"
    assert say.join(", ", [bold, "[a](b)"]) == "**x**, \\[a\\](b)"
    assert say.md("{:,} {:code}", 1234, "`a`") == "1,234 `` `a` ``"
    assert isinstance(say.md("{}", bold) + bold, say.Markdown)


def test_a_version_with_a_tilde_is_not_struck_through():
    line = say.md("Ran on {}: byte-identical", "Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)")
    assert not re.search(r"(?<!\\)~", line)
