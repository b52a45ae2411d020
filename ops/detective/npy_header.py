"""An .npy file's header read left to right, in time linear in its length, without Python's parser.

The header is the text of a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
(numpy's format, numpy/lib/_format_impl.py, which writes it with repr() and reads it with ast.literal_eval). Python's
parser nests one level per unary minus: a header of thousands of minus signs raised RecursionError, then MemoryError,
from ast (tracebacks on the page). Here the same literal is read token by token, each token matched where the last
one ended (no search, no retry), and anything outside the format is refused with the rule it breaks.

Accepted as numpy reads it: single or double quotes, whitespace between tokens, a trailing comma in the dict and the
tuple, the `L` suffix of sizes written by Python 2 (numpy's _filter_header).
"""

import re

from ..errors import DescriptorError

MAX_HEADER_CHARS = 10_000  # numpy's own _MAX_HEADER_SIZE
MAX_SIZE_DIGITS = 20  # a size past 64 bits is refused by its length, before int() converts it
KEYS = ("descr", "fortran_order", "shape")
_TOKEN = re.compile(r"[ \t\r\n]*(?:'(?P<single>[^'\\\n]*)'|\"(?P<double>[^\"\\\n]*)\"|(?P<size>\d+)L?"
                    r"|(?P<word>True|False)|(?P<mark>[{}():,\[\]]))")


class _Tokens:
    def __init__(self, text):
        self.text, self.at = text, 0

    def next(self, what):
        match = _TOKEN.match(self.text, self.at)
        if match is None:
            found = self.text[self.at:].strip()[:20]
            raise DescriptorError(f"the header has {found!r} at character {self.at} where {what} should be; "
                                  "an .npy header is a dict of 'descr', 'fortran_order' and 'shape'")
        self.at = match.end()
        return match

    def mark(self, allowed, what):
        match = self.next(what)
        if match["mark"] not in allowed:
            raise DescriptorError(f"the header has {match[0].strip()[:20]!r} at character {match.start()} where "
                                  f"{what} should be")
        return match["mark"]


def _string(match):
    return match["single"] if match["single"] is not None else match["double"]


def _value(tokens, key):
    match = tokens.next(f"the value of {key!r}")
    if key == "descr":
        if match["mark"] == "[":
            raise DescriptorError("the header's descr is a list: a structured array, refused (only plain numeric "
                                  "arrays are read)")
        if _string(match) is None:
            raise DescriptorError("the header's descr must be a dtype string such as '<f4'")
        return _string(match)
    if key == "fortran_order":
        if match["word"] is None:
            raise DescriptorError("the header's fortran_order must be True or False")
        return match["word"] == "True"
    if match["mark"] != "(":
        raise DescriptorError("the header's shape must be a tuple of sizes such as (2, 3)")
    sizes = []
    while True:
        item = tokens.next("the shape's next size (a whole number of at least 0) or ')'")
        if item["mark"] == ")":
            return tuple(sizes)
        if item["size"] is None:
            raise DescriptorError(f"the header's shape holds {item[0].strip()[:20]!r}: sizes are whole numbers of "
                                  "at least 0")
        if len(item["size"]) > MAX_SIZE_DIGITS:
            raise DescriptorError(f"the header's shape holds a size of {len(item['size']):,} digits; a size has at "
                                  f"most {MAX_SIZE_DIGITS}")
        sizes.append(int(item["size"]))
        if tokens.mark(",)", "',' or ')' in the shape") == ")":
            return tuple(sizes)


def parse_header(text):
    """(descr, fortran_order, shape) of an .npy header's text; DescriptorError naming the rule it breaks."""
    if len(text) > MAX_HEADER_CHARS:
        raise DescriptorError(f"the header is {len(text):,} characters long; numpy reads at most {MAX_HEADER_CHARS:,}")
    tokens = _Tokens(text)
    tokens.mark("{", "'{'")
    found = {}
    while True:
        key = tokens.next("a key or '}'")
        if key["mark"] == "}":
            break
        name = _string(key)
        if name not in KEYS or name in found:
            raise DescriptorError(f"the header's key {name if name is not None else key[0].strip()[:20]!r}: "
                                  f"expected each of {', '.join(KEYS)} once")
        tokens.mark(":", "':'")
        found[name] = _value(tokens, name)
        if tokens.mark(",}", "',' or '}'") == "}":
            break
    if text[tokens.at:].strip():
        raise DescriptorError(f"the header goes on after its dict, at character {tokens.at}")
    missing = [key for key in KEYS if key not in found]
    if missing:
        raise DescriptorError(f"the header lacks {', '.join(missing)}")
    return found["descr"], found["fortran_order"], found["shape"]
