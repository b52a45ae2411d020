"""The app's side of the DirectML worker: start it, talk to it, and start another when it dies or stalls.

Native code never runs in the app's process. One worker serves the whole server (sessions take turns through a
lock; its compiled operators are shared). A call that does not answer within its time limit kills the worker; the
next call starts a fresh one. The worker's stderr (vkd3d's and DirectML's messages) is kept to its last lines, for
the reason given when it dies.
"""

import collections
import os
import pathlib
import select
import subprocess
import sys
import threading
import time

from . import wire

REPO = pathlib.Path(__file__).resolve().parents[3]
WORKER = pathlib.Path(__file__).with_name("worker.py")
START_SECONDS = 60
STDERR_LINES = 40


class WorkerFailed(Exception):
    """The worker could not answer: it would not start, died, or ran out of time. The message says which."""


def install_dir():
    """Where scripts/setup_directml.sh put DirectML, the bridge and the worker's glibc."""
    return pathlib.Path(os.environ.get("DML_VISUALIZER_DIRECTML", REPO / ".directml"))


def missing_pieces(root):
    needed = ["ready", "lib/libdirectml.so", "lib/libd3d12.so", "lib/libdxcore.so", "lib/libdmlrun.so",
              "lib/libvkd3d-proton-d3d12core.so", "lvp_icd.json"]
    return [n for n in needed if not (root / n).exists()]


class Worker:
    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.lock = threading.Lock()
        self.process = None
        self.hello = None
        self.stderr_tail = collections.deque(maxlen=STDERR_LINES)
        self.starts = 0

    def _command(self):
        return [sys.executable, str(WORKER), str(self.root / "lib")]

    def _start(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LD_", "PYTHON"))}
        # Mesa's window-system code asks for a runtime directory even when nothing is drawn.
        env.setdefault("XDG_RUNTIME_DIR", "/tmp")
        env["LD_LIBRARY_PATH"] = f"{self.root / 'lib'}:{self.root / 'mesa/usr/lib/x86_64-linux-gnu'}"
        env["VK_ICD_FILENAMES"] = str(self.root / "lvp_icd.json")
        env["VK_LOADER_LAYERS_DISABLE"] = "~implicit~"
        env["VKD3D_SHADER_CACHE_PATH"] = "0"
        env["MESA_SHADER_CACHE_DISABLE"] = "true"
        env.setdefault("VKD3D_DEBUG", "warn")
        env.setdefault("VKD3D_SHADER_DEBUG", "warn")
        self.stderr_tail.clear()
        self.process = subprocess.Popen(self._command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env, cwd=str(REPO))
        threading.Thread(target=self._drain_stderr, args=(self.process,), daemon=True).start()
        self.starts += 1
        self.hello, _ = self._receive(START_SECONDS)

    def _drain_stderr(self, process):
        for line in process.stderr:
            self.stderr_tail.append(line.decode(errors="replace").rstrip())

    def _kill(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def _died(self, what):
        code = self.process.poll() if self.process is not None else None
        self._kill()
        tail = [line for line in self.stderr_tail if "fixme" not in line][-3:]
        detail = f" (exit status {code})" if code is not None else ""
        raise WorkerFailed(f"the DirectML worker {what}{detail}" + (": " + " | ".join(tail) if tail else ""))

    def _receive(self, seconds):
        deadline = time.monotonic() + seconds
        fd = self.process.stdout.fileno()
        pending = bytearray()

        def fill(n):
            while len(pending) < n:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    self._died(f"did not answer within {seconds:g} s and was stopped")
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

    def call(self, request, buffers, seconds):
        """The worker's (answer, buffers) for one request; WorkerFailed if it cannot give them."""
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self._start()
            if self.hello.get("hr"):
                raise WorkerFailed(f"DirectML did not start: {self.hello.get('stage')} returned "
                                   f"0x{self.hello['hr']:08X}")
            try:
                wire.write_message(self.process.stdin, request, buffers)
            except (BrokenPipeError, OSError):
                self._died("ended")
            return self._receive(seconds)

    def describe(self):
        """The worker's hello (device, vkd3d version, DirectML's feature level and types), starting it if needed."""
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self._start()
            return dict(self.hello)
