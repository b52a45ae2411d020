"""DML_ELEMENT_WISE_IDENTITY: f(x) = x per element, from one buffer layout into another.

DirectML's page for DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC (learn.microsoft.com/windows/win32/api/directml/
ns-directml-dml_element_wise_identity_operator_desc): InputTensor and OutputTensor must share DataType,
DimensionCount and Sizes, so on arrays the operator is a copy; what it changes is the layout, which the two buffer
tensor descs' Strides give (ops/descriptors/layouts.py works on the buffers).
"""

from ...tensor_desc import Problem, join_path
from ..base import ALL_TYPES, INPUT, NO_64_BIT, OUTPUT, SCALE_BIAS, Field, Operator, support_rows

_FLOATS_32_16 = ("FLOAT32", "FLOAT16")


class Identity(Operator):
    name = "ELEMENT_WISE_IDENTITY"
    code = 1
    summary = "copies each element (f(x) = x); the two descriptors' strides change the layout"
    onnx = "Identity"
    in_place = True
    copies_between_layouts = True  # "This operator supports in-place execution" (its DirectML API page)
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("ScaleBias", SCALE_BIAS))
    # The page's "Tensor support" (MicrosoftDocs/sdk-api
    # sdk-api-src/content/directml/ns-directml-dml_element_wise_identity_operator_desc.md).
    support = support_rows("ELEMENT_WISE_IDENTITY", ("1_0", 4, 5, _FLOATS_32_16), ("2_1", 4, 5, NO_64_BIT),
                           ("3_0", 1, 8, NO_64_BIT), ("4_1", 1, 8, ALL_TYPES))
    # No snippets in other frameworks: on arrays it is a copy; what it changes, the layout, lives in the two
    # descriptors' Strides, which no framework's call takes (the Layouts page shows them).
    frameworks = None

    def output_shapes(self, input_shapes, attrs):
        return [tuple(input_shapes[0])]

    def compute(self, inputs, attrs):
        return [inputs[0].copy()]

    def shape_problems(self, parsed, path):
        """"Tensor constraints": InputTensor and OutputTensor must have the same DataType, DimensionCount, and Sizes
        (DataType is checked for every operator)."""
        inp, out = parsed.tensors["InputTensor"], parsed.tensors["OutputTensor"]
        if out.Sizes == inp.Sizes:
            return []
        return [Problem(join_path(join_path(path, "OutputTensor"), "Sizes"),
                        f"OutputTensor.Sizes {list(out.Sizes)}: must equal InputTensor.Sizes {list(inp.Sizes)} "
                        "(strides, not sizes, change the layout)")]


ELEMENT_WISE_IDENTITY = Identity()
OPERATORS = (ELEMENT_WISE_IDENTITY,)
