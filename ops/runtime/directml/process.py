"""The app's side of the DirectML worker: start it, talk to it, and start another when it dies, stalls or grows.

Native code never runs in the app's process. One worker serves the whole server (sessions take turns through a
lock; its compiled operators are shared). Every call is bounded in time: waiting for the lock (a caller that cannot
have it within LOCK_SECONDS is told DirectML is busy), writing the request (a worker that stopped reading fills the
pipe) and reading the answer. A worker that misses a deadline is killed, and the next call starts a fresh one. So is
a worker whose memory has reached MEMORY_LIMIT (it reports its resident size with every answer), before it can grow
past it. The worker's stderr (vkd3d-proton's, Mesa's and DirectML's messages) is kept to its last lines, for the
reason given when it dies.
"""

import collections
import os
import pathlib
import re
import select
import subprocess
import sys
import threading
import time

from . import wire

REPO = pathlib.Path(__file__).resolve().parents[3]
WORKER = pathlib.Path(__file__).with_name("worker.py")
START_SECONDS = 60
LOCK_SECONDS = 10
STDERR_LINES = 40
# The worker's resident memory (VmRSS, lavapipe's shared-memory descriptor sets included) stays under this: it is
# replaced once an answer reports it at or above MEMORY_LIMIT minus the most any one call has added since it
# started (docs/directml.md, "Memory").
MEMORY_LIMIT = int(os.environ.get("DML_VISUALIZER_DIRECTML_MEMORY_MB", "1024")) << 20
# What a run adds to the worker's peak resident memory per byte of its tensors (inputs and outputs): the buffers read
# from the pipe, and in D3D12 an upload and a default buffer per tensor and a read-back buffer per output. Measured
# 3.5 (VmHWM over 16 MB and 64 MB FLOAT32 identities in a fresh worker); 4 leaves the allocators a margin.
CALL_BYTES_PER_TENSOR_BYTE = 4


class WorkerFailed(Exception):
    """The worker could not answer: it would not start, died, or ran out of time. The message says which;
    `transient` when the failure says nothing of the call (a deadline passed: another call or the machine held the
    worker), so that asking again later may be answered."""

    def __init__(self, message, transient=False):
        super().__init__(message)
        self.transient = transient


class WorkerBusy(WorkerFailed):
    """Another call held the worker for longer than a caller waits."""

    def __init__(self, message):
        super().__init__(message, transient=True)


class WorkerTooSmall(WorkerFailed):
    """The call's tensors would take even a fresh worker past its memory limit."""


def install_dir():
    """Where scripts/setup_directml.sh put DirectML, vkd3d-proton, lavapipe and the bridge."""
    return pathlib.Path(os.environ.get("DML_VISUALIZER_DIRECTML", REPO / ".directml"))


def missing_pieces(root):
    needed = ["ready", "lib/libdirectml.so", "lib/libd3d12.so", "lib/libdxcore.so", "lib/libdmlrun.so",
              "lib/libvkd3d-proton-d3d12.so", "lib/libvkd3d-proton-d3d12core.so", "lvp_icd.json"]
    return [n for n in needed if not (root / n).exists()]


def worker_environment(root, base):
    """The worker's environment: `base` without loader or Python settings, and what finds lavapipe and sets logs."""
    env = {k: v for k, v in base.items() if not k.startswith(("LD_", "PYTHON", "VK_", "VKD3D_", "MESA_"))}
    # The built libraries, and lavapipe's own (the unpacked Mesa 25 libgallium and libdrm, ahead of Debian 12's).
    env["LD_LIBRARY_PATH"] = f"{root / 'lib'}:{root / 'mesa/usr/lib/x86_64-linux-gnu'}"
    # Only the unpacked lavapipe, and no implicit layer a system Mesa may have installed (its device-select layer).
    env["VK_ICD_FILENAMES"] = str(root / "lvp_icd.json")
    env["VK_LOADER_LAYERS_DISABLE"] = "~implicit~"
    # No shader cache on disk: vkd3d-proton would write vkd3d-proton.cache into the working directory (README,
    # "Shader cache"), Mesa into $HOME/.cache. A compile costs about 0.1 s here, so there is little to save.
    env["VKD3D_SHADER_CACHE_PATH"] = "0"
    env["MESA_SHADER_CACHE_DISABLE"] = "true"
    # vkd3d-proton's messages at warn and above, its shader compiler's at err (README, "Environment variables";
    # the compiler's warnings are a dozen lines of DXBC container notes per shader): the worker passes the err lines
    # of each call on as its diagnostics; the rest stays in the stderr tail.
    env["VKD3D_DEBUG"] = "warn"
    env["VKD3D_SHADER_DEBUG"] = "err"
    # Mesa's window-system code asks for a runtime directory even when nothing is drawn.
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    return env


class Worker:
    def __init__(self, root, memory_limit=MEMORY_LIMIT):
        self.root = pathlib.Path(root)
        self.memory_limit = memory_limit
        self.lock = threading.Lock()
        self.process = None
        self.hello = None
        self.stderr_tail = collections.deque(maxlen=STDERR_LINES)
        self.starts = 0
        self.replaced_for_memory = 0
        self.peak_rss = 0  # the largest resident size any answer reported, over every worker started
        self._largest_step = 0  # the most one call has added to this worker's resident size
        self._rss = 0  # this worker's resident size at its last answer
        self._fresh_rss = 0  # a worker's resident size when it has just started (its hello's)

    def _start(self, deadline):
        self.stderr_tail.clear()
        self.process = subprocess.Popen([sys.executable, str(WORKER), str(self.root / "lib")], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=worker_environment(self.root, os.environ), cwd=str(REPO))
        os.set_blocking(self.process.stdin.fileno(), False)
        threading.Thread(target=self._drain_stderr, args=(self.process,), daemon=True).start()
        self.starts += 1
        self._largest_step = 0
        self.hello, _ = self._receive(min(deadline, time.monotonic() + START_SECONDS))
        self._rss = self._fresh_rss = self.hello.get("rss", 0)

    def _drain_stderr(self, process):
        for line in process.stderr:
            self.stderr_tail.append(line.decode(errors="replace").rstrip())

    def _kill(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def _died(self, what, transient=False):
        code = self.process.poll() if self.process is not None else None
        self._kill()
        tail = [line for line in self.stderr_tail if not re.search(r"^[0-9a-f]+:(fixme|info|warn):", line)][-3:]
        detail = f" (exit status {code})" if code is not None else ""
        raise WorkerFailed(f"the DirectML worker {what}{detail}" + (": " + " | ".join(tail) if tail else ""),
                           transient)

    def _send(self, parts, deadline):
        """Write every part before `deadline`: the pipe is non-blocking, so a worker that stopped reading cannot
        hold the caller past it."""
        for part in parts:
            self._send_part(memoryview(part).cast("B"), deadline)

    def _send_part(self, view, deadline):
        fd = self.process.stdin.fileno()
        while view:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                self._died("did not take the request in time and was stopped", transient=True)
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                self._died("ended")

    def _receive(self, deadline):
        fd = self.process.stdout.fileno()
        pending = bytearray()

        def fill(n):
            while len(pending) < n:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    self._died("did not answer in time and was stopped", transient=True)
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    self._died("ended")
                pending.extend(chunk)

        def read_line(limit):
            while b"\n" not in pending:
                if len(pending) > limit:
                    self._died("sent a malformed message")
                fill(len(pending) + 1)
            end = pending.index(b"\n") + 1
            line = bytes(pending[:end])
            del pending[:end]
            return line

        def read_exactly(n):
            fill(n)
            data = bytes(pending[:n])
            del pending[:n]
            return data

        return wire.read_message(read_line, read_exactly)

    def _acquire(self, deadline):
        if not self.lock.acquire(timeout=max(0.0, min(LOCK_SECONDS, deadline - time.monotonic()))):
            raise WorkerBusy("DirectML is busy with other calls; try again")

    def _ready(self, deadline):
        if self.process is None or self.process.poll() is not None:
            self._start(deadline)
        if self.hello.get("hr"):
            raise WorkerFailed(f"DirectML did not start: {self.hello.get('stage')} returned "
                               f"0x{self.hello['hr']:08X}")

    def _watch_memory(self, answer):
        """Replace the worker before its next call could take it past the memory limit."""
        rss = answer.get("rss", 0)
        self._largest_step = max(self._largest_step, rss - self._rss)
        self._rss = rss
        self.peak_rss = max(self.peak_rss, rss)
        if rss + self._largest_step >= self.memory_limit:
            self.replaced_for_memory += 1
            self._kill()

    def call(self, request, buffers, seconds):
        """The worker's (answer, buffers) for one request, within `seconds`; WorkerBusy, WorkerTooSmall or
        WorkerFailed otherwise."""
        deadline = time.monotonic() + seconds
        need = CALL_BYTES_PER_TENSOR_BYTE * sum(memoryview(b).nbytes for b in buffers)
        self._acquire(deadline)
        try:
            if self._fresh_rss + need >= self.memory_limit:  # not even a fresh worker has the room
                raise WorkerTooSmall(f"this call's tensors need about {need >> 20} MB in the DirectML worker beside "
                                     f"its {self._fresh_rss >> 20} MB, past its {self.memory_limit >> 20} MB limit")
            if self.process is not None and self._rss + need >= self.memory_limit:
                self.replaced_for_memory += 1  # a fresh worker has the room
                self._kill()
            self._ready(deadline)
            self._send(wire.message_parts(request, buffers), deadline)
            answer, results = self._receive(deadline)
            self._watch_memory(answer)
            return answer, results
        finally:
            self.lock.release()

    def describe(self, seconds=START_SECONDS):
        """The worker's hello (device, versions, DirectML's feature level and types), starting it if needed. Every
        worker says the same, so once one has started, its hello is answered without waiting for the lock."""
        if self.hello is not None:
            return dict(self.hello)
        deadline = time.monotonic() + seconds
        self._acquire(deadline)
        try:
            self._ready(deadline)
            return dict(self.hello)
        except WorkerFailed:
            if self.hello is not None and self.hello.get("hr"):
                return dict(self.hello)
            raise
        finally:
            self.lock.release()
