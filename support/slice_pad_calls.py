"""Calls of the slice, pad and tile family for property tests: any operator, any type it takes, valid by construction
and small enough for the plain-loop specs (support/specs.py), which spec_of runs for a call."""

import numpy as np
from hypothesis import strategies as st

import ops
from ops.operators import slice_pad
from ops.operators.slice_pad import core
from support.specs import padding1_spec, reverse_subsequences_spec, slice1_spec, tile_spec, upsample_2d_spec


def random_bits(rng, shape, data_type):
    dtype = ops.numpy_dtype(data_type)
    return rng.integers(0, 256, int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


@st.composite
def calls(draw, family):
    """(op, inputs, attrs) of any operator of the family, any type it takes, valid by construction."""
    op = draw(st.sampled_from(family))
    spec = ops.operator(op)
    data_type = draw(st.sampled_from(spec.supported_types))
    rank = draw(st.integers(*spec.dims))
    # At most three axes longer than 1, so that outputs stay small enough for the plain loops.
    long_axes = set(draw(st.lists(st.integers(0, rank - 1), max_size=3)))
    shape = tuple(draw(st.integers(1, 4)) if d in long_axes else 1 for d in range(rank))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = random_bits(rng, shape, data_type)
    if op == "SLICE1":
        offsets = [draw(st.integers(0, n - 1)) for n in shape]
        sizes = [draw(st.integers(1, n - o)) for n, o in zip(shape, offsets)]
        strides = [draw(st.integers(1, 3)) * draw(st.sampled_from([1, -1])) for _ in shape]
        outputs = [draw(st.integers(1, core.slice_copied(s, t))) for s, t in zip(sizes, strides)]
        return op, [x], {"window_offsets": offsets, "window_sizes": sizes, "window_strides": strides,
                         "output_sizes": outputs}
    if op == "PADDING1":
        mode = draw(st.sampled_from(core.PADDING_MODES))
        pads = [(draw(st.integers(0, 9)), draw(st.integers(0, 9))) if d in long_axes else (0, 0)
                for d in range(rank)]
        value = draw(st.integers(0, 127)) if data_type not in ("FLOAT32", "FLOAT16", "FLOAT64") else \
            draw(st.floats(allow_nan=False, width=16))
        return op, [x], {"mode": mode, "padding_value": value, "start_padding": [a for a, _ in pads],
                         "end_padding": [b for _, b in pads]}
    if op == "TILE":
        return op, [x], {"repeats": [draw(st.integers(1, 3)) if d in long_axes else 1 for d in range(rank)]}
    if op == "UPSAMPLE_2D":
        return op, [x], {"scale_size": (draw(st.integers(1, 3)), draw(st.integers(1, 3)))}
    axis = draw(st.integers(0, rank - 1))
    lengths_type = draw(st.sampled_from(["UINT32", "UINT64"]))
    lengths = random_bits(rng, slice_pad.lengths_shape(shape, axis), lengths_type)
    if draw(st.booleans()):  # mostly within the axis, some past it; else any bits at all
        lengths = lengths % lengths.dtype.type(shape[axis] + 3)
    return op, [x, lengths], {"axis": axis}


def spec_of(op, inputs, attrs):
    x = inputs[0]
    if op == "SLICE1":
        return slice1_spec(x, attrs["window_offsets"], attrs["window_sizes"], attrs["window_strides"],
                           attrs["output_sizes"])
    if op == "PADDING1":
        value = ops.numpy_dtype(ops.type_name(x.dtype)).type(attrs["padding_value"])
        return padding1_spec(x, attrs["mode"], attrs["start_padding"], attrs["end_padding"], value)
    if op == "TILE":
        return tile_spec(x, attrs["repeats"])
    if op == "UPSAMPLE_2D":
        width, height = attrs["scale_size"]
        return upsample_2d_spec(x, height, width)
    return reverse_subsequences_spec(x, inputs[1], attrs["axis"])
