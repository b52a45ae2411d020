"""The bitwise family in other frameworks: each framework's function of the same name works on integers; float bits go
through the unsigned integer type of the same width and back, unchanged. B may be stored smaller and broadcast to A's
sizes, as DirectML reads it through 0 strides and numpy, PyTorch and ONNX broadcast."""

import dataclasses
from collections.abc import Sequence

from ...datatypes import FLOAT_TYPES, unsigned_of_width
from ...errors import DescriptorError
from ..base import Call, check_sizes
from ..framework_forms import Form, Forms, OnnxForm

# BitCast, which reinterprets float bits for the bitwise operators, exists from opset 26
# (https://onnx.ai/onnx/operators/onnx__BitCast.html), which needs IR 13 (onnx.helper.VERSION_TABLE).
ONNX_BITCAST_OPSET, ONNX_BITCAST_IR_VERSION = 26, 13


class BinaryBitwiseForms(Forms):
    """f(a, b) on each element pair's bits, written with the function each framework names it by (np.bitwise_or,
    torch.bitwise_or, tf.bitwise.bitwise_or). Snippets take B's stored sizes as the setting `b_sizes` (A's by
    default); ONNX nodes whose two inputs broadcast are read with the larger as A when the operator `commutes`."""

    def __init__(self, numpy, pytorch, tensorflow, commutes):
        self.numpy_function, self.pytorch_function, self.tensorflow_function = numpy, pytorch, tensorflow
        self.commutes = commutes

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

    def numpy(self, call, stored):
        lines = []
        if stored[0] != stored[1]:
            lines.append("# numpy broadcasts b's size-1 dimensions, as DirectML's 0 strides in BTensor do.")
        if call.data_type in FLOAT_TYPES:
            bits = f"np.{unsigned_of_width(call.dtype.itemsize)}"
            lines += [
                "# Work on the bit patterns: view both as the unsigned integer of the same width, and the result back.",
                f"y = {self.numpy_function}(a.view({bits}), b.view({bits})).view(np.{call.dtype})",
            ]
        else:
            lines.append(f"y = {self.numpy_function}(a, b)")
        return Form(tuple(lines), f"{self.numpy_function} works on integers; floats go through same-width unsigned "
                                  "views, bits unchanged.")

    def einops(self, call, stored):
        return Form(None, "einops rearranges, reduces and repeats axes; it has no bitwise operation: see the numpy "
                          "snippet.")

    def onnx(self, call, stored):
        form, name = super().onnx(call, stored), call.operator.onnx
        if call.data_type not in FLOAT_TYPES:
            return dataclasses.replace(form, note=f"ONNX {name} broadcasts b the way numpy does.")
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
        return OnnxForm(tuple(nodes), form.initializers,
                        f"ONNX {name} (opset 18) has no float types; BitCast (opset 26) moves the bits unchanged.",
                        ONNX_BITCAST_OPSET, ONNX_BITCAST_IR_VERSION,
                        f"{name} takes integers only: BitCast reinterprets the float bits (opset 26) and back.")

    def pytorch(self, call, stored):
        function = self.pytorch_function
        if call.data_type in FLOAT_TYPES:
            bits = f"torch.{unsigned_of_width(call.dtype.itemsize)}"
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
            bits = f"tf.{unsigned_of_width(call.dtype.itemsize)}"
            lines += [
                "# tf.bitwise takes integers: tf.bitcast to the unsigned type of the same width keeps the bits.",
                f"on_bits = {function}(tf.bitcast(a, {bits}), tf.bitcast(b, {bits}))",
                f"y = tf.bitcast(on_bits, tf.{call.dtype}).numpy()",
            ]
        else:
            lines.append(f"y = {function}(a, b).numpy()")
        return Form(tuple(lines), f"{function} on integers; floats through tf.bitcast.")

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
