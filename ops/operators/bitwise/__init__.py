"""DirectML's bitwise family: AND, OR, XOR and NOT, the two logical shifts and the population count, each on its
elements' raw bits (core.py; SPEC section 4 for OR).

Each operator's fields, support table, output type and in-place rule are its DirectML API page's
(https://learn.microsoft.com/windows/win32/api/directml/ns-directml-dml_element_wise_bit_<name>_operator_desc), and
its DML_OPERATOR_TYPE value DirectML.h's (counted past DML_OPERATOR_SCATTER, which aliases SCATTER_ELEMENTS and takes
no value of its own; ELEMENT_WISE_BIT_OR's 122 runs on DirectML).
"""

import numpy as np

from ...datatypes import numpy_dtype, type_name
from ...errors import DescriptorError
from ...levels import SupportRow
from ...tensor_desc import Problem, join_path
from ..base import ALL_TYPES, INPUT, OUTPUT, Attribute, Field, Operator, support_rows
from . import teaching
from .core import bit_and, bit_count, bit_not, bit_or, bit_shift_left, bit_shift_right, bit_xor
from .frameworks import BinaryBitwiseForms, BitCountForms, ShiftForms, UnaryBitwiseForms

_NARROW_UNSIGNED = ("UINT32", "UINT16", "UINT8")
_UNSIGNED = ("UINT64",) + _NARROW_UNSIGNED
_BROADCAST_HINT = "DirectML has no implicit broadcasting; use a 0 stride in the descriptor"


def _logic_support(name):
    """AND, OR, XOR and NOT: "introduced in DML_FEATURE_LEVEL_3_0" with UINT32, UINT16, UINT8 in 1 to 8 dimensions;
    every type from DML_FEATURE_LEVEL_4_1 (their pages' "Tensor support")."""
    return support_rows(name, ("3_0", 1, 8, _NARROW_UNSIGNED), ("4_1", 1, 8, ALL_TYPES))


def _shift_support(name):
    """The shifts: "introduced in DML_FEATURE_LEVEL_2_1" with 4 dimensions, 1 to 8 from 3_0, UINT64 too from 4_1;
    unsigned types only at every level (their pages' "Tensor support")."""
    return support_rows(name, ("2_1", 4, 4, _NARROW_UNSIGNED), ("3_0", 1, 8, _NARROW_UNSIGNED),
                        ("4_1", 1, 8, _UNSIGNED))


class Bitwise(Operator):
    """An operator on each element's raw bits: the data type only sets the width, the sizes do not change. Each one's
    `lesson` (teaching.py) is what it teaches; `function` is its core (core.py)."""

    lesson: teaching.Lesson
    formula, question = teaching.formula, teaching.question

    def output_shapes(self, input_shapes, attrs):
        first = tuple(input_shapes[0])
        for label, shape in zip(self.input_labels(len(input_shapes))[1:], input_shapes[1:]):
            if tuple(shape) != first:
                raise DescriptorError(f"{label} Sizes {list(shape)}: must equal {self.input_labels(1)[0]} Sizes "
                                      f"{list(first)} ({_BROADCAST_HINT})")
        return [first]

    def implied_output_shapes(self, input_shapes, attrs):
        return [list(input_shapes[0])]

    def shape_problems(self, parsed, path):
        """Every tensor's Sizes equal the first input's ("Tensor constraints" on each page; DimensionCount follows)."""
        labels = [f.name for f in self.tensor_fields()]
        first = parsed.tensors[labels[0]]
        return [Problem(join_path(join_path(path, name), "Sizes"),
                        f"{name}.Sizes {list(other.Sizes)}: must equal {labels[0]}.Sizes {list(first.Sizes)} (no "
                        "implicit broadcasting; broadcast with a 0 stride instead)")
                for name in labels[1:] if (other := parsed.tensors[name]).Sizes != first.Sizes]

    def compute(self, inputs, attrs):
        return [self.function(*inputs)]

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        inputs = [f"x{i}" for i in range(self.arity[0])]
        return [helper.make_node(self.onnx, inputs, ["y0"], **dict(self.onnx_attributes))], []


class BinaryBitwise(Bitwise):
    """f(a, b) on every element pair; A, B and Output share DataType, DimensionCount and Sizes. Every page of the
    binary ones says the output may alias an input."""

    arity = (2, 2)
    in_place = True
    fields = (Field("ATensor", INPUT, resource="A"), Field("BTensor", INPUT, resource="B"),
              Field("OutputTensor", OUTPUT, resource="output"))


class Logic(BinaryBitwise):
    """AND, OR and XOR: each output bit from the same bit of A and of B."""

    def identity_call(self, x, attrs):
        return [x, self.identity_operand(x)], {}


class BitAnd(Logic):
    name = "ELEMENT_WISE_BIT_AND"
    code = 121
    summary = "Output = A & B on each element's raw bits"
    onnx = "BitwiseAnd"
    core_name = "bit_and"
    function = staticmethod(bit_and)
    lesson = teaching.LOGIC["&"]
    support = _logic_support("ELEMENT_WISE_BIT_AND")
    frameworks = BinaryBitwiseForms("np.bitwise_and", "torch.bitwise_and", "tf.bitwise.bitwise_and", commutes=True)

    def identity_operand(self, x):
        return x  # x & x = x


class BitOr(Logic):
    name = "ELEMENT_WISE_BIT_OR"
    code = 122
    summary = "Output = A | B on each element's raw bits"
    onnx = "BitwiseOr"
    core_name = "bit_or"
    function = staticmethod(bit_or)
    lesson = teaching.LOGIC["|"]
    support = _logic_support("ELEMENT_WISE_BIT_OR")
    frameworks = BinaryBitwiseForms("np.bitwise_or", "torch.bitwise_or", "tf.bitwise.bitwise_or", commutes=True)

    def identity_operand(self, x):
        return x  # x | x = x


class BitXor(Logic):
    # The XOR page's example is NOT's, copied: one InputTensor {0, 128, 42, 255} and its complement, where XOR has
    # two inputs; its fields, constraints and support table are XOR's own.
    name = "ELEMENT_WISE_BIT_XOR"
    code = 123
    summary = "Output = A ^ B on each element's raw bits"
    onnx = "BitwiseXor"
    core_name = "bit_xor"
    function = staticmethod(bit_xor)
    lesson = teaching.LOGIC["^"]
    support = _logic_support("ELEMENT_WISE_BIT_XOR")
    frameworks = BinaryBitwiseForms("np.bitwise_xor", "torch.bitwise_xor", "tf.bitwise.bitwise_xor", commutes=True)

    def identity_operand(self, x):
        return np.zeros_like(x)  # x ^ 0 = x


class Shift(BinaryBitwise):
    """A logical shift of A's bits by B's element: what DirectML does past the width is core.shift_amounts'."""

    # The bits of one element move between its bytes, so ONNX Runtime may not run it on UINT8 bytes.
    byte_axis = None

    def identity_call(self, x, attrs):
        return [x, np.zeros_like(x)], {}  # a shift by 0

    def onnx_text(self, attrs, input_count):
        direction = dict(self.onnx_attributes)["direction"]
        return (f"ONNX BitShift (direction {direction}; it empties an element shifted by its width or more, where "
                "DirectML does not: docs/directml.md, \"Shifts past the width\")")


class BitShiftLeft(Shift):
    name = "ELEMENT_WISE_BIT_SHIFT_LEFT"
    code = 97
    summary = "Output = A << B on each element's raw bits (a logical shift)"
    onnx = "BitShift"
    onnx_attributes = (("direction", "LEFT"),)
    core_name = "bit_shift_left"
    function = staticmethod(bit_shift_left)
    lesson = teaching.SHIFTS["<<"]
    support = _shift_support("ELEMENT_WISE_BIT_SHIFT_LEFT")
    frameworks = ShiftForms(left=True)


class BitShiftRight(Shift):
    name = "ELEMENT_WISE_BIT_SHIFT_RIGHT"
    code = 98
    summary = "Output = A >> B on each element's raw bits (a logical shift)"
    onnx = "BitShift"
    onnx_attributes = (("direction", "RIGHT"),)
    core_name = "bit_shift_right"
    function = staticmethod(bit_shift_right)
    lesson = teaching.SHIFTS[">>"]
    support = _shift_support("ELEMENT_WISE_BIT_SHIFT_RIGHT")
    frameworks = ShiftForms(left=False)


class UnaryBitwise(Bitwise):
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"))


class BitNot(UnaryBitwise):
    name = "ELEMENT_WISE_BIT_NOT"
    code = 124
    summary = "Output = ~Input on each element's raw bits"
    onnx = "BitwiseNot"
    core_name = "bit_not"
    in_place = True  # "the output tensor is permitted to alias the input tensor during binding"
    function = staticmethod(bit_not)
    lesson = teaching.NOT
    support = _logic_support("ELEMENT_WISE_BIT_NOT")
    frameworks = UnaryBitwiseForms("np.invert", "torch.bitwise_not", "tf.bitwise.invert")

    def identity_call(self, x, attrs):
        return [bit_not(x)], {}  # ~~x = x


def _count_type(value):
    name = type_name(value, "OutputTensor DataType")
    if name not in BitCount.output_choices:
        raise DescriptorError(f"OutputTensor DataType {name}: {BitCount.name} writes "
                              f"{' or '.join(BitCount.output_choices)}")
    return name


class BitCount(UnaryBitwise):
    """The number of bits set in each element. Its output's DataType is its own (UINT32 or UINT8 at every level),
    which the desc has no field for: the call carries it as the attribute output_type, the OutputTensor's type."""

    name = "ELEMENT_WISE_BIT_COUNT"
    code = 125
    summary = "Output = the number of bits set in each element (population count)"
    onnx = None  # ONNX has no population count operator (https://onnx.ai/onnx/operators/)
    core_name = "bit_count"
    output_choices = ("UINT32", "UINT8")
    attributes = (Attribute("output_type", "OutputTensor DataType", _count_type, "UINT32"),)
    fields = (Field("InputTensor", INPUT, resource="input"),
              Field("OutputTensor", OUTPUT, attribute="output_type", resource="output"))
    lesson = teaching.COUNT
    # Its page: introduced at 3_0 reading UINT32, UINT16, UINT8, every type from 4_1; writing UINT32 or UINT8 at both.
    # The page says nothing of in-place execution, unlike every other page of the family.
    support = (
        SupportRow("ELEMENT_WISE_BIT_COUNT", "3_0", 1, 8, _NARROW_UNSIGNED, output_types=output_choices),
        SupportRow("ELEMENT_WISE_BIT_COUNT", "4_1", 1, 8, ALL_TYPES, output_types=output_choices),
    )
    frameworks = BitCountForms()

    def compute(self, inputs, attrs):
        return [bit_count(inputs[0], numpy_dtype(attrs["output_type"]))]

    def identity_call(self, x, attrs):
        return None  # a count is not its input


ELEMENT_WISE_BIT_AND = BitAnd()
ELEMENT_WISE_BIT_OR = BitOr()
ELEMENT_WISE_BIT_XOR = BitXor()
ELEMENT_WISE_BIT_NOT = BitNot()
ELEMENT_WISE_BIT_COUNT = BitCount()
ELEMENT_WISE_BIT_SHIFT_LEFT = BitShiftLeft()
ELEMENT_WISE_BIT_SHIFT_RIGHT = BitShiftRight()
OPERATORS = (ELEMENT_WISE_BIT_OR, ELEMENT_WISE_BIT_AND, ELEMENT_WISE_BIT_XOR, ELEMENT_WISE_BIT_NOT,
             ELEMENT_WISE_BIT_COUNT, ELEMENT_WISE_BIT_SHIFT_LEFT, ELEMENT_WISE_BIT_SHIFT_RIGHT)

__all__ = ["OPERATORS", "bit_and", "bit_count", "bit_not", "bit_or", "bit_shift_left", "bit_shift_right", "bit_xor"]
