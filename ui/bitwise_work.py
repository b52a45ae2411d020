"""What the Bitwise page works out from its settings, apart from drawing them: the operations it offers
(ops.operators.bitwise.OPERATORS) and what it says of them, its presets, controls and configuration, the calls,
descriptors and formulas of a configuration, its quiz, and the nearest settings the core accepts.

They live here so that app_pages/bitwise_or.py only reads widgets, calls these and the figure builders, and lays out
the result (ui/operator_page.py). What differs between the operators (A alone or A and B, what B means, an output
type attribute, in-place binding, the supported types, the formula) is read from the operator objects, never from
their names; the arrays and figures come from ui.work's shared functions.
"""

import dataclasses
import functools
import math
import re

from ops import Call, DescriptorError, QuizSettings, buffer_tensor_size, index_formula, numpy_dtype
from ops.guard import check_element_count
from ops.operators import bitwise
from ops.operators.base import OUTPUT
from ops.operators.fixes import Fix, Fixes
from ops.tensor_desc import packed_strides
from viz.bitwise_fig import input_only

from . import work
from .pages import BITWISE_DEFAULT
from .panels import Arrays
from .say import md
from .toolbar import braced
from .values import parse_int_list, parse_values, values_count

OPERATOR = BITWISE_DEFAULT
OPERATIONS = {op.name: op for op in bitwise.OPERATORS}
INPUT_NAMES = ("A", "B")  # the page's names of the inputs, as the grids' titles write them
QUIZ_ELEMENTS = 64  # questions pick among the first elements
# The Presets group: each one a complete set of the page's URL settings.
PRESETS = {
    "float32 1.0 | 2.0 = +inf": dict(
        bw_op=OPERATOR,
        dtype="FLOAT32", pattern="custom", values="1.0", or_sizes="1", or_b_source="typed", or_b_text="2.0",
        or_bcast="", or_inplace=False, or_first=0,
    ),
    "uint8 mask: set bit 7 of every byte": dict(
        bw_op=OPERATOR,
        dtype="UINT8", pattern="custom", values="0x00 0x0F 0x30 0x55 0x7F 0x80 0xA5 0xFF", or_sizes="2,4",
        or_b_source="typed", or_b_text="0x80", or_bcast="0,1", or_inplace=True, or_first=0,
    ),
    "NaN payload": dict(
        bw_op=OPERATOR,
        dtype="FLOAT32", pattern="custom", values="0x7F800000 0x7FC00000 0x3F800000", or_sizes="3",
        or_b_source="typed", or_b_text="0x00000001 0x00001234 0x7F800000", or_bcast="", or_inplace=False,
        or_first=0,
    ),
    # DirectML shifts an 8-bit element in 32 bits by the amount's low 5 bits: 0x8B << 8 empties it, << 32 keeps it.
    "uint8 0x8B << 7, 8, 32, 33: past the width": dict(
        bw_op="ELEMENT_WISE_BIT_SHIFT_LEFT", dtype="UINT8", pattern="custom", values="0x8B 0x8B 0x8B 0x8B",
        or_sizes="4", or_b_source="typed", or_b_text="7 8 32 33", or_bcast="", or_inplace=False, or_first=0,
    ),
    "popcount of uint32 patterns, as UINT8": dict(
        bw_op="ELEMENT_WISE_BIT_COUNT", bw_out_type="UINT8", dtype="UINT32", pattern="custom",
        values="0 1 0xFF 0x80000001 0xFFFFFFFF", or_sizes="5", or_b_source="derived", or_bcast="", or_inplace=False,
        or_first=0,
    ),
}


def input_names(op):
    """The page's names of the operator's inputs: A, or A and B."""
    return INPUT_NAMES[:op.arity[0]]


def expression(op):
    """The operator's output in the page's names of its inputs: 'A | B'."""
    return op.lesson.expression(input_names(op))


def output_attribute(op):
    """(attribute name, its choices, its default) of the attribute that sets the output's DataType (BIT_COUNT's
    output_type), or None when the output has the inputs' type."""
    name = next((f.attribute for f in op.fields if f.kind == OUTPUT and f.attribute), None)
    if name is None:
        return None
    choices = tuple(dict.fromkeys(t for row in op.support for t in row.output_types))
    return name, choices, next(a.default for a in op.attributes if a.name == name)


def is_binary(op):
    return op.arity[0] == 2


def short_name(name):
    """The operation's name after ELEMENT_WISE_BIT_ (where the family's names start to differ): SHIFT_LEFT."""
    return name.removeprefix("ELEMENT_WISE_BIT_")


def operation_label(name):
    return f"{short_name(name)}: {expression(OPERATIONS[name])}"


def takes_floats(op):
    """Whether the operator takes a floating-point type at some feature level (the shifts take unsigned integers
    only)."""
    return any(name.startswith("FLOAT") for row in op.support for name in row.types)


def support_text(op):
    """The operator's input types by feature level, from its support table."""
    return "; ".join(f"feature level {row.level}: {'every type' if len(row.types) > 8 else '/'.join(row.types)}"
                     for row in op.support)


@dataclasses.dataclass(frozen=True)
class Controls:
    sizes_text: str
    b_text: str | None  # typed B values, or None: derived from A's pattern
    bcast_text: str
    in_place: bool
    op: str = OPERATOR
    attrs: tuple = ()  # (name, value) pairs: the output type of BIT_COUNT


@dataclasses.dataclass(frozen=True)
class Settings:
    operands: work.OrOperands
    in_place: bool

    @property
    def call(self):
        return or_call(self.operands)

    @property
    def operator(self):
        return self.operands.operator

    def work_bytes(self):
        """A, B, the output and the cross-check's copy."""
        return self.operands.spec.nbytes(self.operands.sizes) * 4


def settings_line(c, data_type):
    """The parts of the line over the figure that states the Controls `c`."""
    binary = is_binary(OPERATIONS[c.op])
    return [c.op, f"{data_type} {braced(c.sizes_text)}",
            ", ".join(f"Output {value}" for _, value in c.attrs),
            ("B typed" if c.b_text is not None else "B from the pattern") if binary else "",
            f"B broadcast along {c.bcast_text.strip()}" if c.bcast_text.strip() else "",
            "in place" if c.in_place else ""]


def field_fixes(c):
    """Fixes for Sizes or broadcast dims that do not parse or do not fit: every size at least 1 (the defaults when
    none is a number), and no broadcast."""
    numbers = [max(1, int(n)) for n in re.findall(r"-?\d+", c.sizes_text)][:8] or [2, 3]
    sizes = ",".join(map(str, numbers))
    options = [Fix(f"Sizes {sizes}", (("or_sizes", sizes), ("or_bcast", "")))] if sizes != c.sizes_text.strip() else []
    if c.bcast_text.strip():
        options.append(Fix("No broadcast", (("or_bcast", ""),)))
    return Fixes("these settings", tuple(options)) if options else None


def configuration(c, values):
    """The Settings that Controls `c` describe with A's values from `values` (the sidebar's ValueSpec);
    DescriptorError naming the field that does not parse."""
    sizes = parse_int_list(c.sizes_text, "Sizes")
    check_element_count(sizes, "Sizes")
    broadcast = set(parse_int_list(c.bcast_text, "Broadcast dims", minimum=0)) if c.bcast_text.strip() else set()
    for d in sorted(broadcast):
        if d >= len(sizes):
            raise DescriptorError(f"Broadcast dims: dim {d} is not in [0, {len(sizes) - 1}] for Sizes "
                                  f"{list(sizes)}")
    return Settings(work.OrOperands(values, tuple(sizes), tuple(sorted(broadcast)), c.b_text, c.op, c.attrs),
                    c.in_place)


def bits_of(array):
    """The elements' bit patterns as Python ints (the OR works on these, whatever the type)."""
    return array.reshape(-1).view(f"u{array.dtype.itemsize}")


def b_descriptor(data_type, sizes, broadcast):
    """B's DML_BUFFER_TENSOR_DESC: full Sizes, 0 strides along the broadcast dims; packed without broadcast."""
    if not broadcast:
        return dict(DataType=data_type, Sizes=list(sizes), TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes))
    stored = [1 if d in broadcast else s for d, s in enumerate(sizes)]
    strides = [0 if d in broadcast else s for d, s in enumerate(packed_strides(stored))]
    return dict(DataType=data_type, Sizes=list(sizes), Strides=strides,
                TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes, strides))


def or_call(operands):
    return Call.of(operands.op, [operands.sizes] * operands.operator.arity[0], operands.spec.data_type,
                   **dict(operands.attrs))


def unchecked_call(operands):
    """The call the settings describe, made without Call.of's checks: refused settings still describe it."""
    return Call(operands.op, operands.spec.data_type, (operands.sizes,) * operands.operator.arity[0], operands.attrs)


def widest_bits(operands):
    """The bits of the widest grid's elements, which set how many elements fit: BIT_COUNT's UINT32 output of UINT8
    elements is 32 bits a row."""
    return max(numpy_dtype(t).itemsize * 8 for t in (operands.spec.data_type, *unchecked_call(operands).output_types))


def bit_formula(operands, element, bit):
    inputs = work.or_inputs(operands)
    values = tuple(int(bits_of(x)[element]) for x in inputs)
    b_strides = None
    if operands.binary:
        b_strides = b_descriptor(operands.spec.data_type, operands.sizes, operands.broadcast).get("Strides")
    return index_formula(or_call(operands), (element, bit), values=values, b_strides=b_strides)


def quiz_settings(s):
    """The quiz over the bits of the first elements of each input."""
    inputs = work.or_inputs(s.operands)
    return QuizSettings(s.call, tuple(tuple(int(v) for v in bits_of(x)[:QUIZ_ELEMENTS]) for x in inputs))


def reveal(s, question):
    """The question's element drawn alone, with the bit its explanation works through outlined."""
    element, bit = question.source
    return work.picked("bitwise", work.or_picture(s.operands, element, element + 1, s.in_place), (element, bit))


def ask(s, question):
    """The question's element of A and B, without Output (the answer)."""
    element = question.cell[0]
    return input_only(work.or_picture(s.operands, element, element + 1, s.in_place))


def descriptors(operands):
    """Each tensor's DML_BUFFER_TENSOR_DESC by its field name: the second input's has 0 strides along the broadcast
    dims."""
    data_type, sizes, broadcast = operands.spec.data_type, operands.sizes, operands.broadcast
    output_type = unchecked_call(operands).output_types[0]
    return {f.name: b_descriptor(output_type if f.kind == OUTPUT else data_type, sizes,
                                 broadcast if number == 1 and f.kind != OUTPUT else ())
            for number, f in enumerate(operands.operator.tensor_fields())}


def dispatch(operands, in_place):
    """The dispatch and its bindings, each tensor field bound to the page's name of its buffer: in place, Output to
    A's."""
    op = operands.operator
    buffers = (*input_names(op), "Output")
    bindings = {f.name: ("A" if in_place and f.kind == OUTPUT else buffer)
                for f, buffer in zip(op.tensor_fields(), buffers)}
    return {"type": "dispatch", "dispatchable": op.core_name, "bindings": bindings}


def broadcast_note(operands, descs):
    """What the descriptor of a broadcast B (in `descs`, from descriptors()) says: 0 strides read an element again."""
    strides = descs[operands.operator.tensor_fields()[1].name]["Strides"]
    return md("**Broadcast.** DirectML has no implicit broadcasting: A, B and Output must have equal Sizes. B stores "
              "only {} ({} values) and its descriptor says Sizes {} with Strides {}: a 0 stride reads the same element "
              "again for every index along that dim. Here B is np.broadcast_to(B stored, Sizes), then {}.",
              list(operands.b_sizes), math.prod(operands.b_sizes), list(operands.sizes), strides,
              expression(operands.operator))


def in_place_note(op):
    """What binding the output to A's buffer means, and why the operator allows it."""
    return md("**In place.** OutputTensor is bound to A's buffer, so no Output buffer is allocated: after the "
              "dispatch A's buffer holds {} and A's old values are gone. {} allows this because each output element "
              "depends only on the same element of its inputs.", expression(op), op.name.removeprefix("ELEMENT_WISE_"))


def bit_patterns(text, data_type):
    """Typed values as the hex bit patterns they are stored as in `data_type` ("-0.0" in FLOAT32: "0x80000000"), or
    None when they are not numbers of that type."""
    dtype = numpy_dtype(data_type)
    try:
        values = parse_values(text, (values_count(text),), dtype)
    except DescriptorError:
        return None
    return " ".join(f"0x{int(v):0{2 * dtype.itemsize}X}" for v in values.view(f"u{dtype.itemsize}"))


def _numbers_of(text, data_type):
    return bit_patterns(text, data_type) is not None


def values_fixes(operands):
    """Fixes for settings the core refuses, each one whole (every fix offered leads past this refusal: "B from the
    pattern" used to leave A's count as wrong as it was, "DataType UINT32" typed values that are no uint32 numbers):
    Sizes that hold A's typed values (B from the pattern too when its typed values would not fill them); B from the
    pattern; a DataType the operation takes, of the same width when there is one, the typed values kept as their bit
    patterns; an operation that takes the DataType; the pattern instead of typed values that are no numbers of the
    type."""
    spec, op, options = operands.spec, operands.operator, []
    count, b_count = math.prod(operands.sizes), math.prod(operands.b_sizes)
    typed = {"values": spec.text if spec.pattern == "custom" else None, "or_b_text": operands.b_text}
    given = values_count(typed["values"]) if typed["values"] is not None else count
    b_given = values_count(typed["or_b_text"]) if typed["or_b_text"] is not None else None
    if 0 < given != count:
        b_repair = (("or_b_source", "derived"),) if b_given not in (None, given) else ()
        options.append(Fix(f"Sizes {given}" + (", B from the pattern" if b_repair else ""),
                           (("or_sizes", str(given)), ("or_bcast", ""), *b_repair)))
    elif b_given not in (None, b_count):
        options.append(Fix("B from the pattern", (("or_b_source", "derived"),)))
    data_type = spec.data_type
    if data_type not in op.supported_types:
        width = numpy_dtype(data_type).itemsize
        same = [t for t in op.supported_types if numpy_dtype(t).itemsize == width]
        chosen = (same or list(op.supported_types))[0]
        kept = tuple((key, bit_patterns(text, data_type)) for key, text in typed.items() if text is not None)
        if same and kept and all(patterns is not None for _, patterns in kept):
            options.append(Fix(f"DataType {chosen}, typed values as their bit patterns", (("dtype", chosen), *kept)))
        else:
            options.append(Fix(f"DataType {chosen}", (("dtype", chosen),)))
        other = next((o.name for o in OPERATIONS.values() if data_type in o.supported_types), None)
        if other is not None:
            options.append(Fix(f"Operation {other}", (("bw_op", other),)))
    elif given == count and b_given in (None, b_count):
        if typed["values"] is not None and not _numbers_of(typed["values"], data_type):
            options.append(Fix("A from the pattern (origin-coded)", (("pattern", "coded"),)))
        if typed["or_b_text"] is not None and not _numbers_of(typed["or_b_text"], data_type):
            options.append(Fix("B from the pattern", (("or_b_source", "derived"),)))
    return Fixes("these settings", tuple(options)) if options else None


def outputs_of(operands):
    return [work.or_output(operands)]


def arrays(operands, refusal=None):
    """How the panels make the call's arrays, from the shared work; B's stored sizes for the frameworks that
    broadcast it themselves."""
    elsewhere = (("b_sizes", operands.b_sizes),) if operands.binary else ()
    return Arrays((operands.operator.core_name, operands), functools.partial(work.or_inputs, operands),
                  functools.partial(outputs_of, operands), refusal, elsewhere=elsewhere)
