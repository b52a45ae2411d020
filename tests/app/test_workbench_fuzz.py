"""Property: whatever JSON reaches the workbench, the core answers with a model or a DescriptorError, never another
exception. Valid models come from the bundled examples and from ops.descriptors.export.model_for; mutated ones delete,
retype or replace fields anywhere in them."""

import copy
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from app_pages.workbench import reading
from ops import FEATURE_LEVELS, DescriptorError, load_model, run_model, validate
from ops.descriptors.dxdispatch import parse_model_text, run_model_detailed
from ops.descriptors.export import cpp_snippet, model_for
from ops.guard import element_cap_set_to
from support.app import run_through_app
from support.paths import ROOT
from viz.memory_map_fig import memory_map_figure

EXAMPLES = [json.loads(p.read_text()) for p in sorted((ROOT / "examples").glob("*.json"))]
CAP = 2**14

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([0, 1, -1, 2**32 - 1, 2**32, 2**64]),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1e308, -1e308, 0.5, 2.0]),
    st.text(max_size=8), st.sampled_from(["nan", "inf", "FLOAT32", "UINT8", "DML_OPERATOR_SPLIT", "print",
                                          "dispatch", "input", "out0", "output", "COLUMN_ROW_DEPTH"]),
)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)), max_leaves=12)


def paths(value, prefix=()):
    """Every (path) inside a JSON value, the root excluded."""
    found = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found.append(prefix + (key,))
        found += paths(item, prefix + (key,))
    return found


def parent_of(model, path):
    target = model
    for key in path[:-1]:
        target = target[key]
    return target


def retyped(value):
    return st.sampled_from([str(value), [value], {"value": value}, None, True, 1.5])


@st.composite
def mutated(draw, base):
    model = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        places = paths(model)
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent, key = parent_of(model, path), path[-1]
        action = draw(st.sampled_from(["delete", "retype", "replace", "numbers"]))
        if action == "delete":
            del parent[key]
        elif action == "retype":
            parent[key] = draw(retyped(parent[key]))
        elif action == "replace":
            parent[key] = draw(json_values)
        else:
            parent[key] = draw(st.sampled_from([0, -3, 2**31, 2**33, 2**70, 1e30, 7]))
    return model


@st.composite
def exported(draw):
    """A valid model for a random core call, as the operator pages export it."""
    dtype = draw(st.sampled_from([np.float32, np.uint8, np.int16, np.float16, np.uint32]))
    op = draw(st.sampled_from(["depth_to_space", "space_to_depth", "bit_or", "split", "join"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    block = draw(st.integers(1, 3))
    h, w = draw(st.integers(1, 3)), draw(st.integers(1, 3))

    def array(*shape):
        return rng.integers(0, 100, shape).astype(dtype)

    if op == "depth_to_space":
        return model_for(op, [array(1, block * block * draw(st.integers(1, 2)), h, w)], block_size=block,
                         order=draw(st.sampled_from(["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"])))
    if op == "space_to_depth":
        return model_for(op, [array(1, 2, h * block, w * block)], block_size=block)
    if op == "bit_or":
        if np.dtype(dtype).kind == "f":
            dtype = np.uint16
        return model_for(op, [array(2, h, w), array(2, h, w)])
    if op == "split":
        parts = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        return model_for(op, [array(1, 1, sum(parts), w)], axis=2, sizes=parts)
    parts = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    return model_for(op, [array(1, 1, p, w) for p in parts], axis=2)


models = st.one_of(
    st.sampled_from(EXAMPLES), exported(),
    st.sampled_from(EXAMPLES).flatmap(mutated), exported().flatmap(mutated),
    json_values,
)


def only_descriptor_errors(call, *args):
    try:
        return call(*args)
    except DescriptorError:
        return None


def exercise(model, level):
    """Everything the workbench does with a model; only DescriptorError may escape from the core."""
    with element_cap_set_to(CAP):
        rows, details = reading.validation_rows(model)
        assert len(rows) == len(FEATURE_LEVELS)
        for _, _, dispatchable in reading.dispatchable_items(model):
            only_descriptor_errors(validate, dispatchable, level)
        for _, desc, _ in reading.tensor_descs(model):
            memory_map_figure(desc.Sizes, desc.Strides, desc.element_size, desc.TotalTensorSizeInBytes)
        only_descriptor_errors(load_model, json.dumps(model))
        loaded = only_descriptor_errors(load_model, model)
        if loaded is None:
            return None
        buffers = run_model(loaded)
        result = run_model_detailed(loaded)
        assert len(result.prints) == sum(c["type"] == "print" for c in loaded["commands"])
        for name, values in buffers.items():
            assert np.array_equal(values.view(np.uint8), result.buffers[name].view(np.uint8))
        for dispatchable in loaded["dispatchables"].values():
            cpp_snippet(dispatchable)
        return loaded


@settings(max_examples=150)
@given(models, st.sampled_from(FEATURE_LEVELS))
def test_nothing_but_descriptor_error_escapes(model, level):
    exercise(model, level)


@settings(max_examples=40)
@given(exported())
def test_exported_models_load_run_and_round_trip(model):
    loaded = exercise(model, "6_4")
    assert loaded is not None
    # normalizing is idempotent: the normalized model loads to itself
    assert load_model(loaded) == loaded


@settings(max_examples=60)
@given(st.sampled_from(EXAMPLES).map(json.dumps), st.data())
def test_truncated_text_is_a_syntax_error_with_a_position(text, data):
    cut = data.draw(st.integers(0, len(text) - 1))
    try:
        parse_model_text(text[:cut])
    except DescriptorError as error:
        assert cut == 0 or "line " in str(error) and "column " in str(error)
    else:
        raise AssertionError("a truncated model parsed")


_page = {}


def workbench_page():
    """One AppTest session of the workbench, shared by the examples (starting one costs a second)."""
    if "at" not in _page:
        at = run_through_app("app_pages/workbench/page.py", wb_cross_check=False)
        at.radio(key="wb_source").set_value("Paste JSON").run()
        _page["at"] = at
    return _page["at"]


@settings(max_examples=25)
@given(st.one_of(exported(), exported().flatmap(mutated), st.sampled_from(EXAMPLES).flatmap(mutated)))
def test_the_page_answers_every_model_without_a_traceback(model):
    at = workbench_page()
    at.text_area(key="wb_text").input(json.dumps(model)).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.success or at.error or at.warning
