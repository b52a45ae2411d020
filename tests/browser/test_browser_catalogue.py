"""The Operator catalogue in Chromium: open it from the sidebar, find an operator, run its example on DirectML in one
click, and see DirectML's output drawn and compared with its ONNX twin."""

import pytest

from support.browser import CHART, LOAD_TIMEOUT, assert_clean, wait_until_settled

pytestmark = [pytest.mark.browser, pytest.mark.directml]


def test_one_click_runs_an_operator_on_directml(page, app_url, directml, screenshot_dir):
    page.set_viewport_size({"width": 1400, "height": 1600})
    page.goto(app_url)
    page.get_by_role("link", name="Operator catalogue").click()
    page.get_by_text("174 of 174 operators.").wait_for(timeout=LOAD_TIMEOUT)
    search = page.get_by_label("Search an operator, a field or a tensor")
    search.fill("CONVOLUTION")
    search.press("Enter")
    page.get_by_text("3 of 174 operators.").wait_for(timeout=LOAD_TIMEOUT)
    page.wait_for_function("() => location.href.includes('cat_q=CONVOLUTION')", timeout=LOAD_TIMEOUT)
    page.get_by_role("heading", name="DML_OPERATOR_CONVOLUTION").wait_for(timeout=LOAD_TIMEOUT)
    assert page.locator(CHART).count() == 0  # nothing runs before the click

    page.get_by_role("button", name="Run on DirectML").click()
    page.get_by_text("ONNX twin Conv on ONNX Runtime: agrees").wait_for(timeout=LOAD_TIMEOUT)
    page.get_by_text("Ran on DirectML in its worker process").wait_for(timeout=LOAD_TIMEOUT)
    after = page.locator(CHART).filter(has_text="OutputTensor [1, 2, 2, 3] in OutputTensor: after")
    after.wait_for(timeout=LOAD_TIMEOUT)
    wait_until_settled(page)
    page.screenshot(path=screenshot_dir / "catalogue_one_click.png", full_page=True)
    assert_clean(page)
