"""identify(x, y): which element of x every element of y came from, and the DirectML descriptor that does that.

x's values serve as keys: each must occur once in x (an origin-coded input guarantees it), and each value of y
is looked up among them. Where x and y share one data type the keys are the bit patterns (so -0.0, 0.0 and
NaN payloads stay distinct); otherwise both sides are compared by value in FLOAT64 (a framework may hand back
float64 or int64 for a float32 input). The resulting index map is then compared with every descriptor whose
shapes fit: DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1 for one 4-D x and y, SPLIT for a list y, JOIN for a list x.
"""

import dataclasses

import numpy as np

from ..datatypes import type_name, unsigned_of_width
from ..errors import DescriptorError
from ..guard import check_element_count, check_tensor
from ..operators.depth_space import (
    ORDERS,
    depth_to_space,
    depth_to_space_shape,
    space_to_depth,
)
from ..operators.index_maps import depth_to_space_map, join_map, space_to_depth_map, split_map

OFFENDING_SHOWN = 10
_ORDER_HINTS = {"DEPTH_COLUMN_ROW": "DCR", "COLUMN_ROW_DEPTH": "CRD"}


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


def block_size_between(depth_shape, space_shape):
    """The BlockSize turning depth_shape into space_shape by DEPTH_TO_SPACE1, or None."""
    if len(depth_shape) != 4 or len(space_shape) != 4 or space_shape[2] % depth_shape[2]:
        return None
    block_size = space_shape[2] // depth_shape[2]
    try:
        fits = depth_to_space_shape(depth_shape, block_size) == tuple(space_shape)
    except DescriptorError:
        return None
    return block_size if fits else None


def _agree_except_axis(shapes, reference, axis):
    return all(
        len(s) == len(reference) and all(s[d] == reference[d] for d in range(len(reference)) if d != axis)
        for s in shapes
    )


def _candidates(xs, ys, x_is_list, y_is_list, starts):
    """(descriptor, expected source arrays) for every descriptor whose shapes fit."""
    if not x_is_list and not y_is_list:
        x_shape, y_shape = xs[0].shape, ys[0].shape
        block_size = block_size_between(x_shape, y_shape)
        if block_size:
            for order in ORDERS:
                descriptor = {"operator": "DEPTH_TO_SPACE1", "BlockSize": block_size, "Order": order}
                yield descriptor, [depth_to_space_map(x_shape, block_size, order)]
        block_size = block_size_between(y_shape, x_shape)
        if block_size:
            for order in ORDERS:
                descriptor = {"operator": "SPACE_TO_DEPTH1", "BlockSize": block_size, "Order": order}
                yield descriptor, [space_to_depth_map(x_shape, block_size, order)]
    elif y_is_list and not x_is_list:
        x_shape = xs[0].shape
        for axis in range(len(x_shape)):
            sizes = [y.shape[axis] if y.ndim == len(x_shape) else 0 for y in ys]
            if _agree_except_axis([y.shape for y in ys], x_shape, axis) and sum(sizes) == x_shape[axis]:
                descriptor = {"operator": "SPLIT", "Axis": axis, "OutputCount": len(ys), "AxisSizes": sizes}
                yield descriptor, split_map(x_shape, axis, sizes)
    elif x_is_list and not y_is_list:
        y_shape = ys[0].shape
        for axis in range(len(y_shape)):
            sizes = [x.shape[axis] if x.ndim == len(y_shape) else 0 for x in xs]
            if _agree_except_axis([x.shape for x in xs], y_shape, axis) and sum(sizes) == y_shape[axis]:
                which, flat = join_map([x.shape for x in xs], axis)
                descriptor = {"operator": "JOIN", "Axis": axis, "InputCount": len(xs), "AxisSizes": sizes}
                yield descriptor, [np.asarray(starts, dtype=np.int64)[which] + flat]


def _channel_permutations(x_shape, y_shape, source):
    """Descriptors that match once x's channels (DEPTH_TO_SPACE1) or y's (SPACE_TO_DEPTH1) are permuted."""
    found = []
    flat = np.arange(int(np.prod(x_shape)), dtype=np.int64).reshape(x_shape)
    block_size = block_size_between(x_shape, y_shape)
    if block_size and block_size > 1:
        channels, plane = x_shape[1], x_shape[2] * x_shape[3]
        for order in ORDERS:
            # y == depth_to_space(x[:, P]) means space_to_depth(source) holds x[:, P]'s flat indices.
            depth = space_to_depth(source, block_size, order)
            p = (depth[0, :, 0, 0] // plane) % channels
            if np.array_equal(depth, flat[:, p]):
                descriptor = {"operator": "DEPTH_TO_SPACE1", "BlockSize": block_size, "Order": order}
                found.append({"descriptor": descriptor, "permutation": p, "applies_to": "input channels"})
    block_size = block_size_between(y_shape, x_shape)
    if block_size and block_size > 1:
        for order in ORDERS:
            plain = space_to_depth_map(x_shape, block_size, order)
            firsts = plain[0, :, 0, 0]
            ranked = np.argsort(firsts)
            position = np.minimum(np.searchsorted(firsts[ranked], source[0, :, 0, 0]), firsts.size - 1)
            p = ranked[position]
            if np.array_equal(plain[:, p], source):
                descriptor = {"operator": "SPACE_TO_DEPTH1", "BlockSize": block_size, "Order": order}
                found.append({"descriptor": descriptor, "permutation": p, "applies_to": "output channels"})
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


def describe(descriptor):
    """A descriptor dict in words: 'DEPTH_TO_SPACE1 with BlockSize 2 and Order COLUMN_ROW_DEPTH (CRD)'."""
    op = descriptor["operator"]
    if op in ("DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"):
        order = descriptor["Order"]
        return f"{op} with BlockSize {descriptor['BlockSize']} and Order {order} ({_ORDER_HINTS[order]})"
    count = "OutputCount" if op == "SPLIT" else "InputCount"
    return f"{op} along Axis {descriptor['Axis']} with {count} {descriptor[count]} (sizes {descriptor['AxisSizes']})"


def _short(permutation, shown=16):
    """A permutation for a sentence: whole when short, else its start and its length."""
    values = permutation.tolist()
    if len(values) <= shown:
        return str(values)
    return f"[{', '.join(map(str, values[:shown]))}, ...] ({len(values)} channels)"


def _kind(sources, x_count):
    flat = np.concatenate([s.ravel() for s in sources])
    if (flat < 0).any():
        return "not a rearrangement"
    uses = np.bincount(flat, minlength=x_count)
    if uses.max() > 1:
        return "broadcast"
    return "permutation" if (uses == 1).all() else "gather"


def _note(report, xs, ys, unmatched_total):
    sentences = []
    if report.compared_by == "value":
        types = sorted({type_name(a.dtype) for a in xs + ys})
        sentences.append(f"x and y differ in data type ({', '.join(types)}), so values were compared by value.")
    if report.kind == "not a rearrangement":
        first = report.offending[0]
        where = _where(ys, first["output"], first["index"])
        sentences.append(
            f"{report.unmatched_count:,} of {unmatched_total:,} values of y are not values of x, so y is not a "
            f"rearrangement of x; the first is y{where} = {first['value']!r}."
        )
        if report.near_matches:
            sentences.append(f"Everywhere else y agrees with {describe(report.near_matches[0])}.")
        return " ".join(sentences)
    identity = report.transpose is not None and report.transpose == tuple(range(len(report.transpose)))
    if report.matches:
        named = "; ".join(describe(m) for m in report.matches)
        sentences.append(f"y equals x, as through {named}." if identity else f"y is x through {named}.")
    elif report.permuted_matches:
        best = report.permuted_matches[0]
        p = best["permutation"]
        if best["applies_to"] == "input channels":
            how = (
                f"permuting x's channels first (x[:, P] with P = {_short(p)}) makes it {describe(best['descriptor'])}: "
                "a channel-order mix-up such as DCR for CRD; apply P to the preceding convolution's output channels "
                "(weights[P], bias[P])"
            )
        else:
            how = (
                f"y is {describe(best['descriptor'])} with its output channels permuted (y == out[:, P] with "
                f"P = {_short(p)}): a channel-order mix-up such as DCR for CRD; the following convolution can absorb P "
                "in its input channels"
            )
        sentences.append(f"No descriptor maps x to y as given, but {how}.")
    if report.transpose is not None and not report.matches:
        if identity:
            sentences.append("y equals x.")
        else:
            sentences.append(
                f"y is x transposed with axes {report.transpose}: every element kept, a rearrangement that none of "
                "DEPTH_TO_SPACE1, SPACE_TO_DEPTH1, SPLIT and JOIN reproduces."
            )
    elif not report.matches and not report.permuted_matches:
        meaning = {
            "permutation": "Every element of x appears exactly once in y, but in an order",
            "gather": "y holds some of x's elements, each at most once, in an arrangement",
            "broadcast": (
                "y repeats some of x's elements (as a broadcast or a gather with repeats does), in an arrangement"
            ),
        }[report.kind]
        sentences.append(
            f"{meaning} that none of DEPTH_TO_SPACE1, SPACE_TO_DEPTH1, SPLIT and JOIN reproduces; "
            "the index map shows where each element came from."
        )
    return " ".join(sentences)


def identify(x, y):
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

    offending, unmatched = [], 0
    for i, (y_array, source) in enumerate(zip(ys, sources)):
        missing = np.argwhere(source < 0)
        unmatched += len(missing)
        for index in missing[: OFFENDING_SHOWN - len(offending)]:
            index = tuple(int(k) for k in index)
            offending.append({"output": i, "index": index, "value": y_array[index].item()})

    matches, near = [], []
    for descriptor, expected in _candidates(xs, ys, x_is_list, y_is_list, starts):
        if all(np.array_equal(e, s) for e, s in zip(expected, sources)):
            matches.append(descriptor)
        elif unmatched and all(np.array_equal(e[s >= 0], s[s >= 0]) for e, s in zip(expected, sources)):
            near.append(descriptor)

    single = not x_is_list and not y_is_list
    permuted = []
    if single and kind == "permutation" and not matches and xs[0].ndim == 4 and ys[0].ndim == 4:
        permuted = _channel_permutations(xs[0].shape, ys[0].shape, sources[0])
    transpose = _transpose_axes(xs[0].shape, sources[0]) if single and kind == "permutation" else None

    report = IdentifyReport(
        matches=matches,
        source_index=sources if y_is_list else sources[0],
        permutation=permuted[0]["permutation"] if permuted else None,
        permuted_matches=permuted,
        kind=kind,
        offending=offending,
        unmatched_count=unmatched,
        near_matches=near,
        transpose=transpose,
        input_starts=starts,
        compared_by="bits" if by_bits else "value",
        note="",
    )
    report.note = _note(report, xs, ys, sum(a.size for a in ys))
    return report



def descriptor_sources(x_shape, descriptor, permutation=None, applies_to="input channels"):
    """Where each output element of a DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 descriptor comes from in x (flat indices),
    optionally with a channel permutation applied as permuted_matches describe it."""
    operator, block_size, order = descriptor["operator"], descriptor["BlockSize"], descriptor["Order"]
    flat = np.arange(int(np.prod(x_shape)), dtype=np.int64).reshape(x_shape)
    if operator == "DEPTH_TO_SPACE1":
        if permutation is not None and applies_to == "input channels":
            flat = flat[:, permutation]
        return depth_to_space(flat, block_size, order)
    if operator != "SPACE_TO_DEPTH1":
        raise DescriptorError(f"operator {operator!r}: expected DEPTH_TO_SPACE1 or SPACE_TO_DEPTH1")
    sources = space_to_depth(flat, block_size, order)
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
