"""Bitwise page: DirectML's bitwise family on the bits of any DirectML type, with broadcast and in-place;
DML_ELEMENT_WISE_BIT_OR by default.

The Operation setting offers every operator of the family (ops.operators.bitwise.OPERATORS, from the registry): what
differs between them (A alone or A and B, what B means, an output type attribute, in-place binding, the supported
types, the formula) is read from the operator objects, never from their names.
"""

import dataclasses
import functools
import json
import math

import streamlit as st

from ops import Call, DescriptorError, QuizSettings, buffer_tensor_size, index_formula, numpy_dtype
from ops.guard import check_element_count
from ops.operators import bitwise
from ops.operators.base import OUTPUT
from ops.operators.fixes import Fix, Fixes
from ops.tensor_desc import packed_strides
from ui import charts, explain, url_state, work
from ui.errors import remember_valid
from ui.operator_page import OperatorPage, Panels, Refused, render
from ui.panels import Arrays
from ui.picks import clear_pick, remember_pick
from ui.shared import admitted, fragment
from ui.sidebar import TYPED_MAX_CHARS, show_value_notes
from ui.toolbar import braced, drawn_part, group
from ui.values import parse_int_list, values_count
from viz.bitwise_fig import (
    FIT_HEIGHT,
    MAX_CELLS,
    decode_rows,
    describe_pick,
    drawn_range,
    input_only,
    pick_from_selection,
)
from viz.export import file_stem

OPERATOR = "ELEMENT_WISE_BIT_OR"  # the default operation: every link older than the Operation setting opens it
OPERATIONS = {op.name: op for op in bitwise.OPERATORS}
INPUT_NAMES = ("A", "B")  # the page's names of the inputs, as the grids' titles write them
CHART = "or_figure"
B_SOURCES = {
    "derived": "from the sidebar pattern (random: seed + 1; sequence: continued; otherwise A reversed)",
    "typed": "typed here",
}
DEFAULTS = dict(or_sizes="2,3", or_b_source="derived", or_b_text="1", or_bcast="", or_inplace=False, or_first=0,
                or_rows=16, bw_op=OPERATOR)
ROWS_MAX = MAX_CELLS // 8  # the most elements a grid can hold (8-bit types)
QUIZ_ELEMENTS = 64  # questions pick among the first elements
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


def operation_label(name):
    op = OPERATIONS[name]
    return f"{name}: {op.lesson.expression(INPUT_NAMES[:op.arity[0]])}"


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


def show_pick(operands, first, stop):
    """The picked bit's caption; a pick that no longer fits the tensors is dropped. Returns the pick when its
    element is drawn, else None: the cached figure is then the plain one."""
    pick = url_state.value(BitwisePage.pick, None)
    a, _, b = work.or_operands(operands)
    described = describe_pick(pick, a, b, work.or_output(operands), op=operands.op)
    if described is None:
        if pick is not None:
            url_state.put(BitwisePage.pick, None)  # picked under other settings: it no longer means anything
        return None  # the page's introduction says what a click does
    left, right = st.columns([5, 1], vertical_alignment="center")
    drawn = first <= pick[0] < stop
    left.caption(f"Picked: {described}" + ("" if drawn else " (not among the drawn elements)"))
    right.button("Clear highlight", key="or_clear_pick", on_click=clear_pick, args=(BitwisePage.pick,))
    return tuple(pick) if drawn else None


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


def bit_formula(operands, element, bit):
    inputs = work.or_inputs(operands)
    values = tuple(int(bits_of(x)[element]) for x in inputs)
    b_strides = None
    if operands.binary:
        b_strides = b_descriptor(operands.spec.data_type, operands.sizes, operands.broadcast).get("Strides")
    return index_formula(or_call(operands), (element, bit), values=values, b_strides=b_strides)


def reveal(s, question):
    """The question's element drawn alone, with the bit its explanation works through outlined."""
    element, bit = question.source
    return work.picked("bitwise", work.or_picture(s.operands, element, element + 1, s.in_place), (element, bit))


def ask(s, question):
    """The question's element of A and B, without Output (the answer)."""
    element = question.cell[0]
    return input_only(work.or_picture(s.operands, element, element + 1, s.in_place))


def drawn_elements(s):
    """The drawn range of elements, in its own group beside the figure: (first, stop) of the rows the grids show,
    said on the line over the figure."""
    count, data_type = math.prod(s.operands.sizes), s.operands.spec.data_type
    # The widest grid sets how many elements fit: BIT_COUNT's UINT32 output of UINT8 elements is 32 bits a row.
    width = max(numpy_dtype(t).itemsize * 8 for t in (data_type, *unchecked_call(s.operands).output_types))
    with group("Drawn elements"):
        first_asked = url_state.widget(st.number_input, "First element drawn", "or_first", 0, minimum=0,
                                       maximum=max(0, count - 1))
        rows_asked = url_state.widget(st.number_input, "Elements drawn", "or_rows", DEFAULTS["or_rows"], minimum=1,
                                      maximum=ROWS_MAX)
        st.caption(f"A grid holds at most {MAX_CELLS:,} cells = {MAX_CELLS // width} elements of this type. "
                   "Every element is computed and cross-checked.")
    first, stop = drawn_range(count, numpy_dtype(f"UINT{width}"), first_asked, rows_asked)
    return first, stop, f"Drawing elements {first} to {stop - 1} of {count:,} (row-major), {width} bits each"



@fragment
def figure(s, first, stop, steps_on, speed):
    """The drawn elements and the picked bit: a click reruns only this part of the page."""
    operands = s.operands
    with admitted(s.work_bytes(), "this tensor"):
        a, _, b = work.or_operands(operands)
        pick = show_pick(operands, first, stop)
        picture = work.or_picture(operands, first, stop, s.in_place, charts.height_for_screen(FIT_HEIGHT))
        picture = work.picked("bitwise", picture, pick)
        remember_valid("bitwise", (s, first, stop))
        if steps_on:
            # The bits of the picked element (or the first drawn one), from the most significant down.
            element = pick[0] if pick is not None else first
            explain.stepper("bitwise", [(f"element #{element}", picture)],
                            lambda title, step: bit_formula(operands, *step.source), "or", speed, element=element)
        else:
            data_type = operands.spec.data_type
            charts.show(explain.with_speed(picture, speed), CHART,
                        file_stem(operands.op, data_type, *operands.sizes, f"from{first}"),
                        f"{operands.op}, {data_type} {list(operands.sizes)}, elements {first} to {stop - 1}",
                        on_select=functools.partial(remember_pick, BitwisePage.pick, CHART, pick_from_selection))
            if pick is not None:
                explain.formula_block("The formula for the picked bit",
                                      functools.partial(bit_formula, operands, *pick))
        st.dataframe(decode_rows(a, b, work.or_output(operands), first, stop), hide_index=True, key="or_table")


def descriptors(s):
    """The descs and the dispatch's bindings, with what a broadcast or an in-place binding means."""
    operands, in_place, op = s.operands, s.in_place, s.operator
    data_type, sizes, broadcast = operands.spec.data_type, operands.sizes, operands.broadcast
    expression = op.lesson.expression(INPUT_NAMES[:op.arity[0]])
    fields = op.tensor_fields()
    names = dict(zip((f.name for f in fields), (*INPUT_NAMES[:op.arity[0]], "Output")))
    with st.expander("Descriptors and bindings", expanded=bool(broadcast) or in_place):
        output_type = unchecked_call(operands).output_types[0]
        descs = {}
        for number, f in enumerate(fields):
            descs[f.name] = b_descriptor(output_type if f.kind == OUTPUT else data_type, sizes,
                                         broadcast if number == 1 and f.kind != OUTPUT else ())
        st.code(json.dumps(descs, indent=1), language="json")
        if broadcast and operands.binary:
            b_field = fields[1].name
            st.markdown(
                f"**Broadcast.** DirectML has no implicit broadcasting: A, B and Output must have equal Sizes. B "
                f"stores only {list(operands.b_sizes)} ({math.prod(operands.b_sizes)} values) and its descriptor "
                f"says Sizes {list(sizes)} with Strides {descs[b_field]['Strides']}: a 0 stride reads the same "
                f"element again for every index along that dim. Here B is np.broadcast_to(B stored, Sizes), then "
                f"{expression}."
            )
        bindings = {name: ("A" if in_place and f.kind == OUTPUT else names[name])
                    for name, f in zip(names, fields)}
        st.code(json.dumps({"type": "dispatch", "dispatchable": op.core_name, "bindings": bindings}, indent=1),
                language="json")
        if in_place:
            st.markdown(
                f"**In place.** OutputTensor is bound to A's buffer, so no Output buffer is allocated: after the "
                f"dispatch A's buffer holds {expression} and A's old values are gone. "
                f"{op.name.removeprefix('ELEMENT_WISE_')} allows this because each output element depends only on "
                "the same element of its inputs."
            )


def values_fixes(operands):
    """Fixes for settings the core refuses: Sizes that hold A's values, B from the pattern, a DataType the operation
    takes (of the same width when there is one), an operation that takes the DataType."""
    count, options = math.prod(operands.sizes), []
    given = values_count(operands.spec.text) if operands.spec.pattern == "custom" else count
    if 0 < given != count:
        options.append(Fix(f"Sizes {given}", (("or_sizes", str(given)), ("or_bcast", ""))))
    if operands.b_text is not None and values_count(operands.b_text) != math.prod(operands.b_sizes):
        options.append(Fix("B from the pattern", (("or_b_source", "derived"),)))
    data_type, op = operands.spec.data_type, operands.operator
    if data_type not in op.supported_types:
        width = numpy_dtype(data_type).itemsize
        same = [t for t in op.supported_types if numpy_dtype(t).itemsize == width]
        chosen = (same or list(op.supported_types))[0]
        options.append(Fix(f"DataType {chosen}", (("dtype", chosen),)))
        other = next((o.name for o in OPERATIONS.values() if data_type in o.supported_types), None)
        if other is not None:
            options.append(Fix(f"Operation {other}", (("bw_op", other),)))
    return Fixes("these settings", tuple(options)) if options else None


def inputs_of(operands):
    return work.or_inputs(operands)


def outputs_of(operands):
    return [work.or_output(operands)]


class BitwisePage(OperatorPage):
    key, name, pick = "or", "bitwise", "or_pick"
    # The operator's name goes under the title: as one 23-letter word it broke mid-word in a 800 px window.
    @property
    def title(self):
        """'Bitwise OR' (every link older than the Operation setting), 'Bitwise SHIFT LEFT': the chosen operation's
        DirectML name after ELEMENT_WISE_BIT_. Read from the link before the Operation widget is drawn."""
        name = url_state.ahead("bw_op", DEFAULTS["bw_op"], OPERATIONS)
        return "Bitwise " + name.removeprefix("ELEMENT_WISE_BIT_").replace("_", " ")

    introduction = ("**DML_ELEMENT_WISE_BIT_OR** and the rest of DirectML's bitwise family (the Operation, under "
                    "Operands) on each element's raw bits. Click a bit to follow it through A, B and Output.")
    groups = ("Operands",)
    presets = PRESETS

    def controls(self, boxes, settings):
        with boxes[0]:
            name = url_state.widget(st.selectbox, "Operation", "bw_op", DEFAULTS["bw_op"], options=list(OPERATIONS),
                                    format_func=operation_label,
                                    help="DirectML's bitwise operators (DML_OPERATOR_...); OR is the default")
            op = OPERATIONS[name]
            attrs = ()
            chosen = output_attribute(op)
            if chosen is not None:
                attribute, choices, default = chosen
                output_type = url_state.widget(st.radio, "Output DataType", "bw_out_type", default,
                                               options=list(choices), horizontal=True,
                                               help=f"{op.name} writes its count as one of these types")
                attrs = ((attribute, output_type),)
            inputs = " and ".join(INPUT_NAMES[:op.arity[0]])
            sizes = url_state.widget(st.text_input, "Sizes", "or_sizes", DEFAULTS["or_sizes"],
                                     help=f"1 to 8 sizes separated by commas; {inputs} and Output share them")
            b_text, bcast = None, ""
            if is_binary(op):
                b_text, bcast = self.b_controls(op)
            in_place = False
            if op.in_place:
                in_place = url_state.widget(st.checkbox, "In place: Output aliases A's buffer", "or_inplace",
                                            DEFAULTS["or_inplace"])
            st.caption(
                f"{op.summary}: the DataType only sets the width (8 to 64 bits), so on floats it works on the sign, "
                f"exponent and mantissa fields alike. Input types by {support_text(op)}. DataType, feature level and "
                "value pattern of A are below."
            )
        return Controls(sizes, b_text, bcast, bool(in_place), name, attrs)

    def b_controls(self, op):
        """B's values and broadcast, for a binary operator: (typed text or None, broadcast dims text)."""
        meaning = f" ({op.lesson.second})" if op.lesson.second else ""
        source = url_state.widget(st.radio, f"B values{meaning}", "or_b_source", DEFAULTS["or_b_source"],
                                  options=list(B_SOURCES), format_func=B_SOURCES.get)
        b_text = None
        if source == "typed":
            b_text = url_state.widget(st.text_area, f"B typed values{meaning}", "or_b_text", DEFAULTS["or_b_text"],
                                      max_chars=TYPED_MAX_CHARS,
                                      help="B's stored values, row-major; with broadcast dims B stores size 1 "
                                           "along them")
        bcast = url_state.widget(st.text_input, "Broadcast B along dims", "or_bcast", DEFAULTS["or_bcast"],
                                 help="e.g. 0 or 0,1: B stores size 1 there and its descriptor strides are 0")
        return b_text, bcast

    def line(self, c, settings):
        binary = is_binary(OPERATIONS[c.op])
        return [c.op, f"{settings.data_type} {braced(c.sizes_text)}",
                ", ".join(f"Output {value}" for _, value in c.attrs),
                ("B typed" if c.b_text is not None else "B from the pattern") if binary else "",
                f"B broadcast along {c.bcast_text.strip()}" if c.bcast_text.strip() else "",
                "in place" if c.in_place else ""]

    def notes(self, c, settings):
        if c.b_text is not None:
            show_value_notes(c.b_text, settings.data_type, "B typed values")

    def configure(self, c, settings):
        sizes = parse_int_list(c.sizes_text, "Sizes")
        check_element_count(sizes, "Sizes")
        broadcast = set(parse_int_list(c.bcast_text, "Broadcast dims", minimum=0)) if c.bcast_text.strip() else set()
        for d in sorted(broadcast):
            if d >= len(sizes):
                raise DescriptorError(f"Broadcast dims: dim {d} is not in [0, {len(sizes) - 1}] for Sizes "
                                      f"{list(sizes)}")
        return Settings(work.OrOperands(settings.values, tuple(sizes), tuple(sorted(broadcast)), c.b_text, c.op,
                                        c.attrs), c.in_place)

    def work_bytes(self, s):
        return s.work_bytes()

    def compute(self, s):
        try:
            work.or_output(s.operands)
        except DescriptorError as exc:
            raise Refused(str(exc), values_fixes(s.operands), described=s) from None

    def quiz(self, s):
        inputs = work.or_inputs(s.operands)
        questions = QuizSettings(s.call, tuple(tuple(int(v) for v in bits_of(x)[:QUIZ_ELEMENTS]) for x in inputs))
        return questions, functools.partial(reveal, s)

    def quiz_input(self, s, question):
        return ask(s, question)

    def figure(self, s, steps_on, speed):
        first, stop, drawn = drawn_elements(s)
        drawn_part(self.row, [drawn], whole=stop - first == math.prod(s.operands.sizes))
        figure(s, first, stop, steps_on, speed)

    def below_figure(self, s):
        descriptors(s)

    def draw_last_valid(self, drawn):
        s, first, stop = drawn
        charts.picture(work.or_picture(s.operands, first, stop, s.in_place), "or_last_valid", "Last valid view")

    def panels(self, s, refusal=None):
        operands = s.operands
        elsewhere = (("b_sizes", operands.b_sizes),) if operands.binary else ()
        return [Panels(unchecked_call(operands),
                       Arrays((operands.operator.core_name, operands), functools.partial(inputs_of, operands),
                              functools.partial(outputs_of, operands), refusal, elsewhere=elsewhere), "or_panels")]


render(BitwisePage())
