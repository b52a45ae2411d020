#!/usr/bin/env bash
# Sets up everything on a fresh Linux machine and launches the app; open the address it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
exec .venv/bin/streamlit run app.py "$@"
