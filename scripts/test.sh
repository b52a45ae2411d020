#!/usr/bin/env bash
# Sets up everything on a fresh Linux machine and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser tests drive Debian's Chromium; Playwright cannot download its own browser here.
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
source scripts/setup.sh
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
