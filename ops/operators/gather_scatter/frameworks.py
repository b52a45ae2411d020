"""The gather and scatter family in other frameworks, each framework's convention stated with its source.

The snippets read `input`, `indices` and `updates` (ONE_HOT: `indices` and `values`) as DirectML's tensors, all of
one DimensionCount, and leave the DirectML output in `y`. They compute what DirectML does for indices inside their
axes, negative ones counting from the end; past the axes every framework refuses or differs (DirectML reads on,
core.py), and where a framework does not count negative indices from the end the snippet wraps them itself.

Which framework call is which DirectML operator, with sources:
- GATHER is numpy's take (https://numpy.org/doc/stable/reference/generated/numpy.take.html), ONNX's Gather
  (https://onnx.ai/onnx/operators/onnx__Gather.html), tf.gather
  (https://www.tensorflow.org/api_docs/python/tf/gather) and torch.index_select for one dimension of indices.
  torch.gather is not GATHER: it is GATHER_ELEMENTS (pytorch/pytorch#11776: "PyTorch torch.gather and ONNX gather
  generates different results"; torch.onnx exports it as GatherElements, pytorch/pytorch#36022).
- GATHER_ELEMENTS is torch.gather (https://docs.pytorch.org/docs/stable/generated/torch.gather.html), numpy's
  take_along_axis, ONNX's GatherElements.
- GATHER_ND1 is tf.gather_nd with batch_dims (https://www.tensorflow.org/api_docs/python/tf/gather_nd) and ONNX's
  GatherND with batch_dims; TF-TRT's Gather converter once dropped batch_dims (tensorflow/tensorflow#57686,
  "[TF-TRT]: Propagate batch_dims in Gather converter": "This wasn't propagated correctly, leading to bugs in
  transformer models").
- SCATTER is torch.scatter (https://docs.pytorch.org/docs/stable/generated/torch.Tensor.scatter_.html: "When
  indices are not unique, the behavior is non-deterministic"), numpy's put_along_axis and ONNX's ScatterElements
  (duplicate indices leave the order undefined, onnx/onnx#3234); DirectML writes one of colliding updates, not
  guaranteed which (its page), and the core keeps the last in row-major order (observed on a quiet machine,
  docs/directml.md). SCATTER_ND is ONNX's ScatterND and tf.tensor_scatter_nd_update.
- ONE_HOT is tf.one_hot, whose negative indices give a row of off values (tf.raw_ops.OneHot's example: "one_hot(-1)"
  is all off_value, https://www.tensorflow.org/api_docs/python/tf/raw_ops/OneHot), ONNX's OneHot (negative indices
  count from the end, https://onnx.ai/onnx/operators/onnx__OneHot.html) and torch.nn.functional.one_hot, which
  takes non-negative int64 classes only and writes 0 and 1
  (https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.one_hot.html).
- einops rearranges, reduces and repeats axes (https://einops.rocks/api/rearrange/); it has no gather or scatter.
"""

import dataclasses
import math

from ..framework_forms import Form, Forms, literal
from . import core

_EINOPS = Form(None, "einops rearranges, reduces and repeats whole axes (https://einops.rocks/api/rearrange/); it has "
                     "no gather or scatter by an indices tensor.")
# torch's CPU kernels are patchy for unsigned types wider than a byte; the same bits move as the signed type.
_TORCH_SIGNED = {"UINT16": "int16", "UINT32": "int32", "UINT64": "int64"}

CONVENTIONS = {
    "GATHER": {
        "numpy": "np.take is GATHER; negative indices count from the end, past the axis it raises IndexError.",
        "einops": "No gather.",
        "onnx": "Gather is GATHER; negative indices count from the end.",
        "pytorch": "index_select is GATHER along one dimension of indices; torch.gather is GATHER_ELEMENTS "
                   "(pytorch/pytorch#11776).",
        "tensorflow": "tf.gather is GATHER; on the CPU an index past the axis is an error.",
        "directml": "IndexDimensions says how many of IndicesTensor's last dimensions hold indices.",
    },
    "GATHER_ELEMENTS": {
        "numpy": "np.take_along_axis is GATHER_ELEMENTS.",
        "einops": "No gather.",
        "onnx": "GatherElements is GATHER_ELEMENTS.",
        "pytorch": "torch.gather is GATHER_ELEMENTS, not ONNX's Gather (pytorch/pytorch#11776).",
        "tensorflow": "tf.experimental.numpy.take_along_axis is GATHER_ELEMENTS.",
        "directml": "IndicesTensor matches InputTensor on every dimension but Axis.",
    },
    "GATHER_ND": {
        "numpy": "Indexing by the tuples' coordinates is GATHER_ND.",
        "einops": "No gather.",
        "onnx": "GatherND (batch_dims 0) is GATHER_ND.",
        "pytorch": "Advanced indexing by the tuples' coordinates is GATHER_ND.",
        "tensorflow": "tf.gather_nd is GATHER_ND.",
        "directml": "InputDimensionCount and IndicesDimensionCount count the meaningful dimensions from the end.",
    },
    "SCATTER": {
        "numpy": "np.put_along_axis is SCATTER; colliding writes keep the last.",
        "einops": "No scatter.",
        "onnx": "ScatterElements is SCATTER; colliding updates have no defined order (onnx/onnx#3234).",
        "pytorch": "torch.scatter is SCATTER; colliding updates are non-deterministic (its documentation).",
        "tensorflow": "tf.tensor_scatter_nd_update at every element's coordinates is SCATTER.",
        "directml": "Of colliding updates DirectML writes one, not guaranteed which; the core keeps the last in "
                    "row-major order (observed on a quiet machine, docs/directml.md).",
    },
    "SCATTER_ND": {
        "numpy": "Assigning through the tuples' coordinates is SCATTER_ND.",
        "einops": "No scatter.",
        "onnx": "ScatterND is SCATTER_ND.",
        "pytorch": "index_put_ through the tuples' coordinates is SCATTER_ND.",
        "tensorflow": "tf.tensor_scatter_nd_update is SCATTER_ND.",
        "directml": "InputDimensionCount and IndicesDimensionCount count the meaningful dimensions from the end.",
    },
    "ONE_HOT": {
        "numpy": "No one_hot: a comparison with the positions along the axis.",
        "einops": "No one-hot.",
        "onnx": "OneHot is ONE_HOT; negative indices count from the end, indices past the depth give all off.",
        "pytorch": "one_hot takes non-negative int64 classes below the depth and writes 0 and 1.",
        "tensorflow": "tf.one_hot is ONE_HOT but for negative indices, which give all off values (tf.raw_ops.OneHot).",
        "directml": "ValuesTensor's elements 0 and 1 are OffValue and OnValue; its Sizes may be anything.",
    },
}
CONVENTIONS["GATHER_ND1"] = {**CONVENTIONS["GATHER_ND"],
                             "onnx": "GatherND with batch_dims is GATHER_ND1.",
                             "tensorflow": "tf.gather_nd with batch_dims is GATHER_ND1; TF-TRT once dropped batch_dims "
                                           "(tensorflow/tensorflow#57686)."}


def _sizes(values):
    """A tuple literal: (3,) or (2, 3)."""
    return f"({literal(values)}{',' if len(values) == 1 else ''})"


def _wrapped(name, sizes, index_type):
    """Lines counting `name`'s negative indices from the end, as DirectML does, for a framework that does not: none
    for unsigned indices (and none for UINT64 ones at or past 2^63, which become negative as int64, as DirectML
    reads them)."""
    if index_type == "UINT32":
        return []
    return [f"{name} = np.where({name} < 0, {name} + {sizes}, {name})  # counted from the end, as DirectML does"]


class GatherScatterForms(Forms):
    """What the family's forms share: einops has none, PyTorch moves wide unsigned types as signed bits, and the
    indices become int64 (numpy indexes with any integer type, the others want int64)."""

    conventions: dict = {}

    def einops(self, call, stored):
        return _EINOPS

    def pytorch(self, call, stored):
        """The operator's torch lines (`torch_lines`), reading tensors through `as_torch` and giving `y` the data's
        numpy type back."""
        lines, note = self.torch_lines(call)
        signed = _TORCH_SIGNED.get(call.data_type)
        if signed:
            return Form((f"# torch's CPU kernels are patchy for {call.data_type.lower()}: its bits move as {signed}",
                         f"as_torch = lambda a: torch.from_numpy(np.ascontiguousarray(a).view(np.{signed}))",
                         *lines, f"y = y.view(np.{call.dtype})"), note)
        return Form(("as_torch = lambda a: torch.from_numpy(np.ascontiguousarray(a))", *lines), note)

    def torch_lines(self, call):
        raise NotImplementedError


def _chosen(call):
    """GATHER's indices as chosen: (the input's part read, its Axis there, the indices' sizes, the input's size along
    Axis): the first IndexDimensions - 1 input dimensions are read at coordinate 0."""
    axis, k = call.attr("axis"), call.attr("index_dimensions")
    whole, indices = call.input_sizes
    part = "input" if k <= 1 else f"input[{'0, ' * (k - 1)}...]"
    return part, axis - max(k - 1, 0), tuple(indices[len(whole) - k:]), whole[axis]


class GatherForms(GatherScatterForms):
    conventions = CONVENTIONS["GATHER"]

    def numpy(self, call, stored):
        part, axis, sizes, _ = _chosen(call)
        return Form((f"chosen = indices.reshape({_sizes(sizes)}).astype(np.int64)  # the last IndexDimensions",
                     f"y = np.take({part}, chosen, axis={axis}).reshape({_sizes(call.output_sizes[0])})"),
                    "np.take is GATHER; the reshapes keep DirectML's one DimensionCount.")

    def torch_lines(self, call):
        part, axis, _, n = _chosen(call)
        lines = ["chosen = indices.reshape(-1).astype(np.int64)", *_wrapped("chosen", n, call.attr("indices_type")),
                 f"y = torch.index_select(as_torch({part}), {axis}, torch.from_numpy(chosen)).numpy()",
                 f"y = y.reshape({_sizes(call.output_sizes[0])})"]
        return lines, "index_select takes one dimension of indices in [0, size); torch.gather is GATHER_ELEMENTS."

    def tensorflow(self, call, stored):
        part, axis, sizes, n = _chosen(call)
        return Form((f"chosen = indices.reshape({_sizes(sizes)}).astype(np.int64)",
                     *_wrapped("chosen", n, call.attr("indices_type")),
                     f"y = tf.gather({part}, chosen, axis={axis}).numpy().reshape({_sizes(call.output_sizes[0])})"),
                    "tf.gather is GATHER; its CPU kernel refuses indices past the axis.")


class GatherElementsForms(GatherScatterForms):
    conventions = CONVENTIONS["GATHER_ELEMENTS"]

    def numpy(self, call, stored):
        return Form((f"y = np.take_along_axis(input, indices.astype(np.int64), axis={call.attr('axis')})",),
                    "np.take_along_axis is GATHER_ELEMENTS.")

    def torch_lines(self, call):
        axis = call.attr("axis")
        return (["chosen = indices.astype(np.int64)",
                 *_wrapped("chosen", call.input_sizes[0][axis], call.attr("indices_type")),
                 f"y = torch.gather(as_torch(input), {axis}, torch.from_numpy(chosen)).numpy()"],
                "torch.gather is GATHER_ELEMENTS (pytorch/pytorch#11776), its indices in [0, size).")

    def tensorflow(self, call, stored):
        axis = call.attr("axis")
        return Form(("chosen = indices.astype(np.int64)",
                     *_wrapped("chosen", call.input_sizes[0][axis], call.attr("indices_type")),
                     f"y = tf.experimental.numpy.take_along_axis(input, chosen, axis={axis}).numpy()"),
                    "take_along_axis is GATHER_ELEMENTS.")


def _nd(call):
    """(the input's meaningful sizes, the indices', the batch count, the tuples' coordinate sizes)."""
    whole, indices = call.input_sizes[:2]
    m, q = call.attr("input_dimensions"), call.attr("indices_dimensions")
    b = call.attributes.get("batch_dimensions", 0)
    meaningful = tuple(whole[len(whole) - m:])
    return meaningful, tuple(indices[len(indices) - q:]), b, list(meaningful[b:b + indices[-1]])


class GatherNdForms(GatherScatterForms):
    def __init__(self, batch):
        self.conventions = CONVENTIONS["GATHER_ND1" if batch else "GATHER_ND"]

    def numpy(self, call, stored):
        meaningful, tuples, b, _ = _nd(call)
        out = _sizes(call.output_sizes[0])
        lines = [f"data = input.reshape({_sizes(meaningful)})",
                 f"tuples = indices.reshape({_sizes(tuples)}).astype(np.int64)"]
        if not b:
            return Form((*lines, f"y = data[tuple(np.moveaxis(tuples, -1, 0))].reshape({out})"),
                        "Indexing by each tuple's coordinates is GATHER_ND.")
        batches = math.prod(tuples[:b])
        return Form((*lines, f"data = data.reshape({_sizes((batches, *meaningful[b:]))})",
                     f"tuples = tuples.reshape({_sizes((batches, *tuples[b:]))})",
                     f"y = np.stack([d[tuple(np.moveaxis(t, -1, 0))] for d, t in zip(data, tuples)]).reshape({out})"),
                    "Batch by batch, indexing by each tuple's coordinates: the batch sizes must agree here.")

    def torch_lines(self, call):
        meaningful, tuples, b, _ = _nd(call)
        out = _sizes(call.output_sizes[0])
        lines = [f"data = as_torch(input).reshape({_sizes(meaningful)})",
                 f"tuples = torch.from_numpy(indices.reshape({_sizes(tuples)}).astype(np.int64))"]
        if not b:
            lines.append(f"y = data[tuple(tuples.movedim(-1, 0))].reshape({out}).numpy()")
            return lines, "Advanced indexing by each tuple's coordinates is GATHER_ND."
        batches = math.prod(tuples[:b])
        return lines + [f"data = data.reshape({_sizes((batches, *meaningful[b:]))})",
                        f"tuples = tuples.reshape({_sizes((batches, *tuples[b:]))})",
                        "y = torch.stack([d[tuple(t.movedim(-1, 0))] for d, t in zip(data, tuples)])",
                        f"y = y.reshape({out}).numpy()"], "Batch by batch, advanced indexing by each tuple."

    def tensorflow(self, call, stored):
        meaningful, tuples, b, coordinate_sizes = _nd(call)
        return Form((f"tuples = indices.reshape({_sizes(tuples)}).astype(np.int64)",
                     *_wrapped("tuples", coordinate_sizes, call.attr("indices_type")),
                     f"y = tf.gather_nd(input.reshape({_sizes(meaningful)}), tuples, batch_dims={b}).numpy()",
                     f"y = y.reshape({_sizes(call.output_sizes[0])})"),
                    f"tf.gather_nd with batch_dims {b}" + (" (TF-TRT once dropped batch_dims: "
                                                           "tensorflow/tensorflow#57686)." if b else "."))


class ScatterForms(GatherScatterForms):
    conventions = CONVENTIONS["SCATTER"]

    def numpy(self, call, stored):
        return Form(("y = input.copy()",
                     f"np.put_along_axis(y, indices.astype(np.int64), updates, axis={call.attr('axis')})"),
                    "np.put_along_axis is SCATTER.")

    def torch_lines(self, call):
        axis = call.attr("axis")
        return (["chosen = indices.astype(np.int64)",
                 *_wrapped("chosen", call.input_sizes[0][axis], call.attr("indices_type")),
                 f"y = as_torch(input).scatter({axis}, torch.from_numpy(chosen), as_torch(updates)).numpy()"],
                "torch.scatter is SCATTER; with colliding updates its result is not defined.")

    def tensorflow(self, call, stored):
        axis = call.attr("axis")
        return Form(("chosen = indices.astype(np.int64)",
                     *_wrapped("chosen", call.input_sizes[0][axis], call.attr("indices_type")),
                     "coordinates = np.indices(indices.shape)  # every update's own coordinates,",
                     f"coordinates[{axis}] = chosen  # the index standing in along Axis",
                     "y = tf.tensor_scatter_nd_update(input, np.moveaxis(coordinates, 0, -1), updates).numpy()"),
                    "TensorFlow has no scatter along an axis: tensor_scatter_nd_update at each update's coordinates.")


class ScatterNdForms(GatherScatterForms):
    conventions = CONVENTIONS["SCATTER_ND"]

    @staticmethod
    def _updates(call):
        return core.nd_meaningful(call.input_sizes[0], call.input_sizes[1], call.attr("input_dimensions"),
                                  call.attr("indices_dimensions"), 0)

    def numpy(self, call, stored):
        meaningful, tuples, _, _ = _nd(call)
        return Form(("y = input.copy()", f"tuples = indices.reshape({_sizes(tuples)}).astype(np.int64)",
                     f"y.reshape({_sizes(meaningful)})[tuple(np.moveaxis(tuples, -1, 0))] = "
                     f"updates.reshape({_sizes(self._updates(call))})"),
                    "Assigning through each tuple's coordinates is SCATTER_ND.")

    def torch_lines(self, call):
        meaningful, tuples, _, _ = _nd(call)
        return (["y = as_torch(input.copy())",
                 f"tuples = torch.from_numpy(indices.reshape({_sizes(tuples)}).astype(np.int64))",
                 f"y.reshape({_sizes(meaningful)})[tuple(tuples.movedim(-1, 0))] = "
                 f"as_torch(updates).reshape({_sizes(self._updates(call))})",
                 "y = y.numpy()"], "Assigning through each tuple's coordinates (index_put_) is SCATTER_ND.")

    def tensorflow(self, call, stored):
        meaningful, tuples, _, coordinate_sizes = _nd(call)
        return Form((f"tuples = indices.reshape({_sizes(tuples)}).astype(np.int64)",
                     *_wrapped("tuples", coordinate_sizes, call.attr("indices_type")),
                     f"y = tf.tensor_scatter_nd_update(input.reshape({_sizes(meaningful)}), tuples, "
                     f"updates.reshape({_sizes(self._updates(call))}))",
                     f"y = tf.reshape(y, {_sizes(call.input_sizes[0])}).numpy()"),
                    "tf.tensor_scatter_nd_update is SCATTER_ND.")


# ONNX Runtime's CPU OneHot with INT64 indices and depth (measured with onnxruntime 1.32.0): these value types have
# a kernel, FLOAT16's quieting signalling NaNs; the rest "Could not find an implementation".
ORT_CPU_ONE_HOT_TYPES = ("FLOAT32", "FLOAT16", "INT64")


class OneHotForms(GatherScatterForms):
    conventions = CONVENTIONS["ONE_HOT"]

    def onnx(self, call, stored):
        form = super().onnx(call, stored)
        if call.data_type in ORT_CPU_ONE_HOT_TYPES:
            return form
        missing = (f" ONNX Runtime's CPU provider has no OneHot kernel for {call.data_type} values (measured with "
                   "onnxruntime 1.32.0): the model is valid ONNX, but it runs there only as FLOAT32 or INT64.")
        return dataclasses.replace(form, note=form.note + missing)

    def _sequences(self, call):
        """Lines giving `sequence`, each sequence's position as DirectML reads it (UINT64 ones compared whole)."""
        if call.attr("indices_type") == "UINT64":
            return ["sequence = indices  # UINT64 indices are compared whole, never counted from the end"]
        return ["sequence = indices.astype(np.int64)",
                *_wrapped("sequence", call.attr("depth"), call.attr("indices_type"))]

    def numpy(self, call, stored):
        axis, depth = call.attr("axis"), call.attr("depth")
        along = [1] * len(call.input_sizes[0])
        along[axis] = -1
        return Form(("off, on = values.reshape(-1)[:2]", *self._sequences(call),
                     f"positions = np.arange({depth}).reshape({_sizes(along)})",
                     "y = np.where(positions == sequence, on, off)"),
                    "No one_hot in numpy: OnValue where the position along Axis is the sequence's index.")

    def torch_lines(self, call):
        axis, depth = call.attr("axis"), call.attr("depth")
        return (["off, on = values.reshape(-1)[:2]", *self._sequences(call),
                 f"classes = np.where((sequence >= 0) & (sequence < {depth}), sequence, {depth}).astype(np.int64)",
                 "# one_hot takes classes in [0, depth): one more class holds the indices past it, then goes",
                 f"hot = torch.nn.functional.one_hot(torch.from_numpy(classes).squeeze({axis}), {depth + 1})",
                 f"hot = hot[..., :{depth}].movedim(-1, {axis}).numpy().astype(bool)",
                 "y = np.where(hot, on, off)"],
                "one_hot writes 0 and 1 for classes in [0, depth); the values are put in after.")

    def pytorch(self, call, stored):
        lines, note = self.torch_lines(call)  # the values never pass through torch
        return Form(tuple(lines), note)

    def tensorflow(self, call, stored):
        axis, depth = call.attr("axis"), call.attr("depth")
        return Form(("off, on = values.reshape(-1)[:2]", *self._sequences(call),
                     f"y = tf.one_hot(np.squeeze(sequence, {axis}), {depth}, on_value=on, off_value=off, "
                     f"axis={axis}).numpy()"),
                    "tf.one_hot leaves a negative index's sequence all off: the index is counted from the end first.")
