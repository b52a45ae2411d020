"""How the layout detective recognises a gather: from where every element of y came from in x (its source map), the
IndicesTensor that makes GATHER or GATHER_ELEMENTS reproduce it, each proposal verified by running the core.

GATHER: along one Axis, every slice of y across the chosen index dimensions is one slice of x (numpy's take, ONNX's
Gather); x and y are right-aligned to one DimensionCount, as DirectML's tensors are. GATHER_ELEMENTS: y has x's
sizes but along Axis, and each element comes from x at its own coordinates but along Axis (torch.gather, ONNX's
GatherElements). The indices proposed are UINT32, which every feature level takes.
"""

import numpy as np

SHOWN = 16  # indices written out in a description; the rest are counted


def _padded(shape, rank):
    return (1,) * (rank - len(shape)) + tuple(shape)


def _coordinates(source, x_shape):
    """x's coordinates (one array per dimension) of every element of y, from their flat indices."""
    return np.unravel_index(source, x_shape)


def gather_candidates(op, x_shape, y_shape, source):
    """(settings, inputs, attrs) of every GATHER whose IndicesTensor a source map implies: inputs are x's flat indices
    (right-aligned to the DimensionCount) and the indices."""
    rank = max(len(x_shape), len(y_shape))
    x, y = _padded(x_shape, rank), _padded(y_shape, rank)
    coordinates = _coordinates(source.reshape(y), x)
    found = []
    for axis in range(rank):
        for k in range(1, axis + 2):
            cut, before, after = x[:k - 1], (y[:axis - k + 1], x[k - 1:axis]), (y[axis + 1:], x[axis + 1:])
            if any(size != 1 for size in cut) or before[0] != before[1] or after[0] != after[1]:
                continue
            # The index of each position among the k index dimensions: its first slice's source along Axis.
            first = (0,) * (axis - k + 1) + (slice(None),) * k + (0,) * (rank - axis - 1)
            indices = coordinates[axis][first].astype(np.uint32).reshape((1,) * (rank - k) + y[axis - k + 1:axis + 1])
            attrs = {"axis": axis, "index_dimensions": k}
            found.append(({"Axis": axis, "IndexDimensions": k, **_tensors(x, x_shape, indices)},
                          [np.arange(int(np.prod(x)), dtype=np.int64).reshape(x), indices], attrs))
    return found


def elements_candidates(op, x_shape, y_shape, source):
    """The GATHER_ELEMENTS whose IndicesTensor is the source map's coordinate along Axis, for each Axis where y and
    x agree on every other size."""
    if len(x_shape) != len(y_shape):
        return []
    coordinates = _coordinates(source, x_shape)
    found = []
    for axis in range(len(x_shape)):
        if any(x_shape[d] != y_shape[d] for d in range(len(x_shape)) if d != axis):
            continue
        indices = coordinates[axis].astype(np.uint32)
        found.append(({"Axis": axis, **_tensors(tuple(x_shape), x_shape, indices)},
                      [np.arange(int(np.prod(x_shape)), dtype=np.int64).reshape(x_shape), indices], {"axis": axis}))
    return found


def _tensors(padded, x_shape, indices):
    settings = {"IndicesTensor": {"DataType": "UINT32", "Sizes": list(indices.shape)},
                "Indices": [int(i) for i in indices.ravel()]}
    if tuple(padded) != tuple(x_shape):
        settings["InputTensor"] = {"Sizes": list(padded)}  # x with leading 1s, as DirectML's tensors share a rank
    return settings


def describe(op, settings):
    """'GATHER with Axis 1 and IndexDimensions 1, IndicesTensor {1, 1, 3} = [2, 0, 1]'."""
    words = [f"{f.name} {settings[f.name]}" for f in op.scalar_fields() if f.name in settings]
    text = f"{op.name} with {' and '.join(words)}"
    if "Indices" not in settings:
        return text
    values = settings["Indices"]
    shown = ", ".join(map(str, values[:SHOWN])) + (f", ... ({len(values)} in all)" if len(values) > SHOWN else "")
    sizes = ", ".join(map(str, settings["IndicesTensor"]["Sizes"]))
    padded = f" on InputTensor {{{', '.join(map(str, settings['InputTensor']['Sizes']))}}}" \
        if "InputTensor" in settings else ""
    return f"{text}, IndicesTensor {{{sizes}}} = [{shown}]{padded}"
