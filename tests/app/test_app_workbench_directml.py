"""The workbench's DirectML mode where DirectML cannot be trusted with the work, in AppTest: without DirectML a model
of operators the core does not model opens in partial mode saying why, and a hostile model (support/attacks.py) is
refused by name before DirectML's worker is asked, with a worker here that fails the test if it is. The runs on
DirectML itself are in tests/directml/test_directml_workbench.py."""

import pytest

from app_pages.workbench import directml
from ops.runtime import directml as dml
from support import attacks
from support.app import run_through_app, shown
from ui import sidebar


def paste(text):
    at = run_through_app("workbench", query={"wb_tab": "Run", "wb_source": "Paste JSON"})
    at.text_area(key="wb_text").input(text).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def texts(at):
    return [shown(m.value) for kind in (at.error, at.warning, at.info, at.success) for m in kind]


def test_without_directml_the_model_opens_in_partial_mode_saying_why(monkeypatch):
    unavailable = dml.DirectMLStatus(False, "libdirectml.so is not set up here (test)")
    monkeypatch.setattr(directml, "directml_status", lambda: unavailable)
    at = run_through_app("workbench", query={"wb_source": "DxDispatch's models", "wb_dxdispatch_model": "gemm"})
    assert not at.exception
    assert any("DirectML cannot run here (libdirectml.so is not set up here (test)), so the core runs what it "
               "models" in t for t in texts(at))
    assert any("open in partial mode" in t for t in texts(at))


# Broadcast tensors of 4096 x 4096 and 1024 x 256 x 256 elements: the workbench keeps every dispatch's tensors for
# display, and refuses them as too many bytes before DirectML's work budget is reached.
EARLIER = (attacks.gemm_bomb, attacks.convolution_bomb)


@pytest.fixture
def no_worker_in_the_app(no_worker, monkeypatch):
    """tests/conftest.py's stand-in, also where the app's modules hold ops.directml_status by name."""
    for module in (directml, sidebar):
        monkeypatch.setattr(module, "directml_status", lambda: no_worker)
    monkeypatch.setattr(sidebar, "_directml_found", [])


@pytest.mark.parametrize("make", list(attacks.REFUSALS), ids=list(attacks.HOSTILE_MODELS))
def test_a_hostile_model_is_refused_by_name_before_the_worker(no_worker_in_the_app, make):
    at = paste(make())
    page = "\n".join(texts(at))
    # the refusal names the field and the rule, as ops.run_model(..., runtime="directml") does
    if make in EARLIER:
        # the run's memory for display, counted from the descs, is refused before DirectML's work budget is asked
        assert "is refused before any work" in page and "the run would hold about" in page, page[:2000]
    else:
        assert attacks.REFUSALS[make] in page, page[:2000]
