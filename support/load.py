"""What the load tests and benchmarks share: the pages a class opens, a memory and CPU sampler, percentiles and the
failures of a run of visits."""

import threading
import time

from .visitor import cpu_seconds, memory_of, process_tree

GiB = 1 << 30
PAGES = [("", ""), ("depth_space", ""), ("bitwise_or", ""), ("split_join", ""), ("layouts", ""), ("converter", ""),
         ("detective", ""), ("onnx_model", ""), ("workbench", "")]


class PeakMemory:
    """Samples every 50 ms while in the with block: the peak resident memory of a process (`peak`, its DirectML worker
    included) and of its DirectML worker alone (`worker`), and the last moment the process used CPU (`last_busy`: when
    its background cross-checks ended)."""

    def __init__(self, pid):
        self.pid, self.peak, self.worker, self.last_busy = pid, 0, 0, time.perf_counter()
        self._stop = threading.Event()
        self._cpu = cpu_seconds(pid)

    def _sample(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, memory_of(self.pid)[0])
            self.worker = max(self.worker, sum(memory_of(p)[0] for p in worker_pids(self.pid)))
            cpu = cpu_seconds(self.pid)
            if cpu - self._cpu > 0.01:  # more than a tick of CPU in 50 ms: still working
                self.last_busy = time.perf_counter()
            self._cpu = cpu
            self._stop.wait(0.05)  # the sampling interval, cut short when the block ends

    def __enter__(self):
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def worker_pids(server_pid):
    """The DirectML worker among the server's descendants (its command line names the worker module)."""
    pids = []
    for pid in process_tree(server_pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"directml" in cmdline.read():
                    pids.append(pid)
        except OSError:
            continue
    return pids


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def failures(visits):
    return [(v.page, v.query, v.exceptions, v.failure) for v in visits if not v.ok]


def wait_until_idle(pid, quiet=2.0, timeout=180.0):
    """Until the process (and its children) used no more than a tick of CPU for `quiet` seconds, or `timeout` passed:
    the background work of a run (cross-checks, collections) is over. Returns the seconds waited."""
    start = last_busy = time.perf_counter()
    cpu = cpu_seconds(pid)
    while time.perf_counter() - last_busy < quiet and time.perf_counter() - start < timeout:
        time.sleep(0.2)
        now = cpu_seconds(pid)
        if now - cpu > 0.02:
            last_busy = time.perf_counter()
        cpu = now
    return time.perf_counter() - start
