"""Colliding scatter updates, left open. DirectML's SCATTER page gives "no guarantee of which last write wins" and
ONNX's scatters want no duplicate indices: where updates collide a runtime writes one of them, not always the same.
The core keeps the last in row-major order; the operator declares the element open (Operator.undetermined), and the
cross-check accepts any of its candidates there, byte equality everywhere else, and fails on a value none of them
holds. Here a runtime choosing otherwise is simulated (support.gather_calls.with_other_winners): on ONNX Runtime
through the expectation, and on a stand-in DirectML that writes what the test gives it."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.operators.gather_scatter.examples import EXAMPLES
from ops.runtime import directml_check
from ops.runtime.directml import DirectMLStatus, RunResult
from ops.runtime.report import compare_outputs
from support.gather_calls import colliding_updates, random_bytes, random_call, with_other_winners

FIRST, LAST = (lambda count: 0), (lambda count: -1)
SCATTERS = ["SCATTER", "SCATTER_ND"]


def open_elements(name, inputs, attrs):
    [found] = ops.OPERATORS[name].undetermined(inputs, **attrs)
    return found


def test_the_page_s_scatter_leaves_its_collision_open_and_the_core_keeps_the_last():
    example = next(e for e in EXAMPLES if e.key == "scatter-1")  # indices [3, 1, 3, 0]: updates 0 and 2 meet at 3
    found = open_elements("SCATTER", example.arrays, example.attributes)
    assert found.elements.tolist() == [3] and found.starts.tolist() == [0, 2] and found.counts.tolist() == [2]
    assert found.candidates.tolist() == [5, 7] and found.origins.tolist() == [0, 2]
    assert (found.source, found.what, found.kept) == ("UpdatesTensor", "colliding updates",
                                                      "the last in row-major order")
    assert "no guarantee of which last write wins" in found.why
    assert ops.run("SCATTER", example.arrays, **example.attributes)[0][3] == 7


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.key != "scatter-1"], ids=lambda e: e.key)
def test_every_other_worked_example_is_determined(example):
    expected = [None] if example.op.startswith("SCATTER") else []
    assert ops.OPERATORS[example.op].undetermined(example.arrays, **example.attributes) == expected


@pytest.mark.parametrize("name", SCATTERS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_open_elements_are_those_two_updates_address_with_those_updates_in_row_major_order(name, seed):
    inputs, attrs = random_call(name, np.random.default_rng(seed))
    [out] = ops.run(name, inputs, **attrs)
    found = ops.OPERATORS[name].provenance(inputs, **attrs)
    [open_] = ops.OPERATORS[name].undetermined(inputs, **attrs)
    hits = found.hits.ravel()
    assert (np.flatnonzero(hits > 1).tolist() == ([] if open_ is None else open_.elements.tolist()))
    if open_ is None:
        return
    landing, updates, bits = found.landing.ravel(), inputs[2].ravel(), f"u{out.itemsize}"
    for i, element in enumerate(open_.elements):
        addressing = np.flatnonzero(landing == element)  # ascending: row-major order
        assert open_.origins[open_.starts[i]:open_.starts[i + 1]].tolist() == addressing.tolist()
        candidates = open_.candidates[open_.starts[i]:open_.starts[i + 1]]
        assert candidates.view(bits).tolist() == updates[addressing].view(bits).tolist()
        assert out.ravel()[element:element + 1].view(bits) == candidates[-1:].view(bits)  # the core keeps the last


# ---------------------------------------------------------------- the comparison


def test_any_colliding_update_matches_there_and_the_note_says_which_was_written():
    inputs, attrs = colliding_updates(5)
    [core] = ops.run("SCATTER", inputs, **attrs)
    found = open_elements("SCATTER", inputs, attrs)
    first, note = compare_outputs([core], [core.copy()], "DirectML", [found])
    assert first is None and note.startswith("The output is byte-identical to the reference core's. 1 element "
                                             "received colliding updates (5 at most)")
    assert note.endswith("DirectML wrote the one the core keeps (the last in row-major order) at each.")
    for pick, k in ((FIRST, 1), ((lambda count: 2), 3)):
        other = with_other_winners(core, found, pick)
        assert other[0] == k and (other[1:] == core[1:]).all()
        first, note = compare_outputs([core], [other], "DirectML", [found])
        assert first is None, note
        assert note.startswith("The output is the reference core's, byte for byte but where a choice is left open.")
        assert note.endswith(f"DirectML wrote another than the core's (the last in row-major order) at 1 of them: "
                             f"first at index [0], candidate {k} of 5 (UpdatesTensor element {k - 1}, flat).")


def test_a_value_none_of_the_colliding_updates_holds_fails_there():
    inputs, attrs = colliding_updates(5)
    [core] = ops.run("SCATTER", inputs, **attrs)
    found = open_elements("SCATTER", inputs, attrs)
    wrong = core.copy()
    wrong[0] = 6  # updates are 1..5
    first, note = compare_outputs([core], [wrong], "DirectML", [found])
    assert first == (0, (0,))
    assert note == ("Output 0 differs from the reference core first at index [0]: DirectML wrote 0x40C00000, none "
                    "of the 5 colliding updates there (the core keeps the last in row-major order: 0x40A00000).")
    untouched = with_other_winners(core, found, FIRST)
    untouched[2] = 0  # an element no update addresses: byte equality
    first, note = compare_outputs([core], [untouched], "DirectML", [found])
    assert first == (0, (2,)) and "core 0x461C4800 vs DirectML 0x00000000" in note


def test_the_candidates_are_compared_by_their_bytes():
    updates = np.array([0.0, np.nan], np.float32)
    inputs = [np.ones(3, np.float32), np.zeros(2, np.uint32), updates]
    [core] = ops.run("SCATTER", inputs, axis=0)
    found = open_elements("SCATTER", inputs, {"axis": 0})
    for written in (np.float32(-0.0), np.uint32(0x7FC00001).view(np.float32)):  # equal values, other bytes
        actual = core.copy()
        actual[0] = written
        assert compare_outputs([core], [actual], "DirectML", [found])[0] == (0, (0,))
    actual = core.copy()
    actual[0] = 0.0
    assert compare_outputs([core], [actual], "DirectML", [found])[0] is None


# ---------------------------------------------------------------- ONNX Runtime, the expectation choosing otherwise


@pytest.mark.parametrize("data_type", ops.DML_TYPES)
def test_onnx_runtime_matches_whichever_colliding_update_the_expectation_keeps(data_type):
    pytest.importorskip("onnxruntime")
    dtype = ops.numpy_dtype(data_type)
    rng = np.random.default_rng(len(data_type))
    inputs, attrs = colliding_updates(40)
    inputs = [random_bytes(rng, inputs[0].shape, dtype), inputs[1], random_bytes(rng, inputs[2].shape, dtype)]
    [core] = ops.run("SCATTER", inputs, **attrs)
    found = open_elements("SCATTER", inputs, attrs)
    for pick in (FIRST, LAST, lambda count: count // 2):
        report = ops.cross_check("SCATTER", inputs, runtime="onnxruntime",
                                 expected=[with_other_winners(core, found, pick)], **attrs)
        assert report.available and report.matches, report.note
        assert [u.elements.tolist() for u in report.undetermined] == [[0]]
    elsewhere = with_other_winners(core, found, FIRST)
    elsewhere[1] = inputs[2][0]  # an element no update addresses still holds the input's own bytes
    report = ops.cross_check("SCATTER", inputs, runtime="onnxruntime", expected=[elsewhere], **attrs)
    assert report.available and not report.matches and report.first_mismatch == (0, (1,)), report.note


# ---------------------------------------------------------------- a stand-in DirectML choosing otherwise


@pytest.fixture
def stand_in(monkeypatch):
    """DirectML as a stand-in writing whatever output the test puts in the dict it returns."""
    written = {}
    status = DirectMLStatus(True, "a stand-in", provider="a stand-in DirectML", max_feature_level="6_2",
                            type_support=tuple(ops.DML_TYPES))
    monkeypatch.setattr(directml_check, "directml_status", lambda: status)
    monkeypatch.setattr(directml_check, "run_on_directml",
                        lambda name, inputs, outputs, attrs, level: RunResult(0, "", (written["output"].tobytes(),)))
    return written


def test_directml_writing_another_colliding_update_matches_and_a_wrong_value_does_not(stand_in):
    inputs, attrs = colliding_updates(5000)
    [core] = ops.run("SCATTER", inputs, **attrs)
    found = open_elements("SCATTER", inputs, attrs)
    stand_in["output"] = with_other_winners(core, found, lambda count: 2559)
    report = ops.cross_check("SCATTER", inputs, runtime="directml", **attrs)
    assert report.runtime == "directml" and report.matches, report.note
    assert report.note.endswith("DirectML wrote another than the core's (the last in row-major order) at 1 of them: "
                                "first at index [0], candidate 2,560 of 5,000 (UpdatesTensor element 2,559, flat).")
    stand_in["output"][0] = 5001
    report = ops.cross_check("SCATTER", inputs, runtime="directml", **attrs)
    assert not report.matches and report.first_mismatch == (0, (0,))
    assert "none of the 5,000 colliding updates there" in report.note


@pytest.mark.parametrize("name", SCATTERS)
def test_random_scatters_match_whichever_colliding_updates_directml_writes(stand_in, name):
    """Any data and index type, indices past their axes and from the end: each open element given a random one of
    its candidates, then one element given a value none of its candidates holds."""
    rng = np.random.default_rng(sum(map(ord, name)))
    opened = 0
    for _ in range(200):
        inputs, attrs = random_call(name, rng)
        [core] = ops.run(name, inputs, **attrs)
        [found] = ops.OPERATORS[name].undetermined(inputs, **attrs)
        if found is None:
            continue
        opened += 1
        stand_in["output"] = with_other_winners(core, found, lambda count: int(rng.integers(count)))
        report = ops.cross_check(name, inputs, runtime="directml", **attrs)
        assert report.matches, report.note
        bits = f"u{core.itemsize}"
        taken = {int(v) for v in found.candidates.view(bits)[found.starts[0]:found.starts[1]]}
        flat = stand_in["output"].reshape(-1).view(bits)
        flat[found.elements[0]] = next(v for v in range(len(taken) + 1) if v not in taken)
        report = ops.cross_check(name, inputs, runtime="directml", **attrs)
        assert not report.matches and report.first_mismatch[1] == tuple(
            int(c) for c in np.unravel_index(found.elements[0], core.shape)), report.note
    assert opened >= 5  # the random calls collide often enough for the test to mean something
