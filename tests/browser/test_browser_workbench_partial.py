"""The workbench's partial mode in Chromium: a model mixing JOIN with CONVOLUTION, ONNX and a file-backed buffer."""


import pytest

from support.browser import CHART
from support.paths import ROOT

pytestmark = pytest.mark.browser


MODEL = ROOT / "examples" / "partial" / "join_convolution_onnx.json"
TIMEOUT = 60_000


def test_partial_mode_status_run_and_memory_map(page, app_url, screenshot_dir, tmp_path):
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.goto(app_url)
    page.get_by_role("link", name="Descriptor workbench").click()
    page.get_by_text("Model source").wait_for(timeout=TIMEOUT)
    page.get_by_text("Upload a file").click()
    model_file = tmp_path / "mixed.json"
    model_file.write_text(MODEL.read_text())
    page.locator("input[type=file]").set_input_files(str(model_file))
    page.get_by_text("mixed.json has parts this project does not model (weights, conv, classifier)").wait_for(
        timeout=TIMEOUT)
    page.locator("[data-testid=stDataFrame]").first.wait_for(timeout=TIMEOUT)
    link = page.get_by_role("link", name="DML_CONVOLUTION_OPERATOR_DESC")
    assert link.get_attribute("href").endswith("ns-directml-dml_convolution_operator_desc")
    page.screenshot(path=screenshot_dir / "workbench_partial_status.png", full_page=True)

    page.get_by_role("tab", name="Run (partial)").click()
    page.get_by_text("Resource 'joined': 1, 2, 3, 4, 5, 6").wait_for(timeout=TIMEOUT)
    strip = page.locator(CHART).filter(has_text="Commands in order")
    strip.wait_for(timeout=TIMEOUT)
    assert strip.locator(".legendtext").all_text_contents() == [
        "ran", "could not run: the run stops here", "not run: after the stop", "skipped: changes no buffer"]
    page.get_by_text("Cross-check on").first.wait_for(timeout=TIMEOUT)
    page.screenshot(path=screenshot_dir / "workbench_partial_run.png", full_page=True)

    page.get_by_role("tab", name="Tensor descriptors").click()
    panel = page.get_by_role("tabpanel", name="Tensor descriptors")
    panel.locator(CHART).filter(
        has_text="dispatchables.join.desc.InputTensors[0]: 8 bytes").wait_for(timeout=TIMEOUT)
    page.screenshot(path=screenshot_dir / "workbench_partial_memory_map.png", full_page=True)
    assert page.js_errors == []
