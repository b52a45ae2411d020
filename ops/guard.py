"""Checks shared by every operator: array types, dimension counts and the memory cap."""

import contextlib
import math

import numpy as np

from .datatypes import type_name
from .errors import DescriptorError

DEFAULT_ELEMENT_CAP = 2**26
_cap = DEFAULT_ELEMENT_CAP


def element_cap():
    return _cap


def set_element_cap(count):
    """Largest element count any one tensor may have; work beyond it is refused before allocating."""
    global _cap
    if not isinstance(count, int) or count < 1:
        raise DescriptorError(f"element cap {count!r}: must be a positive integer")
    _cap = count


@contextlib.contextmanager
def element_cap_set_to(count):
    previous = _cap
    set_element_cap(count)
    try:
        yield
    finally:
        set_element_cap(previous)


def check_element_count(sizes, field):
    count = math.prod(int(s) for s in sizes)
    if count > _cap:
        raise DescriptorError(
            f"{field} {list(sizes)}: {count:,} elements exceed the cap of {_cap:,} elements per tensor"
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
