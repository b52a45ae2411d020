"""The reference core's operators on DirectML itself (ops/runtime/directml): the same call, byte for byte.

DirectML receives exactly the descriptors the core computes with: packed DML_BUFFER_TENSOR_DESCs of the arrays'
types and sizes (TotalTensorSizeInBytes the implied size rounded up to 4, SPEC section 1), the operator's attributes
as the core accepted them, on a device created at the highest feature level the library supports (so every type an
operator gained at a later level is allowed). Outputs start as zero bytes and come back whole.
"""

import dataclasses
import functools

import numpy as np

from ..datatypes import type_name
from ..operators import operator
from ..tensor_desc import TensorDesc, round_up
from .directml import RunResult, WorkerFailed, create_operator_verdict, directml_status, hresult_text
from .directml import run_operator as run_on_directml
from .onnxruntime_check import probe_tensor
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


def unsupported_type(status, data_type):
    """Why DirectML refuses a type on this device, from what the device said (its hello)."""
    text = f"the device reports {data_type} tensors unsupported (DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT)"
    fp64 = dict(status.fp64)
    if data_type == "FLOAT64" and fp64.get("DoublePrecisionFloatShaderOps") == 0:
        # vkd3d-proton, libs/vkd3d/device.c, d3d12_device_caps_init_feature_options.
        text += (": its D3D12 device answers DoublePrecisionFloatShaderOps FALSE, which vkd3d-proton sets only where "
                 "the Vulkan driver keeps float64 denormals (shaderDenormPreserveFloat64), as D3D12 requires")
        if fp64.get("shaderDenormPreserveFloat64") == 0:
            text += f", and {status.device} does not promise that"
    return text


def refusal(status, result, data_type):
    """Why DirectML did not run a call, in one sentence: the failing call, its HRESULT, and vkd3d-proton's reason."""
    text = f"DirectML could not run this call: {result.reason}"
    if data_type not in status.type_support:
        text += f"; {unsupported_type(status, data_type)}"
    return text + "."


def run_buffers(name, inputs, outputs, attrs, expected, data_type):
    """CrossCheckReport for one DirectML run. inputs: (desc, bytes); outputs: (desc, bytes before the run, shape,
    dtype), read back as arrays of that shape."""
    report = functools.partial(CrossCheckReport, name, expected=expected, runtime="directml")
    status = directml_status()
    if not status.available:
        return report(None, False, False, actual=[], note=status.reason)
    try:
        if data_type not in status.type_support:
            # DirectML's own CreateOperator verdict, asked without sending the tensors it will not take.
            hr = create_operator_verdict(name, [d for d, _ in inputs], [d for d, _, _, _ in outputs], attrs,
                                         status.max_feature_level)
            result = RunResult(hr, "CreateOperator" if hr else "", ())
        if data_type in status.type_support or result.ok:
            result = run_on_directml(name, inputs, [(d, data) for d, data, _, _ in outputs], attrs,
                                     level=status.max_feature_level)
    except WorkerFailed as error:
        return report(status.provider, False, False, actual=[], note=f"{error}.")
    if not result.ok:
        return report(status.provider, False, False, actual=[], note=refusal(status, result, data_type),
                      directml_result=result)
    actual = [_from_buffer(data, shape, dtype) for data, (_, _, shape, dtype) in zip(result.outputs, outputs)]
    first_mismatch, outcome = compare_outputs(expected, actual, RUNTIME_LABEL)
    note = (f"Ran DML_OPERATOR_{name} on {status.provider}, on the descriptors the core validated, "
            f"{data_type} as {data_type}. {outcome}")
    return report(status.provider, True, first_mismatch is None, actual=actual, note=note,
                  first_mismatch=first_mismatch, ran_as=data_type, directml_result=result)


def run_operator(name, inputs, attrs, expected):
    """CrossCheckReport of `name` run on DirectML against `expected` (the core's outputs, or given ones)."""
    input_descs = [packed_desc(a.shape, a.dtype) for a in inputs]
    outputs = []
    for e in expected:
        desc = packed_desc(e.shape, e.dtype)
        outputs.append((desc, bytes(desc.TotalTensorSizeInBytes), e.shape, e.dtype))
    return run_buffers(name, [(d, _buffer(a, d)) for d, a in zip(input_descs, inputs)], outputs,
                       operator(name).desc_attrs(attrs), expected, operator(name).data_type_of(inputs))


def run_identity(input_buffer, inp, out, previous, expected, scale_bias=None):
    """ELEMENT_WISE_IDENTITY between the two buffer descs (with DML_SCALE_BIAS {Scale, Bias} when given): the whole
    output buffer compared."""
    outputs = [(out, _buffer(previous, out), (out.buffer_elements,), out.dtype)]
    attrs = {} if scale_bias is None else {"scale_bias": [scale_bias["Scale"], scale_bias["Bias"]]}
    return run_buffers("ELEMENT_WISE_IDENTITY", [(inp, _buffer(input_buffer[: inp.buffer_elements], inp))], outputs,
                       attrs, [expected], inp.DataType)


# ---------------------------------------------------------------- the matrix: every operator x type x setting


def _random(shape, dtype, rng):
    """Arbitrary bytes; float tensors start with the patterns a value-converting kernel would alter (NaN payloads
    of both kinds and signs, -0.0, the smallest and largest subnormals, infinities), as far as they fit."""
    dtype = np.dtype(dtype)
    values = rng.integers(0, 256, int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype)
    if dtype.kind == "f":
        special = probe_tensor(dtype)[:11]
        values[: min(len(special), values.size)] = special[: values.size]
    return values.reshape(shape)


# The settings, each run for every data type: (setting, op, input shapes, attrs). Depth <-> space is 4-D only
# (DirectML's tensor support tables); the others go from 1 to 8 dimensions.
def _depth_space_settings():
    for order in ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"):
        for block in (2, 3, 4):
            attrs = {"block_size": block, "order": order}
            yield f"{order}, BlockSize {block}", "DEPTH_TO_SPACE1", [(2, 2 * block * block, 2, 3)], attrs
            yield f"{order}, BlockSize {block}", "SPACE_TO_DEPTH1", [(2, 2, 2 * block, 3 * block)], attrs


def _dims_shape(dims):
    """A small shape of `dims` dimensions (at most 96 elements) whose last axis is 6 long."""
    return (2,) * min(dims - 1, 4) + (1,) * max(dims - 5, 0) + (6,) if dims > 1 else (6,)


def _bitwise_settings():
    """Every operator of the bitwise family in 1 to 8 dimensions, BIT_COUNT writing each of its output types. The
    shifts' amounts are arbitrary bytes too, so most lie past the element's width, where DirectML's answer is its own
    (ops/operators/bitwise/core.py)."""
    from ..operators import bitwise

    for op in bitwise.OPERATORS:
        for output_type in getattr(op, "output_choices", (None,)):
            attrs = {"output_type": output_type} if output_type else {}
            for dims in range(1, 9):
                shape = _dims_shape(dims)
                setting = f"{dims}-D {list(shape)}" + (f", writing {output_type}" if output_type else "")
                yield setting, op.name, [shape] * op.arity[0], attrs


def _split_join_settings():
    whole = (4, 6, 4, 6)
    for axis in range(4):
        even = (whole[axis] // 2,) * 2
        uneven = (1, 3) if whole[axis] == 4 else (1, 2, 3)
        for name, sizes in (("even", even), ("uneven", uneven)):
            attrs = {"axis": axis, "sizes": sizes}
            yield f"{list(whole)} axis {axis}, {name} {list(sizes)}", "SPLIT", [whole], attrs
    for dims in (1, 2, 3, 5, 6, 7, 8):
        shape = _dims_shape(dims)
        yield f"{dims}-D {list(shape)} last axis, uneven [1, 2, 3]", "SPLIT", [shape], {"axis": dims - 1,
                                                                                       "sizes": (1, 2, 3)}
    for count in (2, 3, 4):
        parts = [(2, n, 3, 2) for n in range(1, count + 1)]
        yield f"{count} inputs on axis 1, {[p[1] for p in parts]}", "JOIN", parts, {"axis": 1}
    for axis in (0, 2, 3):
        parts = [tuple(3 if a == axis else (2, 2, 3, 2)[a] for a in range(4)), (2, 2, 3, 2)]
        yield f"2 inputs on axis {axis}", "JOIN", parts, {"axis": axis}
    for dims in (1, 2, 3, 5, 6, 7, 8):
        shape = _dims_shape(dims)
        parts = [shape[:-1] + (n,) for n in (1, 2, 3)]
        yield f"{dims}-D, 3 inputs on the last axis", "JOIN", parts, {"axis": dims - 1}


# The gather and scatter family: each operator on one or more shapes, with indices of every index type drawn small
# (mostly inside their axes, some past them, negative ones for signed types: collisions among a scatter's updates
# included) or as arbitrary bits (past their axes, from the end, past 32 bits), the data arbitrary bytes.
_GATHER_SCATTER_SHAPES = (
    ("GATHER", "[2, 3, 4] axis 1, IndexDimensions 1", [(2, 3, 4), (1, 1, 5)], {"axis": 1, "index_dimensions": 1}),
    ("GATHER", "[2, 3, 4] axis 2, IndexDimensions 2", [(2, 3, 4), (1, 2, 3)], {"axis": 2, "index_dimensions": 2}),
    ("GATHER", "8-D, last axis", [(2,) + (1,) * 6 + (3,), (1,) * 7 + (4,)], {"axis": 7, "index_dimensions": 1}),
    ("GATHER_ELEMENTS", "[2, 3, 4] axis 1, 5 indices", [(2, 3, 4), (2, 5, 4)], {"axis": 1}),
    ("GATHER_ND", "[1, 3, 4, 2] by pairs", [(1, 3, 4, 2), (1, 2, 3, 2)], {"input_dimensions": 3,
                                                                         "indices_dimensions": 3}),
    ("GATHER_ND1", "[2, 3, 4], 1 batch dimension", [(2, 3, 4), (2, 5, 1)],
     {"input_dimensions": 3, "indices_dimensions": 3, "batch_dimensions": 1}),
    ("SCATTER", "[2, 3, 4] axis 1, 2 updates", [(2, 3, 4), (2, 2, 4), (2, 2, 4)], {"axis": 1}),
    ("SCATTER_ND", "[3, 4, 2] by pairs", [(3, 4, 2), (1, 5, 2), (1, 5, 2)], {"input_dimensions": 3,
                                                                            "indices_dimensions": 2}),
    ("ONE_HOT", "[2, 1, 4] axis 1, depth 5", [(2, 1, 4), (2,)], {"axis": 1, "depth": 5}),
)


def _gather_scatter_calls(dtype, rng, bounded=False):
    """Every shape with indices of every index type, small and arbitrary; `bounded`: two of those eight per shape,
    the index types taking turns from shape to shape (every operator and every data type still)."""
    from ..operators.gather_scatter import INDEX_TYPES

    for number, (op, shape_text, shapes, attrs) in enumerate(_GATHER_SCATTER_SHAPES):
        indices = operator(op).input_labels(len(shapes)).index("IndicesTensor")
        kinds = [(t, spread) for t in INDEX_TYPES for spread in ("small", "arbitrary")]
        if bounded:
            kinds = [(INDEX_TYPES[number % 4], "small"), (INDEX_TYPES[(number + 1) % 4], "arbitrary")]
        for index_type, spread in kinds:
            index_dtype = np.dtype(index_type.lower())
            inputs = [_random(shape, dtype, rng) for shape in shapes]
            if spread == "small":
                low = -8 if index_dtype.kind == "i" else 0
                inputs[indices] = rng.integers(low, 8, shapes[indices]).astype(index_dtype)
            else:
                inputs[indices] = _random(shapes[indices], index_dtype, rng)
            yield f"{shape_text}, {spread} {index_type} indices", op, inputs, attrs


def _slice_pad_settings():
    """The slice, pad and tile family: SLICE1 with negative strides and TILE in 1 to 8 dimensions; PADDING1 in each
    mode with pads wider than the input and size-1 dimensions; REVERSE_SUBSEQUENCES along each axis with UINT32 and
    UINT64 lengths, arbitrary bytes (most past the axis, where DirectML's answer is its own) and lengths within the
    axis; UPSAMPLE_2D in 4 and 5 dimensions."""
    from ..operators.slice_pad import core, lengths_shape

    for dims in range(1, 9):
        shape = _dims_shape(dims)
        offsets = tuple(int(s > 1) for s in shape)
        strides = tuple((-1, 2, -2, 1)[d % 4] for d in range(dims))
        yield (f"{dims}-D {list(shape)}, strides {list(strides)}", "SLICE1", [shape],
               {"window_offsets": offsets, "window_sizes": tuple(s - o for s, o in zip(shape, offsets)),
                "window_strides": strides})
        repeats = tuple(2 if d in (0, dims - 1) else 1 for d in range(dims))
        yield f"{dims}-D {list(shape)}, repeats {list(repeats)}", "TILE", [shape], {"repeats": repeats}
    for mode in core.PADDING_MODES:
        yield (f"{mode}, [2, 3, 4] padded (1, 0, 5) and (0, 4, 1)", "PADDING1", [(2, 3, 4)],
               {"mode": mode, "padding_value": 7, "start_padding": (1, 0, 5), "end_padding": (0, 4, 1)})
        yield (f"{mode}, [1, 3, 1] padded (2, 0, 3) and (1, 7, 2)", "PADDING1", [(1, 3, 1)],
               {"mode": mode, "padding_value": 7, "start_padding": (2, 0, 3), "end_padding": (1, 7, 2)})
        shape = _dims_shape(8)
        yield (f"{mode}, 8-D {list(shape)} padded 1 before and 2 after the last axis", "PADDING1", [shape],
               {"mode": mode, "padding_value": 7, "start_padding": (0,) * 7 + (1,), "end_padding": (0,) * 7 + (2,)})
    for axis in range(4):
        for lengths_type in ("UINT32", "UINT64"):
            shapes = [(2, 3, 4, 5), lengths_shape((2, 3, 4, 5), axis)]
            for lengths in ("arbitrary", "within the axis"):
                yield (f"[2, 3, 4, 5] axis {axis}, {lengths} {lengths_type} lengths", "REVERSE_SUBSEQUENCES", shapes,
                       {"axis": axis, "lengths_type": lengths_type})
    yield "4-D [2, 3, 2, 4], ScaleSize {Width 2, Height 3}", "UPSAMPLE_2D", [(2, 3, 2, 4)], {"scale_size": (2, 3)}
    yield "5-D [1, 2, 2, 3, 2], ScaleSize {Width 3, Height 1}", "UPSAMPLE_2D", [(1, 2, 2, 3, 2)], {"scale_size": (3, 1)}


def _packed(shape, data_type):
    return {"DataType": data_type, "Sizes": list(shape)}


def _identity_settings(data_type):
    """(setting, input desc, output desc, scale_bias) for ELEMENT_WISE_IDENTITY."""
    from ..descriptors.layouts import LAYOUT_PRESETS, layout_preset

    for preset in LAYOUT_PRESETS:
        yield preset, *layout_preset(preset, data_type), None
    for dims in range(1, 9):
        shape = _dims_shape(dims)
        # Reading the input with its axes reversed: a transpose of every axis (for one axis, a plain copy).
        reversed_strides = [int(np.prod(shape[:a])) for a in range(dims)]
        source = {**_packed(shape[::-1], data_type), "Sizes": list(shape), "Strides": reversed_strides}
        yield f"{dims}-D, every axis reversed", source, _packed(shape, data_type), None
    for scale, bias in ((2, 10), (0.1, -0.3)):
        yield (f"ScaleBias {{{scale}, {bias}}}, [2, 3, 4]", _packed((2, 3, 4), data_type),
               _packed((2, 3, 4), data_type), {"Scale": scale, "Bias": bias})


def _operator_calls(data_type, rng, bounded=False):
    """(setting, op, inputs, attrs) of every setting but the identity's, with arbitrary bytes (`bounded`: fewer of
    the gather and scatter family's)."""
    from ..datatypes import numpy_dtype
    from ..operators.depth_space import depth_to_space

    dtype = numpy_dtype(data_type)
    for setting, op, shapes, attrs in [*_depth_space_settings(), *_bitwise_settings(), *_split_join_settings()]:
        inputs = [_random(shape, dtype, rng) for shape in shapes]
        if op == "SPACE_TO_DEPTH1":  # the input a DEPTH_TO_SPACE1 of random bytes gives, as the app shows it
            depth = _random((2, 2 * attrs["block_size"] ** 2, 2, 3), dtype, rng)
            inputs = [depth_to_space(depth, attrs["block_size"], attrs["order"])]
        yield setting, op, inputs, attrs
    yield from _gather_scatter_calls(dtype, rng, bounded)
    for setting, op, shapes, attrs in _slice_pad_settings():
        # An input of a type of its own (REVERSE_SUBSEQUENCES' lengths) is made in that type.
        types = operator(op).input_types(data_type, len(shapes), attrs)
        inputs = [_random(shape, numpy_dtype(t), rng) for shape, t in zip(shapes, types)]
        if "within the axis" in setting:  # lengths from 0 to the axis' size, where ONNX's twin agrees too
            inputs[1] = inputs[1] % inputs[1].dtype.type(shapes[0][attrs["axis"]] + 1)
        yield setting, op, inputs, attrs


@dataclasses.dataclass(frozen=True)
class Cell:
    op: str
    setting: str
    data_type: str
    outcome: str  # IDENTICAL, DIFFERS, REFUSED (DirectML refused what the core runs) or BOTH_REFUSE
    text: str  # the cell as the matrix shows it
    report: object = None  # the cross-check's CrossCheckReport, where the core ran the call


IDENTICAL, DIFFERS, REFUSED, BOTH_REFUSE = "identical", "differs", "refused", "both refuse"


def _cell(op, setting, data_type, report, status):
    if report.available:
        if report.matches:
            return Cell(op, setting, data_type, IDENTICAL, "identical", report)
        index = list(report.first_mismatch[1] or ())
        return Cell(op, setting, data_type, DIFFERS, f"DIFFERS at output {report.first_mismatch[0]} {index}", report)
    if report.hresult is None:  # no answer at all (the worker failed): a cell nobody can read
        return Cell(op, setting, data_type, DIFFERS, f"no answer: {report.note}", report)
    text = f"refused by {report.stage} ({hresult_text(report.hresult)})"
    if data_type not in status.type_support:
        text += ": type unsupported by the device"
    elif report.diagnostics:
        text += f": vkd3d-proton: {report.diagnostics[0]}"
    return Cell(op, setting, data_type, REFUSED, text, report)


def _refused_call_descs(op, inputs, attrs):
    """(input descs, output descs) of a call the core refuses for its type only: packed, the outputs of the sizes and
    types the operator gives them."""
    from ..datatypes import numpy_dtype

    spec = operator(op)
    canonical = spec.canonical_attrs(attrs)
    shapes = spec.output_shapes([a.shape for a in inputs], canonical)
    types = spec.output_types([type_name(a.dtype) for a in inputs], len(shapes), canonical)
    return ([packed_desc(a.shape, a.dtype) for a in inputs],
            [packed_desc(shape, numpy_dtype(t)) for shape, t in zip(shapes, types)])


def _both_refuse(op, setting, data_type, error, descs, attrs, status):
    """A call the core refuses, with DirectML's CreateOperator verdict on the same descriptor beside it."""
    hr = create_operator_verdict(op, *descs, attrs, status.max_feature_level)
    core = str(error).split(": ")[-1]  # the rule, without the field's path and value
    if hr == 0:
        return Cell(op, setting, data_type, DIFFERS, f"DirectML accepts what the core refuses ({core})")
    return Cell(op, setting, data_type, BOTH_REFUSE,
                f"both refuse: CreateOperator {hresult_text(hr)}; the core: {core}")


def matrix_cells(seed=0, data_types=None, bounded=False):
    """Every cell (operator x setting x data type) of the DirectML matrix: arbitrary bytes cross-checked on DirectML
    itself against the core. `data_types` limits it to some types (default all eleven); `bounded` (CI) keeps two
    index-type settings of each gather and scatter shape instead of eight."""
    from ..datatypes import DML_TYPES, numpy_dtype
    from ..descriptors.layouts import identity_descs
    from ..errors import DescriptorError
    from .cross_check import cross_check

    status = directml_status()
    cells = []
    for data_type in data_types or DML_TYPES:
        rng = np.random.default_rng(seed)
        dtype = numpy_dtype(data_type)
        for setting, op, inputs, attrs in _operator_calls(data_type, rng, bounded):
            try:
                report = cross_check(op, inputs, runtime="directml", **attrs)
            except DescriptorError as error:  # a type no feature level gives the operator (a signed shift)
                descs = _refused_call_descs(op, inputs, attrs)
                cells.append(_both_refuse(op, setting, data_type, error, descs, operator(op).desc_attrs(attrs), status))
                continue
            cells.append(_cell(op, setting, data_type, report, status))
        for setting, inp, out, scale_bias in _identity_settings(data_type):
            try:
                parsed = identity_descs(inp, out, scale_bias=scale_bias)
            except DescriptorError as error:
                descs = ([packed_desc(inp["Sizes"], dtype)], [packed_desc(out["Sizes"], dtype)])
                attrs = {"scale_bias": [scale_bias["Scale"], scale_bias["Bias"]]}
                cells.append(_both_refuse("ELEMENT_WISE_IDENTITY", setting, data_type, error, descs, attrs, status))
                continue
            source, previous = (_random((d.buffer_elements,), dtype, rng) for d in parsed)
            report = cross_check("ELEMENT_WISE_IDENTITY", [source, previous], input_desc=inp, output_desc=out,
                                 runtime="directml", **({} if scale_bias is None else {"scale_bias": scale_bias}))
            cells.append(_cell("ELEMENT_WISE_IDENTITY", setting, data_type, report, status))
    return cells
