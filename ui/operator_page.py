"""One skeleton for every operator page: the page declares what differs, `render` lays it out.

Every operator page is the same story: a title and one line of introduction; the page's settings, its presets and
Play & explain in groups beside the figure (ui/toolbar.py), with one line over the figure stating the settings; the
settings checked (a refusal names the field and the rule); the work admitted through the server's budget; then the
figure (or the quiz, over the input it asks about), and under it the panels of each operator call. When the core
refuses the settings, the refusal, its nearest fixes and the greyed last valid figure take the figure's place, and
the panels still describe what can be described.

The figure is drawn here too, from the page's figure module (viz.operator_figure.FigureModule) and the shared
pictures the page makes of its drawn part: the picked cell and its caption, the charts that take clicks, the pick's
formulas, step by step, and the greyed last valid view, in a fragment of its own (a click reruns only the figure)
admitted through the same budget. A page without a figure module (Layouts) draws its figure itself (`draw`).

A page is a subclass of OperatorPage whose hooks read its widgets and call the core and the page's work; its script
(app_pages/<page>/page.py) ends with render(ThePage()).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ops import Call, DescriptorError, QuizSettings
from ops.operators.fixes import Fix, Fixes
from ops.operators.lessons import Formula
from ops.teaching.quiz import Question
from viz.export import file_stem
from viz.operator_figure import FigureModule, Pick, Step
from viz.spec import SpecFigure

from . import charts, explain, say, url_state
from .errors import last_valid_figure, offer_fixes, remember_valid
from .panels import Arrays, operator_panels, settings_problems, show_busy
from .picks import clear_pick, preset_buttons, remember_pick
from .say import md
from .shared import Busy, admitted, fragment
from .sidebar import SidebarSettings, current_settings
from .toolbar import intro, summary, toolbar

Controls = TypeVar("Controls")  # the page's widgets as read
Configuration = TypeVar("Configuration")  # what the core accepts of them
Drawn = TypeVar("Drawn")  # the part of the configuration the figure draws


class Refused(DescriptorError):
    """Settings the core refuses. The message names the field and the rule; `fixes` are the nearest valid settings
    (ops.descriptors.fixes.Fixes, or None); `described` is what the page can still describe of the settings (its
    configuration, for the panels' Validation tab), or None."""

    def __init__(self, message: str, fixes: Fixes | None = None, described: Any = None) -> None:
        super().__init__(message)
        self.fixes = fixes
        self.described = described


@dataclasses.dataclass(frozen=True)
class Panels:
    """One operator call's panels: the call (an ops Call, made without Call.of's checks so that refused settings
    still describe their descriptor), how its arrays are made, its widgets' key, and a title when a page shows
    several."""

    call: Call
    arrays: Arrays
    key: str
    title: str | None = None


class OperatorPage(Generic[Controls, Configuration, Drawn]):
    """What one operator page declares. Settings flow through the hooks as the page's own objects:
    controls() -> Controls, configure(controls) -> Configuration (or Refused), drawn_part(configuration) -> Drawn,
    and the figure's hooks read the Drawn part."""

    key: str  # prefix of the page's widget keys, its teaching state and its last valid figure ("ds")
    groups: tuple[str, ...]  # the page's groups of settings, before Presets and Play & explain (the first one open)
    figures: FigureModule | None = None  # the figure module; None: the page draws its figure itself (draw)
    pick_key: str = ""  # the URL key of the picked cell
    presets_caption: str = ""  # what the Presets group says over its buttons (Markdown)

    row: Any = None  # this run's line over the figure (render sets it): hooks may add what they draw to it

    @property
    def title(self) -> str:
        """The page's title (a page may set it as a class attribute)."""
        raise NotImplementedError

    @property
    def introduction(self) -> str:
        """The page's one line under its title (Markdown; a class attribute too)."""
        raise NotImplementedError

    # ------------------------------------------------------------ settings

    def presets(self, sidebar: SidebarSettings) -> Mapping[str, Mapping[str, Any]]:
        """The Presets group: label -> a complete set of the page's URL settings."""
        return {}

    def controls(self, boxes: Sequence[DeltaGenerator], sidebar: SidebarSettings) -> Controls:
        """The page's settings, read from their widgets drawn in `boxes` (one per group)."""
        raise NotImplementedError

    def line(self, controls: Controls, sidebar: SidebarSettings) -> list[str]:
        """The settings as the parts of one readable line."""
        raise NotImplementedError

    def notes(self, controls: Controls, sidebar: SidebarSettings) -> None:
        """Anything to say about the settings above the figure (typed values that do not fit the type)."""

    def configure(self, controls: Controls, sidebar: SidebarSettings) -> Configuration:
        """The configuration the settings describe; Refused (or DescriptorError) naming the field otherwise."""
        raise NotImplementedError

    def fix_settings(self, fix: Fix, controls: Controls) -> dict[str, Any]:
        """A core fix as this page's URL settings, applied as a preset is."""
        return dict(fix.changes)

    # ------------------------------------------------------------ the work

    def work_bytes(self, configuration: Configuration) -> int:
        """Memory a run may hold at once, reserved from the server's budget before any work."""
        raise NotImplementedError

    def work_seconds(self, configuration: Configuration) -> float | None:
        """The CPU seconds a run is expected to take (ui.shared.admitted's heavy lane); None: from its bytes."""
        return None

    def work_name(self, configuration: Configuration) -> str:
        """What the run is, for the messages of a queued or refused view."""
        return "this tensor"

    def compute(self, configuration: Configuration) -> None:
        """The core's work for the configuration (shared between sessions); Refused when the core refuses it."""

    def calls(self, configuration: Configuration, refusal: str | None = None) -> list[Panels]:
        """[Panels] of the configuration's operator calls; `refusal` is the core's refusal, when it refused."""
        return []

    def quiz(self, configuration: Configuration) -> tuple[QuizSettings, Callable[[Question], SpecFigure]]:
        """(ops QuizSettings, reveal(question) -> figure) for Predict, then reveal."""
        raise NotImplementedError

    def quiz_input(self, configuration: Configuration, question: Question) -> SpecFigure:
        """The figure of the input `question` asks about, drawn without the answer while the quiz asks."""
        raise NotImplementedError

    # ------------------------------------------------------------ the figure

    def drawn_part(self, configuration: Configuration) -> Drawn:
        """What the figure draws of the configuration, with the settings of the drawn part (a group of its own
        beside the figure, for a tensor too large to draw whole) said on the row over the figure; Refused when they
        do not fit."""
        raise NotImplementedError

    def pictures(self, drawn: Drawn) -> list[tuple[str, SpecFigure]]:
        """(title, figure) of each figure of the drawn part, without a pick: shared by every visitor and click."""
        raise NotImplementedError

    def chart(self, drawn: Drawn, title: str) -> tuple[list[Any], str]:
        """(the parts of the downloads' file name, the chart's accessible name) of the picture `title`."""
        raise NotImplementedError

    def describe_pick(self, drawn: Drawn, pick: Pick) -> str | None:
        """What the pick is, in words; None when it does not fit the settings (it was made under others)."""
        return None

    def undrawn_pick(self, drawn: Drawn, pick: Pick) -> str | None:
        """Why a pick that fits the settings is not drawn ("not among the drawn elements"); None when it is."""
        return None

    def pick_formulas(self, drawn: Drawn, pick: Pick) -> list[tuple[str, Callable[[], Formula]]]:
        """(title, make the formula) for each formula of a drawn pick, side by side under the charts."""
        return []

    def step_element(self, drawn: Drawn, pick: Pick | None) -> int | None:
        """The element step mode walks the parts of (None: steps walk elements)."""
        return None

    def step_formula(self, drawn: Drawn, title: str, step: Step) -> Formula:
        """The formula of the element of `step` in the picture `title`."""
        raise NotImplementedError

    def under_figure(self, drawn: Drawn, pick: Pick | None) -> None:
        """What the page shows under its charts, inside the figure's fragment (a table of the drawn elements)."""

    def below_figure(self, configuration: Configuration) -> None:
        """What the page says under its figure, before the panels."""

    def draw(self, drawn: Drawn, steps_on: bool, speed: int) -> None:
        """The figure of a valid configuration: the pictures, the pick, the charts and step mode from the figure
        module; recorded for the greyed last valid view."""
        draw_pictures(self, drawn, steps_on, speed)

    def draw_last_valid(self, drawn: Drawn) -> None:
        """The figure of a drawn part recorded by an earlier run, greyed by the caller."""
        for title, picture in self.pictures(drawn):
            key, name = (f"{self.key}_last_valid_{title}", f"Last valid view: {title}") if title else (
                f"{self.key}_last_valid", "Last valid view")
            charts.picture(picture, key, name)


def render(page: OperatorPage[Any, Any, Any]) -> None:
    """Lay out `page` (an OperatorPage) for this run."""
    sidebar = current_settings()
    say.title(page.title)
    intro(page.introduction)
    explains = page.figures is not None
    extra = ("Presets", "Play & explain") if explains else ("Presets",)
    row, boxes = toolbar(*page.groups, *extra, expanded=page.groups[:1])
    page.row = row
    with boxes[len(page.groups)]:
        if page.presets_caption:
            say.caption(page.presets_caption)
        preset_buttons(page.presets(sidebar).items(), f"{page.key}_preset", page.pick_key)
    controls = page.controls(boxes[:len(page.groups)], sidebar)
    quiz_on, steps_on, speed = False, False, explain.DEFAULT_SPEED
    if explains:
        with boxes[-1]:
            quiz_on, steps_on, speed = explain.mode_bar(page.key)
    summary(row, page.line(controls, sidebar))
    page.notes(controls, sidebar)
    try:
        configuration = page.configure(controls, sidebar)
        with admitted(page.work_bytes(configuration), page.work_name(configuration),
                      seconds=page.work_seconds(configuration)):
            page.compute(configuration)
            calls = page.calls(configuration)
            if calls:
                validity_banner(calls[0].call, sidebar)
            if quiz_on:
                questions, reveal = page.quiz(configuration)
                explain.quiz(questions, page.key, reveal, functools.partial(page.quiz_input, configuration))
                return
            drawn = page.drawn_part(configuration)
            figure(page, configuration, drawn, steps_on, speed)
            page.below_figure(configuration)
            show_panels(calls, sidebar)
    except Busy as busy:
        show_busy(busy)
    except DescriptorError as refusal:
        refused(page, refusal, controls, sidebar)


@fragment
def figure(page: OperatorPage[Any, Any, Any], configuration: Any, drawn: Any, steps_on: bool, speed: int) -> None:
    """The figure of the drawn part: a click reruns only this part of the page, admitted as the page is."""
    with admitted(page.work_bytes(configuration), page.work_name(configuration),
                  seconds=page.work_seconds(configuration)):
        page.draw(drawn, steps_on, speed)
        remember_valid(page.key, drawn)


def draw_pictures(page: OperatorPage[Any, Any, Any], drawn: Any, steps_on: bool, speed: int) -> None:
    """The page's pictures from its figure module: step by step, or each as a chart that takes clicks, with the
    picked cell drawn, said in words and worked out in formulas."""
    figures = page.figures
    assert figures is not None, "a page without a figure module draws its figure itself"
    pictures = page.pictures(drawn)
    pick = show_pick(page, drawn)
    if steps_on:
        explain.stepper(figures, pictures, functools.partial(page.step_formula, drawn), page.key, speed,
                        element=page.step_element(drawn, pick))
        page.under_figure(drawn, pick)
        return
    # More than one picture: one above the other, each as wide as the page (side by side their cells were too small
    # to number), each under its title.
    for title, picture in pictures:
        if len(pictures) > 1:
            say.subheader(title)
        key = f"{page.key}_chart" + (f"_{title}" if title else "")
        stem, chart_title = page.chart(drawn, title)
        charts.show(explain.with_speed(figures.with_pick(picture, pick), speed), key, file_stem(*stem), chart_title,
                    on_select=functools.partial(remember_pick, page.pick_key, key, figures.pick_from_selection))
    formulas = [] if pick is None else page.pick_formulas(drawn, pick)
    for column, (title, make) in zip(st.columns(len(formulas)) if len(formulas) > 1 else [st.container()], formulas):
        with column:
            explain.formula_block(title, make)
    page.under_figure(drawn, pick)


def show_pick(page: OperatorPage[Any, Any, Any], drawn: Any) -> Pick | None:
    """The picked cell in words, with a button that clears it; returns the pick when its cell is drawn. A pick made
    under other settings no longer means anything: it is dropped."""
    pick = url_state.value(page.pick_key, None)
    described = None if pick is None else page.describe_pick(drawn, pick)
    if described is None:
        if pick is not None:
            url_state.put(page.pick_key, None)
        return None  # the page's introduction says what a click does
    undrawn = page.undrawn_pick(drawn, pick)
    left, right = st.columns([5, 1], vertical_alignment="center")
    say.caption(md("Picked: {}", described) + (md(" ({})", undrawn) if undrawn else md("")), into=left)
    right.button("Clear highlight", key=f"{page.key}_clear_pick", on_click=clear_pick, args=(page.pick_key,))
    return None if undrawn else tuple(pick)


def show_panels(calls: Sequence[Panels], sidebar: SidebarSettings) -> None:
    if not calls:
        return
    st.divider()
    for panels in calls:
        if panels.title:
            say.subheader(panels.title)
        operator_panels(panels.call, panels.arrays, sidebar, key=panels.key)


def validity_banner(call: Call, sidebar: SidebarSettings) -> None:
    """One line at the top when the descriptor is invalid at the chosen level; the Validation tab lists every
    problem."""
    try:
        problems = settings_problems(call.op, call.input_sizes, call.data_type, call.attrs, sidebar.feature_level)
    except DescriptorError as exc:
        problems = (str(exc),)
    if problems:
        more = md(" (and {} more, see Validation below)", len(problems) - 1) if len(problems) > 1 else md("")
        say.warning(md("Not a valid descriptor at feature level {}: {}", sidebar.feature_level, problems[0]) + more,
                    icon=":material/warning:")


def refused(page: OperatorPage[Any, Any, Any], refusal: DescriptorError, controls: Any,
            sidebar: SidebarSettings) -> None:
    """The refusal with its nearest fixes beside the last valid figure (greyed), then the panels of what the
    settings still describe."""
    left, right = st.columns([2, 3])
    with left:
        fixes = getattr(refusal, "fixes", None)
        offer_fixes(str(refusal), fixes, page.key, lambda fix: page.fix_settings(fix, controls), page.pick_key)
    with right:
        last_valid_figure(page.key, page.draw_last_valid)
    described = getattr(refusal, "described", None)
    if described is not None:
        show_panels(page.calls(described, refusal=str(refusal)), sidebar)


__all__ = ["OperatorPage", "Panels", "Refused", "render"]
