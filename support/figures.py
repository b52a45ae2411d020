"""Readers of the figures' JSON, as plotly writes it."""

import base64

import numpy as np


def plotly_array(value):
    """An array from figure JSON: plotly writes numpy arrays as {dtype, bdata (base64), shape}."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = [int(s) for s in str(value.get("shape", array.size)).split(",")]
        return array.reshape(shape)
    return np.array(value)


def bits_of(z):
    """A heatmap cell's z is 1 + 2 * field + bit; 0 = not yet written (returned as -1)."""
    z = plotly_array(z).astype(int)
    return np.where(z == 0, -1, np.mod(z - 1, 2))


def changed_traces(frame):
    """{trace position: the trace's properties the animation frame changes}."""
    return dict(zip(frame["traces"], frame["data"]))
