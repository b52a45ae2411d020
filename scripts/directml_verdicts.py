"""DirectML's own CreateOperator verdicts beside the core's, for every rule the core enforces (issue 17, item 4).

For each of the six operators: valid base descriptors (the seeds' examples), one variant per rule that breaks
exactly that rule, and valid probes of the boundaries (every data type, every dimension count 1 to 8). Each case is
judged at each of the 15 feature levels by the core (ops.validate_problems) and by DirectML
(IDMLDevice::CreateOperator on a device created with that minimum feature level, through the worker in
ops/runtime/directml). The table goes to docs/directml_verdicts.md.

    .venv/bin/python scripts/directml_verdicts.py [--output docs/directml_verdicts.md]

Exits 2 without writing when DirectML is not available here (scripts/setup_directml.sh sets it up).
"""

import argparse
import dataclasses
import datetime
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from ops import validate_problems
from ops.datatypes import NUMPY_DTYPES
from ops.levels import FEATURE_LEVELS
from ops.operators import OPERATORS
from ops.runtime.directml import WorkerFailed, create_operator_verdict, directml_status, run_operator
from ops.runtime.directml_check import unsupported_type
from ops.tensor_desc import TensorDesc, round_up
from support.paths import ROOT

OUTPUT = ROOT / "docs" / "directml_verdicts.md"
COMMAND = ".venv/bin/python scripts/directml_verdicts.py"
DATA_TYPES = tuple(NUMPY_DTYPES)
# The operators whose rules the cases below are written for. The rest of the bitwise family's verdicts (BIT_COUNT's
# output types, the shifts' unsigned types) are asked in tests/directml/test_directml_bitwise.py, and its runs in the
# DirectML matrix (docs/directml_matrix.md).
COVERED = ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1", "ELEMENT_WISE_BIT_OR", "SPLIT", "JOIN", "ELEMENT_WISE_IDENTITY")
HRESULTS = {0: "S_OK", 0x80070057: "E_INVALIDARG", 0x887A0004: "DXGI_ERROR_UNSUPPORTED", 0x80004001: "E_NOTIMPL",
            0x80004005: "E_FAIL", 0x8007000E: "E_OUTOFMEMORY"}
# Verdict kinds of one (case, level).
BOTH_ACCEPT, BOTH_REFUSE, CORE_ONLY, DML_ONLY, NO_VERDICT = "both accept", "both refuse", "core only refuses", \
    "DirectML only refuses", "no DirectML verdict"
KINDS = (BOTH_ACCEPT, BOTH_REFUSE, CORE_ONLY, DML_ONLY, NO_VERDICT)


def hr_text(hr):
    return f"{HRESULTS.get(hr, 'HRESULT')} (0x{hr:08X})"


def t(data_type, sizes, strides=None, **fields):
    """A tensor desc as DxDispatch JSON."""
    desc = {"DataType": data_type, "Sizes": list(sizes)}
    if strides is not None:
        desc["Strides"] = list(strides)
    return {**desc, **fields}


@dataclasses.dataclass(frozen=True, eq=False)  # keyed by identity: two cases may share a descriptor
class Case:
    op: str
    rule: str  # the rule the case breaks, or "valid: ..." for a probe that breaks none
    name: str
    desc: dict  # the dispatchable's desc, as DxDispatch JSON

    @property
    def dispatchable(self):
        return {"type": "DML_OPERATOR_" + self.op, "desc": self.desc}


# ---------------------------------------------------------------- descriptors


def depth_space(op, data_type, inp, out, block=2, order="DEPTH_COLUMN_ROW"):
    return {"InputTensor": t(data_type, inp), "OutputTensor": t(data_type, out), "BlockSize": block, "Order": order}


def bit_or(data_type, sizes):
    return {"ATensor": t(data_type, sizes), "BTensor": t(data_type, sizes), "OutputTensor": t(data_type, sizes)}


def split(data_type, whole, parts, axis):
    return {"InputTensor": t(data_type, whole), "OutputCount": len(parts),
            "OutputTensors": [t(data_type, p) for p in parts], "Axis": axis}


def join(data_type, whole, parts, axis):
    return {"InputCount": len(parts), "InputTensors": [t(data_type, p) for p in parts],
            "OutputTensor": t(data_type, whole), "Axis": axis}


def identity(data_type, sizes, out_strides=None):
    return {"InputTensor": t(data_type, sizes), "OutputTensor": t(data_type, sizes, out_strides)}


SEED_D2S = ([1, 8, 2, 3], [1, 2, 4, 6])
SEED_SPLIT = ([1, 1, 6, 2], [[1, 1, 2, 2], [1, 1, 1, 2], [1, 1, 3, 2]], 2)


def base(op, data_type=None):
    """The operator's valid base descriptor (the seed's example where there is one)."""
    if op == "DEPTH_TO_SPACE1":
        return depth_space(op, data_type or "UINT32", *SEED_D2S)
    if op == "SPACE_TO_DEPTH1":
        return depth_space(op, data_type or "UINT32", *reversed(SEED_D2S))
    if op == "ELEMENT_WISE_BIT_OR":
        return bit_or(data_type or "UINT32", [2, 3])
    if op == "SPLIT":
        return split(data_type or "FLOAT32", *SEED_SPLIT)
    if op == "JOIN":
        return join(data_type or "FLOAT32", *SEED_SPLIT)
    return identity(data_type or "FLOAT32", [1, 3, 2, 2], [12, 1, 6, 3])


def with_dims(op, dims):
    """A descriptor of `dims` dimensions that is shape-valid wherever the rule allows it (FLOAT32, or UINT32 for
    BIT_OR: types every row of the operator's table lists)."""
    if op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        if dims == 4:
            return base(op, "FLOAT32")
        inp, out = ([1] * (dims - 3) + [4, 1, 1], [1] * (dims - 3) + [1, 2, 2]) if dims >= 3 else ([4] * dims,) * 2
        return depth_space(op, "FLOAT32", *((inp, out) if op == "DEPTH_TO_SPACE1" else (out, inp)))
    sizes, half = [2] * dims, [2] * (dims - 1) + [1]
    if op == "ELEMENT_WISE_BIT_OR":
        return bit_or("UINT32", sizes)
    if op == "SPLIT":
        return split("FLOAT32", sizes, [half, half], dims - 1)
    if op == "JOIN":
        return join("FLOAT32", sizes, [half, half], dims - 1)
    return identity("FLOAT32", sizes)


def tensor_items(op, desc):
    """[(field, index or None, tensor json, is output)] in C struct order."""
    items = []
    for field, kind in ((f.name, f.kind) for f in OPERATORS[op].fields):
        if kind in ("input", "output"):
            items.append((field, None, desc[field], kind == "output"))
        elif kind in ("inputs", "outputs"):
            items += [(field, i, d, kind == "outputs") for i, d in enumerate(desc[field])]
    return items


def edited(desc, field, index=None, **changes):
    """A copy of desc with one tensor's fields changed."""
    desc = json.loads(json.dumps(desc))
    (desc[field] if index is None else desc[field][index]).update(changes)
    return desc


def every_tensor(op, desc, change):
    """A copy of desc with change(tensor) applied to every tensor."""
    desc = json.loads(json.dumps(desc))
    for field, index, _, _ in tensor_items(op, desc):
        tensor = desc[field] if index is None else desc[field][index]
        change(tensor)
    return desc


def implied_bytes(tensor):
    """DMLCalcBufferTensorSize without the core's limits (sizes of 0, indices past 2^32 are computed as they are)."""
    sizes, strides = tensor["Sizes"], tensor.get("Strides")
    if strides is None:
        strides, step = [], 1
        for size in reversed(sizes):
            strides.insert(0, step)
            step *= size
    last = sum((s - 1) * st for s, st in zip(sizes, strides))
    return max(round_up((last + 1) * NUMPY_DTYPES[tensor["DataType"]].itemsize, 4), 4)


def first_input(op):
    return next((f, None if kind == "input" else 0) for f, kind in ((f.name, f.kind) for f in OPERATORS[op].fields)
                if kind in ("input", "inputs"))


def first_output(op):
    return next((f, None if kind == "output" else 0) for f, kind in ((f.name, f.kind) for f in OPERATORS[op].fields)
                if kind in ("output", "outputs"))


def _tensor_of(desc, where):
    field, index = where
    return desc[field] if index is None else desc[field][index]


def common_cases(op):
    """Rules every operator shares: the tensor desc's own rules, one DataType, sizes of the buffer, overlap."""
    b = base(op)
    inp, out = first_input(op), first_output(op)
    in_bytes = implied_bytes(_tensor_of(b, inp))
    other = "INT32" if _tensor_of(b, out)["DataType"] != "INT32" else "UINT32"
    out_sizes = _tensor_of(b, out)["Sizes"]
    overlap = [0] + [1] * (len(out_sizes) - 1)  # the first dimension's elements all land on the same place
    cases = [
        Case(op, "valid", "base (seed example)", b),
        Case(op, "a size of 0 is invalid", "Sizes[0] = 0 in every tensor",
             every_tensor(op, b, lambda d: d["Sizes"].__setitem__(0, 0))),
        Case(op, "1 to 8 dimensions", "9 dimensions (1s prepended to every tensor's Sizes)",
             _prepend_ones(op, b, 9)),
        Case(op, "TotalTensorSizeInBytes at least the implied size", f"{inp[0]} TotalTensorSizeInBytes "
             f"{in_bytes - 4} (implied {in_bytes})", edited(b, *inp, TotalTensorSizeInBytes=in_bytes - 4)),
        Case(op, "TotalTensorSizeInBytes a multiple of 4", f"{inp[0]} TotalTensorSizeInBytes {in_bytes + 2}",
             edited(b, *inp, TotalTensorSizeInBytes=in_bytes + 2)),
        Case(op, "valid", f"{inp[0]} TotalTensorSizeInBytes {in_bytes + 4} (larger than implied)",
             edited(b, *inp, TotalTensorSizeInBytes=in_bytes + 4)),
        Case(op, "same DataType in every tensor", f"{out[0]} DataType {other}", edited(b, *out, DataType=other)),
        Case(op, "an output must not overlap itself", f"{out[0]} Strides {overlap}", edited(b, *out, Strides=overlap)),
        Case(op, "valid", f"{inp[0]} Strides {overlap} (an input may repeat elements: broadcast)",
             edited(b, *inp, Strides=overlap)),
        Case(op, "Flags OWNED_BY_DML only on inputs", f"{out[0]} Flags OWNED_BY_DML",
             edited(b, *out, Flags="OWNED_BY_DML")),
        Case(op, "DimensionCount equals the length of Sizes", f"{inp[0]} DimensionCount {len(out_sizes) + 1}",
             edited(b, *inp, DimensionCount=len(out_sizes) + 1)),
        Case(op, "GuaranteedBaseOffsetAlignment 0 or a power of two >= element size",
             f"{inp[0]} GuaranteedBaseOffsetAlignment 2", edited(b, *inp, GuaranteedBaseOffsetAlignment=2)),
    ]
    cases += [Case(op, "valid: data type", data_type, base(op, data_type)) for data_type in DATA_TYPES]
    cases += [Case(op, "valid: dimension count", f"{dims} dimensions", with_dims(op, dims)) for dims in range(1, 9)]
    return cases


def _prepend_ones(op, desc, dims):
    def grow(tensor):
        tensor["Sizes"] = [1] * (dims - len(tensor["Sizes"])) + tensor["Sizes"]

    grown = every_tensor(op, desc, grow)
    if "Axis" in grown:
        grown["Axis"] += dims - len(_tensor_of(desc, first_input(op))["Sizes"])
    return grown


def limit_cases(op):
    """The 2^32-1 limits, on the operators whose shape allows any sizes (BIT_OR, IDENTITY)."""
    huge = [65536, 65537]  # 4,295,032,832 elements
    if op == "ELEMENT_WISE_BIT_OR":
        return [Case(op, "at most 2^32-1 elements", "UINT8 {65536, 65537}", bit_or("UINT8", huge))]
    if op != "ELEMENT_WISE_IDENTITY":
        return []
    return [
        Case(op, "at most 2^32-1 elements", "UINT8 {65536, 65537}", identity("UINT8", huge)),
        Case(op, "at most 2^32-1 elements in the buffer", "UINT8 {2, 2}, InputTensor TotalTensorSizeInBytes 2^32+4",
             edited(identity("UINT8", [2, 2]), "InputTensor", TotalTensorSizeInBytes=2**32 + 4)),
        Case(op, "last element's index below 2^32-1", "FLOAT32 {2, 2}, InputTensor Strides [4294967295, 1]",
             edited(identity("FLOAT32", [2, 2]), "InputTensor", Strides=[4294967295, 1])),
        *byte_size_cases(op),
    ]


def byte_size_cases(op):
    """Where TotalTensorSizeInBytes stops being enough: UINT8 tensors whose bytes are not a multiple of 4, so that
    "at least the bytes Sizes reach", "at least DMLCalcBufferTensorSize (rounded up to 4)" and "a multiple of 4"
    come apart."""
    cases = []
    for sizes, totals in (([3], (3, 5, 7)), ([5], (6, 7))):
        for total in totals:
            for field in ("InputTensor", "OutputTensor"):
                implied = round_up(sizes[0], 4)
                rule = ("TotalTensorSizeInBytes at least the implied size" if total < implied
                        else "TotalTensorSizeInBytes a multiple of 4")
                cases.append(Case(op, rule, f"UINT8 {{{sizes[0]}}}, {field} TotalTensorSizeInBytes {total} "
                                            f"(implied {implied})",
                                  edited(identity("UINT8", sizes), field, TotalTensorSizeInBytes=total)))
    return cases


def operator_cases(op):
    b = base(op)
    if op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        d2s = op == "DEPTH_TO_SPACE1"
        other_order = [Case(op, "valid", "COLUMN_ROW_DEPTH (seed example)", {**b, "Order": "COLUMN_ROW_DEPTH"})]
        same = [1, 8, 2, 3] if d2s else [1, 2, 4, 6]
        cases = other_order + [
            Case(op, "valid", "BlockSize 1 (a copy)", depth_space(op, "UINT32", same, same, block=1)),
            Case(op, "BlockSize at least 1", "BlockSize 0", {**b, "BlockSize": 0}),
            Case(op, "output Sizes by the formula", "OutputTensor {1, 2, 6, 4}" if d2s else "OutputTensor {1, 8, 3, 2}",
                 edited(b, "OutputTensor", Sizes=[1, 2, 6, 4] if d2s else [1, 8, 3, 2])),
            Case(op, "output Sizes by the formula", "OutputTensor {1, 3, 4, 6}" if d2s else "OutputTensor {1, 9, 2, 3}",
                 edited(b, "OutputTensor", Sizes=[1, 3, 4, 6] if d2s else [1, 9, 2, 3])),
        ]
        if d2s:
            cases.append(Case(op, "C divisible by BlockSize^2", "{1, 6, 2, 3} -> {1, 1, 4, 6}",
                              depth_space(op, "UINT32", [1, 6, 2, 3], [1, 1, 4, 6])))
        else:
            cases += [Case(op, "H divisible by BlockSize", "{1, 2, 5, 6} -> {1, 8, 2, 3}",
                           depth_space(op, "UINT32", [1, 2, 5, 6], [1, 8, 2, 3])),
                      Case(op, "W divisible by BlockSize", "{1, 2, 4, 7} -> {1, 8, 2, 3}",
                           depth_space(op, "UINT32", [1, 2, 4, 7], [1, 8, 2, 3]))]
        return cases
    if op == "ELEMENT_WISE_BIT_OR":
        return [
            Case(op, "valid", "FLOAT32 {2, 3} (seed: bits of floats)", bit_or("FLOAT32", [2, 3])),
            Case(op, "B and Output Sizes equal A's", "BTensor {2, 1} (implicit broadcast)",
                 edited(b, "BTensor", Sizes=[2, 1])),
            Case(op, "B and Output Sizes equal A's", "BTensor {6} (other DimensionCount)",
                 edited(b, "BTensor", Sizes=[6])),
            Case(op, "B and Output Sizes equal A's", "OutputTensor {3, 2}", edited(b, "OutputTensor", Sizes=[3, 2])),
            Case(op, "valid", "BTensor Strides [0, 1] (broadcast by stride)", edited(b, "BTensor", Strides=[0, 1])),
        ]
    if op == "ELEMENT_WISE_IDENTITY":
        return [
            Case(op, "valid", "packed to packed", identity("FLOAT32", [1, 3, 2, 2])),
            Case(op, "OutputTensor Sizes equal InputTensor's", "OutputTensor {1, 2, 2, 3}",
                 edited(identity("FLOAT32", [1, 3, 2, 2]), "OutputTensor", Sizes=[1, 2, 2, 3])),
            Case(op, "OutputTensor Sizes equal InputTensor's", "OutputTensor {3, 2, 2} (other DimensionCount)",
                 edited(identity("FLOAT32", [1, 3, 2, 2]), "OutputTensor", Sizes=[3, 2, 2])),
            Case(op, "valid", "ScaleBias {Scale 2, Bias 1}", {**b, "ScaleBias": {"Scale": 2.0, "Bias": 1.0}}),
            Case(op, "ScaleBias only with types of 32 bits or fewer", "INT64 with ScaleBias {Scale 2, Bias 1}",
                 {**identity("INT64", [1, 3, 2, 2]), "ScaleBias": {"Scale": 2.0, "Bias": 1.0}}),
            Case(op, "ScaleBias only with types of 32 bits or fewer", "UINT64 with ScaleBias {Scale 2, Bias 1}",
                 {**identity("UINT64", [1, 3, 2, 2]), "ScaleBias": {"Scale": 2.0, "Bias": 1.0}}),
            Case(op, "valid", "OutputTensor Strides [24, 8, 4, 1] (padding)",
                 edited(b, "OutputTensor", Strides=[24, 8, 4, 1])),
        ]
    parts = "OutputTensors" if op == "SPLIT" else "InputTensors"
    whole = "InputTensor" if op == "SPLIT" else "OutputTensor"
    count = "OutputCount" if op == "SPLIT" else "InputCount"
    build = split if op == "SPLIT" else join
    return [
        Case(op, "valid", "axis 3 into two {1, 1, 6, 1} (seed example)",
             build("FLOAT32", [1, 1, 6, 2], [[1, 1, 6, 1]] * 2, 3)),
        Case(op, "valid", "one part (a copy)", build("FLOAT32", [1, 1, 6, 2], [[1, 1, 6, 2]], 2)),
        Case(op, "Axis in [0, DimensionCount - 1]", "Axis 4", {**b, "Axis": 4}),
        Case(op, f"{parts} sum along Axis to {whole}'s size", "2 + 1 + 2 = 5, not 6",
             edited(b, parts, 2, Sizes=[1, 1, 2, 2])),
        Case(op, f"{parts} sum along Axis to {whole}'s size", "2 + 1 + 4 = 7, not 6",
             edited(b, parts, 2, Sizes=[1, 1, 4, 2])),
        Case(op, f"{parts} equal {whole} off Axis", f"{parts}[1] {{1, 1, 1, 3}}",
             edited(b, parts, 1, Sizes=[1, 1, 1, 3])),
        Case(op, f"{parts} have {whole}'s DimensionCount", f"{parts}[1] {{1, 1, 2}}",
             edited(b, parts, 1, Sizes=[1, 1, 2])),
        Case(op, f"{count} > 0", f"{count} 0, no {parts}", {**b, count: 0, parts: []}),
        Case(op, f"{count} equals the number of {parts}", f"{count} 2 with 3 {parts}", {**b, count: 2}),
    ]


def all_cases():
    cases = []
    for op in COVERED:
        common = common_cases(op)
        cases += common[:1] + operator_cases(op) + common[1:] + limit_cases(op)
    return cases


# ---------------------------------------------------------------- verdicts


def core_verdict(case, level):
    """[] when the core accepts, else its problems as "path: message"."""
    return [str(p) for p in validate_problems(case.dispatchable, level)]


def unaskable(case):
    """Why the worker cannot hand this descriptor to DirectML as written, or None.

    The worker builds DML_BUFFER_TENSOR_DESC with Flags NONE, DimensionCount = len(Sizes) and
    GuaranteedBaseOffsetAlignment 0, and counts an array field by its length."""
    for field, index, tensor, _ in tensor_items(case.op, case.desc):
        name = field if index is None else f"{field}[{index}]"
        if tensor.get("Flags", "NONE") != "NONE":
            return f"{name}.Flags: the worker always passes DML_TENSOR_FLAG_NONE"
        if tensor.get("DimensionCount", len(tensor["Sizes"])) != len(tensor["Sizes"]):
            return f"{name}.DimensionCount: the worker passes the length of Sizes"
        if tensor.get("GuaranteedBaseOffsetAlignment", 0):
            return f"{name}.GuaranteedBaseOffsetAlignment: the worker always passes 0"
    for count, array in (("OutputCount", "OutputTensors"), ("InputCount", "InputTensors")):
        if count in case.desc and case.desc[count] != len(case.desc[array]):
            return f"{count}: the worker passes the number of {array}"
    return None


def directml_request(case):
    """(input TensorDescs, output TensorDescs, attrs) for create_operator_verdict."""
    inputs, outputs = [], []
    for _, _, tensor, is_output in tensor_items(case.op, case.desc):
        total = tensor.get("TotalTensorSizeInBytes") or implied_bytes(tensor)
        strides = tuple(tensor["Strides"]) if tensor.get("Strides") is not None else None
        desc = TensorDesc(tensor["DataType"], tuple(tensor["Sizes"]), strides, "NONE", len(tensor["Sizes"]), total, 0)
        (outputs if is_output else inputs).append(desc)
    d, attrs = case.desc, {}
    if "BlockSize" in d:
        attrs = {"block_size": d["BlockSize"], "order": d["Order"]}
    elif "Axis" in d:
        attrs = {"axis": d["Axis"]}
    elif d.get("ScaleBias") is not None:
        attrs = {"scale_bias": [d["ScaleBias"]["Scale"], d["ScaleBias"]["Bias"]]}
    return inputs, outputs, attrs


@dataclasses.dataclass(frozen=True)
class Verdict:
    kind: str
    core: tuple  # the core's problems ([] = accepted)
    directml: str  # "S_OK (0x00000000)", "E_INVALIDARG (...)", or why there is no verdict
    hr: int | None = None


def directml_verdict(case, level, device_levels):
    """(HRESULT or None, text)."""
    reason = unaskable(case)
    if reason:
        return None, f"not asked: {reason}"
    if level not in device_levels:
        return None, f"no device: {device_levels.get('why', 'DMLCreateDevice1 failed')}"
    try:
        hr = create_operator_verdict(case.op, *directml_request(case), level)
    except WorkerFailed as error:
        return None, f"worker failed: {error}"
    return hr, hr_text(hr)


def probe_device_levels(max_level):
    """{level: True} for the levels whose device could be created; 'why' says what the others returned.

    A device is created once per minimum feature level; above the library's maximum DMLCreateDevice1 refuses,
    which the seed's base DEPTH_TO_SPACE1 descriptor shows as the call's HRESULT."""
    probe = Case("DEPTH_TO_SPACE1", "valid", "probe", base("DEPTH_TO_SPACE1"))
    levels = {}
    for level in FEATURE_LEVELS:
        if FEATURE_LEVELS.index(level) <= FEATURE_LEVELS.index(max_level):
            levels[level] = True
            continue
        try:
            hr = create_operator_verdict(probe.op, *directml_request(probe), level)
        except WorkerFailed as error:
            levels["why"] = f"worker failed: {error}"
            continue
        if hr == 0:
            levels[level] = True
        else:
            levels["why"] = f"DMLCreateDevice1 at a minimum above the library's {max_level} returned {hr_text(hr)}"
    return levels


def judge(case, level, device_levels):
    core = tuple(core_verdict(case, level))
    hr, text = directml_verdict(case, level, device_levels)
    if hr is None:
        kind = NO_VERDICT
    elif not core:
        kind = BOTH_ACCEPT if hr == 0 else DML_ONLY
    else:
        kind = CORE_ONLY if hr == 0 else BOTH_REFUSE
    return Verdict(kind, core, text, hr)


def run_all(cases=None):
    """{case: {level: Verdict}}, the provider string, and the device levels."""
    status = directml_status()
    if not status.available:
        return None, status, {}
    device_levels = probe_device_levels(status.max_feature_level)
    cases = all_cases() if cases is None else cases
    return {case: {level: judge(case, level, device_levels) for level in FEATURE_LEVELS} for case in cases}, \
        status, device_levels


def unaligned_run(level):
    """(HRESULT, whether the copy arrived): ELEMENT_WISE_IDENTITY FLOAT32 {1, 3, 2, 2} run with 50-byte buffers on
    both sides, to see whether a TotalTensorSizeInBytes that is not a multiple of 4 stops DirectML past
    CreateOperator (at binding or execution)."""
    values = np.arange(12, dtype=np.float32).tobytes()
    desc = TensorDesc("FLOAT32", (1, 3, 2, 2), None, "NONE", 4, 50, 0)
    try:
        result = run_operator("ELEMENT_WISE_IDENTITY", [(desc, values + bytes(2))], [(desc, bytes(50))], {}, level)
    except WorkerFailed as error:
        return None, f"worker failed: {error}"
    arrived = result.ok and result.outputs[0][:48] == values
    return result.hresult, f"{hr_text(result.hresult)}{' at ' + result.stage if result.stage else ''}" + (
        ", the 12 values arrived" if arrived else ", the values did not arrive" if result.ok else "")


# ---------------------------------------------------------------- the table


def level_ranges(levels):
    """'1_0-2_0, 6_3' from a list of levels, runs written first-last."""
    if not levels:
        return ""
    indices = sorted(FEATURE_LEVELS.index(level) for level in levels)
    runs, start = [], indices[0]
    for previous, current in zip(indices, indices[1:] + [None]):
        if current != previous + 1:
            first, last = FEATURE_LEVELS[start], FEATURE_LEVELS[previous]
            runs.append(first if start == previous else f"{first}–{last}")
            start = current
    return ", ".join(runs)


def compact(case):
    """A one-line descriptor: tensors as TYPE{sizes} with strides, explicit totals and odd fields, then scalars."""
    parts = []
    for field, index, tensor, _ in tensor_items(case.op, case.desc):
        name = field if index is None else f"{field}[{index}]"
        text = f"{name} {tensor['DataType']} {{{', '.join(map(str, tensor['Sizes']))}}}"
        for key in ("Strides", "TotalTensorSizeInBytes", "Flags", "DimensionCount", "GuaranteedBaseOffsetAlignment"):
            if key in tensor:
                text += f" {key} {tensor[key]}"
        parts.append(text)
    for key, value in case.desc.items():
        if not isinstance(value, (dict, list)) or key == "ScaleBias":
            parts.append(f"{key} {value}")
    return "; ".join(parts)


def escape(text):
    return text.replace("|", "\\|").replace("\n", " ")


def row_cells(verdicts):
    by_kind = {kind: [level for level, v in verdicts.items() if v.kind == kind] for kind in KINDS}
    return [level_ranges(by_kind[kind]) for kind in KINDS]


LEVELS, DEVICE_TYPES, RULES = "feature levels", "device data types", "rules"


def cause(case, verdicts, unsupported):
    """Why the two sides disagree on a case, or None when they agree at every level with a verdict."""
    kinds = {v.kind for v in verdicts.values()}
    if not kinds & {CORE_ONLY, DML_ONLY}:
        return None
    types = {tensor["DataType"] for _, _, tensor, _ in tensor_items(case.op, case.desc)}
    if DML_ONLY in kinds and types & set(unsupported):
        return DEVICE_TYPES
    if DML_ONLY not in kinds and BOTH_ACCEPT in kinds:
        return LEVELS  # the core accepts it at later levels: only its level tables refuse it
    return RULES


def causes(results, status):
    unsupported = [d for d in DATA_TYPES if d not in status.type_support]
    found = {LEVELS: [], DEVICE_TYPES: [], RULES: []}
    for case, verdicts in results.items():
        why = cause(case, verdicts, unsupported)
        if why:
            found[why].append(case)
    return found, unsupported


def disagreement_levels(verdicts):
    return [level for level, v in verdicts.items() if v.kind in (CORE_ONLY, DML_ONLY)]


def detail(case, verdicts):
    """The case's descriptor and both verdicts at the last level where they differ."""
    levels = disagreement_levels(verdicts)
    last = verdicts[levels[-1]]  # the latest level: the core's level tables refuse the least there
    return [f"- **{case.op} / {escape(case.name)}** ({last.kind} at {level_ranges(levels)}): `{compact(case)}`",
            f"  - core at {levels[-1]}: " + (escape("; ".join(last.core)) if last.core else "valid"),
            f"  - DirectML at {levels[-1]}: {last.directml}"]


# The last run on the previous device (docs/directml_verdicts.md at commit b220934, 2026-11-25): DirectML 1.13 on
# vkd3d-shader 2.1 (Debian 2.1+ds-1), whose device reported FLOAT16, UINT16 and INT16 unsupported and FLOAT64
# supported, with the core refusing every non-null ScaleBias. Kept to show what the new device and the ScaleBias
# model changed.
BEFORE = {"device": "DirectML 1.13 via vkd3d-shader 2.1 on llvmpipe", "cases": 241,
          BOTH_ACCEPT: 1261, BOTH_REFUSE: 1071, CORE_ONLY: 338, DML_ONLY: 203, NO_VERDICT: 742,
          LEVELS: 93, DEVICE_TYPES: 18, "not modelled (ScaleBias)": 1, RULES: 0}


def before_and_after(counts, found):
    now = {**counts, **{why: len(cases) for why, cases in found.items()}, "not modelled (ScaleBias)": 0}
    rows = [*KINDS, LEVELS, DEVICE_TYPES, "not modelled (ScaleBias)", RULES]
    return ["## Before and after the new device", "",
            f"Before: {BEFORE['device']}, {BEFORE['cases']} cases (FLOAT16, UINT16 and INT16 unsupported by that "
            "device, FLOAT64 supported, ScaleBias refused by the core). Now: this page's device and cases (ScaleBias "
            "modelled, with two cases for its 64-bit rule). The first five rows count verdicts, the last four cases "
            "where exactly one side refuses at some level.", "",
            "| | before | now |", "| --- | --- | --- |",
            *[f"| {row} | {BEFORE[row]} | {now.get(row, 0)} |" for row in rows], ""]


def markdown(results, status, device_levels, seconds):
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    counts = Counter(v.kind for verdicts in results.values() for v in verdicts.values())
    found, unsupported = causes(results, status)
    lines = [
        "# DirectML's CreateOperator verdicts beside the core's",
        "",
        f"Generated by `{COMMAND}` on {today} (UTC) in {seconds:.1f} s; do not edit by hand. DirectML: "
        f"{status.provider}. Data types the device reports supported: {', '.join(status.type_support)}.",
        "",
        "Each case is a descriptor judged at each of the 15 feature levels by the core (`ops.validate_problems`) and "
        "by DirectML's `IDMLDevice::CreateOperator` on a device created by `DMLCreateDevice1` with that level as its "
        "minimum (ops/runtime/directml). A case named after a rule breaks exactly that rule of the core; a *valid* "
        "case breaks none at the levels where the core accepts it. The columns list the levels of each outcome. "
        "tests/directml/test_directml_verdicts.py holds DirectML to these verdicts for a subset.",
        "",
        "## Summary",
        "",
        f"{len(results)} cases × {len(FEATURE_LEVELS)} levels = {sum(counts.values())} verdicts.",
        "",
        "| outcome | verdicts |",
        "| --- | --- |",
        *[f"| {kind} | {counts.get(kind, 0)} |" for kind in KINDS],
        "",
        "Every case where exactly one side refuses at some level, by cause:",
        "",
        f"- **Feature levels** ({len(found[LEVELS])} cases): the core refuses at low levels (operator not yet "
        "introduced, data type or dimension count not yet in its table) and accepts at later ones, while DirectML "
        "accepts at every level it has a device for. `DMLCreateDevice1`'s minimum feature level only says which "
        "level the device must reach at least; the device still offers everything up to the library's "
        f"{status.max_feature_level}, so CreateOperator on it cannot show what an older DirectML refused. These "
        "rows neither confirm nor contradict the core's level tables.",
        f"- **Device data types** ({len(found[DEVICE_TYPES])} cases): "
        + ("; ".join(unsupported_type(status, t) for t in unsupported) or "the device supports every type")
        + ". DirectML refuses those where the core, which follows DirectML's documented tables rather than one "
        "device, accepts.",
        f"- **Rules** ({len(found[RULES])} cases): "
        + ("; ".join(f"{c.op} / {c.name}" for c in found[RULES]) or "none") + ".",
        f"- **No verdict**: levels {level_ranges([lv for lv in FEATURE_LEVELS if lv not in device_levels])} "
        f"({device_levels.get('why', 'every device was created')}), and the cases under *Not asked*.",
        "",
    ]
    lines += before_and_after(counts, found)
    for op in COVERED:
        lines += [f"## {op}", "", "| rule | case | both accept | both refuse | core only refuses | "
                  "DirectML only refuses | no DirectML verdict |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for case, verdicts in results.items():
            if case.op == op:
                lines.append("| " + " | ".join(escape(c) for c in [case.rule, case.name, *row_cells(verdicts)]) + " |")
        lines.append("")
    lines += ["## The disagreements that are not about feature levels", ""]
    for why in (RULES, DEVICE_TYPES):
        lines += [f"### {why[0].upper()}{why[1:]}", ""]
        for case in found[why]:
            lines += detail(case, results[case])
        lines.append("")
    lines += ["## The feature-level disagreements", "",
              "The core refuses these below the level its table names; DirectML's device accepts them at every "
              "level.", "", "| operator | case | core refuses at | core's first problem there | DirectML |",
              "| --- | --- | --- | --- | --- |"]
    for case in found[LEVELS]:
        verdicts = results[case]
        levels = disagreement_levels(verdicts)
        first = verdicts[levels[0]]
        lines.append(f"| {case.op} | {escape(case.name)} | {level_ranges(levels)} | {escape(first.core[0])} | "
                     f"{first.directml} |")
    lines += ["", "## Past CreateOperator: an unaligned TotalTensorSizeInBytes at run time", "",
              "ELEMENT_WISE_IDENTITY FLOAT32 {1, 3, 2, 2} with TotalTensorSizeInBytes 50 on both tensors, bound with "
              "`DML_BUFFER_BINDING.SizeInBytes` 50 (the D3D12 resources beneath are rounded up to 16 bytes) and run "
              f"at {status.max_feature_level} (`run_operator`): {unaligned_run(status.max_feature_level)[1]}."]
    lines += ["", "## Not asked", "",
              "Cases the worker cannot hand to DirectML as written (it fills these fields itself):", ""]
    for case, verdicts in results.items():
        reason = unaskable(case)
        if reason:
            core = verdicts[FEATURE_LEVELS[-1]].core
            lines.append(f"- {case.op} / {escape(case.name)}: {reason}; the core at {FEATURE_LEVELS[-1]}: "
                         f"{escape('; '.join(core)) or 'valid'}")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    start = time.monotonic()
    results, status, device_levels = run_all()
    if results is None:
        print(f"DirectML is not available: {status.reason}", file=sys.stderr)
        return 2
    text = markdown(results, status, device_levels, time.monotonic() - start)
    args.output.write_text(text)
    print(text.split("## DEPTH_TO_SPACE1")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
