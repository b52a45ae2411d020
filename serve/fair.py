"""Background work taken in turns between visitors, light work first, each visitor's queue bounded.

The pages' cross-checks run beside them, on two threads (ui.shared.in_background). In one queue, first come first
served, eight visitors opening Depth <-> Space links of distinct widths queued a verdict each per view: the class's
verdicts waited behind theirs (0.6 s before, 8.6-59 s with them, and a backlog for 25 s after). Here:

- each owner (a visitor's session) has its own queue, and the threads take the owners in turns (round robin), so a
  visitor's job waits for at most one job of each other visitor;
- light jobs (estimated at most `light` seconds: every default view's) go first, and at most `heavy_slots` heavy
  ones run at once, so a thread always stays with the light ones;
- an owner keeps at most `per_owner` jobs queued: a newer one pushes out its oldest (a visitor who moved on does not
  need the verdict of a view left behind; a job other owners also wait for stays queued for them);
- a key asked for while queued or running is one job for every owner asking (`on_done` callbacks all run).
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable, Hashable
from typing import Any

_LOG = logging.getLogger(__name__)


class _Job:
    __slots__ = ("key", "function", "args", "seconds", "owners", "running", "done")

    def __init__(self, key: Hashable, function: Callable[..., Any], args: tuple[Any, ...], seconds: float,
                 owner: Hashable) -> None:
        self.key, self.function, self.args, self.seconds = key, function, args, seconds
        self.owners = {owner}
        self.running = False
        self.done = threading.Event()


class FairQueue:
    def __init__(self, workers: int = 2, per_owner: int = 2, light: float = 0.5, heavy_slots: int = 1,
                 name: str = "fair-queue") -> None:
        self.per_owner, self.light, self.heavy_slots = per_owner, light, heavy_slots
        self._jobs: dict[Hashable, _Job] = {}  # key -> _Job, queued or running
        # owner -> deque of its queued jobs, in turn order
        self._queues: collections.OrderedDict[Hashable, collections.deque[_Job]] = collections.OrderedDict()
        self._heavy_running = 0
        self._changed = threading.Condition()
        self.dropped = self.ran = 0
        for number in range(workers):
            threading.Thread(target=self._work, name=f"{name}-{number}", daemon=True).start()

    def submit(self, owner: Hashable, key: Hashable, seconds: float, function: Callable[..., Any], *args: Any) -> None:
        """Run function(*args) once for `key` (estimated at `seconds` of CPU) in `owner`'s turn; nothing if that key
        is queued or running already (its owner is added)."""
        with self._changed:
            job = self._jobs.get(key)
            if job is not None:
                if owner not in job.owners and not job.running:
                    job.owners.add(owner)
                    self._queue(owner).append(job)
                    self._bound(owner)
                return
            job = self._jobs[key] = _Job(key, function, args, seconds, owner)
            self._queue(owner).append(job)
            self._bound(owner)
            self._changed.notify()

    def _queue(self, owner: Hashable) -> collections.deque[_Job]:
        if owner not in self._queues:
            self._queues[owner] = collections.deque()
        return self._queues[owner]

    def _bound(self, owner: Hashable) -> None:
        queue = self._queues[owner]
        while len(queue) > self.per_owner:
            job = queue.popleft()
            job.owners.discard(owner)
            if not job.owners and not job.running:
                del self._jobs[job.key]
                job.done.set()
                self.dropped += 1

    def _next(self) -> _Job | None:
        """The next job in turn: an owner's first light job, else (a heavy slot free) its first heavy one."""
        for heavy in (False, True):
            if heavy and self._heavy_running >= self.heavy_slots:
                return None
            for owner in list(self._queues):
                queue = self._queues[owner]
                job = next((j for j in queue if (j.seconds > self.light) == heavy), None)
                if job is None:
                    continue
                self._queues.move_to_end(owner)  # its turn is taken
                for other in job.owners:
                    self._queues[other].remove(job)
                    if not self._queues[other]:
                        del self._queues[other]
                return job
        return None

    def _work(self) -> None:
        while True:
            with self._changed:
                job = self._next()
                while job is None:
                    self._changed.wait()
                    job = self._next()
                job.running = True
                heavy = job.seconds > self.light
                self._heavy_running += heavy
            try:
                job.function(*job.args)
            except Exception:  # a job reports its own outcome (the cache); a failure is logged, the queue goes on
                _LOG.exception("background job %r failed", job.key)
            finally:
                with self._changed:
                    self._heavy_running -= heavy
                    self._jobs.pop(job.key, None)
                    self.ran += 1
                    job.done.set()
                    self._changed.notify_all()

    def pending(self) -> list[threading.Event]:
        """The events of every job queued or running (each set when its job ends or is dropped)."""
        with self._changed:
            return [job.done for job in self._jobs.values()]

    def stats(self) -> dict[str, int]:
        with self._changed:
            return dict(queued=sum(len(q) for q in self._queues.values()), running=sum(j.running for j in
                                                                                       self._jobs.values()),
                        owners=len(self._queues), ran=self.ran, dropped=self.dropped)
