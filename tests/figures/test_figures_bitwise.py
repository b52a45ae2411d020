"""The bit-grid figure of DML_ELEMENT_WISE_BIT_OR, checked from its JSON (no browser)."""

import json

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ops import OPERATORS, run
from ops.operators.bitwise import bit_or
from support.figures import bits_of, plotly_array, row_zero_on_top
from support.specs import bitwise_spec
from ui.charts import PROJECTOR_CELL_TEXT
from viz.bitwise_fig import (
    MAX_CELLS,
    MAX_FRAMES,
    Column,
    Trace,
    bit_matrix,
    bitwise_figure,
    decode_rows,
    describe_pick,
    drawn_range,
    input_only,
    pick_from_selection,
    value_class,
    with_pick,
)
from viz.common import PROJECTOR_HEIGHT

OR = "ELEMENT_WISE_BIT_OR"  # the operator the figures draw unless a test names another

ALL_DTYPES = [np.float16, np.float32, np.float64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.int8, np.int16, np.int32, np.int64]


def spec(figure):
    return json.loads(figure.to_json())


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
    data = spec(bitwise_figure(a, b, out, op=OR))["data"]
    expected = [int(c) for c in f"{0x7F800000:032b}"]
    assert bits_of(data[Trace.A]["z"])[0].tolist() == [int(c) for c in f"{0x3F800000:032b}"]
    assert bits_of(data[Trace.B]["z"])[0].tolist() == [int(c) for c in f"{0x40000000:032b}"]
    assert bits_of(data[Trace.OUTPUT]["z"])[0].tolist() == expected
    rows = decode_rows(a, b, out, 0, 1)
    assert rows[0]["Output bits"] == "0x7F800000" and rows[0]["Output class"] == "+inf"


@pytest.mark.parametrize("dtype, widths", [
    (np.float16, (1, 5, 10)), (np.float32, (1, 8, 23)), (np.float64, (1, 11, 52)),
])
def test_float_fields_are_marked_in_every_panel(dtype, widths):
    x = np.ones(3, dtype)
    layout = spec(bitwise_figure(x, x, x, op=OR))["layout"]
    boundaries = [widths[0] - 0.5, widths[0] + widths[1] - 0.5]
    for xref in ("x", "x2", "x3"):
        lines = sorted(s["x0"] for s in layout["shapes"] if s["type"] == "line" and s["xref"] == xref)
        assert lines == boundaries
    labels = [a["text"] for a in layout["annotations"]]
    for name, width in zip(("sign", "exponent", "mantissa"), widths):
        # Fields narrower than 8 bits are named by their first three letters, so names never run into each other.
        assert f"{name if width >= 8 or name == 'sign' else name[:3]} ({width})" in labels


@pytest.mark.parametrize("count", [1, 5, 16, 64, 512])
def test_rows_run_top_down_and_their_labels_never_touch(count):
    x = np.arange(count, dtype=np.uint8)
    layout = spec(bitwise_figure(x, x, x, op=OR))["layout"]
    top, bottom = layout["margin"]["t"], layout["margin"]["b"]
    for suffix in ("", "2", "3"):
        axis = layout[f"yaxis{suffix}"]
        assert row_zero_on_top(axis)
        domain = axis["domain"]
        row_px = (domain[1] - domain[0]) * (layout["height"] - top - bottom) / count
        labelled = axis["tickvals"]
        assert labelled[0] == 0 and len(labelled) == len(axis["ticktext"])
        # Labels of neighbouring labelled rows are at least a font height apart.
        assert (labelled[1] - labelled[0] if len(labelled) > 1 else count) * row_px >= axis["tickfont"]["size"] + 2


@pytest.mark.parametrize("count", [1, 5, 6])
def test_a_projector_gets_every_row_high_enough_for_12_px_digits(count):
    """Presentation mode gives the figure PROJECTOR_HEIGHT (ui.charts.height_for_screen): the page's default six
    elements still get rows high enough for 12 px digits (the browser draws a digit at most 0.85 of its row high,
    ui/plotly_chart.js fitCellText)."""
    x = np.arange(count, dtype=np.uint32)
    layout = spec(bitwise_figure(x, x, x, fit_height=PROJECTOR_HEIGHT, op=OR))["layout"]
    assert layout["height"] <= PROJECTOR_HEIGHT
    domain = layout["yaxis"]["domain"]
    row_px = (domain[1] - domain[0]) * (layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]) / count
    assert 0.85 * row_px >= PROJECTOR_CELL_TEXT["min"]


def test_decoded_values_and_classes_label_the_rows():
    a = np.array([1.0, 1e-40, 0.0, np.inf, np.nan], np.float32)
    b = np.zeros(5, np.float32)
    layout = spec(bitwise_figure(a, b, bit_or(a, b), op=OR))["layout"]
    labels = layout["yaxis"]["ticktext"]
    for label, cls in zip(labels, ("normal", "subnormal", "zero", "+inf", "qNaN")):
        assert f"({cls})" in label
    assert "0x3F800000" in labels[0]


@pytest.mark.parametrize("value, cls", [
    (np.float32(1.0), "normal"), (np.float32(1e-40), "subnormal"), (np.float16(6e-8), "subnormal"),
    (np.float64(5e-324), "subnormal"), (np.float32(0.0), "zero"), (np.float32(-0.0), "-zero"),
    (np.float32(-np.inf), "-inf"), (np.array([0x7F800001], np.uint32).view(np.float32)[0], "sNaN"),
    (np.array([0x7FC00000], np.uint32).view(np.float32)[0], "qNaN"),
    (np.array([0xFFC00001], np.uint32).view(np.float32)[0], "qNaN"),
    (np.array([0x7D01], np.uint16).view(np.float16)[0], "sNaN"),
    (np.array([0x7E00], np.uint16).view(np.float16)[0], "qNaN"),
    (np.array([0x7FF0000000000001], np.uint64).view(np.float64)[0], "sNaN"),
    (np.array([0x7FF8000000000000], np.uint64).view(np.float64)[0], "qNaN"),
    (np.int8(-3), "integer"),
])
def test_value_class(value, cls):
    assert value_class(value) == cls


def test_nan_payload_survives_the_or():
    a = np.array([0x7F800000, 0x7FC00000], np.uint32).view(np.float32)
    b = np.array([0x00000001, 0x00001234], np.uint32).view(np.float32)
    rows = decode_rows(a, b, bit_or(a, b), 0, 2)
    assert [r["Output bits"] for r in rows] == ["0x7F800001", "0x7FC01234"]
    assert [r["Output class"] for r in rows] == ["sNaN", "qNaN"]


def test_single_element_sweeps_bit_by_bit_with_highlight():
    a, b = np.array([0x0F], np.uint8), np.array([0xA0], np.uint8)
    figure = spec(bitwise_figure(a, b, bit_or(a, b), op=OR))
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
    figure = spec(bitwise_figure(x, x, x, rows=10**6, op=OR))
    width = np.dtype(dtype).itemsize * 8
    for trace in (t for t in figure["data"] if t["type"] == "heatmap"):
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
    figure = spec(bitwise_figure(x, x, x, first=40, rows=3, op=OR))
    assert figure["layout"]["yaxis"]["ticktext"][0].startswith("#40 ")
    assert int("".join(map(str, bits_of(figure["data"][Trace.A]["z"])[2])), 2) == 42


# Click-to-highlight: the picked bit outlined in A, B and Output, and the caption that names it.

def _path_cell(shape):
    """(row, column) of the cell a pick outline surrounds."""
    x, y = (float(v) for v in shape["path"][1:].split(" ")[0].split(","))
    return round(y + 0.5), round(x + 0.5)


def _pick_outlines(layout):
    return {s["name"]: s for s in layout.get("shapes", []) if s.get("name", "").startswith("pick-")}


@given(hnp.arrays(st.sampled_from(ALL_DTYPES), st.integers(1, 12), elements=None), st.data())
def test_pick_outlines_the_same_bit_in_all_three_grids_in_every_frame(a, data):
    b = a[::-1].copy()
    out = bit_or(a, b)
    width = a.dtype.itemsize * 8
    element, bit = data.draw(st.integers(0, a.size - 1)), data.draw(st.integers(0, width - 1))
    figure = spec(bitwise_figure(a, b, out, pick=(element, bit), op=OR))
    grids = [bits_of(t["z"]) for t in figure["data"][:3]]
    expected_bits = [int(bit_matrix(x)[element, width - 1 - bit]) for x in (a, b, out)]
    for layout in [figure["layout"]] + [f["layout"] for f in figure["frames"]]:
        outlines = _pick_outlines(layout)
        assert [(s["xref"], s["yref"]) for s in outlines.values()] == [("x", "y"), ("x2", "y2"), ("x3", "y3")]
        for panel, name in enumerate(("pick-A", "pick-B", "pick-Output")):
            row, column = _path_cell(outlines[name])
            assert (row, column) == (element, width - 1 - bit)
            assert grids[panel][row, column] == expected_bits[panel]
    caption = describe_pick((element, bit), a, b, out, op=OR)
    a_bit, b_bit, out_bit = expected_bits
    assert caption.startswith(f"element #{element}, bit {bit} (")
    assert caption.endswith(f"): A {a_bit} | B {b_bit} = {out_bit}")
    assert out_bit == a_bit | b_bit


@pytest.mark.parametrize("dtype, bit, field", [
    (np.float32, 31, "sign"), (np.float32, 30, "exponent"), (np.float32, 23, "exponent"),
    (np.float32, 22, "mantissa"), (np.float16, 10, "exponent"), (np.float64, 52, "exponent"),
    (np.int8, 7, "sign"), (np.int8, 6, "value"), (np.uint16, 15, "value"),
])
def test_caption_names_the_field_of_the_bit(dtype, bit, field):
    x = np.zeros(4, dtype)
    assert f"bit {bit} ({field})" in describe_pick((3, bit), x, x, x, op=OR)


def test_caption_of_the_seed_example_and_stale_picks():
    a, b = np.array([1.0], np.float32), np.array([2.0], np.float32)  # 0x3F800000 | 0x40000000
    out = bit_or(a, b)
    assert describe_pick((0, 30), a, b, out, op=OR) == "element #0, bit 30 (exponent): A 0 | B 1 = 1"
    assert describe_pick((0, 23), a, b, out, op=OR) == "element #0, bit 23 (exponent): A 1 | B 0 = 1"
    for stale in [(1, 0), (0, 32), (-1, 3), (0, 1, 2), None]:
        assert describe_pick(stale, a, b, out, op=OR) is None
    shaped = np.arange(6, dtype=np.uint8).reshape(2, 3)
    broadcast_b = np.broadcast_to(np.array([[0x80, 0, 0]], np.uint8), (2, 3))  # 0-stride read, as on the page
    assert describe_pick((3, 7), shaped, broadcast_b, shaped | broadcast_b, op=OR) == \
        "element #3, bit 7 (value): A 0 | B 1 = 1"


def test_pick_in_a_window_counts_elements_of_the_whole_tensor():
    x = np.arange(100, dtype=np.uint32)
    window = slice(40, 43)
    figure = spec(bitwise_figure(x[window], x[window], x[window], index_offset=40, pick=(42, 1), op=OR))
    assert _path_cell(_pick_outlines(figure["layout"])["pick-A"]) == (2, 30)
    hidden = spec(bitwise_figure(x[window], x[window], x[window], index_offset=40, pick=(39, 1), op=OR))
    assert not _pick_outlines(hidden["layout"])


def test_click_targets_carry_element_bit_number_and_bit():
    a = np.array([0x0F, 0xA0, 0x33], np.uint8)
    figure = spec(bitwise_figure(a, a, a, first=1, rows=2, op=OR))
    data = figure["data"]
    targets = [data[role] for role in (Trace.A_CELLS, Trace.B_CELLS, Trace.OUTPUT_CELLS)]
    assert [t["name"] for t in targets] == ["A cells", "B cells", "Output cells"]
    for target, heatmap in zip(targets, [data[role] for role in (Trace.A, Trace.B, Trace.OUTPUT)]):
        ids = plotly_array(target["customdata"])
        rows, cols = plotly_array(target["y"]), plotly_array(target["x"])
        grid = bits_of(heatmap["z"])
        assert ids[:, Column.ELEMENT].tolist() == [1 + r for r in rows.tolist()]  # numbered in the whole tensor
        assert ids[:, Column.BIT_NUMBER].tolist() == [7 - c for c in cols.tolist()]
        assert ids[:, Column.BIT].tolist() == grid[rows, cols].tolist()
    clicked = {str(int(Column.ELEMENT)): 2, str(int(Column.BIT_NUMBER)): 5, str(int(Column.BIT)): 1}
    assert pick_from_selection({"points": [{"customdata": clicked}]}) == (2, 5)
    assert pick_from_selection({"points": []}) is None


@pytest.mark.parametrize("dtype, count", [(np.uint8, 512), (np.float32, 128), (np.float64, 64)])
def test_a_full_grid_with_its_frames_stays_under_two_megabytes(dtype, count):
    raw = np.random.default_rng(7).integers(0, 256, count * np.dtype(dtype).itemsize, dtype=np.uint8)
    x = raw.view(dtype)
    y = np.flip(x).copy()
    size = len(pio.to_json(bitwise_figure(x, y, bit_or(x, y), rows=count, pick=(count - 1, 0), op=OR), validate=False))
    assert size <= 2_000_000, size


# ---------------------------------------------------------------- every operator of the family (issue 21 point 10)

FAMILY = [name for name in OPERATORS if name.startswith("ELEMENT_WISE_BIT_")]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]


def family_case(name, dtype, output_type=None, count=5, seed=0):
    """Inputs of the operator (B's amounts reach past the width), its output run through the registry, and the
    output of the plain loop of its API page (support.specs)."""
    rng = np.random.default_rng(seed)
    width = np.dtype(dtype).itemsize * 8
    a = rng.integers(0, 256, size=count * width // 8, dtype=np.uint8).view(dtype)
    b = np.array([0, 1, width - 1, width, width + 3][:count], dtype=f"u{width // 8}").view(dtype)
    inputs = [a, b][:OPERATORS[name].arity[0]]
    attrs = {} if output_type is None else {"output_type": output_type}
    out = run(name, inputs, **attrs)[0]
    return inputs, out, bitwise_spec(name, inputs, out.dtype)


def titles(figure_dict):
    return [a["text"] for a in figure_dict["layout"]["annotations"] if a.get("yref") == "paper"]


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("name", FAMILY)
def test_each_operator_has_its_grids_titles_and_output_bits(name, dtype):
    inputs, out, expected = family_case(name, dtype)
    assert np.array_equal(out, expected)  # the core the figure is drawn from agrees with the plain loop
    figure = bitwise_figure(inputs[0], inputs[1] if len(inputs) > 1 else None, out, op=name)
    drawn = spec(figure)
    names = ["A", "B", "Output"] if len(inputs) == 2 else ["A", "Output"]
    assert drawn["layout"]["meta"]["grids"] == names
    assert [t["name"] for t in drawn["data"]] == names + [f"{n} cells" for n in names]
    formula = {"ELEMENT_WISE_BIT_AND": "A & B", "ELEMENT_WISE_BIT_OR": "A | B", "ELEMENT_WISE_BIT_XOR": "A ^ B",
               "ELEMENT_WISE_BIT_NOT": "~A", "ELEMENT_WISE_BIT_COUNT": "popcount(A)",
               "ELEMENT_WISE_BIT_SHIFT_LEFT": "A << B", "ELEMENT_WISE_BIT_SHIFT_RIGHT": "A >> B"}[name]
    assert titles(drawn)[-1].endswith(f"= {formula}")
    assert titles(drawn)[0] == f"A  {np.dtype(dtype)}"
    out_trace = names.index("Output")
    assert np.array_equal(bits_of(drawn["data"][out_trace]["z"]), bit_matrix(expected))
    for k, x in enumerate(inputs):
        assert np.array_equal(bits_of(drawn["data"][k]["z"]), bit_matrix(x))
    # Play ends on the whole Output; every frame changes the Output grid alone.
    last = drawn["frames"][-1]
    assert last["traces"] == [out_trace]
    assert np.array_equal(bits_of(last["data"][0]["z"]), bit_matrix(expected))
    assert np.array_equal(input_only(figure).to_dict()["data"][-1]["z"], drawn["data"][len(inputs) - 1]["z"])
    assert len(input_only(figure).to_dict()["data"]) == len(inputs)


@pytest.mark.parametrize("output_type, width", [("UINT32", 32), ("UINT8", 8)])
@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.int64])
def test_bit_count_draws_its_output_type_aligned_on_bit_zero(dtype, output_type, width):
    inputs, out, expected = family_case("ELEMENT_WISE_BIT_COUNT", dtype, output_type, count=4)
    figure = bitwise_figure(inputs[0], None, out, op="ELEMENT_WISE_BIT_COUNT")
    drawn = spec(figure)
    assert out.dtype == np.dtype(f"u{width // 8}")
    assert titles(drawn)[-1] == f"Output  {out.dtype}  = popcount(A)"
    assert bits_of(drawn["data"][1]["z"]).shape == (4, width)
    assert np.array_equal(bits_of(drawn["data"][1]["z"]), bit_matrix(expected))
    # Bit 0 of every grid is in the same column: the rightmost of each axis range.
    widest = max(width, np.dtype(dtype).itemsize * 8)
    for axis, bits in (("xaxis", np.dtype(dtype).itemsize * 8), ("xaxis2", width)):
        assert drawn["layout"][axis]["range"] == [bits - widest - 0.5, bits - 0.5]
    # A pick past the Output's width is outlined in A alone.
    narrow = min(width, np.dtype(dtype).itemsize * 8)
    picked = with_pick(figure, (1, narrow - 1)).to_dict()["layout"]["shapes"]
    assert {s["name"] for s in picked if s.get("name", "").startswith("pick-")} == {"pick-A", "pick-Output"}
    if np.dtype(dtype).itemsize * 8 > width:
        past = with_pick(figure, (1, width)).to_dict()["layout"]["shapes"]
        assert {s["name"] for s in past if s.get("name", "").startswith("pick-")} == {"pick-A"}


@pytest.mark.parametrize("name", FAMILY)
def test_the_sweep_goes_bit_by_bit_only_where_output_bits_are_per_bit(name):
    inputs, out, _ = family_case(name, np.uint32, count=4)
    drawn = spec(bitwise_figure(inputs[0], inputs[1] if len(inputs) > 1 else None, out, op=name))
    labels = [s["label"] for s in drawn["layout"]["sliders"][0]["steps"]]
    if OPERATORS[name].lesson.per_bit:  # AND, OR, XOR, NOT
        assert labels == ["empty"] + [f"bit {bit}" for bit in range(31, -1, -1)]
    else:  # a shift or a count: each output element from its whole input element
        assert labels == ["empty", "#0", "#1", "#2", "#3"]
        highlight = [s for s in drawn["frames"][1]["layout"]["shapes"] if s.get("name") == "highlight"]
        assert len(highlight) == len(inputs) + 1
        assert all((s["x0"], s["x1"], s["y0"], s["y1"]) == (-0.5, 31.5, -0.5, 0.5) for s in highlight)


@pytest.mark.parametrize("name, values, bit, caption", [
    ("ELEMENT_WISE_BIT_AND", (0x0F, 0x05), 2, "A 1 & B 1 = 1"),
    ("ELEMENT_WISE_BIT_XOR", (0x0F, 0x05), 2, "A 1 ^ B 1 = 0"),
    ("ELEMENT_WISE_BIT_NOT", (0x0F,), 7, "~A 0 = 1"),
    # DirectML shifts 8-bit elements by the amount's low 5 bits: 33 is a shift by 1.
    ("ELEMENT_WISE_BIT_SHIFT_LEFT", (0x8B, 33), 1, "B = 33 shifts by e = 1: Output bit 1 = A bit 0 = 1"),
    ("ELEMENT_WISE_BIT_SHIFT_LEFT", (0x8B, 8), 7, "B = 8 shifts by e = 8: Output bit 7 = 0 (shifted in)"),
    ("ELEMENT_WISE_BIT_SHIFT_RIGHT", (0x8B, 3), 0, "B = 3 shifts by e = 3: Output bit 0 = A bit 3 = 1"),
    ("ELEMENT_WISE_BIT_COUNT", (0x8B,), 0, "A bit 0 = 1, one of the 4 bits set: Output = 4"),
])
def test_the_caption_of_a_picked_bit_works_it_out_for_each_operator(name, values, bit, caption):
    arrays = [np.array([v], np.uint8) for v in values]
    out = run(name, arrays)[0]
    b = arrays[1] if len(arrays) > 1 else None
    assert describe_pick((0, bit), arrays[0], b, out, op=name) == f"element #0, bit {bit} (value): {caption}"
