"""The bit-grid figure of DML_ELEMENT_WISE_BIT_OR, checked from its JSON (no browser)."""

import base64
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ops import bit_or
from viz.bitwise_fig import (
    MAX_CELLS,
    MAX_FRAMES,
    bit_matrix,
    bitwise_figure,
    decode_rows,
    drawn_range,
    value_class,
)

ALL_DTYPES = [np.float16, np.float32, np.float64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.int8, np.int16, np.int32, np.int64]


def spec(figure):
    return json.loads(figure.to_json())


def plotly_array(value):
    """An array from figure JSON: plotly writes numpy arrays as {dtype, bdata (base64), shape}."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = [int(s) for s in str(value.get("shape", array.size)).split(",")]
        return array.reshape(shape)
    return np.array(value)


def bits_of(z):
    """A heatmap cell's z is 2 * field + bit; -1 = not yet written."""
    z = plotly_array(z).astype(int)
    return np.where(z < 0, -1, np.mod(z, 2))


@given(hnp.arrays(st.sampled_from(ALL_DTYPES), hnp.array_shapes(max_dims=1, max_side=20),
                  elements=None))
def test_bit_matrix_matches_unpackbits_of_big_endian_bytes(values):
    width = values.dtype.itemsize
    big_endian = values.astype(values.dtype.newbyteorder(">")).view(np.uint8).reshape(-1, width)
    assert np.array_equal(bit_matrix(values), np.unpackbits(big_endian, axis=1))


def test_seed_example_one_or_two_is_plus_inf():
    a = np.array([1.0], np.float32)
    b = np.array([2.0], np.float32)
    out = bit_or(a, b)
    data = spec(bitwise_figure(a, b, out))["data"]
    expected = [int(c) for c in f"{0x7F800000:032b}"]
    assert bits_of(data[0]["z"])[0].tolist() == [int(c) for c in f"{0x3F800000:032b}"]
    assert bits_of(data[1]["z"])[0].tolist() == [int(c) for c in f"{0x40000000:032b}"]
    assert bits_of(data[2]["z"])[0].tolist() == expected
    rows = decode_rows(a, b, out, 0, 1)
    assert rows[0]["Output bits"] == "0x7F800000" and rows[0]["Output class"] == "+inf"


@pytest.mark.parametrize("dtype, widths", [
    (np.float16, (1, 5, 10)), (np.float32, (1, 8, 23)), (np.float64, (1, 11, 52)),
])
def test_float_fields_are_marked_in_every_panel(dtype, widths):
    x = np.ones(3, dtype)
    layout = spec(bitwise_figure(x, x, x))["layout"]
    boundaries = [widths[0] - 0.5, widths[0] + widths[1] - 0.5]
    for xref in ("x", "x2", "x3"):
        lines = sorted(s["x0"] for s in layout["shapes"] if s["type"] == "line" and s["xref"] == xref)
        assert lines == boundaries
    labels = [a["text"] for a in layout["annotations"]]
    for name, width in zip(("sign", "exponent", "mantissa"), widths):
        assert f"{name} ({width})" in labels


def test_rows_run_top_down_and_cells_are_square():
    x = np.arange(5, dtype=np.uint16)
    layout = spec(bitwise_figure(x, x, x))["layout"]
    for suffix in ("", "2", "3"):
        assert layout[f"yaxis{suffix}"]["autorange"] == "reversed"
        assert layout[f"xaxis{suffix}"]["scaleanchor"] == f"y{suffix}"
        assert layout[f"xaxis{suffix}"]["scaleratio"] == 1


def test_decoded_values_and_classes_label_the_rows():
    a = np.array([1.0, 1e-40, 0.0, np.inf, np.nan], np.float32)
    b = np.zeros(5, np.float32)
    layout = spec(bitwise_figure(a, b, bit_or(a, b)))["layout"]
    labels = layout["yaxis"]["ticktext"]
    for label, cls in zip(labels, ("normal", "subnormal", "zero", "+inf", "NaN")):
        assert f"({cls})" in label
    assert "0x3F800000" in labels[0]


@pytest.mark.parametrize("value, cls", [
    (np.float32(1.0), "normal"), (np.float32(1e-40), "subnormal"), (np.float16(6e-8), "subnormal"),
    (np.float64(5e-324), "subnormal"), (np.float32(0.0), "zero"), (np.float32(-0.0), "-zero"),
    (np.float32(-np.inf), "-inf"), (np.array([0x7F800001], np.uint32).view(np.float32)[0], "NaN"),
    (np.int8(-3), "integer"),
])
def test_value_class(value, cls):
    assert value_class(value) == cls


def test_nan_payload_survives_the_or():
    a = np.array([0x7F800000, 0x7FC00000], np.uint32).view(np.float32)
    b = np.array([0x00000001, 0x00001234], np.uint32).view(np.float32)
    rows = decode_rows(a, b, bit_or(a, b), 0, 2)
    assert [r["Output bits"] for r in rows] == ["0x7F800001", "0x7FC01234"]
    assert [r["Output class"] for r in rows] == ["NaN", "NaN"]


def test_single_element_sweeps_bit_by_bit_with_highlight():
    a, b = np.array([0x0F], np.uint8), np.array([0xA0], np.uint8)
    figure = spec(bitwise_figure(a, b, bit_or(a, b)))
    frames = figure["frames"]
    assert len(frames) == 8 + 1
    assert (bits_of(frames[0]["data"][0]["z"]) == -1).all()
    for k, frame in enumerate(frames[1:], start=1):
        shown = bits_of(frame["data"][0]["z"])[0]
        assert (shown[:k] >= 0).all() and (shown[k:] == -1).all()
        rects = [s for s in frame["layout"]["shapes"] if s["type"] == "rect"]
        assert len(rects) == 3  # the same bit in A, B and Output
        assert all(r["x0"] == k - 1 - 0.5 and r["x1"] == k - 1 + 0.5 for r in rects)
    assert bits_of(frames[-1]["data"][0]["z"])[0].tolist() == [1, 0, 1, 0, 1, 1, 1, 1]


@pytest.mark.parametrize("dtype, count", [(np.uint8, 5000), (np.float64, 300), (np.int32, 7)])
def test_caps_on_cells_and_frames(dtype, count):
    x = np.arange(count).astype(dtype)
    figure = spec(bitwise_figure(x, x, x, rows=10**6))
    width = np.dtype(dtype).itemsize * 8
    for trace in figure["data"]:
        z = plotly_array(trace["z"])
        assert z.size <= MAX_CELLS and z.shape[1] == width
    assert 2 <= len(figure["frames"]) <= MAX_FRAMES
    final = bits_of(figure["frames"][-1]["data"][0]["z"])
    assert (final >= 0).all()


def test_drawn_range_clamps_to_tensor_and_cap():
    assert drawn_range(10, np.uint32, first=8, rows=5) == (8, 10)
    assert drawn_range(10, np.uint32, first=50, rows=5) == (9, 10)
    assert drawn_range(10**6, np.uint8, first=0, rows=10**6) == (0, MAX_CELLS // 8)


def test_window_draws_requested_elements():
    x = np.arange(100, dtype=np.uint32)
    figure = spec(bitwise_figure(x, x, x, first=40, rows=3))
    assert figure["layout"]["yaxis"]["ticktext"][0].startswith("#40 ")
    assert int("".join(map(str, bits_of(figure["data"][0]["z"])[2])), 2) == 42
