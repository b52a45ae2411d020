"""The layout detective's settings: its URL keys and their defaults, the fields that show an example, and what the
page makes of its fields: the input sizes and the outputs a visitor brings (uploaded .npy files or pasted printouts),
each keyed by a digest of its bytes so that a class bringing the same file identifies it once."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
from streamlit.runtime.uploaded_file_manager import UploadedFile

from ops import DescriptorError, read_npy, read_printed_array
from ops.detective.examples import EXAMPLES
from ops.detective.origin import NPY_BYTE_CAP
from ui.shared import digest
from ui.values import parse_int_list

Sizes = tuple[tuple[int, ...], ...]  # each input's sizes
ReadOutputs = Callable[[], list[np.ndarray]]  # reads the outputs a visitor brought, only when they are needed
Brought = tuple[Hashable, ReadOutputs]  # (their key in the server's cache, their reader)

SOURCES = {"example": "an example", "upload": "upload .npy files", "paste": "paste printed arrays"}
DEFAULTS: dict[str, Any] = dict(dt_sizes="1,8,2,3", dt_dtype="FLOAT32", dt_source="example",
                                dt_example="pixel_shuffle", dt_text="", dt_out_sizes="")
TEXT_MAX_CHARS = 200_000
# The upload box refuses larger files, counting 10^6 bytes a megabyte (outside Windows): the page's cap is the same,
# under Streamlit's server limit (.streamlit/config.toml, server.maxUploadSize, 16 MiB).
UPLOAD_MB = 16
UPLOAD_BYTES = min(NPY_BYTE_CAP, UPLOAD_MB * 10**6)
# A line holding only this separates several pasted outputs.
SEPARATOR = "---"


def example_fields(name: str) -> dict[str, str]:
    """The page's fields that show one of the detective's examples: its input sizes (inputs separated by ';')."""
    sizes = ";".join(",".join(str(s) for s in shape) for shape in EXAMPLES[name].sizes)
    return dict(dt_source="example", dt_example=name, dt_dtype="FLOAT32", dt_sizes=sizes)


def parse_sizes(text: str) -> Sizes:
    """'1,8,2,3' or several inputs '1,2,2,3; 1,1,2,3' -> tuple of size tuples; DescriptorError naming the field."""
    parts = [p for p in str(text).split(";") if p.strip()]
    if not parts:
        raise DescriptorError("Input sizes: empty; write whole numbers separated by commas, e.g. 1,8,2,3")
    if len(parts) > 8:
        raise DescriptorError(f"Input sizes: {len(parts)} inputs; the detective takes at most 8 (for a join)")
    field = "Input sizes" if len(parts) == 1 else "Input sizes of input {}"
    return tuple(parse_int_list(p, field.format(i)) for i, p in enumerate(parts))


def _natural_key(name: str) -> list[int | str]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def uploaded(files: Sequence[UploadedFile]) -> Brought:
    """(digest key, reader) of uploaded .npy files, taken in the order of their names (out2 before out10); read as
    plain arrays (never unpickled) of at most UPLOAD_BYTES."""
    blobs = [(f.name, f.getvalue()) for f in sorted(files, key=lambda f: _natural_key(f.name))]
    key = tuple(digest(data) for _, data in blobs)

    def read() -> list[np.ndarray]:
        return [read_npy(data, max_bytes=UPLOAD_BYTES, field=f"file {name!r}") for name, data in blobs]

    return key, read


def _split_outputs(text: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip() == SEPARATOR:
            parts.append("\n".join(current))
            current = []
        else:
            current.append(line)
    return parts + ["\n".join(current)]


def pasted(text: str, out_sizes: str) -> Brought:
    """(key, reader) of printed outputs separated by SEPARATOR lines; `out_sizes` (the field's text, may be empty)
    shapes the plain numbers of a single output. DescriptorError naming the field."""
    parts = [p for p in _split_outputs(text) if p.strip()]
    shape = parse_int_list(out_sizes, "Output sizes") if out_sizes.strip() else None
    if shape is not None and len(parts) > 1:
        raise DescriptorError("Output sizes: give them only for a single pasted output; use brackets for several")

    def read() -> list[np.ndarray]:
        return [read_printed_array(p, shape) for p in parts]

    return (digest(text), out_sizes), read
