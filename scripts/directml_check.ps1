# Run the cross-check matrix on real DirectML from a Windows checkout of this repository:
#     powershell -ExecutionPolicy Bypass -File scripts\directml_check.ps1 [-Output directml-matrix.md] [-Python py]
# Installs the project into its own virtual environment (.venv-directml); on Windows pyproject.toml's environment
# marker installs onnxruntime-directml instead of onnxruntime, which brings DmlExecutionProvider and DirectML.dll.
# Then runs scripts/directml_check.py and returns its exit code: 0 all matched, 1 something did not run or differed,
# 2 DirectML could not start (nothing was run; the report says why).
param(
    [string]$Output = "directml-matrix.md",
    [string]$Python = "python"
)
$ErrorActionPreference = "Stop"
$root = Split-Path -Parent $PSScriptRoot
$venv = Join-Path $root ".venv-directml"
if (-not (Test-Path (Join-Path $venv "Scripts\python.exe"))) {
    & $Python -m venv $venv
    if ($LASTEXITCODE -ne 0) { throw "could not create a virtual environment with '$Python'" }
}
$py = Join-Path $venv "Scripts\python.exe"
& $py -m pip install --quiet --upgrade pip
& $py -m pip install --quiet $root
if ($LASTEXITCODE -ne 0) { throw "pip could not install the project from $root" }
& $py (Join-Path $root "scripts\directml_check.py") --output $Output
exit $LASTEXITCODE
