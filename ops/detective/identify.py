"""identify(x, y): which element of x every element of y came from, and the DirectML descriptor that does that.

x's values serve as keys: each must occur once in x (an origin-coded input guarantees it), and each value of y
is looked up among them. Where x and y share one data type the keys are the bit patterns (so -0.0, 0.0 and
NaN payloads stay distinct); otherwise both sides are compared by value in FLOAT64 (a framework may hand back
float64 or int64 for a float32 input). The resulting index map is then compared with every descriptor the
registered operators propose for these shapes, or for where the elements came from (Operator.inferred:
DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1 for one 4-D x and y, SPLIT for a list y, JOIN for a list x, a slice's window, a
pad's widths and mode, a tile's repeats, an upsample's scales read off the index map), each run on indices
(Operator.index_map)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from ..datatypes import type_name, unsigned_of_width
from ..errors import DescriptorError
from ..guard import check_element_count, check_tensor
from ..operators import OPERATORS, Call, Operator, operator
from ..operators.base import INPUT, INPUTS, OUTPUT, OUTPUTS

OFFENDING_SHOWN = 10


@dataclasses.dataclass
class IdentifyReport:
    """What identify() found.

    matches: descriptors (dicts) that map x to y exactly, e.g. {"operator": "DEPTH_TO_SPACE1", "BlockSize": 2,
        "Order": "COLUMN_ROW_DEPTH"}, {"operator": "SPLIT", "Axis": 2, "OutputCount": 3, "AxisSizes": [2, 1, 3]},
        {"operator": "JOIN", "Axis": 1, "InputCount": 2, "AxisSizes": [3, 5]}.
    source_index: int64 array of y's shape: for each element of y the flat (row-major) index in x it came from,
        -1 where its value is not in x; a list of such arrays when y is a list. When x is a list, indices count
        through the inputs in order (input i's element j is input_starts[i] + j).
    permutation: when no descriptor matches but a channel permutation P makes a DEPTH_TO_SPACE1 or
        SPACE_TO_DEPTH1 match: P of the simplest such match (permuted_matches[0]), else None.
    permuted_matches: every such match, fewest moved channels first, as dicts {"descriptor": {...},
        "permutation": P, "applies_to": "input channels" (y == depth_to_space(x[:, P], ...)) or "output channels"
        (y == space_to_depth(x, ...)[:, P])}.
    kind: "permutation" (every element of x exactly once), "gather" (each at most once, some left out),
        "broadcast" (some element of x several times) or "not a rearrangement" (some values of y are not in x).
    offending: the first OFFENDING_SHOWN elements of y whose value is not in x, as dicts {"output": i,
        "index": (..), "value": v}, in output order then row-major order; unmatched_count counts them all.
    near_matches: descriptors y agrees with everywhere except at the offending elements.
    index_matches: descriptors of operators that choose elements by an IndicesTensor (GATHER, GATHER_ELEMENTS) that
        reproduce y, each with that IndicesTensor: e.g. {"operator": "GATHER", "Axis": 1, "IndexDimensions": 1,
        "IndicesTensor": {"DataType": "UINT32", "Sizes": [1, 1, 3]}, "Indices": [2, 0, 1]}; "InputTensor":
        {"Sizes": [...]} where x takes leading 1s to share y's DimensionCount.
    transpose: axes with y == x.transpose(axes) when y is a transpose of x (the identity included), else None.
    compared_by: "bits" or "value" (see the module's docstring).
    """

    matches: list
    source_index: object
    permutation: object
    permuted_matches: list
    kind: str
    offending: list
    unmatched_count: int
    near_matches: list
    index_matches: list
    transpose: tuple | None
    input_starts: tuple
    compared_by: str
    note: str

    def source_input_and_index(self):
        """(which input, flat index in that input) arrays for every element of y (both -1 where none);
        lists of such arrays when y is a list."""
        starts = np.asarray(self.input_starts, dtype=np.int64)

        def split(source):
            which = np.searchsorted(starts, source, side="right") - 1
            which = np.where(source < 0, -1, which)
            return which, np.where(source < 0, -1, source - starts[np.maximum(which, 0)])

        if isinstance(self.source_index, list):
            pairs = [split(s) for s in self.source_index]
            return [p[0] for p in pairs], [p[1] for p in pairs]
        return split(self.source_index)


def _arrays(value, field):
    if isinstance(value, np.ndarray):
        return [check_tensor(value, field, dims=(1, 8))], False
    if isinstance(value, (list, tuple)) and len(value) > 0:
        return [check_tensor(a, f"{field}[{i}]", dims=(1, 8)) for i, a in enumerate(value)], True
    raise DescriptorError(f"{field}: expected a numpy array or a non-empty list of numpy arrays")


def _keys(array, by_bits):
    flat = np.ascontiguousarray(array).ravel()
    if by_bits:
        return flat.view(unsigned_of_width(flat.dtype.itemsize)).astype(np.uint64)
    return flat.astype(np.float64)


def _element(arrays, starts, flat):
    """(input number, multi-index, value) of a flat index counted through all arrays."""
    which = int(np.searchsorted(starts, flat, side="right") - 1)
    index = np.unravel_index(flat - starts[which], arrays[which].shape)
    index = tuple(int(i) for i in index)
    return which, index, arrays[which][index].item()


def _where(arrays, which, index):
    prefix = f"[{which}]" if len(arrays) > 1 else ""
    return f"{prefix}[{', '.join(map(str, index))}]"


def _sources(xs, ys, by_bits):
    """Flat index into x for every element of every y, -1 where the value is not in x."""
    keys = np.concatenate([_keys(a, by_bits) for a in xs])
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    repeated = np.flatnonzero(ordered[1:] == ordered[:-1])
    if repeated.size:
        first, second = sorted(int(i) for i in order[repeated[0]:repeated[0] + 2])
        starts = np.cumsum([0] + [a.size for a in xs])[:-1]
        which, index, value = _element(xs, starts, first)
        which2, index2, _ = _element(xs, starts, second)
        raise DescriptorError(
            f"x values: {value!r} appears at x{_where(xs, which, index)} and x{_where(xs, which2, index2)}; "
            "the detective needs every value of x to be distinct so that a value names its element "
            "(ops.origin_coded_input makes such an input)"
        )
    sources = []
    for y in ys:
        wanted = _keys(y, by_bits)
        position = np.minimum(np.searchsorted(ordered, wanted), ordered.size - 1)
        found = ordered[position] == wanted
        sources.append(np.where(found, order[position], -1).reshape(y.shape))
    return sources


def _many(op, single, array):
    """Whether the operator's inputs (single INPUT, array INPUTS) or outputs come as a list: an array field, or
    more than one tensor field."""
    return [f.kind for f in op.fields if f.kind in (single, array)] != [single]


def _suspects(x_is_list, y_is_list):
    """The operators whose inputs and outputs come as x and y do: one array or a list."""
    return [op for op in OPERATORS.values()
            if _many(op, INPUT, INPUTS) == x_is_list and _many(op, OUTPUT, OUTPUTS) == y_is_list]


def _named_operators():
    """The operators the detective can name: those that propose descriptors for given shapes or source maps."""
    return [op.name for op in OPERATORS.values() if type(op).candidates is not Operator.candidates
            or type(op).index_candidates is not Operator.index_candidates or type(op).inferred is not Operator.inferred]


def _descriptor(op, input_shapes, attrs):
    return {"operator": op.name, **op.descriptor_settings(input_shapes, attrs)}


def _candidates(xs, ys, x_is_list, y_is_list, starts, sources):
    """(descriptor, expected source arrays) for every descriptor the shapes, or where the elements came from,
    suggest."""
    x_shapes, y_shapes = [x.shape for x in xs], [y.shape for y in ys]
    offsets = np.asarray(starts, dtype=np.int64)
    for op in _suspects(x_is_list, y_is_list):
        for attrs in op.inferred(x_shapes, y_shapes, sources if y_is_list else sources[0], ys):
            maps = op.index_map(x_shapes, **attrs)
            # Flat indices count through all the inputs: input i's element j is starts[i] + j.
            expected = [flat if len(xs) == 1 else offsets[which] + flat for which, flat in maps]
            yield _descriptor(op, x_shapes, attrs), expected


def _index_matches(x_shape, y_shape, source):
    """Descriptors with an IndicesTensor that reproduce `source`, each verified by running its operator on x's flat
    indices."""
    found = []
    for op in OPERATORS.values():
        for settings, inputs, attrs in op.index_candidates(x_shape, y_shape, source):
            [ran] = op.run(inputs, **attrs)
            if ran.size == source.size and np.array_equal(ran.reshape(source.shape), source):
                found.append({"operator": op.name, **settings})
    return sorted(found, key=lambda m: len(m["Indices"]))


def _channel_mix_ups(x_shape, y_shape, source):
    """Descriptors that match once x's or y's channels are permuted, fewest moved channels first."""
    found = [{"descriptor": _descriptor(op, [x_shape], attrs), "permutation": p, "applies_to": applies_to}
             for op in _suspects(False, False)
             for attrs, p, applies_to in op.channel_mix_ups(x_shape, y_shape, source)]
    return sorted(found, key=lambda m: int((m["permutation"] != np.arange(m["permutation"].size)).sum()))


def _transpose_axes(x_shape, source):
    """axes with source == arange(x).reshape(x_shape).transpose(axes), or None."""
    if source.ndim != len(x_shape):
        return None
    strides = np.cumprod((1,) + tuple(x_shape[:0:-1]))[::-1]
    origin = source[(0,) * source.ndim]
    axes, used = [], set()
    for axis, size in enumerate(source.shape):
        if size == 1:
            axes.append(None)
            continue
        step = [0] * source.ndim
        step[axis] = 1
        stride = int(source[tuple(step)] - origin)
        candidates = (j for j in range(len(x_shape)) if j not in used and x_shape[j] == size and strides[j] == stride)
        match = next(candidates, None)
        if match is None:
            return None
        axes.append(match)
        used.add(match)
    spare = iter(j for j in range(len(x_shape)) if j not in used)
    axes = tuple(next(spare) if a is None else a for a in axes)
    flat = np.arange(source.size, dtype=np.int64).reshape(x_shape)
    return axes if np.array_equal(flat.transpose(axes), source) else None


def descriptor_call(descriptor, x_shapes, y_shapes, data_type):
    """The registry's Call of a descriptor identify() reported for inputs of `x_shapes` and outputs of
    `y_shapes`."""
    op = operator(descriptor["operator"], "operator")
    # A descriptor the shapes propose, or else one whose settings are all fields (read off where elements came from).
    attrs = next((a for a in op.candidates(x_shapes, y_shapes) if _descriptor(op, x_shapes, a) == descriptor),
                 None) or op.settings_attrs(descriptor)
    return Call.of(op.name, x_shapes, data_type, **attrs)


def describe(descriptor):
    """A descriptor dict in words, as its operator says it: 'DEPTH_TO_SPACE1 with BlockSize 2 and Order
    COLUMN_ROW_DEPTH (CRD)'."""
    return operator(descriptor["operator"], "operator").describe(descriptor)


def _kind(sources, x_count):
    flat = np.concatenate([s.ravel() for s in sources])
    if (flat < 0).any():
        return "not a rearrangement"
    uses = np.bincount(flat, minlength=x_count)
    if uses.max() > 1:
        return "broadcast"
    return "permutation" if (uses == 1).all() else "gather"


def _none_of():
    """'none of DEPTH_TO_SPACE1, SPACE_TO_DEPTH1, SPLIT and JOIN reproduces'."""
    *others, last = _named_operators()
    return f"none of {', '.join(others)} and {last} reproduces" if others else f"{last} does not reproduce"


def _unmatched_note(report, ys, unmatched_total):
    first = report.offending[0]
    where = _where(ys, first["output"], first["index"])
    if report.matches:  # a descriptor that writes values of its own (a constant pad's) where it reads nothing
        return [f"y is x through {'; '.join(describe(m) for m in report.matches)}, which writes the "
                f"{report.unmatched_count:,} values of y that are not x's itself (the first: y{where} = "
                f"{first['value']!r})."]
    sentences = [f"{report.unmatched_count:,} of {unmatched_total:,} values of y are not values of x, so y is not a "
                 f"rearrangement of x; the first is y{where} = {first['value']!r}."]
    if report.near_matches:
        sentences.append(f"Everywhere else y agrees with {describe(report.near_matches[0])}.")
    return sentences


def _rearrangement_note(report):
    """What a rearrangement (every value of y a value of x) is: a descriptor, one after a channel permutation, a
    transpose, or none of these."""
    identity = report.transpose is not None and report.transpose == tuple(range(len(report.transpose)))
    sentences = []
    if report.matches:
        named = "; ".join(describe(m) for m in report.matches)
        sentences.append(f"y equals x, as through {named}." if identity else f"y is x through {named}.")
        if report.index_matches and report.kind == "permutation" and not identity:  # a reversal: SLICE1 and GATHER
            sentences.append(f"{describe(report.index_matches[0])} reproduces it too.")
    elif report.permuted_matches:
        best = report.permuted_matches[0]
        advice = operator(best["descriptor"]["operator"]).mix_up_advice(best)
        sentences.append(f"No descriptor maps x to y as given, but {advice}.")
    if report.transpose is not None and not report.matches:
        sentences.append("y equals x." if identity else f"y is x transposed with axes {report.transpose}: every "
                         f"element kept, a rearrangement that {_none_of()}.")
    elif not report.matches and not report.permuted_matches:
        meaning = {
            "permutation": "Every element of x appears exactly once in y, but in an order",
            "gather": "y holds some of x's elements, each at most once, in an arrangement",
            "broadcast": (
                "y repeats some of x's elements (as a broadcast or a gather with repeats does), in an arrangement"
            ),
        }[report.kind]
        if report.index_matches:  # the fewest indices first
            sentences.append(f"{meaning} that {describe(report.index_matches[0])} reproduces.")
        else:
            sentences.append(f"{meaning} that {_none_of()}; the index map shows where each element came from.")
    return sentences


def _note(report, xs, ys, unmatched_total):
    sentences = []
    if report.compared_by == "value":
        types = sorted({type_name(a.dtype) for a in xs + ys})
        sentences.append(f"x and y differ in data type ({', '.join(types)}), so values were compared by value.")
    if report.kind == "not a rearrangement":
        sentences += _unmatched_note(report, ys, unmatched_total)
    else:
        sentences += _rearrangement_note(report)
    return " ".join(sentences)


def _offending(ys, sources):
    """The first OFFENDING_SHOWN elements of y whose value is not in x, and how many there are."""
    offending, unmatched = [], 0
    for i, (y_array, source) in enumerate(zip(ys, sources)):
        missing = np.argwhere(source < 0)
        unmatched += len(missing)
        for index in missing[: OFFENDING_SHOWN - len(offending)]:
            index = tuple(int(k) for k in index)
            offending.append({"output": i, "index": index, "value": y_array[index].item()})
    return offending, unmatched


def _matches(xs, ys, x_is_list, y_is_list, starts, sources, unmatched):
    """(descriptors that map x to y, descriptors y agrees with everywhere but at its unmatched elements)."""
    matches, near = [], []
    for descriptor, expected in _candidates(xs, ys, x_is_list, y_is_list, starts, sources):
        if all(np.array_equal(e, s) for e, s in zip(expected, sources)):
            matches.append(descriptor)
        elif unmatched and all(np.array_equal(e[s >= 0], s[s >= 0]) for e, s in zip(expected, sources)):
            near.append(descriptor)
    return matches, near


def identify(x: np.ndarray | Sequence[np.ndarray], y: np.ndarray | Sequence[np.ndarray]) -> IdentifyReport:
    """Where every element of y came from in x, and the DirectML descriptors that reproduce it (see IdentifyReport).

    x is an array, or a list of arrays (the inputs of a join); y is an array, or a list (the outputs of a split).
    Every value of x must be distinct (DescriptorError otherwise, naming two equal elements).
    """
    xs, x_is_list = _arrays(x, "x")
    ys, y_is_list = _arrays(y, "y")
    x_count = sum(a.size for a in xs)
    check_element_count((x_count,), "x Sizes (all inputs together)")
    check_element_count((sum(a.size for a in ys),), "y Sizes (all outputs together)")
    by_bits = len({a.dtype for a in xs + ys}) == 1
    starts = tuple(int(s) for s in np.cumsum([0] + [a.size for a in xs])[:-1])
    sources = _sources(xs, ys, by_bits)
    kind = _kind(sources, x_count)
    offending, unmatched = _offending(ys, sources)
    matches, near = _matches(xs, ys, x_is_list, y_is_list, starts, sources, unmatched)

    single = not x_is_list and not y_is_list
    permuted = []
    if single and kind == "permutation" and not matches:
        permuted = _channel_mix_ups(xs[0].shape, ys[0].shape, sources[0])
    transpose = _transpose_axes(xs[0].shape, sources[0]) if single and kind == "permutation" else None
    indexed = _index_matches(xs[0].shape, ys[0].shape, sources[0]) if single and kind != "not a rearrangement" else []

    report = IdentifyReport(
        matches=matches,
        source_index=sources if y_is_list else sources[0],
        permutation=permuted[0]["permutation"] if permuted else None,
        permuted_matches=permuted,
        kind=kind,
        offending=offending,
        unmatched_count=unmatched,
        near_matches=near,
        index_matches=indexed,
        transpose=transpose,
        input_starts=starts,
        compared_by="bits" if by_bits else "value",
        note="",
    )
    report.note = _note(report, xs, ys, sum(a.size for a in ys))
    return report


def descriptor_sources(x_shape, descriptor, permutation=None, applies_to="input channels"):
    """Where each output element of a one-input, one-output descriptor (as identify reports it) comes from in x
    (flat indices), optionally with a channel permutation applied as permuted_matches describe it."""
    op = operator(descriptor["operator"], "operator")
    attrs = op.settings_attrs(descriptor)
    flat = np.arange(int(np.prod(x_shape)), dtype=np.int64).reshape(x_shape)
    if permutation is not None and applies_to == "input channels":
        flat = flat[:, permutation]
    outputs = op.run([flat], **attrs)
    if len(outputs) != 1:
        raise DescriptorError(f"operator {op.name}: has {len(outputs)} outputs; expected a one-output descriptor")
    sources = outputs[0]
    return sources if permutation is None or applies_to != "output channels" else sources[:, permutation]


def mix_up_diff(report, x_shape):
    """For the best channel-permuted match of a report: which cells of y differ from the descriptor applied as
    given ("before") and with the permutation applied ("after"), as boolean arrays of y's shape; None when the
    report has no permuted match."""
    if not report.permuted_matches:
        return None
    best = report.permuted_matches[0]
    before = descriptor_sources(x_shape, best["descriptor"])
    after = descriptor_sources(x_shape, best["descriptor"], best["permutation"], best["applies_to"])
    return {"descriptor": best["descriptor"], "before": before != report.source_index,
            "after": after != report.source_index}
