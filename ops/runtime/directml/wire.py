"""The DirectML worker's messages: one JSON line naming the byte lengths of the raw buffers that follow it.

No pickle crosses the pipe: the worker runs native code and the app trusts nothing it sends but JSON and bytes.
"""

import json

MAX_HEADER = 1 << 20


def message_parts(header, buffers=()):
    """The header line and the buffers, to be written in that order; the buffers are not copied."""
    buffers = [memoryview(b).cast("B") for b in buffers]
    return [json.dumps({**header, "buffers": [b.nbytes for b in buffers]}).encode() + b"\n", *buffers]


def write_message(stream, header, buffers=()):
    for part in message_parts(header, buffers):
        stream.write(part)
    stream.flush()


def read_message(read_line, read_exactly):
    """(header, buffers) from a stream; `read_line` and `read_exactly(n)` raise EOFError at the end."""
    header = json.loads(read_line(MAX_HEADER))
    return header, [read_exactly(n) for n in header.pop("buffers")]
