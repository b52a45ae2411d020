"""The reference core's operators on ONNX Runtime: the same operator run by a real execution provider.

Each DirectML operator runs as the ONNX operator ONNX Runtime's DirectML provider maps it to (SPEC section 8; the
operator's `onnx` and `onnx_graph` in the registry): DEPTH_TO_SPACE1 -> DepthToSpace (DCR/CRD), SPACE_TO_DEPTH1 ->
SpaceToDepth (DCR; CRD as Reshape/Transpose/Reshape), ELEMENT_WISE_BIT_AND/OR/XOR/NOT -> BitwiseAnd/Or/Xor/Not,
the shifts -> BitShift, SPLIT -> Split, JOIN -> Concat; an operator ONNX has none for (ELEMENT_WISE_BIT_COUNT) gets a
report saying so. Outputs are compared byte for byte with the core's.

A provider may lack a kernel for a type, or may have one that converts values (measured: onnxruntime 1.31.1's CPU
DepthToSpace/SpaceToDepth have no int16/32/64 or uint16/32/64 kernel, and their float16 kernel quiets signalling
NaNs; the Bitwise operators have no float kernel at all). Every operator here only moves bits or combines them bit
by bit, so such a type runs instead as the unsigned integer of the same width, or as UINT8 bytes with the byte axis
folded where the operator cannot mix it (never for a shift, which carries bits between bytes, nor for a gather or a
scatter, whose indices would change), never through a value conversion; indices keep their own type. Which route
works is found by trying: an identity configuration of the operator (ONE_HOT, which has none, writes each pair as
its off and on values) runs on NaN payloads, -0, subnormals and arbitrary bytes, and the first route that returns
them unchanged is used (and remembered per operator, order, type and provider).
"""

import dataclasses
import functools

import numpy as np

from ..datatypes import type_name, unsigned_of_width
from ..operators import operator
from .report import CrossCheckReport, Unavailable, compare_outputs, first_difference, first_line, hex_bits

OPSET = 18
# IR 8 is the first IR version that carries opset 18; the installed onnx would write a newer one that older
# onnxruntime releases refuse ("Unsupported model IR version").
IR_VERSION = 8
PREFERRED_PROVIDERS = ("DmlExecutionProvider", "CUDAExecutionProvider", "CPUExecutionProvider")
# The machine is shared and the tensors are small: one thread keeps sessions cheap and runs deterministic.
THREADS = 1
_WARNING_AND_ABOVE_SILENCED = 3


def select_provider(available, requested=None):
    """(provider, None) to run on, or (None, reason) when it cannot be honoured.

    A requested provider must be among `available`; by default DirectML is preferred, then CUDA, then CPU.
    """
    available = list(available)
    listed = ", ".join(available) or "none"
    if requested is not None:
        if requested in available:
            return requested, None
        hint = ""
        if requested == "DmlExecutionProvider":
            hint = " DirectML ships only in the onnxruntime-directml wheel, which exists for Windows alone."
        return None, f"{requested} is not available in this onnxruntime (available: {listed}).{hint}"
    for provider in PREFERRED_PROVIDERS:
        if provider in available:
            return provider, None
    return None, f"none of {', '.join(PREFERRED_PROVIDERS)} is available in this onnxruntime (available: {listed})"


# ---------------------------------------------------------------- routes: how the bits travel


@dataclasses.dataclass(frozen=True)
class _Route:
    kind: str  # "native", "bits" (same-width unsigned) or "bytes" (UINT8 with a folded byte axis)
    dtype: np.dtype


def _routes(dtype):
    routes = [_Route("native", dtype)]
    unsigned = unsigned_of_width(dtype.itemsize)
    if unsigned != dtype:
        routes.append(_Route("bits", unsigned))
    if dtype.itemsize > 1:
        routes.append(_Route("bytes", np.dtype(np.uint8)))
    return routes


def fold_bytes_into_batch(x):
    """{N,C,H,W} of k-byte elements -> UINT8 {k*N,C,H,W}: byte b of element (n,c,h,w) lands at (b*N+n, c, h, w)."""
    n, c, h, w = x.shape
    k = x.dtype.itemsize
    as_bytes = np.ascontiguousarray(x).view(np.uint8).reshape(n, c, h, w, k)
    return np.ascontiguousarray(np.moveaxis(as_bytes, 4, 0)).reshape(k * n, c, h, w)


def unfold_bytes_from_batch(y, dtype):
    kn, c, h, w = y.shape
    k = dtype.itemsize
    as_bytes = np.moveaxis(y.reshape(k, kn // k, c, h, w), 0, 4)
    return np.ascontiguousarray(as_bytes).view(dtype).reshape(kn // k, c, h, w)


def _data_inputs(name, count):
    """Whether each input carries the call's data (True) or a type of its own, which no route changes (indices)."""
    spec = operator(name)
    return [label not in spec.own_typed_inputs for label in spec.input_labels(count)]


def _encode(name, route, arrays, attrs):
    if route.kind == "native":
        return list(arrays), attrs
    data = _data_inputs(name, len(arrays))
    spec = operator(name)
    if route.kind == "bits":
        return ([np.ascontiguousarray(a).view(route.dtype) if d else a for a, d in zip(arrays, data)],
                spec.reinterpreted_attrs(attrs, _data_dtype(name, arrays), route.dtype))
    if spec.byte_axis == "batch":
        return [fold_bytes_into_batch(a) for a in arrays], attrs
    k = arrays[0].dtype.itemsize
    if spec.byte_axis == "new":  # each element's bytes along an axis of their own, after the last
        attrs = spec.reinterpreted_attrs(attrs, _data_dtype(name, arrays), route.dtype)
        return ([np.ascontiguousarray(a).view(np.uint8).reshape(*a.shape, k) if d else a
                 for a, d in zip(arrays, data)], spec.widened_attrs(attrs, k, arrays[0].ndim))
    widened = [np.ascontiguousarray(a).view(np.uint8) for a in arrays]
    return widened, spec.widened_attrs(attrs, k, arrays[0].ndim)


def _decode(name, route, outputs, dtype):
    if route.kind == "native":
        return outputs
    if route.kind == "bytes" and operator(name).byte_axis == "batch":
        return [unfold_bytes_from_batch(y, dtype) for y in outputs]
    if route.kind == "bytes" and operator(name).byte_axis == "new":
        return [np.ascontiguousarray(y).view(dtype).reshape(y.shape[:-1]) for y in outputs]
    return [np.ascontiguousarray(y).view(dtype) for y in outputs]


# ---------------------------------------------------------------- ONNX models and sessions


def _runtime():
    import onnx  # noqa: F401  (the models are built with it; a missing onnx makes the check unavailable too)
    import onnxruntime

    onnxruntime.set_default_logger_severity(_WARNING_AND_ABOVE_SILENCED)
    return onnxruntime


def _model(name, attrs, dtypes, shapes):
    """The ONNX model of one call: input i of dtypes[i]; the outputs of the data's type (the first data input's)."""
    from onnx import helper

    elements = [helper.np_dtype_to_tensor_dtype(dtype) for dtype in dtypes]
    output_element = elements[_data_inputs(name, len(dtypes)).index(True)]
    nodes, initializers = operator(name).onnx_graph(attrs, shapes, dtypes[_data_inputs(name, len(dtypes)).index(True)])
    outputs = [o for node in nodes for o in node.output if o.startswith("y")]
    graph = helper.make_graph(
        nodes,
        f"cross_check_{name.lower()}",
        [helper.make_tensor_value_info(f"x{i}", element, s) for i, (element, s) in enumerate(zip(elements, shapes))],
        [helper.make_tensor_value_info(o, output_element, None) for o in outputs],
        initializer=initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)


def _options(ort, provider):
    options = ort.SessionOptions()
    options.log_severity_level = _WARNING_AND_ABOVE_SILENCED
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = THREADS
    # The DirectML provider refuses sessions with memory patterns or parallel execution enabled.
    options.enable_mem_pattern = False
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Sessions are cached per shape; with the CPU arena each one kept its largest run's buffers (~130 MB for one
    # cap-size tensor) for as long as it stayed cached, so a class's distinct links added up outside the byte budget.
    options.enable_cpu_mem_arena = False
    # The kernels under test must run as built, not be folded away (a one-input Concat is an identity).
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    if provider != "CPUExecutionProvider":
        # Otherwise a node the provider cannot take silently runs on the CPU and the report would name the wrong one.
        options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    return options


def _attrs_key(attrs):
    return tuple(sorted(attrs.items()))


@functools.lru_cache(maxsize=512)
def _session(name, attrs_key, dtype_strs, shapes, provider):
    ort = _runtime()
    model = _model(name, dict(attrs_key), [np.dtype(d) for d in dtype_strs], shapes)
    return ort.InferenceSession(model.SerializeToString(), _options(ort, provider), providers=[provider])


def _run(name, attrs, arrays, provider):
    session = _session(name, _attrs_key(attrs), tuple(a.dtype.str for a in arrays), tuple(a.shape for a in arrays),
                       provider)
    return session.run(None, {f"x{i}": np.ascontiguousarray(a) for i, a in enumerate(arrays)})


def _data_dtype(name, arrays):
    return arrays[_data_inputs(name, len(arrays)).index(True)].dtype


def _run_route(name, route, arrays, attrs, provider):
    encoded, encoded_attrs = _encode(name, route, arrays, attrs)
    return _decode(name, route, _run(name, encoded_attrs, encoded, provider), _data_dtype(name, arrays))


# ---------------------------------------------------------------- choosing a route by probing


def probe_tensor(dtype):
    """Bit patterns a value-converting kernel would alter (NaN payloads, signalling and quiet, both signs; -0;
    subnormals; infinities), then arbitrary bytes."""
    k = dtype.itemsize
    unsigned = unsigned_of_width(k)
    arbitrary = np.random.default_rng(0).integers(0, 256, 16 * k, dtype=np.uint8).view(unsigned)
    if dtype.kind != "f":
        return arbitrary.view(dtype)
    mantissa_bits = np.finfo(dtype).nmant
    sign = 1 << (8 * k - 1)
    exponent = (sign - 1) ^ ((1 << mantissa_bits) - 1)
    quiet = 1 << (mantissa_bits - 1)
    special = [
        exponent | 1, sign | exponent | 1, exponent | (quiet - 1), exponent | quiet | 5, sign | exponent | quiet,
        sign, 1, sign | 1, (1 << mantissa_bits) - 1, exponent, sign | exponent,
    ]
    return np.concatenate([np.array(special, dtype=unsigned), arbitrary]).view(dtype)


def _route_fault(name, order, dtype, route, provider):
    """None if the route gives the probe calls' bits unchanged on this provider (what the core gives), else why it
    cannot be used."""
    spec = operator(name)
    what = f"{type_name(route.dtype)} {spec.onnx} on {provider}"
    for inputs, attrs in spec.route_probes(probe_tensor(dtype), {"order": order} if order else {}):
        expected = spec.run(inputs, **attrs)[0].reshape(-1)
        try:
            [output] = _run_route(name, route, inputs, attrs, provider)
        except Exception as error:  # any ORT failure (missing kernel, type refused by the schema) rules the route out
            return f"{what} failed ({first_line(error)})"
        output = output.reshape(-1)  # depth/space's identity is 4-D
        first = first_difference(expected, output)
        if first is not None:
            return (f"{what} altered bit patterns in a probe "
                    f"({hex_bits(expected[first], dtype)} came back as {hex_bits(output[first], dtype)})")
    return None


_chosen_routes = {}


def _choose_route(name, order, dtype, provider):
    """(route, [reasons the earlier routes were skipped]); remembered once a route works, never on failure."""
    key = (name, order, dtype.str, provider)
    if key not in _chosen_routes:
        skipped = []
        # An operator that mixes an element's bytes (a shift) may not run as bytes.
        routes = [r for r in _routes(dtype) if r.kind != "bytes" or operator(name).byte_axis is not None]
        for route in routes:
            fault = _route_fault(name, order, dtype, route, provider)
            if fault is None:
                _chosen_routes[key] = (route, skipped)
                break
            skipped.append(fault)
        else:
            raise Unavailable(f"no bit-exact way to run {type_name(dtype)} data: " + "; ".join(skipped))
    return _chosen_routes[key]


def _describe_route(name, route, dtype, skipped):
    original = type_name(dtype)
    if route.kind == "native":
        return f"The {original} data ran as {original}, without reinterpretation."
    because = " because " + "; ".join(skipped)
    if route.kind == "bits":
        return (
            f"The {original} data ran reinterpreted as {type_name(route.dtype)} bit patterns "
            f"(same width, no value conversion),{because}."
        )
    k = dtype.itemsize
    spec = operator(name)
    if spec.byte_axis == "batch":
        where = f"its {k}-byte axis folded into the batch dimension N, which {spec.onnx} never mixes"
    elif spec.byte_axis == "new":
        where = f"its {k} bytes along a new last dimension, which {spec.onnx} leaves as it is{spec.widening_note(k)}"
    else:
        where = f"its {k}-byte axis folded into the last dimension{spec.widening_note(k)}"
    return f"The {original} data ran reinterpreted as UINT8 bytes, {where}, and was reassembled bit for bit,{because}."


# ---------------------------------------------------------------- the entry point


# ---------------------------------------------------------------- running one call


def run_operator(name, inputs, attrs, expected, provider=None):
    """CrossCheckReport of `name` run on ONNX Runtime (`provider`, or the preferred one) against `expected`."""
    report = functools.partial(CrossCheckReport, name, expected=expected)

    try:
        ort = _runtime()
        version = ort.__version__
        available_providers = ort.get_available_providers()
    except Exception as error:  # a broken install fails in many ways (ImportError, OSError from a DLL, ...)
        return report(provider, False, False, actual=[], note=f"ONNX Runtime is unavailable: {first_line(error)}.")

    chosen, refusal = select_provider(available_providers, provider)
    if chosen is None:
        return report(provider, False, False, actual=[], note=refusal, ort_version=version)
    missing = operator(name).onnx_missing(attrs)
    if missing:
        return report(chosen, False, False, actual=[], ort_version=version, note=missing + ".")

    dtype = _data_dtype(name, inputs)
    described = operator(name).onnx_text(attrs, len(inputs))
    try:
        route, skipped = _choose_route(name, attrs.get("order"), dtype, chosen)
        actual = _run_route(name, route, list(inputs), attrs, chosen)
    except Exception as error:  # the provider failed on this call; the report says how instead of crashing
        return report(
            chosen, False, False, actual=[], ort_version=version,
            note=f"Could not run {described} on {chosen}, onnxruntime {version}: {first_line(error)}.",
        )

    first_mismatch, outcome = compare_outputs(expected, actual)
    note = (
        f"Ran {described} on {chosen}, onnxruntime {version}, opset {OPSET}, graph optimizations off. "
        f"{_describe_route(name, route, dtype, skipped)} {outcome}"
    )
    return report(
        chosen, True, first_mismatch is None, actual=actual, note=note, first_mismatch=first_mismatch,
        ort_version=version, ran_as=type_name(route.dtype), reinterpreted=route.kind != "native",
    )
