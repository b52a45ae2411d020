"""What the operator pages compute, as shared functions of their settings.

Identical settings are the common case when a class opens one link: each function here runs once per distinct
argument tuple for the whole server (ui.shared's byte-bounded cache, one computation at a time per key), and a
result too large to keep is recomputed rather than held. Arguments are small hashable descriptions (a ValueSpec,
shapes, attributes), never arrays, so a cached figure or summary never pins a tensor in memory. Cached arrays are
made read-only: many sessions share them.
"""

import dataclasses
import math

import numpy as np

from ops import OPERATORS, DescriptorError, channel_permutation, cross_check, framework_snippets, numpy_dtype
from ops import run as run_operator
from ops.detective.channels import inverse_permutation
from ops.detective.origin import to_npy_bytes
from ops.guard import element_cap
from ops.operators.bitwise import bit_or
from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.operators.split_join import join, split
from viz import bitwise_fig, converter_fig, depth_space_fig, split_join_fig

from .shared import BYTE_SECONDS, CACHE, in_background, shared
from .values import make_values

DIFF_ROWS = 20
# A cross-check a runtime could not answer for the moment (DirectML busy with other calls, its worker restarted) is
# kept this long, for the pages polling for it (every 0.5 s, ui.panels) to show it, then asked again when a page
# needs it: it is no verdict, and used to stay the answer for as long as it was cached.
RETRY_SECONDS = 3
# A cross-check on both runtimes, per byte of the call's tensors (inputs and outputs), measured on this project's
# 2-core machine: a FLOAT32 {1,64,256,500} DEPTH_TO_SPACE1 (31 MB in, 31 MB out) took 0.64 s on DirectML and 0.16 s
# on ONNX Runtime, and grew the server by 156 MB on DirectML (the request, the output buffers, the answer, the arrays
# read back), 70 MB on ONNX Runtime, one after the other.
CHECK_BYTE_SECONDS = 1.25e-8
CHECK_COPIES = 3
# A view's work for each part of a SPLIT or JOIN, cross-checks included, measured on this project's 2-core machine
# (support/costs.py; tests/unit/test_hostile_costs.py keeps the estimate above the measure): 2,000 parts 0.54 s,
# 5,003 1.17 s, 10,000 2.3 s, 20,000 5.3 s, 40,000 14.2 s of CPU (ONNX Runtime's sessions and the tables of parts grow
# faster than the parts), and 5-10 KB of memory a part (21 MB at 2,000, 193 MB at 40,000). The estimate used to be
# 2 ms a part, from a 65,536-part view: eight times the cost at 5,000 parts.
PART_SECONDS = 2e-4
PART_PAIR_SECONDS = 4e-9
PART_BYTES = 10 << 10


def view_seconds(nbytes, parts=1):
    """The CPU seconds a view is expected to take, from the bytes it reserves and its parts (ui.shared.admitted)."""
    return nbytes * BYTE_SECONDS + parts * PART_SECONDS + parts * parts * PART_PAIR_SECONDS


@dataclasses.dataclass(frozen=True)
class ValueSpec:
    """How a tensor's values are made: the sidebar's pattern, type and its parameters."""

    pattern: str
    data_type: str
    seed: int = 0
    start: float = 0.0
    delta: float = 1.0
    text: str = ""

    def kwargs(self):
        return dict(seed=self.seed, start=self.start, delta=self.delta, text=self.text)

    def nbytes(self, shape):
        """Bytes of a tensor of `shape`; 0 past the element cap, which refuses it before anything is allocated."""
        count = math.prod(shape)
        return count * numpy_dtype(self.data_type).itemsize if 0 < count <= element_cap() else 0


def _frozen(array):
    array.flags.writeable = False
    return array


@shared
def values(spec, shape):
    """The input tensor of `shape` filled by `spec`; DescriptorError for sizes or typed values that cannot be."""
    return _frozen(make_values(spec.pattern, shape, spec.data_type, **spec.kwargs()))


# ---------------------------------------------------------------- depth <-> space


@shared
def depth_space(spec, shape, block_size, order, direction):
    operator = depth_to_space if direction == "depth_to_space" else space_to_depth
    return _frozen(operator(values(spec, shape), block_size, order))


@shared
def depth_space_picture(spec, shape, block_size, order, direction, window, width_px):
    """The figure of the drawn window without a pick: shared by every visitor and every click (see picked)."""
    x = values(spec, shape)
    return depth_space_fig.depth_space_figure(x, depth_space(spec, shape, block_size, order, direction), block_size,
                                              order, direction, window, width_px=width_px)


# ---------------------------------------------------------------- the bitwise family


@dataclasses.dataclass(frozen=True)
class OrOperands:
    """The operands of the Bitwise page's operator `op` (ELEMENT_WISE_BIT_OR unless chosen): A from the sidebar
    pattern, B (binary operators only) typed or derived, broadcast along dims; `attrs` the operator's attributes as
    (name, value) pairs (BIT_COUNT's output_type)."""

    spec: ValueSpec
    sizes: tuple
    broadcast: tuple = ()
    b_text: str | None = None  # typed B values, or None: derived from A's pattern
    op: str = "ELEMENT_WISE_BIT_OR"
    attrs: tuple = ()

    @property
    def operator(self):
        return OPERATORS[self.op]

    @property
    def binary(self):
        return self.operator.arity[0] == 2

    @property
    def b_sizes(self):
        return tuple(1 if d in self.broadcast else s for d, s in enumerate(self.sizes))


def _derived_b(a, operands):
    """A second operand that differs from A but follows the same pattern."""
    spec = operands.spec
    if spec.pattern in ("random", "random_bytes"):
        return values(dataclasses.replace(spec, seed=spec.seed + 1), operands.b_sizes)
    if spec.pattern == "sequence":
        return values(dataclasses.replace(spec, start=spec.start + spec.delta * a.size), operands.b_sizes)
    first_slice = tuple(slice(0, 1) if d in operands.broadcast else slice(None) for d in range(a.ndim))
    return np.flip(a[first_slice])


@shared
def or_operands(operands):
    """(A, B stored, B as DirectML reads it through 0 strides), B None for a unary operator; DescriptorError for
    values that cannot be, naming the operand."""
    try:
        a = values(operands.spec, operands.sizes)
    except DescriptorError as error:
        raise DescriptorError(str(error).replace("Values", "A's values (Values, in the sidebar)", 1)) from None
    if not operands.binary:
        return a, None, None
    if operands.b_text is not None:
        typed = dataclasses.replace(operands.spec, pattern="custom", text=operands.b_text)
        try:
            b_stored = values(typed, operands.b_sizes)
        except DescriptorError as error:
            raise DescriptorError(str(error).replace("Values", "B typed values", 1)) from None
    else:
        b_stored = _derived_b(a, operands)
    # The figure, the cross-check and the export all want B's full values: spelled out once here.
    b = np.ascontiguousarray(np.broadcast_to(b_stored, operands.sizes))
    return a, _frozen(np.ascontiguousarray(b_stored)), _frozen(b)


def or_inputs(operands):
    """The operator's input arrays: [A, B as DirectML reads it], or [A]."""
    a, _, b = or_operands(operands)
    return [a] if b is None else [a, b]


@shared
def or_output(operands):
    """The operator's output, run through the registry (ops.run); DescriptorError naming the field it refuses."""
    return _frozen(run_operator(operands.op, or_inputs(operands), **dict(operands.attrs))[0])


@shared
def or_picture(operands, first, stop, in_place, fit_height=bitwise_fig.FIT_HEIGHT):
    a, _, b = or_operands(operands)
    out = or_output(operands)
    return bitwise_fig.bitwise_figure(*(None if x is None else x.reshape(-1)[first:stop] for x in (a, b, out)),
                                      in_place=in_place, index_offset=first, fit_height=fit_height, op=operands.op)


# ---------------------------------------------------------------- split <-> join


@shared
def split_parts(spec, sizes, axis, output_sizes):
    return tuple(_frozen(np.ascontiguousarray(p)) for p in split(values(spec, sizes), axis, list(output_sizes)))


@shared
def joined(spec, sizes, axis, output_sizes):
    return _frozen(join(list(split_parts(spec, sizes, axis, output_sizes)), axis))


@shared
def split_picture(spec, sizes, axis, output_sizes, view, fixed, start, join=False):
    return split_join_fig.split_join_figure(values(spec, sizes), axis, list(output_sizes), view=view,
                                            fixed=dict(fixed), start=start, join=join)


PICKERS = {"depth_space": depth_space_fig.with_pick, "bitwise": bitwise_fig.with_pick,
           "split_join": split_join_fig.with_pick}


def picked(kind, figure, pick):
    """A shared figure with this session's pick drawn on a cheap copy (the figure itself is never changed)."""
    return figure if pick is None else PICKERS[kind](figure, pick)


# ---------------------------------------------------------------- the same operation elsewhere


@shared
def snippets(op, input_sizes, data_type, settings):
    """framework_snippets for one call (settings: sorted (name, value) pairs), as a tuple of Snippets."""
    return tuple(framework_snippets(op, input_sizes, data_type, **dict(settings)))


# ---------------------------------------------------------------- the DCR <-> CRD converter


@shared
def conversion(channels, block_size, source, target):
    """(P, its inverse Q) with depth_to_space(x[:, P], block_size, target) == depth_to_space(x, ..., source)."""
    p = channel_permutation(channels, block_size, source, target)
    return _frozen(p), _frozen(inverse_permutation(p))


@shared
def conversion_picture(channels, block_size, source, target):
    return converter_fig.converter_figure(conversion(channels, block_size, source, target)[0], block_size,
                                          source, target)


def permutation_text(channels, block_size, source, target, which):
    """P (which=0) or its inverse Q (which=1) as text numpy.loadtxt(..., delimiter=",", dtype=int) reads back."""
    p = conversion(channels, block_size, source, target)[which]
    meaning = (f"depth_to_space(x[:, P], {block_size}, {target}) == depth_to_space(x, {block_size}, {source})"
               if which == 0 else "Q[P] == arange(C): Q undoes the reordering x[:, P]")
    name = "P" if which == 0 else "Q"
    return f"# {name} for C={channels}, BlockSize={block_size}: {meaning}\n" + ", ".join(map(str, p.tolist())) + "\n"


def permutation_npy(channels, block_size, source, target, which):
    return to_npy_bytes(conversion(channels, block_size, source, target)[which])


# ---------------------------------------------------------------- the cross-check, kept without its arrays


@dataclasses.dataclass(frozen=True)
class CheckSummary:
    """What the Cross-check panel shows of one runtime's run: the verdict and at most DIFF_ROWS differences."""

    runtime: str  # "directml" or "onnxruntime"
    provider: str | None
    available: bool
    matches: bool
    note: str
    ort_version: str | None
    first_mismatch: tuple | None = None
    shapes: tuple = ()  # (expected shape, actual shape) of the first differing output when their forms differ
    rows: tuple = ()  # (index, expected, actual) texts of the first differing elements
    differing: int = 0
    total: int = 0
    transient: bool = False  # the runtime did not answer for the moment: asked again after RETRY_SECONDS


def summarize(report):
    """A CrossCheckReport without its arrays: only what a person reads stays in the cache."""
    fields = dict(runtime=report.runtime, provider=report.provider, available=report.available,
                  matches=report.matches, note=report.note, ort_version=report.ort_version,
                  first_mismatch=report.first_mismatch, transient=report.transient)
    if report.matches or not report.available or report.first_mismatch is None:
        return CheckSummary(**fields)
    output, index = report.first_mismatch
    expected = np.asarray(report.expected[output])
    actual = np.asarray(report.actual[output]) if output < len(report.actual) else None
    if index is None or actual is None or actual.shape != expected.shape:
        return CheckSummary(**fields, shapes=(tuple(expected.shape), None if actual is None else tuple(actual.shape)))
    width = f"u{expected.dtype.itemsize}"
    differ = expected.view(width) != actual.view(width)
    where = np.argwhere(differ)[:DIFF_ROWS]
    rows = tuple((str(tuple(int(i) for i in w)), str(expected[tuple(w)]), str(actual[tuple(w)])) for w in where)
    return CheckSummary(**fields, rows=rows, differing=int(differ.sum()), total=int(differ.size))


@dataclasses.dataclass(frozen=True)
class CrossChecks:
    """One call cross-checked on both runtimes: DirectML itself, and ONNX Runtime beside it."""

    directml: CheckSummary
    onnxruntime: CheckSummary

    @property
    def transient(self):
        return self.directml.transient or self.onnxruntime.transient


def retry_later(result):
    """How long to keep a result whose runtime did not answer for the moment (SharedCache's lifetime): RETRY_SECONDS,
    so that the pages waiting for it see it, then it is asked again; None (kept) for a verdict."""
    return RETRY_SECONDS if result.transient else None


def check_both(run):
    """CrossChecks of `run(runtime)`, a function returning that runtime's CrossCheckReport."""
    return CrossChecks(summarize(run("directml")), summarize(run("onnxruntime")))


def check(op, key, make_inputs, attrs):
    """The cross-checks of one operator call, identified by `key` (how its inputs are made), as summaries.

    `make_inputs` is only called on a miss; `attrs` is a sorted tuple of the core function's keyword arguments.
    """
    def both():
        inputs = list(make_inputs())
        return check_both(lambda runtime: cross_check(op, inputs, runtime=runtime, **dict(attrs)))

    return CACHE.get(("check", op, key, attrs), both, lifetime=retry_later)


def check_cost(call):
    """(bytes, CPU seconds) a cross-check of `call` holds and takes, on DirectML and ONNX Runtime together."""
    itemsize = numpy_dtype(call.data_type).itemsize
    tensors = sum(math.prod(s) for s in call.input_sizes) + sum(math.prod(s) for s in call.output_sizes)
    return CHECK_COPIES * tensors * itemsize, CHECK_BYTE_SECONDS * tensors * itemsize


def check_soon(call, key, make_inputs):
    """The cross-checks of `call` (an ops Call) when they are ready, else None: they are then computed on the CHECKS
    threads (once for every session asking, in this visitor's turn), and a later run finds them in the cache."""
    op, attrs = call.op, call.attrs
    found, checks = CACHE.peek(("check", op, key, attrs))
    if found:
        return checks
    nbytes, seconds = check_cost(call)
    in_background(("check", op, key, attrs), check, op, key, make_inputs, attrs, nbytes=nbytes, seconds=seconds,
                  what="this view's cross-check")
    return None


# ---------------------------------------------------------------- the Overview's pictures, one per operator


@shared
def overview_depth_to_space():
    x = values(ValueSpec("coded", "UINT32"), (1, 8, 2, 3))
    return depth_space_fig.depth_space_figure(x, depth_to_space(x, 2, "DEPTH_COLUMN_ROW"), 2, "DEPTH_COLUMN_ROW",
                                              "depth_to_space", width_px=440)


@shared
def overview_bit_or():
    a = np.array([1.0, 2.0, -0.0], dtype=np.float32)
    b = np.array([2.0, 1.0, 1.0], dtype=np.float32)
    return bitwise_fig.bitwise_figure(a, b, bit_or(a, b))


@shared
def overview_split():
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    return split_join_fig.split_join_figure(x, 2, [2, 1, 3])
