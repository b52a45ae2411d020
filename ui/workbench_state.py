"""Pure helpers behind the descriptor workbench: model sources and their link form, size arithmetic, descriptor presets
and the desc built from the builder's fields, the rows of its reports."""

import base64
import binascii
import zlib
from pathlib import Path

import numpy as np

from ops import FEATURE_LEVELS, DescriptorError
from ops.datatypes import element_size
from ops.descriptors.dxdispatch import MAX_TEXT_BYTES
from ops.descriptors.layouts import identity_descs
from ops.descriptors.validate import (
    desc_path_of,
    modelled_operator,
    parse_dispatchable,
    read_dispatchable,
    validate_problems,
)
from ops.operators import operator
from ops.tensor_desc import Problem, join_path, packed_strides, parse_tensor_desc, round_up, strided_write
from ui import echo, url_state
from ui.values import parse_int_list
from viz.memory_map_fig import default_columns
from viz.workbench_fig import AFTER_STOP, PASSED_OVER, RAN, STOPPED

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
PARTIAL_EXAMPLES_DIR = EXAMPLES_DIR / "partial"
MAX_MODEL_BYTES = MAX_TEXT_BYTES
# A model is untrusted data: every tensor and buffer it asks for is held to this many elements.
ELEMENT_CAP = 2**20

# Shapes that show one idea each in the memory map.
PRESETS = {
    "packed": ([1, 2, 3, 4], None),
    "broadcast (0 strides)": ([1, 2, 3, 4], [0, 0, 0, 1]),
    "padded rows": ([1, 1, 3, 4], [18, 18, 6, 1]),
    "NHWC expressed with strides": ([1, 3, 2, 4], [24, 1, 12, 3]),
}


CUSTOM = "custom"


def preset_texts(name):
    """The builder's text fields for a preset: {"wb_sizes": ..., "wb_strides": ...}."""
    sizes, strides = PRESETS[name]
    return {"wb_sizes": ", ".join(map(str, sizes)),
            "wb_strides": "" if strides is None else ", ".join(map(str, strides))}


def matching_preset(sizes_text, strides_text):
    """The preset whose fields these are, or CUSTOM."""
    return next((name for name in PRESETS
                 if preset_texts(name) == {"wb_sizes": sizes_text, "wb_strides": strides_text}), CUSTOM)


def builder_desc(data_type, sizes_text, strides_text, total_text):
    """(TensorDesc or None, [Problem]) from the builder's fields (blank Strides: packed, blank total: implied);
    DescriptorError naming the field for text that is not a list of integers."""
    obj = {"DataType": data_type, "Sizes": list(parse_int_list(sizes_text, "Sizes"))}
    if strides_text.strip():
        obj["Strides"] = list(parse_int_list(strides_text, "Strides", minimum=0))
    if total_text.strip():
        obj["TotalTensorSizeInBytes"] = parse_int_list(total_text, "TotalTensorSizeInBytes", minimum=0,
                                                       max_count=1)[0]
    return parse_tensor_desc(obj, "desc")


class LinkCodec:
    """Model text <-> a URL-safe compressed form, so a pasted model travels in the page's link; decoding refuses
    what does not inflate to a bounded text."""

    @staticmethod
    def encode(text):
        return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")

    @staticmethod
    def decode(token):
        try:
            packed = base64.urlsafe_b64decode(token.encode("ascii"))
            inflater = zlib.decompressobj()
            data = inflater.decompress(packed, MAX_MODEL_BYTES + 1)
            if len(data) > MAX_MODEL_BYTES or inflater.unconsumed_tail:
                raise ValueError(f"must inflate to at most {MAX_MODEL_BYTES:,} bytes")
            return data.decode("utf-8")
        except (binascii.Error, zlib.error, UnicodeError) as error:
            raise ValueError(f"is not a model packed by this app ({type(error).__name__})") from None


LINK_CODEC = LinkCodec()


# Reading a model text, per character: parsing, loading and its notes, measured (support/costs.py) at 0.56 s and
# 42 MB for a 500,000-value model of 0.5 MB, 0.70 s and 47 MB for 8,900 resources of 8 ignored fields (1 MB), and the
# page drawing it at 1.2-1.5 s: a 1 MB text is a heavy view.
TEXT_SECONDS = 1.5e-6
TEXT_BYTES = 100


def text_cost(text):
    """(bytes, CPU seconds) reading a model text holds and takes (no text: nothing)."""
    size = len(text) if isinstance(text, str) else 0
    return size * TEXT_BYTES, size * TEXT_SECONDS


def travels_in_link(text):
    """Whether a pasted model text fits in the page's link once packed (LINK_CODEC)."""
    # Compressing a text past the model cap (a crafted message can carry far more than the box lets one type)
    # would cost more than the model is allowed to; such a text is refused by its size, uncompressed.
    return len(text) <= MAX_MODEL_BYTES and len(LINK_CODEC.encode(text)) <= url_state.LINK_VALUE_CHARS


DXDISPATCH_EXAMPLES_DIR = EXAMPLES_DIR / "dxdispatch"
DXDISPATCH_MODELS_DIR = EXAMPLES_DIR / "dxdispatch_models"  # our mirrors of DxDispatch's models/ folder


def example_files(directory=EXAMPLES_DIR):
    """Bundled example models by name (file stem), sorted."""
    return {path.stem: path for path in sorted(directory.glob("*.json"))}


def strict_examples():
    """The examples this project runs whole: one per operator, then the ones written in DxDispatch's own syntax
    (comments, trailing commas, wrapping sequences), named by their folder."""
    folder = DXDISPATCH_EXAMPLES_DIR.name
    return {**example_files(),
            **{f"{folder}/{name}": path for name, path in example_files(DXDISPATCH_EXAMPLES_DIR).items()}}


def model_text_from_bytes(data, name="upload"):
    """UTF-8 text of an uploaded model, refusing what the 1 MB cap or the encoding rule out."""
    if len(data) > MAX_MODEL_BYTES:
        raise DescriptorError(
            f"{name}: {len(data):,} bytes exceed the {MAX_MODEL_BYTES:,}-byte limit for a model file"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DescriptorError(f"{name}: not UTF-8 text (byte {error.start} is {data[error.start]:#04x})") from None


def size_arithmetic(data_type, sizes, strides=None):
    """DMLCalcBufferTensorSize written out step by step, as (lines, implied bytes)."""
    itemsize = element_size(data_type)
    if strides is None:
        count = 1
        for size in sizes:
            count *= size
        last = count - 1
        first = f"index_of_last_element = prod(Sizes) - 1 = {' * '.join(map(str, sizes))} - 1 = {last}"
        first = f"(no Strides: packed, i.e. Strides {list(packed_strides(sizes))})\n" + first
    else:
        terms = " + ".join(f"({size}-1)*{stride}" for size, stride in zip(sizes, strides))
        last = sum((size - 1) * stride for size, stride in zip(sizes, strides))
        first = f"index_of_last_element = sum((size_i-1)*stride_i) = {terms} = {last}"
    raw = (last + 1) * itemsize
    implied = round_up(raw, 4)
    return [
        first,
        f"bytes = (index_of_last_element + 1) * element_size = ({last} + 1) * {itemsize} ({data_type}) = {raw}",
        f"bytes = round_up(bytes, 4) = {implied}",
    ], implied


def natural_columns(desc, unit):
    """The cells per row of a desc's memory map that line its padding up (viz.memory_map_fig.default_columns), a cell
    being one element or one byte."""
    cells_per_element = desc.element_size if unit == "byte" else 1
    return default_columns(desc.Sizes, desc.Strides, desc.buffer_elements) * cells_per_element


def json_kind(value):
    """The JSON name of a parsed value's type, for messages."""
    kinds = ((bool, "boolean"), (dict, "object"), (list, "array"), (str, "string"), ((int, float), "number"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null")


def dispatchable_items(raw):
    """[(name, JSON path, dispatchable)] of a raw model, or [] when it has no dispatchables object."""
    if not isinstance(raw, dict) or not isinstance(raw.get("dispatchables"), dict):
        return []
    return [(name, join_path("dispatchables", name), value) for name, value in raw["dispatchables"].items()]


def level_problems(dispatchable, path):
    """{level: [Problem]} for every feature level, the paths starting at `path`."""
    try:
        # Read as DxDispatch reads a model file: exact names; fields it ignores are not problems.
        return {level: validate_problems(dispatchable, level, path, strict=True, notes=[]) for level in FEATURE_LEVELS}
    except DescriptorError as error:
        return {level: [Problem(path, str(error))] for level in FEATURE_LEVELS}


def validation_rows(raw, limit=None):
    """One row per feature level: {"feature level": ..., <dispatchable>: "ok" or the reasons}, plus details, for the
    first `limit` dispatchables (all if None).

    Details map dispatchable name -> {level: [Problem]}.
    """
    details = {name: level_problems(value, path) for name, path, value in dispatchable_items(raw)[:limit]}
    rows = []
    for level in FEATURE_LEVELS:
        row = {"feature level": level}
        for name, by_level in details.items():
            problems = by_level[level]
            row[name] = "ok" if not problems else f"✗ {len(problems)}: " + " | ".join(str(p) for p in problems)
        rows.append(row)
    return rows, details


def tensor_descs(raw):
    """[(JSON path, TensorDesc, kind)] of every tensor desc that parses, in every DirectML dispatchable of the model
    (any operator of DirectML's schema), kind "input" or "output"."""
    found = []
    for _, path, value in dispatchable_items(raw):
        if not isinstance(value, dict):
            continue
        read, _ = read_dispatchable(value, path, strict=True, notes=[])
        if read is None:
            continue
        desc_path = desc_path_of(value, path)
        for point in read.desc.bind_points:
            for label, desc in zip(point.labels(), point.descs):
                if desc is not None:
                    found.append((join_path(desc_path, point.name) + label[len(point.name):], desc,
                                  "input" if point.is_input else "output"))
    return found


def core_runs(model):
    """Whether the core models every dispatchable of a loaded (normalized) model, so ops.run_model runs it."""
    return all(modelled_operator(d, strict=True) for d in model["dispatchables"].values())


def command_steps(model, result):
    """Pair each command of a loaded model with what running it produced: ("dispatch", record) or ("print", line)."""
    records = iter(result.dispatches)
    lines = iter(result.prints)
    return [
        ("dispatch", next(records)) if command["type"] == "dispatch" else ("print", next(lines))
        for command in model["commands"]
    ]


def cross_check_call(record, dispatchable):
    """(inputs, attrs, expected outputs) for ops.runtime.cross_check from one executed dispatch: the operator's
    fields in C order, its attributes as the registry reads them from the dispatchable."""
    spec = operator(record.operator)
    parsed, problems = parse_dispatchable(dispatchable)
    if parsed is None:
        raise DescriptorError(str(problems[0]) if problems else f"{record.dispatchable}: cannot be read")
    attrs = spec.attrs_of(parsed)
    if spec.copies_between_layouts:
        # The whole strided copy is checked: the input's logical values go back into a buffer through its desc, and
        # ONNX Runtime copies that buffer into the output's layout (ops/runtime/identity_check.py).
        desc = dispatchable["desc"]
        inp, _ = identity_descs(desc["InputTensor"], desc["OutputTensor"])
        buffer = strided_write(np.zeros(inp.buffer_elements, inp.dtype), record.inputs["InputTensor"], inp.Strides)
        return [buffer], {**attrs, "input_desc": desc["InputTensor"], "output_desc": desc["OutputTensor"]}, None

    def arrays(tensors, wanted):
        return [array for field in spec.tensor_fields() if wanted(field)
                for array in (tensors[field.name] if isinstance(tensors[field.name], list) else [tensors[field.name]])]

    return (arrays(record.inputs, lambda field: field.is_input), attrs,
            arrays(record.outputs, lambda field: not field.is_input))


def status_rows(inspection):
    """One row per resource and dispatchable of a partially modelled model, for the status table."""
    return [{"part": join_path(part.section, part.name), "what": part.what, "status": part.status,
             "field": part.path, "why": part.reason, "documented in": part.documentation}
            for part in inspection.parts]


def modelled_part(raw, inspection):
    """The raw model with only the dispatchables that name a modelled operator, for validation and the explorer."""
    keep = {part.name for part in inspection.dispatchables if part.operator}
    return {**raw, "dispatchables": {name: value for name, value in raw["dispatchables"].items() if name in keep}}


def skipped_rows(run):
    return [{"command": f"commands[{step.index}]", "type": step.kind, "why it was skipped": step.reason}
            for step in run.skipped]


def command_steps_partial(raw, run):
    """[(index, label, state, reason)] of every command of a partially run model, for the command strip: figure text,
    shortened."""
    skipped = {step.index: step.reason for step in run.skipped}
    steps = []
    for index, command in enumerate(raw["commands"]):
        what = command.get("dispatchable", command.get("resource", "")) if isinstance(command, dict) else ""
        kind = command.get("type", "?") if isinstance(command, dict) else "?"
        label = f"{kind} {what}".strip() if isinstance(what, str) else str(kind)
        if index not in skipped:
            state, reason = RAN, ""
        elif index == run.stopped_at:
            state, reason = STOPPED, skipped[index]
        elif run.stopped_at is not None and index > run.stopped_at:
            state, reason = AFTER_STOP, ""
        else:
            state, reason = PASSED_OVER, skipped[index]
        # Names and reasons come from the model: Plotly would draw the tags in them (ui.echo).
        steps.append((index, echo.figure_text(label, 80), state, echo.figure_text(reason, 160)))
    return steps
