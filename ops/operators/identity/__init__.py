"""DML_ELEMENT_WISE_IDENTITY: f(x) = x per element, from one buffer layout into another.

DirectML's page for DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC (learn.microsoft.com/windows/win32/api/directml/
ns-directml-dml_element_wise_identity_operator_desc): InputTensor and OutputTensor must share DataType,
DimensionCount and Sizes, so on arrays the operator is a copy; what it changes is the layout, which the two buffer
tensor descs' Strides give (ops/descriptors/layouts.py works on the buffers).
"""

import math

from ...errors import DescriptorError
from ...tensor_desc import Problem, join_path
from ..base import ALL_TYPES, INPUT, NO_64_BIT, OUTPUT, SCALE_BIAS, Attribute, Field, Operator, support_rows
from .scale_bias import apply_scale_bias

_FLOATS_32_16 = ("FLOAT32", "FLOAT16")


def scale_bias(value):
    """(Scale, Bias) as two float32 values from None, {"Scale": s, "Bias": b} (DxDispatch's JSON) or a pair; None
    stays None (the field is _Maybenull_: a plain copy)."""
    if value is None:
        return None
    pair = (value.get("Scale"), value.get("Bias")) if isinstance(value, dict) and set(value) == {"Scale", "Bias"} \
        else tuple(value) if isinstance(value, (tuple, list)) else ()
    if len(pair) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in pair):
        raise DescriptorError(f"ScaleBias {value!r:.60}: expected null or {{Scale, Bias}}, two numbers")
    if not all(math.isnan(v) or abs(v) <= 3.4028234663852886e38 or math.isinf(v) for v in pair):
        raise DescriptorError(f"ScaleBias {value!r:.60}: Scale and Bias are FLOATs (float32)")
    return tuple(float(v) for v in pair)


class Identity(Operator):
    name = "ELEMENT_WISE_IDENTITY"
    code = 1
    summary = "copies each element (f(x) = x); the two descriptors' strides change the layout"
    onnx = "Identity"
    in_place = True
    copies_between_layouts = True  # "This operator supports in-place execution" (its DirectML API page)
    attributes = (Attribute("scale_bias", "ScaleBias", scale_bias, None),)
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("ScaleBias", SCALE_BIAS, "scale_bias"))
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
        if attrs.get("scale_bias") is None:
            return [inputs[0].copy()]
        return [apply_scale_bias(inputs[0], *attrs["scale_bias"])]

    def shape_problems(self, parsed, path):
        """"Tensor constraints": InputTensor and OutputTensor must have the same DataType, DimensionCount, and Sizes
        (DataType is checked for every operator). A ScaleBias with 64-bit tensors is refused: DirectML's page is
        silent, and DirectML 1.13's CreateOperator answers E_INVALIDARG for it at every feature level
        (docs/directml_verdicts.md)."""
        inp, out = parsed.tensors["InputTensor"], parsed.tensors["OutputTensor"]
        problems = []
        if out.Sizes != inp.Sizes:
            problems.append(Problem(join_path(join_path(path, "OutputTensor"), "Sizes"),
                                    f"OutputTensor.Sizes {list(out.Sizes)}: must equal InputTensor.Sizes "
                                    f"{list(inp.Sizes)} (strides, not sizes, change the layout)"))
        if parsed.scalars.get("ScaleBias") is not None and inp.element_size == 8:
            problems.append(Problem(join_path(path, "ScaleBias"),
                                    f"ScaleBias {parsed.scalars['ScaleBias']}: not with {inp.DataType} tensors "
                                    "(DirectML takes a ScaleBias only for types of 32 bits or fewer)"))
        return problems


ELEMENT_WISE_IDENTITY = Identity()
OPERATORS = (ELEMENT_WISE_IDENTITY,)
