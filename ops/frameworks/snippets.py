"""The same operation elsewhere: copyable code that computes what a DirectML operator computes, per framework.

Every snippet is generated from one checked call (operator, sizes, data type, the operator's attributes, and B's
broadcast for Bitwise OR), binds its inputs by name (x for one input; a and b for ATensor and BTensor; xs for a list)
and leaves its result in `y` (an array), `ys` (a list of arrays) or `model` (an onnx ModelProto whose graph inputs
x0, x1, ... and outputs y0, y1, ... the session feeds and reads).

What is specific to an operator, its lines in each framework and the conventions each framework follows for it, with
their sources, is the operator's own: its `frameworks` (ops/operators/framework_forms.py, written in its family's
frameworks.py). This module writes what every snippet shares: imports, the header, the ONNX model and session around
the operator's nodes, and the DirectML C++ of the descriptor.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Sequence
from typing import Any

from numpy.typing import DTypeLike

from ..datatypes import numpy_dtype
from ..descriptors.export import cpp_snippet, export_operator_name
from ..errors import DescriptorError
from ..operators import Call, Operator, operator
from ..operators.base import INPUTS, OUTPUTS
from ..operators.framework_forms import literal

FRAMEWORKS = ("numpy", "einops", "onnx", "pytorch", "tensorflow", "directml")
# What a Python snippet imports for its framework; numpy is imported too wherever its code uses np.
_IMPORTS = {"numpy": ("import numpy as np",), "einops": ("from einops import rearrange",),
            "pytorch": ("import torch",), "tensorflow": ("import tensorflow as tf",)}
_USES_NUMPY = re.compile(r"\bnp\.")
_USES_EINOPS_REPEAT = re.compile(r"\brepeat\(")


@dataclasses.dataclass(frozen=True)
class Snippet:
    """Code for one framework: `code` is None when the framework has no equivalent (the note says why)."""

    framework: str
    language: str  # "python" or "cpp"
    code: str | None
    note: str
    inputs: tuple  # names the code expects bound: ("x",), ("a", "b") or ("xs",)
    result: str  # where the code leaves its result: "y", "ys", "model" or "operatorDesc"
    order: str = ""  # the convention the framework's own operation follows for the operator (depth/space: its Order)


def framework_snippets(op: str, input_sizes: Sequence[int] | Sequence[Sequence[int]], data_type: DTypeLike = "FLOAT32",
                       **settings: Any) -> list[Snippet]:
    """One Snippet per framework (FRAMEWORKS order) computing what the DirectML operator computes.

    op: DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 (settings block_size, order), ELEMENT_WISE_BIT_OR (b_sizes: B's stored
    sizes, broadcast to A's, default A's), SPLIT (axis, sizes: the outputs' sizes along axis) or JOIN (axis;
    input_sizes is then a list of sizes, one per input); core names (depth_to_space, ...) work too. input_sizes are
    the (first) input's sizes. Invalid settings raise DescriptorError before any code is generated.
    """
    spec = operator(export_operator_name(op))
    if spec.frameworks is None:
        raise DescriptorError(f"op {spec.name}: no snippets in other frameworks (see its operator module)")
    shared = _Shared.of(spec, *spec.frameworks.checked(spec, input_sizes, data_type, settings))
    return [_WRITERS[framework](shared) if framework in _WRITERS else _python(framework, shared)
            for framework in FRAMEWORKS]


# ---------------------------------------------------------------- what every snippet shares


def _bindings(spec):
    """x for one input, xs for an array of them, else each input field's letter: a and b for ATensor and BTensor."""
    inputs = [f for f in spec.fields if f.is_input]
    if any(f.kind == INPUTS for f in inputs):
        return ("xs",)
    if len(inputs) == 1:
        return ("x",)
    return tuple(f.name.removesuffix("Tensor").lower() for f in inputs)


def _title(spec, call):
    """The operator and its attributes as the descriptor labels them: an order's ONNX name in parentheses."""
    parts = [spec.name]
    for attribute in spec.attributes:
        value = call.attr(attribute.name)
        if value is None:  # an attribute left to its default of nothing (SLICE1's output sizes: all it yields)
            continue
        field = next((f for f in spec.fields if f.attribute == attribute.name), None)
        short = field.enum.short(value) if field and field.enum else ""
        parts.append(f"{attribute.label} {list(value) if isinstance(value, tuple) else value}"
                     + (f" ({short})" if short else ""))
    return ", ".join(parts)


def _shape_comment(call, stored, names):
    if names == ("xs",):
        return f"# xs: {len(stored)} {call.data_type} arrays " + ", ".join(f"[{literal(s)}]" for s in stored)
    if len(set(call.input_types)) > 1:  # an input with a type of its own (a gather's indices): each named
        return "# " + "; ".join(f"{name}: {t} [{literal(s)}]" for name, t, s in zip(names, call.input_types, stored))
    broadcast = "".join(f"; {name} stored as [{literal(kept)}], broadcast"
                        for name, kept, sizes in zip(names, stored, call.input_sizes) if kept != sizes)
    return f"# {', '.join(names)}: {call.data_type} [{literal(call.input_sizes[0])}]{broadcast}"


@dataclasses.dataclass(frozen=True)
class _Shared:
    """What the snippets of one call share: the call, each input's stored sizes, the operator, the names the code
    reads its inputs from and leaves its result in, and the comment lines under the imports."""

    call: Call
    stored: tuple
    spec: Operator
    inputs: tuple
    result: str
    comments: tuple

    @classmethod
    def of(cls, spec, call, stored):
        inputs = _bindings(spec)
        result = "ys" if any(f.kind == OUTPUTS for f in spec.fields) else "y"
        return cls(call, stored, spec, inputs, result,
                   (f"# {_title(spec, call)}", _shape_comment(call, stored, inputs)))

    def snippet(self, framework, language, code, note, inputs=None, result=None):
        return Snippet(framework, language, code, note, self.inputs if inputs is None else inputs,
                       result or self.result, self.spec.frameworks.conventions.get(framework, ""))

    def code(self, imports, lines):
        """Imports, a blank line, the comments, the lines."""
        return "\n".join([*imports, "", *self.comments, *lines]) + "\n"


def _python(framework, shared):
    """The operator's lines for `framework` under the shared header."""
    form = getattr(shared.spec.frameworks, framework)(shared.call, shared.stored)
    if form.lines is None:
        return shared.snippet(framework, "python", None, form.note)
    imports = _IMPORTS[framework]
    if framework == "einops" and any(_USES_EINOPS_REPEAT.search(line) for line in form.lines):
        imports = ("from einops import repeat",)  # a tile or a repeat: einops.repeat, not rearrange
    if any(_USES_NUMPY.search(line) for line in form.lines) and "import numpy as np" not in imports:
        imports = ("import numpy as np", *imports)
    return shared.snippet(framework, "python", shared.code(imports, form.lines), form.note)


# ---------------------------------------------------------------- ONNX


def _attribute_code(name, value):
    # Cast's and BitCast's `to` is a TensorProto.DataType (https://onnx.ai/onnx/operators/onnx__Cast.html).
    if name == "to":
        from onnx import TensorProto

        return f"TensorProto.{TensorProto.DataType.Name(value)}"
    return json.dumps(value.decode()) if isinstance(value, bytes) else repr(value)


def _node_code(node):
    """The helper.make_node call that builds `node`."""
    from onnx import helper

    arguments = [json.dumps(node.op_type), json.dumps(list(node.input)), json.dumps(list(node.output))]
    arguments += [f"{a.name}={_attribute_code(a.name, helper.get_attribute_value(a))}" for a in node.attribute]
    return f"helper.make_node({', '.join(arguments)})"


def _initializer_code(tensor):
    from onnx import numpy_helper

    array = numpy_helper.to_array(tensor)
    return f'numpy_helper.from_array(np.array({array.tolist()}, np.{array.dtype}), "{tensor.name}")'


def _graph_code(shared, form):
    """Lines building `model` from the form's nodes and initializers, with typed graph inputs and outputs."""
    from onnx import TensorProto, helper

    call = shared.call

    def element(data_type):
        code = helper.np_dtype_to_tensor_dtype(numpy_dtype(data_type))
        return f"TensorProto.{TensorProto.DataType.Name(code)}"

    def infos(prefix, all_sizes, types):
        return ", ".join(f'helper.make_tensor_value_info("{prefix}{i}", {element(t)}, [{literal(sizes)}])'
                         for i, (sizes, t) in enumerate(zip(all_sizes, types)))

    comment = [f"    # {form.comment}"] if form.comment else []
    initializers = [f"    {_initializer_code(t)}," for t in form.initializers]
    return [
        "nodes = [", *comment, *(f"    {_node_code(node)}," for node in form.nodes), "]",
        *(["initializers = [", *initializers, "]"] if initializers else ["initializers = []"]),
        "graph = helper.make_graph(",
        "    nodes,",
        f'    "{call.op.lower()}",',
        f"    [{infos('x', shared.stored, call.input_types)}],",
        f"    [{infos('y', call.output_sizes, call.output_types)}],",
        "    initializer=initializers,",
        ")",
        f'model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", {form.opset})], '
        f"ir_version={form.ir_version})",
        "onnx.checker.check_model(model)",
    ]


def _onnx(shared):
    """The operator's ONNX graph as a model run on ONNX Runtime's CPU provider, inputs fed from the bound arrays."""
    form = shared.spec.frameworks.onnx(shared.call, shared.stored)
    if form.nodes is None:
        return shared.snippet("onnx", "python", None, form.note)
    if shared.inputs == ("xs",):
        feeds = '{f"x{i}": part for i, part in enumerate(xs)}'
    else:
        feeds = "{" + ", ".join(f'"x{i}": {name}' for i, name in enumerate(shared.inputs)) + "}"
    imports = ["import numpy as np"] if form.initializers else []
    imports += ["import onnx", "import onnxruntime as ort"]
    imports.append("from onnx import TensorProto, helper" + (", numpy_helper" if form.initializers else ""))
    lines = _graph_code(shared, form) + [
        "",
        'session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])',
        f"feeds = {feeds}",
        f"{shared.result} = session.run(None, feeds)" + ("" if shared.result == "ys" else "[0]"),
    ]
    return shared.snippet("onnx", "python", shared.code(imports, lines), form.note)


# ---------------------------------------------------------------- DirectML


def _broadcast_strides(sizes, stored):
    """Strides that read a tensor stored with `stored` sizes as `sizes`: packed, 0 where it broadcasts."""
    packed = [math.prod(stored[d + 1:]) for d in range(len(stored))]
    return [0 if kept == 1 and size > 1 else step for size, kept, step in zip(sizes, stored, packed)]


def _directml(shared):
    """The descriptor as C++ (ops.cpp_snippet of the call's dispatchable); a broadcast input as its 0 strides."""
    spec, call, stored = shared.spec, shared.call, shared.stored
    dispatchable = spec.dispatchable(call.input_sizes, call.data_type, call.attributes, call.output_sizes)
    desc = dispatchable["desc"]
    input_descs = [d for f in spec.fields if f.is_input for d in (desc[f.name] if f.kind == INPUTS else [desc[f.name]])]
    note = "The descriptor itself, as C++ filling DML_BUFFER_TENSOR_DESCs and the operator desc"
    for label, tensor, sizes, kept in zip(spec.input_labels(len(stored)), input_descs, call.input_sizes, stored):
        if kept != sizes:
            tensor["Strides"] = _broadcast_strides(sizes, kept)
            note += f"; {label}'s broadcast is its 0 strides"
    return shared.snippet("directml", "cpp", cpp_snippet(dispatchable), note + ".", (), "operatorDesc")


_WRITERS = {"onnx": _onnx, "directml": _directml}
