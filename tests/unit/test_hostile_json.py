"""Issue 24, point 1 and 7: DxDispatch's JSON dialect read in linear time, from a paste or a link alike.

The malicious texts are made here. The old reader (regular expressions that strip comments and trailing commas) is
kept below as the oracle of what DxDispatch's dialect means, on texts small enough for it to be quick.
"""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app_pages.workbench.settings import LINK_CODEC
from ops import DescriptorError, load_model
from ops.descriptors.dxdispatch import MAX_DEPTH, MAX_TEXT_BYTES, parse_model_text
from ops.descriptors.jsonc import rapidjson_text
from support.app import error_texts, run_through_app, send_text, shown
from support.attacks import unclosed_escapes

WORKBENCH = "app_pages/workbench/page.py"


# ---------------------------------------------------------------- the oracle: the regular expressions replaced

_OLD_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_OLD_COMMENTS = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)
_OLD_TRAILING_COMMA = re.compile(r'"(?:[^"\\]|\\.)*"|[{\[,]\s*,|,(?=\s*[}\]])')


def old_parse(text):
    text = _OLD_COMMENTS.sub(lambda m: m[0] if m[0].startswith('"') else re.sub(r"[^\n]", " ", m[0]), text)
    text = _OLD_TRAILING_COMMA.sub(lambda m: " " if m[0] == "," else m[0], text)
    depth = max([0] + list(_running_depth(_OLD_STRING.sub('""', text))))
    if depth > MAX_DEPTH:
        raise DescriptorError("too deep")
    start = len(text) - len(text.lstrip())
    try:
        return json.JSONDecoder().raw_decode(text, start)[0]
    except json.JSONDecodeError as error:
        raise DescriptorError(str(error)) from None


def _running_depth(text):
    depth = 0
    for char in text:
        depth += (char in "[{") - (char in "]}")
        yield depth


# Pieces that exercise every rule: strings holding comment markers, brackets and escapes, comments holding quotes and
# commas, trailing and doubled commas, whitespace and newlines.
PIECES = ['{', '}', '[', ']', ',', ':', ' ', '\n', '1', '"a"', '"//"', '"/*"', '"\\""', '"]"', '"\\\\"',
          '// c "q" ,]\n', '/* x\n"], */', '/*', '*/', '//', '"', '\\', 'true', '/']


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=24))
def test_reads_every_small_text_as_the_regular_expressions_did(pieces):
    text = "".join(pieces)
    try:
        expected = old_parse(text)
    except DescriptorError:
        expected = DescriptorError
    try:
        got = parse_model_text(text)
    except DescriptorError:
        got = DescriptorError
    assert got == expected, text


def test_keeps_lines_and_columns():
    text = '/* a\n b */ [1, // c\n 2, ]'
    blanked = rapidjson_text(text, MAX_DEPTH)
    assert len(blanked) == len(text)
    assert [i for i, c in enumerate(blanked) if c == "\n"] == [i for i, c in enumerate(text) if c == "\n"]
    assert json.loads(blanked) == [1, 2]


def test_nothing_after_the_root_is_read():
    # kParseStopWhenDoneFlag: deep brackets and an unclosed string after the root are never looked at.
    assert parse_model_text('{"a": [1,]} notes: ' + "[" * (MAX_DEPTH + 5) + ' "never closed') == {"a": [1]}
    with pytest.raises(DescriptorError, match=f"deeper than {MAX_DEPTH} levels"):
        parse_model_text("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


@pytest.mark.timeout(120)  # a hang guard: the regular expressions took about 3 hours on this text
def test_an_unclosed_string_of_escaped_quotes_at_the_size_cap_is_refused_with_its_position():
    text = unclosed_escapes(MAX_TEXT_BYTES)
    assert len(text.encode()) <= MAX_TEXT_BYTES
    with pytest.raises(DescriptorError, match=r"line 1, column 15: Unterminated string"):
        parse_model_text(text)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("text", [
    "/*" * (MAX_TEXT_BYTES // 2),  # one unclosed comment
    "/" * MAX_TEXT_BYTES,  # slashes that start no comment
    '["' + '",,"' * (MAX_TEXT_BYTES // 4 - 1) + "]",  # strings and doubled commas
    "[" + "1," * (MAX_TEXT_BYTES // 2 - 1) + "]",  # half a million values
    '{"a": ' + "// x\n" * (MAX_TEXT_BYTES // 5 - 2) + "1}",  # two hundred thousand comments
])
def test_texts_at_the_size_cap_are_read_or_refused_by_rule(text):
    try:
        parse_model_text(text)
    except DescriptorError as error:
        assert re.match(r"(JSON syntax error at line \d+, column \d+|model nesting)", str(error)), str(error)


def test_the_size_cap_is_checked_before_the_text_is_read():
    with pytest.raises(DescriptorError, match=f"the limit is {MAX_TEXT_BYTES:,} bytes"):
        parse_model_text("x" * (50 * MAX_TEXT_BYTES))
    with pytest.raises(DescriptorError, match=f"the limit is {MAX_TEXT_BYTES:,} bytes"):
        parse_model_text(b"x" * (MAX_TEXT_BYTES + 1))


def test_an_integer_too_long_to_convert_is_refused_naming_its_field():
    model = ('{"resources": {"a": {"initialValuesDataType": "UINT8", "initialValues": [1, ' + "9" * 5000 + "]}}, "
             '"dispatchables": {}, "commands": []}')
    with pytest.raises(DescriptorError, match=r"^resources\.a\.initialValues\[1\]: an integer of 5,000 digits: "
                                              r"too big to be stored in a double"):
        load_model(model)
    # Shorter integers keep their own rules, named by the field that reads them.
    with pytest.raises(DescriptorError, match=r"^resources\.a\.initialValues\[1\]: 9{400}: outside UINT8's range"):
        load_model(model.replace("9" * 5000, "9" * 400))


@pytest.mark.timeout(240)
def test_a_freezing_model_in_a_link_gets_a_message():
    """The issue's link: a 1 MB text in a 1,359-character URL. The page says where the string starts, at once."""
    token = LINK_CODEC.encode(unclosed_escapes(MAX_TEXT_BYTES))
    assert len(token) < 2000
    at = run_through_app(WORKBENCH, query={"wb_source": "Paste JSON", "wb_text": token})
    assert not at.exception
    assert any("Unterminated string" in text and "line 1, column 15" in text for text in error_texts(at)), \
        error_texts(at)


def test_a_long_integer_in_a_link_gets_a_message_naming_its_field():
    model = '{"resources": {"r": {"initialValuesDataType": "FLOAT32", "initialValues": [' + "7" * 6000 + "]}}}"
    at = run_through_app(WORKBENCH, query={"wb_source": "Paste JSON", "wb_text": LINK_CODEC.encode(model)})
    assert not at.exception
    assert any("resources.r.initialValues[0]: an integer of 6,000 digits" in text for text in error_texts(at)), \
        error_texts(at)


def test_a_link_model_that_inflates_past_the_cap_is_refused_before_it_is_read():
    bomb = LINK_CODEC.encode(" " * (40 * MAX_TEXT_BYTES))  # a zlib bomb: 40 MB of spaces in a short link
    assert len(bomb) < 60_000
    at = run_through_app(WORKBENCH, query={"wb_source": "Paste JSON", "wb_text": bomb})
    assert not at.exception
    assert any(f"must inflate to at most {MAX_TEXT_BYTES:,} bytes" in shown(w.value) for w in at.warning), \
        [w.value for w in at.warning]


def test_a_paste_past_the_box_is_cut_to_the_box():
    # More than the box lets one type (a crafted message, issue 31: 20 MB held per session and echoed back): Streamlit
    # keeps the box's max_chars of it (streamlit/elements/widgets/text_widgets.py, TextAreaSerde), and the server's
    # websocket refuses a message past server.maxWidgetStateSize (.streamlit/config.toml) outright.
    at = run_through_app(WORKBENCH, query={"wb_source": "Paste JSON"})
    send_text(at, "wb_text", "[" + "0," * (3 * MAX_TEXT_BYTES // 2) + "0]")
    assert not at.exception
    assert len(at.text_area(key="wb_text").value) == MAX_TEXT_BYTES
    assert any("JSON syntax error" in text for text in error_texts(at)), error_texts(at)


def test_a_paste_of_more_bytes_than_the_cap_in_fewer_characters_is_refused_by_its_size():
    at = run_through_app(WORKBENCH, query={"wb_source": "Paste JSON"})
    at.text_area(key="wb_text").input('["' + "é" * (MAX_TEXT_BYTES * 3 // 4) + '"]').run()
    assert not at.exception
    assert any(f"the limit is {MAX_TEXT_BYTES:,} bytes" in text for text in error_texts(at)), error_texts(at)
