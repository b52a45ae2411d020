"""Explain why and Predict, then reveal in Chromium, driven by the keyboard alone (Tab, Space, arrows, Enter).

Each operator page's quiz is answered right, then wrong, and the score counts both; step-by-step mode is stepped
and played with the keyboard. The right answers come from ops.quiz_questions for the same settings and seed, so
the test knows which choice to pick without reading the page's answer.
"""

import re

import pytest
from playwright.sync_api import expect

from ops import Call, QuizSettings, quiz_questions
from support.browser import wait_until_settled

pytestmark = pytest.mark.browser

QUIZZES = {
    "depth_space": QuizSettings(Call.of("DEPTH_TO_SPACE1", [(1, 8, 2, 3)], block_size=2, order="DEPTH_COLUMN_ROW")),
    "bitwise_or": None,  # the page's A and B come from its pattern: the test reads the prompt instead
    "split_join": QuizSettings(Call.of("SPLIT", [(1, 1, 6, 2)], axis=2, sizes=(2, 1, 3))),
}
FOCUSED = "() => { const e = document.activeElement; return e ? (e.getAttribute('aria-label') || e.innerText || " \
          "e.value || e.tagName) : ''; }"


def tab_to(page, matches, limit=150):
    """Press Tab until the focused element's accessible text matches; fails when it never does."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if matches(page.evaluate(FOCUSED) or ""):
            return
    raise AssertionError("Tab never reached the element")


ANSWERS = '[role="radiogroup"][aria-label="Your answer"]'


def focused_radio(page):
    return page.evaluate(f"""() => {{ const e = document.activeElement;
        return !!e && e.type === 'radio' && !!e.closest('{ANSWERS}'); }}""")


def tab_to_first_choice(page):
    for _ in range(150):
        page.keyboard.press("Tab")
        if focused_radio(page):
            return
    raise AssertionError("Tab never reached the answer choices")


def answer_by_keyboard(page, choice):
    """Select choice number `choice` of the open question and press Check, keys only."""
    tab_to_first_choice(page)
    page.keyboard.press("Space")  # the first choice
    for _ in range(choice):
        page.keyboard.press("ArrowDown")
    expect(page.get_by_role("button", name="Check")).to_be_enabled(timeout=20_000)
    tab_to(page, lambda text: text.strip() == "Check")
    page.keyboard.press("Enter")


def open_quiz(page, url):
    page.goto(url)
    page.get_by_text("Question 1 of 5").wait_for(timeout=60_000)
    wait_until_settled(page)


def shoot(page, anchor, path):
    """The 1400x1000 window scrolled to `anchor` (Streamlit scrolls inside its own container, so a full-page
    screenshot would only show the top)."""
    wait_until_settled(page)
    anchor.first.evaluate("element => element.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(path))


def assert_clean(page):
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.js_errors == []


def right_choice(page, path, question=0):
    quiz = QUIZZES[path]
    if quiz is not None:
        return quiz_questions(quiz, 0)[question].answer
    # Bitwise: the prompt gives A and B; the right choice is the one whose pattern is A | B.
    expect(page.locator(f"{ANSWERS} label")).to_have_count(4, timeout=30_000)
    prompt = page.get_by_text(re.compile(r"What does ELEMENT_WISE_BIT_OR write")).inner_text()
    a, b = (int(v, 16) for v in re.findall(r"= (0x[0-9A-F]+)", prompt)[:2])
    labels = [label.inner_text() for label in page.locator(f"{ANSWERS} label").all()]
    return next(i for i, label in enumerate(labels) if int(label.split()[0], 16) == a | b)


@pytest.mark.parametrize("path", list(QUIZZES))
def test_quiz_by_keyboard(page, app_url, screenshot_dir, path):
    open_quiz(page, f"{app_url}/{path}?quiz=1")
    # The output is hidden while the learner predicts: one figure, of the input alone.
    expect(page.locator(".js-plotly-plot")).to_have_count(1, timeout=30_000)
    assert page.locator(".js-plotly-plot").get_attribute("aria-label") == "The input the question is about"
    titles = page.evaluate("() => document.querySelector('.js-plotly-plot').layout.annotations.map(a => a.text)")
    assert not [t for t in titles if "utput" in t], titles
    right = right_choice(page, path)
    answer_by_keyboard(page, right)
    page.get_by_text("Right:").wait_for(timeout=30_000)
    expect(page.get_by_text("Score: 1 of 1")).to_be_visible()
    # Revealed: the operator's figure appears with the element outlined where it is read and written.
    expect(page.locator(".js-plotly-plot")).to_have_count(1, timeout=30_000)
    expect(page.locator(".js-plotly-plot .shapelayer path").first).to_be_attached(timeout=30_000)
    shoot(page, page.get_by_text("Right:"), screenshot_dir / f"explain_{path}_quiz.png")
    tab_to(page, lambda text: text.strip() == "Next question")
    page.keyboard.press("Enter")
    page.get_by_text("Question 2 of 5").wait_for(timeout=30_000)
    count = page.locator(f"{ANSWERS} label").count()
    wrong = (right_choice(page, path, question=1) + 1) % count
    answer_by_keyboard(page, wrong)
    page.get_by_text("Not quite").wait_for(timeout=30_000)
    expect(page.get_by_text("Score: 1 of 2")).to_be_visible()
    assert "quiz=1" in page.url
    assert_clean(page)


def test_step_mode_by_keyboard_plays_both_orders(page, app_url, screenshot_dir):
    page.goto(f"{app_url}/depth_space?steps=1&Order=compare")
    page.get_by_text("step 1 of 48").first.wait_for(timeout=60_000)
    wait_until_settled(page)
    expect(page.locator(".js-plotly-plot")).to_have_count(2, timeout=60_000)
    tab_to(page, lambda text: text.strip() == "Next ▶")
    page.keyboard.press("Enter")
    # One slider drives both orders: both captions move to step 2, the same output cell from different inputs.
    expect(page.get_by_text("step 2 of 48")).to_have_count(2, timeout=30_000)
    expect(page.get_by_text("DEPTH_COLUMN_ROW — step 2 of 48: input (0, 2, 0, 0) → output (0, 0, 0, 1)")) \
        .to_be_visible()
    expect(page.get_by_text("COLUMN_ROW_DEPTH — step 2 of 48: input (0, 1, 0, 0) → output (0, 0, 0, 1)")) \
        .to_be_visible()
    shoot(page, page.get_by_text("DEPTH_COLUMN_ROW — step 2 of 48"), screenshot_dir / "explain_depth_space_steps.png")
    tab_to(page, lambda text: text.strip() == "▶ Play")
    page.keyboard.press("Enter")
    # Playing: both captions move on together past step 2 (which step a look finds depends on the machine's pace).
    page.wait_for_function("""() => {
        const steps = [...document.body.innerText.matchAll(/_ROW(?:_DEPTH)? — step (\\d+) of 48/g)].map(m => +m[1]);
        return steps.length === 2 && steps[0] > 2 && steps[0] === steps[1]; }""", timeout=30_000)
    tab_to(page, lambda text: text.strip() == "⏸ Pause")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="▶ Play")).to_be_visible(timeout=30_000)
    wait_until_settled(page)
    # Paused: the step moves when the learner moves it, by one (the timer that played it is off, which
    # tests/app/test_app_explain.py proves run by run).
    shown = int(re.search(r"step (\d+) of 48", page.get_by_text(re.compile(r"DEPTH_COLUMN_ROW — step \d+ of 48"))
                          .inner_text())[1])
    tab_to(page, lambda text: text.strip() == "Next ▶")
    page.keyboard.press("Enter")
    page.get_by_text(f"DEPTH_COLUMN_ROW — step {shown + 1} of 48", exact=False).wait_for(timeout=30_000)
    wait_until_settled(page)
    assert page.get_by_text(re.compile(r"DEPTH_COLUMN_ROW — step \d+ of 48")).inner_text().startswith(
        f"DEPTH_COLUMN_ROW — step {shown + 1} of 48")
    assert "steps=1" in page.url and "step=" in page.url
    assert_clean(page)


@pytest.mark.parametrize("path, first, second", [
    ("bitwise_or?steps=1&dtype=FLOAT64", "step 1 of 64: element #0, bit 63", "step 2 of 64: element #0, bit 62"),
    ("split_join?steps=1", "step 1 of 12: InputTensor (0, 0, 0, 0)", "step 2 of 12: InputTensor (0, 0, 0, 1)"),
])
def test_step_mode_steps_by_keyboard(page, app_url, screenshot_dir, path, first, second):
    page.goto(f"{app_url}/{path}")
    page.get_by_text(first).wait_for(timeout=60_000)
    expect(page.locator(".js-plotly-plot")).to_have_count(1, timeout=60_000)
    wait_until_settled(page)
    tab_to(page, lambda text: text.strip() == "Next ▶")
    page.keyboard.press("Enter")
    page.get_by_text(second).wait_for(timeout=30_000)
    # The step's arrow is drawn in the figure, and its formula printed under it.
    expect(page.locator(".js-plotly-plot .annotation-arrow-g").first).to_be_attached(timeout=30_000)
    expect(page.get_by_text("The formula for this step")).to_be_visible()
    name = path.split("?")[0]
    shoot(page, page.get_by_text(second), screenshot_dir / f"explain_{name}_steps.png")
    assert_clean(page)
