"""The Bitwise page's settings: the operations it offers (ops.operators.bitwise.OPERATORS) and what it says of them,
its URL keys and presets, its controls and the configuration the core accepts, their line over the figure, their
descriptors and dispatch, the nearest settings the core accepts, and how a call becomes the page's link.

What differs between the operators (A alone or A and B, what B means, an output type attribute, in-place binding,
the supported types) is read from the operator objects, never from their names.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from typing import Any

from ops import Call, DescriptorError, buffer_tensor_size, numpy_dtype
from ops.guard import check_element_count
from ops.operators import bitwise
from ops.operators.base import OUTPUT
from ops.operators.bitwise import Bitwise
from ops.operators.fixes import Fix, Fixes
from ops.tensor_desc import packed_strides
from ui.say import Markdown, md
from ui.toolbar import braced
from ui.values import Values, parse_int_list, parse_values, values_count

# The operation where a link names none: OR, so that a link made when OR was the page's one operation opens the view
# it was made on.
DEFAULT_OPERATION = "ELEMENT_WISE_BIT_OR"
OPERATIONS: dict[str, Bitwise] = {op.name: op for op in bitwise.OPERATORS}
INPUT_NAMES = ("A", "B")  # the page's names of the inputs, as the grids' titles write them
B_SOURCES = {"derived": "from the sidebar pattern (random: seed + 1; sequence: continued; otherwise A reversed)",
             "typed": "typed here"}
# The URL keys keep the names of the page's OR days (or_...), so that every link made then still opens its view.
DEFAULTS: dict[str, Any] = dict(or_sizes="2,3", or_b_source="derived", or_b_text="1", or_bcast="", or_inplace=False,
                                or_first=0, or_rows=16, bw_op=DEFAULT_OPERATION)
PICK = "or_pick"  # the picked bit: (element, bit number)
QUIZ_ELEMENTS = 64  # questions pick among the first elements
# The Presets group: each one a complete set of the page's URL settings.
PRESETS = {
    "float32 1.0 | 2.0 = +inf": dict(
        bw_op=DEFAULT_OPERATION,
        dtype="FLOAT32", pattern="custom", values="1.0", or_sizes="1", or_b_source="typed", or_b_text="2.0",
        or_bcast="", or_inplace=False, or_first=0,
    ),
    "uint8 mask: set bit 7 of every byte": dict(
        bw_op=DEFAULT_OPERATION,
        dtype="UINT8", pattern="custom", values="0x00 0x0F 0x30 0x55 0x7F 0x80 0xA5 0xFF", or_sizes="2,4",
        or_b_source="typed", or_b_text="0x80", or_bcast="0,1", or_inplace=True, or_first=0,
    ),
    "NaN payload": dict(
        bw_op=DEFAULT_OPERATION,
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


def input_names(operator: Bitwise) -> tuple[str, ...]:
    """The page's names of the operator's inputs: A, or A and B."""
    return INPUT_NAMES[:operator.arity[0]]


def expression(operator: Bitwise) -> str:
    """The operator's output in the page's names of its inputs: 'A | B'."""
    return operator.lesson.expression(input_names(operator))


def output_attribute(operator: Bitwise) -> tuple[str, tuple[str, ...], Any] | None:
    """(attribute name, its choices, its default) of the attribute that sets the output's DataType (BIT_COUNT's
    output_type), or None when the output has the inputs' type."""
    name = next((f.attribute for f in operator.fields if f.kind == OUTPUT and f.attribute), None)
    if name is None:
        return None
    choices = tuple(dict.fromkeys(t for row in operator.support for t in row.output_types))
    return name, choices, next(a.default for a in operator.attributes if a.name == name)


def short_name(name: str) -> str:
    """The operation's name after ELEMENT_WISE_BIT_ (where the family's names start to differ): SHIFT_LEFT."""
    return name.removeprefix("ELEMENT_WISE_BIT_")


def operation_label(name: str) -> str:
    return f"{short_name(name)}: {expression(OPERATIONS[name])}"


def takes_floats(operator: Bitwise) -> bool:
    """Whether the operator takes a floating-point type at some feature level (the shifts take unsigned integers
    only)."""
    return any(name.startswith("FLOAT") for row in operator.support for name in row.types)


def support_text(operator: Bitwise) -> str:
    """The operator's input types by feature level, from its support table."""
    return "; ".join(f"feature level {row.level}: {'every type' if len(row.types) > 8 else '/'.join(row.types)}"
                     for row in operator.support)


@dataclasses.dataclass(frozen=True)
class Controls:
    """The page's widgets as read: texts that may not parse."""

    sizes_text: str
    b_text: str | None  # typed B values, or None: derived from A's pattern
    bcast_text: str
    in_place: bool
    op: str
    attrs: tuple[tuple[str, Any], ...] = ()  # (name, value) pairs: the output type of BIT_COUNT

    @property
    def operator(self) -> Bitwise:
        return OPERATIONS[self.op]

    def line(self, data_type: str) -> list[str]:
        """The parts of the line over the figure."""
        binary = self.operator.arity[0] == 2
        bcast = self.bcast_text.strip()
        return [self.op, f"{data_type} {braced(self.sizes_text)}",
                ", ".join(f"Output {value}" for _, value in self.attrs),
                ("B typed" if self.b_text is not None else "B from the pattern") if binary else "",
                f"B broadcast along {bcast}" if bcast else "", "in place" if self.in_place else ""]

    def field_fixes(self) -> Fixes | None:
        """Fixes for Sizes or broadcast dims that do not parse or do not fit: every size at least 1 (the defaults
        when none is a number), and no broadcast."""
        numbers = [max(1, int(n)) for n in re.findall(r"-?\d+", self.sizes_text)][:8] or [2, 3]
        sizes = ",".join(map(str, numbers))
        options = ([Fix(f"Sizes {sizes}", (("or_sizes", sizes), ("or_bcast", "")))]
                   if sizes != self.sizes_text.strip() else [])
        if self.bcast_text.strip():
            options.append(Fix("No broadcast", (("or_bcast", ""),)))
        return Fixes("these settings", tuple(options)) if options else None


@dataclasses.dataclass(frozen=True)
class Operands:
    """How the operator's inputs are made (the key of the page's shared work): A from the sidebar's pattern, B
    (binary operators only) typed or derived, broadcast along dims; `attrs` the operator's attributes as (name,
    value) pairs (BIT_COUNT's output_type)."""

    values: Values
    sizes: tuple[int, ...]
    operator: Bitwise
    broadcast: tuple[int, ...] = ()
    b_text: str | None = None  # typed B values, or None: derived from A's pattern
    attrs: tuple[tuple[str, Any], ...] = ()

    @property
    def op(self) -> str:
        return self.operator.name

    @property
    def binary(self) -> bool:
        return self.operator.arity[0] == 2

    @property
    def b_sizes(self) -> tuple[int, ...]:
        return tuple(1 if d in self.broadcast else s for d, s in enumerate(self.sizes))

    def call(self) -> Call:
        return Call.of(self.op, [self.sizes] * self.operator.arity[0], self.values.data_type, **dict(self.attrs))

    def unchecked_call(self) -> Call:
        """The call the settings describe, made without Call.of's checks: refused settings still describe it."""
        return Call(self.operator, self.values.data_type, (self.sizes,) * self.operator.arity[0], self.attrs)

    def widest_bits(self) -> int:
        """The bits of the widest grid's elements, which set how many elements fit: BIT_COUNT's UINT32 output of
        UINT8 elements is 32 bits a row."""
        return max(numpy_dtype(t).itemsize * 8 for t in (self.values.data_type, *self.unchecked_call().output_types))

    def b_strides(self) -> list[int] | None:
        """B's descriptor strides: 0 along the broadcast dims; None without broadcast (packed)."""
        return b_descriptor(self.values.data_type, self.sizes, self.broadcast).get("Strides")

    def descriptors(self) -> dict[str, dict[str, Any]]:
        """Each tensor's DML_BUFFER_TENSOR_DESC by its field name: the second input's has 0 strides along the
        broadcast dims."""
        output_type = self.unchecked_call().output_types[0]
        return {f.name: b_descriptor(output_type if f.kind == OUTPUT else self.values.data_type, self.sizes,
                                     self.broadcast if number == 1 and f.kind != OUTPUT else ())
                for number, f in enumerate(self.operator.tensor_fields())}

    def dispatch(self, in_place: bool) -> dict[str, Any]:
        """The dispatch and its bindings, each tensor field bound to the page's name of its buffer: in place,
        Output to A's."""
        buffers = (*input_names(self.operator), "Output")
        bindings = {f.name: ("A" if in_place and f.kind == OUTPUT else buffer)
                    for f, buffer in zip(self.operator.tensor_fields(), buffers)}
        return {"type": "dispatch", "dispatchable": self.operator.core_name, "bindings": bindings}

    def broadcast_note(self, descs: dict[str, dict[str, Any]]) -> Markdown:
        """What the descriptor of a broadcast B (in `descs`, from descriptors()) says: 0 strides read an element
        again."""
        strides = descs[self.operator.tensor_fields()[1].name]["Strides"]
        return md("**Broadcast.** DirectML has no implicit broadcasting: A, B and Output must have equal Sizes. B "
                  "stores only {} ({} values) and its descriptor says Sizes {} with Strides {}: a 0 stride reads the "
                  "same element again for every index along that dim. Here B is np.broadcast_to(B stored, Sizes), "
                  "then {}.", list(self.b_sizes), math.prod(self.b_sizes), list(self.sizes), strides,
                  expression(self.operator))

    def values_fixes(self) -> Fixes | None:
        """Fixes for settings the core refuses, each one whole (every fix offered leads past this refusal): Sizes
        that hold A's typed values (B from the pattern too when its typed values would not fill them); B from the
        pattern; a DataType the operation takes, of the same width when there is one, the typed values kept as
        their bit patterns; an operation that takes the DataType; the pattern instead of typed values that are no
        numbers of the type."""
        values, operator, options = self.values, self.operator, []
        count, b_count = math.prod(self.sizes), math.prod(self.b_sizes)
        typed = {"values": values.text if values.pattern == "custom" else None, "or_b_text": self.b_text}
        given = values_count(typed["values"]) if typed["values"] is not None else count
        b_given = values_count(typed["or_b_text"]) if typed["or_b_text"] is not None else None
        if 0 < given != count:
            b_repair = (("or_b_source", "derived"),) if b_given not in (None, given) else ()
            options.append(Fix(f"Sizes {given}" + (", B from the pattern" if b_repair else ""),
                               (("or_sizes", str(given)), ("or_bcast", ""), *b_repair)))
        elif b_given not in (None, b_count):
            options.append(Fix("B from the pattern", (("or_b_source", "derived"),)))
        data_type = values.data_type
        if data_type not in operator.supported_types:
            width = numpy_dtype(data_type).itemsize
            same = [t for t in operator.supported_types if numpy_dtype(t).itemsize == width]
            chosen = (same or list(operator.supported_types))[0]
            kept = tuple((key, bit_patterns(text, data_type)) for key, text in typed.items() if text is not None)
            if same and kept and all(patterns is not None for _, patterns in kept):
                options.append(Fix(f"DataType {chosen}, typed values as their bit patterns",
                                   (("dtype", chosen), *kept)))
            else:
                options.append(Fix(f"DataType {chosen}", (("dtype", chosen),)))
            other = next((o.name for o in OPERATIONS.values() if data_type in o.supported_types), None)
            if other is not None:
                options.append(Fix(f"Operation {other}", (("bw_op", other),)))
        elif given == count and b_given in (None, b_count):
            if typed["values"] is not None and bit_patterns(typed["values"], data_type) is None:
                options.append(Fix("A from the pattern (origin-coded)", (("pattern", "coded"),)))
            if typed["or_b_text"] is not None and bit_patterns(typed["or_b_text"], data_type) is None:
                options.append(Fix("B from the pattern", (("or_b_source", "derived"),)))
        return Fixes("these settings", tuple(options)) if options else None


@dataclasses.dataclass(frozen=True)
class Configuration:
    operands: Operands
    in_place: bool

    @property
    def operator(self) -> Bitwise:
        return self.operands.operator

    def work_bytes(self) -> int:
        """A, B, the output and the cross-check's copy."""
        return self.operands.values.nbytes(self.operands.sizes) * 4


def configure(c: Controls, values: Values) -> Configuration:
    """The Configuration that Controls `c` describe with A's values from `values` (the sidebar's); DescriptorError
    naming the field that does not parse."""
    sizes = parse_int_list(c.sizes_text, "Sizes")
    check_element_count(sizes, "Sizes")
    broadcast = set(parse_int_list(c.bcast_text, "Broadcast dims", minimum=0)) if c.bcast_text.strip() else set()
    for d in sorted(broadcast):
        if d >= len(sizes):
            raise DescriptorError(f"Broadcast dims: dim {d} is not in [0, {len(sizes) - 1}] for Sizes "
                                  f"{list(sizes)}")
    operands = Operands(values, tuple(sizes), c.operator, tuple(sorted(broadcast)), c.b_text, c.attrs)
    return Configuration(operands, c.in_place)


def b_descriptor(data_type: str, sizes: Sequence[int], broadcast: Sequence[int]) -> dict[str, Any]:
    """B's DML_BUFFER_TENSOR_DESC: full Sizes, 0 strides along the broadcast dims; packed without broadcast."""
    if not broadcast:
        return dict(DataType=data_type, Sizes=list(sizes), TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes))
    stored = [1 if d in broadcast else s for d, s in enumerate(sizes)]
    strides = [0 if d in broadcast else s for d, s in enumerate(packed_strides(stored))]
    return dict(DataType=data_type, Sizes=list(sizes), Strides=strides,
                TotalTensorSizeInBytes=buffer_tensor_size(data_type, sizes, strides))


def in_place_note(operator: Bitwise) -> Markdown:
    """What binding the output to A's buffer means, and why the operator allows it."""
    return md("**In place.** OutputTensor is bound to A's buffer, so no Output buffer is allocated: after the "
              "dispatch A's buffer holds {} and A's old values are gone. {} allows this because each output element "
              "depends only on the same element of its inputs.", expression(operator),
              operator.name.removeprefix("ELEMENT_WISE_"))


def bit_patterns(text: str, data_type: str) -> str | None:
    """Typed values as the hex bit patterns they are stored as in `data_type` ("-0.0" in FLOAT32: "0x80000000"), or
    None when they are not numbers of that type."""
    dtype = numpy_dtype(data_type)
    try:
        values = parse_values(text, (values_count(text),), dtype)
    except DescriptorError:
        return None
    return " ".join(f"0x{int(v):0{2 * dtype.itemsize}X}" for v in values.view(f"u{dtype.itemsize}"))


def _joined(values: Sequence[int]) -> str:
    return ",".join(str(int(v)) for v in values)


def link_query(call: Call, stored: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The page's URL settings showing `call`: Sizes, B's broadcast dims (binary operators), the operation when it
    is not the page's default, and the output type attribute (BIT_COUNT's) as bw_out_type."""
    sizes = call.input_sizes[0]
    query = dict(or_sizes=_joined(sizes))
    if len(stored) > 1:
        b_sizes = (1,) * (len(sizes) - len(stored[1])) + tuple(stored[1])
        query["or_bcast"] = _joined([d for d, (a, b) in enumerate(zip(sizes, b_sizes)) if b == 1 and a != 1])
    if call.op != DEFAULT_OPERATION:
        query["bw_op"] = call.op
    query.update(("bw_out_type", value) for _, value in call.attrs)
    return query
