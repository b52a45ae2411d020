"""What the load tests share: the pages a class opens, a memory sampler and the failures of a run of visits."""

import threading

from .visitor import memory_of

GiB = 1 << 30
PAGES = [("", ""), ("depth_space", ""), ("bitwise_or", ""), ("split_join", ""), ("layouts", ""), ("converter", ""),
         ("detective", ""), ("onnx_model", ""), ("workbench", "")]


class PeakMemory:
    """Samples a process's resident memory every 50 ms while in the with block."""

    def __init__(self, pid):
        self.pid, self.peak = pid, 0
        self._stop = threading.Event()

    def _sample(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, memory_of(self.pid)[0])
            self._stop.wait(0.05)  # the sampling interval, cut short when the block ends

    def __enter__(self):
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def failures(visits):
    return [(v.page, v.query, v.exceptions, v.failure) for v in visits if not v.ok]
