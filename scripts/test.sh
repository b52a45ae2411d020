#!/usr/bin/env bash
# Sets up everything on a fresh Linux machine and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser tests drive Debian's Chromium (Playwright cannot download its own browser here); the multi-process
# test serves the app through Debian's nginx.
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
source scripts/setup.sh
.venv/bin/ruff check .  # pyflakes, pycodestyle, isort and bugbear, as pyproject.toml configures them
.venv/bin/python -m mypy  # the app's packages against the libraries' hints, as pyproject.toml's [tool.mypy] says
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
