"""Explain why, on every operator page: the index formula of a picked element, step-by-step mode, and the
"Predict, then reveal" quiz. The formulas and questions come from ops.teaching, the steps from the page's figure
module (viz.operator_figure.FigureModule); this module only lays them out and keeps the session's state (playing or
not, the quiz's answers and score).

Settings in the URL: `steps=1` (step-by-step mode), `step` (the element shown), `speed` (ms per frame, for
Play here and for the figures' own Play), `quiz=1` (learner mode, output hidden) and `qseed` (which round of
questions: the same link asks the same questions).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import streamlit as st

from ops import DescriptorError, element_cap_set_to, quiz_questions
from ops.operators.lessons import Formula
from ops.teaching.quiz import Question, QuizSettings
from viz.operator_figure import FigureModule, Step
from viz.spec import SpecFigure

from . import charts, say, url_state
from .say import md
from .shared import APP_ELEMENT_CAP, fragment

SPEEDS = (2000, 1200, 800, 600, 400, 250)  # ms per frame, slow to fast
DEFAULT_SPEED = 600
QSEED_MAX = 2**31 - 1


class Flag:
    """A switch as `1`/`0` in the link (`quiz=1`), which reads better to a teacher than `true`."""

    @staticmethod
    def encode(value: bool) -> str:
        return "1" if value else "0"

    @staticmethod
    def decode(text: str) -> bool:
        text = text.strip().lower()
        if text in ("1", "true"):
            return True
        if text in ("0", "false"):
            return False
        raise ValueError("must be 1 or 0")


def mode_bar(key: str) -> tuple[bool, bool, int]:
    """The page's teaching switches, drawn at the page's top level so that changing one reruns the page
    (step mode re-registers its timer, the quiz hides the output). Returns (quiz, step mode, speed in ms)."""
    # A wrapping row: in equal columns an 800 px window cut the toggles' labels short ("Predi...").
    row = st.container(horizontal=True, wrap=True, vertical_alignment="center")
    quiz = url_state.widget(row.toggle, "Predict, then reveal (quiz)", "quiz", False, codec=Flag,
                            help="Learner mode: the output is hidden and the page asks where elements go. "
                                 "Share the link to quiz exactly this configuration.")
    steps = False
    if not quiz:
        steps = url_state.widget(row.toggle, "Step by step", "steps", False, codec=Flag,
                                 on_change=_stop_playing, args=(key,),
                                 help="One element at a time, with an arrow from where it is read to where it is "
                                      "written. Tab to the buttons; the slider takes the arrow keys.")
    speed = url_state.widget(row.select_slider, "Frame duration (ms)", "speed", DEFAULT_SPEED,
                             options=SPEEDS, on_change=_stop_playing, args=(key,), width=320,
                             help="How long each frame of Play stays, here and in the figures' own Play")
    return bool(quiz), bool(steps), int(speed)


def _playing_key(key):
    return f"_explain_playing_{key}"


def _stop_playing(key):
    st.session_state[_playing_key(key)] = False


def formula_block(title: str, make: Callable[[], Formula]) -> None:
    """The formula make() returns (an ops.teaching.Formula) as monospace lines under a title, or a note naming
    the rule when it cannot be made."""
    try:
        formula = make()
    except DescriptorError as exc:
        say.caption(md("{}: no formula for these settings ({})", title, exc))
        return
    say.markdown(md("**{}**", title))
    st.code("\n".join(formula.lines()), language=None, wrap_lines=True)


def with_speed(figure: SpecFigure, speed: int) -> SpecFigure:
    """The figure with its own Play showing each frame for `speed` ms (a layout copy; the figure is shared)."""
    menus = figure.to_dict()["layout"].get("updatemenus")
    if not menus:
        return figure
    changed = []
    for menu in menus:
        buttons = []
        for button in menu.get("buttons", []):
            args = button.get("args", [])
            if button.get("label") == "Play" and len(args) == 2:
                options = dict(args[1], frame=dict(args[1].get("frame", {}), duration=int(speed)))
                button = dict(button, args=[args[0], options])
            buttons.append(button)
        changed.append(dict(menu, buttons=buttons))
    return figure.with_overlay(layout=dict(updatemenus=changed))


def stepper(figures: FigureModule, pictures: Sequence[tuple[str, SpecFigure]],
            formula_of: Callable[[str, Step], Formula], key: str, speed: int, element: int | None = None) -> None:
    """Step-by-step mode over `pictures` [(title, figure)] at once, drawn by the figure module `figures`: one slider,
    Prev/Play/Next for all of them; `element` is the one whose parts are walked, where a step is a part of one.

    formula_of(title, Step) -> Formula for the element of the step (or raises DescriptorError). While playing, the
    fragment reruns itself every `speed` ms; starting and stopping rerun the page, which sets that timer.
    """
    playing = st.session_state.get(_playing_key(key), False)
    run_every = speed / 1000 if playing else None
    st.fragment(_stepper_body, run_every=run_every)(figures, pictures, formula_of, key, element, playing)


def _stepper_body(figures, pictures, formula_of, key, element, ticking):
    with element_cap_set_to(APP_ELEMENT_CAP):
        _draw_steps(figures, pictures, formula_of, key, element, ticking)
    url_state.publish(fragment=True)


def _draw_steps(figures: FigureModule, pictures, formula_of, key, element, ticking):
    playing_key = _playing_key(key)
    playing = st.session_state.get(playing_key, False)
    if playing != ticking:
        st.rerun()  # Play or Pause was pressed: the page reruns to start or stop this fragment's timer
    count = min(figures.step_count(figure, element) for _, figure in pictures)
    step = min(max(0, int(url_state.value("step", 0, minimum=0))), count - 1)
    if playing and not st.session_state.pop(f"{playing_key}_fresh", False):  # a tick of the timer
        if step >= count - 1:
            st.session_state[playing_key] = False
            st.rerun()
        step += 1
        url_state.put("step", step)
    noun = figures.STEP_NOUN
    buttons = st.columns([1, 1, 1, 5], vertical_alignment="center")
    buttons[0].button("◀ Previous", key=f"{key}_prev", on_click=url_state.put, args=("step", max(0, step - 1)),
                      disabled=step == 0, help=md("the previous {}", noun))
    if playing:
        buttons[1].button("⏸ Pause", key=f"{key}_pause", on_click=_stop_playing, args=(key,), type="primary")
    else:
        buttons[1].button("▶ Play", key=f"{key}_play", on_click=_start_playing, args=(key, step, count),
                          type="primary", help="one step per frame duration; Pause stops it")
    buttons[2].button("Next ▶", key=f"{key}_next", on_click=url_state.put, args=("step", min(count - 1, step + 1)),
                      disabled=step >= count - 1, help=md("the next {}", noun))
    if count > 1:
        labels = figures.step_labels(pictures[0][1], count)
        with buttons[3]:
            shown = url_state.widget(st.select_slider, "Step", "step", 0, options=list(range(count)),
                                     format_func=labels.__getitem__)
        step = int(shown)
    # One above the other, each as wide as the page: side by side, compare mode's cells were too small to number.
    columns = [st.container() for _ in pictures]
    for column, (title, figure) in zip(columns, pictures):
        drawn, current = figures.with_step(figure, step, element)
        with column:
            say.markdown(md("**{}** — step {} of {}: {}", title, step + 1, count, current.label))
            charts.picture(drawn, f"{key}_step_chart_{title}", f"{title}, step {step + 1} of {count}")
            formula_block("The formula for this step", functools.partial(formula_of, title, current))


def _start_playing(key, step, count):
    st.session_state[_playing_key(key)] = True
    st.session_state[f"{_playing_key(key)}_fresh"] = True  # the first run shows the current step; ticks advance
    if step >= count - 1:
        url_state.put("step", 0)  # from the end, Play starts again at the first element


# ---------------------------------------------------------------- Predict, then reveal


def _round_key(key, settings, seed):
    return f"_quiz_{key}_{hash((settings, seed))}"


def _score_key(key):
    return f"_quiz_score_{key}"


@fragment
def quiz(settings: QuizSettings, key: str, reveal: Callable[[Question], SpecFigure] | None = None,
         ask: Callable[[Question], SpecFigure] | None = None) -> None:
    """Questions about `settings` (an ops QuizSettings) one at a time: pick an answer, Check reveals and explains.

    ask(question) -> figure: the input the question is about, without the answer, shown while it asks.
    reveal(question) -> figure: the operator's figure with the question's element outlined where it is read and
    where it is written, shown once the question is answered.

    The score (answered, right) lives in session_state for as long as the page is open; answering reruns only
    this fragment.
    """
    seed = url_state.widget(st.number_input, "Question set", "qseed", 0, minimum=0, maximum=QSEED_MAX,
                            help="The same number and settings give the same questions: part of the link")
    try:
        questions = quiz_questions(settings, int(seed))
    except DescriptorError as exc:
        say.error(md("No quiz for these settings: {}", exc), icon=":material/error:")
        return
    round_ = st.session_state.setdefault(_round_key(key, settings, seed), {"current": 0, "answers": {}})
    answers = round_["answers"]
    score = st.session_state.setdefault(_score_key(key), {"asked": 0, "right": 0})
    say.markdown(md("**Score: {} of {}** answered right while this page is open.", score["right"], score["asked"]))
    number = round_["current"]
    question = questions[number]
    say.markdown(md("**Question {} of {}.** {}", number + 1, len(questions), question.prompt))
    answered = answers.get(number)
    if answered is None and ask is not None:
        charts.picture(ask(question), f"{key}_ask", "The input the question is about")
    choice = st.radio("Your answer", options=list(range(len(question.choices))), index=answered,
                      format_func=question.choices.__getitem__, key=f"{key}_choice_{seed}_{number}",
                      disabled=answered is not None)
    if answered is None:
        st.button("Check", key=f"{key}_check", type="primary", disabled=choice is None,
                  on_click=_record_answer, args=(key, settings, seed, number, choice, question.answer))
    else:
        if answered == question.answer:
            say.success(md("Right: {}.", question.right), icon=":material/check_circle:")
        else:
            say.error(md("Not quite: you chose {}; the answer is {}.", question.choices[answered], question.right),
                      icon=":material/cancel:")
        st.markdown("**Why** (the formula with this question's numbers)")
        st.code("\n".join(question.explanation), language=None, wrap_lines=True)
        if reveal is not None:
            charts.picture(reveal(question), f"{key}_reveal", "The answer, drawn")
        if number + 1 < len(questions):
            st.button("Next question", key=f"{key}_nextq", type="primary", on_click=_next_question,
                      args=(round_,))
        else:
            right = sum(a == questions[i].answer for i, a in answers.items())
            say.success(md("Round done: {} of {} right.", right, len(questions)), icon=":material/done_all:")
    st.button("New set of questions", key=f"{key}_newset", on_click=url_state.put,
              args=("qseed", (int(seed) + 1) % QSEED_MAX))


def _next_question(round_):
    round_["current"] += 1


def _record_answer(key, settings, seed, number, choice, right):
    answers = st.session_state[_round_key(key, settings, seed)]["answers"]
    if number in answers:
        return
    answers[number] = choice
    score = st.session_state.setdefault(_score_key(key), {"asked": 0, "right": 0})
    score["asked"] += 1
    score["right"] += int(choice == right)
