#!/usr/bin/env bash
# Serves the app from several Streamlit processes behind nginx, so one class is spread over the machine's cores.
#
#   bash serve/serve.sh [PROCESSES] [PORT]      # defaults: $PROCESSES or one per core, $PORT or 8080
#
# Each process is a separate Streamlit server on 127.0.0.1:8601, 8602, ...; nginx (Debian's package) listens on
# PORT and keeps every browser on one process (a session's state lives in the process that runs it): a cookie
# names a route the first time a browser comes, and a consistent hash of it picks the process for every later
# request and the websocket. Ctrl-C (or SIGTERM) stops everything. Needs the project installed (scripts/setup.sh
# or pip install .) and nginx on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
processes=${1:-${PROCESSES:-$(nproc)}}
port=${2:-${PORT:-8080}}
python=${PYTHON:-.venv/bin/python}
[ -x "$python" ] || python=python3
command -v nginx >/dev/null || { echo "nginx not found: apt-get install nginx" >&2; exit 1; }

run_dir=$(mktemp -d)
pids=()
stop() {
    trap - INT TERM EXIT
    [ -f "$run_dir/nginx.pid" ] && kill "$(cat "$run_dir/nginx.pid")" 2>/dev/null || true
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$run_dir"
}
trap stop INT TERM EXIT

# glibc keeps freed memory of large, short-lived arrays in per-thread arenas; fewer arenas and a fixed mmap
# threshold hand it back to the system, so a process's resident memory follows what it holds.
export MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576
# One secret for every process: a browser's XSRF cookie from one process is then valid on all of them.
STREAMLIT_SERVER_COOKIE_SECRET=$("$python" -c "import secrets; print(secrets.token_hex(32))")
export STREAMLIT_SERVER_COOKIE_SECRET

for i in $(seq 1 "$processes"); do
    app_port=$((8600 + i))
    "$python" -m serve.launch --server.port "$app_port" --server.address 127.0.0.1 \
        --server.headless true --browser.gatherUsageStats false >"$run_dir/app$i.log" 2>&1 &
    pids+=($!)
    echo "        server 127.0.0.1:$app_port;" >>"$run_dir/servers"
done

sed -e "s|@PORT@|$port|" -e "s|@RUN_DIR@|$run_dir|g" -e "/@SERVERS@/{r $run_dir/servers" -e "d}" \
    serve/nginx.conf.template >"$run_dir/nginx.conf"

for i in $(seq 1 "$processes"); do
    for _ in $(seq 1 120); do
        kill -0 "${pids[$((i - 1))]}" 2>/dev/null || { cat "$run_dir/app$i.log" >&2; exit 1; }
        "$python" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)" \
            "http://127.0.0.1:$((8600 + i))/_stcore/health" >/dev/null 2>&1 && break
        sleep 0.5
    done
done
nginx -c "$run_dir/nginx.conf" -p "$run_dir"
echo "Serving on http://localhost:$port with $processes app processes (logs in $run_dir)"
wait -n "${pids[@]}"
