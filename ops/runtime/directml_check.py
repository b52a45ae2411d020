"""The reference core's operators on DirectML itself (ops/runtime/directml): the same call, byte for byte.

DirectML receives exactly the descriptors the core computes with: packed DML_BUFFER_TENSOR_DESCs of the arrays'
types and sizes (TotalTensorSizeInBytes the implied size rounded up to 4, SPEC section 1), the operator's attributes
as the core accepted them, on a device created at the highest feature level the library supports (so every type an
operator gained at a later level is allowed). Outputs start as zero bytes and come back whole.
"""

import functools
import re

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


def run_identity(input_buffer, inp, out, previous, expected, scale_bias=None):
    """ELEMENT_WISE_IDENTITY between the two buffer descs (with DML_SCALE_BIAS {Scale, Bias} when given): the whole
    output buffer compared."""
    outputs = [(out, _buffer(previous, out), (out.buffer_elements,), out.dtype)]
    attrs = {} if scale_bias is None else {"scale_bias": [scale_bias["Scale"], scale_bias["Bias"]]}
    return run_buffers("ELEMENT_WISE_IDENTITY", [(inp, _buffer(input_buffer[: inp.buffer_elements], inp))], outputs,
                       attrs, [expected], inp.DataType)


# ---------------------------------------------------------------- the matrix: every operator x type x setting


def _random(shape, dtype, rng):
    """Arbitrary bytes: floats carry NaN payloads, -0.0, infinities and subnormals as they fall."""
    dtype = np.dtype(dtype)
    return rng.integers(0, 256, int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


def _matrix_calls(dtype, rng):
    """(setting, op, inputs, attrs) for one data type: both orders, uneven splits and joins, every layout preset."""
    from ..operators.depth_space import depth_to_space

    depth = _random((1, 8, 2, 3), dtype, rng)
    for order in ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"):
        yield order, "DEPTH_TO_SPACE1", [depth], {"block_size": 2, "order": order}
        yield order, "SPACE_TO_DEPTH1", [depth_to_space(depth, 2, order)], {"block_size": 2, "order": order}
    yield "A OR B, {2,3}", "ELEMENT_WISE_BIT_OR", [_random((2, 3), dtype, rng), _random((2, 3), dtype, rng)], {}
    yield "{1,1,6,2} axis 2 into 2, 1, 3", "SPLIT", [_random((1, 1, 6, 2), dtype, rng)], {"axis": 2, "sizes": (2, 1, 3)}
    parts = [_random((1, 1, n, 2), dtype, rng) for n in (2, 1, 3)]
    yield "axis 2 from 2, 1, 3", "JOIN", parts, {"axis": 2}


def matrix_rows(seed=0):
    """One dict per cell (operator, setting, data type): what DirectML did with arbitrary bytes, next to the core."""
    from ..datatypes import DML_TYPES, numpy_dtype
    from ..operators.identity import LAYOUT_PRESETS, identity_descs, layout_preset
    from .cross_check import cross_check

    rows = []
    for data_type in DML_TYPES:
        rng = np.random.default_rng(seed)
        dtype = numpy_dtype(data_type)
        for setting, op, inputs, attrs in _matrix_calls(dtype, rng):
            report = cross_check(op, inputs, runtime="directml", **attrs)
            rows.append(dict(op=op, setting=setting, data_type=data_type, report=report))
        for preset in LAYOUT_PRESETS:
            inp, out = identity_descs(*layout_preset(preset, data_type))
            source, previous = (_random((d.buffer_elements,), dtype, rng) for d in (inp, out))
            report = cross_check("ELEMENT_WISE_IDENTITY", [source, previous], input_desc=inp, output_desc=out,
                                 runtime="directml")
            rows.append(dict(op="ELEMENT_WISE_IDENTITY", setting=preset, data_type=data_type, report=report))
    return rows


def cell_text(report):
    """identical, DIFFERS at [index], or refused: the failing call and, shortened, vkd3d-shader's reason."""
    if report.available:
        return "identical" if report.matches else f"DIFFERS at {list(report.first_mismatch[1] or ())}"
    note = report.note.removeprefix("DirectML could not run this call: ")
    call = note.split(" returned ")[0]
    if "tensors unsupported" in note:
        return f"refused by {call}: type unsupported by the device"
    diagnostic = re.search(r"E\d{4}: (?:Call to intrinsic function )?(.*?)(?: is unhandled| is not supported)?\.?$", note)
    if diagnostic:
        return f"refused by {call}: vkd3d-shader lacks {diagnostic.group(1)}"
    return f"refused: {note}"
