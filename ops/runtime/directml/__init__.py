"""DirectML itself as a runtime: the real libdirectml.so, on vkd3d-proton's D3D12 over lavapipe, in a worker process.

`directml_status()` says whether it can run here and on what. `run_desc` runs any DirectML operator once from an
`OperatorDesc` (its fields by schema name, checked and packed from DirectML's schema: descs.py), `verdict` asks
CreateOperator alone; `run_operator` and `create_operator_verdict` do the same for the registry's operators from the
core's attributes. Descriptors are the core's TensorDesc (ops/tensor_desc.py): what the core validated is exactly what
DirectML receives. docs/directml.md, "Running any operator", has the wire format, the guards and what was measured.

    from ops.runtime import directml as dml
    a, b = np.ones((2, 3), np.float32), np.ones((3, 4), np.float32)
    gemm = dml.OperatorDesc("GEMM", {
        "ATensor": packed_desc(a.shape, a.dtype), "OutputTensor": packed_desc((2, 4), np.float32),
        "BTensor": dataclasses.replace(packed_desc(b.shape, b.dtype), Flags="OWNED_BY_DML"),  # bound at initialization
        "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0})               # CTensor left out: optional
    result = dml.run_desc(gemm, {"ATensor": a.tobytes(), "BTensor": b.tobytes()})
    result.ok, result.stage, result.hresult_text                 # True, "", "0x00000000"
    np.frombuffer(result.output("OutputTensor"), np.float32)     # eight 3.0s
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

from ...errors import DescriptorError
from ...levels import FEATURE_LEVELS
from ...operators import operator
from ...operators.base import COUNT, ENUM, INPUT, INPUTS, OUTPUT, OUTPUTS, SCALE_BIAS
from . import cost
from .cost import OverBudget
from .descs import OperatorDesc, pack, tensor_wire
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
    outputs: tuple  # output buffers' bytes after the run, in binding order (empty when it failed)
    diagnostics: tuple = ()
    output_names: tuple = ()  # the outputs' field names in binding order ("OutputTensors[1]" for an array's)
    # ((name, bytes), ...): the temporary and persistent resources DirectML asked for, where it got that far
    resources: tuple = ()

    @property
    def ok(self):
        return self.hresult == 0

    @property
    def hresult_text(self):
        return hresult_text(self.hresult)

    @property
    def reason(self):
        """Why DirectML refused, in one line: the failing call, its HRESULT and vkd3d-proton's first error line."""
        if self.ok:
            return ""
        text = f"{self.stage} returned {self.hresult_text}"
        if self.diagnostics:
            text += f"; {'the worker' if self.stage == 'packing the desc' else 'vkd3d-proton'} said: " \
                    f"{self.diagnostics[0].rstrip('.')}"
        return text

    def output(self, name):
        """The bytes of the output named `name` ("OutputTensor", "OutputTensors[1]") after the run."""
        return self.outputs[self.output_names.index(name)]


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


def registry_desc(op, attrs, input_descs, output_descs) -> OperatorDesc:
    """The OperatorDesc of registered operator `op` called with `attrs` on these tensor descs: each registry field is
    the schema field of its name (tests/unit/test_schema.py holds them equal), a tensor field the next input or
    output, an array field the rest, an enum its member's name (one holding a tensor's DataType, that tensor's), a
    count left for the schema to fill in."""
    spec = operator(op)
    descs = {INPUT: iter(input_descs), OUTPUT: iter(output_descs)}
    fields = {}
    for f in spec.fields:
        if f.kind in (INPUT, OUTPUT):
            fields[f.name] = next(descs[f.kind])
        elif f.kind in (INPUTS, OUTPUTS):
            fields[f.name] = list(descs[f.kind.removesuffix("s")])
        elif f.type_of:  # PADDING1's PaddingValueDataType: its OutputTensor's
            fields[f.name] = fields[f.type_of].DataType
        elif f.kind == ENUM:
            fields[f.name] = f.enum.name(attrs[f.attribute], f.name)
        elif f.kind == SCALE_BIAS:
            fields[f.name] = attrs.get(f.attribute)
        elif f.kind != COUNT:
            fields[f.name] = attrs[f.attribute]
    return OperatorDesc(spec.name, fields)


def _level(packed, level):
    """The feature level to create the device at (by default the highest this DirectML supports); DescriptorError
    when the operator came after it, before the worker is asked."""
    hello = _worker().describe()
    if hello.get("hr"):
        raise WorkerFailed(f"DirectML did not start: {hello.get('stage')} returned {hresult_text(hello['hr'])}")
    highest = level_from_code(hello["max_feature_level"])
    if level_code(packed.schema.level) > level_code(highest):
        raise DescriptorError(
            f"{packed.schema.full_name} was introduced in DirectML feature level {packed.schema.level} (DirectML "
            f"{_FIRST_RELEASE[packed.schema.level]}); this DirectML build supports feature levels up to {highest} "
            f"(DirectML {_FIRST_RELEASE[highest]}), so it cannot run it")
    level = highest if level is None else level
    if level not in FEATURE_LEVELS:
        raise DescriptorError(f"level: {level!r} is not one of {', '.join(FEATURE_LEVELS)}")
    return level


def _wire_request(kind, packed, level, flags=0):
    if isinstance(flags, bool) or not isinstance(flags, int) or not 0 <= flags < 2**32:
        raise DescriptorError(f"flags {flags!r}: expected DML_EXECUTION_FLAGS, a 32-bit unsigned integer")
    return {"kind": kind, "desc": packed.wire, "inputs": [tensor_wire(t) for t in packed.inputs],
            "outputs": [tensor_wire(t) for t in packed.outputs], "level": level_code(level), "flags": flags,
            "resource_budget": cost.RESOURCE_BUDGET}


def _request(kind, op, input_descs, output_descs, attrs, level):
    """The worker's request for registered operator `op` (its flags 0), as run_operator sends it."""
    return _wire_request(kind, pack(registry_desc(op, attrs, input_descs, output_descs)), level)


def _buffers(names, descs, given, side):
    """The bytes of each tensor of one side in binding order (None for an input left out), from `given`: a mapping by
    field name (an array field's value a list) or a sequence in binding order. An output not given starts as zeros."""
    if isinstance(given, Mapping):
        fields = {name.split("[")[0] for name in names}
        unknown = [name for name in given if name not in fields]
        if unknown:
            raise DescriptorError(f"{side} {unknown[0]!r}: not a {side} tensor field; they are {', '.join(fields)}")
        flat = []
        for name in names:
            field, _, index = name.partition("[")
            value = given.get(field)
            flat.append(value[int(index[:-1])] if index and value is not None else value)
    else:
        flat = list(given)
        if len(flat) != len(names):
            raise DescriptorError(f"{len(flat)} {side} buffers for {len(names)} {side} bindings "
                                  f"({', '.join(names)})")
    buffers = []
    for name, desc, data in zip(names, descs, flat):
        if desc is None:
            if data is not None:
                raise DescriptorError(f"{side} {name}: data given for a tensor left out of the desc")
            buffers.append(None)
            continue
        if data is None and side == "output":
            data = bytes(desc.TotalTensorSizeInBytes)
        if data is None or memoryview(data).nbytes != desc.TotalTensorSizeInBytes:
            have = "none" if data is None else f"{memoryview(data).nbytes:,} bytes"
            raise DescriptorError(f"{side} {name}: its buffer must hold TotalTensorSizeInBytes "
                                  f"{desc.TotalTensorSizeInBytes:,} bytes; given {have}")
        buffers.append(data)
    return buffers


def _call(request, buffers, seconds):
    """The worker's answer; a WorkerFailed saying the worker died or stalled also says what happens next."""
    try:
        return _worker().call(request, buffers, seconds)
    except WorkerFailed as error:
        if type(error) is not WorkerFailed:  # busy, or too small for the call: the worker itself is fine
            raise
        raise WorkerFailed(f"{error}; a fresh worker takes the next call") from error


def verdict(desc: OperatorDesc, level=None, seconds=RUN_SECONDS) -> RunResult:
    """DirectML's CreateOperator verdict on `desc` (no tensor data sent): RunResult with no outputs."""
    packed = pack(desc)
    request = _wire_request("verdict", packed, _level(packed, level))
    answer, _ = _call(request, [], seconds)
    return RunResult(answer["hr"], answer["stage"], (), tuple(answer["diagnostics"]), packed.output_names)


def create_operator_verdict(op, input_descs, output_descs, attrs, level="1_0"):
    """DirectML's CreateOperator HRESULT for this descriptor, on a device created with `level` as its minimum."""
    return verdict(registry_desc(op, attrs, input_descs, output_descs), level).hresult


def run_operator(op, inputs, outputs, attrs, level="1_0", flags=0, seconds=RUN_SECONDS):
    """Run registered operator `op` once on DirectML. inputs: (TensorDesc, its buffer's bytes,
    TotalTensorSizeInBytes long); outputs: (TensorDesc, the output buffer's bytes before the run)."""
    desc = registry_desc(op, attrs, [d for d, _ in inputs], [d for d, _ in outputs])
    return run_desc(desc, [data for _, data in inputs], [data for _, data in outputs], level, flags, seconds)


def run_desc(desc: OperatorDesc, inputs, outputs=None, level=None, flags=0, seconds=RUN_SECONDS) -> RunResult:
    """Run any DirectML operator once: `desc` checked against its schema and packed (descs.py), its work and memory
    costed (cost.py), then created, compiled, initialized (inputs whose TensorDesc has Flags OWNED_BY_DML bound
    there) and executed in the worker.

    inputs, outputs: each tensor's buffer (TotalTensorSizeInBytes bytes), by field name (an array field's value a
    list) or as a sequence in DirectML's binding order (`pack(desc).input_names`); an output left out starts as zero
    bytes. `level`: the feature level the device is created at (by default the highest this DirectML supports).
    `flags`: DML_EXECUTION_FLAGS for CompileOperator.

    DescriptorError for a desc the schema refuses, an operator after this DirectML's feature level, or work over the
    budget (OverBudget); WorkerFailed (WorkerBusy, WorkerTooSmall) when the worker could not answer. DirectML's own
    refusal is a RunResult with `ok` False, its `stage`, `hresult` and `diagnostics` (`reason` says it in a line)."""
    packed = pack(desc)
    in_buffers = _buffers(packed.input_names, packed.inputs, inputs, "input")
    out_buffers = _buffers(packed.output_names, packed.outputs, {} if outputs is None else outputs, "output")
    cost.check(packed)
    request = _wire_request("run", packed, _level(packed, level), flags)
    present = [b for b in in_buffers + out_buffers if b is not None]
    answer, results = _call(request, present, seconds)
    resources = answer.get("resources", {})
    if answer["stage"] == "resource budget":
        raise OverBudget(f"{packed.schema.full_name}: DirectML asks for {resources['temporary']:,} bytes of temporary "
                         f"and {resources['persistent']:,} bytes of persistent resources, past the "
                         f"{cost.RESOURCE_BUDGET:,} bytes one call may take here (the resource budget)")
    results = iter(results)
    outputs = tuple(None if t is None else next(results) for t in packed.outputs) if answer["hr"] == 0 else ()
    return RunResult(answer["hr"], answer["stage"], outputs, tuple(answer["diagnostics"]), packed.output_names,
                     tuple(resources.items()))


__all__ = ["DirectMLStatus", "OperatorDesc", "OverBudget", "RunResult", "WorkerBusy", "WorkerFailed", "WorkerTooSmall",
           "create_operator_verdict", "directml_status", "hresult_text", "level_code", "pack", "registry_desc",
           "run_desc", "run_operator", "verdict"]
