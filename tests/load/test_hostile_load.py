"""Issues 24 and 31: attackers and a class share one freshly started server, and the class's pages keep working.

Correctness under attack is asserted (every page finishes, no exception element, attackers get messages, memory
bounded while attacked and back under the serving target after); the times of the same runs are printed by
benchmarks/bench_hostile.py, never asserted here. Every hostile input is made here.
"""

import asyncio
import threading
import urllib.parse

import pytest

from app_pages.workbench.settings import LINK_CODEC
from ops.descriptors.dxdispatch import MAX_TEXT_BYTES
from support.attacks import issue31_plans, unclosed_escapes
from support.load import PAGES, GiB, PeakMemory, failures, percentile, wait_until_idle
from support.visitor import memory_of, resident_by_process, run_visitors, served_app, upload_files

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


def test_issue_31s_attackers_and_a_class_share_a_fresh_server():
    """Issue 31: a 2 KB .onnx fan, a 33 KB link of ignored fields, a pasted model of 90,000 keys, a 20 MB paste,
    eight visitors of many-part Splits and eight of wide Depth views with distinct settings, four of a 4,096-dispatch
    workbench link, and fourteen sessions filling the uploads: the class's page runs all finish, none of them queued
    or refused, the students' uploads are taken, and memory stays bounded and returns under the serving target."""
    named = [(name, plan) for name, plans in issue31_plans().items() for plan in plans]
    attackers = [plan for _, plan in named]
    students = [CLASS * 2 for _ in range(10)]
    with served_app() as (url, process):
        run_visitors(url, [[page] for page in PAGES])
        spam, uploaded = [], []

        async def uploads():
            spam.extend(await asyncio.gather(*(upload_files(url, [(f"spam{i}.onnx", bytes(13_000_000))
                                                                  for i in range(3)], page="onnx_model")
                                               for _ in range(14))))
            uploaded.extend(await asyncio.gather(*(upload_files(url, [("model.onnx", bytes(15_000_000))],
                                                                page="onnx_model") for _ in range(5))))

        filling = threading.Thread(target=lambda: asyncio.run(uploads()))
        with PeakMemory(process.pid) as memory:
            filling.start()
            visits = run_visitors(url, attackers + students)
            filling.join()
        wait_until_idle(process.pid)
        idle = memory_of(process.pid)[0]
        holders = resident_by_process(process.pid)
    attack_visits, class_visits = visits[:sum(map(len, attackers))], visits[sum(map(len, attackers)):]
    assert len(class_visits) == 10 * 2 * len(CLASS)
    assert not failures(class_visits), failures(class_visits)
    assert not [v.errors + v.warnings for v in class_visits if v.errors or v.warnings]
    print("class page s: p50 %.2f p95 %.2f max %.2f" % (percentile([v.seconds for v in class_visits], .5),
                                                        percentile([v.seconds for v in class_visits], .95),
                                                        max(v.seconds for v in class_visits)))
    seen = {}
    visits_of = iter(attack_visits)
    for name, plan in named:
        seen.setdefault(name, []).extend(next(visits_of) for _ in plan)
    [fan] = seen["ONNX Shape->Concat fan 150 (2 KB)"]
    assert any("MB of memory it may use here" in e for e in fan.errors), fan.errors
    [flood] = seen["wb_text link: 8,900 resources x 8 unknown fields (33 KB)"]
    [keys] = seen["pasted model: 90,000 unknown keys (0.9 MB)"]
    assert flood.ok and keys.ok and flood.messages < 200 and keys.messages < 200, (flood.messages, keys.messages)
    [paste] = seen["pasted text of 20 MB"]
    assert "1009" in paste.failure  # the server closed the socket: message too big, nothing held
    heavy = ("Split: 8 visitors x 5 distinct N of 5,000-5,900 parts", "Depth: 8 visitors x 5 distinct W, C=64 H=256",
             "workbench link of 4,096 dispatches (2 KB), 4 visitors")
    assert not [failures(seen[name]) for name in heavy if failures(seen[name])]
    assert [s for statuses in uploaded for s in statuses] == [204] * 5
    print("server MB: peak %d, idle %d %s" % (memory.peak >> 20, idle >> 20, holders))
    assert memory.peak <= 3 * GiB, memory.peak >> 20
    assert idle <= 1.5 * GiB, (idle >> 20, holders)
