"""Fixtures shared by the tests: a live app server, a Chromium page, DirectML's status. Helpers live in the
support package (support/), which the benchmarks and scripts import too."""

import os

import pytest
from hypothesis import settings

from support.browser import CHROMIUM, CHROMIUM_ARGS
from support.paths import SCREENSHOTS

settings.register_profile("project", max_examples=60, deadline=None)
settings.load_profile("project")


@pytest.fixture(scope="session")
def app_url():
    """The app served as the README serves it (serve.launch) on a free loopback port, for as long as the test
    session lasts."""
    from support.visitor import served_app

    with served_app() as (url, _):
        yield url


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} missing: apt-get install chromium"
        # CI installs Chromium, so there a missing browser is a failure, not a reason to skip.
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    """A fresh browser page that records JavaScript errors in page.js_errors."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.js_errors = []
    tab.on("pageerror", lambda error: tab.js_errors.append(str(error)))
    yield tab
    context.close()


@pytest.fixture(scope="session")
def screenshot_dir():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def directml():
    """DirectML's status; the test is skipped where it is not set up, except in CI, which must run it."""
    from ops import directml_status

    status = directml_status()
    if not status.available:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run DirectML: {status.reason}")
        pytest.skip(status.reason)
    return status


@pytest.fixture
def no_worker(monkeypatch):
    """DirectML as this build reports itself (feature level 6_2), with a worker that must never be called: for
    models that must be refused before DirectML is asked."""
    from ops.runtime import directml as dml

    status = dml.DirectMLStatus(True, "a stand-in", max_feature_level="6_2")
    monkeypatch.setattr(dml, "directml_status", lambda: status)

    class Untouchable:
        def __getattr__(self, name):
            raise AssertionError(f"the worker was asked ({name}) for a model that should be refused before")

    monkeypatch.setattr(dml, "_worker", lambda: Untouchable())
    return status
