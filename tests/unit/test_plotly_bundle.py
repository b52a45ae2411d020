"""The figures' plotly.js: the pinned cartesian bundle where the set-up fetched it, checked by hash, else the full
one."""

import io
import tarfile

from serve import plotly_bundle


def tarball(script):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        info = tarfile.TarInfo(plotly_bundle.MEMBER)
        info.size = len(script)
        archive.addfile(info, io.BytesIO(script))
    return data.getvalue()


def serve_tarball(monkeypatch, data):
    monkeypatch.setattr(plotly_bundle.urllib.request, "urlopen", lambda url, timeout: io.BytesIO(data))


def test_a_tarball_without_the_pinned_hash_is_not_used(monkeypatch, tmp_path):
    monkeypatch.setattr(plotly_bundle, "BUNDLE", tmp_path / "bundle.min.js")
    serve_tarball(monkeypatch, tarball(b"window.Plotly = 'not plotly';"))
    assert "does not have the pinned sha256" in plotly_bundle.fetch()
    assert not (tmp_path / "bundle.min.js").exists()
    assert plotly_bundle.served_plotly_js() == plotly_bundle.FULL


def test_the_pinned_tarball_is_unpacked_and_served(monkeypatch, tmp_path):
    data = tarball(b"window.Plotly = {};")
    monkeypatch.setattr(plotly_bundle, "BUNDLE", tmp_path / "bundle.min.js")
    monkeypatch.setattr(plotly_bundle, "SHA256", plotly_bundle.hashlib.sha256(data).hexdigest())
    serve_tarball(monkeypatch, data)
    assert "checked" in plotly_bundle.fetch()
    assert (tmp_path / "bundle.min.js").read_bytes() == b"window.Plotly = {};"
    assert plotly_bundle.served_plotly_js() == tmp_path / "bundle.min.js"
    assert "already there" in plotly_bundle.fetch()


def test_without_network_the_full_plotly_js_is_served(monkeypatch, tmp_path):
    monkeypatch.setattr(plotly_bundle, "BUNDLE", tmp_path / "bundle.min.js")

    def offline(url, timeout):
        raise OSError("no network")

    monkeypatch.setattr(plotly_bundle.urllib.request, "urlopen", offline)
    assert "serving the full plotly.js" in plotly_bundle.fetch()
    assert plotly_bundle.served_plotly_js() == plotly_bundle.FULL


def test_a_plotly_py_of_another_plotly_js_version_serves_its_own_full_copy(monkeypatch, tmp_path):
    # Figures are written for the plotly.js plotly.py ships: a bundle of another version is never served.
    (tmp_path / "bundle.min.js").write_bytes(b"window.Plotly = {};")
    monkeypatch.setattr(plotly_bundle, "BUNDLE", tmp_path / "bundle.min.js")
    monkeypatch.setattr(plotly_bundle, "get_plotlyjs_version", lambda: "9.9.9")
    assert plotly_bundle.served_plotly_js() == plotly_bundle.FULL
    assert "serving the full copy" in plotly_bundle.fetch()
