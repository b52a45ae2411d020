"""An operator in other frameworks: what each operator family's frameworks.py gives ops/frameworks.

An operator's `frameworks` is a `Forms`: for one checked call it gives the operator's own lines in numpy, einops,
PyTorch and TensorFlow (a `Form`) and its ONNX nodes (an `OnnxForm`, from the operator's `onnx_graph` unless the
family says otherwise), and it reads an ONNX model's node into the operator's settings. Everything around those lines
(imports, the inputs' names, the header, the ONNX model and session, the DirectML C++) is framework-generic and
written once, in ops/frameworks/snippets.py; the ONNX model reader is ops/frameworks/onnx_models.py.

A form is written for the registry's `Call` plus `stored`: each input's sizes as stored, which equal the call's
input sizes except for an input broadcast to them through 0 strides (Bitwise OR's B).
"""

from __future__ import annotations

import dataclasses

from .base import Call

ONNX_OPSET = 18
# ONNX IR 8 carries opset 18 and loads in older ONNX Runtime releases too (see ops/runtime/cross_check.py).
ONNX_IR_VERSION = 8


@dataclasses.dataclass(frozen=True)
class Form:
    """The operator's own part of one framework's snippet: code lines that read the bound inputs and set the result,
    and a note on what they do; `lines` None when the framework has no equivalent (the note says why)."""

    lines: tuple | None
    note: str


@dataclasses.dataclass(frozen=True)
class OnnxForm:
    """The ONNX graph of a call: nodes and initializers (onnx protos) reading x0, x1, ... and writing y0, y1, ...;
    `comment` is a line to read above the nodes. `nodes` None: ONNX has no equivalent (the note says why)."""

    nodes: tuple | None
    initializers: tuple
    note: str
    opset: int = ONNX_OPSET
    ir_version: int = ONNX_IR_VERSION
    comment: str = ""


def literal(sizes):
    """Sizes as Python literal items: (1, 8, 2, 3) -> '1, 8, 2, 3'."""
    return ", ".join(str(s) for s in sizes)


class Forms:
    """One operator's forms in other frameworks. A family subclasses it and gives every framework's method: a
    framework without an equivalent returns a Form whose lines are None, saying why."""

    # framework -> the convention its own operation follows for this operator, for the snippets' headings
    # (depth/space: which Order it uses); empty when the operator has nothing a framework could do differently.
    conventions: dict = {}
    # A method (node, attributes, shapes, constants, opset) -> (input_sizes, settings) reading an ONNX node of
    # op.onnx into `checked`'s arguments (DescriptorError when DirectML has no such call); None: the model reader
    # does not list that ONNX operator's nodes.
    from_onnx = None

    def checked(self, spec, input_sizes, data_type, settings):
        """(Call, stored) of operator `spec` for a snippet's settings: by default the operator's attributes, every
        input stored as it is read."""
        call = Call.of(spec, input_sizes, data_type, **settings)
        return call, call.input_sizes

    def onnx(self, call, stored):
        """The operator's own ONNX graph (the one the cross-check runs), its ONNX form in words as the note; none,
        saying why, for a call ONNX has no operator for."""
        missing = call.operator.onnx_missing(call.attributes)
        if missing:
            return OnnxForm(None, (), missing + ".")
        nodes, initializers = call.operator.onnx_graph(call.attributes, stored, call.dtype)
        text = call.operator.onnx_text(call.attributes, len(stored))
        return OnnxForm(tuple(nodes), tuple(initializers), text[:1].upper() + text[1:] + ".")

    def numpy(self, call, stored) -> Form:
        raise NotImplementedError

    def einops(self, call, stored) -> Form:
        raise NotImplementedError

    def pytorch(self, call, stored) -> Form:
        raise NotImplementedError

    def tensorflow(self, call, stored) -> Form:
        raise NotImplementedError

    def page_settings(self, call, stored):
        """The call as the operator page's settings (ModelNode.settings in ops/frameworks/onnx_models.py): the
        page's own keys, beside "operator" and "DataType" which the reader adds."""
        raise NotImplementedError
