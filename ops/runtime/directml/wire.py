"""The DirectML worker's messages: one JSON line naming the byte lengths of the raw buffers that follow it.

No pickle crosses the pipe: the worker runs native code and the app trusts nothing it sends but JSON and bytes.
"""

import json

MAX_HEADER = 1 << 20


def encode_message(header, buffers=()):
    buffers = [bytes(b) for b in buffers]
    line = json.dumps({**header, "buffers": [len(b) for b in buffers]}).encode() + b"\n"
    return b"".join([line, *buffers])


def write_message(stream, header, buffers=()):
    stream.write(encode_message(header, buffers))
    stream.flush()


def read_message(read_line, read_exactly):
    """(header, buffers) from a stream; `read_line` and `read_exactly(n)` raise EOFError at the end."""
    header = json.loads(read_line(MAX_HEADER))
    return header, [read_exactly(n) for n in header.pop("buffers")]
