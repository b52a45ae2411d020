"""DxDispatch's JSON dialect, read left to right in time linear in the text's length.

DxDispatch parses a model with rapidjson's kParseCommentsFlag | kParseTrailingCommasFlag | kParseStopWhenDoneFlag
(microsoft/DirectML, DxDispatch/src/model/JsonParsers.cpp, ParseModel). In rapidjson's reader
(Tencent/rapidjson include/rapidjson/reader.h):

- SkipWhitespaceAndComments: wherever whitespace may stand, `/* ... */` (up to the first `*/`) and `// ...` (up to
  the next newline or the end) are whitespace; a `/` that starts neither, or a `/*` never closed, is an error;
- ParseArray / ParseObject: one comma after a member, before the closing bracket, is allowed; a comma right after
  the opening bracket or after another comma is not;
- kParseStopWhenDoneFlag: nothing after the root value is read.

`rapidjson_text` turns comments and the allowed trailing commas into spaces (newlines kept, so the line and column of
a later syntax error stay true), and measures the bracket nesting before json's recursive decoder sees the text;
json's C decoder then reads the standard JSON left.

Why not regular expressions over the text: an alternation such as `"(?:[^"\\]|\\.)*"|//...` is retried from every
quote of an unclosed string, each time to the end of the text: quadratic, about 3 hours for 1 MB of `\"`. Here each
character is looked at a bounded number of times: a search for the next quote or slash (one character class, no
retry), json's own C string scanner for each string, str.find for each comment's end, and numpy over the text with
the strings' contents masked for brackets and commas.
"""

import json

import numpy as np

from ..errors import DescriptorError

# rapidjson's SkipWhitespace: these four and nothing else (no form feed, no Unicode spaces).
_WHITESPACE = np.array([ord(c) for c in " \t\n\r"], dtype=np.uint32)
_OPEN = np.array([ord("["), ord("{")], dtype=np.uint32)
_CLOSE = np.array([ord("]"), ord("}")], dtype=np.uint32)
_COMMA = ord(",")
# What a string becomes in the masked text: a value with no brackets, commas or whitespace in it.
_MASK = "0"
# json's own string scanner (the C one when the accelerator is built): the same rules as the decoder that follows.
_scan_string = json.decoder.scanstring


def _blank(text):
    """Spaces for every character of `text` but its newlines."""
    return "\n".join(" " * len(line) for line in text.split("\n"))


def _strings_and_comments(text):
    """(text with comments blanked, the same with every string masked too), both as long as `text`.

    Strings and comments are found in one pass, whichever comes first: a `//` inside a string is text, a quote inside
    a comment is a comment. A string json cannot read (unclosed, a control character) ends the pass there: json's
    decoder stops with its own message at that string, unless it lies after the root value, which is never read.
    """
    plain, masked, at, end = [], [], 0, len(text)
    quote = slash = -1
    while True:
        # Each search starts where the last one of its kind ended, so no character is searched twice.
        if quote < at:
            quote = text.find('"', at) % (end + 1)  # -1 (none left) becomes end
        if slash < at:
            slash = text.find("/", at) % (end + 1)
        start = min(quote, slash)
        plain.append(text[at:start])
        masked.append(text[at:start])
        if start == end:
            break
        if start == quote:
            try:
                _, after = _scan_string(text, start + 1, True)
            except ValueError:
                plain.append(text[start:])
                masked.append(_MASK * (end - start))
                break
            plain.append(text[start:after])
            masked.append(_MASK * (after - start))
            at = after
            continue
        following = text[start + 1:start + 2]
        if following == "/":
            newline = text.find("\n", start)
            after = end if newline < 0 else newline
        elif following == "*":
            close = text.find("*/", start + 2)
            if close < 0:  # never closed: left for json to refuse at the slash
                plain.append(text[start:])
                masked.append(text[start:])
                break
            after = close + 2
        else:  # a slash that starts no comment: json refuses it there
            plain.append("/")
            masked.append("/")
            at = start + 1
            continue
        blank = _blank(text[start:after])
        plain.append(blank)
        masked.append(blank)
        at = after
    return "".join(plain), "".join(masked)


def rapidjson_text(text, max_depth):
    """The text with what DxDispatch's rapidjson flags allow turned into whitespace, for json's standard decoder.

    DescriptorError when the root value nests arrays and objects deeper than `max_depth` (json's decoder recurses
    once per level).
    """
    plain, masked = _strings_and_comments(text)
    codes = np.frombuffer(masked.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if not codes.size:
        return plain
    depth = np.cumsum(np.isin(codes, _OPEN).astype(np.int32) - np.isin(codes, _CLOSE).astype(np.int32),
                      dtype=np.int32)
    solid = np.flatnonzero(~np.isin(codes, _WHITESPACE))
    if solid.size and codes[solid[0]] in _OPEN:
        # kParseStopWhenDoneFlag: the root ends where its bracket closes; what follows is never read.
        closed = np.flatnonzero(depth[solid[0]:] <= 0)
        depth = depth[:solid[0] + closed[0] + 1] if closed.size else depth
    if depth.size and int(depth.max()) > max_depth:
        raise DescriptorError(f"model nesting is deeper than {max_depth} levels of arrays and objects")
    # A comma whose next non-whitespace character closes a bracket is a trailing comma, allowed unless what comes
    # before it is an opening bracket or another comma (nothing to trail).
    chars = codes[solid]
    comma = np.flatnonzero(chars[:-1] == _COMMA)
    trailing = comma[np.isin(chars[comma + 1], _CLOSE)]
    trailing = trailing[(trailing == 0) | ~np.isin(chars[trailing - 1], np.append(_OPEN, _COMMA))]
    if not trailing.size:
        return plain
    pieces, at = [], 0
    for position in solid[trailing].tolist():
        pieces += [plain[at:position], " "]
        at = position + 1
    pieces.append(plain[at:])
    return "".join(pieces)
