"""Issue 24: a few attackers and a class share one freshly started server, and the class's pages keep working.

Correctness under attack is asserted (every page finishes, no exception element, attackers get messages, memory
bounded while attacked and back under the serving target after); the times of the same runs are printed by
benchmarks/bench_hostile.py, never asserted here. Every hostile input is made here.
"""

import asyncio
import threading
import urllib.parse

import pytest

from ops.descriptors.dxdispatch import MAX_TEXT_BYTES
from support.attacks import unclosed_escapes
from support.load import PAGES, GiB, PeakMemory, failures
from support.visitor import memory_of, run_visitors, served_app, upload_files
from ui.workbench_state import LINK_CODEC

pytestmark = pytest.mark.load

CLASS = [("", ""), ("depth_space", ""), ("bitwise_or", ""), ("split_join", "")]
SPLIT_ATTACK = "dtype=INT8&sj_sizes=1,1,16777216,1&sj_axis=2&sj_mode=even&sj_parts=65536"
CAP_LINK = "dtype=FLOAT64&pattern=random&seed={}&C=64&H=512&W=512"
PHISHING = urllib.parse.urlencode({"dtype": "[Click](http://evil.example/login) ![t](http://evil.example/p.png)"})


def attacks():
    freeze = urllib.parse.urlencode({"wb_source": "Paste JSON",
                                     "wb_text": LINK_CODEC.encode(unclosed_escapes(MAX_TEXT_BYTES))})
    return {
        "freeze": [("workbench", freeze)] * 3,
        "split": [("split_join", SPLIT_ATTACK)] * 3,
        "cap sizes": [("depth_space", CAP_LINK.format(seed)) for seed in range(1, 4)],
        "markup": [("depth_space", PHISHING)] * 3,
    }


def test_attackers_and_a_class_share_a_fresh_server():
    with served_app() as (url, process):
        run_visitors(url, [[page] for page in PAGES])  # every page once: the imports are paid before the attack
        uploaded = []
        spam = threading.Thread(target=lambda: uploaded.extend(asyncio.run(upload_files(
            url, [(f"spam{i}.onnx", bytes(15_000_000)) for i in range(30)], page="onnx_model"))))
        named = attacks()
        plans = list(named.values()) + [CLASS * 2 for _ in range(10)]
        with PeakMemory(process.pid) as memory:
            spam.start()
            visits = run_visitors(url, plans)
            spam.join()
        idle = memory_of(process.pid)[0]
    attack_visits, class_visits = visits[:sum(map(len, named.values()))], visits[sum(map(len, named.values())):]
    assert len(class_visits) == 10 * 2 * len(CLASS)
    assert not failures(visits), failures(visits)
    assert not [v.errors for v in class_visits if v.errors]
    # Each attack got a message naming its rule, not a traceback or a hang.
    by_page = {}
    for visit in attack_visits:
        by_page.setdefault(visit.page, []).append(visit)
    assert all(any("Unterminated string" in e for e in v.errors) for v in by_page["workbench"])
    split_visits = [v for v in by_page["split_join"]]
    assert all(any("65,536 parts" in w and "at most 12 s" in w.replace("\\", "") for w in v.warnings)
               for v in split_visits), [v.warnings for v in split_visits]
    markup = [v for v in by_page["depth_space"] if "evil" in v.query]
    assert all(any("`[Click](http://evil.example/login)" in w for w in v.warnings) for v in markup)
    assert set(uploaded) <= {204, 413} and len(uploaded) == 30
    # Bounded while attacked, and back under the serving target (docs/serving.md) once the heavy views ended.
    assert memory.peak <= 3 * GiB, memory.peak >> 20
    assert idle <= 1.5 * GiB, idle >> 20
