"""DML_DEPTH_TO_SPACE1 and DML_SPACE_TO_DEPTH1: moving channel blocks into space and back (SPEC sections 2-3).

Fields: InputTensor, OutputTensor, BlockSize (UINT), Order (DML_DEPTH_SPACE_ORDER); introduced at feature level 2_1,
exactly 4 dimensions. The space side is always [N, C', (H, bh), (W, bw)]; the Order says how the depth side's
channel is made of (bh, bw, c'): DEPTH_COLUMN_ROW is (bh*bs + bw)*C' + c' (ONNX mode DCR), COLUMN_ROW_DEPTH is
c'*bs*bs + bh*bs + bw (ONNX mode CRD).
"""

import numpy as np

from ...errors import DescriptorError
from ...guard import check_element_count, check_positive_int, check_tensor
from ...tensor_desc import Problem, join_path
from .. import parallel
from ..base import ALL_TYPES, ENUM, INPUT, NO_64_BIT, OUTPUT, UINT, Attribute, Enum, Field, Operator, support_rows
from . import detective, teaching
from .fixes import nearest_fixes
from .frameworks import DepthToSpaceForms, SpaceToDepthForms

ORDER = Enum("DML_DEPTH_SPACE_ORDER_", ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"),
             (("DCR", "DEPTH_COLUMN_ROW"), ("CRD", "COLUMN_ROW_DEPTH")), "Order")
ORDERS = ORDER.names
# A direction names the pair's two operators the way the app's links do.
DIRECTIONS = {"depth_to_space": "DEPTH_TO_SPACE1", "space_to_depth": "SPACE_TO_DEPTH1"}
DIMENSION_NAMES = ("N", "C", "H", "W")


def order_name(order):
    """DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH from any accepted spelling (full name, suffix, DCR/CRD)."""
    return ORDER.name(order)


def order_short(order):
    """DCR or CRD: ONNX's name for the order."""
    return ORDER.short(order_name(order))


# Input bytes per tile. Large enough that numpy's per-call overhead is small next to the copy,
# small enough that a tile's source and destination stay in the shared L3 while its bw passes run.
TILE_BYTES = 1 << 20


def depth_indivisible(input_sizes, block_size):
    """Why DEPTH_TO_SPACE1 cannot take these sizes: C must be divisible by BlockSize^2 (implied by its output
    formula, SPEC section 2)."""
    c = input_sizes[1]
    if c % (block_size * block_size):
        return [f"BlockSize {block_size}: the input's channel count {c} is not divisible by "
                f"BlockSize^2 = {block_size * block_size}"]
    return []


def space_indivisible(input_sizes, block_size):
    """Why SPACE_TO_DEPTH1 cannot take these sizes: H and W must be divisible by BlockSize (SPEC section 3)."""
    _, _, h, w = input_sizes
    return [f"BlockSize {block_size}: the input's {name} {size} is not divisible by BlockSize {block_size}"
            for name, size in (("height", h), ("width", w)) if size % block_size]


def depth_to_space_shape(input_sizes, block_size):
    for message in depth_indivisible(input_sizes, block_size):
        raise DescriptorError(message)
    n, c, h, w = input_sizes
    return (n, c // (block_size * block_size), h * block_size, w * block_size)


def space_to_depth_shape(input_sizes, block_size):
    for message in space_indivisible(input_sizes, block_size):
        raise DescriptorError(message)
    n, c, h, w = input_sizes
    return (n, c * block_size * block_size, h // block_size, w // block_size)


def _space_and_depth_views(space, depth, block_size, order):
    """Both sides of the operator as 6-D arrays that name each element by the same index.

    space axes [N, C', H, bh, W, bw]; depth axes [N, bw, C', H, bh, W]. With bw leading on the depth
    side, space[n, c, h, :, :, bw] and depth[n, bw, c, h] are the same elements, so one strided
    assignment moves a whole slab with W as numpy's inner loop (a reshape/transpose copy would make
    the block axis the inner loop and run several times slower).
    """
    n, c, h, w = depth.shape
    bs = block_size
    c_out = c // (bs * bs)
    space6 = space.reshape(n, c_out, h, bs, w, bs)
    if order == "DEPTH_COLUMN_ROW":
        depth6 = depth.reshape(n, bs, bs, c_out, h, w).transpose(0, 2, 3, 4, 1, 5)
    else:
        depth6 = depth.reshape(n, c_out, bs, bs, h, w).transpose(0, 3, 1, 4, 2, 5)
    return space6, depth6


def _tiles(space6, itemsize):
    """(n, channel slice, row slice) tiles of about TILE_BYTES each, in memory order."""
    n, c_out, h, bs, w, _ = space6.shape
    row_bytes = bs * bs * w * itemsize
    rows = max(1, min(h, TILE_BYTES // row_bytes))
    channels = max(1, min(c_out, TILE_BYTES // (row_bytes * rows)))
    return [
        (i, slice(c0, c0 + channels), slice(h0, h0 + rows))
        for i in range(n)
        for c0 in range(0, c_out, channels)
        for h0 in range(0, h, rows)
    ]


def _move(space6, depth6, block_size, to_space):
    """Copy every element between the two views; all bw passes of a tile run while it is in cache."""

    def tile(task):
        n, channels, rows = task
        for bw in range(block_size):
            if to_space:
                space6[n, channels, rows, :, :, bw] = depth6[n, bw, channels, rows]
            else:
                depth6[n, bw, channels, rows] = space6[n, channels, rows, :, :, bw]

    parallel.run(_tiles(space6, depth6.itemsize), tile)


def depth_to_space(x, block_size, order="DEPTH_COLUMN_ROW"):
    check_tensor(x, "InputTensor", dims=4)
    block_size = check_positive_int(block_size, "BlockSize")
    order = order_name(order)
    shape = depth_to_space_shape(x.shape, block_size)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=x.dtype)
    space6, depth6 = _space_and_depth_views(out, x, block_size, order)
    _move(space6, depth6, block_size, to_space=True)
    return out


def space_to_depth(x, block_size, order="DEPTH_COLUMN_ROW"):
    check_tensor(x, "InputTensor", dims=4)
    block_size = check_positive_int(block_size, "BlockSize")
    order = order_name(order)
    shape = space_to_depth_shape(x.shape, block_size)
    check_element_count(shape, "OutputTensor Sizes")
    out = np.empty(shape, dtype=x.dtype)
    space6, depth6 = _space_and_depth_views(x, out, block_size, order)
    _move(space6, depth6, block_size, to_space=False)
    return out


# ---------------------------------------------------------------- the operators


def _block_size(value):
    return check_positive_int(value, "BlockSize")


class DepthSpace(Operator):
    """What the pair shares; `to_space` says which way the elements move."""

    to_space: bool
    dims = (4, 4)
    byte_axis = "batch"
    attributes = (Attribute("block_size", "BlockSize", _block_size),
                  Attribute("order", "Order", order_name, "DEPTH_COLUMN_ROW"))
    fields = (Field("InputTensor", INPUT, resource="input"), Field("OutputTensor", OUTPUT, resource="output"),
              Field("BlockSize", UINT, "block_size", minimum=1), Field("Order", ENUM, "order", enum=ORDER))
    dimension_names = DIMENSION_NAMES
    # Its teaching, its fixes and what the layout detective asks of it: teaching.py, fixes.py, detective.py.
    formula, question, fixes = teaching.formula, teaching.question, nearest_fixes
    candidates, channel_mix_ups = detective.candidates, detective.channel_mix_ups
    mix_up_advice = detective.mix_up_advice

    @property
    def direction(self):
        return next(d for d, name in DIRECTIONS.items() if name == self.name)

    @property
    def inverse(self):
        return next(name for name in DIRECTIONS.values() if name != self.name)

    def depth_and_space(self, shape, block_size):
        """(depth-side sizes, space-side sizes) of a call whose input has `shape`."""
        out = self.output_shape(shape, block_size)
        return (tuple(shape), out) if self.to_space else (out, tuple(shape))

    def output_shapes(self, input_shapes, attrs):
        return [self.output_shape(input_shapes[0], attrs["block_size"])]

    def compute(self, inputs, attrs):
        move = depth_to_space if self.to_space else space_to_depth
        return [move(inputs[0], attrs["block_size"], attrs["order"])]

    def shape_problems(self, parsed, path):
        inp, out = parsed.tensors["InputTensor"], parsed.tensors["OutputTensor"]
        block = parsed.scalars.get("BlockSize")
        if block is None or inp.DimensionCount != 4 or out.DimensionCount != 4:
            return []
        indivisible = self.indivisible(inp.Sizes, block)
        if indivisible:
            return [Problem(join_path(path, "BlockSize"), message) for message in indivisible]
        expected = self.output_shape(inp.Sizes, block)
        if tuple(out.Sizes) == expected:
            return []
        return [Problem(join_path(join_path(path, "OutputTensor"), "Sizes"),
                        f"OutputTensor.Sizes {list(out.Sizes)}: must be {list(expected)} = {self.formula_text}")]

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper

        return [helper.make_node(self.onnx, ["x0"], ["y0"], blocksize=attrs["block_size"],
                                 **self._onnx_mode(attrs["order"]))], []

    def _onnx_mode(self, order):
        return {"mode": order_short(order)}

    def onnx_text(self, attrs, input_count):
        return f"ONNX {self.onnx} (mode {order_short(attrs['order'])}, blocksize {attrs['block_size']})"

    def identity_call(self, x, attrs):
        return [x.reshape(1, x.size, 1, 1)], {"block_size": 1, "order": attrs.get("order", "DEPTH_COLUMN_ROW")}


class DepthToSpace(DepthSpace):
    name = "DEPTH_TO_SPACE1"
    code = 113
    summary = ("moves blocks of channels into BlockSize x BlockSize spatial blocks: {N, C, H, W} -> "
               "{N, C/BlockSize^2, H*BlockSize, W*BlockSize}")
    formula_text = "{N, C/BlockSize^2, H*BlockSize, W*BlockSize}"
    to_space = True
    onnx = "DepthToSpace"
    core_name = "depth_to_space"
    support = support_rows("DEPTH_TO_SPACE1", ("2_1", 4, 4, NO_64_BIT), ("5_0", 4, 4, ALL_TYPES))
    frameworks = DepthToSpaceForms()

    output_shape = staticmethod(depth_to_space_shape)
    indivisible = staticmethod(depth_indivisible)


class SpaceToDepth(DepthSpace):
    name = "SPACE_TO_DEPTH1"
    code = 114
    summary = ("moves BlockSize x BlockSize spatial blocks into channels: {N, C, H, W} -> "
               "{N, C*BlockSize^2, H/BlockSize, W/BlockSize}")
    formula_text = "{N, C*BlockSize^2, H/BlockSize, W/BlockSize}"
    to_space = False
    onnx = "SpaceToDepth"
    core_name = "space_to_depth"
    support = support_rows("SPACE_TO_DEPTH1", ("2_1", 4, 4, NO_64_BIT), ("5_0", 4, 4, ALL_TYPES))
    frameworks = SpaceToDepthForms()

    output_shape = staticmethod(space_to_depth_shape)
    indivisible = staticmethod(space_indivisible)

    def onnx_graph(self, attrs, shapes, dtype):
        from onnx import helper, numpy_helper

        if attrs["order"] == "DEPTH_COLUMN_ROW":
            return super().onnx_graph(attrs, shapes, dtype)
        # ONNX's SpaceToDepth definition with the block axes (bh, bw) placed after the channel, not before it:
        # output channel c*bs*bs + bh*bs + bw, which is COLUMN_ROW_DEPTH.
        n, c, h, w = shapes[0]
        b = attrs["block_size"]
        initializers = [
            numpy_helper.from_array(np.array([n, c, h // b, b, w // b, b], np.int64), "blocks"),
            numpy_helper.from_array(np.array([n, c * b * b, h // b, w // b], np.int64), "depth"),
        ]
        nodes = [
            helper.make_node("Reshape", ["x0", "blocks"], ["split_space"]),
            helper.make_node("Transpose", ["split_space"], ["blocks_behind_channel"], perm=[0, 1, 3, 5, 2, 4]),
            helper.make_node("Reshape", ["blocks_behind_channel", "depth"], ["y0"]),
        ]
        return nodes, initializers

    def _onnx_mode(self, order):
        return {}  # ONNX SpaceToDepth has no mode: it is always DCR

    def onnx_text(self, attrs, input_count):
        if attrs["order"] == "DEPTH_COLUMN_ROW":
            return f"ONNX SpaceToDepth (blocksize {attrs['block_size']}; its only order, DCR, is DEPTH_COLUMN_ROW)"
        return (f"an ONNX Reshape -> Transpose -> Reshape graph (blocksize {attrs['block_size']}; it stands in for "
                "SpaceToDepth, which has no COLUMN_ROW_DEPTH (CRD) order in ONNX)")


DEPTH_TO_SPACE1 = DepthToSpace()
SPACE_TO_DEPTH1 = SpaceToDepth()
OPERATORS = (DEPTH_TO_SPACE1, SPACE_TO_DEPTH1)
