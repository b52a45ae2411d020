"""The detective's and the model page's work, shared between sessions through the server's cache, and what the
detective page makes of its fields: the input sizes, the outputs brought (uploaded files or pasted printouts) and the
texts built from a run (kept here so that the page only reads its widgets and lays out the result).

An example is a function of small settings; an upload or a pasted text is keyed by a digest of its bytes, so
a class uploading the same file (or opening the same example link) identifies it once.
"""

import dataclasses
import hashlib
import math
import re

from ops import DescriptorError, element_cap_set_to, identify, open_onnx_model, read_npy, read_printed_array
from ops.detective.examples import EXAMPLES, detective_example
from ops.detective.identify import mix_up_diff
from ops.detective.origin import NPY_BYTE_CAP, origin_coded_inputs, to_npy_bytes
from viz.detective_fig import detective_figure, diff_figure

from .say import md
from .shared import CACHE, shared
from .values import parse_int_list

# The detective draws and hovers every cell it can: beyond a million input elements a framework's output is better
# checked on a smaller tensor of the same layout.
DETECTIVE_ELEMENTS = 2**20
# The page's content width at a 1400-pixel window (layout "wide", sidebar open): sizes the figures' square cells.
FIGURE_WIDTH = 940
# The upload box refuses larger files, counting 10^6 bytes a megabyte (outside Windows): the page's cap is the same,
# under Streamlit's server limit (.streamlit/config.toml, server.maxUploadSize, 16 MiB).
UPLOAD_MB = 16
UPLOAD_BYTES = min(NPY_BYTE_CAP, UPLOAD_MB * 10**6)
# A line holding only this separates several pasted outputs.
SEPARATOR = "---"


@dataclasses.dataclass
class Case:
    """Inputs, outputs and what the detective found (figures built once and shared)."""

    xs: list
    ys: list
    report: object
    figure: object
    diff: dict | None
    diff_figure: object


def example_fields(name):
    """The page's fields that show one of the detective's examples: its input sizes (inputs separated by ';')."""
    sizes = ";".join(",".join(str(s) for s in shape) for shape in EXAMPLES[name].sizes)
    return dict(dt_source="example", dt_example=name, dt_dtype="FLOAT32", dt_sizes=sizes)


def parse_sizes(text):
    """'1,8,2,3' or several inputs '1,2,2,3; 1,1,2,3' -> tuple of size tuples; DescriptorError naming the field."""
    parts = [p for p in str(text).split(";") if p.strip()]
    if not parts:
        raise DescriptorError("Input sizes: empty; write whole numbers separated by commas, e.g. 1,8,2,3")
    if len(parts) > 8:
        raise DescriptorError(f"Input sizes: {len(parts)} inputs; the detective takes at most 8 (for a join)")
    field = "Input sizes" if len(parts) == 1 else "Input sizes of input {}"
    return tuple(parse_int_list(p, field.format(i)) for i, p in enumerate(parts))


def work_bytes(sizes):
    """What a run may hold: inputs and outputs as 8-byte values, the sort keys, their order and the index maps, and
    the IndicesTensors the gather family's proposals are verified with, each beside its run (an upload of 2^20
    FLOAT32 outputs peaked at 121 MiB in identify(), 57 MiB before those proposals: tests/unit/test_hostile_costs)."""
    return min(sum(math.prod(s) for s in sizes), DETECTIVE_ELEMENTS) * 8 * 16


def digest(data):
    return hashlib.sha256(data if isinstance(data, bytes) else data.encode()).hexdigest()


def _frozen(arrays):
    for a in arrays:
        a.flags.writeable = False
    return arrays


def _solve(xs, ys):
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        report = identify(xs[0] if len(xs) == 1 else xs, ys[0] if len(ys) == 1 else ys)
    sources = report.source_index if isinstance(report.source_index, list) else [report.source_index]
    figure = detective_figure([x.shape for x in xs], [y.shape for y in ys], sources, report.input_starts, ys,
                              width_px=FIGURE_WIDTH)
    diff = mix_up_diff(report, xs[0].shape) if report.permuted_matches else None
    drawn_diff = None
    if diff is not None:
        d = diff["descriptor"]
        best = report.permuted_matches[0]
        where = "x[:, P]" if best["applies_to"] == "input channels" else "its output[:, P]"
        drawn_diff = diff_figure(diff["before"], diff["after"], f"{d['operator']} {d['Order']} as given",
                                 f"with {where}", width_px=FIGURE_WIDTH)
    return Case(_frozen(xs), _frozen(ys), report, figure, diff, drawn_diff)


@shared
def inputs(sizes, data_type):
    """The origin-coded inputs (read-only) for a tuple of input sizes."""
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        return _frozen(origin_coded_inputs(sizes, data_type))


def input_npy(sizes, data_type, index):
    """One origin-coded input as .npy bytes: a download button's data, made only when the file is asked for."""
    return to_npy_bytes(inputs(sizes, data_type)[index])


def origin_caption(xs):
    """What the origin-coded inputs `xs` hold and how to run them through a framework."""
    shown = ", ".join(str(v) for v in xs[0].ravel()[:6].tolist())
    onwards = ", counting on through the next inputs" if len(xs) > 1 else ""
    return md(
        "Every element holds its own flat index ({}, ...{}), so whatever your framework does to it, each output value "
        "names the element it came from. Load it with `x = np.load('input.npy')` (or "
        "`torch.from_numpy(np.load(...))`), run your operator, and save the result with `np.save('output.npy', y)`.",
        shown, onwards)


def _natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def uploaded(files):
    """(digest key, reader) of uploaded .npy files, taken in the order of their names (out2 before out10); read as
    plain arrays (never unpickled) of at most UPLOAD_BYTES."""
    blobs = [(f.name, f.getvalue()) for f in sorted(files, key=lambda f: _natural_key(f.name))]
    key = tuple(digest(data) for _, data in blobs)

    def read():
        return [read_npy(data, max_bytes=UPLOAD_BYTES, field=f"file {name!r}") for name, data in blobs]

    return key, read


def _split_outputs(text):
    parts: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip() == SEPARATOR:
            parts.append("\n".join(current))
            current = []
        else:
            current.append(line)
    return parts + ["\n".join(current)]


def pasted(text, out_sizes):
    """(key, reader) of printed outputs separated by SEPARATOR lines; `out_sizes` (the field's text, may be empty)
    shapes the plain numbers of a single output. DescriptorError naming the field."""
    parts = [p for p in _split_outputs(text) if p.strip()]
    shape = parse_int_list(out_sizes, "Output sizes") if out_sizes.strip() else None
    if shape is not None and len(parts) > 1:
        raise DescriptorError("Output sizes: give them only for a single pasted output; use brackets for several")

    def read():
        return [read_printed_array(p, shape) for p in parts]

    return (digest(text), out_sizes), read


@shared
def example_case(name, sizes, data_type):
    with element_cap_set_to(DETECTIVE_ELEMENTS):
        xs, ys = detective_example(name, sizes, data_type)
    return _solve(xs, ys)


def outputs_case(sizes, data_type, outputs_key, read_outputs):
    """The case for outputs the user brought (read by `read_outputs()`), shared under their digest `outputs_key`."""
    def solve():
        xs = [x.copy() for x in inputs(sizes, data_type)]
        with element_cap_set_to(DETECTIVE_ELEMENTS):
            ys = read_outputs()
        return _solve(xs, ys)

    return CACHE.get(("detective_outputs", sizes, data_type, outputs_key), solve)


def figure_caption(case):
    """How to read the case's figure of where each output cell came from."""
    drawn = case.figure.context.note
    shapes = ", ".join(str(list(y.shape)) for y in case.ys)
    return md(
        "Output sizes {}, compared by {}. Tiles are the last two dimensions, row 0 at the top; each output cell shows "
        "the flat index of the input element it came from and takes that element's color (✗: a value in no input). "
        "Hover for both indices.{}", shapes, case.report.compared_by, f" Drawn: {drawn}." if drawn else "")


def offending_rows(report, outputs):
    """The table of the report's first cells whose value is in no input (`outputs`: how many outputs there are)."""
    return [{"output": f"y{c['output']}" if outputs > 1 else "y", "index": str(list(c["index"])),
             "value": repr(c["value"])} for c in report.offending]


def folding(best):
    """(what the output equals, the code that folds P into the neighbouring convolution) for `best`, a report's
    permuted match: P on the input channels goes into the convolution before, on the output's into the one after."""
    descriptor, p = best["descriptor"], best["permutation"]
    if best["applies_to"] == "input channels":
        return (md("Your output equals {:code}. Apply P to the output channels of the convolution that produces x, and "
                   "that descriptor computes your output with no extra operation:",
                   f'depth_to_space(x[:, P], {descriptor["BlockSize"]}, "{descriptor["Order"]}")'),
                "import ops\n"
                f"P = {p.tolist()}\n"
                "weight, bias = ops.permute_conv_output_channels(weight, bias, P)  # = weight[P], bias[P]")
    return (md("Your output equals {:code}. The convolution that reads it can absorb P in its input channels:",
               f'space_to_depth(x, {descriptor["BlockSize"]}, "{descriptor["Order"]}")[:, P]'),
            "import ops\n"
            f"P = {p.tolist()}\n"
            "weight = ops.permute_conv_input_channels(weight, P)  # = weight[:, inverse(P)]")


def diff_text(diff, descriptor):
    """How many cells differ from `descriptor` applied as given (mix_up_diff's `diff`), and with P applied."""
    return md("**Diff before and after**: {} of {} cells differ from {} {} applied as given; with P applied, {}.",
              int(diff["before"].sum()), diff["before"].size, descriptor["operator"], descriptor["Order"],
              int(diff["after"].sum()))


def model_report(key, data, nbytes):
    """open_onnx_model of uploaded or example bytes, shared under `key` (a digest or the example's name); `nbytes`:
    what opening it holds (onnx_models.open_bytes), which is also what the cache charges for keeping it.

    A refusal is kept too: refused models were opened again at every rerun, 2.7 GB each for a file of empty nodes.
    A transient one (the machine too busy to check it in time: ops.isolated.Exceeded) is not the model's answer.
    """
    def open_or_refuse():
        try:
            return open_onnx_model(data)
        except DescriptorError as error:
            if getattr(error, "transient", False):
                raise
            return error

    # The parsed model is protobuf objects the cache cannot walk: charged what opening it was estimated to hold.
    outcome = CACHE.get(("onnx_model", key), open_or_refuse,
                        measure=lambda value: 1024 if isinstance(value, DescriptorError) else nbytes + 65536)
    if isinstance(outcome, DescriptorError):
        raise outcome
    return outcome

