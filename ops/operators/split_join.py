"""DML_SPLIT and DML_JOIN: cutting a tensor along one axis and gluing the pieces back."""

import numpy as np

from . import parallel
from ..errors import DescriptorError
from ..guard import check_element_count, check_positive_int, check_tensor

DIMS = (1, 8)


def check_axis(axis, dimension_count):
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise DescriptorError(f"Axis {axis!r}: must be an integer")
    if not 0 <= axis < dimension_count:
        raise DescriptorError(
            f"Axis {axis}: must be in [0, {dimension_count - 1}] for a {dimension_count}-D tensor"
        )
    return int(axis)


def split(x, axis, sizes):
    check_tensor(x, "InputTensor", dims=DIMS)
    axis = check_axis(axis, x.ndim)
    if isinstance(sizes, (int, np.integer)) or not hasattr(sizes, "__len__"):
        raise DescriptorError(f"OutputTensors sizes {sizes!r}: expected a list of sizes along Axis")
    if len(sizes) == 0:
        raise DescriptorError("OutputCount 0: must be greater than 0")
    sizes = [check_positive_int(s, f"OutputTensors[{i}] Sizes[{axis}]") for i, s in enumerate(sizes)]
    if sum(sizes) != x.shape[axis]:
        raise DescriptorError(
            f"OutputTensors Sizes along Axis {axis}: {' + '.join(map(str, sizes))} = {sum(sizes)}, "
            f"but the input's size along Axis is {x.shape[axis]}"
        )
    bounds = np.cumsum([0] + sizes)
    index = [slice(None)] * x.ndim
    outputs = []
    for start, stop in zip(bounds[:-1], bounds[1:]):
        index[axis] = slice(int(start), int(stop))
        piece = x[tuple(index)]
        outputs.append(np.empty(piece.shape, dtype=x.dtype))
        parallel.copy(outputs[-1], piece)
    return outputs


def join(arrays, axis):
    if isinstance(arrays, np.ndarray) or not hasattr(arrays, "__len__"):
        raise DescriptorError("InputTensors: expected a list of arrays")
    if len(arrays) == 0:
        raise DescriptorError("InputCount 0: must be greater than 0")
    for i, a in enumerate(arrays):
        check_tensor(a, f"InputTensors[{i}]", dims=DIMS)
    first = arrays[0]
    axis = check_axis(axis, first.ndim)
    for i, a in enumerate(arrays[1:], start=1):
        if a.dtype != first.dtype:
            raise DescriptorError(
                f"InputTensors[{i}] DataType {a.dtype}: must equal InputTensors[0] DataType {first.dtype}"
            )
        if a.ndim != first.ndim:
            raise DescriptorError(
                f"InputTensors[{i}] DimensionCount {a.ndim}: must equal InputTensors[0]'s {first.ndim}"
            )
        for d in range(first.ndim):
            if d != axis and a.shape[d] != first.shape[d]:
                raise DescriptorError(
                    f"InputTensors[{i}] Sizes[{d}] = {a.shape[d]}: must equal InputTensors[0] Sizes[{d}] = "
                    f"{first.shape[d]} (only Axis {axis} may differ)"
                )
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=first.dtype)
    index, start = [slice(None)] * first.ndim, 0
    for a in arrays:
        index[axis] = slice(start, start + a.shape[axis])
        parallel.copy(out[tuple(index)], a)
        start += a.shape[axis]
    return out
