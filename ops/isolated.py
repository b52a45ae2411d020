"""Third-party parsers fed untrusted bytes, run in a child process that cannot hurt the caller's.

A 2 KB .onnx file whose shape inference propagates the values of a Shape -> Concat fan (fan^3 elements) grew a
server to 1.1 GB, one of 3.8 KB to 7.6 GB: no count of the file's fields sees that coming. Such parsing runs here in
a child process with three limits, each named when it is passed:

- memory: RLIMIT_AS, the child's address space beyond what it starts with (an allocation past it fails: MemoryError,
  or std::bad_alloc in native code, and the child ends);
- CPU time: RLIMIT_CPU (the kernel sends SIGXCPU, on which the child answers that it passed the limit);
- a wall-clock deadline, after which the caller kills the child: a machine too busy to give it its CPU time, a
  transient refusal (`Exceeded.transient`) that callers should not keep as the answer.

Children are forked from a fork server: a small process (`ops.isolated.serve`) started once, which has imported
what the children run (PRELOAD), so that a child costs a fork (a few ms), not an interpreter start and onnx's import.
Each task gets a private socket pair, one end handed to the fork server (SCM_RIGHTS) and on to the child it forks;
nothing else can reach them. The caller only reads the child's answer, JSON of at most `max_answer` bytes; the
child's memory goes back to the system whole when it ends. Linux only (/proc, socket.send_fds).
"""

import importlib
import json
import os
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

from .errors import DescriptorError

# The modules whose functions children may run; the fork server imports them once.
PRELOAD = ("ops.frameworks.onnx_isolated",)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # where `ops` is imported from
START_SECONDS = 60
_HEADER = struct.Struct("!Q")


class Exceeded(DescriptorError):
    """The child passed one of its limits: `limit` is "memory", "cpu" or "wall"; a wall-clock refusal is
    `transient` (the machine was busy), the others are the input's own."""

    def __init__(self, message, limit):
        super().__init__(message)
        self.limit = limit
        self.transient = limit == "wall"


# ---------------------------------------------------------------- the caller's side


class _ForkServer:
    def __init__(self):
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        command = f"from ops.isolated import serve; serve({theirs.fileno()})"
        self.process = subprocess.Popen([sys.executable, "-c", command], pass_fds=[theirs.fileno()],
                                        stdin=subprocess.PIPE, cwd=ROOT)
        theirs.close()
        self.control.settimeout(START_SECONDS)
        if self.control.recv(1) != b"r":  # ready: its imports are done
            raise OSError("the fork server did not start")
        self.control.settimeout(None)
        self.lock = threading.Lock()

    def alive(self):
        return self.process.poll() is None

    def hand(self, connection):
        with self.lock:
            socket.send_fds(self.control, [b"t"], [connection.fileno()])


_server = None
_server_lock = threading.Lock()


def _fork_server():
    global _server
    with _server_lock:
        if _server is None or not _server.alive():
            _server = _ForkServer()
        return _server


def start():
    """Start the fork server now (about a second: an interpreter importing onnx), so that the first child does not
    wait for it."""
    _fork_server()


def _receive_all(connection, deadline, limit):
    chunks, size = [], 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([connection], [], [], left)[0]:
            return None  # the deadline passed
        chunk = connection.recv(1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return b"".join(chunks)


def run_limited(function, data, memory, cpu_seconds, wall_seconds, what, max_answer=16 << 20):
    """function(data) (a function of a PRELOAD module, given by its name: "module:function"; data: bytes), run in a
    child process within the limits, and its answer (JSON data). DescriptorError with the child's own refusal;
    Exceeded naming the limit passed, beginning with `what` ("model: checking it")."""
    module, _, name = function.partition(":")
    if module not in PRELOAD:
        raise ValueError(f"{function}: only functions of {', '.join(PRELOAD)} run in a limited child")
    header = json.dumps({"module": module, "function": name, "memory": int(memory), "cpu": int(cpu_seconds),
                         "max_answer": int(max_answer)}).encode()
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    deadline = time.monotonic() + wall_seconds
    try:
        _fork_server().hand(theirs)
        theirs.close()
        mine.settimeout(wall_seconds)
        pid = _HEADER.unpack(_read_exactly(mine, _HEADER.size))[0]  # the child says who it is first
        try:
            mine.sendall(_HEADER.pack(len(header)) + header + _HEADER.pack(len(data)) + data)
            mine.shutdown(socket.SHUT_WR)
            answer = _receive_all(mine, deadline, max_answer + 64)
        except TimeoutError:
            answer = None
        except OSError:  # the child ended while reading the request
            answer = b""
        if answer is None:
            _kill(pid)
            raise Exceeded(f"{what} took longer than {wall_seconds:,.0f} s (the server is busy; try again in a "
                           "moment)", "wall")
    except (OSError, EOFError) as error:
        raise Exceeded(f"{what} could not start: the process doing it did not answer ({error}); try again in a "
                       "moment", "wall") from None
    finally:
        mine.close()
        theirs.close()
    return _outcome(answer, what, memory, cpu_seconds, max_answer, time.monotonic() - deadline + wall_seconds)


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:  # it ended meanwhile
        pass


def _outcome(answer, what, memory, cpu_seconds, max_answer, elapsed):
    if len(answer) > max_answer:
        raise Exceeded(f"{what} gives an answer of more than {max_answer:,} bytes, the most it may give here", "memory")
    try:
        reply = json.loads(answer) if answer else {}
    except ValueError:  # cut off: the child ended while answering
        reply = {}
    if not reply:
        # The child ended without a word. Native code that runs on without returning to the interpreter is stopped by
        # the CPU limit's hard end (SIGKILL), which no handler sees: then it lived at least its CPU seconds. Else
        # it aborted on an allocation it was refused (std::bad_alloc where nothing catches it) or crashed on one it
        # did not check.
        reply = {"limit": "cpu" if elapsed >= cpu_seconds else "memory"}
    if "value" in reply:
        return reply["value"]
    if "refused" in reply:
        raise DescriptorError(reply["refused"])
    if reply.get("limit") == "cpu":
        raise Exceeded(f"{what} needs more than the {cpu_seconds:,} s of CPU time it may use here", "cpu")
    raise Exceeded(f"{what} needs more than the {memory >> 20:,} MB of memory it may use here", "memory")


# ---------------------------------------------------------------- the fork server and its children


def _read_exactly(connection, count):
    chunks = []
    while count:
        chunk = connection.recv(min(count, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def status_bytes(field):
    """A size in this process's /proc/self/status (VmSize, VmRSS, VmHWM, ...), in bytes; 0 when absent."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) << 10
    return 0


def _task(connection):
    """In a forked child: read one request, run it within its limits, answer, end."""
    def answer(reply):
        connection.sendall(json.dumps(reply).encode())
        os._exit(0)

    connection.sendall(_HEADER.pack(os.getpid()))
    request = json.loads(_read_exactly(connection, _HEADER.unpack(_read_exactly(connection, _HEADER.size))[0]))
    data = _read_exactly(connection, _HEADER.unpack(_read_exactly(connection, _HEADER.size))[0])
    # The allowance starts from what the child holds when forked (the fork server's imports) and the request.
    limit = status_bytes("VmSize") + request["memory"]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGXCPU, lambda *_: answer({"limit": "cpu"}))
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(used.ru_utime + used.ru_stime) + request["cpu"]
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))  # past the soft limit, SIGXCPU; past the hard, SIGKILL
    function = getattr(sys.modules[request["module"]], request["function"])
    try:
        reply = {"value": function(data)}
    except MemoryError:
        reply = {"limit": "memory"}
    except DescriptorError as error:
        reply = {"refused": str(error)}
    text = json.dumps(reply).encode()
    if len(text) > request["max_answer"]:
        text = json.dumps({"limit": "memory"}).encode()
    connection.sendall(text)


def serve(control_fd):
    """The fork server: import PRELOAD, say ready, then fork a child for each socket the caller hands over. It ends
    when the caller closes its stdin (the caller ended) or the control socket."""
    for module in PRELOAD:
        importlib.import_module(module)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    control = socket.socket(fileno=control_fd)
    control.sendall(b"r")
    while True:
        ready = select.select([control, sys.stdin], [], [])[0]
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1):
            return
        if control not in ready:
            continue
        message, fds, _, _ = socket.recv_fds(control, 1, 1)
        if not message:
            return
        for fd in fds:
            if os.fork() == 0:
                control.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                connection = socket.socket(fileno=fd)
                try:
                    _task(connection)
                finally:
                    os._exit(0)
            os.close(fd)

