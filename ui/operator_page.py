"""One skeleton for every operator page: the page declares what differs, `render` lays it out.

Every operator page is the same story: a title and one line of introduction; the page's settings, its presets and
Play & explain in groups beside the figure (ui/toolbar.py), with one line over the figure stating the settings; the
settings checked (a refusal names the field and the rule); the work admitted through the server's budget; then the
figure (or the quiz, over the input it asks about), and under it the panels of each operator call. When the core
refuses the settings, the refusal, its nearest fixes and the greyed last valid figure take the figure's place, and
the panels still describe what can be described.
Written once here, the three pages can no longer drift apart (Bitwise OR used to blank the whole page on a values
error where the others kept their picture).

A page is a subclass of OperatorPage whose hooks read its widgets and call the core and the figure builders; its
script file ends with render(ThePage()).
"""

import dataclasses
import functools

import streamlit as st

from ops import Call, DescriptorError

from . import explain, say
from .errors import last_valid_figure, offer_fixes
from .panels import Arrays, operator_panels, settings_problems, show_busy
from .picks import preset_buttons
from .say import md
from .shared import Busy, admitted
from .sidebar import current_settings
from .toolbar import intro, summary, toolbar


class Refused(DescriptorError):
    """Settings the core refuses. The message names the field and the rule; `fixes` are the nearest valid settings
    (ops.descriptors.fixes.Fixes, or None); `described` is what the page can still describe of the settings (its
    configuration, for the panels' Validation tab), or None."""

    def __init__(self, message, fixes=None, described=None):
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


class OperatorPage:
    """What one operator page declares. Settings flow through the hooks as the page's own objects:
    controls() -> controls, configure(controls) -> configuration (or Refused), the rest read the configuration."""

    key: str  # prefix of the page's widget keys and its teaching state ("ds")
    name: str  # the page's name for its last valid figure ("depth_space")
    title: str
    introduction: str
    groups: tuple  # labels of the page's groups of settings, before Presets and Play & explain (the first one open)
    presets: dict = {}
    pick: str = ""  # the URL key of the picked cell

    row = None  # this run's line over the figure (render sets it): hooks may add what they draw to it

    def controls(self, boxes, settings):
        """The page's settings, read from their widgets drawn in `boxes` (one per group)."""
        raise NotImplementedError

    def line(self, controls, settings):
        """The settings as the parts of one readable line."""
        raise NotImplementedError

    def notes(self, controls, settings):
        """Anything to say about the settings above the figure (typed values that do not fit the type)."""

    def configure(self, controls, settings):
        """The configuration the settings describe; Refused (or DescriptorError) naming the field otherwise."""
        raise NotImplementedError

    def work_bytes(self, configuration):
        """Memory a run may hold at once, reserved from the server's budget before any work."""
        raise NotImplementedError

    def work_seconds(self, configuration):
        """The CPU seconds a run is expected to take (ui.shared.admitted's heavy lane); None: from its bytes."""
        return None

    def work_name(self, configuration):
        """What the run is, for the messages of a queued or refused view."""
        return "this tensor"

    def compute(self, configuration):
        """The core's work for the configuration (shared between sessions); Refused when the core refuses it."""

    def quiz(self, configuration):
        """(ops QuizSettings, reveal(question) -> figure) for Predict, then reveal."""
        raise NotImplementedError

    def quiz_input(self, configuration, question):
        """The figure of the input `question` asks about, drawn without the answer while the quiz asks."""
        raise NotImplementedError

    def figure(self, configuration, steps_on, speed):
        """The figure (or step-by-step view) of a valid configuration; it records what it drew with
        ui.errors.remember_valid(self.name, drawn)."""
        raise NotImplementedError

    def below_figure(self, configuration):
        """What the page says under its figure, before the panels."""

    def draw_last_valid(self, drawn):
        """The figure of settings recorded by `figure`, greyed by the caller."""
        raise NotImplementedError

    def panels(self, configuration, refusal=None):
        """[Panels] of the configuration's operator calls; `refusal` is the core's refusal, when it refused."""
        raise NotImplementedError

    def fix_settings(self, fix, controls):
        """A core fix as this page's URL settings, applied as a preset is."""
        return dict(fix.changes)


def render(page):
    """Lay out `page` (an OperatorPage) for this run."""
    settings = current_settings()
    say.title(page.title)
    intro(page.introduction)
    row, boxes = toolbar(*page.groups, "Presets", "Play & explain", expanded=page.groups[:1])
    page.row = row
    with boxes[-2]:
        preset_buttons(page.presets.items(), f"{page.key}_preset", page.pick)
    controls = page.controls(boxes[:-2], settings)
    with boxes[-1]:
        quiz_on, steps_on, speed = explain.mode_bar(page.key)
    summary(row, page.line(controls, settings))
    page.notes(controls, settings)
    try:
        configuration = page.configure(controls, settings)
        with admitted(page.work_bytes(configuration), page.work_name(configuration),
                      seconds=page.work_seconds(configuration)):
            page.compute(configuration)
            calls = page.panels(configuration)
            validity_banner(calls[0].call, settings)
            if quiz_on:
                questions, reveal = page.quiz(configuration)
                explain.quiz(questions, page.key, reveal, functools.partial(page.quiz_input, configuration))
                return
            page.figure(configuration, steps_on, speed)
            page.below_figure(configuration)
            show_panels(calls, settings)
    except Busy as busy:
        show_busy(busy)
    except DescriptorError as refusal:
        refused(page, refusal, controls, settings)


def show_panels(calls, settings):
    st.divider()
    for panels in calls:
        if panels.title:
            say.subheader(panels.title)
        operator_panels(panels.call, panels.arrays, settings, key=panels.key)


def validity_banner(call, settings):
    """One line at the top when the descriptor is invalid at the chosen level; the Validation tab lists every
    problem."""
    try:
        problems = settings_problems(call.op, call.input_sizes, call.data_type, call.attributes,
                                     settings.feature_level)
    except DescriptorError as exc:
        problems = [str(exc)]
    if problems:
        more = md(" (and {} more, see Validation below)", len(problems) - 1) if len(problems) > 1 else md("")
        say.warning(md("Not a valid descriptor at feature level {}: {}", settings.feature_level, problems[0]) + more,
                    icon=":material/warning:")


def refused(page, refusal, controls, settings):
    """The refusal with its nearest fixes beside the last valid figure (greyed), then the panels of what the
    settings still describe."""
    left, right = st.columns([2, 3])
    with left:
        fixes = getattr(refusal, "fixes", None)
        offer_fixes(str(refusal), fixes, page.key, lambda fix: page.fix_settings(fix, controls), page.pick)
    with right:
        last_valid_figure(page.name, page.draw_last_valid)
    described = getattr(refusal, "described", None)
    if described is not None:
        show_panels(page.panels(described, refusal=str(refusal)), settings)

