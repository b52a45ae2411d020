"""Figures as the plain dicts plotly.js reads, handed to Streamlit and plotly.io without plotly's object layer.

Plotly's graph objects validate every property when they are built, again on each update_layout, and
deep-copy the whole figure in to_dict; for the figures here that was nearly all of a rerun's time. The
builders write the dict go.Figure.to_dict would return (numpy arrays already as plotly.js typed arrays), and
SpecFigure carries it to st.plotly_chart, which only calls to_dict() and plotly.io.to_json(validate=False).

Sharing rule: a SpecFigure and the dict its to_dict() returns are never mutated once built, by this package
or by plotly.io / Streamlit (tests/figures/test_figures_spec.py holds them to it), so one instance may be cached and
shown to any number of sessions at once. A caller that wants to change a figure gets a copy: with_overlay
for layout keys (picks), go.Figure(figure.to_dict()) for anything else.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

# plotly.js typed-array names and the 64-bit narrowing below follow plotly's own encoder,
# _plotly_utils/utils.py (plotly 7.1.0) plotlyjsShortTypes and to_typed_array_spec, lines 27-92.
SHORT_TYPES = {
    "int8": "i1", "uint8": "u1", "int16": "i2", "uint16": "u2",
    "int32": "i4", "uint32": "u4", "float32": "f4", "float64": "f8",
}
NARROWER = {"int64": (np.int8, np.int16, np.int32), "uint64": (np.uint8, np.uint16, np.uint32)}


def typed_array(values: Any) -> Any:
    """A numpy array as go.Figure.to_dict writes it: {"dtype", "bdata" (base64 of the bytes), "shape"}.

    64-bit integers go to the narrowest type of their signedness that holds them (plotly.js has no 64-bit
    integer arrays); what plotly.js cannot take as bytes (strings, objects, bools, float16, empty arrays,
    64-bit integers beyond 32 bits) becomes nested lists, as plotly's JSON encoder would write it.
    """
    values = np.asarray(values)
    if values.size and values.dtype.name in NARROWER:
        low, high = values.min(), values.max()
        for dtype in NARROWER[values.dtype.name]:
            if np.iinfo(dtype).min <= low and high <= np.iinfo(dtype).max:
                values = values.astype(dtype)
                break
    short = SHORT_TYPES.get(values.dtype.name)
    if short is None or not values.size:
        return values.tolist()
    spec = {"dtype": short, "bdata": base64.b64encode(np.ascontiguousarray(values).tobytes()).decode("ascii")}
    if values.ndim > 1:
        spec["shape"] = str(values.shape)[1:-1]
    return spec


def is_typed_array(value: Any) -> bool:
    return isinstance(value, dict) and "bdata" in value and "dtype" in value


def decode_typed_array(value: dict[str, Any]) -> np.ndarray:
    """The numpy array a typed-array spec holds (read-only: it views the decoded bytes)."""
    array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    shape = value.get("shape")
    return array.reshape([int(s) for s in shape.split(",")]) if shape else array


_templates: dict[int, tuple[Any, dict[str, Any]]] = {}


def layout_template() -> dict[str, Any] | None:
    """The layout template go.Figure would add now (plotly.io.templates.default) as JSON, or None.

    Streamlit sets its own template on import, with placeholder colors its frontend swaps for the theme's,
    so the template must travel with the figure. Its JSON is computed once per template object and then
    shared by every figure, under the sharing rule above.
    """
    default = pio.templates.default
    if default is None:
        return None
    template = pio.templates[default] if isinstance(default, str) else default
    cached = _templates.get(id(template))
    if cached is None or cached[0] is not template:
        cached = _templates[id(template)] = (template, template.to_plotly_json())
    return cached[1]


def figure_spec(data: list[dict[str, Any]], layout: dict[str, Any],
                frames: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The dict go.Figure(data, layout, frames).to_dict() gives: the template in the layout, frames when any.

    The template goes first, so that with_overlay, which adds new keys last, gives the same key order as a
    builder that puts its overlay keys (shapes) last.
    """
    template = layout_template()
    if template is not None:
        layout = {"template": template, **layout}
    spec = {"data": data, "layout": layout}
    if frames:
        spec["frames"] = frames
    return spec


def _merged(base, changes):
    merged = dict(base)
    for key, value in changes.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def _decoded(value):
    """A copy of a spec with every typed array decoded, as go.Figure holds arrays that came in as numpy."""
    if is_typed_array(value):
        return decode_typed_array(value)
    if isinstance(value, dict):
        return {key: _decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decoded(item) for item in value]
    return value


class SpecFigure(go.Figure):
    """A go.Figure that is only its finished spec: built without validation, to_dict() returns the spec itself.

    st.plotly_chart takes any plotly BaseFigure as already valid (plotly.tools.return_figure_from_figure_or_data
    calls figure.to_dict() and nothing else) and then calls plotly.io.to_json(spec, validate=False); a plain
    dict would instead be validated through go.Figure(**spec), the slow path this class avoids.

    Read-only: go.Figure's editing methods (update_layout, add_trace, for_each_trace, ...) raise TypeError.
    `data`, `layout` and `frames` (and figure[...]) are read from a go.Figure built from the spec on first use,
    which validates it against plotly's schema: for tests and debugging, not for a rerun's hot path; what is
    assigned through them stays in that copy and never reaches the spec. `context` is what the builder keeps
    for drawing picks on a copy (see with_overlay); it is not part of the JSON.
    """

    def __init__(self, spec: dict[str, Any], context: Any = None) -> None:
        # go.Figure.__init__ is skipped on purpose: it would validate and copy the whole spec.
        self._spec = spec
        self._context = context
        self._checked: go.Figure | None = None
        self._size: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The spec itself, not a copy: callers must not mutate it (see the module's sharing rule)."""
        return self._spec

    @property
    def context(self) -> Any:
        return self._context

    @property
    def cached_size(self) -> int:
        """About the bytes the spec holds, for caches bounded by bytes: twice its JSON's length, measured once.

        The big parts are the typed arrays' base64 strings, which take their JSON length in memory; twice that
        covers the small dicts and lists around them. Walking every object took longer than building the figure.
        Parts shared with other figures (the template, an overlaid copy's traces) count in each.
        """
        if self._size is None:
            self._size = 2 * len(pio.to_json(self._spec, validate=False))
        return self._size

    def with_overlay(self, layout: dict[str, Any] | None = None, frames: list[dict[str, Any]] | None = None,
                     context: Any = None) -> SpecFigure:
        """A copy with layout keys replaced and, given `frames` (one dict per frame), keys of each frame's layout;
        `context` replaces the builder's context (what the overlay drew), when given.

        A value of None removes the key. Traces, frame data and every key not named are shared with this
        figure, not copied, so the copy costs a few small dicts whatever the figure's size.
        """
        spec = dict(self._spec)
        if layout:
            spec["layout"] = _merged(self._spec["layout"], layout)
        if frames is not None:
            spec["frames"] = [{**frame, "layout": _merged(frame.get("layout", {}), changes)}
                              for frame, changes in zip(self._spec.get("frames", []), frames, strict=True)]
        return SpecFigure(spec, self._context if context is None else context)

    def checked(self) -> go.Figure:
        """The spec as a validated go.Figure, built once; plotly raises here if the spec breaks its schema."""
        if self._checked is None:
            self._checked = go.Figure(_decoded(self._spec))
        return self._checked

    @property
    def data(self) -> Any:
        return self.checked().data

    @property
    def layout(self) -> Any:
        return self.checked().layout

    @property
    def frames(self) -> Any:
        return self.checked().frames

    def __getitem__(self, prop: str) -> Any:
        return self.checked()[prop]

    def __setitem__(self, prop: str, value: Any) -> None:
        _refuse("item assignment")

    def __getattr__(self, name: str) -> Any:
        # Only reached for the object tree go.Figure.__init__ would have built, which this class never has.
        raise AttributeError(f"SpecFigure has no {name!r}: it only holds its spec (see to_dict)")

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any], Any]]:
        return SpecFigure, (self._spec, self._context)

    def __repr__(self) -> str:
        # go.Figure's repr writes "..." over the template of the dict to_dict() returned: here the shared spec.
        layout = {key: value for key, value in self._spec["layout"].items() if key != "template"}
        return (f"SpecFigure({len(self._spec['data'])} traces, {len(self._spec.get('frames', []))} frames, "
                f"layout keys {sorted(layout)})")


def _refuse(what):
    raise TypeError(f"SpecFigure is read-only ({what} would change a spec that may be shared between sessions): "
                    "edit go.Figure(figure.to_dict()) instead")


def _refusing(name):
    def refused(self: SpecFigure, *args: Any, **kwargs: Any) -> None:
        _refuse(name)

    refused.__name__ = name
    return refused


# go.Figure's editing methods would write through the lazily validated copy (fig.layout) and never reach the
# spec, so they are refused outright.
for _name in dir(go.Figure):
    if re.match(r"(add_|update|append_|batch_|for_each_|plotly_|set_subplots$|pop$)", _name):
        setattr(SpecFigure, _name, _refusing(_name))
