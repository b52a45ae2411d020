"""Checks shared by every operator: array types, dimension counts and the memory cap."""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator

import numpy as np

from .datatypes import type_name
from .errors import DescriptorError

DEFAULT_ELEMENT_CAP = 2**26
# The cap lives here and only here: a context variable, so a cap set around one computation (one Streamlit session's
# script thread, a fragment's rerun, a shared computation) never leaks into another thread running at the same time.
# Outside every element_cap_set_to block it is DEFAULT_ELEMENT_CAP.
_cap = contextvars.ContextVar("element_cap", default=DEFAULT_ELEMENT_CAP)


def element_cap():
    """The largest element count any one tensor may have here; work beyond it is refused before allocating."""
    return _cap.get()


def _checked_cap(count):
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise DescriptorError(f"element cap {count!r}: must be a positive integer")
    return count


@contextlib.contextmanager
def element_cap_set_to(count: int) -> Iterator[None]:
    """The cap for the code inside the with block, in this thread (or task) only."""
    token = _cap.set(_checked_cap(count))
    try:
        yield
    finally:
        _cap.reset(token)


def check_element_count(sizes, field):
    count = math.prod(int(s) for s in sizes)
    cap = element_cap()
    if count > cap:
        raise DescriptorError(
            f"{field} {list(sizes)}: {count:,} elements exceed the cap of {cap:,} elements per tensor"
        )
    return count


def check_tensor(x, field, dims=None):
    """Check one input array and return it; dims is an exact count or a (low, high) range."""
    if not isinstance(x, np.ndarray):
        raise DescriptorError(f"{field}: expected a numpy array, got {type(x).__name__}")
    type_name(x.dtype, f"{field} DataType")
    if isinstance(dims, int) and x.ndim != dims:
        raise DescriptorError(
            f"{field} Sizes {list(x.shape)}: DimensionCount is {x.ndim}; this operator needs exactly {dims}"
        )
    if isinstance(dims, tuple) and not dims[0] <= x.ndim <= dims[1]:
        raise DescriptorError(
            f"{field} Sizes {list(x.shape)}: DimensionCount is {x.ndim}; "
            f"this operator needs {dims[0]} to {dims[1]}"
        )
    if 0 in x.shape:
        raise DescriptorError(f"{field} Sizes {list(x.shape)}: a size of 0 is invalid in DirectML")
    check_element_count(x.shape, f"{field} Sizes")
    return x


def check_positive_int(value, field):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise DescriptorError(f"{field} {value!r}: must be a positive integer")
    if value < 1:
        raise DescriptorError(f"{field} {value}: must be at least 1")
    return int(value)
