"""The workbench cross-checks every dispatch of a loaded model through the registry: any registered operator's
dispatch becomes the call ops.cross_check takes (inputs and outputs in the desc's field order, its attributes)."""

import numpy as np
import pytest

import ops
from app_pages.workbench.reading import cross_check_call
from ops import run_model
from ops.descriptors.dxdispatch import run_model_detailed
from ops.descriptors.layouts import identity_model

X = np.arange(12, dtype=np.uint8).reshape(1, 1, 3, 4) * 19
# Operators with no identity call: a call of each.
CALLS = {"SPLIT": ([X], {"axis": 2, "sizes": (1, 2)}), "ELEMENT_WISE_IDENTITY": ([X], {}),
         "ONE_HOT": ([np.array([[[[2]], [[0]]]], np.int32), X[:, :, :1, :2]], {"axis": 3, "depth": 4})}


@pytest.mark.parametrize("name", list(ops.OPERATORS))
def test_a_dispatch_of_every_operator_becomes_its_cross_check(name):
    spec = ops.OPERATORS[name]
    x = X if "UINT8" in spec.supported_types else X.astype(ops.numpy_dtype(spec.supported_types[0]))  # UPSAMPLE_2D
    # A call the operator takes: its identity where it has one, else X for each input (ELEMENT_WISE_BIT_COUNT).
    inputs, attrs = CALLS.get(name) or spec.identity_call(x, {}) or ([x] * spec.arity[0], {})
    model = ops.model_for(name, inputs, **attrs)
    [record] = run_model_detailed(model).dispatches
    call_inputs, call_attrs, expected = cross_check_call(record, model["dispatchables"][record.dispatchable])
    report = ops.cross_check(name, call_inputs, expected=expected, runtime="onnxruntime", **call_attrs)
    assert report.matches or not report.available, report.note
    if expected is not None:  # the dispatch's own outputs are what the runtime is held to
        assert [e.tobytes() for e in expected] == [o.tobytes() for o in ops.run(name, inputs, **attrs)]
    assert run_model(model)  # the model runs as DxDispatch would


def test_a_strided_copy_is_checked_whole_from_its_buffer():
    inp, out = ops.layout_preset("NCHW -> NHWC", "UINT8")
    model = identity_model(np.arange(24, dtype=np.uint8), inp, out)
    [record] = run_model_detailed(model).dispatches
    call_inputs, call_attrs, expected = cross_check_call(record, model["dispatchables"][record.dispatchable])
    assert expected is None and call_inputs[0].tolist() == list(range(24))  # the input's buffer, not its values
    report = ops.cross_check("ELEMENT_WISE_IDENTITY", call_inputs, runtime="onnxruntime", **call_attrs)
    assert report.available and report.matches, report.note
