"""SPLIT and JOIN in other frameworks: every framework has both (np.split/np.concatenate, torch.split/torch.cat,
tf.split/tf.concat, ONNX Split/Concat); einops only for parts of equal size."""

import dataclasses
import itertools

import numpy as np

from ...errors import DescriptorError
from ..framework_forms import Form, Forms, literal


def _onnx_axis(attributes, rank):
    """ONNX's axis attribute (0 by default; negative counts from the back) as DirectML's Axis."""
    axis = attributes.get("axis", 0)
    return axis + rank if isinstance(axis, int) and axis < 0 else axis


class SplitJoinForms(Forms):
    """What the pair's forms share: einops handles equal parts only."""

    def einops(self, call, stored):
        parts, axis = self.parts(call), call.attr("axis")
        if len(set(parts)) > 1:
            return Form(None, f"einops has no {call.op.lower()} of unequal parts ({list(parts)}): see the numpy "
                              "snippet.")
        names = [f"d{i}" for i in range(len(call.input_sizes[0]))]
        merged = " ".join(names[:axis] + [f"(k {names[axis]})"] + names[axis + 1:])
        return self.equal_parts(merged, f"k {' '.join(names)}", len(parts))


class SplitForms(SplitJoinForms):
    @staticmethod
    def parts(call):
        return call.attr("sizes")

    def numpy(self, call, stored):
        cuts = list(itertools.accumulate(call.attr("sizes")[:-1]))
        return Form(("# np.split takes the cut positions, the running sums of the sizes.",
                     f"ys = np.split(x, [{literal(cuts)}], axis={call.attr('axis')})"),
                    "np.split returns views into x; DirectML writes separate output tensors.")

    @staticmethod
    def equal_parts(merged, stacked, count):
        return Form((f'ys = list(rearrange(x, "{merged} -> {stacked}", k={count}))',),
                    "einops splits only into equal parts: k pieces stacked on a new first axis, then listed.")

    def onnx(self, call, stored):
        return dataclasses.replace(super().onnx(call, stored),
                                   note="ONNX Split takes the sizes as a second input (opset 13 and later).")

    def pytorch(self, call, stored):
        parts = f"torch.split(torch.from_numpy(x), [{literal(call.attr('sizes'))}], dim={call.attr('axis')})"
        return Form((f"ys = [part.numpy() for part in {parts}]",), "torch.split with a list of sizes is SPLIT.")

    def tensorflow(self, call, stored):
        parts = f"tf.split(x, [{literal(call.attr('sizes'))}], axis={call.attr('axis')})"
        return Form((f"ys = [part.numpy() for part in {parts}]",), "tf.split with a list of sizes is SPLIT.")

    def from_onnx(self, node, attributes, shapes, constants, opset):
        axis = _onnx_axis(attributes, len(shapes[0]))
        return shapes[0], {"axis": axis, "sizes": _split_sizes(node, attributes, constants, shapes[0][axis], opset)}

    def page_settings(self, call, stored):
        return {"Sizes": list(call.input_sizes[0]), "Axis": call.attr("axis"), "AxisSizes": list(call.attr("sizes"))}


def _split_sizes(node, attributes, constants, size, opset):
    """The outputs' sizes along the axis, as ONNX Split defines them (https://onnx.ai/onnx/operators/onnx__Split.html):
    the `split` input (opset 13+) or attribute (before), else equal parts, the last smaller when num_outputs does
    not divide the size (opset 18)."""
    if len(node.input) > 1 and node.input[1]:
        if node.input[1] not in constants:
            raise DescriptorError(f"split input {node.input[1]!r} is computed at run time; its sizes are unknown here")
        return [int(s) for s in np.ravel(constants[node.input[1]])]
    if "split" in attributes and opset < 13:
        return [int(s) for s in attributes["split"]]
    count = len(node.output)
    if size % count == 0:
        return [size // count] * count
    chunk = -(-size // count)
    return [chunk] * (count - 1) + [size - chunk * (count - 1)]


class JoinForms(SplitJoinForms):
    @staticmethod
    def parts(call):
        return tuple(sizes[call.attr("axis")] for sizes in call.input_sizes)

    def numpy(self, call, stored):
        return Form((f"y = np.concatenate(xs, axis={call.attr('axis')})",), "np.concatenate is JOIN.")

    @staticmethod
    def equal_parts(merged, stacked, count):
        return Form((f'y = rearrange(xs, "{stacked} -> {merged}")',),
                    "einops joins only equal parts: the list is stacked on a new first axis k, which merges into Axis.")

    def pytorch(self, call, stored):
        return Form((f"y = torch.cat([torch.from_numpy(part) for part in xs], dim={call.attr('axis')}).numpy()",),
                    "torch.cat is JOIN.")

    def tensorflow(self, call, stored):
        return Form((f"y = tf.concat(xs, axis={call.attr('axis')}).numpy()",), "tf.concat is JOIN.")

    def from_onnx(self, node, attributes, shapes, constants, opset):
        return shapes, {"axis": _onnx_axis(attributes, len(shapes[0]))}

    def page_settings(self, call, stored):
        return {"InputSizes": [list(s) for s in call.input_sizes], "Axis": call.attr("axis")}
