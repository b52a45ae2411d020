"""DML_ELEMENT_WISE_BIT_OR: bitwise OR on the native encoding; the data type only sets the width (SPEC section 4)."""

import numpy as np

from ...datatypes import unsigned_of_width
from ...errors import DescriptorError
from ...guard import check_tensor
from ...tensor_desc import Problem, join_path
from .. import parallel
from ..base import ALL_TYPES, INPUT, OUTPUT, Field, Operator, support_rows
from . import teaching
from .frameworks import BinaryBitwiseForms


def bit_or(a, b):
    check_tensor(a, "ATensor", dims=(1, 8))
    check_tensor(b, "BTensor", dims=(1, 8))
    if a.dtype != b.dtype:
        raise DescriptorError(f"BTensor DataType {b.dtype}: must equal ATensor DataType {a.dtype}")
    if a.shape != b.shape:
        raise DescriptorError(
            f"BTensor Sizes {list(b.shape)}: must equal ATensor Sizes {list(a.shape)} "
            "(DirectML has no implicit broadcasting; use a 0 stride in the descriptor)"
        )
    bits = unsigned_of_width(a.dtype.itemsize)
    out = np.empty(a.shape, dtype=bits)
    parallel.elementwise(lambda o, x, y: np.bitwise_or(x, y, out=o), out, a.view(bits), b.view(bits))
    return out.view(a.dtype)


class BinaryBitwise(Operator):
    """f(a, b) applied to the bits of every element pair; A, B and Output share DataType, DimensionCount and Sizes."""

    arity = (2, 2)
    in_place = True
    fields = (Field("ATensor", INPUT, resource="A"), Field("BTensor", INPUT, resource="B"),
              Field("OutputTensor", OUTPUT, resource="output"))

    def output_shapes(self, input_shapes, attrs):
        a, b = (tuple(s) for s in input_shapes)
        if a != b:
            raise DescriptorError(f"BTensor Sizes {list(b)}: must equal ATensor Sizes {list(a)} (DirectML has no "
                                  "implicit broadcasting; use a 0 stride in the descriptor)")
        return [a]

    def implied_output_shapes(self, input_shapes, attrs):
        return [list(input_shapes[0])]

    def shape_problems(self, parsed, path):
        a = parsed.tensors["ATensor"]
        return [Problem(join_path(join_path(path, name), "Sizes"),
                        f"{name}.Sizes {list(other.Sizes)}: must equal ATensor.Sizes {list(a.Sizes)} (no implicit "
                        "broadcasting; broadcast with a 0 stride instead)")
                for name in ("BTensor", "OutputTensor") if (other := parsed.tensors[name]).Sizes != a.Sizes]

    def onnx_graph(self, attrs, shapes):
        from onnx import helper

        return [helper.make_node(self.onnx, ["x0", "x1"], ["y0"])], []

    def identity_call(self, x, attrs):
        return [x, x], {}


class BitOr(BinaryBitwise):
    name = "ELEMENT_WISE_BIT_OR"
    code = 122
    summary = "Output = A | B on each element's raw bits"
    onnx = "BitwiseOr"
    core_name = "bit_or"
    formula, question = teaching.formula, teaching.question  # its teaching: teaching.py
    support = support_rows("ELEMENT_WISE_BIT_OR", ("3_0", 1, 8, ("UINT32", "UINT16", "UINT8")), ("4_1", 1, 8, ALL_TYPES))
    frameworks = BinaryBitwiseForms("np.bitwise_or", "torch.bitwise_or", "tf.bitwise.bitwise_or", commutes=True)

    def compute(self, inputs, attrs):
        return [bit_or(*inputs)]


ELEMENT_WISE_BIT_OR = BitOr()
OPERATORS = (ELEMENT_WISE_BIT_OR,)
