"""A visitor of the app over Streamlit's own websocket, without a browser: what the load test and benchmark use.

Each visit opens the websocket a browser tab opens (/_stcore/stream, subprotocol "streamlit"), asks for one page
run with a page name and query string exactly as the frontend does on load, and reads ForwardMsgs until the run
finishes. It records how long the run took, every exception element the page produced, every error box, and the
URL the app wrote back (st.query_params). Thirty of these at once cost the client little, so the server's cores
measure the server.
"""

import asyncio
import contextlib
import dataclasses
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from .paths import ROOT

# As scripts/app.sh and serve/serve.sh run the server: freed large arrays go back to the system.
SERVER_ENV = {"MALLOC_ARENA_MAX": "2", "MALLOC_MMAP_THRESHOLD_": "1048576"}
# The cross-check's verdict line over an operator page's panels (ui.panels.verdict_line), whatever it says.
VERDICTS = (":material/check_circle: Cross-checked", ":material/error: Cross-check",
            ":material/help: Not cross-checked")
FINISHED = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
PRELOAD = b'{"preload": true}'  # the hidden element that loads plotly.js early (ui.charts.preload_plotly): no chart


@dataclasses.dataclass
class Visit:
    page: str
    query: str
    seconds: float = 0.0
    finished: bool = False
    exceptions: list = dataclasses.field(default_factory=list)
    errors: list = dataclasses.field(default_factory=list)
    warnings: list = dataclasses.field(default_factory=list)
    charts: int = 0
    bytes_received: int = 0
    messages: int = 0  # ForwardMsgs received
    url_query: str | None = None  # the query string the app last wrote to the address bar
    verdict_seconds: float | None = None  # when the cross-check's verdict line arrived (visit(..., verdict=True))
    verdict: str | None = None  # that line
    failure: str | None = None  # a transport failure: refused connection, timeout, closed socket

    @property
    def ok(self):
        return self.finished and not self.exceptions and self.failure is None


def _read(visit, message):
    if message.HasField("delta") and message.delta.HasField("new_element"):
        element = message.delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            visit.exceptions.append(f"{element.exception.type}: {element.exception.message}")
        elif kind == "alert" and element.alert.format == element.alert.ERROR:
            visit.errors.append(element.alert.body)
        elif kind == "alert" and element.alert.format == element.alert.WARNING:
            visit.warnings.append(element.alert.body)
        elif kind == "bidi_component" and element.bidi_component.bytes != PRELOAD:  # a chart (ui.charts)
            visit.charts += 1
        elif kind == "markdown" and element.markdown.body.startswith(VERDICTS) and visit.verdict_seconds is None:
            visit.verdict_seconds, visit.verdict = time.perf_counter(), element.markdown.body
    if message.HasField("page_info_changed"):
        visit.url_query = message.page_info_changed.query_string


async def visit(base_url, page="", query="", widgets=None, timeout=120.0, verdict=False):
    """One page load: connect, run `page` (url path, "" for the default page) with `query`, wait for the end.

    `widgets` ({user key: value}) are then set as a browser sets them, in one rerun whose end the visit waits for too:
    a str is typed into the widget of that key (a text area or input), a (name, bytes) pair is uploaded into the file
    uploader of that key (PUT to Streamlit's upload endpoint, then the uploader's state names the file). With
    `verdict`, the visit goes on as a browser's page does until the cross-check's verdict line arrives: it reruns the
    fragments the server asks to rerun every so often (the page's wait for its verdict, ui.panels)."""
    record = Visit(page, query)
    parts = urllib.parse.urlsplit(base_url)
    ws_url = f"ws://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream"
    request = BackMsg()
    request.rerun_script.query_string = query
    request.rerun_script.page_name = page
    request.rerun_script.context_info.url = f"{base_url.rstrip('/')}/{page}" + (f"?{query}" if query else "")
    # Streamlit's XSRF check compares a cookie with a header, both sent by the client (a double-submit token): any
    # client can make its own, as the frontend's does. Uploads need it.
    xsrf = _xsrf_token()
    start = time.perf_counter()
    try:
        async with websockets.connect(ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                                      ping_interval=None,
                                      additional_headers={"Cookie": f"_streamlit_xsrf={xsrf}"}) as socket:
            await socket.send(request.SerializeToString())
            async with asyncio.timeout(timeout):
                session = await _read_run(socket, record)
                if widgets and record.finished:
                    record.finished = False
                    record.errors.clear()  # what the visitor sees is what the widgets' run shows
                    record.warnings.clear()
                    await socket.send(await _widget_rerun(base_url, request, session, widgets, xsrf, timeout))
                    await _read_run(socket, record, session)
                while verdict and record.finished and record.verdict_seconds is None and session.fragments:
                    await asyncio.sleep(session.rerun_every)
                    await socket.send(_fragment_rerun(request, session))
                    await _read_run(socket, record, session)
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        record.failure = f"{type(error).__name__}: {error}"
    record.seconds = time.perf_counter() - start
    if record.verdict_seconds is not None:
        record.verdict_seconds -= start
    return record


@dataclasses.dataclass
class _Session:
    id: str | None = None
    widgets: dict = dataclasses.field(default_factory=dict)  # user key -> element id, of the widgets drawn
    page_script_hash: str = ""
    fragments: dict = dataclasses.field(default_factory=dict)  # fragment id -> its rerun interval (s)

    @property
    def rerun_every(self):
        return min(self.fragments.values(), default=0.5)


async def _read_run(socket, record, session=None):
    """Read ForwardMsgs into `record` until the run ends; the session's id and widget ids seen on the way."""
    session = session or _Session()
    async for data in socket:
        record.bytes_received += len(data)
        record.messages += 1
        message = ForwardMsg()
        message.ParseFromString(data)
        _read(record, message)
        if message.HasField("new_session"):
            session.id = message.new_session.initialize.session_id
        if message.HasField("navigation"):
            session.page_script_hash = message.navigation.page_script_hash
        if message.HasField("auto_rerun"):
            session.fragments[message.auto_rerun.fragment_id] = message.auto_rerun.interval
        if message.HasField("stop_auto_rerun"):
            for fragment_id in message.stop_auto_rerun.fragment_ids:
                session.fragments.pop(fragment_id, None)
        if message.HasField("delta") and message.delta.HasField("new_element"):
            element = message.delta.new_element
            kind = element.WhichOneof("type")
            element_id = getattr(getattr(element, kind), "id", "") if kind else ""
            if isinstance(element_id, str) and element_id.startswith("$$ID-"):
                session.widgets[element_id.rsplit("-", 1)[1]] = element_id
        if message.HasField("script_finished"):
            if message.script_finished in FINISHED:
                record.finished = True
                break
            if message.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                record.failure = "the script failed to compile"
                break
    return session


async def _widget_rerun(base_url, first, session, widgets, xsrf, timeout):
    """The rerun BackMsg that sets `widgets` in `session` (uploading files first)."""
    rerun = BackMsg()
    rerun.rerun_script.CopyFrom(first.rerun_script)
    for index, (key, value) in enumerate(widgets.items()):
        if key not in session.widgets:
            raise OSError(f"no widget of key {key!r} on the page (saw {sorted(session.widgets)})")
        state = rerun.rerun_script.widget_states.widgets.add()
        state.id = session.widgets[key]
        if isinstance(value, str):
            state.string_value = value
            continue
        name, content = value
        file_id = f"file{index}"
        status = await asyncio.to_thread(_put_file, base_url, session.id, file_id, name, content,
                                         [f"_streamlit_xsrf={xsrf}"], xsrf, timeout)
        if status != 204:
            raise OSError(f"the upload of {name!r} was answered {status}")
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = file_id, name, len(content)
    return rerun.SerializeToString()


def _fragment_rerun(first, session):
    """The rerun a browser sends for the fragments that asked to run again (st.fragment(run_every=...))."""
    rerun = BackMsg()
    rerun.rerun_script.CopyFrom(first.rerun_script)
    rerun.rerun_script.page_script_hash = session.page_script_hash
    rerun.rerun_script.fragment_id = next(iter(session.fragments), "")
    rerun.rerun_script.is_auto_rerun = True
    return rerun.SerializeToString()


def _xsrf_token():
    from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string

    return generate_xsrf_token_string()


async def visitors(base_url, plans, concurrency=None):
    """Run visit plans (lists of (page, query) or (page, query, widgets), one list per visitor) at once; each
    visitor's pages in order."""
    gate = asyncio.Semaphore(concurrency or len(plans) or 1)

    async def one(plan):
        async with gate:
            return [await visit(base_url, *step) for step in plan]

    results = await asyncio.gather(*(one(plan) for plan in plans))
    return [v for visits in results for v in visits]


def run_visitors(base_url, plans, concurrency=None):
    """visitors() from synchronous code, in a thread of its own: the caller may already run an event loop (the
    Playwright sync API does), where asyncio.run refuses to start another."""
    results = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(visitors(base_url, plans, concurrency))))
    thread.start()
    thread.join()
    if not results:
        raise RuntimeError("the visitors' event loop ended without results (see the thread's traceback above)")
    return results[0]


# ---------------------------------------------------------------- a fresh server to visit


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_tree(pid):
    """`pid` and its live descendants (the app's DirectML worker among them), from /proc (Linux)."""
    children = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):  # a process that ended while being read
                continue
            children.setdefault(parent, []).append(int(entry.name))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo.extend(children.get(tree[-1], []))
    return tree


def memory_of(pid):
    """(resident, peak resident) bytes of a process and its live descendants, from /proc (Linux)."""
    resident = peak = 0
    for member in process_tree(pid):
        try:
            with open(f"/proc/{member}/status") as status:
                for line in status:
                    key, _, value = line.partition(":")
                    if key == "VmRSS":
                        resident += int(value.split()[0]) * 1024
                    elif key == "VmHWM":
                        peak += int(value.split()[0]) * 1024
        except OSError:
            continue
    return resident, peak


def resident_by_process(pid):
    """[(command, resident MB)] of a process and its live descendants: which of them holds the memory."""
    held = []
    for member in process_tree(pid):
        try:
            command = Path(f"/proc/{member}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:80].strip()
        except OSError:
            continue
        held.append((command, _resident(member) >> 20))
    return held


def _resident(pid):
    """Resident bytes of one process (0 once it ended)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next((int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:")), 0)
    except OSError:
        return 0


def cpu_seconds(pid):
    """User + system CPU seconds of a process and its live descendants: a cost that other load on the machine
    does not inflate."""
    total = 0
    for member in process_tree(pid):
        try:
            with open(f"/proc/{member}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _watch_output(process, listening):
    """Set `listening` when the server prints the address it serves (or ends), and read its output to the end."""
    for line in process.stdout:
        if "URL:" in line:
            listening.set()
    listening.set()


@contextlib.contextmanager
def served_app(port=None, timeout=60.0, root=ROOT, env=None):
    """The app of the checkout at `root` on a free loopback port, started fresh as its README starts it; yields
    (url, process). `env` adds to the server's environment.

    The server runs from `root` with its own .streamlit/config.toml, so an older checkout (without serve/launch.py,
    which warms the process up before it listens) is served as it was, by `streamlit run app.py`.
    """
    port = port or free_port()
    root = Path(root)
    if (root / "serve" / "launch.py").exists():
        command = [sys.executable, "-m", "serve.launch"]
    else:
        command = [sys.executable, "-m", "streamlit", "run", str(root / "app.py")]
    process = subprocess.Popen(
        [*command, "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **SERVER_ENV, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        # Streamlit prints its address once it listens; the output is read to its end, so the server never blocks
        # on a full pipe.
        listening = threading.Event()
        threading.Thread(target=_watch_output, args=(process, listening), daemon=True).start()
        if not listening.wait(timeout) or process.poll() is not None:
            raise RuntimeError(f"streamlit did not start on {url} within {timeout:.0f} s")
        urllib.request.urlopen(url + "/_stcore/health", timeout=timeout)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


SBIN_PATH = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"  # where Debian keeps nginx


@contextlib.contextmanager
def served_behind_nginx(processes):
    """serve/serve.sh with `processes` app processes behind nginx on a free port; yields (url, run folder with
    nginx's access log, the serve.sh process)."""
    port = free_port()
    server = subprocess.Popen(["bash", "serve/serve.sh", str(processes), str(port)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "PATH": SBIN_PATH}, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        # "Serving on ... (logs in RUN_DIR)": serve.sh says it once every app process answers its health check and
        # nginx is up, so the first request through nginx is served.
        line = server.stdout.readline()
        match = re.search(r"logs in (\S+)\)", line)
        if not match:
            raise RuntimeError(line + server.stdout.read(2000))
        urllib.request.urlopen(url + "/_stcore/health", timeout=30)
        yield url, Path(match[1]), server
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


# ---------------------------------------------------------------- uploads, as a browser's upload box sends them


async def upload_files(base_url, files, page="", timeout=120.0):
    """Open a session on `page` and PUT each (name, bytes) of `files` to Streamlit's upload endpoint for it, as the
    upload box does (multipart, with the XSRF cookie and header); returns the HTTP status of each PUT. The session
    stays open until every PUT has answered (files belong to a live session)."""
    parts = urllib.parse.urlsplit(base_url)
    ws_url = f"ws://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream"
    xsrf = _xsrf_token()
    cookies = [f"_streamlit_xsrf={xsrf}"]
    request = BackMsg()
    request.rerun_script.page_name = page
    request.rerun_script.context_info.url = f"{base_url.rstrip('/')}/{page}"
    statuses = []
    async with websockets.connect(ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                                  ping_interval=None, additional_headers={"Cookie": "; ".join(cookies)}) as socket:
        await socket.send(request.SerializeToString())
        session_id = None
        async with asyncio.timeout(timeout):
            async for data in socket:
                message = ForwardMsg()
                message.ParseFromString(data)
                if message.HasField("new_session"):
                    session_id = message.new_session.initialize.session_id
                    break
        for index, (name, content) in enumerate(files):
            statuses.append(await asyncio.to_thread(_put_file, base_url, session_id, f"file{index}", name, content,
                                                    cookies, xsrf, timeout))
    return statuses


def _put_file(base_url, session_id, file_id, name, content, cookies, xsrf, timeout):
    boundary = f"----visitor{os.getpid()}{file_id}"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": "; ".join(cookies)}
    if xsrf:
        headers["X-Xsrftoken"] = xsrf
    put = urllib.request.Request(f"{base_url.rstrip('/')}/_stcore/upload_file/{session_id}/{file_id}", data=body,
                                 headers=headers, method="PUT")
    try:
        with urllib.request.urlopen(put, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except urllib.error.URLError:  # the server closed the connection before the whole body was sent
        return None
