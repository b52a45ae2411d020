"""What the Split <-> Join page works out from its settings, apart from its widgets and their layout.

The page script (app_pages/split_join.py) reads the widgets and lays out the result through ui/operator_page.py;
what lies between lives here: the settings as the page's objects (Controls as read, Settings as the core accepts
them), its presets and how a core fix becomes its URL settings, the texts about the settings and the drawn plane,
the formulas and pictures of a picked or asked element, and the panels of its operator calls. The heavy work itself
is ui/work.py's, shared between sessions.
"""

import dataclasses
import functools
import math

from ops import Call, DescriptorError, index_formula
from ops.descriptors.fixes import axis_fixes, count_fixes, even_split_fixes
from ops.guard import check_element_count
from ops.operators.base import check_axis
from viz.split_join_fig import WINDOW, default_view, input_only, window_bounds

from . import work
from .operator_page import Panels, Refused
from .panels import Arrays
from .say import md
from .toolbar import braced, sizes_text
from .values import parse_int_list

# The seed's examples: FLOAT32 {1,1,6,2} holding 1..12.
SEED_INPUT = dict(dtype="FLOAT32", pattern="sequence", start=1.0, delta=1.0, sj_sizes="1,1,6,2", sj_slice="",
                  sj_row0=0, sj_col0=0)
PRESETS = {name: dict({"sj_op": "split"}, **values) for name, values in {
    "Seed: Axis 2 into {1,1,2,2}, {1,1,1,2}, {1,1,3,2}": dict(SEED_INPUT, sj_axis=2, sj_mode="sizes",
                                                            sj_split="2,1,3"),
    "Seed: Axis 3 into two {1,1,6,1}": dict(SEED_INPUT, sj_axis=3, sj_mode="even", sj_parts=2),
    "JOIN {1,1,2,2}, {1,1,1,2}, {1,1,3,2} along Axis 2": dict(SEED_INPUT, sj_op="join", sj_axis=2, sj_inputs=3,
                                                            sj_join="2,1,3"),
}.items()}
# A fix's setting -> this page's URL key (the axis size is written into the Sizes text instead).
FIX_KEYS = {"output_sizes": "sj_split", "sizes": "sj_sizes", "parts": "sj_parts", "axis": "sj_axis",
            "count": "sj_inputs", "join_sizes": "sj_join"}


@dataclasses.dataclass(frozen=True)
class Controls:
    operation: str
    sizes_text: str
    axis: int
    split_text: str | None = None
    parts: int | None = None
    count: int | None = None
    join_text: str | None = None


@dataclasses.dataclass(frozen=True)
class Settings:
    """What the page draws: the whole tensor (JOIN's output read as the SPLIT that undoes it), Axis and the parts'
    sizes along it."""

    spec: object  # ui.work.ValueSpec
    sizes: tuple
    axis: int
    output_sizes: tuple
    join: bool

    @property
    def key(self):
        return self.spec, self.sizes, self.axis, self.output_sizes

    @property
    def split(self):
        return Call.of("SPLIT", [self.sizes], self.spec.data_type, axis=self.axis, sizes=self.output_sizes)

    @property
    def joining(self):
        return Call.of("JOIN", self.pieces, self.spec.data_type, axis=self.axis)

    @property
    def pieces(self):
        return tuple((*self.sizes[:self.axis], s, *self.sizes[self.axis + 1:]) for s in self.output_sizes)


def settings_line(c, data_type):
    """The controls as the parts of the line over the figure."""
    if c.operation == "join":
        return ["JOIN", f"{c.count} inputs, sizes {c.join_text.strip()} along Axis {c.axis}",
                f"{data_type} {joined_sizes_text(c)}"]
    outputs = f"sizes {c.split_text.strip()}" if c.split_text is not None else f"{c.parts} parts"
    return ["SPLIT, then JOIN", f"{data_type} {braced(c.sizes_text)}", f"Axis {c.axis}", outputs]


def joined_sizes_text(c):
    """JOIN's output sizes for the line over the figure: the Sizes field with the inputs' sizes along Axis summed
    there (the field's own entry at Axis is no size of anything: the line said {1,1,6,2} over an output of
    [1, 1, 3, 2]); the field as typed, when it does not parse."""
    try:
        sizes = parse_int_list(c.sizes_text, "Sizes")
        joined = sum(parse_int_list(c.join_text, "Input sizes along Axis", max_count=None))
    except DescriptorError:
        return braced(c.sizes_text)
    if not 0 <= c.axis < len(sizes):
        return braced(c.sizes_text)
    return "output " + sizes_text((*sizes[:c.axis], joined, *sizes[c.axis + 1:]))


def configure(c, spec):
    """The Settings the controls describe, with the sidebar's values `spec`; JOIN's output and inputs read as the
    SPLIT that undoes it. Refused (or DescriptorError) naming the field otherwise."""
    sizes = parse_int_list(c.sizes_text, "Sizes")
    check_element_count(sizes, "Sizes")
    try:
        axis = check_axis(c.axis, len(sizes))
    except DescriptorError as exc:
        raise Refused(str(exc), axis_fixes(c.axis, len(sizes))) from None
    if c.operation == "join":
        join_sizes = parse_int_list(c.join_text, "Input sizes along Axis", max_count=None)
        if c.count != len(join_sizes):
            raise Refused(f"Number of inputs {c.count}: Input sizes along Axis {list(join_sizes)} name "
                          f"{len(join_sizes)}", count_fixes(c.count, join_sizes))
        sizes, output_sizes = (*sizes[:axis], sum(join_sizes), *sizes[axis + 1:]), join_sizes
    elif c.split_text is not None:
        output_sizes = parse_int_list(c.split_text, "Output sizes along Axis", max_count=None)
    elif sizes[axis] % c.parts:
        raise Refused(f"Parts K = {c.parts}: the input's size {sizes[axis]} along Axis {axis} is not divisible "
                      f"by {c.parts}", even_split_fixes(sizes[axis], c.parts, axis))
    else:
        output_sizes = [sizes[axis] // c.parts] * c.parts
    check_element_count(sizes, "Sizes")
    return Settings(spec, tuple(sizes), axis, tuple(output_sizes), c.operation == "join")


def fix_settings(fix, c):
    """A core fix as this page's settings: the axis size goes into the Sizes text."""
    settings = {}
    for name, value in fix.changes:
        if name == "axis_size":
            sizes = parse_int_list(c.sizes_text, "Sizes")
            settings["sj_sizes"] = ",".join(str(s) for s in (*sizes[:c.axis], value, *sizes[c.axis + 1:]))
        else:
            # A fix names this page's settings, or the sidebar's own (the value pattern) by their keys.
            settings[FIX_KEYS.get(name, name)] = ",".join(map(str, value)) if isinstance(value, tuple) else value
    return settings


def slice_indices(text, other_dims):
    """Indices for the dims outside the drawn plane, in dim order; empty text means all 0."""
    if not other_dims or not text.strip():
        return {}
    values = parse_int_list(text, "Slice indices", minimum=0)
    if len(values) != len(other_dims):
        raise DescriptorError(f"Slice indices {list(values)}: need {len(other_dims)} (one each for dims {other_dims})")
    return dict(zip(other_dims, values))


def plane_line(s, view, start, fixed):
    """What the drawn plane is, for the line over the figure, and whether it is the whole tensor."""
    row0, row1, col0, col1 = window_bounds(s.sizes, view, start)
    row_dim, col_dim = view
    rows_text = "one row (1-D tensor)" if row_dim is None else f"rows = dim {row_dim}, indices {row0} to {row1 - 1}"
    parts = [f"Drawn plane: {rows_text}; columns = dim {col_dim}, indices {col0} to {col1 - 1}",
             f"other dims fixed at: {fixed_text(fixed)}"]
    return parts, (row1 - row0) * (col1 - col0) == math.prod(s.sizes)


def fixed_text(fixed):
    return ", ".join(f"dim {d} = {i}" for d, i in sorted(fixed.items())) or "none"


def plane_caption(s):
    return "At most 64 x 64 cells. The plane always contains Axis {}, so the cut shows. ".format(s.axis) + (
        "Colors = which input an element comes from; hover gives its index in that input and in the output. The "
        "inputs hold consecutive slabs of the sidebar's value pattern over the output, so each value spells where "
        "it lands. Play shows the output cut into its inputs and the inputs joined (JOIN)." if s.join else
        "Colors = which output an element goes to; hover gives its index in the input and in that output. Play "
        "peels the outputs off one by one (SPLIT) and then joins them back (JOIN).")


def outcome_text(s):
    """The parts' shapes under the figure; after a SPLIT, whether JOIN gives the input back."""
    outputs = work.split_parts(*s.key)
    shapes = ", ".join(f"[{k}] {list(o.shape)}" for k, o in enumerate(outputs))
    if s.join:
        return f"InputCount {len(outputs)}: {shapes} → OutputTensor {list(s.sizes)}."
    same = work.joined(*s.key).tobytes() == work.values(s.spec, s.sizes).tobytes()
    return md("OutputCount {}: {}. JOIN(SPLIT(x)) reproduces x bit for bit: **{}**.", len(outputs), shapes, same)


def split_formula(s, cell):
    return index_formula(s.split, cell)


def join_formula(s, cell):
    """JOIN's formula for the same element, read from the output of SPLIT it sits in."""
    return index_formula(s.joining, split_formula(s, cell).destination)


def picture_holding(s, index):
    """The figure of the plane and window that hold input element `index` (the first ones when None)."""
    view = default_view(len(s.sizes), s.axis)
    index = index or (0,) * len(s.sizes)
    fixed = tuple((d, int(index[d])) for d in range(len(s.sizes)) if d not in view)
    row_dim, col_dim = view
    start = (0 if row_dim is None else index[row_dim] // WINDOW * WINDOW, index[col_dim] // WINDOW * WINDOW)
    return work.split_picture(*s.key, view, fixed, start)


def reveal(s, question):
    """The question's element outlined in the input and in its output, in the plane and window that hold it."""
    return work.picked("split_join", picture_holding(s, question.source), tuple(int(i) for i in question.source))


def ask(s, question):
    """The input a question is about, without the answer: the element outlined when it is the input's."""
    cell = tuple(int(i) for i in question.cell) if question.kind == "where" else None
    return input_only(picture_holding(s, cell), cell)


def inputs_of(s):
    return [work.values(s.spec, s.sizes)]


def parts_of(s):
    return list(work.split_parts(*s.key))


def joined_of(s):
    return [work.joined(*s.key)]


def panels(s, refusal=None):
    """SPLIT's and JOIN's panels (JOIN's alone when it is set up from its inputs)."""
    data_type = s.spec.data_type
    join = Panels(Call("JOIN", data_type, s.pieces, (("axis", s.axis),)),
                  Arrays(("join", *s.key), functools.partial(parts_of, s), functools.partial(joined_of, s), refusal),
                  "sj_join_panels", "JOIN")
    if s.join:
        return [join]
    split = Panels(Call("SPLIT", data_type, (s.sizes,), (("axis", s.axis), ("sizes", s.output_sizes))),
                   Arrays(("split", *s.key), functools.partial(inputs_of, s), functools.partial(parts_of, s),
                          refusal), "sj_split_panels", "SPLIT")
    return [split, join]
