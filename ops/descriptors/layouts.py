"""DML_ELEMENT_WISE_IDENTITY: copy a tensor from one buffer layout into another.

DirectML's page for DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC (learn.microsoft.com/windows/win32/api/directml/
ns-directml-dml_element_wise_identity_operator_desc) defines f(x) = x per element; InputTensor and OutputTensor must
share DataType, DimensionCount and Sizes, so the only thing the operator can change is the layout, which the two
buffer tensor descs' Strides give ("Using strides to express padding and memory layout",
learn.microsoft.com/windows/ai/directml/dml-strides): a permuted stride order transposes (NCHW <-> NHWC), a 0 stride
broadcasts one stored element along a dimension, output strides larger than packed leave padding, and a window of a
larger buffer is a desc whose Strides step over the rest of it.

Buffers are 1-D arrays of the DataType holding TotalTensorSizeInBytes // element size elements; logical element i
lives at offset dot(index, Strides). The copy moves bit patterns (no value conversion: NaN payloads, -0.0 and
subnormals arrive as they left). Buffer elements the output desc never addresses keep the output buffer's previous
contents here; DirectML may write anywhere within TotalTensorSizeInBytes (DML_BUFFER_TENSOR_DESC), so padding bytes
are unspecified there.

ScaleBias (DML_SCALE_BIAS, two FLOATs) makes it g(x) = x * Scale + Bias per element copied, as DirectML computes it
(ops/operators/identity/scale_bias.py).

One more observation makes a FLOAT16 copy not quite bit for bit: where the layout change is a transpose DirectML runs
with its tiled transpose shader, the FLOAT16 values travel through float32 (the shader's DXIL loads them through a
typed R16_FLOAT view into float32 groupshared memory and stores them back through one), and that conversion makes
signalling NaNs quiet; every other bit arrives unchanged. `travels_through_float32` says which layouts those are,
as observed over 4,788 layouts (docs/directml.md, "FLOAT16 transposes").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import DTypeLike

from ..datatypes import element_size, type_name
from ..errors import DescriptorError
from ..guard import check_element_count
from ..operators.identity import scale_bias as checked_scale_bias
from ..operators.identity.scale_bias import apply_scale_bias
from ..tensor_desc import TensorDesc, element_offsets, normalize_tensor_desc, packed_strides, round_up
from .validate import normalized_dispatchable, validate_problems

OPERATOR = "DML_OPERATOR_ELEMENT_WISE_IDENTITY"


def desc_json(desc):
    """A tensor desc as DxDispatch JSON: TensorDesc or dict in, dict out."""
    if isinstance(desc, TensorDesc):
        return desc.to_json()
    if not isinstance(desc, dict):
        raise DescriptorError(f"tensor desc: expected a dict or TensorDesc, got {type(desc).__name__}")
    return desc


def identity_dispatchable(input_desc, output_desc, scale_bias=None):
    """The DxDispatch dispatchable {type, desc} for these two descs, with ScaleBias {Scale, Bias} when given."""
    desc = {"InputTensor": desc_json(input_desc), "OutputTensor": desc_json(output_desc)}
    if scale_bias is not None:
        desc["ScaleBias"] = scale_bias
    return {"type": OPERATOR, "desc": desc}


def identity_problems(input_desc, output_desc, feature_level="6_4", scale_bias=None):
    """Every rule the pair breaks at `feature_level`, as "path: message" strings ([] = valid)."""
    dispatchable = identity_dispatchable(input_desc, output_desc, scale_bias)
    return [str(p) for p in validate_problems(dispatchable, feature_level)]


def identity_descs(input_desc, output_desc, feature_level="6_4", scale_bias=None):
    """(input TensorDesc, output TensorDesc) of a valid pair, else DescriptorError listing every problem."""
    parsed = normalized_dispatchable(identity_dispatchable(input_desc, output_desc, scale_bias), feature_level)
    return parsed.tensors["InputTensor"], parsed.tensors["OutputTensor"]


def _packed_permutation(sizes, strides):
    """True when the strides address every element once with no gap: a permutation of packed strides."""
    step = 1
    for size, stride in sorted((d for d in zip(sizes, strides) if d[0] != 1), key=lambda d: d[1]):
        if stride != step:
            return False
        step *= size
    return True


def _contiguous(outer, inner):
    """Whether dimension `outer` (size, input stride, output stride) is `inner`'s next one in both layouts."""
    return outer[1] == inner[1] * inner[0] and outer[2] == inner[2] * inner[0]


def travels_through_float32(input_desc, output_desc):
    """Whether DirectML's ELEMENT_WISE_IDENTITY of these two descs runs its tiled transpose shader, through which
    FLOAT16 values pass as float32 (signalling NaNs come out quiet). Observed rule (docs/directml.md):

    - both layouts are permutations of packed strides (no gap, no broadcast), and
    - with size-1 dimensions left out, taken in the output's order and merged where they are contiguous in both
      layouts, the input holds the same outer dimensions first, then the remaining ones as two runs swapped (a
      batch of 2-D transposes); or
    - a 4-D tensor with N and C above 1 whose H and W are contiguous in both (or one of them is 1), stored N, C,
      H*W in the output and H*W, C, N in the input.
    """
    sizes = input_desc.Sizes
    strides_in = input_desc.Strides or packed_strides(sizes)
    strides_out = output_desc.Strides or packed_strides(sizes)
    if not (_packed_permutation(sizes, strides_in) and _packed_permutation(sizes, strides_out)):
        return False
    dims = sorted((d for d in zip(sizes, strides_in, strides_out) if d[0] != 1), key=lambda d: -d[2])
    groups = []
    for dim in dims:
        if groups and _contiguous(groups[-1], dim):
            groups[-1] = (groups[-1][0] * dim[0], dim[1], dim[2])
        else:
            groups.append(dim)
    order = sorted(range(len(groups)), key=lambda g: -groups[g][1])  # input order, in output positions
    shared = next((k for k, g in enumerate(order) if g != k), len(order))
    rest = order[shared:]
    if any(rest == list(range(cut, len(order))) + list(range(shared, cut)) for cut in range(shared + 1, len(order))):
        return True
    if len(sizes) != 4 or min(sizes[0], sizes[1]) == 1 or sizes[2] * sizes[3] == 1:
        return False
    spatial = 3 if sizes[3] != 1 else 2
    h, w = (sizes[2], strides_in[2], strides_out[2]), (sizes[3], strides_in[3], strides_out[3])
    if 1 not in (sizes[2], sizes[3]) and not _contiguous(h, w):
        return False
    return (strides_out[0] > strides_out[1] > strides_out[spatial]
            and strides_in[spatial] > strides_in[1] > strides_in[0])


def _quiet_float16_nans(values):
    """The float16 values with every signalling NaN made quiet (its quiet bit set), as a float32 round trip does."""
    bits = values.view(np.uint16)
    signalling = ((bits & 0x7C00) == 0x7C00) & ((bits & 0x03FF) != 0) & ((bits & 0x0200) == 0)
    return np.where(signalling, bits | 0x0200, bits).astype(np.uint16).view(np.float16)


def _buffer(array, desc, field):
    if not isinstance(array, np.ndarray) or array.ndim != 1:
        raise DescriptorError(f"{field}: expected a 1-D numpy array of {desc.DataType}")
    if array.dtype != desc.dtype:
        raise DescriptorError(f"{field}: holds {array.dtype}, but its desc's DataType is {desc.DataType}")
    if array.nbytes < desc.buffer_elements * desc.element_size:
        raise DescriptorError(
            f"{field}: holds {array.nbytes} bytes, less than its desc's TotalTensorSizeInBytes "
            f"{desc.TotalTensorSizeInBytes}"
        )
    return array


def element_wise_identity(input_buffer: np.ndarray, input_desc: TensorDesc | dict, output_desc: TensorDesc | dict,
                          output_buffer: np.ndarray | None = None, feature_level: str = "6_4",
                          scale_bias: dict | Sequence[float] | None = None) -> np.ndarray:
    """The output buffer after DML_ELEMENT_WISE_IDENTITY copied `input_buffer` through the two descs.

    Descs are DxDispatch JSON dicts or TensorDescs; an invalid pair (at `feature_level`) raises DescriptorError
    naming every field and rule. `output_buffer` (default zeros) gives the bytes the copy does not address; it is
    not modified. `scale_bias` is DML_SCALE_BIAS as {"Scale": s, "Bias": b}, applied to every element copied as
    DirectML applies it (see the module's docstring). The result has TotalTensorSizeInBytes // element size elements
    of the output DataType.
    """
    inp, out = identity_descs(input_desc, output_desc, feature_level, scale_bias)
    check_element_count(inp.Sizes, "InputTensor.Sizes")
    check_element_count((out.buffer_elements,), "OutputTensor.TotalTensorSizeInBytes")
    source = _buffer(input_buffer, inp, "input_buffer")
    if output_buffer is None:
        result = np.zeros(out.buffer_elements, dtype=out.dtype)
    else:
        result = _buffer(output_buffer, out, "output_buffer")[: out.buffer_elements].copy()
    copied = source[element_offsets(inp.Sizes, inp.Strides)]
    if scale_bias is not None:
        copied = apply_scale_bias(copied, *checked_scale_bias(scale_bias))
    if copied.dtype == np.float16 and travels_through_float32(inp, out):
        copied = _quiet_float16_nans(copied)
    result[element_offsets(out.Sizes, out.Strides)] = copied
    return result


def logical_tensor(buffer, desc):
    """The tensor of shape Sizes that `desc` reads from `buffer` (a copy)."""
    desc = desc if isinstance(desc, TensorDesc) else normalize_tensor_desc(desc_json(desc))
    check_element_count(desc.Sizes, "Sizes")
    return _buffer(buffer, desc, "buffer")[element_offsets(desc.Sizes, desc.Strides)]


@dataclass(frozen=True)
class CopyStep:
    """One element of the copy: its logical index and where it is read from and written to (element offsets)."""

    index: tuple
    source: int
    destination: int


def copy_order(input_desc, output_desc, limit=None):
    """The copy as steps in the output's memory order (ascending destination offset), up to `limit` steps.

    This is the order a reader of the output buffer meets the elements, which is what a layout change rearranges:
    for NCHW -> NHWC the destinations run 0, 1, 2, ... while the sources jump by H*W.
    """
    inp, out = identity_descs(input_desc, output_desc)
    check_element_count(inp.Sizes, "InputTensor.Sizes")
    destination = element_offsets(out.Sizes, out.Strides).ravel()
    source = element_offsets(inp.Sizes, inp.Strides).ravel()
    order = np.argsort(destination, kind="stable")[:limit]
    indices = np.stack(np.unravel_index(order, inp.Sizes), axis=1).tolist()
    return [CopyStep(tuple(i), int(source[k]), int(destination[k])) for i, k in zip(indices, order)]


def _desc(data_type, sizes, strides=None, total_elements=None):
    obj = {"DataType": type_name(data_type), "Sizes": list(sizes)}
    if strides is not None:
        obj["Strides"] = list(strides)
    if total_elements is not None:
        obj["TotalTensorSizeInBytes"] = round_up(element_size(data_type) * total_elements, 4)
    return obj


def _nchw_to_nhwc(data_type):
    n, c, h, w = 1, 3, 2, 4
    return _desc(data_type, (n, c, h, w)), _desc(data_type, (n, c, h, w), (h * w * c, 1, w * c, c))


def _transpose_last_two(data_type):
    return _desc(data_type, (3, 4)), _desc(data_type, (3, 4), (1, 3))


def _broadcast_row(data_type):
    return _desc(data_type, (3, 4), (0, 1)), _desc(data_type, (3, 4))


def _pad_by_one(data_type):
    # One padding element after every row and one padding row after the plane, as in DirectML's strides guide.
    return _desc(data_type, (1, 1, 3, 3)), _desc(data_type, (1, 1, 3, 3), (16, 16, 4, 1), total_elements=16)


def _window(data_type):
    # The top-left 2 x 3 window of a 4 x 5 buffer: the row stride is the larger buffer's row length.
    return _desc(data_type, (2, 3), (5, 1), total_elements=20), _desc(data_type, (2, 3))


def _copy(data_type):
    return _desc(data_type, (2, 3)), _desc(data_type, (2, 3))


# name -> data_type -> (input desc, output desc) as DxDispatch JSON
LAYOUT_PRESETS = {
    "copy": _copy,
    "NCHW -> NHWC": _nchw_to_nhwc,
    "transpose last two axes": _transpose_last_two,
    "broadcast a row": _broadcast_row,
    "pad by 1": _pad_by_one,
    "window of a larger buffer": _window,
}


def layout_preset(name: str, data_type: DTypeLike) -> tuple[dict, dict]:
    """(input desc, output desc) of a named layout preset for `data_type`."""
    if name not in LAYOUT_PRESETS:
        raise DescriptorError(f"preset {name!r}: expected one of {', '.join(LAYOUT_PRESETS)}")
    return LAYOUT_PRESETS[name](data_type)


def identity_model(input_buffer, input_desc, output_desc):
    """A DxDispatch model (dict) running this copy: resource `input` holds `input_buffer`, `output` starts zeroed."""
    from ..descriptors.export import initial_values

    inp, out = identity_descs(input_desc, output_desc)
    source = _buffer(input_buffer, inp, "input_buffer")[: inp.buffer_elements]
    data_type, values = initial_values(source)
    return {
        "resources": {
            "input": {"initialValuesDataType": data_type, "initialValues": values},
            "output": {"initialValuesDataType": out.DataType,
                       "initialValues": {"valueCount": out.buffer_elements, "value": 0}},
        },
        "dispatchables": {"identity": identity_dispatchable(input_desc, output_desc)},
        "commands": [
            {"type": "dispatch", "dispatchable": "identity",
             "bindings": {"InputTensor": "input", "OutputTensor": "output"}},
            {"type": "print", "resource": "output"},
        ],
    }
