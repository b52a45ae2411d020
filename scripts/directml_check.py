"""Run the whole cross-check matrix on ONNX Runtime's DirectML execution provider and say what happened.

Every operator the core models that ONNX has an operator for, every data type it takes at some feature level, a few
settings each, with "DmlExecutionProvider"
requested explicitly (never chosen by preference, so nothing silently runs elsewhere). The report names the machine,
onnxruntime and its providers, the DXGI adapters (the provider opens adapter `device_id`, 0 by default, from DXGI's
enumeration: onnxruntime/core/providers/dml/dml_provider_factory.cc, CreateExecutionProviderFactory_DML), and either
the matrix or exactly why DirectML could not start, in which case nothing is run.

    python scripts/directml_check.py [--output directml-matrix.md]

Exit codes: 0 every case ran on the provider and matched the reference core bit for bit; 1 some case did not run or
differed; 2 the provider could not start, so nothing was run. `--provider CPUExecutionProvider` rehearses the same
matrix on the CPU provider (the report says so in its first line); `--operators` limits the matrix.
"""

import argparse
import datetime
import platform
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ops import DML_TYPES, CrossCheckReport, cross_check, numpy_dtype  # noqa: E402
from ops.descriptors.layouts import identity_descs, layout_preset  # noqa: E402
from ops.operators import OPERATORS  # noqa: E402  (every operator the core models)

DIRECTML = "DmlExecutionProvider"
# DXGI_ADAPTER_FLAG_SOFTWARE (dxgi.h): the adapter is WARP, Windows' software rasterizer ("Microsoft Basic Render
# Driver"). onnxruntime's DirectML factory has refused such adapters ("CPU evaluations are much faster"; same file).
DXGI_ADAPTER_FLAG_SOFTWARE = 2
DXGI_ERROR_NOT_FOUND = 0x887A0002
IID_IDXGIFACTORY1 = "{770aae78-f26f-4dba-a829-253c83d1b387}"
# vtable slots (dxgi.h): IUnknown 0-2, IDXGIObject 3-6, IDXGIFactory 7-11, IDXGIFactory1::EnumAdapters1 = 12;
# IDXGIAdapter 7-9, IDXGIAdapter1::GetDesc1 = 10.
RELEASE, ENUM_ADAPTERS1, GET_DESC1 = 2, 12, 10


@dataclass(frozen=True, eq=False)  # a case is its own key in the results (attrs holds lists)
class Case:
    operator: str
    label: str
    shapes: tuple
    attrs: dict
    given: tuple = ()  # (input position, numpy type, values) of inputs given rather than random: indices in range


# A few settings per operator: the seeds' shapes, both orders, uneven splits, 1-D and 4-D.
CASES = (
    Case("DEPTH_TO_SPACE1", "{1,8,2,3} bs 2 DCR", ((1, 8, 2, 3),), {"block_size": 2, "order": "DCR"}),
    Case("DEPTH_TO_SPACE1", "{1,8,2,3} bs 2 CRD", ((1, 8, 2, 3),), {"block_size": 2, "order": "CRD"}),
    Case("DEPTH_TO_SPACE1", "{2,9,1,2} bs 3 DCR", ((2, 9, 1, 2),), {"block_size": 3, "order": "DCR"}),
    Case("SPACE_TO_DEPTH1", "{1,2,4,6} bs 2 DCR", ((1, 2, 4, 6),), {"block_size": 2, "order": "DCR"}),
    Case("SPACE_TO_DEPTH1", "{1,2,4,6} bs 2 CRD", ((1, 2, 4, 6),), {"block_size": 2, "order": "CRD"}),
    Case("ELEMENT_WISE_BIT_OR", "{2,3,4}", ((2, 3, 4), (2, 3, 4)), {}),
    Case("ELEMENT_WISE_BIT_OR", "{7}", ((7,), (7,)), {}),
    Case("ELEMENT_WISE_BIT_AND", "{2,3,4}", ((2, 3, 4), (2, 3, 4)), {}),
    Case("ELEMENT_WISE_BIT_XOR", "{7}", ((7,), (7,)), {}),
    Case("ELEMENT_WISE_BIT_NOT", "{2,3,4}", ((2, 3, 4),), {}),
    # Arbitrary amounts, most past the element's width, where DirectML's answer is its own (docs/directml.md).
    Case("ELEMENT_WISE_BIT_SHIFT_LEFT", "{2,3,4}, arbitrary amounts", ((2, 3, 4), (2, 3, 4)), {}),
    Case("ELEMENT_WISE_BIT_SHIFT_RIGHT", "{7}, arbitrary amounts", ((7,), (7,)), {}),
    Case("SPLIT", "{1,1,6,2} axis 2 into 2+1+3", ((1, 1, 6, 2),), {"axis": 2, "sizes": [2, 1, 3]}),
    Case("SPLIT", "{2,3} axis 1 into 1+2", ((2, 3),), {"axis": 1, "sizes": [1, 2]}),
    Case("JOIN", "{1,1,2,2}+{1,1,1,2}+{1,1,3,2} axis 2", ((1, 1, 2, 2), (1, 1, 1, 2), (1, 1, 3, 2)), {"axis": 2}),
    Case("JOIN", "{4}+{3} axis 0", ((4,), (3,)), {"axis": 0}),
    # ELEMENT_WISE_IDENTITY copies a buffer through two descs: the Layouts page's presets give the descs.
    Case("ELEMENT_WISE_IDENTITY", "NCHW -> NHWC", (), {"preset": "NCHW -> NHWC"}),
    Case("ELEMENT_WISE_IDENTITY", "broadcast a row", (), {"preset": "broadcast a row"}),
    Case("ELEMENT_WISE_IDENTITY", "pad by 1", (), {"preset": "pad by 1"}),
    Case("ELEMENT_WISE_IDENTITY", "window of a larger buffer", (), {"preset": "window of a larger buffer"}),
    # The gather and scatter family: the API pages' examples (ONNX's twins refuse indices past their axes), and
    # negative indices, which ONNX counts from the end as DirectML does.
    Case("GATHER", "{3,2} rows 0,1,1,2 (page example 2)", ((3, 2), (1, 4)), {"axis": 0, "index_dimensions": 1},
         ((1, "uint32", [0, 1, 1, 2]),)),
    Case("GATHER", "{2,3,4} axis 1, INT64 -1,0,2", ((2, 3, 4), (1, 1, 3)), {"axis": 1, "index_dimensions": 1},
         ((1, "int64", [-1, 0, 2]),)),
    Case("GATHER_ELEMENTS", "{3,3} axis 0 (page example)", ((3, 3), (2, 3)), {"axis": 0},
         ((1, "int32", [1, -1, 0, 2, 0, -3]),)),
    Case("GATHER_ND", "{1,2,2,2} by pairs (page example 2)", ((1, 2, 2, 2), (1, 1, 2, 2)),
         {"input_dimensions": 3, "indices_dimensions": 2}, ((1, "uint32", [0, 1, 1, 0]),)),
    Case("GATHER_ND1", "{1,3,2,2} 1 batch (page example 2)", ((1, 3, 2, 2), (1, 3, 2, 2)),
         {"input_dimensions": 3, "indices_dimensions": 3, "batch_dimensions": 1},
         ((1, "uint32", [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0]),)),
    Case("SCATTER", "{3,3} axis 0 (page example 2)", ((3, 3), (2, 3), (2, 3)), {"axis": 0},
         ((1, "uint32", [1, 0, 2, 0, 2, 1]),)),
    Case("SCATTER_ND", "{8} by {4,1} (page example)", ((8,), (4, 1), (4,)),
         {"input_dimensions": 1, "indices_dimensions": 2}, ((1, "int64", [4, -5, 1, 7]),)),
    Case("ONE_HOT", "{1,1,3,1} INT32 -3,100,3 depth 4 (page example 4)", ((1, 1, 3, 1), (2,)),
         {"axis": 3, "depth": 4}, ((0, "int32", [-3, 100, 3]),)),
    Case("SLICE1", "{1,1,4,4} page example 2 (negative stride)", ((1, 1, 4, 4),),
         {"window_offsets": [0, 0, 0, 1], "window_sizes": [1, 1, 4, 3], "window_strides": [1, 1, -2, 2]}),
    Case("SLICE1", "{2,3,5} strides 1,-1,-2", ((2, 3, 5),),
         {"window_offsets": [0, 1, 0], "window_sizes": [2, 2, 5], "window_strides": [1, -1, -2]}),
    Case("PADDING1", "{2,3,4} CONSTANT 0", ((2, 3, 4),),
         {"mode": "CONSTANT", "start_padding": [1, 0, 2], "end_padding": [0, 2, 1]}),
    Case("PADDING1", "{2,3,4} EDGE", ((2, 3, 4),),
         {"mode": "EDGE", "start_padding": [1, 0, 5], "end_padding": [0, 4, 1]}),
    Case("PADDING1", "{2,3,4} REFLECTION", ((2, 3, 4),),
         {"mode": "REFLECTION", "start_padding": [1, 0, 3], "end_padding": [0, 2, 1]}),
    Case("TILE", "{2,3,2} repeats 2,1,3", ((2, 3, 2),), {"repeats": [2, 1, 3]}),
    Case("REVERSE_SUBSEQUENCES", "{2,3,4} axis 1, lengths 0..3", ((2, 3, 4), (2, 1, 4)), {"axis": 1},
         ((1, "uint32", [0, 3, 2, 1, 3, 1, 2, 0]),)),
    Case("UPSAMPLE_2D", "{1,2,3,4} scale 3 x 2", ((1, 2, 3, 4),), {"scale_size": [2, 3]}),
)


def _random(rng, data_type, shape):
    """Random bytes in the type, so floats carry NaN payloads, -0 and subnormals: only a bit-exact provider passes."""
    dtype = numpy_dtype(data_type)
    return rng.integers(0, 256, int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


def _call(case, data_type, seed):
    """(inputs, attrs) of one case in one data type."""
    rng = np.random.default_rng(seed)
    if case.operator == "ELEMENT_WISE_IDENTITY":
        input_desc, output_desc = layout_preset(case.attrs["preset"], data_type)
        source, _ = identity_descs(input_desc, output_desc)
        return [_random(rng, data_type, (source.buffer_elements,))], {"input_desc": input_desc,
                                                                      "output_desc": output_desc}
    inputs = [_random(rng, data_type, shape) for shape in case.shapes]
    for position, index_type, values in case.given:
        inputs[position] = np.array(values, index_type).reshape(case.shapes[position])
    return inputs, case.attrs


# ---------------------------------------------------------------- what machine this is


def onnxruntime_facts():
    """(facts as [(name, value)], available providers or None)."""
    try:
        import onnxruntime as ort
    except Exception as error:  # a broken install fails as ImportError, OSError from a DLL, ...
        return [("onnxruntime", f"not importable: {type(error).__name__}: {error}")], None
    facts = [("onnxruntime", ort.__version__), ("onnxruntime device", ort.get_device()),
             ("available providers", ", ".join(ort.get_available_providers()))]
    dll = Path(ort.__file__).parent / "capi" / "DirectML.dll"
    facts.append(("DirectML.dll in onnxruntime", f"{dll} ({dll.stat().st_size:,} bytes)" if dll.exists() else "none"))
    return facts, ort.get_available_providers()


def dxgi_adapters():
    """([(index, description, vendor id, device id, dedicated video memory, software)], None) or ([], why not)."""
    if sys.platform != "win32":
        return [], f"no DXGI here: DXGI and Direct3D 12 are part of Windows, and this is {platform.system()}"
    try:
        return _enumerate_dxgi(), None
    except Exception as error:  # the report says how enumeration failed instead of stopping the check
        return [], f"DXGI enumeration failed: {type(error).__name__}: {error}"


def _enumerate_dxgi():
    import ctypes
    from ctypes import wintypes

    class LUID(ctypes.Structure):
        _fields_ = [("LowPart", wintypes.DWORD), ("HighPart", wintypes.LONG)]

    class DXGI_ADAPTER_DESC1(ctypes.Structure):  # noqa: N801 (dxgi.h's name)
        _fields_ = [("Description", ctypes.c_wchar * 128), ("VendorId", wintypes.UINT), ("DeviceId", wintypes.UINT),
                    ("SubSysId", wintypes.UINT), ("Revision", wintypes.UINT),
                    ("DedicatedVideoMemory", ctypes.c_size_t), ("DedicatedSystemMemory", ctypes.c_size_t),
                    ("SharedSystemMemory", ctypes.c_size_t), ("AdapterLuid", LUID), ("Flags", wintypes.UINT)]

    class GUID(ctypes.Structure):
        _fields_ = [("Data1", wintypes.DWORD), ("Data2", wintypes.WORD), ("Data3", wintypes.WORD),
                    ("Data4", ctypes.c_ubyte * 8)]

    def method(interface, slot, *argtypes):
        vtable = ctypes.cast(interface, ctypes.POINTER(ctypes.POINTER(ctypes.c_void_p)))[0]
        return ctypes.WINFUNCTYPE(ctypes.c_long, ctypes.c_void_p, *argtypes)(vtable[slot])

    iid = GUID()
    ctypes.oledll.ole32.IIDFromString(IID_IDXGIFACTORY1, ctypes.byref(iid))
    factory = ctypes.c_void_p()
    ctypes.oledll.dxgi.CreateDXGIFactory1(ctypes.byref(iid), ctypes.byref(factory))
    adapters = []
    try:
        for index in range(64):
            adapter = ctypes.c_void_p()
            result = method(factory, ENUM_ADAPTERS1, wintypes.UINT, ctypes.POINTER(ctypes.c_void_p))(
                factory, index, ctypes.byref(adapter))
            if result & 0xFFFFFFFF == DXGI_ERROR_NOT_FOUND:
                break
            if result < 0:
                raise OSError(f"IDXGIFactory1::EnumAdapters1({index}) returned {result & 0xFFFFFFFF:#010x}")
            desc = DXGI_ADAPTER_DESC1()
            try:
                method(adapter, GET_DESC1, ctypes.POINTER(DXGI_ADAPTER_DESC1))(adapter, ctypes.byref(desc))
            finally:
                method(adapter, RELEASE)(adapter)
            adapters.append((index, desc.Description, desc.VendorId, desc.DeviceId, desc.DedicatedVideoMemory,
                             bool(desc.Flags & DXGI_ADAPTER_FLAG_SOFTWARE)))
    finally:
        method(factory, RELEASE)(factory)
    return adapters


# ---------------------------------------------------------------- the matrix


def can_start(provider, available):
    """None if `provider` runs a first small case (whatever its result), else exactly why it cannot start."""
    if available is None:
        return "onnxruntime could not be imported (see above)"
    if provider not in available:
        hint = (" DirectML is a Windows (Direct3D 12) library; onnxruntime ships DmlExecutionProvider only in the "
                "onnxruntime-directml wheel, which exists for Windows alone and which this project's dependencies "
                "install on Windows (pyproject.toml's environment marker).") if provider == DIRECTML else ""
        return f"{provider} is not among this onnxruntime's providers ({', '.join(available) or 'none'}).{hint}"
    first = next(case for case in CASES if case.operator == "JOIN" and len(case.shapes) == 2)
    inputs, attrs = _call(first, "UINT8", 0)
    report = cross_check(first.operator, inputs, provider=provider, **attrs)
    return None if report.available else f"the first case (JOIN {first.label}, UINT8) could not run: {report.note}"


def run_matrix(provider, cases):
    """{(case, data type): CrossCheckReport} for every case and every type its operator takes at some level."""
    results = {}
    for seed, case in enumerate(cases):
        for data_type in OPERATORS[case.operator].supported_types:
            try:
                inputs, attrs = _call(case, data_type, seed)
                results[case, data_type] = cross_check(case.operator, inputs, provider=provider, **attrs)
            except Exception as error:  # one broken case must not cost the report of all the others
                results[case, data_type] = CrossCheckReport(
                    case.operator, provider, False, False, [], [],
                    f"the check itself failed before comparing: {type(error).__name__}: {error}")
    return results


def _cell(report):
    if not report.available:
        return "not run"
    if not report.matches:
        return "**differs**"
    return "same" if not report.reinterpreted else f"same (as {report.ran_as})"


def matrix_markdown(results, cases):
    lines = ["| operator | settings | " + " | ".join(DML_TYPES) + " |", "| --- | --- |" + " --- |" * len(DML_TYPES)]
    for case in cases:
        # "n/a": a type the operator takes at no feature level (a signed shift).
        cells = [_cell(results[case, t]) if (case, t) in results else "n/a" for t in DML_TYPES]
        lines.append(f"| {case.operator} | {case.label} | " + " | ".join(cells) + " |")
    problems = [(case, t, r) for (case, t), r in results.items() if not (r.available and r.matches)]
    if problems:
        lines += ["", "Cases that did not run or differ:", ""]
        lines += [f"- {case.operator} {case.label}, {t}: {r.note}" for case, t, r in problems]
    return "\n".join(lines)


def report_markdown(provider, facts, adapters, adapter_note, refusal, matrix):
    rehearsal = provider != DIRECTML
    title = (f"# Cross-check matrix on {provider} (a rehearsal: not DirectML)" if rehearsal
             else "# Cross-check matrix on DirectML")
    lines = [title, "", f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on "
             f"{platform.platform()}, Python {platform.python_version()}.", ""]
    lines += [f"- {name}: {value}" for name, value in facts]
    lines += ["", "## Adapters (DXGI)", ""]
    if adapters:
        lines += ["| index | adapter | vendor id | device id | dedicated video memory | software (WARP) |",
                  "| --- | --- | --- | --- | --- | --- |"]
        lines += [f"| {i} | {name} | {vendor:#06x} | {device:#06x} | {memory / 2**20:,.0f} MiB | "
                  f"{'yes' if software else 'no'} |" for i, name, vendor, device, memory, software in adapters]
        lines += ["", "The DirectML provider opens adapter 0 of this list (its default device_id)."]
    else:
        lines.append(adapter_note)
    lines += ["", "## Result", ""]
    no_onnx = sorted(name for name, op in OPERATORS.items() if op.onnx is None)
    if no_onnx:
        lines += [f"Operators ONNX has no operator for, which no ONNX Runtime provider can run: {', '.join(no_onnx)}.",
                  ""]
    unlisted = sorted(set(OPERATORS) - {case.operator for case in CASES} - set(no_onnx))
    if unlisted:
        lines += [f"Operators the core models but this script has no settings for yet (not run): "
                  f"{', '.join(unlisted)}.", ""]
    if refusal:
        lines.append(f"**{provider} could not start, so nothing was run.** {refusal}")
    else:
        ran = sum(r.available for r in matrix[0].values())
        same = sum(r.available and r.matches for r in matrix[0].values())
        lines += [f"{ran} of {len(matrix[0])} cases ran on {provider}; {same} matched the reference core bit for bit "
                  "(\"same\"; \"as UINT8\" and the like: the type ran reinterpreted as the unsigned type or bytes "
                  "of the same width, without conversion).", "", matrix_markdown(*matrix)]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", default="directml-matrix.md", help="where to write the Markdown report")
    parser.add_argument("--provider", default=DIRECTML, help="the execution provider to request (default: DirectML)")
    parser.add_argument("--operators", nargs="*", choices=sorted(OPERATORS), help="only these operators")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.operators or c.operator in args.operators]
    facts, available = onnxruntime_facts()
    adapters, adapter_note = dxgi_adapters()
    refusal = can_start(args.provider, available)
    matrix = None if refusal else (run_matrix(args.provider, cases), cases)
    text = report_markdown(args.provider, facts, adapters, adapter_note, refusal, matrix)
    Path(args.output).write_text(text, encoding="utf-8")
    print(text)
    if refusal:
        return 2
    return 0 if all(r.available and r.matches for r in matrix[0].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
