"""The layout detective and the ONNX model page in Chromium: the examples drawn and named, a mix-up's permutation
and diff, an uploaded output, the link into the operator page, and an ONNX node cross-checked."""

import numpy as np
import pytest
from playwright.sync_api import expect

import ops
from ops.operators.depth_space import depth_to_space
from support.browser import CHART, click_until, click_until_address_has, open_group, wait_until_settled

pytestmark = pytest.mark.browser

TIMEOUT = 60_000


def settle(page):
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=TIMEOUT)
    wait_until_settled(page)


def clean(page):
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not page.js_errors, page.js_errors


def scroll_to(page, text):
    page.get_by_text(text, exact=True).first.evaluate("e => e.scrollIntoView({block: 'start'})")


def test_detective_names_examples_and_uploads_and_opens_the_operator_page(page, app_url, screenshot_dir, tmp_path):
    page.goto(f"{app_url}/detective")
    page.get_by_text("y is x through DEPTH_TO_SPACE1 with BlockSize 2 and Order COLUMN_ROW_DEPTH (CRD).").wait_for(
        timeout=TIMEOUT)
    settle(page)
    chart = page.locator(CHART).last
    chart.wait_for(timeout=TIMEOUT)
    chart.scroll_into_view_if_needed()
    # Hover the output's second cell of row 0: a CRD output takes it from channel 1 of the input.
    cell = page.evaluate("""() => {
        const gd = [...document.querySelectorAll('.js-plotly-plot')].pop();
        const t = gd._fullData.find(d => d.type === 'scatter');  // typed arrays decoded
        const i = t.text.indexOf('y[0, 0, 0, 1] came from x[0, 1, 0, 0], flat 6');
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
        return {i, x: box.left + xa._offset + xa.l2p(t.x[i]), y: box.top + ya._offset + ya.l2p(t.y[i])};
    }""")
    assert cell["i"] >= 0
    page.mouse.move(cell["x"], cell["y"])
    page.locator(".hoverlayer .hovertext").filter(has_text="came from x[0, 1, 0, 0]").wait_for(timeout=TIMEOUT)
    clean(page)
    scroll_to(page, "What the detective found")
    page.screenshot(path=screenshot_dir / "detective_pixel_shuffle_crd.png")

    open_group(page, "Examples")
    click_until_address_has(page, page.get_by_role("button", name="A DCR/CRD mix-up"), "dt_example=mixed_up")
    page.get_by_text("The channel permutation").wait_for(timeout=TIMEOUT)
    settle(page)
    clean(page)
    assert page.get_by_text("permute_conv_output_channels").count() >= 1
    scroll_to(page, "What the detective found")
    page.screenshot(path=screenshot_dir / "detective_mixed_up_permutation.png")

    # The user's own output: a PixelShuffle result saved as float64.
    x = ops.origin_coded_input((1, 8, 2, 3))
    output = tmp_path / "output.npy"
    np.save(output, depth_to_space(x, 2, "CRD").astype(np.float64))
    open_group(page, "Input & output")
    def click_upload():
        open_group(page, "Input & output")
        wait_until_settled(page)
        page.get_by_text("upload .npy files").click()

    click_until(click_upload, lambda timeout: page.locator("input[type=file]").wait_for(state="attached",
                                                                                         timeout=timeout))
    page.locator("input[type=file]").set_input_files(str(output))
    page.get_by_text("compared by value", exact=False).first.wait_for(timeout=TIMEOUT)
    assert page.get_by_text("Order COLUMN_ROW_DEPTH (CRD).", exact=False).count() == 1
    settle(page)
    clean(page)
    page.get_by_role("link", name="Open in its operator page").first.click()
    page.wait_for_function("() => location.pathname.endsWith('/depth_space')", timeout=TIMEOUT)
    settle(page)
    clean(page)
    # The page writes back only what differs from its defaults (C=8, BlockSize 2, ... are its defaults).
    assert "Order=COLUMN_ROW_DEPTH" in page.url and "dtype=FLOAT32" in page.url
    # A widget shows the value the server gave it a moment after it appears: expect() waits for that.
    open_group(page, "Shape")
    expect(page.get_by_role("spinbutton", name="C", exact=True)).to_have_value("8")
    open_group(page, "Order")
    expect(page.get_by_role("radio", name="COLUMN_ROW_DEPTH")).to_be_checked()


def test_a_second_upload_replaces_the_first_and_new_input_sizes_drop_it(page, app_url, screenshot_dir, tmp_path):
    x = ops.origin_coded_input((1, 8, 2, 3))
    dcr, crd = tmp_path / "dcr.npy", tmp_path / "crd.npy"
    np.save(dcr, depth_to_space(x, 2, "DCR"))
    np.save(crd, depth_to_space(x, 2, "CRD"))
    page.goto(f"{app_url}/detective?dt_source=upload")
    page.get_by_text("Upload or paste your operator's output").wait_for(timeout=TIMEOUT)
    settle(page)
    uploader = page.locator("input[type=file]")
    uploader.set_input_files(str(dcr))
    page.get_by_text("Order DEPTH_COLUMN_ROW (DCR).", exact=False).first.wait_for(timeout=TIMEOUT)
    uploader.set_input_files(str(crd))  # a second file, without asking for several: it replaces the first
    page.get_by_text("Order COLUMN_ROW_DEPTH (CRD).", exact=False).first.wait_for(timeout=TIMEOUT)
    settle(page)
    assert page.get_by_text("repeats some of", exact=False).count() == 0
    expect(page.locator('[data-testid="stFileUploader"] [data-testid="stFileChip"]')).to_have_count(1)
    page.screenshot(path=screenshot_dir / "detective_upload_replaced.png")
    box = open_group(page, "Input & output").get_by_label("Input sizes", exact=True)
    box.fill("1,4,2,3")
    box.press("Enter")
    page.get_by_text("Upload or paste your operator's output").wait_for(timeout=TIMEOUT)  # the old file is gone
    expect(page.locator('[data-testid="stFileUploader"] [data-testid="stFileChip"]')).to_have_count(0)
    clean(page)


def test_onnx_page_lists_the_example_and_cross_checks_a_node(page, app_url, screenshot_dir):
    page.goto(f"{app_url}/onnx_model")
    page.get_by_text("/up/pixel_shuffle/DepthToSpace").first.wait_for(timeout=TIMEOUT)
    settle(page)
    clean(page)
    page.locator('[data-testid="stDataFrame"]').wait_for(timeout=TIMEOUT)
    assert page.get_by_text("microsoft/onnxscript#2891", exact=False).count() >= 1
    page.screenshot(path=screenshot_dir / "onnx_model_upscaler.png")
    page.screenshot(path=screenshot_dir / "onnx_model_upscaler_full.png", full_page=True)
    page.get_by_role("button", name="Cross-check this node on ONNX Runtime").nth(3).click()
    page.get_by_text("byte-identical", exact=False).first.wait_for(timeout=TIMEOUT)
    page.wait_for_function("() => location.search.includes('onx_check=6')", timeout=TIMEOUT)
    settle(page)
    clean(page)
