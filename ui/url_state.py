"""Every setting a view depends on lives in the address bar: a link is the view.

Streamlit's own binding (bind="query-params") writes the URL from the browser, and only when the user touches a
widget: a value set by a preset or an Overview button, a widget that first appears in the same run (the typed values
behind "typed") and a picked cell never reach the address bar, and a widget that a run does not draw forgets its
value. So the app keeps its own record of the settings (`_record()["params"]`, in session state) and mirrors it:

- `begin_run(page)` (app.py, every full run): the URL is adopted when it did not come from this session: the first
  run, a link opened, history navigation, an edited address bar. Every setting the URL leaves out then takes its
  default, so the same address always gives the same view;
- pages draw widgets from the record and write them back (`widget`), and read other settings with `value`;
  callbacks (presets, picks) change the record with `put`;
- `publish()` (app.py after the page, and every fragment after its own run) writes exactly the settings this view
  used, defaults left out, into the URL.

A value the URL cannot give (not a number, out of range, not an option, too long to read) falls back to the default
and leaves a note naming the parameter and the rule, shown at the top of the page; the note is Markdown, the value
in it an inert code span (ui/say.py).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import streamlit as st

from .say import md

_KEY = "_url_state"
# A value longer than this stays out of the link (browsers and proxies refuse long addresses); the widget that
# holds it says so.
LINK_VALUE_CHARS = 6000
# A value read from a link is refused unread past this length (the app writes at most LINK_VALUE_CHARS): a crafted
# link carries as much as the websocket takes, and every rule's work grows with the text.
LINK_READ_CHARS = 1 << 16


class Codec(Protocol):
    """How a value packed in a link is written and read back."""

    def encode(self, value: Any) -> str: ...

    def decode(self, text: str) -> Any: ...


@dataclasses.dataclass(frozen=True)
class Rule:
    """What a URL value must be for one setting: the default's type, and optionally options or bounds."""

    default: Any
    options: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    max_length: int | None = None
    codec: Codec | None = None  # for values packed in a link

    def parse(self, text: str) -> Any:
        """The setting's value from its URL text; ValueError naming the rule when it cannot be."""
        default = self.default
        if self.codec is not None:
            value = self.codec.decode(text)
        elif isinstance(default, bool):
            lowered = text.strip().lower()
            if lowered not in ("true", "false"):
                raise ValueError("must be true or false")
            value = lowered == "true"
        elif isinstance(default, int):
            try:
                value = int(text)
            except ValueError:
                raise ValueError("must be a whole number") from None
        elif isinstance(default, float):
            try:
                value = float(text)
            except ValueError:
                raise ValueError("must be a number") from None
            if not math.isfinite(value):
                raise ValueError("must be a finite number")
        elif isinstance(default, tuple) or default is None:
            try:
                value = tuple(int(part) for part in text.split(",")) if text.strip() else None
            except ValueError:
                raise ValueError("must be whole numbers separated by commas") from None
        else:
            value = text
        self.check(value)
        return value

    def text(self, value: Any) -> str:
        """`value` as the link writes it."""
        return _text(value, self)

    def clamp(self, value: Any) -> Any:
        """The nearest admitted value: a number pulled into the bounds, anything else the default."""
        if isinstance(value, (int, float)) and not isinstance(value, bool) and self.options is None:
            low = self.minimum if self.minimum is not None else value
            high = self.maximum if self.maximum is not None else value
            return type(self.default)(min(max(value, low), high))
        return self.default

    def check(self, value: Any) -> None:
        if self.options is not None and value not in self.options:
            shown = ", ".join(map(str, self.options))
            raise ValueError(f"must be one of {shown}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"must be at most {self.maximum}")
        if self.max_length is not None and len(value) > self.max_length:
            raise ValueError(f"must be at most {self.max_length:,} characters long")


def _text(value: Any, rule: Rule | None = None) -> str:
    if rule is not None and rule.codec is not None:
        return rule.codec.encode(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(int(v)) for v in value)
    return str(value)


def query_of(values: Mapping[str, Any]) -> dict[str, str]:
    """URL query texts of settings, as publish() would write them (for st.switch_page(query_params=...))."""
    return {key: _text(value) for key, value in values.items()}


def _record() -> dict[str, Any]:
    record = st.session_state.get(_KEY)
    if record is None:
        record = st.session_state[_KEY] = {"params": {}, "written": None, "page": None, "adopt": True, "query": {},
                                           "used": {}, "notes": []}
    return record


def begin_run(page: str) -> None:
    """Start a full run of `page`: adopt the URL unless it is the one this session wrote last."""
    record = _record()
    query = st.query_params.to_dict()
    page_changed = record["page"] != page
    # The sidebar's page links open a page with an empty query: that is a move within the session, which keeps
    # its settings; any other address this session did not write is a link to adopt.
    moved_within_session = page_changed and not query and record["written"] is not None
    record["adopt"] = not moved_within_session and query != record["written"]
    record["query"] = query
    record["page"] = page
    record["used"] = {}
    if not record.pop("keep_notes", False):
        record["notes"] = []
    record["full_run"] = True
    if record["adopt"]:
        record["params"] = {}


def _resolve(key: str, rule: Rule, record: dict[str, Any] | None = None) -> Any:
    """The setting's value this run, adopting it from the URL when the run adopts the URL."""
    record = _record() if record is None else record
    params = record["params"]
    if key not in params:
        params[key] = rule.default
        text = record["query"].get(key) if record["adopt"] else None
        if text is not None and len(text) > LINK_READ_CHARS:
            record["notes"].append(md("Link parameter {} is {:,} characters long; a link value may be at most {:,}: "
                                      "{:code} is used.", key, len(text), LINK_READ_CHARS, _text(rule.default)))
        elif text is not None:
            try:
                params[key] = rule.parse(text)
            except ValueError as error:
                # The link's value in a code span, shortened; the rule as plain text.
                record["notes"].append(md("Link parameter {}={:code} {}; {:code} is used.", key, text, error,
                                          _text(rule.default)))
    record["used"][key] = rule
    return params[key]


def value(key: str, default: Any, **rule: Any) -> Any:
    """A setting that is not drawn as a widget (a picked cell, say): its value this run, recorded for the URL."""
    return _resolve(key, Rule(default, **rule))


def peek(key: str, default: Any) -> Any:
    """A setting's recorded value without using it in this view's URL (shared settings a page reads)."""
    return _record()["params"].get(key, default)


def put(key: str, new_value: Any) -> None:
    """Change a setting from a callback (a preset, a click); the widget with that key shows it at the next run."""
    _record()["params"][key] = new_value
    st.session_state[key] = new_value


def put_many(values: Mapping[str, Any]) -> None:
    for key, new_value in values.items():
        put(key, new_value)


def widget(factory: Callable[..., Any], label: str, key: str, default: Any, *, options: Sequence[Any] | None = None,
           minimum: float | None = None, maximum: float | None = None, max_chars: int | None = None,
           codec: Codec | None = None, **kwargs: Any) -> Any:
    """Draw `factory(label, ...)` (st.number_input, st.radio, ...) showing the recorded setting `key`.

    `options` are passed on to selection widgets and bound the URL value; `minimum`/`maximum` bound number
    inputs (passed on as min_value/max_value), `max_chars` text inputs; `codec` packs the value for the link.
    The widget keeps the record current as the user changes it.
    """
    rule = Rule(default, tuple(options) if options is not None else None, minimum, maximum, max_chars, codec)
    record = _seed_widget(key, rule)
    if options is not None:
        kwargs["options"] = options
    if minimum is not None:
        kwargs["min_value"] = minimum
    if maximum is not None:
        kwargs["max_value"] = maximum
    if max_chars is not None:
        kwargs["max_chars"] = max_chars
    shown = factory(label, key=key, **kwargs)
    record["params"][key] = shown
    return shown


def ahead(key: str, default: Any, options: Sequence[Any] | Mapping[Any, Any]) -> Any:
    """The value the selection widget `key` (drawn later in this run with these options) will show: what is drawn
    before it can follow it (the Bitwise page's title names its Operation). Seeds the widget as widget() would."""
    _seed_widget(key, Rule(default, tuple(options)))
    return st.session_state[key]


def tabs(labels: Sequence[str], key: str) -> tuple[Sequence[Any], str]:
    """st.tabs whose open tab is a setting: (containers, open label). Only the open tab's content needs drawing;
    switching tabs reruns the page (or the fragment holding the tabs)."""
    record = _seed_widget(key, Rule(labels[0], tuple(labels)))
    containers = st.tabs(labels, key=key, on_change="rerun")  # text: the callers' literals (the tab's value)
    opened = st.session_state[key]
    record["params"][key] = opened
    return containers, opened


def _seed_widget(key: str, rule: Rule) -> dict[str, Any]:
    """Give the widget `key` its value before it is drawn: the recorded (or adopted) setting, or its own state.
    Returns the record (looked up once: every lookup goes through Streamlit's session state)."""
    record = _record()
    current = _resolve(key, rule, record)
    if key in st.session_state and not record["adopt"]:
        current = st.session_state[key]  # the widget's own state: the user's latest change
    # Bounds and options may have moved since (a smaller tensor, another page's options): a value they no longer
    # admit is clamped into the bounds, or else back to the default, before the widget sees it.
    try:
        rule.check(current)
    except (ValueError, TypeError):
        current = rule.clamp(current)
    record["params"][key] = current
    st.session_state[key] = current
    return record


def notes() -> list[str]:
    """What this run could not take from the URL, one sentence each."""
    return list(_record()["notes"])


def rerun() -> None:
    """Run the view again for the app's own reasons (a verdict arrived), not the visitor's: the notes about the
    link it was opened with stay (the run does not adopt the URL again, so it could not make them anew)."""
    _record()["keep_notes"] = True
    st.rerun()


def publish(fragment: bool = False) -> None:
    """Write the non-default settings this view used into the address bar (only when they changed).

    A fragment publishes after its own reruns; inside a full run the run's end publishes, once, after every
    widget has taken what it needs from an adopted URL.
    """
    record = _record()
    if fragment and record.get("full_run"):
        return
    record["full_run"] = False
    params = record["params"]
    query = {key: _text(params[key], rule) for key, rule in record["used"].items()
             if params.get(key, rule.default) != rule.default and params.get(key) is not None}
    query = {key: text for key, text in query.items() if len(text) <= LINK_VALUE_CHARS}
    record["written"] = query
    record["adopt"] = False
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)


PRESENT = "present"  # the sidebar's presentation mode switch


def presenting() -> bool:
    """Whether this view is in presentation mode (the sidebar's switch, present=true in the URL)."""
    return bool(peek(PRESENT, False))
