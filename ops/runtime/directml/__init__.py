"""DirectML itself as a runtime: the real libdirectml.so, on vkd3d-proton's D3D12 over lavapipe, in a worker process.

`directml_status()` says whether it can run here and on what; `run_operator` runs one operator on given buffers;
`create_operator_verdict` asks DirectML's CreateOperator what it thinks of a descriptor. Descriptors are the core's
TensorDesc (ops/tensor_desc.py): what the core validated is exactly what DirectML receives.
"""

from __future__ import annotations

import dataclasses
import functools

from ...levels import FEATURE_LEVELS
from ...operators import operator
from ...operators.base import COUNT, ENUM, INPUT, INPUTS, OUTPUT, OUTPUTS, SCALE_BIAS
from .process import Worker, WorkerBusy, WorkerFailed, WorkerTooSmall, install_dir, missing_pieces

# DirectML's release for each feature level's first appearance (SPEC section 7).
_FIRST_RELEASE = {"1_0": "1.0", "2_0": "1.1", "2_1": "1.2", "3_0": "1.4", "3_1": "1.5", "4_0": "1.6", "4_1": "1.7",
                  "5_0": "1.8", "5_1": "1.9", "5_2": "1.10", "6_0": "1.11", "6_1": "1.12", "6_2": "1.13",
                  "6_3": "1.14", "6_4": "1.15"}
WHEEL = "torch-directml 0.2.5.dev240914"
RUN_SECONDS = 30
HRESULT_NAMES = {0x80070057: "E_INVALIDARG", 0x80004001: "E_NOTIMPL", 0x80004005: "E_FAIL",
                 0x8007000E: "E_OUTOFMEMORY", 0x887A0005: "DXGI_ERROR_DEVICE_REMOVED",
                 0x80004002: "E_NOINTERFACE", 0x887A0006: "DXGI_ERROR_DEVICE_HUNG"}


def level_code(level):
    """'6_4' -> 0x6400, DML_FEATURE_LEVEL's value."""
    major, minor = level.split("_")
    return (int(major) << 12) | (int(minor) << 8)


def level_from_code(code):
    return f"{code >> 12}_{(code >> 8) & 0xF}"


def hresult_text(hr):
    name = HRESULT_NAMES.get(hr)
    return f"{name} (0x{hr:08X})" if name else f"0x{hr:08X}"


@dataclasses.dataclass(frozen=True)
class DirectMLStatus:
    available: bool
    reason: str  # why not, or what was found
    # "DirectML 1.13 (feature level 6_2, from torch-directml ...) via vkd3d-proton 2.14 on llvmpipe (...), Mesa ..."
    provider: str | None = None
    device: str | None = None  # the Vulkan device's name
    vkd3d: str | None = None  # the D3D12 layer: "vkd3d-proton 2.14"
    max_feature_level: str | None = None
    type_support: tuple = ()  # data types DirectML reports the device supports
    driver: str | None = None  # the Vulkan driver's version line (VkPhysicalDeviceDriverProperties::driverInfo)
    fp64: tuple = ()  # (name, value) of what decides FLOAT64: the D3D12 option and the Vulkan properties behind it


@dataclasses.dataclass(frozen=True)
class RunResult:
    """One call's answer: DirectML's HRESULT, the call that failed, the outputs' bytes, and vkd3d-proton's own
    error lines during the call ("function: message"), which say why a call failed inside D3D12."""

    hresult: int
    stage: str  # the call that failed ("CompileOperator", "execution", ...), "" when the run succeeded
    outputs: tuple  # output buffers' bytes after the run (empty when it failed)
    diagnostics: tuple = ()

    @property
    def ok(self):
        return self.hresult == 0

    @property
    def hresult_text(self):
        return hresult_text(self.hresult)


@functools.lru_cache(maxsize=1)
def _worker():
    return Worker(install_dir())


def directml_status() -> DirectMLStatus:
    """What was found: available=True with the provider string, or available=False with the reason."""
    root = install_dir()
    missing = missing_pieces(root)
    if missing:
        return DirectMLStatus(False, f"DirectML is not set up in {root} (missing {', '.join(missing)}); "
                                     "scripts/setup_directml.sh sets it up on x86-64 Debian as root.")
    try:
        hello = _worker().describe()
    except WorkerBusy as error:
        return DirectMLStatus(False, f"{error}.")
    except (WorkerFailed, OSError) as error:
        return DirectMLStatus(False, f"DirectML could not start: {error}")
    return status_of(hello)


def status_of(hello):
    """DirectMLStatus from a worker's hello."""
    if hello["hr"]:
        reason = f"DirectML could not start: {hello['stage']} returned {hresult_text(hello['hr'])}"
        if hello.get("diagnostics"):
            reason += f"; vkd3d-proton said: {hello['diagnostics'][0]}"
        return DirectMLStatus(False, reason, device=hello.get("device"), vkd3d=hello.get("vkd3d"))
    if hello["bridge_failures"]:
        return DirectMLStatus(False, f"The bridge to vkd3d-proton failed its check: {hello['bridge_failures']}",
                              device=hello["device"], vkd3d=hello["vkd3d"])
    level = level_from_code(hello["max_feature_level"]) if hello.get("max_feature_level") else None
    release = _FIRST_RELEASE.get(level, "")
    provider = (f"DirectML {release} (feature level {level}, from {WHEEL}) via {hello['vkd3d']} on "
                f"{hello['device']}, {hello['driver']}")
    types = tuple(t for t, ok in hello["type_support"].items() if ok)
    return DirectMLStatus(True, f"Found {provider}.", provider, hello["device"], hello["vkd3d"], level, types,
                          hello["driver"], tuple(hello["fp64"].items()))


def _tensor(desc):
    return {"data_type": desc.DataType, "sizes": list(desc.Sizes),
            "strides": None if desc.Strides is None else list(desc.Strides), "total_bytes": desc.TotalTensorSizeInBytes}


def desc_fields(op, attrs, input_count, output_count):
    """Operator `op`'s desc fields in C order as (kind, value) pairs, which api.py packs without knowing the operator:
    a tensor field points to the next input or output, an array field to the rest, a count counts them, a UINT or
    ENUM field holds its attribute (an ENUM as its DirectML.h value), a ScaleBias [Scale, Bias] or None."""
    spec = operator(op)
    numbers = {"input": iter(range(input_count)), "output": iter(range(output_count))}
    fields = []
    for f in spec.fields:
        if f.kind in (INPUT, OUTPUT):
            fields.append(("tensor", (f.kind, next(numbers[f.kind]))))
        elif f.kind in (INPUTS, OUTPUTS):
            side = f.kind.removesuffix("s")
            fields.append(("tensors", (side, list(numbers[side]))))
        elif f.kind == COUNT:
            fields.append(("uint", input_count if spec.field(f.counts).kind == INPUTS else output_count))
        elif f.kind == ENUM:
            fields.append(("enum", f.enum.code(f.enum.name(attrs[f.attribute], f.name))))
        elif f.kind == SCALE_BIAS:
            value = attrs.get(f.attribute)
            fields.append(("scale_bias", None if value is None else list(value)))
        else:
            fields.append(("uint", attrs[f.attribute]))
    return fields


def _desc_request(kind, code, fields, input_descs, output_descs, level):
    if level not in FEATURE_LEVELS:
        raise ValueError(f"level: {level!r} is not one of {', '.join(FEATURE_LEVELS)}")
    return {"kind": kind, "type": code, "fields": fields, "inputs": [_tensor(d) for d in input_descs],
            "outputs": [_tensor(d) for d in output_descs], "level": level_code(level)}


def _request(kind, op, input_descs, output_descs, attrs, level):
    fields = desc_fields(op, attrs, len(input_descs), len(output_descs))
    return _desc_request(kind, operator(op).code, fields, input_descs, output_descs, level)


def create_operator_verdict(op, input_descs, output_descs, attrs, level="1_0"):
    """DirectML's CreateOperator HRESULT for this descriptor, on a device created with `level` as its minimum."""
    answer, _ = _worker().call(_request("verdict", op, input_descs, output_descs, attrs, level), [], RUN_SECONDS)
    return answer["hr"]


def run_operator(op, inputs, outputs, attrs, level="1_0", flags=0, seconds=RUN_SECONDS):
    """Run `op` once on DirectML. inputs: (TensorDesc, its buffer's bytes, TotalTensorSizeInBytes long); outputs:
    (TensorDesc, the output buffer's bytes before the run). WorkerFailed when the worker died or ran out of time
    (the next call starts a fresh one), WorkerBusy when other calls held it longer than a caller waits."""
    fields = desc_fields(op, attrs, len(inputs), len(outputs))
    return run_desc(operator(op).code, fields, inputs, outputs, level, flags, seconds)


def run_desc(code, fields, inputs, outputs, level="1_0", flags=0, seconds=RUN_SECONDS):
    """Run the operator whose DML_OPERATOR_TYPE value is `code` once, its desc's fields given in C order as api.py
    packs them ((kind, value) pairs, desc_fields' form): any operator, modelled here or not. inputs and outputs as
    run_operator's."""
    request = _desc_request("run", code, fields, [d for d, _ in inputs], [d for d, _ in outputs], level)
    request["flags"] = flags
    buffers = [data for _, data in inputs] + [data for _, data in outputs]
    answer, results = _worker().call(request, buffers, seconds)
    return RunResult(answer["hr"], answer["stage"], tuple(results), tuple(answer["diagnostics"]))


__all__ = ["DirectMLStatus", "RunResult", "WorkerBusy", "WorkerFailed", "WorkerTooSmall", "create_operator_verdict",
           "directml_status", "hresult_text", "level_code", "run_desc", "run_operator"]
