"""scripts/directml_check.py: on a machine without DirectML it says so and runs nothing; the matrix machinery itself
is rehearsed on the CPU provider; the Windows wrapper and the workflow are well-formed."""

import dataclasses
import importlib.util
import re
import subprocess
import sys
from types import SimpleNamespace

import pytest
import yaml

from support.paths import ROOT

SCRIPT = ROOT / "scripts" / "directml_check.py"


@pytest.fixture(scope="module")
def check():
    spec = importlib.util.spec_from_file_location("directml_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_directml_it_says_why_and_runs_nothing(tmp_path):
    if sys.platform == "win32":
        pytest.skip("this machine may have DirectML")
    output = tmp_path / "report.md"
    done = subprocess.run([sys.executable, str(SCRIPT), "--output", str(output)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    report = output.read_text()
    assert report == done.stdout.removesuffix("\n")
    assert "**DmlExecutionProvider could not start, so nothing was run.**" in report
    assert "onnxruntime-directml wheel" in report and "no DXGI here" in report
    # no matrix, no verdict of any case
    assert "| operator |" not in report and "same" not in report and "differs" not in report


def test_the_refusal_names_the_providers_it_found(check):
    reason = check.can_start("DmlExecutionProvider", ["CUDAExecutionProvider", "CPUExecutionProvider"])
    assert reason.startswith("DmlExecutionProvider is not among this onnxruntime's providers "
                             "(CUDAExecutionProvider, CPUExecutionProvider)")
    assert check.can_start("DmlExecutionProvider", None) == "onnxruntime could not be imported (see above)"


def test_a_provider_that_fails_the_first_case_stops_the_check(check, monkeypatch):
    real = check.cross_check

    def failing(*args, **kwargs):
        return dataclasses.replace(real(*args, **kwargs), available=False, note="E_INVALIDARG from the adapter")

    monkeypatch.setattr(check, "cross_check", failing)
    reason = check.can_start("CPUExecutionProvider", ["CPUExecutionProvider"])
    assert reason.startswith("the first case (JOIN {4}+{3} axis 0, UINT8) could not run: E_INVALIDARG")


def test_the_matrix_rehearsed_on_the_cpu_provider(check, tmp_path):
    output = tmp_path / "cpu.md"
    picked = ("JOIN", "SPLIT", "ELEMENT_WISE_IDENTITY")
    code = check.main(["--output", str(output), "--provider", "CPUExecutionProvider", "--operators", *picked])
    report = output.read_text()
    assert code == 0
    assert report.startswith("# Cross-check matrix on CPUExecutionProvider (a rehearsal: not DirectML)")
    rows = [line for line in report.splitlines() if line.startswith(tuple(f"| {p} " for p in picked))]
    cases = [c for c in check.CASES if c.operator in picked]
    assert len(rows) == len(cases)
    assert all(cell.strip().startswith("same") for row in rows for cell in row.split("|")[3:-1])
    assert f"{len(cases) * 11} of {len(cases) * 11} cases ran" in report


def test_a_difference_fails_the_check_and_is_listed(check, tmp_path, monkeypatch):
    real = check.cross_check

    def wrong_for_int8(op, inputs, **kwargs):
        report = real(op, inputs, **kwargs)
        if inputs[0].dtype.name == "int8":
            return dataclasses.replace(report, matches=False, note="first difference at index (0,)")
        return report

    monkeypatch.setattr(check, "cross_check", wrong_for_int8)
    output = tmp_path / "cpu.md"
    assert check.main(["--output", str(output), "--provider", "CPUExecutionProvider", "--operators", "JOIN"]) == 1
    report = output.read_text()
    assert report.count("**differs**") == 2
    assert "- JOIN {4}+{3} axis 0, INT8: first difference at index (0,)" in report


def test_a_case_that_raises_is_reported_not_run_and_the_rest_still_runs(check, tmp_path, monkeypatch):
    real = check.cross_check

    def broken_for_uint16(op, inputs, **kwargs):
        if inputs[0].dtype.name == "uint16":
            raise KeyError("Strides")
        return real(op, inputs, **kwargs)

    monkeypatch.setattr(check, "cross_check", broken_for_uint16)
    output = tmp_path / "cpu.md"
    assert check.main(["--output", str(output), "--provider", "CPUExecutionProvider", "--operators", "SPLIT"]) == 1
    report = output.read_text()
    assert report.count("| not run ") == 2 and report.count("| same") == 20
    assert ("- SPLIT {2,3} axis 1 into 1+2, UINT16: the check itself failed before comparing: KeyError: 'Strides'"
            in report)


def test_every_modelled_operator_is_in_the_matrix_or_named_as_missing(check, monkeypatch):
    without_onnx = {name for name, op in check.OPERATORS.items() if op.onnx is None}
    assert {c.operator for c in check.CASES} == set(check.OPERATORS) - without_onnx
    report = check.report_markdown("DmlExecutionProvider", [], [], "no DXGI", "not here", None)
    assert "no settings for yet" not in report
    assert "ONNX has no operator for, which no ONNX Runtime provider can run: ELEMENT_WISE_BIT_COUNT." in report
    monkeypatch.setattr(check, "OPERATORS", {**check.OPERATORS, "ELEMENT_WISE_ABS": SimpleNamespace(onnx="Abs")})
    report = check.report_markdown("DmlExecutionProvider", [], [], "no DXGI", "not here", None)
    assert "no settings for yet (not run): ELEMENT_WISE_ABS" in report


def test_adapters_are_listed_with_the_software_flag(check):
    adapters = [(0, "Microsoft Basic Render Driver", 0x1414, 0x8C, 0, True)]
    report = check.report_markdown("DmlExecutionProvider", [], adapters, None, "refused", None)
    assert "| 0 | Microsoft Basic Render Driver | 0x1414 | 0x008c | 0 MiB | yes |" in report


def test_the_workflow_runs_the_wrapper_on_a_chosen_windows_runner():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "directml.yml").read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["workflow_dispatch"]["inputs"]["runner"]["default"] == "windows-latest"
    job = workflow["jobs"]["matrix"]
    assert job["runs-on"] == "${{ inputs.runner || 'windows-latest' }}"
    run = next(step["run"] for step in job["steps"] if "run" in step)
    assert "./scripts/directml_check.ps1" in run and "GITHUB_STEP_SUMMARY" in run
    upload = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()" and upload["with"]["path"] == "directml-matrix.md"


def test_the_wrapper_installs_the_project_and_runs_the_script():
    text = (ROOT / "scripts" / "directml_check.ps1").read_text()
    assert re.search(r"pip install --quiet \$root", text)
    assert 'scripts\\directml_check.py") --output $Output' in text and "exit $LASTEXITCODE" in text
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert "onnxruntime-directml>=1.20; sys_platform == 'win32'" in pyproject
