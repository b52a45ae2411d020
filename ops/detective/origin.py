"""Arrays that travel to a user's framework and back: an origin-coded input, .npy bytes and printed arrays.

An origin-coded input holds its own flat index in every element (0, 1, 2, ...), so whatever a framework does to
it, each output value still names the input element it came from.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence

import numpy as np
from numpy.typing import DTypeLike

from ..datatypes import numpy_dtype, type_name
from ..errors import DescriptorError
from ..guard import check_element_count, check_positive_int
from .npy_header import parse_header

MAX_DIMENSIONS = 8
# 2^24 FLOAT32 elements (the app's per-tensor cap) plus the .npy header; FLOAT64 uploads of that size are refused.
NPY_BYTE_CAP = 2**26 + 4096
TEXT_CHAR_CAP = 2**24
# numpy's format (numpy/lib/_format_impl.py): the magic, a version, the header's length in 2 (1.0) or 4 (2.0) bytes.
_MAGIC = b"\x93NUMPY"
_LENGTH_BYTES = {(1, 0): 2, (2, 0): 4}
MAX_DESCR_CHARS = 32


def _checked_sizes(sizes, field):
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__"):
        raise DescriptorError(f"{field} {sizes!r}: expected a list of sizes")
    if not 1 <= len(sizes) <= MAX_DIMENSIONS:
        raise DescriptorError(f"{field} {list(sizes)}: {len(sizes)} dimensions; DirectML tensors have 1 to 8")
    sizes = tuple(check_positive_int(s, f"{field}[{i}]") for i, s in enumerate(sizes))
    check_element_count(sizes, field)
    return sizes


def exact_count(dtype):
    """How many consecutive whole numbers from 0 the type holds exactly (so that many elements get unique codes)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return 2 ** (np.finfo(dtype).nmant + 1)
    return int(np.iinfo(dtype).max) + 1


def origin_coded_input(sizes: Sequence[int], data_type: DTypeLike = "FLOAT32") -> np.ndarray:
    """An array of `sizes` whose every element holds its own flat (row-major) index: 0, 1, 2, ...

    FLOAT32, the type every framework accepts, spells indices exactly up to 2^24 elements; a larger tensor in a
    type that cannot hold every index exactly is refused (its codes would collide), naming the types that can.
    """
    sizes = _checked_sizes(sizes, "Sizes")
    dtype = numpy_dtype(data_type)
    count = math.prod(sizes)
    limit = exact_count(dtype)
    if count > limit:
        wider = [t for t in ("INT32", "INT64", "FLOAT64") if exact_count(numpy_dtype(t)) >= count]
        raise DescriptorError(
            f"DataType {type_name(dtype)}: an origin-coded input of {count:,} elements needs the codes 0 .. "
            f"{count - 1:,}, but {type_name(dtype)} holds whole numbers exactly only up to {limit:,}; "
            f"use {', '.join(wider)}"
        )
    return np.arange(count, dtype=dtype).reshape(sizes)


def origin_coded_inputs(sizes_list, data_type="FLOAT32"):
    """The inputs of a join, origin-coded together: input i holds the flat indices that continue where input
    i - 1 stopped, so every value in all of them is distinct and names (input, element) as
    IdentifyReport.input_starts counts them."""
    if isinstance(sizes_list, (str, bytes)) or not hasattr(sizes_list, "__len__") or not sizes_list:
        raise DescriptorError(f"Sizes {sizes_list!r}: expected a non-empty list of input sizes")
    shapes = [_checked_sizes(s, f"Sizes[{i}]") for i, s in enumerate(sizes_list)]
    counts = [math.prod(s) for s in shapes]
    check_element_count((sum(counts),), "Sizes (all inputs together)")
    whole = origin_coded_input((sum(counts),), data_type)
    starts = np.cumsum([0] + counts)
    return [whole[a:b].reshape(shape) for a, b, shape in zip(starts[:-1], starts[1:], shapes)]


def to_npy_bytes(array):
    """The array as .npy file bytes (never pickled), for a download."""
    if not isinstance(array, np.ndarray):
        raise DescriptorError(f"array: expected a numpy array, got {type(array).__name__}")
    type_name(array.dtype, "array DataType")
    stream = io.BytesIO()
    np.save(stream, np.ascontiguousarray(array), allow_pickle=False)
    return stream.getvalue()


def _header_text(data):
    """(the header's text, where the data starts), read from the fixed-size fields before it: a header is read by
    ops.detective.npy_header, never by Python's parser."""
    if data[:6] != _MAGIC or len(data) < 8:
        raise DescriptorError("it does not start with the .npy magic bytes \\x93NUMPY")
    version = (data[6], data[7])
    if version not in _LENGTH_BYTES:
        raise DescriptorError(f"format version {version[0]}.{version[1]} is not read here (only 1.0 and 2.0)")
    width = _LENGTH_BYTES[version]
    length = int.from_bytes(data[8:8 + width], "little")
    if len(data) < 8 + width + length:
        raise DescriptorError(f"the header promises {length:,} characters, but the file ends before them")
    start = 8 + width + length
    return data[8 + width:start].decode("latin1"), start


def read_npy(data: bytes | bytearray | memoryview, max_bytes: int = NPY_BYTE_CAP, field: str = "file") -> np.ndarray:
    """The array in uploaded .npy bytes, or DescriptorError naming what is wrong with them.

    The header is read first and the data only when it holds a plain array of a DirectML type with 1 to 8
    dimensions, no size 0, within the element cap and exactly as many bytes as the header promises; nothing is
    unpickled (object and structured arrays are refused). Big-endian data is converted to native order.
    """
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise DescriptorError(f"{field}: expected the bytes of a .npy file, got {type(data).__name__}")
    if len(data) > max_bytes:
        raise DescriptorError(f"{field}: {len(data):,} bytes exceed the cap of {max_bytes:,} bytes for a .npy upload")
    try:
        header, start = _header_text(data)
        descr, fortran_order, shape = parse_header(header)
        if len(descr) > MAX_DESCR_CHARS:
            raise DescriptorError(f"the header's descr is {len(descr):,} characters long; a dtype string such as "
                                  f"'<f4' has at most {MAX_DESCR_CHARS}")
        dtype = np.dtype(descr)
    except (DescriptorError, ValueError, TypeError) as error:
        raise DescriptorError(f"{field}: not a readable .npy file ({error})") from None
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise DescriptorError(
            f"{field}: dtype {dtype} is refused; only plain numeric arrays are read (objects would need pickle)"
        )
    native = dtype.newbyteorder("=")
    type_name(native, f"{field} dtype")
    sizes = _checked_sizes(shape, f"{field} shape")
    payload = memoryview(data)[start:]
    needed = math.prod(sizes) * dtype.itemsize
    if len(payload) != needed:
        raise DescriptorError(
            f"{field}: the header promises shape {list(sizes)} of {dtype} ({needed:,} bytes of data), "
            f"but the file holds {len(payload):,}"
        )
    array = np.frombuffer(payload, dtype=dtype).reshape(sizes, order="F" if fortran_order else "C")
    return np.ascontiguousarray(array, dtype=native)


# Keyword arguments in printouts (dtype=torch.float32, shape=(1, 2), device='cpu') carry numbers that are not data.
_KEYWORD = re.compile(r"\b\w+\s*=\s*(\([^()]*\)|'[^']*'|\"[^\"]*\"|[\w.]+)")
_TOKEN = re.compile(
    r"(?P<open>\[)|(?P<close>\])"
    r"|(?P<number>[-+]?(?:inf|nan)\b|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
    r"|(?P<word>[A-Za-z_][\w.]*)|(?P<skip>[\s,;()])|(?P<other>\S)",
    re.IGNORECASE,
)
# The names numpy, PyTorch and TensorFlow print around an array's values.
_WRAPPERS = {"array", "tensor", "tf.tensor"}
# TensorFlow's repr in a notebook: "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"
# (https://www.tensorflow.org/guide/tensor); its angle brackets and colon are not data.
_TF_REPR = re.compile(r"^\s*<\s*tf\.Tensor\s*:(?P<inner>.*)>\s*$", re.DOTALL)


def _nested_shape(tokens):
    """Shape of the bracket nesting in tokens ('[', ']', None for a number), checking that it is rectangular."""
    stack = [[]]
    for token in tokens:
        if token == "[":
            stack.append([])
        elif token == "]":
            if len(stack) == 1:
                raise DescriptorError("printed array: a ']' closes no '['")
            row = stack.pop()
            inner = {() if item is None else item for item in row}
            if len(inner) > 1:
                raise DescriptorError("printed array: rows of different lengths or depths; it is not rectangular")
            stack[-1].append((len(row),) + (inner.pop() if inner else ()))
        else:
            stack[-1].append(None)
    if len(stack) != 1:
        raise DescriptorError("printed array: a '[' is never closed")
    if len(stack[0]) != 1 or stack[0][0] is None:
        raise DescriptorError("printed array: expected one bracketed array")
    return stack[0][0]


def read_printed_array(text: str, sizes: Sequence[int] | None = None, max_chars: int = TEXT_CHAR_CAP) -> np.ndarray:
    """An array from text a framework printed or a user typed: numpy's, PyTorch's or TensorFlow's repr, or
    plain numbers separated by spaces or commas.

    The shape comes from `sizes` when given, else from the brackets (plain numbers give a 1-D array). Whole
    numbers give INT64, anything else FLOAT64 (nan and inf allowed). Summarized printouts ('...') are refused:
    they leave values out.
    """
    if not isinstance(text, str):
        raise DescriptorError(f"printed array: expected text, got {type(text).__name__}")
    if len(text) > max_chars:
        raise DescriptorError(f"printed array: {len(text):,} characters exceed the cap of {max_chars:,}")
    if "..." in text or "\u2026" in text:
        raise DescriptorError(
            "printed array: the printout is summarized ('...'), so values are missing; print it whole "
            "(numpy: np.set_printoptions(threshold=sys.maxsize); PyTorch: torch.set_printoptions(profile='full')) "
            "or upload a .npy file"
        )
    wrapped = _TF_REPR.match(text)
    if wrapped:
        text = wrapped.group("inner")
    tokens, numbers, integral = [], [], True
    for match in _TOKEN.finditer(_KEYWORD.sub(" ", text)):
        kind, value = match.lastgroup, match.group()
        if kind in ("open", "close"):
            tokens.append(value)
        elif kind == "number":
            tokens.append(None)
            numbers.append(value)
            integral = integral and re.fullmatch(r"[-+]?\d+", value) is not None
        elif kind == "word" and value.lower() not in _WRAPPERS:
            raise DescriptorError(f"printed array: {value!r} at character {match.start()} is not a number")
        elif kind == "other":
            raise DescriptorError(f"printed array: {value!r} at character {match.start()} is not part of a number")
    if not numbers:
        raise DescriptorError("printed array: no numbers found")
    # A whole number of more than 19 digits is past INT64 anyway; int() is never asked to convert thousands of digits
    # (it refuses more than 4,300: a ValueError from deep inside, not a message).
    if integral and all(len(v.lstrip("+-")) <= 19 and -(2**63) <= int(v) < 2**63 for v in numbers):
        values = np.array([int(v) for v in numbers], dtype=np.int64)
    else:
        values = np.array([float(v) for v in numbers], dtype=np.float64)
    if sizes is not None:
        shape = _checked_sizes(sizes, "Sizes")
    elif "[" in tokens or "]" in tokens:
        shape = _checked_sizes(_nested_shape(tokens), "printed array shape")
    else:
        shape = (values.size,)
    if math.prod(shape) != values.size:
        raise DescriptorError(
            f"printed array: {values.size} values given, but Sizes {list(shape)} hold {math.prod(shape)}"
        )
    check_element_count(shape, "printed array shape")
    return values.reshape(shape)
