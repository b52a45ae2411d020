"""DxDispatch's 18 DirectML models, as our own mirrors (examples/dxdispatch_models/, support/dxdispatch_models.py),
run on DirectML itself through `ops.run_model(model, runtime="directml")`: every resource a dispatch writes equals
the values computed independently in support/dxdispatch_models.py (plain loops, numpy, onnx.reference), exactly
but for the two outputs made with exp (ELU), within 1e-6 relative. Where DxDispatch's own models are on this
machine (the mirror of microsoft/DirectML), each mirror is checked to hold the same facts: operator, desc, flags,
bindings, initial values and commands, under other names."""

import json
import pathlib
import subprocess

import numpy as np
import pytest

import ops
from ops.descriptors.jsonc import rapidjson_text
from support import dxdispatch_models as models

pytestmark = pytest.mark.directml

MIRROR = pathlib.Path("/work/.mirror/microsoft+DirectML/repo")


@pytest.mark.parametrize("name", models.NAMES)
def test_each_model_runs_on_directml_and_writes_the_expected_values(directml, name):
    buffers = ops.run_model(models.text(name), runtime="directml")
    for resource, want in models.expected(name).items():
        got = buffers[resource]
        assert got.dtype == want.dtype and got.shape == want.shape
        if name in models.RELATIVE:
            np.testing.assert_allclose(got, want, rtol=models.RELATIVE[name])
        else:
            assert got.tobytes() == want.tobytes(), (resource, got, want)


def test_a_model_reading_its_values_from_a_file_is_not_run_and_says_why():
    # DxDispatch's dml_element_wise_add_npy.json reads A from a .npy and B from a .dat by sourcePath.
    model = json.loads(rapidjson_text(models.text("element_wise_add"), 64))
    model["resources"]["left"] = {"initialValues": {"sourcePath": "left.npy"}}
    inspection = ops.inspect_model(json.dumps(model))
    (left,) = [part for part in inspection.resources if part.name == "left"]
    assert left.status == "not modelled here" and "which this app never reads" in left.reason


def canonical(model):
    """A normalized model with its resources and dispatchables renamed by first use, so two models holding the
    same facts under other names compare equal."""
    names = {}

    def rename(name):
        return names.setdefault(name, f"resource{len(names)}")

    def bound(bindings):
        renamed = {}
        for field in sorted(bindings):
            value = bindings[field]
            items = value if isinstance(value, list) else [value]
            items = [dict(item, name=rename(item["name"])) for item in items]
            renamed[field] = items if isinstance(value, list) else items[0]
        return renamed

    dispatchables = {}
    for number, (name, dispatchable) in enumerate(model["dispatchables"].items()):
        dispatchables[name] = f"dispatchable{number}"
        if "bindings" in dispatchable:
            dispatchable = dict(dispatchable, bindings=bound(dispatchable["bindings"]))
        model["dispatchables"][name] = dispatchable
    commands = []
    for command in model["commands"]:
        command = dict(command)
        if "bindings" in command:
            command["bindings"] = bound(command["bindings"])
            command["dispatchable"] = dispatchables[command["dispatchable"]]
        if "resource" in command:
            command["resource"] = rename(command["resource"])
        commands.append(command)
    return {"resources": {rename(n): r for n, r in model["resources"].items()},
            "dispatchables": {dispatchables[n]: d for n, d in model["dispatchables"].items()},
            "commands": commands}


@pytest.mark.skipif(not MIRROR.exists(), reason="DxDispatch's models are not on this machine (no mirror)")
@pytest.mark.parametrize("name", models.NAMES)
def test_each_mirror_holds_the_facts_of_dxdispatchs_model(name):
    theirs = subprocess.run(["git", "-C", str(MIRROR), "show", f"{models.COMMIT}:DxDispatch/models/dml_{name}.json"],
                            capture_output=True, text=True, check=True).stdout
    assert canonical(ops.load_model(models.text(name))) == canonical(ops.load_model(theirs))
    assert models.text(name).startswith(f"// Mirrors DxDispatch's models/dml_{name}.json (microsoft/DirectML a9614e82)")
