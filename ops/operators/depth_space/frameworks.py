"""DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1 in other frameworks, each in the Order chosen. Which framework uses which
order, with its source:

- numpy has no depth/space operator; the reshape/transpose pairs below are the ones ONNX writes down as the
  definition of DepthToSpace DCR and CRD (https://onnx.ai/onnx/operators/onnx__DepthToSpace.html).
- ONNX DepthToSpace has `mode` DCR (the default) or CRD (same page); ONNX SpaceToDepth has no mode and computes
  the DCR arrangement (https://onnx.ai/onnx/operators/onnx__SpaceToDepth.html; its example and onnx's reference
  implementation, onnx/reference/ops/op_space_to_depth.py, transpose with [0, 3, 5, 1, 2, 4]).
- PyTorch's pixel_shuffle maps (*, C x r^2, H, W) to (*, C, H x r, W x r)
  (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelShuffle.html), C the major part of the depth
  index: COLUMN_ROW_DEPTH. torch.onnx exports it as DepthToSpace mode CRD (pytorch/pytorch
  torch/onnx/symbolic_opset11.py, pixel_shuffle), the mode added to ONNX for exactly that (onnx/onnx#2163:
  "Using CRD mode, depthToSpace would be an equivalent of pytorch pixel_shuffle"). pixel_unshuffle is its inverse
  (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelUnshuffle.html), so also CRD.
- TensorFlow's depth_to_space takes "the Y, X coordinates within each block ... [from] the high order component of
  the input channel index" and space_to_depth makes them "the high order component of the output channel index"
  (https://www.tensorflow.org/api_docs/python/tf/nn/depth_to_space,
  https://www.tensorflow.org/api_docs/python/tf/nn/space_to_depth): block position major, DCR, on NHWC data.
- einops states the layout in the pattern itself (https://einops.rocks/api/rearrange/): (b1 b2 c) is DCR,
  (c b1 b2) is CRD.
"""

import dataclasses

from ..framework_forms import Form, Forms, literal

# One sentence per framework: the depth/space order its own operation uses, each from that framework's documentation.
ORDER_CONVENTIONS = {
    # numpy has no depth/space function; ONNX writes both orders down as numpy reshape/transpose
    # (https://onnx.ai/onnx/operators/onnx__DepthToSpace.html), which the snippet follows.
    "numpy": "No order of its own: the reshape and transpose spell out the Order chosen here.",
    # https://einops.rocks/api/rearrange/: the parenthesised group is the composition of axes, major first.
    "einops": "The pattern is the order: (b1 b2 c) is DEPTH_COLUMN_ROW (DCR), (c b1 b2) is COLUMN_ROW_DEPTH (CRD).",
    # https://onnx.ai/onnx/operators/onnx__DepthToSpace.html ("By default, mode = DCR", mode DCR or CRD);
    # https://onnx.ai/onnx/operators/onnx__SpaceToDepth.html (no mode attribute; its reference transposes
    # [0, 3, 5, 1, 2, 4], block position major: DCR).
    "onnx": "DepthToSpace has mode DCR (the default) or CRD; SpaceToDepth has no mode and is always DCR.",
    # https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelShuffle.html: (*, C x r^2, H, W) ->
    # (*, C, H x r, W x r), C the major part of the channel index; PixelUnshuffle is its inverse
    # (https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelUnshuffle.html).
    "pytorch": "pixel_shuffle and pixel_unshuffle are COLUMN_ROW_DEPTH (CRD); DCR needs the channels reordered.",
    # https://www.tensorflow.org/api_docs/python/tf/nn/depth_to_space: "The Y, X coordinates within each block
    # ... are determined by the high order component of the input channel index"; space_to_depth likewise
    # (https://www.tensorflow.org/api_docs/python/tf/nn/space_to_depth). data_format defaults to NHWC.
    "tensorflow": "tf.nn.depth_to_space and space_to_depth are DEPTH_COLUMN_ROW (DCR), on NHWC data; CRD needs "
                  "the channels reordered.",
    # https://learn.microsoft.com/windows/win32/api/directml/ne-directml-dml_depth_space_order: the Order field of
    # DML_DEPTH_TO_SPACE1_OPERATOR_DESC and DML_SPACE_TO_DEPTH1_OPERATOR_DESC, either layout.
    "directml": "Order is a field of the descriptor: DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH.",
}
# Measured with onnxruntime 1.31.1's CPU provider (SPEC section 8, ops/runtime/cross_check.py).
ORT_CPU_DEPTH_SPACE_TYPES = ("FLOAT64", "FLOAT32", "FLOAT16", "INT8", "UINT8")
# torch 2.13.0's CPU pixel_shuffle and pixel_unshuffle have no kernel for uint16/32/64 (measured here: "not implemented
# for 'UInt32'"); the same bits move as the signed type of the same width.
_TORCH_UNSIGNED = {"UINT16": "int16", "UINT32": "int32", "UINT64": "int64"}
_PYTORCH_PIXEL_SHUFFLE = "https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelShuffle.html"
_PYTORCH_PIXEL_UNSHUFFLE = "https://docs.pytorch.org/docs/stable/generated/torch.nn.PixelUnshuffle.html"
_TF_DEPTH_TO_SPACE = "https://www.tensorflow.org/api_docs/python/tf/nn/depth_to_space"
_TF_SPACE_TO_DEPTH = "https://www.tensorflow.org/api_docs/python/tf/nn/space_to_depth"


def _dcr(call):
    return call.attr("order") == "DEPTH_COLUMN_ROW"


class DepthSpaceForms(Forms):
    """What the pair's forms share; each direction gives its 6-D route, its PyTorch and its TensorFlow call."""

    conventions = ORDER_CONVENTIONS

    def numpy(self, call, stored):
        split, axes, named = self.steps(call)
        lines = (f"y = x.reshape({literal(split)})  # {named[0]}",
                 f"y = y.transpose({literal(axes)})  # {named[1]}",
                 f"y = y.reshape({literal(call.output_sizes[0])})  # {named[2]}")
        return Form(lines, "numpy has no depth/space function: a reshape exposes the block axes, a transpose moves "
                           "them.")

    def steps(self, call):
        """(first reshape, transpose axes, the axes' names after each step) of the 6-D route between depth and
        space; the last reshape is to the output sizes."""
        raise NotImplementedError

    @staticmethod
    def pattern(depth, space):
        """The einops pattern from the depth side's axes to the space side's, in this direction."""
        raise NotImplementedError

    def einops(self, call, stored):
        depth = "(b1 b2 c)" if _dcr(call) else "(c b1 b2)"
        pattern = self.pattern(depth, "c (h b1) (w b2)")
        b = call.attr("block_size")
        note = "The pattern is the layout: b1 and b2 are the block row and column, c the channel within the block."
        return Form((f'y = rearrange(x, "{pattern}", b1={b}, b2={b})',), note)

    def onnx(self, call, stored):
        form = super().onnx(call, stored)
        if not any(node.op_type == call.operator.onnx for node in form.nodes):  # a graph every ONNX Runtime type runs
            return dataclasses.replace(form, comment=f"ONNX {call.operator.onnx} has only DCR; COLUMN_ROW_DEPTH keeps "
                                                     "the block axes behind the channel:")
        note = form.note
        if call.data_type not in ORT_CPU_DEPTH_SPACE_TYPES:
            note += (
                f" ONNX Runtime's CPU provider has no DepthToSpace/SpaceToDepth kernel for {call.data_type} (measured "
                "with onnxruntime 1.31.1, SPEC section 8): the model is valid ONNX, but run it as the same-width "
                "integer type there (ops.cross_check does)."
            )
        if call.data_type == "FLOAT16":
            note += (
                " ONNX Runtime's CPU FLOAT16 kernel does not keep NaN bit patterns (measured with onnxruntime 1.32.0: "
                "signalling 0x7C01 came back as 0x7E01, quiet 0xFF49 as 0xFE00); ops.cross_check moves FLOAT16 as "
                "bytes for that reason."
            )
        return dataclasses.replace(form, note=note)

    def torch_input(self, call):
        """(lines binding `t` to x as a torch tensor, the suffix that gives a result x's dtype back)."""
        signed = _TORCH_UNSIGNED.get(call.data_type)
        if not signed:
            return ["t = torch.from_numpy(x)"], ""
        return [f"# torch has no pixel_(un)shuffle kernel for {call.data_type.lower()}: the same bits move as {signed}",
                f"t = torch.from_numpy(x.view(np.{signed}))"], f".view(np.{call.dtype})"

    def tensorflow(self, call, stored):
        if call.attr("block_size") == 1:
            # TensorFlow's DepthToSpace and SpaceToDepth ops declare block_size min=2 (measured: "Value for attr
            # 'block_size' of 1 must be at least minimum 2", TensorFlow 2.21).
            return Form(("# TensorFlow refuses block_size 1 (its ops need at least 2); BlockSize 1 moves nothing.",
                         "y = tf.identity(x).numpy()"),
                        "BlockSize 1 is the identity, which TensorFlow's depth/space ops refuse to be asked for.")
        # TensorFlow 2.21's CPU kernels refuse data_format="NCHW" ("Could not find device for node", measured here).
        lines, note = self.tensorflow_nhwc(call)
        return Form(("# TensorFlow's CPU kernel takes NHWC only: transpose NCHW to NHWC and back.", *lines), note)

    def tensorflow_nhwc(self, call):
        """(lines, note) of the TensorFlow call, BlockSize 2 or more, on x transposed to NHWC and back."""
        raise NotImplementedError

    def from_onnx(self, node, attributes, shapes, constants, opset):
        # DepthToSpace's mode is DCR unless it says CRD; SpaceToDepth has no mode (the checker refuses one) and is DCR.
        return shapes[0], {"block_size": attributes.get("blocksize"), "order": attributes.get("mode", "DCR")}

    def page_settings(self, call, stored):
        return {"Sizes": list(call.input_sizes[0]), "BlockSize": call.attr("block_size"), "Order": call.attr("order")}


class DepthToSpaceForms(DepthSpaceForms):
    @staticmethod
    def pattern(depth, space):
        return f"n {depth} h w -> n {space}"

    def steps(self, call):
        (n, c, h, w), b = call.input_sizes[0], call.attr("block_size")
        c_out = c // (b * b)
        if _dcr(call):
            split, axes, named = (n, b, b, c_out, h, w), (0, 3, 4, 1, 5, 2), "[N, bh, bw, C', H, W]"
        else:
            split, axes, named = (n, c_out, b, b, h, w), (0, 1, 4, 2, 5, 3), "[N, C', bh, bw, H, W]"
        return split, axes, (named, "[N, C', H, bh, W, bw]", "[N, C', H*bs, W*bs]")

    def pytorch(self, call, stored):
        c, b = call.input_sizes[0][1], call.attr("block_size")
        lines, back = self.torch_input(call)
        lines.append(
            f"# pixel_shuffle is COLUMN_ROW_DEPTH: (*, C*r^2, H, W) -> (*, C, H*r, W*r), {_PYTORCH_PIXEL_SHUFFLE}"
        )
        if _dcr(call):
            lines += [
                "# Reading the channels in this order first makes it DEPTH_COLUMN_ROW",
                f'# (ops.channel_permutation({c}, {b}, "DCR", "CRD")):',
                f"order = torch.arange({c}).reshape({b}, {b}, {c // (b * b)}).permute(2, 0, 1).flatten()",
                "t = t[:, order]",
            ]
        lines.append(f"y = torch.nn.functional.pixel_shuffle(t, {b}).numpy(){back}")
        return Form(tuple(lines), "pixel_shuffle is CRD" + ("; DCR needs the channels reordered first." if _dcr(call)
                                                            else "."))

    def tensorflow_nhwc(self, call):
        c, b = call.input_sizes[0][1], call.attr("block_size")
        lines = [
            "# tf.nn.depth_to_space is DEPTH_COLUMN_ROW: the block position is the high-order part of the channel",
            f"# index ({_TF_DEPTH_TO_SPACE}).",
        ]
        if not _dcr(call):
            lines += [
                "# Reading the channels in this order first makes it COLUMN_ROW_DEPTH",
                f'# (ops.channel_permutation({c}, {b}, "CRD", "DCR")):',
                f"order = np.arange({c}).reshape({c // (b * b)}, {b}, {b}).transpose(1, 2, 0).ravel()",
                "x = tf.gather(x, order, axis=1)",
            ]
        nhwc = f"tf.nn.depth_to_space(tf.transpose(x, [0, 2, 3, 1]), {b})"
        lines.append(f"y = tf.transpose({nhwc}, [0, 3, 1, 2]).numpy()")
        return lines, "tf.nn.depth_to_space is DCR on NHWC" + (
            "." if _dcr(call) else "; CRD needs the channels reordered first.")


class SpaceToDepthForms(DepthSpaceForms):
    @staticmethod
    def pattern(depth, space):
        return f"n {space} -> n {depth} h w"

    def steps(self, call):
        (n, c, h, w), b = call.input_sizes[0], call.attr("block_size")
        if _dcr(call):
            axes, moved = (0, 3, 5, 1, 2, 4), "[N, bh, bw, C, H', W']"
        else:
            axes, moved = (0, 1, 3, 5, 2, 4), "[N, C, bh, bw, H', W']"
        return (n, c, h // b, b, w // b, b), axes, ("[N, C, H', bh, W', bw]", moved, "[N, C*bs*bs, H', W']")

    def pytorch(self, call, stored):
        c, b = call.input_sizes[0][1], call.attr("block_size")
        depth = c * b * b
        lines, back = self.torch_input(call)
        lines += [f"# pixel_unshuffle is its inverse, so COLUMN_ROW_DEPTH too: {_PYTORCH_PIXEL_UNSHUFFLE}",
                  f"t = torch.nn.functional.pixel_unshuffle(t, {b})"]
        if _dcr(call):
            lines += [
                "# Reordering its output channels makes it DEPTH_COLUMN_ROW",
                f'# (ops.channel_permutation({depth}, {b}, "CRD", "DCR")):',
                f"order = torch.arange({depth}).reshape({c}, {b}, {b}).permute(1, 2, 0).flatten()",
                "t = t[:, order]",
            ]
        lines.append(f"y = t.numpy(){back}")
        return Form(tuple(lines), "pixel_unshuffle is CRD" + ("; DCR needs its output channels reordered."
                                                              if _dcr(call) else "."))

    def tensorflow_nhwc(self, call):
        c, b = call.input_sizes[0][1], call.attr("block_size")
        depth = c * b * b
        lines = [
            "# tf.nn.space_to_depth is DEPTH_COLUMN_ROW: the block position becomes the high-order part of the",
            f"# channel index ({_TF_SPACE_TO_DEPTH}).",
            f"y = tf.transpose(tf.nn.space_to_depth(tf.transpose(x, [0, 2, 3, 1]), {b}), [0, 3, 1, 2])",
        ]
        if not _dcr(call):
            lines += [
                "# Reordering its output channels makes it COLUMN_ROW_DEPTH",
                f'# (ops.channel_permutation({depth}, {b}, "DCR", "CRD")):',
                f"order = np.arange({depth}).reshape({b}, {b}, {c}).transpose(2, 0, 1).ravel()",
                "y = tf.gather(y, order, axis=1)",
            ]
        lines.append("y = y.numpy()")
        return lines, "tf.nn.space_to_depth is DCR on NHWC" + (
            "." if _dcr(call) else "; CRD needs its output channels reordered.")
