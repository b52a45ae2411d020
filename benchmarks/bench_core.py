"""Throughput of the reference core on 2^24-element tensors against a plain copy and ONNX Runtime (CPU).

Run: .venv/bin/python benchmarks/bench_core.py [--repeats N] [--only TEXT]

Prints one markdown table. GB/s counts bytes read plus bytes written. "x copy" is this operation's GB/s over
the GB/s of `src.copy()` of 2^24 float32 (a copy that, like the operators, allocates its output), timed in turn
with the operation so that both see the same machine load;
"x copyto" uses `np.copyto(dst, src)` into a preallocated buffer instead. "x ORT" is ORT's time over ours
(above 1 = faster than ORT). ORT runs the CPU provider with its default thread count (spinning off, see
ort_session) and the input array already created. Every operation of the core runs on all cores (os.cpu_count())
once a tensor passes 2 MiB.
"""

import argparse
import functools
import os
import statistics
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

import ops
from ops.operators.bitwise import bit_or
from ops.operators.depth_space import depth_to_space, space_to_depth
from ops.operators.split_join import join, split

ELEMENTS = 1 << 24
ONNX_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.uint32): TensorProto.UINT32}


def interleaved_medians_ms(fns, repeats):
    """Median time of each callable, sampled round-robin so that drift in machine load hits all alike."""
    for fn in fns:
        fn()  # warm-up: first-call allocations, thread-pool start, ORT arena
    samples = [[] for _ in fns]
    for _ in range(repeats):
        for fn, times in zip(fns, samples):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return [statistics.median(times) * 1e3 for times in samples]


def ort_session(op, inputs, outputs, initializers=(), **attrs):
    """One-node ORT session; inputs/outputs are (name, array-or-shape, dtype)."""
    node = helper.make_node(op, [n for n, _, _ in inputs] + [t.name for t in initializers],
                            [n for n, _, _ in outputs], **attrs)
    graph = helper.make_graph(
        [node], op,
        [helper.make_tensor_value_info(n, ONNX_TYPES[np.dtype(d)], list(s)) for n, s, d in inputs],
        [helper.make_tensor_value_info(n, ONNX_TYPES[np.dtype(d)], list(s)) for n, s, d in outputs],
        initializer=list(initializers),
    )
    # onnx 1.23 writes IR version 14, newer than onnxruntime 1.31 reads; opset 18 only needs IR 8.
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(model)
    options = ort.SessionOptions()
    # ORT's pool threads spin after each run by default, which would steal the cores from the next sample
    # of the round-robin; without spinning each sample has the machine to itself.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def cases(rng):
    """(label, our callable, ORT callable or None, bytes moved)."""
    for shape, bs in (((1, 64, 512, 512), 2), ((1, 256, 256, 256), 4)):
        x = rng.standard_normal(shape, dtype=np.float32)
        n, c, h, w = shape
        space_shape = (n, c // (bs * bs), h * bs, w * bs)
        space = depth_to_space(x, bs, "DCR")
        for order, mode in (("DEPTH_COLUMN_ROW", "DCR"), ("COLUMN_ROW_DEPTH", "CRD")):
            sess = ort_session("DepthToSpace", [("x", shape, np.float32)], [("y", space_shape, np.float32)],
                               blocksize=bs, mode=mode)
            yield (f"depth_to_space {mode} bs={bs} {list(shape)}",
                   lambda x=x, o=order, b=bs: depth_to_space(x, b, o),
                   lambda s=sess, x=x: s.run(None, {"x": x}), 2 * x.nbytes)
        for order, mode in (("DEPTH_COLUMN_ROW", "DCR"), ("COLUMN_ROW_DEPTH", "CRD")):
            run_ort = None
            if mode == "DCR":  # ONNX SpaceToDepth has no CRD mode
                sess = ort_session("SpaceToDepth", [("x", space_shape, np.float32)], [("y", shape, np.float32)],
                                   blocksize=bs)
                run_ort = functools.partial(sess.run, None, {"x": space})
            yield (f"space_to_depth {mode} bs={bs} {list(space_shape)}",
                   lambda y=space, o=order, b=bs: space_to_depth(y, b, o), run_ort, 2 * x.nbytes)

    shape = (1, 64, 512, 512)
    a = rng.standard_normal(shape, dtype=np.float32)
    b = rng.standard_normal(shape, dtype=np.float32)
    sess = ort_session("BitwiseOr", [("a", shape, np.uint32), ("b", shape, np.uint32)], [("y", shape, np.uint32)])
    yield ("bit_or FLOAT32 (ORT: BitwiseOr on the uint32 view)", lambda: bit_or(a, b),
           lambda: sess.run(None, {"a": a.view(np.uint32), "b": b.view(np.uint32)}), 3 * a.nbytes)

    for axis in (1, 3):
        sizes = [shape[axis] // 4] * 4
        pieces = [tuple(s if d == axis else shape[d] for d in range(4)) for s in sizes]
        split_input = helper.make_tensor("split", TensorProto.INT64, [4], sizes)
        sess = ort_session("Split", [("x", shape, np.float32)],
                           [(f"y{i}", p, np.float32) for i, p in enumerate(pieces)], [split_input], axis=axis)
        yield (f"split FLOAT32 axis={axis} into 4", lambda ax=axis, sz=sizes: split(a, ax, sz),
               lambda s=sess: s.run(None, {"x": a}), 2 * a.nbytes)
        parts = split(a, axis, sizes)
        sess = ort_session("Concat", [(f"x{i}", p, np.float32) for i, p in enumerate(pieces)],
                           [("y", shape, np.float32)], axis=axis)
        yield (f"join FLOAT32 axis={axis} from 4", lambda ax=axis, p=parts: join(p, ax),
               lambda s=sess, p=parts: s.run(None, {f"x{i}": q for i, q in enumerate(p)}), 2 * a.nbytes)
    yield from slice_pad_cases(a)


def _initializer(name, values, data_type=TensorProto.INT64):
    return helper.make_tensor(name, data_type, [len(values)], values)


def slice_pad_cases(a):
    """The slice, pad and tile family on the same 2^24 float32 elements (the output's size varies: bytes moved are
    the input's and the output's)."""
    n, c, h, w = a.shape
    attrs = {"window_offsets": (0, 0, 0, 1), "window_sizes": (n, c, h, w - 1), "window_strides": (1, 1, -1, 2)}
    [y] = ops.run("SLICE1", [a], **attrs)
    sess = ort_session("Slice", [("x", a.shape, np.float32)], [("y", y.shape, np.float32)],
                       [_initializer("starts", [0, 0, h - 1, 1]), _initializer("ends", [n, c, -(h + 1), w]),
                        _initializer("axes", [0, 1, 2, 3]), _initializer("steps", [1, 1, -1, 2])])
    yield ("SLICE1 strides 1,1,-1,2", lambda: ops.run("SLICE1", [a], **attrs), lambda: sess.run(None, {"x": a}),
           a.nbytes + y.nbytes)
    for mode, onnx_mode in (("CONSTANT", "constant"), ("REFLECTION", "reflect")):
        pads = {"mode": mode, "start_padding": (0, 0, 8, 8), "end_padding": (0, 0, 8, 8)}
        [y] = ops.run("PADDING1", [a], **pads)
        sess = ort_session("Pad", [("x", a.shape, np.float32)], [("y", y.shape, np.float32)],
                           [_initializer("pads", [0, 0, 8, 8, 0, 0, 8, 8])], mode=onnx_mode)
        yield (f"PADDING1 {mode} 8 around H and W", lambda p=pads: ops.run("PADDING1", [a], **p),
               lambda s=sess: s.run(None, {"x": a}), a.nbytes + y.nbytes)
    quarter = a[:, : c // 4]
    [y] = ops.run("TILE", [quarter], repeats=(1, 2, 1, 2))
    sess = ort_session("Tile", [("x", quarter.shape, np.float32)], [("y", y.shape, np.float32)],
                       [_initializer("repeats", [1, 2, 1, 2])])
    yield ("TILE a quarter by 1,2,1,2", lambda: ops.run("TILE", [quarter], repeats=(1, 2, 1, 2)),
           lambda: sess.run(None, {"x": quarter}), quarter.nbytes + y.nbytes)
    lengths = (np.arange(n * c * h, dtype=np.uint32) % (w + 1)).reshape(n, c, h, 1)
    yield ("REVERSE_SUBSEQUENCES along W, lengths 0..W",
           lambda: ops.run("REVERSE_SUBSEQUENCES", [a, lengths], axis=3), None, 2 * a.nbytes)
    [y] = ops.run("UPSAMPLE_2D", [quarter], scale_size=(2, 2))
    sess = ort_session("Resize", [("x", quarter.shape, np.float32)], [("y", y.shape, np.float32)],
                       [helper.make_tensor("roi", TensorProto.FLOAT, [0], []),
                        helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])],
                       mode="nearest", nearest_mode="floor", coordinate_transformation_mode="asymmetric")
    yield ("UPSAMPLE_2D a quarter by 2 x 2", lambda: ops.run("UPSAMPLE_2D", [quarter], scale_size=(2, 2)),
           lambda: sess.run(None, {"x": quarter}), quarter.nbytes + y.nbytes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--only", default="", help="run the rows whose label contains this text")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    src = rng.standard_normal(ELEMENTS, dtype=np.float32)
    dst = np.empty_like(src)
    copy_bytes = 2 * src.nbytes
    print(f"{ELEMENTS:,} float32 elements ({src.nbytes >> 20} MiB); median of {args.repeats}, each row's operation, "
          f"copy and ORT sampled in turn; {os.cpu_count()} CPUs; numpy {np.__version__}, "
          f"onnxruntime {ort.__version__} (CPU provider, default threads)\n")
    print("| operation | ms | GB/s | x copy | x copyto | x ORT |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, ours, theirs, nbytes in cases(rng):
        if args.only not in label:
            continue
        fns = [ours, src.copy, lambda: np.copyto(dst, src)] + ([theirs] if theirs else [])
        ms, copy_ms, copyto_ms, *ort_ms = interleaved_medians_ms(fns, args.repeats)
        gbs = nbytes / ms / 1e6
        vs_copy = gbs / (copy_bytes / copy_ms / 1e6)
        vs_copyto = gbs / (copy_bytes / copyto_ms / 1e6)
        vs_ort = f"{ort_ms[0] / ms:.2f}" if ort_ms else "n/a"
        print(f"| {label} | {ms:.2f} | {gbs:.1f} | {vs_copy:.2f} | {vs_copyto:.2f} | {vs_ort} |", flush=True)


if __name__ == "__main__":
    main()
