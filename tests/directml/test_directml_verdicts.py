"""DirectML's own CreateOperator verdicts, held to what scripts/directml_verdicts.py observed
(docs/directml_verdicts.md).

Every rule of the core is asked once at feature level 6_2 (the core has every operator there, and it is the level of
DirectML 1.13, the library run here), with the boundaries (each data type, each dimension count) and the seeds'
examples. Where DirectML and the core agree, both are asserted; where they disagree, DirectML's observed verdict is
asserted and the comment says why they differ. Skipped where scripts/setup_directml.sh could not set DirectML up,
except on CI (CI=true), where that is a failure.
"""

import importlib.util

import pytest

from ops import validate
from ops.runtime.directml import create_operator_verdict
from support.paths import ROOT

pytestmark = pytest.mark.directml


LEVEL = "6_2"
S_OK, E_INVALIDARG, DXGI_ERROR_UNSUPPORTED = 0, 0x80070057, 0x887A0004


@pytest.fixture(scope="module")
def status(directml):
    """conftest's directml fixture: skipped where DirectML is not set up, a failure in CI (CI=true)."""
    return directml


@pytest.fixture(scope="module")
def script(status):
    spec = importlib.util.spec_from_file_location("directml_verdicts", ROOT / "scripts" / "directml_verdicts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def directml(script, case, level=LEVEL):
    return create_operator_verdict(case.op, *script.directml_request(case), level)


# DirectML's verdict at 6_2 on the case that breaks each rule (the cases' `rule`), True = S_OK.
ACCEPTS = {
    "valid": True,
    "BlockSize at least 1": False,
    "output Sizes by the formula": False,
    "C divisible by BlockSize^2": False,
    "H divisible by BlockSize": False,
    "W divisible by BlockSize": False,
    "B and Output Sizes equal A's": False,
    "Axis in [0, DimensionCount - 1]": False,
    "OutputTensors sum along Axis to InputTensor's size": False,
    "InputTensors sum along Axis to OutputTensor's size": False,
    "OutputTensors equal InputTensor off Axis": False,
    "InputTensors equal OutputTensor off Axis": False,
    "OutputTensors have InputTensor's DimensionCount": False,
    "InputTensors have OutputTensor's DimensionCount": False,
    "OutputCount > 0": False,
    "InputCount > 0": False,
    "OutputTensor Sizes equal InputTensor's": False,
    "a size of 0 is invalid": False,
    "1 to 8 dimensions": False,
    "at most 2^32-1 elements": False,
    "at most 2^32-1 elements in the buffer": False,
    "last element's index below 2^32-1": False,
    # DirectML's minimum is DMLCalcBufferTensorSize, rounded up to 4 like the core's: UINT8 {3} with 3 bytes and
    # UINT8 {5} with 6 or 7 bytes are refused although Sizes reach only 3 and 5 bytes.
    "TotalTensorSizeInBytes at least the implied size": False,
    "same DataType in every tensor": False,
    "an output must not overlap itself": False,
    # CreateOperator takes any TotalTensorSizeInBytes at or above that minimum, a multiple of 4 or not (FLOAT32
    # {1,3,2,2} with 50 bytes, UINT8 {3} with 5 or 7, as input or output); the core, which once refused it, follows
    # DirectML (ops/descriptors/validate.py). The cases keep the former rule's name.
    "TotalTensorSizeInBytes a multiple of 4": True,
    # ScaleBias with INT64 or UINT64 tensors: E_INVALIDARG at every level, though a plain copy of them is accepted;
    # the core refuses it too (validate._identity_problems).
    "ScaleBias only with types of 32 bits or fewer": False,
}
# The cases named after a rule the core no longer has: both sides accept them.
FORMER_RULES = {"TotalTensorSizeInBytes a multiple of 4"}
# What the worker cannot ask (it passes Flags NONE, DimensionCount = len(Sizes), alignment 0, counts = lengths).
NOT_ASKED = {"Flags OWNED_BY_DML only on inputs", "DimensionCount equals the length of Sizes",
             "GuaranteedBaseOffsetAlignment 0 or a power of two >= element size",
             "OutputCount equals the number of OutputTensors", "InputCount equals the number of InputTensors"}
# The device here (lavapipe through vkd3d-proton) reports FLOAT64 unsupported (its D3D12 device answers
# DoublePrecisionFloatShaderOps FALSE, docs/directml.md): DirectML refuses it for every operator, where the core,
# which follows DirectML's documented tables rather than one device, accepts it.
DEVICE_LACKS = {"FLOAT64"}


def rule_cases(script):
    return [c for c in script.all_cases() if not c.rule.startswith("valid:") and c.rule not in NOT_ASKED]


def test_every_rule_is_asked_or_said_to_be_unaskable(script):
    rules = {c.rule for c in script.all_cases() if not c.rule.startswith("valid:")}
    assert rules == set(ACCEPTS) | NOT_ASKED
    for case in script.all_cases():
        assert (script.unaskable(case) is None) == (case.rule not in NOT_ASKED), case.name


def test_each_rule_at_6_2(script):
    wrong = []
    for case in rule_cases(script):
        hr = directml(script, case)
        core_accepts = validate(case.dispatchable, LEVEL) == []
        expected_hr = S_OK if ACCEPTS[case.rule] else E_INVALIDARG
        if hr != expected_hr:
            wrong.append(f"{case.op} / {case.name}: DirectML now returns {hr:#010x}, docs/directml_verdicts.md "
                         f"observed {expected_hr:#010x}")
        # Agreements hold on both sides: the core accepts exactly the valid cases, and refuses each broken rule.
        if core_accepts != (case.rule == "valid" or case.rule in FORMER_RULES):
            wrong.append(f"{case.op} / {case.name}: the core {'accepts' if core_accepts else 'refuses'}")
    assert not wrong, "\n".join(wrong)


def test_each_data_type_at_6_2(script, status):
    assert DEVICE_LACKS == set(script.DATA_TYPES) - set(status.type_support)
    cases = [c for c in script.all_cases() if c.rule == "valid: data type"]
    assert len(cases) == 6 * 11
    for case in cases:
        assert validate(case.dispatchable, LEVEL) == [], case.name  # every type is in every 6_2 table
        assert directml(script, case) == (E_INVALIDARG if case.name in DEVICE_LACKS else S_OK), (case.op, case.name)


def test_each_dimension_count_at_6_2(script):
    cases = [c for c in script.all_cases() if c.rule == "valid: dimension count"]
    assert len(cases) == 6 * 8
    for case in cases:
        four_only = case.op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1")
        accepted = not four_only or case.name == "4 dimensions"
        assert (validate(case.dispatchable, LEVEL) == []) == accepted, (case.op, case.name)
        assert directml(script, case) == (S_OK if accepted else E_INVALIDARG), (case.op, case.name)


def tensor(data_type, sizes):
    return {"DataType": data_type, "Sizes": sizes}


SEEDS = {
    "DEPTH_TO_SPACE1 DEPTH_COLUMN_ROW": ("DEPTH_TO_SPACE1", {
        "InputTensor": tensor("UINT32", [1, 8, 2, 3]), "OutputTensor": tensor("UINT32", [1, 2, 4, 6]),
        "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}, "2_1"),
    "DEPTH_TO_SPACE1 COLUMN_ROW_DEPTH": ("DEPTH_TO_SPACE1", {
        "InputTensor": tensor("UINT32", [1, 8, 2, 3]), "OutputTensor": tensor("UINT32", [1, 2, 4, 6]),
        "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH"}, "2_1"),
    "ELEMENT_WISE_BIT_OR FLOAT32": ("ELEMENT_WISE_BIT_OR", {
        "ATensor": tensor("FLOAT32", [4]), "BTensor": tensor("FLOAT32", [4]), "OutputTensor": tensor("FLOAT32", [4])},
        "4_1"),
    "SPLIT axis 2": ("SPLIT", {
        "InputTensor": tensor("FLOAT32", [1, 1, 6, 2]), "OutputCount": 3,
        "OutputTensors": [tensor("FLOAT32", [1, 1, 2, 2]), tensor("FLOAT32", [1, 1, 1, 2]),
                          tensor("FLOAT32", [1, 1, 3, 2])], "Axis": 2}, "1_0"),
}


@pytest.mark.parametrize("name", SEEDS)
def test_the_seed_examples_are_accepted_by_both_from_the_level_the_core_names(script, name):
    op, desc, first = SEEDS[name]
    case = script.Case(op, "valid", name, desc)
    for level in ("6_2", first):
        assert validate(case.dispatchable, level) == []
        assert directml(script, case, level) == S_OK


def test_levels_above_the_library_have_no_device_and_lower_ones_do_not_gate(script, status):
    base = script.Case("DEPTH_TO_SPACE1", "valid", "seed", script.base("DEPTH_TO_SPACE1"))
    assert status.max_feature_level == "6_2"
    # DMLCreateDevice1 refuses a minimum above what DirectML 1.13 offers: no verdict at 6_3 and 6_4.
    assert directml(script, base, "6_3") == DXGI_ERROR_UNSUPPORTED
    assert directml(script, base, "6_4") == DXGI_ERROR_UNSUPPORTED
    # Disagreement by method: the core refuses DEPTH_TO_SPACE1 at 1_0 (introduced at 2_1), DirectML accepts it,
    # because a device created with minimum 1_0 still offers everything up to 6_2. So DirectML here cannot check
    # the core's level tables; the generated page says so.
    assert validate(base.dispatchable, "1_0") != []
    assert directml(script, base, "1_0") == S_OK


def test_an_unaligned_total_size_also_binds_and_runs(script):
    # The multiple-of-4 disagreement past CreateOperator: 50-byte bindings run and the copy arrives.
    assert script.unaligned_run(LEVEL) == (S_OK, "S_OK (0x00000000), the 12 values arrived")


def test_the_page_is_generated_with_its_summary(script, tmp_path):
    output = tmp_path / "verdicts.md"
    assert script.main(["--output", str(output)]) == 0
    page = output.read_text()
    assert page.startswith("# DirectML's CreateOperator verdicts beside the core's")
    assert f"Generated by `{script.COMMAND}`" in page and "DirectML 1.13" in page
    rules = [line for line in page.split("### Rules")[1].split("###")[0].splitlines() if line.startswith("- **")]
    # No rule splits them any more: the multiple-of-4 rule is gone from the core, and ScaleBias is modelled.
    assert rules == []
    assert "## Before and after the new device" in page and "| DirectML only refuses | 203 |" in page
    assert "| no DirectML verdict |" in page and "6_3–6_4" in page
