"""DML_ELEMENT_WISE_BIT_OR: bitwise OR on the native encoding; the data type only sets the width."""

import numpy as np

from . import parallel
from ..datatypes import unsigned_of_width
from ..errors import DescriptorError
from ..guard import check_tensor


def bit_or(a, b):
    check_tensor(a, "ATensor", dims=(1, 8))
    check_tensor(b, "BTensor", dims=(1, 8))
    if a.dtype != b.dtype:
        raise DescriptorError(f"BTensor DataType {b.dtype}: must equal ATensor DataType {a.dtype}")
    if a.shape != b.shape:
        raise DescriptorError(
            f"BTensor Sizes {list(b.shape)}: must equal ATensor Sizes {list(a.shape)} "
            "(DirectML has no implicit broadcasting; use a 0 stride in the descriptor)"
        )
    bits = unsigned_of_width(a.dtype.itemsize)
    out = np.empty(a.shape, dtype=bits)
    parallel.elementwise(lambda o, x, y: np.bitwise_or(x, y, out=o), out, a.view(bits), b.view(bits))
    return out.view(a.dtype)
