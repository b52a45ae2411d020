"""The operator catalogue (ops/catalogue): an example of every schema operator, generated from the schema with the
rules of ops/catalogue/rules.py, valid as the schema, the packer and the budgets see it, reproducible, and every
rule naming fields its operator has and saying where it comes from. DirectML's own verdict on each example is
tests/directml/test_directml_catalogue.py's."""

import json

import numpy as np
import pytest

from ops import catalogue, schema
from ops.catalogue.rules import RULES
from ops.descriptors.dxdispatch import _load
from ops.descriptors.on_directml import runtime_desc
from ops.runtime.directml import cost, pack
from ops.tensor_desc import strided_read

SOURCES = ("page", "twin", "observed", "math", "choice", "not run here")


def test_every_schema_operator_has_an_example_in_type_order():
    assert catalogue.names() == tuple(schema.SCHEMAS)
    assert [e.name for e in catalogue.examples()] == list(schema.SCHEMAS)


@pytest.mark.parametrize("name", catalogue.names())
def test_each_example_packs_fits_the_budgets_and_carries_every_input(name):
    example = catalogue.example(name)
    packed = pack(example.desc)  # the schema's rules: every required field, counts, types, enums
    cost.check(packed)
    buffers = example.buffers()
    for field, tensors in zip(packed.input_names, packed.inputs):
        base, _, index = field.partition("[")
        if tensors is None:
            assert base not in example.inputs
            continue
        data = buffers[base][int(index[:-1])] if index else buffers[base]
        assert len(data) == tensors.TotalTensorSizeInBytes
        values = example.inputs[base][int(index[:-1])] if index else example.inputs[base]
        assert values.shape == tensors.Sizes and values.dtype == tensors.dtype
        flat = np.frombuffer(data, tensors.dtype, catalogue.buffer_elements(tensors))
        np.testing.assert_array_equal(strided_read(flat, tensors.Sizes, tensors.Strides), values)
    assert example.page.endswith(f"ns-directml-dml_{name.lower()}_operator_desc.md")


def test_examples_are_the_same_every_time_and_differ_between_operators():
    first = catalogue.example("ELEMENT_WISE_ADD")
    again = catalogue._generate(first.schema, RULES.get("ELEMENT_WISE_ADD") or catalogue.Rule(""), None)
    assert {k: v.tobytes() for k, v in first.inputs.items()} == {k: v.tobytes() for k, v in again.inputs.items()}
    other = catalogue.example("ELEMENT_WISE_SUBTRACT")
    assert first.inputs["ATensor"].tobytes() != other.inputs["ATensor"].tobytes()


def test_an_operator_without_a_rule_takes_the_schemas_defaults():
    example = catalogue.example("ACTIVATION_LEAKY_RELU")
    assert example.rule is None
    assert example.desc.fields["Alpha"] == 0.5
    assert example.desc.fields["InputTensor"].Sizes == catalogue.rules.DEFAULT_SHAPE
    pooling = catalogue.example("MAX_POOLING").desc.fields  # the identity geometry
    assert pooling["WindowSize"] == [1, 1] and pooling["Strides"] == [1, 1] and pooling["StartPadding"] == [0, 0]
    rounding = catalogue.example("ELEMENT_WISE_ROUND").desc.fields
    assert rounding["RoundingMode"] == schema.ENUMS["DML_ROUNDING_MODE"].names[0]  # an enum's first member
    assert "ScaleBias" not in catalogue.example("ELEMENT_WISE_EXP").desc.fields  # optional: left out


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_rule_names_its_operators_fields_and_its_source(name):
    rule = RULES[name]
    fields = {f.name for f in schema.schema(name).fields}
    for part in (rule.shapes, rule.types, rule.strides, rule.fields, rule.values):
        assert set(part) - {"*"} <= fields
    assert rule.source.startswith(SOURCES), rule.source


def test_values_stay_in_the_domain_the_rule_gives():
    log = catalogue.example("ELEMENT_WISE_LOG").inputs["InputTensor"]
    assert log.min() >= 0.125 and log.max() < 4
    indices = catalogue.example("GATHER").inputs["IndicesTensor"]
    assert indices.dtype == np.uint32 and indices.max() < 4
    scale = catalogue.example("ELEMENT_WISE_QUANTIZE_LINEAR").tensor("ScaleTensor")
    assert scale.Strides == (0, 0, 0, 0) and scale.TotalTensorSizeInBytes == 4  # one value, broadcast


@pytest.mark.parametrize("name", catalogue.names())
def test_each_example_as_a_dxdispatch_model_reads_back_as_the_same_desc_and_values(name):
    example = catalogue.example(name)
    loaded = _load(json.dumps(example.model()))  # through JSON text, as a visitor would paste it
    (dispatchable,) = loaded.dispatchables.values()
    assert pack(runtime_desc(dispatchable.desc)).wire == pack(example.desc).wire
    for field, data in example.buffers().items():
        for i, part in enumerate(data if isinstance(data, list) else [data]):
            resource = loaded.resources[f"{field}{i}" if isinstance(data, list) else field]
            assert resource.values.tobytes() == part[:resource.values.nbytes]
