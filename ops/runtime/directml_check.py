"""The reference core's operators on DirectML itself (ops/runtime/directml): the same call, byte for byte.

DirectML receives exactly the descriptors the core computes with: packed DML_BUFFER_TENSOR_DESCs of the arrays'
types and sizes (TotalTensorSizeInBytes the implied size rounded up to 4, SPEC section 1), the operator's attributes
as the core accepted them, on a device created at the highest feature level the library supports (so every type an
operator gained at a later level is allowed). Outputs start as zero bytes and come back whole.
"""

import functools

import numpy as np

from ..datatypes import type_name
from ..descriptors.tensor_desc import TensorDesc, round_up
from .directml import WorkerFailed, directml_status, hresult_text, run_operator as run_on_directml
from .report import CrossCheckReport, compare_outputs

RUNTIME_LABEL = "DirectML"


def packed_desc(shape, dtype):
    dtype = np.dtype(dtype)
    return TensorDesc(type_name(dtype), tuple(int(s) for s in shape), None, "NONE", len(shape),
                      round_up(int(np.prod(shape)) * dtype.itemsize, 4), 0)


def _buffer(array, desc):
    data = np.ascontiguousarray(array).tobytes()[: desc.TotalTensorSizeInBytes]
    return data + bytes(desc.TotalTensorSizeInBytes - len(data))


def _from_buffer(data, shape, dtype):
    return np.frombuffer(data, dtype, int(np.prod(shape))).reshape(shape).copy()


def refusal(status, result, data_type):
    """Why DirectML did not run a call, in one sentence: the failing call, its HRESULT, and vkd3d-shader's reason."""
    text = f"DirectML could not run this call: {result.stage} returned {hresult_text(result.hresult)}"
    if result.diagnostics:
        text += f"; vkd3d-shader could not translate DirectML's shader: {result.diagnostics[0].rstrip('.')}"
    if data_type not in status.type_support:
        text += (f"; the device reports {data_type} tensors unsupported "
                 "(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT)")
    return text + "."


def _attrs(name, attrs):
    if name in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        return {"block_size": attrs["block_size"], "order": attrs["order"]}
    if name in ("SPLIT", "JOIN"):
        return {"axis": attrs["axis"]}
    return {}


def run_buffers(name, inputs, outputs, attrs, expected, data_type):
    """CrossCheckReport for one DirectML run. inputs: (desc, bytes); outputs: (desc, bytes before the run, shape,
    dtype), read back as arrays of that shape."""
    report = functools.partial(CrossCheckReport, name, expected=expected, runtime="directml")
    status = directml_status()
    if not status.available:
        return report(None, False, False, actual=[], note=status.reason)
    try:
        result = run_on_directml(name, inputs, [(d, data) for d, data, _, _ in outputs], attrs,
                                 level=status.max_feature_level)
    except WorkerFailed as error:
        return report(status.provider, False, False, actual=[], note=f"{error}.")
    if not result.ok:
        return report(status.provider, False, False, actual=[], note=refusal(status, result, data_type))
    actual = [_from_buffer(data, shape, dtype) for data, (_, _, shape, dtype) in zip(result.outputs, outputs)]
    first_mismatch, outcome = compare_outputs(expected, actual, RUNTIME_LABEL)
    note = (f"Ran DML_OPERATOR_{name} on {status.provider}, on the descriptors the core validated, "
            f"{data_type} as {data_type}. {outcome}")
    return report(status.provider, True, first_mismatch is None, actual=actual, note=note,
                  first_mismatch=first_mismatch, ran_as=data_type)


def run_operator(name, inputs, attrs, expected):
    """CrossCheckReport of `name` run on DirectML against `expected` (the core's outputs, or given ones)."""
    input_descs = [packed_desc(a.shape, a.dtype) for a in inputs]
    outputs = []
    for e in expected:
        desc = packed_desc(e.shape, e.dtype)
        outputs.append((desc, bytes(desc.TotalTensorSizeInBytes), e.shape, e.dtype))
    return run_buffers(name, [(d, _buffer(a, d)) for d, a in zip(input_descs, inputs)], outputs,
                       _attrs(name, attrs), expected, type_name(inputs[0].dtype))


def run_identity(input_buffer, inp, out, previous, expected):
    """ELEMENT_WISE_IDENTITY between the two buffer descs: the whole output buffer compared."""
    outputs = [(out, _buffer(previous, out), (out.buffer_elements,), out.dtype)]
    return run_buffers("ELEMENT_WISE_IDENTITY", [(inp, _buffer(input_buffer[: inp.buffer_elements], inp))], outputs,
                       {}, [expected], inp.DataType)
