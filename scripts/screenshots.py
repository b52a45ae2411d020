"""The README's pictures, taken from the running app: `.venv/bin/python scripts/screenshots.py` remakes them all.

The app is served as the tests serve it (serve.launch on a free loopback port) and opened in Debian's Chromium
through Playwright, which cannot download a browser of its own here. Views are deep links and the animation's
frames are the figure's own, stepped one by one, so a rerun changes a picture only when the app's look changes.
"""

import io

from PIL import Image
from playwright.sync_api import sync_playwright

from support.browser import CHART, CHROMIUM, CHROMIUM_ARGS
from support.paths import ROOT
from support.visitor import served_app

IMAGES = ROOT / "docs" / "img"
VIEWPORT = {"width": 1400, "height": 900}
LOAD_TIMEOUT = 60_000
# The seed's DEPTH_COLUMN_ROW example with input element 13 picked: the picture shows where it goes.
PICTURE = ("depth_space.png", "/depth_space?ds_pick=13")
PLAY = ("depth_space_play.gif", "/depth_space")
# DxDispatch's GEMM and 2-D convolution (our mirrors) run on DirectML in the workbench, at a laptop's window size.
ON_DIRECTML = {"workbench_directml_gemm.png": "gemm", "workbench_directml_convolution.png": "convolution_2d"}
ON_DIRECTML_VIEWPORT = {"width": 1920, "height": 1080}
# The app's default frame duration; the last frame, the whole output, stays up longer before the loop restarts.
FRAME_MS, LAST_FRAME_MS = 600, 1800

# Only when the figure's bottom is below the window: once the page's controls take less room, the shot keeps the
# page's top.
BRING_INTO_VIEW = """(chart) => {
    if (chart.getBoundingClientRect().bottom > window.innerHeight) {
        chart.style.scrollMarginBottom = "16px";
        chart.scrollIntoView({block: "end"});
    }
}"""

# What a click on the figure's slider does for each frame that Play plays, waited for instead of timed; the slider's
# handle would otherwise still be gliding to its new place when the frame is taken.
SHOW_FRAME = """async (chart, index) => {
    await window.Plotly.relayout(chart, {"sliders[0].transition.duration": 0});
    const play = chart.layout.updatemenus[0].buttons.find(button => button.label === "Play");
    const name = play.args[0][index];
    const step = chart.layout.sliders[0].steps.find(step => step.args[0][0] === name);
    await window.Plotly.animate(chart, [name], step.args[1]);
    return play.args[0].length;
}"""


def open_view(page, url):
    """Open `url` and wait until the script has finished and its first figure is drawn with the page's fonts."""
    page.goto(url)
    page.wait_for_selector(f"{CHART} .main-svg", timeout=LOAD_TIMEOUT)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
                           timeout=LOAD_TIMEOUT)
    page.evaluate("() => document.fonts.ready")
    return page.locator(CHART).first


def save_png(image, path):
    image.save(path, optimize=True)
    return path


def picture(page, url):
    name, view = PICTURE
    chart = open_view(page, url + view)
    chart.evaluate(BRING_INTO_VIEW)
    path = IMAGES / name
    page.screenshot(path=path, animations="disabled")
    return save_png(Image.open(path), path)


def play_animation(page, url):
    """Every frame Play shows, of the figure alone, as a looping GIF with one palette for all frames, so that a color
    does not shift from one frame to the next."""
    name, view = PLAY
    chart = open_view(page, url + view)
    chart.scroll_into_view_if_needed()
    frames, count = [], 1
    while len(frames) < count:
        count = chart.evaluate(SHOW_FRAME, len(frames))
        frames.append(Image.open(io.BytesIO(chart.screenshot(animations="disabled"))).convert("RGB"))
    width, height = frames[0].size
    every_frame = Image.new("RGB", (width, height * len(frames)))
    for index, frame in enumerate(frames):
        every_frame.paste(frame, (0, height * index))
    palette = every_frame.quantize(colors=255)
    frames = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    path = IMAGES / name
    frames[0].save(path, save_all=True, append_images=frames[1:], loop=0, optimize=True,
                   duration=[FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS])
    return path


def workbench_on_directml(browser, url):
    """The workbench's Run tab of each ON_DIRECTML model: who answers its dispatch, what it printed, its inputs, its
    output before and after, and the comparison with its ONNX twin: a 1920 x 1080 window at 2/3 of a pixel per CSS
    pixel (the browser's 67% zoom), so the picture is 1280 x 720."""
    page = browser.new_page(viewport=ON_DIRECTML_VIEWPORT, device_scale_factor=2 / 3)
    paths = []
    for name, model in ON_DIRECTML.items():
        open_view(page, f"{url}/workbench?wb_source=DxDispatch%27s+models&wb_dxdispatch_model={model}&wb_tab=Run")
        page.get_by_text("ONNX twin").first.wait_for(timeout=LOAD_TIMEOUT)
        page.get_by_role("heading", name="Who answers each dispatch").evaluate(
            "(heading) => heading.scrollIntoView({block: 'start'})")
        page.evaluate("() => document.fonts.ready")
        path = IMAGES / name
        page.screenshot(path=path, animations="disabled")
        paths.append(save_png(Image.open(path), path))
    page.close()
    return paths


def main():
    IMAGES.mkdir(parents=True, exist_ok=True)
    with served_app() as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            for path in (picture(page, url), play_animation(page, url), *workbench_on_directml(browser, url)):
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
