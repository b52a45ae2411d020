"""Issue 24, point 4, and issue 31, point 5: uploaded files are held by bytes and count, per session and for the
server, which is shared fairly between sessions.

The manager is driven directly with a clock of the test's; tests/load/test_hostile_load.py PUTs files to a served app.
"""

import threading

import pytest
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from serve import uploads
from serve.uploads import BoundedUploads, MiB


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def rec(file_id, size):
    return UploadedFileRec(file_id=file_id, name=f"{file_id}.onnx", type="application/octet-stream",
                           data=bytes(size))


@pytest.fixture
def manager():
    return BoundedUploads("/_stcore/upload_file", clock=Clock())


def test_a_session_keeps_a_bounded_number_of_files_its_least_recently_read_going_first(manager):
    manager.add_file("s", rec("kept", 1))
    for i in range(120):  # the attack: 120 files from one live session
        manager._clock.now += 1
        manager.get_files("s", ["kept"])  # the page reads its own file at every run
        manager.add_file("s", rec(f"spam{i}", 1))
    files, _ = manager.held("s")
    assert files == uploads.SESSION_FILES
    assert [r.file_id for r in manager.get_files("s", ["kept"])] == ["kept"]


def test_a_session_keeps_a_bounded_number_of_bytes(manager):
    for i in range(30):
        manager.add_file("s", rec(f"f{i}", 16 * MiB))
    assert manager.held("s")[1] <= uploads.SESSION_BYTES
    assert manager.held() == manager.held("s")


def test_a_file_past_the_servers_total_makes_room_in_the_other_sessions(manager, monkeypatch):
    monkeypatch.setattr(uploads, "TOTAL_BYTES", 3 * 16 * MiB)
    for session in "abc":
        manager._clock.now += 1
        manager.add_file(session, rec("model", 16 * MiB))
    manager._clock.now += 1
    manager.get_files("a", ["model"])  # a's page read its file: b's was read longest ago
    manager.add_file("d", rec("model", 16 * MiB))
    assert manager.held() == (3, 48 * MiB)
    assert manager.held("b") == (0, 0) and manager.held("a") == (1, 16 * MiB)


def test_a_file_is_refused_only_when_the_server_holds_nothing_of_other_sessions(manager, monkeypatch):
    monkeypatch.setattr(uploads, "TOTAL_BYTES", 16 * MiB)
    monkeypatch.setattr(uploads, "SESSION_BYTES", 40 * MiB)
    manager.add_file("a", rec("model", 16 * MiB))
    with pytest.raises(Exception) as refused:
        manager.add_file("a", rec("other", MiB))
    assert getattr(refused.value, "status_code", None) == 413
    assert "the server holds 16 MB of uploads (at most 16 MB)" in str(refused.value.detail)


def test_sessions_of_one_visitor_filling_the_server_make_room_for_another(manager):
    # Issue 31: 13-14 sessions of 40 MB filled the 512 MB and every other visitor's upload was answered 413.
    for k in range(14):
        for i in range(3):
            manager.add_file(f"attacker{k}", rec(f"spam{i}", 13 * MiB))
    assert manager.held()[1] <= uploads.TOTAL_BYTES
    for student in ("alice", "bob", "carol", "dan", "eve"):
        manager._clock.now += 1
        manager.add_file(student, rec("model", 16 * MiB))  # no 413: the largest holders make room
        manager.get_files(student, ["model"])
    assert all(manager.held(student) == (1, 16 * MiB) for student in ("alice", "bob", "carol", "dan", "eve"))
    assert manager.held()[1] <= uploads.TOTAL_BYTES and manager.made_room >= 5


def test_the_session_holding_the_most_makes_the_room(manager, monkeypatch):
    monkeypatch.setattr(uploads, "TOTAL_BYTES", 64 * MiB)
    manager.add_file("small", rec("model", 8 * MiB))
    manager._clock.now += 1
    manager.add_file("large", rec("a", 20 * MiB))
    manager.add_file("large", rec("b", 20 * MiB))
    manager._clock.now += 1
    manager.add_file("new", rec("model", 20 * MiB))
    assert manager.held("small") == (1, 8 * MiB)  # read longest ago, but it holds the least: untouched
    assert manager.held("large") == (1, 20 * MiB)  # its least recently read file went


def test_files_no_page_read_for_a_while_are_dropped(manager):
    manager.add_file("old", rec("model", MiB))
    manager._clock.now += uploads.STALE_SECONDS + 1
    manager.add_file("new", rec("model", MiB))
    assert manager.held("old") == (0, 0) and manager.held("new") == (1, MiB)


def test_a_file_sent_again_replaces_itself(manager):
    manager.add_file("s", rec("same", MiB))
    manager.add_file("s", rec("same", 2 * MiB))
    assert manager.held("s") == (1, 2 * MiB) and manager.held() == (1, 2 * MiB)


def test_sessions_adding_at_once_stay_within_the_bounds(manager):
    def spam(session):
        for i in range(50):
            manager.add_file(session, rec(f"f{i}", MiB))

    threads = [threading.Thread(target=spam, args=(f"s{k}",)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(manager.held(f"s{k}")[0] == uploads.SESSION_FILES for k in range(8))
    assert manager.held() == (8 * uploads.SESSION_FILES, 8 * uploads.SESSION_FILES * MiB)


def test_install_makes_streamlits_server_build_the_bounded_manager(monkeypatch):
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager
    from streamlit.web.server import server

    monkeypatch.setattr(server, "MemoryUploadedFileManager", server.MemoryUploadedFileManager)
    monkeypatch.setattr(WebsocketSessionManager, "disconnect_session", WebsocketSessionManager.disconnect_session)
    streamlits = WebsocketSessionManager.disconnect_session
    uploads.install()
    made = server.MemoryUploadedFileManager("/_stcore/upload_file")
    assert isinstance(made, BoundedUploads)
    assert WebsocketSessionManager.disconnect_session is not streamlits  # the server's manager drops a closed tab's


def test_a_closed_tab_s_uploads_go_with_it(manager):
    """Streamlit keeps a closed tab's session (and its files) for a reconnect and frees it only when its storage is
    next touched: the disconnect drops the files at once, the session manager's own disconnect still runs."""
    manager.add_file("closed", rec("model", 15 * MiB))
    manager.add_file("open", rec("model", 15 * MiB))
    disconnected = []
    disconnect = uploads.dropping_uploads(lambda session_manager, session_id: disconnected.append(session_id),
                                          lambda: manager)
    disconnect(object(), "closed")
    assert disconnected == ["closed"]
    assert manager.held("closed") == (0, 0) and manager.held("open") == (1, 15 * MiB)
