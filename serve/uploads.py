"""Uploaded files held by bytes and count, per session and for the whole server.

Streamlit keeps every file PUT to its upload endpoint (/_stcore/upload_file/<session>/<file>) in memory until the
session ends (streamlit/runtime/memory_uploaded_file_manager.py), and any live session may PUT as many files as it
likes: 120 files of 16 MiB added 1.9 GB in 6 s, and the work budget never saw them. `BoundedUploads` is the same
manager with three rules, checked as each file arrives:

- a session keeps at most SESSION_FILES files and SESSION_BYTES bytes: its least recently read files make room
  (they are its own; a page reading a dropped file sees no file and asks for one again);
- a file no page has read for STALE_SECONDS is dropped (a tab left open with an old upload);
- the server keeps at most TOTAL_BYTES of uploads, shared fairly: a file that would pass it makes room in the other
  sessions, taking from the one holding the most first (its least recently read file; among equal holders, the file
  read longest ago). Thirteen sessions of one visitor filling the allowance used to lock every other visitor out of
  uploads (HTTP 413) until they ended; now their files are the ones that go, and a page whose file went asks for
  it again.

`install()` makes Streamlit's server build this manager (serve.launch calls it before the server starts).
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

MiB = 1 << 20
SESSION_FILES = 8
SESSION_BYTES = 40 * MiB  # two files at the largest page cap (16 MB), and room for small ones
# With the shared cache (192 MiB) and DirectML's worker (about 650 MB), what an idle server holds stays under the
# serving target of 1.5 GB (docs/serving.md): at 320 MiB (and a 256 MiB cache) a clean-clone run's server stood at
# 1,603 MB idle after issue 31's attacks once the page folders and the gather, slice and catalogue pages had joined
# (70 MB more code). Below 272 MiB, fourteen sessions of one visitor holding 13 MB files leave five students' 16 MB
# models evicting each other (the largest holder goes first: tests/app/test_hostile_uploads.py).
TOTAL_BYTES = 272 * MiB
STALE_SECONDS = 30 * 60


class UploadRefused(Exception):
    """The server holds TOTAL_BYTES of uploads already, none of it another session's."""


class BoundedUploads(MemoryUploadedFileManager):
    def __init__(self, upload_endpoint: str, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(upload_endpoint)
        self._clock = clock
        self._read: dict[tuple[str, str], float] = {}  # (session, file id) -> when a page last read it (or it arrived)
        self._bounds = threading.Lock()  # held around the base class's own lock, never inside it
        self.made_room = 0  # files dropped from the largest holders to make room for another session's

    def add_file(self, session_id: str, file: Any) -> None:
        with self._bounds:
            now = self._clock()
            self._drop_stale(now)
            self.remove_file(session_id, file.file_id)  # a file sent again replaces itself
            kept = sorted(self.file_storage.get(session_id, {}).values(),
                          key=lambda rec: self._read.get((session_id, rec.file_id), 0))
            count, held = len(kept), sum(len(rec.data) for rec in kept)
            for old in kept:
                if count < SESSION_FILES and held + len(file.data) <= SESSION_BYTES:
                    break
                self.remove_file(session_id, old.file_id)
                count, held = count - 1, held - len(old.data)
            self._make_room(session_id, len(file.data))
            super().add_file(session_id, file)
            self._read[(session_id, file.file_id)] = now

    def _make_room(self, session_id: str, size: int) -> None:
        """Drop other sessions' files until `size` more bytes fit in TOTAL_BYTES: the least recently read file of
        the session holding the most (of those holding the most, the file read longest ago)."""
        while self._total_bytes + size > TOTAL_BYTES:
            with self._lock:  # a snapshot: sessions end (remove_session_files) on other threads
                held = [(session, rec) for session, files in self.file_storage.items() if session != session_id
                        for rec in files.values()]
            holding: collections.Counter[str] = collections.Counter()
            for session, rec in held:
                holding[session] += len(rec.data)
            if not held:
                raise _refusal(f"the server holds {self._total_bytes / MiB:,.0f} MB of uploads (at most "
                               f"{TOTAL_BYTES / MiB:,.0f} MB); try again in a few minutes")
            session, rec = max(held, key=lambda item: (holding[item[0]], -self._read.get((item[0], item[1].file_id),
                                                                                          0)))
            self.remove_file(session, rec.file_id)
            self.made_room += 1

    def get_files(self, session_id: str, file_ids: Sequence[str]) -> list[Any]:
        files = super().get_files(session_id, file_ids)
        now = self._clock()
        for rec in files:
            self._read[(session_id, rec.file_id)] = now
        return files

    def remove_file(self, session_id: str, file_id: str) -> None:
        super().remove_file(session_id, file_id)
        self._read.pop((session_id, file_id), None)

    def remove_session_files(self, session_id: str) -> None:
        files = list(self.file_storage.get(session_id, {}))
        super().remove_session_files(session_id)
        for file_id in files:
            self._read.pop((session_id, file_id), None)

    def _drop_stale(self, now):
        for (session_id, file_id), read in list(self._read.items()):
            if now - read > STALE_SECONDS:
                self.remove_file(session_id, file_id)

    def held(self, session_id: str | None = None) -> tuple[int, int]:
        """(files, bytes) kept for one session, or for the whole server."""
        with self._lock:
            if session_id is None:
                return self._file_count, self._total_bytes
            files = self.file_storage.get(session_id, {})
            return len(files), sum(len(rec.data) for rec in files.values())


def _refusal(detail):
    """What the upload route answers: an HTTP 413 with the reason (the route lets Starlette's HTTPException through
    as its response); UploadRefused where Starlette is not there."""
    try:
        from starlette.exceptions import HTTPException
    except ImportError:
        return UploadRefused(detail)
    return HTTPException(status_code=413, detail=detail)


def dropping_uploads(disconnect: Callable[[Any, str], None],
                     holder: Callable[[], MemoryUploadedFileManager | None]) -> Callable[[Any, str], None]:
    """A session manager's disconnect_session that also drops the session's uploads (those of `holder()`, the
    server's manager). Streamlit keeps a closed tab's session two minutes for a reconnect and shuts it down, freeing
    its files, only when its session storage is next touched (a cachetools TTLCache expires lazily): after a class
    and fourteen sessions of uploads, an idle server held its 272 MiB of uploads or not depending on which came last
    (654 or 885 MB resident). A tab that does reconnect finds its file gone and its page asks for it again, as when
    another session's upload made room."""

    def disconnect_session(manager: Any, session_id: str) -> None:
        disconnect(manager, session_id)
        uploads = holder()
        if uploads is not None:
            uploads.remove_session_files(session_id)

    return disconnect_session


_SERVERS_UPLOADS: list[BoundedUploads] = []  # the one the server made (install())


def install() -> None:
    """Have Streamlit's server (streamlit/web/server/server.py, Server.__init__) hold uploads in BoundedUploads, and
    drop a session's uploads when its tab closes (websocket_session_manager.py, disconnect_session)."""
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager
    from streamlit.web.server import server

    def made_by_the_server(upload_endpoint: str) -> BoundedUploads:
        _SERVERS_UPLOADS[:] = [BoundedUploads(upload_endpoint)]
        return _SERVERS_UPLOADS[0]

    server.MemoryUploadedFileManager = made_by_the_server  # type: ignore[misc,assignment]  # what Server.__init__ calls
    WebsocketSessionManager.disconnect_session = dropping_uploads(  # type: ignore[method-assign,assignment]
        WebsocketSessionManager.disconnect_session, lambda: _SERVERS_UPLOADS[0] if _SERVERS_UPLOADS else None)
