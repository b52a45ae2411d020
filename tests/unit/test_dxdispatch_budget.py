"""Adversarial DxDispatch models, each at most 1 MB: every one is refused with the field and the rule, or runs
within a bounded amount of work, counted deterministically (values formatted, values generated, loader passes)."""

import json
import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from ops.datatypes import unsigned_of_width
from ops.descriptors import dxdispatch as dx
from ops.descriptors import json_values, partial
from ops.descriptors.dxdispatch import model_run_bytes, run_byte_budget, run_model_detailed
from ops.guard import element_cap_set_to
from support.app import run_through_app, shown

WORKBENCH_CAP = 2**20  # app_pages/workbench/settings.py ELEMENT_CAP
MODEL_BYTES = 1_000_000


def text_of(model):
    text = json.dumps(model)
    assert len(text.encode()) <= MODEL_BYTES
    return text


def sequence(count, data_type="FLOAT32", start=0, delta=1):
    return {"initialValuesDataType": data_type,
            "initialValues": {"valueCount": count, "valueStart": start, "valueDelta": delta}}


def prints_model(count, verbose=False, elements=WORKBENCH_CAP):
    command = {"type": "print", "resource": "A", **({"verbose": True} if verbose else {})}
    return {"resources": {"A": sequence(elements, delta=0.5)}, "dispatchables": {}, "commands": [command] * count}


def identity_model(dispatches, elements):
    desc = {"DataType": "FLOAT32", "Sizes": [1, 1, 1, elements]}
    return {"resources": {"a": sequence(elements), "b": sequence(elements, start=0, delta=0)},
            "dispatchables": {"copy": {"type": "ELEMENT_WISE_IDENTITY",
                                       "desc": {"InputTensor": desc, "OutputTensor": desc}}},
            "commands": [{"type": "dispatch", "dispatchable": "copy",
                          "bindings": {"InputTensor": "a", "OutputTensor": "b"}}] * dispatches}


@pytest.fixture
def formatted_values(monkeypatch):
    """How many values the run formats, in both forms together."""
    counter = {"values": 0}
    real = dx._formatted

    def counting(values, as_character):
        counter["values"] += len(values)
        return real(values, as_character)

    monkeypatch.setattr(dx, "_formatted", counting)
    return counter


@pytest.fixture
def generated_values(monkeypatch):
    """How many initial values the loader generates."""
    counter = {"values": 0}
    real = dx._initial_values

    def counting(*args):
        values = real(*args)
        counter["values"] += values.size
        return values

    monkeypatch.setattr(dx, "_initial_values", counting)
    return counter


# ---------------------------------------------------------------- prints


def spec_value(value, as_character):
    """One value as DxDispatch's ostream writes it, element by element."""
    if as_character:
        return bytes([int(value) % 256]).decode("latin-1")
    if isinstance(value, np.floating):
        return format(float(value), "g")
    return str(int(value))


def spec_print(name, values, verbose, as_characters):
    """Executor.cpp's print layout, a plain loop over every value."""
    as_character = as_characters and values.dtype.itemsize == 1 and values.dtype.kind in "iu"
    if not verbose:
        return f"Resource '{name}': " + ", ".join(spec_value(v, as_character) for v in values)
    width = int(math.floor(math.log10(len(values)))) + 1
    bits = values.view(unsigned_of_width(values.dtype.itemsize))
    return f"Resource '{name}':\n" + "".join(
        f"[{i:>{width}}] {spec_value(v, as_character)} (0x{int(b):>{values.dtype.itemsize * 2}X})\n"
        for i, (v, b) in enumerate(zip(values, bits)))


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(["float16", "float32", "float64", "int8", "uint8", "int16", "uint32", "int64"]),
       raw=st.binary(min_size=8, max_size=2 * dx.PRINT_EDGE_VALUES * 8), verbose=st.booleans(),
       as_characters=st.booleans())
def test_bulk_formatting_matches_the_element_by_element_layout(dtype, raw, verbose, as_characters):
    values = np.frombuffer(raw[: len(raw) // 8 * 8], dtype=dtype)
    with np.errstate(invalid="ignore"):
        expected = spec_print("r", values, verbose, as_characters)
    assert dx.format_print("r", values, verbose, as_characters) == expected


def test_a_large_print_shows_its_ends_in_dxdispatch_form():
    values = np.arange(WORKBENCH_CAP, dtype=np.float32) / 2
    edge, left_out = dx.PRINT_EDGE_VALUES, WORKBENCH_CAP - 2 * dx.PRINT_EDGE_VALUES
    line = dx.format_print("A", values)
    head, tail = line.removeprefix("Resource 'A': ").split(", ... ")[0], line.rsplit(" ..., ", 1)[1]
    assert head.split(", ") == [format(float(v), "g") for v in values[:edge]]
    assert tail.split(", ") == [format(float(v), "g") for v in values[-edge:]]
    assert f", ... {left_out:,} more values ..., " in line
    verbose = dx.format_print("A", values, verbose=True).splitlines()
    assert verbose[0] == "Resource 'A':" and len(verbose) == 2 * edge + 2
    assert verbose[1] == "[      0] 0 (0x       0)"
    assert verbose[edge + 1] == f"... {left_out:,} more values ..."
    # the tail keeps its own indices, in the width the whole buffer's count needs
    last_bits = values[-1:].view(np.uint32)[0]
    assert verbose[-1] == f"[{WORKBENCH_CAP - 1}] {format(float(values[-1]), 'g')} (0x{last_bits:>8X})"


@pytest.mark.parametrize("verbose", [False, True])
def test_two_hundred_prints_of_a_full_buffer_are_bounded(formatted_values, verbose):
    model = text_of(prints_model(200, verbose))
    start = time.perf_counter()
    with element_cap_set_to(WORKBENCH_CAP):
        result = dx.run_model_detailed(model)
    print(f"200 prints of 2^20 values (verbose={verbose}): {time.perf_counter() - start:.2f} s")
    assert len(result.prints) == len(result.dxdispatch_prints) == 200
    for lines in (result.prints, result.dxdispatch_prints):
        shown = [line for line in lines if "values not shown" not in line]
        assert sum(map(len, shown)) <= dx.MAX_PRINT_CHARS
        assert shown and all("more values" in line for line in shown)
        assert lines[-1] == (f"Resource 'A': ({WORKBENCH_CAP:,} values not shown: this run's print output reached its "
                             f"limit of {dx.MAX_PRINT_CHARS:,} characters)")
    # Each value kept takes at least 3 characters (", " and a digit); the print that overflows is dropped whole.
    per_form = dx.MAX_PRINT_CHARS // 3 + 2 * dx.PRINT_EDGE_VALUES
    assert formatted_values["values"] <= 2 * per_form


def test_print_characters_are_bounded_for_every_form_of_byte_buffer():
    model = {"resources": {"b": sequence(WORKBENCH_CAP, "UINT8", 0, 1)}, "dispatchables": {},
             "commands": [{"type": "print", "resource": "b", "verbose": True}] * 3000}
    with element_cap_set_to(WORKBENCH_CAP):
        result = dx.run_model_detailed(text_of(model))
    assert result.dxdispatch_prints[0].splitlines()[1] == "[      0] \x00 (0x 0)"
    for lines in (result.prints, result.dxdispatch_prints):
        assert sum(len(line) for line in lines if "values not shown" not in line) <= dx.MAX_PRINT_CHARS


# ---------------------------------------------------------------- the run's size, before allocating


def test_many_resources_near_the_cap_are_refused_before_their_values_exist(generated_values):
    full = {"initialValuesDataType": "FLOAT64", "initialValues": {"valueCount": WORKBENCH_CAP, "value": 1}}
    resources = {f"r{i}": full for i in range(8000)}
    model = text_of({"resources": resources, "dispatchables": {}, "commands": []})
    with element_cap_set_to(WORKBENCH_CAP), pytest.raises(ops.DescriptorError) as error:
        ops.load_model(model)
    assert str(error.value).startswith("resources.r1: with the resources before it, 16,777,216 bytes in all; the cap "
                                       "for all buffers of a model is 8,388,608 bytes")
    assert generated_values["values"] == WORKBENCH_CAP  # r0 alone


def test_partial_inspection_judges_resources_before_loading_them(generated_values):
    resources = {f"r{i}": sequence(WORKBENCH_CAP // 2, "FLOAT16") for i in range(5000)}
    model = text_of({"resources": resources, "dispatchables": {"g": {"type": "GEMM", "desc": {}}}, "commands": []})
    with element_cap_set_to(WORKBENCH_CAP):
        inspection = ops.inspect_model(model)
    statuses = [part.status for part in inspection.resources]
    # 1 MB FLOAT16 buffers: eight fit the 8 MB cap
    assert statuses[:8] == [partial.VALID] * 8 and set(statuses[8:]) == {partial.INVALID}
    assert "resources.r8: 1,048,576 bytes; with the resources before it" in inspection.resources[8].reason
    assert generated_values["values"] == 8 * WORKBENCH_CAP // 2


def test_huge_size_in_bytes_is_refused_before_allocating(generated_values):
    huge = {"initialValuesDataType": "UINT8", "initialValues": [1], "sizeInBytes": 2**40}
    with element_cap_set_to(WORKBENCH_CAP), pytest.raises(ops.DescriptorError, match=r"^resources.big.sizeInBytes"):
        ops.load_model({"resources": {"big": huge}, "dispatchables": {}, "commands": []})
    many = {f"r{i}": {**huge, "sizeInBytes": 4 * 2**20} for i in range(9000)}
    with element_cap_set_to(WORKBENCH_CAP), pytest.raises(ops.DescriptorError, match=r"^resources.r2: with the"):
        ops.load_model(text_of({"resources": many, "dispatchables": {}, "commands": []}))
    assert generated_values["values"] == 3  # big, r0 and r1: one value each


def test_many_dispatches_over_large_buffers_are_refused_at_the_command_that_overflows_the_run():
    model = text_of(identity_model(4000, WORKBENCH_CAP))
    with element_cap_set_to(WORKBENCH_CAP):
        budget = run_byte_budget()
        with pytest.raises(ops.DescriptorError) as error:
            run_model_detailed(model)
    # buffers 4 x 8 MB, then 16 MB per dispatch (4 MB in, 3 x 4 MB out) against 128 MB
    overflowing = (budget - 4 * 8 * 2**20) // (16 * 2**20)
    assert str(error.value).startswith(f"commands[{overflowing}]: by this dispatch the run would hold about")
    assert f"one run may hold {budget:,} bytes (16 tensors at the cap of 1,048,576 8-byte elements)" in str(error.value)


def test_a_run_within_the_budget_holds_no_more_than_its_estimate():
    model = identity_model(5, 2**16)
    with element_cap_set_to(WORKBENCH_CAP):
        estimate = model_run_bytes(model)
        result = run_model_detailed(model)
    held = sum(a.nbytes for r in result.dispatches for part in (r.inputs, r.outputs_before, r.outputs)
               for a in part.values())
    held += sum(b.nbytes for b in result.buffers.values()) + sum(b.nbytes for b in result.buffer_bytes.values())
    assert held <= estimate <= run_byte_budget()


def test_too_many_commands_are_refused():
    model = {"resources": {"A": sequence(4)}, "dispatchables": {},
             "commands": [{"type": "print", "resource": "A"}] * (dx.MAX_COMMANDS + 1)}
    with pytest.raises(ops.DescriptorError, match=r"^commands: 4,097 commands: this app runs at most 4,096 per model"):
        ops.load_model(text_of(model))


def test_deep_nesting_is_refused_before_parsing():
    for text in ("[" * 500_000 + "]" * 500_000, '{"a":' * 150_000 + "1" + "}" * 150_000):
        with pytest.raises(ops.DescriptorError, match="nesting is deeper than 32 levels"):
            ops.load_model(text)


def half_loop(start, delta, count):
    """GenerateInitialValuesFromSequence in half: one rounded addition per value."""
    out, value = [], np.float16(start)
    for _ in range(count):
        out.append(value)
        value = np.float16(np.float64(value) + np.float64(np.float16(delta)))
    return np.array(out, dtype=np.float16)


@settings(max_examples=30, deadline=None)
@given(start=st.floats(width=16, allow_nan=False, allow_infinity=False),
       delta=st.floats(width=16, allow_nan=False, allow_infinity=False),
       count=st.integers(1, 3000))
def test_float16_sequences_match_the_step_by_step_loop(start, delta, count):
    with np.errstate(over="ignore", invalid="ignore"):
        expected = half_loop(start, delta, count)
    got = ops.run_model({"resources": {"h": sequence(count, "FLOAT16", start, delta)}, "dispatchables": {},
                         "commands": []})["h"]
    assert got.view(np.uint16).tolist() == expected.view(np.uint16).tolist()


def test_full_float16_sequences_are_cheap():
    model = text_of({"resources": {f"h{i}": sequence(2**19, "FLOAT16", -60000, 0.25) for i in range(8)},
                     "dispatchables": {}, "commands": []})
    start = time.perf_counter()
    with element_cap_set_to(WORKBENCH_CAP):
        buffers = ops.run_model(model)
    print(f"8 FLOAT16 sequences of 2^19 values: {time.perf_counter() - start:.2f} s")
    assert buffers["h7"][:3].tolist() == [-60000, -60000, -60000]  # -60000 + 0.25 rounds back to -60000


def test_partial_runs_load_the_model_a_bounded_number_of_times(monkeypatch):
    """Dispatchables the loader refuses, listed so that loading the whole model finds them one per pass."""
    count = 1000
    desc = {"InputTensor": {"DataType": "UINT16", "Sizes": [1, 1, 1, 8]},
            "OutputTensor": {"DataType": "UINT16", "Sizes": [1, 1, 1, 8]}}
    good = {f"ok{i}": {"type": "ELEMENT_WISE_IDENTITY", "desc": desc} for i in range(count)}
    # bound at initialization without OWNED_BY_DML: DirectML refuses it, ops.validate alone does not look
    bad = {f"bad{i}": {"type": "ELEMENT_WISE_IDENTITY", "desc": desc, "bindings": {"InputTensor": "a"}}
           for i in range(count)}
    binding = {"InputTensor": "a", "OutputTensor": "b"}
    commands = ([{"type": "dispatch", "dispatchable": f"ok{i}", "bindings": binding} for i in range(count)]
                + [{"type": "dispatch", "dispatchable": f"bad{i}", "bindings": binding} for i in reversed(range(count))]
                + [{"type": "dispatch", "dispatchable": "gemm", "bindings": {}}])
    model = text_of({"resources": {"a": sequence(8, "UINT16"), "b": sequence(8, "UINT16")},
                     "dispatchables": {**good, **bad, "gemm": {"type": "GEMM", "desc": {}}}, "commands": commands})
    passes = {"count": 0}
    real = partial.run_model_detailed

    def counting(model):
        passes["count"] += 1
        return real(model)

    monkeypatch.setattr(partial, "run_model_detailed", counting)
    start = time.perf_counter()
    run = ops.run_model_partial(model)
    print(f"partial run of {len(commands)} commands: {time.perf_counter() - start:.2f} s, {passes['count']} passes")
    assert passes["count"] <= 2
    assert len(run.ran) == count and run.stopped_at == count
    assert run.skipped[0].reason.startswith(f"commands[{count}]: dispatches bad{count - 1}, which the loader refuses: "
                                            f"dispatchables.bad{count - 1}.bindings.InputTensor")


# ---------------------------------------------------------------- the workbench


def open_pasted(text):
    at = run_through_app("app_pages/workbench/page.py", {"wb_source": "Paste JSON"})
    at.text_area(key="wb_text").input(text).run(timeout=60)
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_workbench_runs_two_hundred_full_prints_bounded():
    at = open_pasted(text_of(prints_model(200)))
    printed = next(c.value for c in at.code if c.value.startswith("Resource 'A': 0, 0.5, 1"))
    assert f"... {WORKBENCH_CAP - 2 * dx.PRINT_EDGE_VALUES:,} more values ..." in printed
    assert "values not shown: this run's print output reached its limit" in printed


def test_workbench_names_the_command_that_overflows_the_run():
    at = open_pasted(text_of(identity_model(200, WORKBENCH_CAP)))
    errors = [shown(e.value) for e in at.error]
    # the estimate is part of loading, so the model is refused before anything is allocated
    assert any(e.startswith("pasted model is refused: commands[") and "one run may hold" in e for e in errors), errors


def test_workbench_draws_the_first_dispatches_of_many():
    at = open_pasted(text_of(identity_model(40, 4)))
    assert not at.error, [shown(e.value) for e in at.error]
    assert any("28 more dispatches ran; the first 12 are drawn" in shown(i.value) for i in at.info)
    assert sum(shown(s.value).startswith("Cross-check") for s in at.success) == 12


@pytest.mark.parametrize("name", ["commented_join", "owned_weights_bit_or", "wrapping_sequences"])
def test_dxdispatch_syntax_examples_are_offered_with_their_comments(name):
    at = run_through_app("app_pages/workbench/page.py", {"wb_example": f"dxdispatch/{name}"})
    assert not at.exception and not at.error, [shown(e.value) for e in at.error]
    assert any(f"examples/dxdispatch/{name}.json: " in shown(s.value) and "valid at feature level 6_4" in shown(s.value)
               for s in at.success)
    source = next(c.value for c in at.code if c.language == "json" and "resources" in c.value)
    assert "//" in source or "/*" in source  # shown as written, comments and all
    assert any(c.value.startswith("Resource '") for c in at.code)  # it ran and printed


def test_workbench_reports_the_first_dispatchables_of_many():
    model = identity_model(1, 4)
    copy = model["dispatchables"]["copy"]
    model["dispatchables"] = {f"copy{i}": copy for i in range(100)}
    model["commands"][0]["dispatchable"] = "copy99"
    at = open_pasted(text_of(model))
    assert not at.error, [shown(e.value) for e in at.error]
    assert any("The first 24 of 100 dispatchables are reported here" in shown(i.value) for i in at.info)
    assert list(at.dataframe[0].value.columns) == ["feature level"] + [f"copy{i}" for i in range(24)]


@settings(max_examples=60, deadline=None)
@given(data_type=st.sampled_from(["FLOAT16", "FLOAT32", "FLOAT64", "INT8", "UINT8", "INT32", "UINT32", "INT64",
                                  "UINT64"]),
       values=st.lists(st.one_of(st.integers(-2**64, 2**65), st.integers(-300, 300),
                                 st.floats(allow_nan=False, allow_infinity=False), st.booleans()),
                       min_size=1, max_size=20))
def test_bulk_list_initializers_match_value_by_value_parsing(data_type, values):
    try:
        expected = json_values.typed([json_values.scalar(v, data_type, f"v[{i}]") for i, v in enumerate(values)],
                                       data_type)
    except ops.DescriptorError:
        expected = None
    got = dx._plain_numbers(values, data_type)
    if expected is None:
        assert got is None  # left to the value-by-value path, which names the value at fault
    elif got is not None:
        assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()


def test_a_partial_run_stops_at_the_dispatch_that_overflows_the_run():
    model = identity_model(200, WORKBENCH_CAP)
    model["dispatchables"]["g"] = {"type": "GEMM", "desc": {}}
    model["commands"].append({"type": "dispatch", "dispatchable": "g", "bindings": {}})
    with element_cap_set_to(WORKBENCH_CAP):
        run = ops.run_model_partial(text_of(model))
    # buffers 4 x 8 MB, then 16 MB per dispatch against 128 MB: six dispatches fit
    assert len(run.ran) == run.stopped_at == 6
    assert run.skipped[0].reason.startswith("commands[6]: by this dispatch the run would hold about")
    assert all(step.reason.startswith("not run: commands[6] before it") for step in run.skipped[1:])
