#!/usr/bin/env bash
# Sets up everything on a fresh Linux machine and launches the app; open the address it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# Freed memory of large, short-lived arrays goes back to the system instead of staying in glibc's arenas.
export MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576
exec .venv/bin/python -m serve.launch "$@"
