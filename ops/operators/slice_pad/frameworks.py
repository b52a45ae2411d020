"""SLICE1, PADDING1, TILE, REVERSE_SUBSEQUENCES and UPSAMPLE_2D in other frameworks, with each one's conventions and
the off-by-one traps between them, each from that framework's documentation:

- Slicing. numpy's and TensorFlow's x[a:b:-s] count down from a, stopping before b
  (https://numpy.org/doc/stable/user/basics.indexing.html#slicing-and-striding); DirectML's negative stride starts at
  the window's end, offset + size - 1 (DML_SLICE1_OPERATOR_DESC), so a window (0, 4, -2) is x[3::-2], where x[0:4:-2]
  is empty. PyTorch takes no negative step at all ("step must be greater than zero"; torch.flip first:
  https://docs.pytorch.org/docs/stable/generated/torch.flip.html). ONNX Slice adds the dimension to a negative end
  and clamps it to [-1, dim - 1] for a negative step (https://onnx.ai/onnx/operators/onnx__Slice.html), so "before
  index 0" is written -(dim + 1).
- Padding. np.pad's "constant", "edge", "reflect" and "symmetric" are DirectML's four modes, pads wider than the
  input folding again as DirectML's do (https://numpy.org/doc/stable/reference/generated/numpy.pad.html; checked
  against DirectML 1.13, docs/directml.md). ONNX Pad has constant, reflect, edge and wrap, no symmetric
  (https://onnx.ai/onnx/operators/onnx__Pad.html); ONNX Runtime's reflect gave wrong values for pads as wide as the
  input (microsoft/onnxruntime#16401, #23878) and 1.32 refuses them. torch.nn.functional.pad lists its pads from the
  last dimension backwards, pads reflect/replicate/circular only on the last 1 to 3 dimensions, and has no symmetric
  mode (https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.pad.html, pytorch/pytorch#46240). tf.pad
  has CONSTANT, REFLECT and SYMMETRIC, no edge, and pads of at most size - 1 (REFLECT) or size (SYMMETRIC)
  (https://www.tensorflow.org/api_docs/python/tf/pad); coremltools converts TensorFlow's SYMMETRIC into reflect
  (apple/coremltools#2280), and torch-mlir once lowered a reflect pad as a constant one (llvm/torch-mlir#3457).
- Tile against repeat. np.tile and TensorFlow's tf.tile copy the whole tensor (TILE); np.repeat and tf.repeat repeat
  each element (UPSAMPLE_2D's NEAREST_NEIGHBOR). PyTorch names them the other way round: Tensor.repeat tiles
  (https://docs.pytorch.org/docs/stable/generated/torch.Tensor.repeat.html) and repeat_interleave repeats elements
  (https://docs.pytorch.org/docs/stable/generated/torch.repeat_interleave.html). einops says which in the pattern:
  (r h) is a tile, (h r) a repeat (https://einops.rocks/api/repeat/).
- Reversing subsequences. tf.reverse_sequence and ONNX ReverseSequence take one length per batch entry, at most the
  axis' size (https://www.tensorflow.org/api_docs/python/tf/reverse_sequence,
  https://onnx.ai/onnx/operators/onnx__ReverseSequence.html); DirectML takes one per line along every other
  dimension and reads lengths past the axis its own way (core.py). numpy and PyTorch have none: the snippets gather
  with DirectML's index.
"""

import math

import numpy as np

from ...datatypes import scalar_value
from ..framework_forms import Form, Forms, literal
from . import core

_SIGNED = {"UINT16": "int16", "UINT32": "int32", "UINT64": "int64"}


def _axis_slice(start, stop, step):
    """A Python slice's text, its default parts left out."""
    text = f"{'' if start is None else start}:{'' if stop is None else stop}"
    return text + (f":{step}" if step != 1 else "")


def _numpy_index(call):
    """x[...]'s index for a SLICE1 call: each axis start:stop:step, counting down from the window's end for a
    negative stride."""
    parts = []
    for size, *window in zip(call.input_sizes[0], call.attr("window_offsets"), call.attr("window_sizes"),
                             call.attr("window_strides"), call.output_sizes[0]):
        sources, step = core.slice_sources(*window), window[2]
        start, last = int(sources[0]), int(sources[-1])
        stop = last + 1 if step > 0 else last - 1
        whole = step == 1 and start == 0 and stop == size
        parts.append(":" if whole else _axis_slice(start, None if stop < 0 else stop, step))
    return ", ".join(parts)


def _torch_view(call, name="x"):
    """(lines binding `t` to the input `name` as a torch tensor, the suffix turning a result back into its dtype):
    torch's copies lack kernels for some unsigned types, so those move as the signed type of the same width."""
    signed = _SIGNED.get(call.data_type)
    if not signed:
        return [f"t = torch.from_numpy({name})"], ""
    return [f"t = torch.from_numpy({name}.view(np.{signed}))  # the same bits as {signed}: torch copies few uint "
            "types"], f".view(np.{call.dtype})"


def _value_literal(value):
    """A padding value as Python source: float("nan") and float("inf") where repr gives bare words."""
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    return repr(value)


class SliceForms(Forms):
    conventions = {
        "numpy": "x[a:b:s] counts down from a for s < 0; DirectML starts a negative stride at the window's end.",
        "einops": "No slicing: patterns move whole axes.",
        "onnx": "Slice: a negative end has the dimension added, so before index 0 is -(dim + 1).",
        "pytorch": "No negative step: flip the axis, then slice forwards.",
        "tensorflow": "Python slices as numpy's (tf.strided_slice), negative steps included.",
        "directml": "InputWindowOffsets, InputWindowSizes, InputWindowStrides; the output's Sizes may stop early.",
    }

    def numpy(self, call, stored):
        return Form((f"y = x[{_numpy_index(call)}].copy()",),
                    "A negative stride starts at the window's end, offset + size - 1: numpy's x[a:b:-s] counts down "
                    "from a, so a is that end here.")

    def einops(self, call, stored):
        return Form(None, "einops has no slicing: rearrange moves whole axes and cannot pick every other element or "
                          "reverse one (see the numpy snippet).")

    def pytorch(self, call, stored):
        lines, back = _torch_view(call)
        flipped = [d for d, s in enumerate(call.attr("window_strides")) if s < 0]
        if flipped:
            lines.append(f"t = t.flip({flipped})  # PyTorch slices take no negative step: reverse those axes first")
        parts = []
        for d, (size, *window) in enumerate(zip(call.input_sizes[0], call.attr("window_offsets"),
                                                call.attr("window_sizes"), call.attr("window_strides"),
                                                call.output_sizes[0])):
            sources = core.slice_sources(*window)
            if d in flipped:
                sources = size - 1 - sources  # index i of the flipped axis is size - 1 - i of the original
            start, step = int(sources[0]), abs(window[2])
            parts.append(_axis_slice(start, int(sources[-1]) + 1, step))
        lines.append(f"y = t[{', '.join(parts)}].numpy(){back}")
        return Form(tuple(lines), "torch.flip reverses the axes a negative stride walks backwards; the slice then "
                                  "counts forwards from the flipped window's end.")

    def tensorflow(self, call, stored):
        return Form((f"y = tf.constant(x)[{_numpy_index(call)}].numpy()",),
                    "TensorFlow's slices (tf.strided_slice) count as numpy's, negative steps included.")


class PaddingForms(Forms):
    conventions = {
        "numpy": 'np.pad: "constant", "edge", "reflect", "symmetric" are the four modes, wide pads included.',
        "einops": "No padding.",
        "onnx": "Pad: constant, edge, reflect (pads narrower than the axis), wrap; no symmetric.",
        "pytorch": "F.pad lists pads from the last dimension; replicate is EDGE; no symmetric.",
        "tensorflow": "tf.pad: CONSTANT, REFLECT, SYMMETRIC (pads up to size - 1 / size); no edge.",
        "directml": "PaddingMode, StartPadding, EndPadding; PaddingValue typed by PaddingValueDataType.",
    }
    _NUMPY_MODES = {"CONSTANT": "constant", "EDGE": "edge", "REFLECTION": "reflect", "SYMMETRIC": "symmetric"}

    @staticmethod
    def _pads(call):
        return list(zip(call.attr("start_padding"), call.attr("end_padding")))

    def _value(self, call):
        return scalar_value(call.attr("padding_value"), call.data_type, "PaddingValue").item()

    def numpy(self, call, stored):
        mode = self._NUMPY_MODES[call.attr("mode")]
        value = f", constant_values={_value_literal(self._value(call))}" if mode == "constant" else ""
        pads = ", ".join(f"({a}, {b})" for a, b in self._pads(call))
        return Form((f'y = np.pad(x, [{pads}], mode="{mode}"{value})',),
                    "np.pad's modes are DirectML's four, and pads wider than the input fold again as DirectML's do.")

    def einops(self, call, stored):
        return Form(None, "einops has no padding (see the numpy snippet).")

    def _gathered(self, call, gather):
        """Lines reading each padded axis through np.pad's own index along it, with `gather` (axis, index) ->
        a line: every mode but CONSTANT, in any framework that gathers."""
        mode = self._NUMPY_MODES[call.attr("mode")]
        return [gather(d, f'np.pad(np.arange({n}), ({a}, {b}), mode="{mode}")')
                for d, (n, (a, b)) in enumerate(zip(call.input_sizes[0], self._pads(call))) if a or b]

    def pytorch(self, call, stored):
        lines, back = _torch_view(call)
        if call.attr("mode") == "CONSTANT":
            value = self._value(call)
            if back:  # the value's bits as the signed type the tensor moves as
                value = int(np.array(value, call.dtype).view(_SIGNED[call.data_type]))
            kept = ", ".join(f"{a}:{a + n}" for n, (a, _) in zip(call.input_sizes[0], self._pads(call)))
            lines += [f"y = torch.full(({literal(call.output_sizes[0])},), {_value_literal(value)}, dtype=t.dtype)",
                      f"y[{kept}] = t",
                      f"y = y.numpy(){back}"]
            return Form(tuple(lines), "torch.full then the input in place: exact for every type (F.pad takes its "
                                      "value as a float).")
        lines += ["y = t", *self._gathered(call, lambda d, i: f"y = y.index_select({d}, torch.from_numpy({i}))")]
        lines.append(f"y = y.numpy(){back}")
        return Form(tuple(lines), "Each padded axis read through np.pad's index along it: F.pad reflects and "
                                  "replicates the last 1 to 3 dimensions only, lists pads from the last dimension, "
                                  "and has no symmetric mode.")

    def tensorflow(self, call, stored):
        mode = call.attr("mode")
        pads = "[" + ", ".join(f"[{a}, {b}]" for a, b in self._pads(call)) + "]"
        if mode == "CONSTANT":
            return Form((f"y = tf.pad(x, {pads}, constant_values={_value_literal(self._value(call))}).numpy()",),
                        "tf.pad's CONSTANT mode.")
        limit = {"REFLECTION": 1, "SYMMETRIC": 0}.get(mode)
        if limit is not None and all(max(p) <= n - limit for n, p in zip(call.input_sizes[0], self._pads(call))):
            tf_mode = "REFLECT" if mode == "REFLECTION" else "SYMMETRIC"
            return Form((f'y = tf.pad(x, {pads}, mode="{tf_mode}").numpy()',),
                        f"tf.pad's {tf_mode} mode (pads of at most the axis' size{' - 1' if limit else ''}).")
        lines = ["y = tf.constant(x)", *self._gathered(call, lambda d, index: f"y = tf.gather(y, {index}, axis={d})"),
                 "y = y.numpy()"]
        return Form(tuple(lines), "Each padded axis read through np.pad's index along it: tf.pad has no edge mode and "
                                  "refuses pads wider than its REFLECT and SYMMETRIC take.")


class TileForms(Forms):
    conventions = {
        "numpy": "np.tile copies the whole tensor; np.repeat would repeat each element.",
        "einops": "repeat with (r a): r outside a is a tile; (a r) would repeat each element.",
        "onnx": "Tile with one repeat per dimension.",
        "pytorch": "Tensor.repeat tiles (it is np.tile); repeat_interleave is np.repeat.",
        "tensorflow": "tf.tile; tf.repeat would repeat each element.",
        "directml": "RepeatsCount and Repeats, one per dimension.",
    }

    def numpy(self, call, stored):
        return Form((f"y = np.tile(x, ({literal(call.attr('repeats'))},))",),
                    "np.tile lays whole copies one after another: TILE (np.repeat repeats each element instead).")

    def einops(self, call, stored):
        names = [f"d{d}" for d in range(len(call.input_sizes[0]))]
        out = " ".join(f"(r{d} {n})" if r > 1 else n for d, (n, r) in enumerate(zip(names, call.attr("repeats"))))
        counts = ", ".join(f"r{d}={r}" for d, r in enumerate(call.attr("repeats")) if r > 1)
        return Form((f'y = repeat(x, "{" ".join(names)} -> {out}"{", " if counts else ""}{counts})',),
                    "(r d) puts the copy number outside the axis: whole copies, a tile.")

    def pytorch(self, call, stored):
        lines, back = _torch_view(call)
        lines.append(f"y = t.repeat({literal(call.attr('repeats'))}).numpy(){back}")
        return Form(tuple(lines), "Tensor.repeat tiles, as np.tile does; torch.repeat_interleave would repeat each "
                                  "element.")

    def tensorflow(self, call, stored):
        return Form((f"y = tf.tile(x, [{literal(call.attr('repeats'))}]).numpy()",), "tf.tile is TILE.")


def _reverse_index_lines(call, lengths):
    """Lines computing DirectML's index along Axis from the lengths array named `lengths`."""
    axis, n = call.attr("axis"), call.input_sizes[0][call.attr("axis")]
    shape = literal([n if d == axis else 1 for d in range(len(call.input_sizes[0]))])
    return ("# DirectML reads a length's low 32 bits and clamps the index it reads, not the length, to the axis.",
            f"L = {lengths}.astype(np.int64) & 0xFFFFFFFF",
            f"i = np.arange({n}).reshape({shape})",
            f"index = np.broadcast_to(np.where(i < L, np.minimum(L - 1 - i, {n - 1}), i), "
            f"({literal(call.input_sizes[0])},))")


class ReverseForms(Forms):
    def checked(self, spec, input_sizes, data_type, settings):
        """The call, the SequenceLengthsTensor's sizes implied when only the input's are given."""
        sizes = [input_sizes] if input_sizes and not isinstance(input_sizes[0], (list, tuple)) else list(input_sizes)
        if len(sizes) == 1 and isinstance(settings.get("axis"), int) and 0 <= settings["axis"] < len(sizes[0]):
            sizes.append(tuple(1 if d == settings["axis"] else s for d, s in enumerate(sizes[0])))
        return super().checked(spec, sizes, data_type, settings)

    conventions = {
        "numpy": "No subsequence reversal: a gather along Axis with DirectML's index.",
        "einops": "No reversal.",
        "onnx": "ReverseSequence: one batch axis, lengths at most the axis (ONNX Runtime refuses others).",
        "pytorch": "No subsequence reversal (torch.flip reverses whole axes): a gather.",
        "tensorflow": "tf.reverse_sequence takes one batch axis and lengths at most the axis: a gather.",
        "directml": "SequenceLengthsTensor has the input's Sizes with 1 along Axis: a length per line.",
    }

    def numpy(self, call, stored):
        lines = (*_reverse_index_lines(call, "sequencelengths"),
                 f"y = np.take_along_axis(input, index, axis={call.attr('axis')})")
        return Form(lines, "Within its length each line runs backwards; past it the line stays as it is.")

    def einops(self, call, stored):
        return Form(None, "einops has no reversal (see the numpy snippet).")

    def pytorch(self, call, stored):
        lines, back = _torch_view(call, "input")
        lines += [*_reverse_index_lines(call, "sequencelengths"),
                  f"y = torch.gather(t, {call.attr('axis')}, torch.from_numpy(index.copy())).numpy(){back}"]
        return Form(tuple(lines), "PyTorch has no subsequence reversal: torch.gather with DirectML's index.")

    def tensorflow(self, call, stored):
        lines = (*_reverse_index_lines(call, "sequencelengths"),
                 f"y = tf.experimental.numpy.take_along_axis(input, index, axis={call.attr('axis')}).numpy()")
        return Form(lines, "tf.reverse_sequence takes one length per batch entry, each at most the axis: a gather "
                           "with DirectML's index instead.")


class UpsampleForms(Forms):
    conventions = {
        "numpy": "np.repeat repeats each element (np.tile would copy the whole tensor).",
        "einops": "repeat with (h r): r inside the axis repeats each element.",
        "onnx": "Resize nearest, asymmetric coordinates, floor: input index o div scale.",
        "pytorch": "repeat_interleave repeats each element (Tensor.repeat would tile).",
        "tensorflow": "tf.repeat repeats each element (tf.tile would copy the whole tensor).",
        "directml": "ScaleSize {Width, Height}, InterpolationMode NEAREST_NEIGHBOR.",
    }

    @staticmethod
    def _scales(call):
        width, height = call.attr("scale_size")
        return height, width

    def numpy(self, call, stored):
        height, width = self._scales(call)
        return Form((f"y = x.repeat({height}, axis=-2).repeat({width}, axis=-1)",),
                    "np.repeat repeats each element: nearest-neighbour upsampling by whole scales.")

    def einops(self, call, stored):
        height, width = self._scales(call)
        return Form((f'y = repeat(x, "... h w -> ... (h rh) (w rw)", rh={height}, rw={width})',),
                    "(h rh) puts the copy number inside the axis: each element repeated.")

    def pytorch(self, call, stored):
        height, width = self._scales(call)
        return Form((f"y = torch.from_numpy(x).repeat_interleave({height}, dim=-2).repeat_interleave({width}, "
                     "dim=-1).numpy()",),
                    "repeat_interleave repeats each element (F.interpolate(mode=\"nearest\") does the same for whole "
                    "scales).")

    def tensorflow(self, call, stored):
        height, width = self._scales(call)
        return Form((f"y = tf.repeat(tf.repeat(x, {height}, axis=-2), {width}, axis=-1).numpy()",),
                    "tf.repeat repeats each element.")
