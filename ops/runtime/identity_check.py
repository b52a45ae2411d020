"""ELEMENT_WISE_IDENTITY on ONNX Runtime: the same buffer-to-buffer copy built from ONNX data-movement nodes.

ONNX tensors have no strides, so the strided read and write become nodes chosen for the layout:
- read: a packed input is Slice + Reshape; a permutation of packed strides is Reshape + Transpose; 0 strides over an
  otherwise packed tensor are Reshape + Expand; anything else (padding, windows, mixes) is a Gather at the element
  offsets.
- write: a packed output that fills its buffer is a Reshape; a permuted one is Transpose + Reshape; anything else
  (padding, windows) is a ScatterElements of the tensor into the output buffer's previous contents.
Every one of these nodes only moves elements, so the comparison with the core is byte for byte. A type the provider
has no kernel for runs reinterpreted as the unsigned integer of the same width (bits, never values).
"""

import functools

import numpy as np

from ..datatypes import type_name, unsigned_of_width
from ..descriptors.layouts import element_wise_identity, identity_descs
from ..tensor_desc import element_offsets, packed_strides
from . import onnxruntime_check as cc
from .report import CrossCheckReport, compare_outputs, first_line

OPSET = cc.OPSET


def _permutation(sizes, strides):
    """perm such that the desc is the packed tensor of sizes[perm] transposed by argsort(perm), else None."""
    order = sorted(range(len(sizes)), key=lambda d: (-strides[d], d))
    permuted = [sizes[d] for d in order]
    if any(strides[d] != s for d, s in zip(order, packed_strides(permuted))):
        return None
    return order


def read_plan(desc):
    """("reshape" | "transpose" | "expand" | "gather", detail) for reading `desc`'s tensor out of its buffer."""
    sizes, strides = list(desc.Sizes), list(desc.effective_strides)
    # Size-1 dimensions never move, so their strides do not matter: give them the packed value.
    strides = [p if n == 1 else s for n, s, p in zip(sizes, strides, packed_strides(sizes))]
    if strides == list(packed_strides(sizes)):
        return "reshape", None
    perm = _permutation(sizes, strides)
    if perm is not None:
        return "transpose", perm
    kept = [n if s else 1 for n, s in zip(sizes, strides)]
    kept_strides = [s for s, n in zip(strides, kept) if n > 1]
    if 0 in strides and kept_strides == [p for p, n in zip(packed_strides(kept), kept) if n > 1]:
        return "expand", kept
    return "gather", None


def write_plan(desc):
    """("reshape" | "transpose" | "scatter", detail) for writing a tensor into `desc`'s buffer."""
    fills = desc.element_count == desc.buffer_elements
    kind, detail = read_plan(desc)
    if fills and kind in ("reshape", "transpose"):
        return kind, detail
    return "scatter", None


def _nodes(inp, out):
    """(nodes, initializers, names of the node types in order) from buffer `x` (and `previous`) to `y`."""
    from onnx import helper, numpy_helper

    nodes, inits, used = [], [], []

    def const(name, values):
        inits.append(numpy_helper.from_array(np.asarray(values, dtype=np.int64), name))
        return name

    kind, detail = read_plan(inp)
    count = inp.element_count
    if kind == "gather":
        offsets = element_offsets(inp.Sizes, inp.Strides)
        nodes.append(helper.make_node("Gather", ["x", const("read_offsets", offsets)], ["logical"], axis=0))
        used.append("Gather")
    else:
        stored = count if kind != "expand" else int(np.prod(detail))
        nodes.append(helper.make_node("Slice", ["x", const("zero", [0]), const("stored", [stored])], ["stored_x"]))
        shape = {"reshape": list(inp.Sizes), "expand": detail}.get(kind) or [inp.Sizes[d] for d in detail]
        nodes.append(helper.make_node("Reshape", ["stored_x", const("stored_shape", shape)], ["shaped"]))
        used += ["Slice", "Reshape"]
        if kind == "transpose":
            nodes.append(helper.make_node("Transpose", ["shaped"], ["logical"], perm=list(np.argsort(detail))))
            used.append("Transpose")
        elif kind == "expand":
            nodes.append(helper.make_node("Expand", ["shaped", const("sizes", list(inp.Sizes))], ["logical"]))
            used.append("Expand")
        else:
            nodes.append(helper.make_node("Identity", ["shaped"], ["logical"]))
            used.append("Identity")

    kind, detail = write_plan(out)
    flat = const("flat", [-1])
    if kind == "scatter":
        nodes.append(helper.make_node("Reshape", ["logical", flat], ["updates"]))
        offsets = element_offsets(out.Sizes, out.Strides).ravel()
        nodes.append(helper.make_node("ScatterElements", ["previous", const("write_offsets", offsets), "updates"],
                                      ["y"], axis=0))
        used += ["Reshape", "ScatterElements"]
    elif kind == "transpose":
        nodes.append(helper.make_node("Transpose", ["logical"], ["in_memory_order"], perm=list(detail)))
        nodes.append(helper.make_node("Reshape", ["in_memory_order", flat], ["y"]))
        used += ["Transpose", "Reshape"]
    else:
        nodes.append(helper.make_node("Reshape", ["logical", flat], ["y"]))
        used.append("Reshape")
    return nodes, inits, used


def identity_model(inp, out, dtype):
    """(ONNX ModelProto, node types used) copying buffer `x` into buffer `y` as the two descs say."""
    from onnx import helper

    nodes, inits, used = _nodes(inp, out)
    element = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inputs = [helper.make_tensor_value_info("x", element, [inp.buffer_elements])]
    if "ScatterElements" in used:
        inputs.append(helper.make_tensor_value_info("previous", element, [out.buffer_elements]))
    graph = helper.make_graph(nodes, "element_wise_identity", inputs,
                              [helper.make_tensor_value_info("y", element, [out.buffer_elements])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=cc.IR_VERSION)
    return model, tuple(used)


def _session(inp, out, dtype_str, provider):
    """(session, node types used), kept in the cross-check's session store (onnxruntime_check.sessions)."""
    return cc.kept_session(("ELEMENT_WISE_IDENTITY", inp, out, dtype_str),
                           lambda: identity_model(inp, out, np.dtype(dtype_str)), provider)


def _run(inp, out, source, previous, provider):
    session, used = _session(inp, out, source.dtype.str, provider)
    feeds = {"x": np.ascontiguousarray(source[: inp.buffer_elements])}
    if "ScatterElements" in used:
        feeds["previous"] = np.ascontiguousarray(previous)
    return session.run(None, feeds)[0], used


def identity_cross_check(input_buffer, input_desc, output_desc, output_buffer=None, provider=None, expected=None):
    """CrossCheckReport comparing the core's output buffer (or `expected`, for checking the check) with ONNX
    Runtime's, byte for byte."""
    inp, out = identity_descs(input_desc, output_desc)
    core = element_wise_identity(input_buffer, inp, out, output_buffer)
    expected = core if expected is None else np.asarray(expected)
    previous = (np.zeros(out.buffer_elements, out.dtype) if output_buffer is None
                else output_buffer[: out.buffer_elements])
    report = functools.partial(CrossCheckReport, "ELEMENT_WISE_IDENTITY", expected=[expected])
    try:
        ort = cc._runtime()
        version, available = ort.__version__, ort.get_available_providers()
    except Exception as error:  # a broken install fails in many ways (ImportError, OSError from a DLL, ...)
        return report(provider, False, False, actual=[], note=f"ONNX Runtime is unavailable: {first_line(error)}.")
    chosen, refusal = cc.select_provider(available, provider)
    if chosen is None:
        return report(provider, False, False, actual=[], note=refusal, ort_version=version)

    dtype = expected.dtype
    ran_as, skipped = dtype, ""
    try:
        actual, used = _run(inp, out, input_buffer, previous, chosen)
    except Exception as native_error:  # no kernel for this type: move the same bits as an unsigned integer
        ran_as = unsigned_of_width(dtype.itemsize)
        skipped = f" because the {type_name(dtype)} graph failed ({first_line(native_error)})"
        try:
            actual, used = _run(inp, out, input_buffer.view(ran_as), previous.view(ran_as), chosen)
            actual = actual.view(dtype)
        except Exception as error:
            return report(chosen, False, False, actual=[], ort_version=version,
                          note=f"Could not run the identity graph on {chosen}, onnxruntime {version}: "
                               f"{first_line(error)}.")
    first_mismatch, outcome = compare_outputs([expected], [actual])
    route = (f"The {type_name(dtype)} data ran as {type_name(dtype)}." if ran_as == dtype else
             f"The {type_name(dtype)} data ran reinterpreted as {type_name(ran_as)} bit patterns{skipped}.")
    note = (f"Ran the ONNX graph {' -> '.join(used)} on {chosen}, onnxruntime {version}, opset {OPSET}, graph "
            f"optimizations off; it compares the whole output buffer. {route} {outcome}")
    return report(chosen, True, first_mismatch is None, actual=[actual], note=note, first_mismatch=first_mismatch,
                  ort_version=version, ran_as=type_name(ran_as), reinterpreted=ran_as != dtype)


def matrix_rows(provider=None):
    """The cross-check of every layout preset for every data type: one dict per (preset, type), arbitrary bytes in
    both buffers (seeded), so float types carry NaN payloads, -0.0 and subnormals."""
    from ..datatypes import DML_TYPES
    from ..descriptors.layouts import LAYOUT_PRESETS, layout_preset

    rows = []
    for preset in LAYOUT_PRESETS:
        for data_type in DML_TYPES:
            inp, out = identity_descs(*layout_preset(preset, data_type))
            rng = np.random.default_rng(len(rows))
            source, previous = (rng.integers(0, 256, d.buffer_elements * d.element_size, dtype=np.uint8).view(d.dtype)
                                for d in (inp, out))
            report = identity_cross_check(source, inp, out, previous, provider)
            graph = report.note.split("Ran the ONNX graph ")[-1].split(" on ")[0] if report.available else ""
            rows.append(dict(preset=preset, data_type=data_type, graph=graph, ran_as=report.ran_as,
                             matches=report.matches, provider=report.provider, note=report.note))
    return rows


def matrix_table(rows):
    """The matrix as a Markdown table: a row per preset, a column per data type; each cell the verdict."""
    from ..datatypes import DML_TYPES

    presets = list(dict.fromkeys(r["preset"] for r in rows))
    cell = {(r["preset"], r["data_type"]): r for r in rows}
    lines = ["| layout | ONNX graph | " + " | ".join(DML_TYPES) + " |", "| --- | --- |" + " --- |" * len(DML_TYPES)]
    for preset in presets:
        graphs = {cell[(preset, t)]["graph"] for t in DML_TYPES}
        marks = []
        for t in DML_TYPES:
            r = cell[(preset, t)]
            mark = "identical" if r["matches"] else "DIFFERS"
            marks.append(mark if r["ran_as"] == t else f"{mark} (as {r['ran_as']})")
        lines.append(f"| {preset} | {' / '.join(sorted(graphs))} | " + " | ".join(marks) + " |")
    return "\n".join(lines)
