"""The Gather & Scatter and Slice, Pad & Tile pages run through app.py as a user reaches them (AppTest): their
defaults, every worked example of their operators' API pages (as a link and as a preset button) coming out exactly,
and hostile settings answered with a message naming the field and the rule, never a traceback."""

import numpy as np
import pytest

from app_pages.gather_scatter.settings import PRESETS as GATHER_PRESETS
from ops.operators.gather_scatter.examples import EXAMPLES as GATHER_EXAMPLES
from ops.operators.slice_pad.examples import EXAMPLES as SLICE_EXAMPLES
from support.app import chart_figures, run_through_app, shown
from support.figures import plotly_array
from viz.common import format_values
from viz.provenance_fig import Column, Role

GATHER = "app_pages/gather_scatter/page.py"
SLICE = "app_pages/slice_pad/page.py"
CASES = ([(GATHER, f"{e.op} {e.title}", e.output.array) for e in GATHER_EXAMPLES]
         + [(SLICE, f"{e.op} {e.name}", e.output) for e in SLICE_EXAMPLES])


def presets_of(path):
    from app_pages.gather_scatter.settings import PRESETS as gather
    from app_pages.slice_pad.settings import PRESETS as slice_pad

    return gather if path == GATHER else slice_pad


def errors(at):
    return " | ".join(shown(e.value) for e in at.error)


def drawn_output(at):
    """{flat: label} of the output as the page's one figure draws it."""
    [fig] = chart_figures(at)
    cells = fig["data"][Role.OUTPUT_CELLS]
    custom = plotly_array(cells["customdata"]).reshape(-1, len(Column))
    return {int(row[Column.FLAT]): text.split(" = ")[1].split("<br>")[0]
            for row, text in zip(custom, cells["hovertext"])}


@pytest.mark.parametrize("path", [GATHER, SLICE])
def test_default_view_runs_clean(path):
    at = run_through_app(path)
    assert not at.exception
    assert not at.error, errors(at)
    [fig] = chart_figures(at)
    assert fig["layout"]["meta"]["whole"]
    assert any("Valid at DML_FEATURE_LEVEL" in s.value for s in at.success)


@pytest.mark.parametrize("path, label, expected", CASES, ids=[c[1] for c in CASES])
def test_every_worked_example_comes_out_exactly(path, label, expected):
    at = run_through_app(path, **presets_of(path)[label])
    assert not at.exception
    assert not at.error, errors(at)
    assert drawn_output(at) == dict(enumerate(format_values(np.asarray(expected))))


def test_a_preset_button_sets_the_view():
    at = run_through_app(GATHER)
    label = "SCATTER Example 1. 1D scatter"
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception and not at.error, errors(at)
    assert drawn_output(at) == dict(enumerate(["8", "6", "2", "7", "4"]))
    assert any("2 updates land here" in str(c.value) for c in at.caption) or chart_figures(at)[0]["layout"]["meta"][
        "collisions"] == 1


SCATTER = GATHER_PRESETS["SCATTER Example 1. 1D scatter"]
ONE_HOT = GATHER_PRESETS["ONE_HOT Example 1"]
HOSTILE = [
    (GATHER, dict(gs_indices_sizes="2,2"), "IndicesTensor.Sizes"),
    (GATHER, dict(gs_indices="0 1"), "IndicesTensor: 2 values given"),
    (GATHER, dict(gs_indices="0 one 1 2"), "IndicesTensor[1] 'one'"),
    (GATHER, dict(gs_indices="0 -1 1 2"), "IndicesTensor[1] -1: outside uint32 range"),
    (GATHER, dict(gs_indices_sizes="1,four"), "IndicesTensor Sizes"),
    (GATHER, dict(gs_axis=7), "Axis 7: must be in [0, 1]"),
    (GATHER, dict(gs_axis=-1), "Axis -1"),
    (GATHER, dict(gs_index_dims=3), "IndexDimensions 3"),
    (GATHER, dict(gs_sizes="0,2"), "InputTensor Sizes"),
    (GATHER, dict(SCATTER, gs_second="5 6 7"), "UpdatesTensor: 3 values given"),
    (GATHER, dict(SCATTER, gs_second_sizes="5"), "UpdatesTensor.Sizes"),
    (GATHER, dict(ONE_HOT, gs_depth=4_000_000_000), "OutputTensor Sizes"),
    (GATHER, dict(ONE_HOT, gs_depth=0), "OutputTensor.Sizes[Axis]"),
    (SLICE, dict(sp_op="TILE", sp_repeats="100000,100000,1,1"), "OutputTensor Sizes"),
    (SLICE, dict(sp_op="TILE", sp_repeats="1,1,0,1"), "Repeats"),
    (SLICE, dict(sp_end="0,0,99999999,99999999"), "OutputTensor Sizes"),
    (SLICE, dict(sp_start="0,0,1"), "StartPadding"),
    (SLICE, dict(sp_op="SLICE1", sp_strides="1,1,0,2"), "InputWindowStrides"),
    (SLICE, dict(sp_op="SLICE1", sp_offsets="0,0,2,1"), "InputWindowOffsets[2]"),
    (SLICE, dict(sp_op="REVERSE_SUBSEQUENCES", sp_sizes="1,1,3,4", sp_lengths="1 2"), "SequenceLengthsTensor"),
    (SLICE, dict(sp_op="REVERSE_SUBSEQUENCES", sp_sizes="1,1,3,4", sp_axis=9), "Axis 9"),
    (SLICE, dict(sp_sizes="1,1,4,4,1,1,1,1,1"), "InputTensor Sizes"),
]


@pytest.mark.parametrize("path, settings, message", HOSTILE, ids=[h[2] for h in HOSTILE])
def test_hostile_settings_get_a_message_naming_the_field(path, settings, message):
    at = run_through_app(path, **settings)
    assert not at.exception
    assert message in errors(at), errors(at)


def test_an_index_type_no_operator_takes_falls_back_with_a_note():
    at = run_through_app(GATHER, query={"gs_indices_type": "FLOAT32"})
    assert not at.exception
    assert not at.error, errors(at)
    assert at.selectbox(key="gs_indices_type").value == "UINT32"


SHOWN = [(GATHER, "SCATTER Example 1. 1D scatter"), (GATHER, "ONE_HOT Example 4. Negative and out-of-bounds indices"),
         (GATHER, "GATHER_ND1 Example 2. 2D remapping with batch count"), (SLICE, "REVERSE_SUBSEQUENCES Example 1"),
         (SLICE, "PADDING1 Example 4 (SYMMETRIC)")]
MODES = {"quiz": dict(quiz=True), "steps": dict(steps=True), "Elsewhere": {"tab": "Elsewhere"},
         "Export": {"tab": "Export"}, "pick": {"pick": True}}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path, label", SHOWN, ids=[s[1] for s in SHOWN])
def test_quiz_steps_panels_and_a_pick_run_clean(path, label, mode):
    key = "gs" if path == GATHER else "sp"
    settings = dict(presets_of(path)[label])
    extra = dict(MODES[mode])
    if "tab" in extra:
        settings[f"{key}_panels_tab"] = extra.pop("tab")
    if extra.pop("pick", False):
        from ops import operator

        op = operator(settings[f"{key}_op"])
        settings[f"{key}_pick"] = (op.arity[1], 0)  # the output's first element
    at = run_through_app(path, **settings, **extra)
    assert not at.exception
    assert not at.error, errors(at)
    captions = " ".join(shown(c.value) for c in at.caption)
    if mode == "pick":
        assert "Picked: OutputTensor (" in captions
    if mode == "Elsewhere":
        assert "in other frameworks" in captions
    if mode == "quiz":
        assert at.radio, "a question with its choices"


@pytest.mark.parametrize("path, label", [(GATHER, "SCATTER Example 2. 2D scatter"),
                                         (SLICE, "PADDING1 Example 3 (REFLECTION)")])
def test_the_cross_check_agrees_on_directml_and_onnx_runtime(path, label, directml):
    from ui.shared import wait_for_background

    key = "gs" if path == GATHER else "sp"
    at = run_through_app(path, **presets_of(path)[label], **{f"{key}_panels_tab": "Cross-check"})
    wait_for_background(timeout=300)
    at.run()
    assert not at.exception
    successes = " ".join(shown(s.value) for s in at.success)
    assert "Match on DirectML" in successes, successes
    assert not at.error, errors(at)


X = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)  # the detective's input: each value its flat index
DETECTED = {"PADDING1": np.pad(X, ((0, 0), (0, 0), (1, 2), (2, 1)), mode="reflect"), "SLICE1": X[:, :, ::-2, 1::2],
            "TILE": np.tile(X, (1, 1, 2, 3))}


@pytest.mark.parametrize("op", list(DETECTED))
def test_the_detective_names_the_operator_and_its_link_reopens_it_here(op):
    y = DETECTED[op]
    at = run_through_app("app_pages/detective/page.py", dt_sizes="1,1,4,4", dt_dtype="FLOAT32", dt_source="paste",
                         dt_text=np.array2string(y, separator=", ", threshold=10**6))
    assert not at.exception
    [link] = at.get("page_link")
    assert link.proto.page == "slice_pad"
    query = dict(part.split("=", 1) for part in link.proto.query_string.split("&"))
    from urllib.parse import unquote

    opened = run_through_app(SLICE, query={k: unquote(v) for k, v in query.items()})
    assert not opened.exception and not opened.error, errors(opened)
    assert drawn_output(opened) == dict(enumerate(format_values(y)))
    assert op in " ".join(shown(c.value) for c in opened.caption)


@pytest.mark.parametrize("pick", [(9, 0), (2, 999), (0, -1), (1, 2, 3)])
def test_a_pick_that_names_no_element_is_dropped_quietly(pick):
    at = run_through_app(GATHER, gs_pick=pick)
    assert not at.exception and not at.error, errors(at)
    assert not any(shown(c.value).startswith("Picked") for c in at.caption)


FIXABLE = [(GATHER, dict(gs_axis=5), "Axis 1"),
           (GATHER, dict(SCATTER, gs_second_sizes="5"), "UpdatesTensor"),
           (SLICE, dict(sp_op="SLICE1", sp_offsets="0,0,2,1", sp_window="1,1,4,3", sp_strides="1,1,1,1"),
            "window_offsets 0,0,0,1"),
           (SLICE, dict(sp_op="TILE", sp_repeats="1,1,2"), "repeats 1,1,2,1")]


@pytest.mark.parametrize("path, settings, label", FIXABLE, ids=[f[2] for f in FIXABLE])
def test_a_refusal_offers_the_nearest_fix_and_the_fix_draws(path, settings, label):
    at = run_through_app(path, **settings)
    assert not at.exception and at.error
    fixes = [b for b in at.button if b.key and "_fix_" in b.key]
    assert any(label in b.label for b in fixes), [b.label for b in fixes]
    next(b for b in fixes if label in b.label).click().run()
    assert not at.exception
    assert not at.error, errors(at)
    assert chart_figures(at)
