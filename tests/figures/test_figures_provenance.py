"""viz.provenance_fig, as the Gather & Scatter and Slice, Pad & Tile pages build it (app_pages.provenance.picture):
every worked example drawn exactly, the hover and click data equal to the core's provenance, Play's frames writing every
drawn output cell once, the drawing capped, row 0 on top, picks, steps and the quiz's input-only view."""

import math

import numpy as np
import pytest

from app_pages.gather_scatter import settings as gather
from app_pages.provenance import picture
from app_pages.slice_pad import settings as slice_pad
from ops import operator
from ops.operators.gather_scatter.examples import EXAMPLES as GATHER_EXAMPLES
from ops.operators.slice_pad.examples import EXAMPLES as SLICE_EXAMPLES
from support.figures import plotly_array, row_zero_on_top, struck_cells
from ui.values import Values
from viz import provenance_fig
from viz.common import MAX_CELLS, MAX_FRAMES, format_values
from viz.provenance_fig import Column, Role

CASES = [(gather, e.op, e.title, gather.example_settings(e), e.output.array) for e in GATHER_EXAMPLES] + [
    (slice_pad, e.op, e.name, slice_pad.example_settings(e), e.output) for e in SLICE_EXAMPLES]


def configuration(page, settings):
    settings = {**page.DEFAULTS, **settings}
    return page.configure(settings, Values(settings.get("pattern", "custom"), settings["dtype"],
                                           text=settings.get("values", "")))


def drawn_output(spec):
    """The output as the figure labels it: {flat: label} from the click targets' hover."""
    cells = spec["data"][Role.OUTPUT_CELLS]
    custom = plotly_array(cells["customdata"]).reshape(-1, len(Column))
    return {int(row[Column.FLAT]): text.split(" = ")[1].split("<br>")[0] for row, text in zip(custom,
                                                                                             cells["hovertext"])}


@pytest.mark.parametrize("page, op, title, settings, expected", CASES, ids=[f"{c[1]}:{c[2]}" for c in CASES])
def test_every_worked_example_is_drawn_exactly(page, op, title, settings, expected):
    figure = picture(configuration(page, settings))
    spec = figure.to_dict()
    assert spec["layout"]["meta"]["operator"] == op
    assert spec["layout"]["meta"]["whole"]
    labels = format_values(np.asarray(expected))
    assert drawn_output(spec) == dict(enumerate(labels))
    # The output heatmap's own labels, at their rows and columns: row 0 on top, under the gutter, each plane of a
    # tensor of 3 or more dimensions set apart by an empty row.
    text = np.array(spec["data"][Role.OUTPUT]["text"], dtype=object)
    shape = np.asarray(expected).shape
    out = figure.context.output
    rows = [provenance_fig.GUTTER + f // shape[-1] + (f // (shape[-1] * shape[-2]) if len(shape) >= 3 else 0)
            for f in range(len(labels))]
    assert [text[r, f % shape[-1]] for r, f in zip(rows, range(len(labels)))] == labels
    assert out.height == provenance_fig.GUTTER + out.rows + (out.rows // shape[-2] - 1 if len(shape) >= 3 else 0)
    assert row_zero_on_top(spec["layout"]["yaxis"])


@pytest.mark.parametrize("page, op, title, settings, expected", CASES, ids=[f"{c[1]}:{c[2]}" for c in CASES])
def test_hover_and_clicks_carry_the_cores_provenance(page, op, title, settings, expected):
    c = configuration(page, settings)
    spec = picture(c).to_dict()
    custom = plotly_array(spec["data"][Role.OUTPUT_CELLS]["customdata"]).reshape(-1, len(Column))
    flat = custom[:, Column.FLAT]
    inputs = c.inputs()
    if hasattr(c.operator, "provenance"):
        found = operator(op).provenance(inputs, **dict(c.attrs))
        which, source, chooser = found.which.ravel(), found.flat.ravel(), found.chooser.ravel()
        np.testing.assert_array_equal(custom[:, Column.CHOOSER], chooser[flat])
    else:
        [(which, source)] = operator(op).index_map([a.shape for a in inputs], **dict(c.attrs), **c.given(inputs))
        which, source = which.ravel(), source.ravel()
    np.testing.assert_array_equal(custom[:, Column.SOURCE_TENSOR], which[flat])
    np.testing.assert_array_equal(custom[:, Column.SOURCE_FLAT], source[flat])


@pytest.mark.parametrize("page, op, title, settings, expected", CASES, ids=[f"{c[1]}:{c[2]}" for c in CASES])
def test_play_writes_every_drawn_output_cell_once(page, op, title, settings, expected):
    spec = picture(configuration(page, settings)).to_dict()
    frames = spec["frames"]
    assert 1 <= len(frames) == spec["layout"]["meta"]["steps"] <= MAX_FRAMES
    written = []
    for frame in frames:
        step = dict(zip(frame["traces"], frame["data"]))[Role.STEP]
        xs = [x for x in step["x"] if x is not None]
        ys = [y for y in step["y"] if y is not None]
        # Each written cell is one closed square of five corners.
        written += [(round(ys[i] + 0.5), round(xs[i] + 0.5)) for i in range(0, len(xs), 5)]
    cells = spec["data"][Role.OUTPUT_CELLS]
    drawn = set(zip(plotly_array(cells["y"]).tolist(), plotly_array(cells["x"]).tolist()))
    assert sorted(written) == sorted(drawn)
    assert len(written) == len(drawn)


def test_a_scatter_collision_is_marked_and_said():
    example = next(e for e in GATHER_EXAMPLES if e.key == "scatter-1")
    figure = picture(configuration(gather, gather.example_settings(example)))
    spec = figure.to_dict()
    assert spec["layout"]["meta"]["collisions"] == 1
    marks = spec["data"][Role.COLLISIONS]
    out = figure.context.output
    updates = figure.context.grids[2]
    # Output element 3, and updates 0 and 2, which both address it (indices 3, 1, 3, 0).
    assert sorted(plotly_array(marks["x"]).tolist()) == sorted([out.x0 + 3 + 0.3, updates.x0 + 0.3, updates.x0 + 2.3])
    assert "2 updates land here" in provenance_fig.describe(figure.context, (3, 3))
    # Each update leads to where it lands, the one the output does not keep too.
    assert figure.context.related((2, 0)) == [(3, 3)] and figure.context.related((2, 2)) == [(3, 3)]
    assert provenance_fig.describe(figure.context, (2, 0)) == (
        "UpdatesTensor (0) lands on OutputTensor (3), where 2 updates land: DirectML keeps one of them, no particular "
        "one")


def test_a_pick_links_an_output_cell_to_its_source_and_index():
    example = next(e for e in GATHER_EXAMPLES if e.key == "gather-2")
    figure = picture(configuration(gather, gather.example_settings(example)))
    context = figure.context
    # Output (2, 1) is input (1, 1), chosen by IndicesTensor (0, 2).
    picked = provenance_fig.with_pick(figure, (2, 5))
    ends = [s for s in picked.to_dict()["layout"]["shapes"] if s["name"] == "pick-link-end"]
    assert len(ends) == 2
    # The links run along cell edges and the gutter over the tensors: they strike through no cell's number.
    cells = {(int(r), int(c)) for g in context.grids for r, c in zip(*g.place(g.drawn_flat())[1:])}
    for link in (s for s in picked.to_dict()["layout"]["shapes"] if s["name"] == "pick-link"):
        assert not struck_cells(link["path"], cells)
    assert context.related((2, 5)) == [(0, 3), (1, 2)]
    assert provenance_fig.describe(context, (2, 5)) == ("OutputTensor (2, 1), from InputTensor (1, 1), chosen by "
                                                        "IndicesTensor (0, 2)")
    # An index picked: the output elements it chose.
    assert context.related((1, 2)) == [(2, 4), (2, 5)]
    assert provenance_fig.describe(context, (7, 0)) is None
    assert figure.to_dict()["layout"].get("shapes") is None  # the shared figure is left as it was


def test_steps_walk_the_output_in_fill_order():
    example = next(e for e in GATHER_EXAMPLES if e.key == "gather-1")
    figure = picture(configuration(gather, gather.example_settings(example)))
    assert provenance_fig.step_count(figure) == 5
    # GATHER Example 1 reads input elements 3, 1, 3, 0, 2: the output fills in source order.
    order = [provenance_fig.with_step(figure, k)[1].destination for k in range(5)]
    assert order == [(3,), (1,), (4,), (0,), (2,)]
    _, step = provenance_fig.with_step(figure, 0)
    assert step.source == (0, 0) and step.label.endswith("chosen by IndicesTensor (3)")


def test_input_only_names_no_output():
    example = next(e for e in SLICE_EXAMPLES if e.attrs.get("mode") == "REFLECTION")
    figure = picture(configuration(slice_pad, slice_pad.example_settings(example)))
    shown = provenance_fig.input_only(figure).to_dict()
    assert [t["name"] for t in shown["data"]] == ["inputs"]
    assert "OutputTensor" not in str(shown["layout"]["annotations"])
    assert shown["layout"]["hovermode"] is False and "updatemenus" not in shown["layout"]


def test_a_large_call_is_drawn_within_the_cap_and_says_so():
    settings = dict(gather.DEFAULTS, dtype="UINT8", pattern="coded", values="", gs_sizes="300,200",
                    gs_indices_sizes="1,4", gs_indices="0 299 -1 5", gs_indices_type="INT32")
    c = configuration(gather, settings)
    figure = picture(c)
    meta = figure.to_dict()["layout"]["meta"]
    assert meta["cells"] <= MAX_CELLS and not meta["whole"]
    assert not figure.context.grids[0].whole
    assert "InputTensor: rows 0.." in figure.context.grids[0].describe()
    assert len(figure.to_dict()["frames"]) <= MAX_FRAMES
    # The cached figure keeps the drawn elements' sources only (it is measured by its JSON's size).
    assert len(figure.context.sources.which) == len(figure.context.drawn) <= MAX_CELLS
    assert math.prod(c.call.output_sizes[0]) == 800


def test_the_data_colors_stay_apart_for_every_vision():
    """InputTensor's viridis, the second data tensor's vermillion-to-orange and the grey of 'from no element',
    sampled along their stretch of the shared scale: at least 6 CIEDE2000 apart under normal vision and each simulated
    dichromacy."""
    from plotly.colors import sample_colorscale

    from viz.colorblind import VISIONS, ciede2000, parse_color, simulate, srgb_to_lab

    def sampled(low, high):
        return sample_colorscale(provenance_fig.SCALE, list(np.linspace(low, high, 11)), colortype="rgb")

    first, second = sampled(*provenance_fig.FIRST_DATA), sampled(*provenance_fig.SECOND_DATA)
    nothing = sampled(provenance_fig.NOTHING, provenance_fig.NOTHING)[:1]
    for vision in VISIONS:
        def lab(colors, vision=vision):
            return srgb_to_lab(simulate(np.array([parse_color(c)[:3] for c in colors]), vision))

        assert ciede2000(lab(first)[:, None], lab(second)[None]).min() >= 6, vision
        assert ciede2000(lab(nothing)[:, None], lab(first + second)[None]).min() >= 6, vision
