"""Issue 31, points 3 and 5: the budgets see the real work. Each heavy path of the app, fed the hostile corpus, runs
in a fresh interpreter (support/costs.py): its peak memory and CPU time are measured beside what the view reserved
from the work budget and the heavy lane before it started (the page's estimate and its cross-checks' added up).

The bound must hold for each: the measured peak within the estimated bytes, the measured CPU within the estimated
seconds. An estimate far above the cost is a fault too (a 5,000-part Split was estimated at 10 s and cost 1.1 s):
it is held to a few times the measure. A view's base work (about 0.1 s, its page's widgets and text) runs at once
whatever its estimate, so the CPU bound allows BASE_SECONDS over the estimate (and STRETCH for a machine shared with
other work); and small objects below the work budget's accounting (serve.budget, 8 MB) are allowed as BASE_BYTES.

Times are CPU seconds of the server's own process: the DirectML worker's time is its own process's (and its memory
is bounded by its own limit, ops/runtime/directml/process.py). About 50 s in all on 2 cores.
"""

import json

import numpy as np
import pytest

from app_pages.workbench.settings import LINK_CODEC
from ops import origin_coded_input
from ops.detective.origin import to_npy_bytes
from ops.operators.depth_space import depth_to_space
from support import attacks as t
from support.costs import view_cost

MiB = 1 << 20
BASE_SECONDS = 0.25
BASE_BYTES = 16 * MiB
OVER = 6  # an estimate may be at most this many times its measure (plus the base)
# CPU seconds stretch when other work shares the machine's cores and caches: up to 1.5x measured here (2 cores, load
# average 8-10 from other jobs) against a quiet machine. Order-of-magnitude misses (25x, 10x) stay caught.
STRETCH = 1.5


def workbench(text):
    return "wb_source=Paste+JSON&wb_tab=Run&wb_text=" + LINK_CODEC.encode(text)


def large_identity_model(dispatches):
    count = 2**20
    return json.dumps({
        "resources": {"in": {"initialValuesDataType": "FLOAT32",
                             "initialValues": {"valueCount": count, "valueStart": 0, "valueDelta": 1}},
                      "out": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": count, "value": 0}}},
        "dispatchables": {"copy": {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {
            "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 16, 256, 256]},
            "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 16, 256, 256]}}}},
        "commands": [{"type": "dispatch", "dispatchable": "copy",
                      "bindings": {"InputTensor": "in", "OutputTensor": "out"}}] * dispatches})


def detective_upload():
    sizes = (1, 16, 256, 256)
    output = depth_to_space(origin_coded_input(sizes, "FLOAT32"), 2, "COLUMN_ROW_DEPTH")
    return ("out.npy", to_npy_bytes(np.ascontiguousarray(output)))


CORPUS = {
    "Depth, FLOAT32 {1,64,256,500} (estimated at 0.3 s before)": ("depth_space", t.wide_depth_space(500), None),
    "Depth, FLOAT64 {1,64,512,512}, the cap": ("depth_space", "dtype=FLOAT64&pattern=random&seed=1&C=64&H=512&W=512",
                                               None),
    "Split, 5,003 parts (estimated at 10 s before)": ("split_join", t.many_parts_split(5003), None),
    "Split, 20,000 parts": ("split_join", t.many_parts_split(20_000), None),
    "Bitwise, UINT32 {1,1,4096,4096} (7.9 s, estimated at 0.8 s before)": (
        "bitwise_or", "dtype=UINT32&or_sizes=1,1,4096,4096", None),
    "workbench, 4,096 dispatches (estimated at 0.05 s before)": ("workbench", workbench(t.many_dispatches_model(4096)),
                                                                None),
    "workbench, 5 dispatches of 2^20 FLOAT32": ("workbench", workbench(large_identity_model(5)), None),
    "workbench, 8,900 resources x 8 ignored fields (unadmitted before)": (
        "workbench", workbench(t.unknown_fields_model(8900, 8)), None),
    "detective, an upload of 2^20 FLOAT32 outputs": ("detective", "dt_source=upload&dt_sizes=1,16,256,256",
                                                     detective_upload),
    "ONNX model, an upload of a Shape->Concat fan (1.1 GB before)": ("onnx_model", "onx_source=upload",
                                                                     lambda: ("fan.onnx", t.shape_fan(150))),
}


@pytest.mark.parametrize("name", list(CORPUS))
def test_a_heavy_path_costs_what_it_was_admitted_for(name):
    page, query, upload = CORPUS[name]
    cost = view_cost(page, query, upload=upload() if upload else None)
    assert not cost["exception"], cost
    shown = f"{name}: {cost}"
    assert cost["grown"] <= cost["bytes"] + BASE_BYTES, shown
    assert cost["cpu"] <= STRETCH * cost["seconds"] + BASE_SECONDS, shown
    assert cost["seconds"] <= OVER * cost["cpu"] + BASE_SECONDS, shown
