"""The workbench in Chromium: upload a model file, read the report, hover the memory map, download the export."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ops import load_model
from support.browser import CHART
from support.paths import ROOT

pytestmark = pytest.mark.browser

# The CRD example reads its input through padded strides: the memory map shows the padding.
MODEL = ROOT / "examples" / "depth_to_space1_crd.json"
TIMEOUT = 60_000


def open_workbench(page, app_url):
    # Arrive as a user does: the app's front page, then the sidebar link.
    page.goto(app_url)
    page.get_by_role("link", name="Descriptor workbench").click()
    page.get_by_text("Model source").wait_for(timeout=TIMEOUT)
    assert page.get_by_text("Feature level").count() >= 1  # the shared sidebar is there
    page.get_by_text("Upload a file").click()
    return page.locator("input[type=file]")


def tab(page, name):
    """Open the tab `name`; its content is on the page already (Streamlit draws every tab's), shown once selected."""
    tab = page.get_by_role("tab", name=name)
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")


def test_upload_report_memory_map_and_download(page, app_url, screenshot_dir, tmp_path):
    page.set_viewport_size({"width": 1400, "height": 2000})
    uploader = open_workbench(page, app_url)
    model_file = tmp_path / "crd_model.json"
    model_file.write_text(MODEL.read_text())
    uploader.set_input_files(str(model_file))
    page.get_by_text("crd_model.json: 2 resources, 1 dispatchables, 2 commands").wait_for(timeout=TIMEOUT)

    # SPEC 2: DEPTH_TO_SPACE1 arrives at feature level 2_1
    page.get_by_text("valid from feature level 2_1").wait_for(timeout=TIMEOUT)
    table = page.locator("[data-testid=stDataFrame]").first  # the report's; the Run tab holds who answers
    table.wait_for(timeout=TIMEOUT)
    page.screenshot(path=screenshot_dir / "workbench_report.png", full_page=True)

    tab(page, "Run")
    page.get_by_text("Cross-check on").first.wait_for(timeout=TIMEOUT)
    assert page.get_by_text("Resource 'output': 0, 9, 1, 10, 2, 11").count() == 1
    page.screenshot(path=screenshot_dir / "workbench_run.png", full_page=True)

    tab(page, "Tensor descriptors")
    chart = page.locator(CHART).filter(has_text="InputTensor: 276 bytes")
    chart.wait_for(timeout=TIMEOUT)
    chart.scroll_into_view_if_needed()
    legend = chart.locator(".legendtext").all_text_contents()
    assert legend == ["never touched: padding", "read once"]
    cell = chart.locator(".nsewdrag").first.bounding_box()
    # top-left cell: element 0, read by logical index [0, 0, 0, 0]
    page.mouse.move(cell["x"] + 5, cell["y"] + 5)
    hover = chart.locator(".hovertext")
    hover.first.wait_for(timeout=TIMEOUT)
    assert "read by 1: [0, 0, 0, 0]" in hover.first.text_content()
    page.screenshot(path=screenshot_dir / "workbench_memory_map.png", full_page=True)

    tab(page, "Export")
    with page.expect_download(timeout=TIMEOUT) as info:
        page.get_by_role("button", name="Download the normalized model (JSON)").click()
    download = info.value
    assert download.suggested_filename == "crd_model.normalized.json"
    exported = json.loads(Path(download.path()).read_text())
    assert exported == load_model(MODEL.read_text())
    page.screenshot(path=screenshot_dir / "workbench_export.png", full_page=True)
    assert page.js_errors == []


def test_oversized_and_broken_files_get_messages(page, app_url, screenshot_dir, tmp_path):
    uploader = open_workbench(page, app_url)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (1024 * 1024 + 1))
    uploader.set_input_files(str(big))
    page.get_by_text("File must be 1.0MB or smaller").wait_for(timeout=TIMEOUT)
    broken = tmp_path / "broken.json"
    broken.write_text('{"resources": {}, "dispatchables": {}, "commands": [\n  {"type": "print", "resource": "x"}\n]}')
    uploader.set_input_files(str(broken))
    page.get_by_text("commands[0].resource: resource 'x' is not defined in resources").wait_for(timeout=TIMEOUT)
    page.screenshot(path=screenshot_dir / "workbench_broken_upload.png", full_page=True)
    assert page.js_errors == []


def test_a_link_to_a_built_descriptor_restores_it(page, app_url, screenshot_dir):
    """A teacher's link: a broadcast descriptor built on the page, opened straight from the address bar."""
    page.set_viewport_size({"width": 1400, "height": 2000})
    page.goto(app_url + "/workbench?wb_desc=build+one+here&wb_dtype=FLOAT16&wb_sizes=2,3&wb_strides=0,1")
    page.get_by_text("Model source").wait_for(timeout=TIMEOUT)
    tab(page, "Tensor descriptors")
    page.get_by_text("(2-1)*0 + (3-1)*1 = 2").first.wait_for(timeout=TIMEOUT)
    assert page.get_by_text("= round_up(bytes, 4) = 8").count() >= 1  # 3 FLOAT16 elements = 6 bytes -> 8
    # Strides [0, 1]: both rows read the same 3 elements, so each is read twice.
    chart = page.locator(CHART).filter(has_text="read many times: broadcast")
    chart.wait_for(timeout=TIMEOUT)
    page.screenshot(path=screenshot_dir / "workbench_deep_link.png", full_page=True)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.js_errors == []
