"""The bitwise family in other frameworks.

Each framework's function of the same name works on integers; float bits go through the integer type of the same
width and back, unchanged (numpy's .view, torch's Tensor.view, tf.bitcast, ONNX BitCast). PyTorch has NOT and the
shifts for int8..int64 and uint8 only ("bitwise_not_cpu" / "lshift_cpu" not implemented for 'UInt16', 'UInt32',
'UInt64': torch 2.13), so those go through the signed type of the same width. B may be stored smaller and broadcast
to A's sizes, as DirectML reads it through 0 strides and numpy, PyTorch and ONNX broadcast.

The shifts write DirectML's own answer past the element's width (core.py), which no framework's shift gives: numpy,
PyTorch and ONNX Runtime empty the element once B reaches the width (ONNX Runtime 1.32's BitShift, measured),
TensorFlow shifts by at most the width - 1 (tf.bitwise.left_shift clamps B). Each snippet computes DirectML's
amount first and shifts by it: narrow types in 32 bits by B & 31, cut back to their width; UINT64 by its rule.
"""

import dataclasses
from collections.abc import Sequence

import numpy as np

from ...datatypes import FLOAT_TYPES, unsigned_of_width
from ...errors import DescriptorError
from ..base import Call, check_sizes
from ..framework_forms import Form, Forms, OnnxForm

# BitCast, which reinterprets float bits for the bitwise operators, exists from opset 26
# (https://onnx.ai/onnx/operators/onnx__BitCast.html), which needs IR 13 (onnx.helper.VERSION_TABLE).
ONNX_BITCAST_OPSET, ONNX_BITCAST_IR_VERSION = 26, 13
NO_EINOPS = "einops rearranges, reduces and repeats axes; it has no bitwise operation: see the numpy snippet."
# PyTorch's bitwise kernels for these types, as listed above.
_TORCH_LACKS = ("UINT16", "UINT32", "UINT64")


def _bits(call, signed=False):
    """The numpy name of the integer of the call's width: np.uint32, or signed np.int32."""
    return f"np.{'' if signed else 'u'}int{call.dtype.itemsize * 8}"


def _unsigned_name(call):
    return f"uint{call.dtype.itemsize * 8}"


def _on_bits_in_onnx(form, call):
    """`form`'s single node run on the float bits: BitCast (opset 26) to the unsigned type of the width and back."""
    from onnx import NodeProto, helper

    bits = helper.np_dtype_to_tensor_dtype(unsigned_of_width(call.dtype.itemsize))
    (node,) = form.nodes
    on_bits = NodeProto()
    on_bits.CopyFrom(node)
    on_bits.input[:] = [f"{n}_bits" for n in node.input]
    on_bits.output[:] = [f"{n}_bits" for n in node.output]
    nodes = [helper.make_node("BitCast", [n], [f"{n}_bits"], to=bits) for n in node.input]
    nodes += [on_bits, helper.make_node("BitCast", [f"{node.output[0]}_bits"], [node.output[0]],
                                        to=helper.np_dtype_to_tensor_dtype(call.dtype))]
    name = call.operator.onnx
    return OnnxForm(tuple(nodes), form.initializers,
                    f"ONNX {name} (opset 18) has no float types; BitCast (opset 26) moves the bits unchanged.",
                    ONNX_BITCAST_OPSET, ONNX_BITCAST_IR_VERSION,
                    f"{name} takes integers only: BitCast reinterprets the float bits (opset 26) and back.")


class BitwiseForms(Forms):
    """What the family shares: einops has no bitwise operation."""

    def einops(self, call, stored):
        return Form(None, NO_EINOPS)


class BinaryForms(BitwiseForms):
    """Snippets of a binary operator take B's stored sizes as the setting `b_sizes` (A's by default); ONNX nodes whose
    two inputs broadcast are read with the larger as A when the operator `commutes`."""

    commutes = False

    def checked(self, spec, input_sizes, data_type, settings):
        accepted = [a.name for a in spec.attributes] + ["b_sizes"]
        unknown = sorted(set(settings) - set(accepted))
        if unknown:
            raise DescriptorError(f"{unknown[0]}: not a setting of {spec.name}; accepted: {', '.join(accepted)}")
        settings = dict(settings)
        b_sizes = settings.pop("b_sizes", None)
        if input_sizes and isinstance(input_sizes[0], Sequence):  # every input's sizes, as a Call holds them
            input_sizes = input_sizes[0]
        call = Call.of(spec, [input_sizes, input_sizes], data_type, **settings)
        a = call.input_sizes[0]
        b = a if b_sizes is None else check_sizes(b_sizes, "BTensor Sizes", (1, len(a)))
        b = (1,) * (len(a) - len(b)) + b
        for d, (size_a, size_b) in enumerate(zip(a, b)):
            if size_b not in (1, size_a):
                raise DescriptorError(
                    f"BTensor Sizes {list(b)}: dimension {d} is {size_b}; B reaches ATensor's {size_a} only by "
                    "broadcasting from size 1 (a 0 stride in DirectML)"
                )
        return call, (a, b)

    def from_onnx(self, node, attributes, shapes, constants, opset):
        """A and B's sizes as ONNX's multidirectional broadcasting reads them
        (https://onnx.ai/onnx/repo-docs/Broadcasting.html): B may be broadcast, A must not be."""
        a, b = shapes
        rank = max(len(a), len(b))
        a, b = [1] * (rank - len(a)) + a, [1] * (rank - len(b)) + b
        out = [max(x, y) for x, y in zip(a, b)]
        for d, (x, y) in enumerate(zip(a, b)):
            if x not in (1, y) and y not in (1, x):
                raise DescriptorError(f"inputs of sizes {shapes[0]} and {shapes[1]} do not broadcast at dimension {d}")
        if a != out and b == out and self.commutes:
            a, b = b, a  # the settings broadcast B
        if a != out:
            raise DescriptorError(
                f"both inputs ({shapes[0]} and {shapes[1]}) are broadcast to {out}; the settings here broadcast B only"
            )
        return a, {"b_sizes": b}

    def page_settings(self, call, stored):
        a, b = stored
        return {"Sizes": list(a), "ASizes": list(a), "BSizes": list(b)}

    @staticmethod
    def broadcast_comment(stored):
        return ["# numpy broadcasts b's size-1 dimensions, as DirectML's 0 strides in BTensor do."] \
            if stored[0] != stored[1] else []


class BinaryBitwiseForms(BinaryForms):
    """f(a, b) on each element pair's bits, written with the function each framework names it by (np.bitwise_or,
    torch.bitwise_or, tf.bitwise.bitwise_or)."""

    def __init__(self, numpy, pytorch, tensorflow, commutes):
        self.numpy_function, self.pytorch_function, self.tensorflow_function = numpy, pytorch, tensorflow
        self.commutes = commutes

    def numpy(self, call, stored):
        lines = self.broadcast_comment(stored)
        if call.data_type in FLOAT_TYPES:
            bits = _bits(call)
            lines += [
                "# Work on the bit patterns: view both as the unsigned integer of the same width, and the result back.",
                f"y = {self.numpy_function}(a.view({bits}), b.view({bits})).view(np.{call.dtype})",
            ]
        else:
            lines.append(f"y = {self.numpy_function}(a, b)")
        return Form(tuple(lines), f"{self.numpy_function} works on integers; floats go through same-width unsigned "
                                  "views, bits unchanged.")

    def onnx(self, call, stored):
        form = super().onnx(call, stored)
        if call.data_type not in FLOAT_TYPES:
            return dataclasses.replace(form, note=f"ONNX {call.operator.onnx} broadcasts b the way numpy does.")
        return _on_bits_in_onnx(form, call)

    def pytorch(self, call, stored):
        function = self.pytorch_function
        if call.data_type in FLOAT_TYPES:
            bits = f"torch.{_unsigned_name(call)}"
            lines = (
                f"# {function} takes integers: view the float bits as the unsigned type of the same width, and back.",
                f"bits = {function}(torch.from_numpy(a).view({bits}), torch.from_numpy(b).view({bits}))",
                f"y = bits.view(torch.{call.dtype}).numpy()",
            )
        else:
            lines = (f"y = {function}(torch.from_numpy(a), torch.from_numpy(b)).numpy()",)
        return Form(lines, f"{function} broadcasts b; floats go through Tensor.view(dtype), which keeps the bits.")

    def tensorflow(self, call, stored):
        function = self.tensorflow_function
        lines = ["b = tf.broadcast_to(b, a.shape)  # DirectML's 0 strides, spelled out"]
        if call.data_type in FLOAT_TYPES:
            bits = f"tf.{_unsigned_name(call)}"
            lines += [
                "# tf.bitwise takes integers: tf.bitcast to the unsigned type of the same width keeps the bits.",
                f"on_bits = {function}(tf.bitcast(a, {bits}), tf.bitcast(b, {bits}))",
                f"y = tf.bitcast(on_bits, tf.{call.dtype}).numpy()",
            ]
        else:
            lines.append(f"y = {function}(a, b).numpy()")
        return Form(tuple(lines), f"{function} on integers; floats through tf.bitcast.")


class UnaryBitwiseForms(BitwiseForms):
    """f(x) on each element's bits (NOT): np.invert, torch.bitwise_not, tf.bitwise.invert."""

    def __init__(self, numpy, pytorch, tensorflow):
        self.numpy_function, self.pytorch_function, self.tensorflow_function = numpy, pytorch, tensorflow

    def numpy(self, call, stored):
        if call.data_type in FLOAT_TYPES:
            lines = ("# Work on the bit pattern: view it as the unsigned integer of the same width, and the result "
                     "back.",
                     f"y = {self.numpy_function}(x.view({_bits(call)})).view(np.{call.dtype})")
        else:
            lines = (f"y = {self.numpy_function}(x)",)
        return Form(lines, f"{self.numpy_function} flips every bit of an integer; floats go through a same-width "
                           "unsigned view.")

    def onnx(self, call, stored):
        form = super().onnx(call, stored)
        return _on_bits_in_onnx(form, call) if call.data_type in FLOAT_TYPES else form

    def pytorch(self, call, stored):
        function = self.pytorch_function
        if call.data_type in FLOAT_TYPES + _TORCH_LACKS:
            signed = _bits(call, signed=True)
            lines = (f"# {function} has no {call.data_type} kernel: flip the bits as {signed[3:]}, the signed type of "
                     "the same width, and view them back.",
                     f"y = {function}(torch.from_numpy(x.view({signed}))).numpy().view(np.{call.dtype})")
        else:
            lines = (f"y = {function}(torch.from_numpy(x)).numpy()",)
        return Form(lines, f"{function} on int8..int64 and uint8; other types through a same-width signed view.")

    def tensorflow(self, call, stored):
        function = self.tensorflow_function
        if call.data_type in FLOAT_TYPES:
            bits = f"tf.{_unsigned_name(call)}"
            lines = ("# tf.bitwise takes integers: tf.bitcast to the unsigned type of the same width keeps the bits.",
                     f"y = tf.bitcast({function}(tf.bitcast(x, {bits})), tf.{call.dtype}).numpy()")
        else:
            lines = (f"y = {function}(x).numpy()",)
        return Form(lines, f"{function} on integers; floats through tf.bitcast.")

    def from_onnx(self, node, attributes, shapes, constants, opset):
        return shapes[0], {}

    def page_settings(self, call, stored):
        return {"Sizes": list(stored[0])}


class ShiftForms(BinaryForms):
    """A logical shift by DirectML's amount (the module's docstring); the types are unsigned."""

    def __init__(self, left):
        self.left = left
        self.symbol, self.direction = ("<<", "LEFT") if left else (">>", "RIGHT")

    def _narrow(self, call):
        return call.dtype.itemsize < 8

    def numpy(self, call, stored):
        lines = self.broadcast_comment(stored)
        if self._narrow(call):
            lines += ["# DirectML shifts by B & 31 in 32 bits and keeps the element's width (numpy alone would empty",
                      "# the element from B = width on).",
                      f"y = (a.astype(np.uint32) {self.symbol} (b & 31)).astype(np.{call.dtype})"]
        else:
            lines += ["# DirectML shifts UINT64 by B's low 32 bits s when s < 32, else by 32 | (s & 31).",
                      "s = b & 0xFFFFFFFF",
                      f"y = a {self.symbol} np.where(s < 32, s, 32 | (s & 31))"]
        return Form(tuple(lines), "Shifts past the width as DirectML does them (observed on DirectML: "
                                  "docs/directml.md).")

    def onnx(self, call, stored):
        from onnx import TensorProto, helper, numpy_helper

        def constant(name, value, dtype):
            return numpy_helper.from_array(np.array(value, dtype), name)

        def node(op, inputs, output, **attributes):
            return helper.make_node(op, inputs, [output], **attributes)

        shift = {"direction": self.direction}
        if self._narrow(call):
            nodes = [node("Cast", ["x0"], "a32", to=TensorProto.UINT32),
                     node("Cast", ["x1"], "b32", to=TensorProto.UINT32), node("BitwiseAnd", ["b32", "low5"], "e"),
                     node("BitShift", ["a32", "e"], "shifted", **shift),
                     node("Cast", ["shifted"], "y0", to=helper.np_dtype_to_tensor_dtype(call.dtype))]
            initializers = [constant("low5", 31, np.uint32)]
            comment = "DirectML shifts in 32 bits by B & 31 and keeps the element's width: Cast, BitShift, Cast."
        else:
            # ONNX Runtime has no UINT64 Where: the amount, below 2^32, is chosen as INT64.
            nodes = [node("BitwiseAnd", ["x1", "low_word"], "low"), node("Cast", ["low"], "s", to=TensorProto.INT64),
                     node("Less", ["s", "c32"], "below"), node("BitwiseAnd", ["s", "low5"], "s31"),
                     node("BitwiseOr", ["s31", "c32"], "high"), node("Where", ["below", "s", "high"], "amount"),
                     node("Cast", ["amount"], "e", to=TensorProto.UINT64), node("BitShift", ["x0", "e"], "y0", **shift)]
            initializers = [constant("low_word", 0xFFFFFFFF, np.uint64), constant("c32", 32, np.int64),
                            constant("low5", 31, np.int64)]
            comment = "DirectML shifts UINT64 by B's low 32 bits s when s < 32, else by 32 | (s & 31)."
        return OnnxForm(tuple(nodes), tuple(initializers), "ONNX BitShift empties the element once B reaches its "
                        "width (ONNX Runtime); the nodes before it compute DirectML's amount.", comment=comment)

    def pytorch(self, call, stored):
        s = self.symbol
        if self._narrow(call):
            mask = (1 << (call.dtype.itemsize * 8)) - 1
            kept = f"(t << e) & 0x{mask:X}" if self.left else "t >> e"
            lines = ("# Shift in int64 (PyTorch has no uint16/uint32 shifts) by DirectML's B & 31; keep the width.",
                     "t, e = torch.from_numpy(a).long(), torch.from_numpy(b).long() & 31",
                     f"y = ({kept}).numpy().astype(np.{call.dtype})")
        else:
            # int64 shifts right arithmetically: the mask clears the copies of the sign bit a logical shift lacks.
            logical = "t << e" if self.left else "(t >> e) & ~((torch.full_like(t, -1) << (63 - e)) << 1)"
            lines = ("# The bits as int64 (PyTorch has no uint64 shifts); DirectML's amount: s = B's low 32 bits, "
                     "e = s if s < 32 else 32 | (s & 31).",
                     "t, s = torch.from_numpy(a.view(np.int64)), torch.from_numpy(b.view(np.int64)) & 0xFFFFFFFF",
                     "e = torch.where(s < 32, s, 32 | (s & 31))",
                     f"y = ({logical}).numpy().view(np.uint64)")
        return Form(lines, f"torch's {s} on a signed type of the same or a wider width; the amount is DirectML's.")

    def tensorflow(self, call, stored):
        function = f"tf.bitwise.{'left' if self.left else 'right'}_shift"
        lines = ["b = tf.broadcast_to(b, a.shape)  # DirectML's 0 strides, spelled out"]
        if self._narrow(call):
            lines += ["# DirectML shifts in 32 bits by B & 31 and keeps the element's width.",
                      "e = tf.bitwise.bitwise_and(tf.cast(b, tf.uint32), 31)",
                      f"y = tf.cast({function}(tf.cast(a, tf.uint32), e), tf.{call.dtype}).numpy()"]
        else:
            lines += ["# DirectML's amount for UINT64: s = B's low 32 bits, s if s < 32 else 32 | (s & 31).",
                      "s = tf.bitwise.bitwise_and(b, 0xFFFFFFFF)",
                      "e = tf.where(s < 32, s, tf.bitwise.bitwise_or(tf.bitwise.bitwise_and(s, 31), 32))",
                      f"y = {function}(a, e).numpy()"]
        return Form(tuple(lines), f"{function} clamps B to the width - 1; the amount here is DirectML's, never that "
                                  "large.")


class BitCountForms(BitwiseForms):
    """The population count: np.bitwise_count (numpy 2.0), PyTorch by summing bits, TensorFlow's PopulationCount."""

    def numpy(self, call, stored):
        return Form((f"y = np.bitwise_count(x.view({_bits(call)})).astype(np.{call.output_types[0].lower()})",),
                    "np.bitwise_count (numpy 2.0 and later) counts an integer's bits, but a signed one's absolute "
                    "value's: the unsigned view counts the raw bits.")

    def onnx(self, call, stored):
        return OnnxForm(None, (), "ONNX has no population count operator (https://onnx.ai/onnx/operators/): see the "
                                  "numpy snippet.")

    def pytorch(self, call, stored):
        width, output = call.dtype.itemsize * 8, call.output_types[0].lower()
        return Form(("# PyTorch has no population count: add up the bits of the same-width signed view, "
                     "widened.",
                     f"t = torch.from_numpy(x.view({_bits(call, signed=True)})).long()",
                     f"y = sum((t >> k) & 1 for k in range({width})).numpy().astype(np.{output})"),
                    "Bit k of each element is (t >> k) & 1; the arithmetic shift's sign copies stay above bit k.")

    def tensorflow(self, call, stored):
        output = call.output_types[0].lower()
        source = f"tf.bitcast(x, tf.{_unsigned_name(call)})" if call.data_type in FLOAT_TYPES else "x"
        return Form((f"y = tf.cast(tf.raw_ops.PopulationCount(x={source}), tf.{output}).numpy()",),
                    "tf.raw_ops.PopulationCount writes UINT8; floats through tf.bitcast.")
