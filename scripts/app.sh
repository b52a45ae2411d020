#!/usr/bin/env bash
# Sets up everything on a fresh Linux machine and launches the app; open the address it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
# What the set-up fetches, said before it does (the first run takes a few minutes; later runs find it all there).
cat >&2 <<'TEXT'
app.sh: setting up, then serving the app. The set-up (scripts/setup.sh) downloads and installs:
  - into .venv/: this project and its Python packages from PyPI (numpy, streamlit, plotly, onnx, onnxruntime,
    einops, ...: pyproject.toml lists them, with the test tools);
  - into .plotly/: plotly.js's cartesian partial bundle from the npm registry, pinned by sha256 (without it the
    app serves the full plotly.js that plotly ships);
  - into .directml/ (scripts/setup_directml.sh): DirectML's Linux library from the torch-directml wheel on PyPI,
    pinned by sha256 (torch itself is not installed), vkd3d-proton 2.14 built from its source tarball in
    ../shared/vendor (cloned from GitHub at v2.14 where that is absent), lavapipe from Debian 12's
    bookworm-backports, unpacked; as root, the build tools with apt-get. Where a step cannot run, the app says so
    and cross-checks on ONNX Runtime alone.
  Nothing else is downloaded, and the app itself makes no network requests.
TEXT
source scripts/setup.sh
# Freed memory of large, short-lived arrays goes back to the system instead of staying in glibc's arenas.
export MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576
exec .venv/bin/python -m serve.launch "$@"
