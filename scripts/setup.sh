#!/usr/bin/env bash
# Sourced by app.sh and test.sh: a virtual environment with the project and its test tools.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
# The figures' plotly.js as its cartesian partial bundle (1.5 MB instead of 4.6: the first figure a second sooner),
# pinned, from the npm registry; never fatal (the app then serves the full copy plotly.py ships).
.venv/bin/python -m serve.plotly_bundle
# DirectML itself for the cross-check (never fatal: where it cannot be set up, the app says so and uses ONNX Runtime).
bash scripts/setup_directml.sh
