"""Run every operator's catalogue example (ops/catalogue) on DirectML and compare each with its ONNX twin; write the
matrix as Markdown.

Usage: .venv/bin/python scripts/directml_catalogue.py [--output docs/directml_catalogue.md]

Exits 2 without writing when DirectML is not available here (scripts/setup_directml.sh sets it up), 1 when an
operator does something ops/runtime/catalogue.py's KNOWN does not say (a refusal, a twin that disagrees).
"""

import collections
import os
import sys

import numpy as np

from ops import DescriptorError, run_model, schema
from ops.runtime import catalogue as runs
from ops.runtime.catalogue import ABOVE_LEVEL, KNOWN, NOT_SENT, RAN, REFUSED
from support import dxdispatch_models, generated_docs
from support.paths import ROOT

OUTPUT = ROOT / "docs" / "directml_catalogue.md"


def expected(row):
    """Whether the row is what the catalogue expects: a run that agrees with its twin, a refusal only where KNOWN
    names it, an operator past this DirectML's feature level refused before it is sent."""
    known = KNOWN.get(row.name, (None,))[0]
    if row.outcome == RAN:
        agrees = row.twin is None or row.twin.agrees
        return agrees if known is None else (known == "differs" and not agrees)
    return row.outcome == ABOVE_LEVEL or known == row.outcome


def twin_cells(row):
    if row.twin is None:
        return ("", "", "")
    t = row.twin
    verdict = "agrees" if t.agrees else "**differs**"
    worst = max(t.differences, key=lambda d: d.ulps)
    largest = "0" if worst.index is None else f"{worst.ulps:g} at {worst.output}[{', '.join(map(str, worst.index))}]"
    return (f"{t.ops} ({'ORT' if t.runtime == 'ONNX Runtime' else t.runtime}): {verdict}", largest,
            "exact" if t.tolerance.ulps == 0 else f"{t.tolerance.ulps:g} {t.tolerance.unit}")


def table(rows):
    notes = {}
    lines = ["| value | operator | level | outcome | ms | ONNX twin | largest difference | tolerance |",
             "| ---: | --- | --- | --- | ---: | --- | --- | --- |"]
    for row in rows:
        outcome = row.outcome
        text = row.reason or (row.no_twin if row.twin is None and "no ONNX twin here" not in row.no_twin else "")
        if row.name in KNOWN:
            text = (text + ". " if text else "") + "Diagnosis: " + KNOWN[row.name][1]
        if text:
            outcome += f" [{notes.setdefault(text, len(notes) + 1)}]"
        cells = twin_cells(row)
        lines.append(f"| {schema.schema(row.name).code} | {row.name} | {row.level} | {outcome} | "
                     f"{row.seconds * 1000:.0f} | " + " | ".join(cells) + " |")
    return "\n".join(lines), [f"[{n}] {text}" for text, n in notes.items()]


def shown(values, limit=6):
    text = ", ".join(f"{float(v):g}" for v in values[:limit])
    return text + (f", ... ({len(values)})" if len(values) > limit else "")


def models_table():
    """DxDispatch's 18 DirectML models (our mirrors) on DirectML: what each dispatch wrote against the values
    support/dxdispatch_models.py computes independently."""
    lines = ["| model (mirrors dml_*.json) | operator | resource | DirectML wrote | expected | largest difference | "
             "verdict |", "| --- | --- | --- | --- | --- | ---: | --- |"]
    wrong = []
    for name in dxdispatch_models.NAMES:
        text = dxdispatch_models.text(name)
        operator = text.split('"type": "DML_OPERATOR_')[1].split('"')[0]
        try:
            buffers = run_model(text, runtime="directml")
        except DescriptorError as error:
            lines.append(f"| {name} | {operator} | | refused: {error} | | | refused |")
            wrong.append(name)
            continue
        for resource, want in dxdispatch_models.expected(name).items():
            got = buffers[resource]
            largest, _ = dxdispatch_models.largest_difference(got, want)
            relative = dxdispatch_models.RELATIVE.get(name)
            if got.tobytes() == want.tobytes():
                verdict = "exact"
            elif relative and np.allclose(got, want, rtol=relative, atol=0):
                verdict = f"within {relative:g} relative"
            else:
                verdict, _ = "**differs**", wrong.append(name)
            lines.append(f"| {name} | {operator} | {resource} | {shown(got)} | {shown(want)} | {largest:.3g} | "
                         f"{verdict} |")
    return "\n".join(lines), wrong


def main():
    args, status = generated_docs.start(__doc__, OUTPUT)
    if status is None:
        return 2
    load_before = os.getloadavg()[0]
    matrix = runs.run_all(progress=lambda row: print(f"{row.name:45s} {row.outcome} {row.seconds:.2f} s",
                                                     file=sys.stderr))
    models, wrong_models = models_table()
    load_after = os.getloadavg()[0]
    rows = matrix.rows
    counts = collections.Counter(row.outcome for row in rows)
    ran = [row for row in rows if row.outcome == RAN]
    twins = [row for row in ran if row.twin is not None]
    agree = sum(row.twin.agrees for row in twins)
    refused = [row.name for row in rows if row.outcome in (REFUSED, NOT_SENT)]
    above = [row.name for row in rows if row.outcome == ABOVE_LEVEL]
    supported = len(rows) - len(above)
    unexpected = [row.name for row in rows if not expected(row)] + wrong_models
    body, notes = table(rows)
    differ = "differs" if len(twins) - agree == 1 else "differ"
    slowest = sorted(rows, key=lambda row: row.seconds, reverse=True)[:3]
    text = f"""<!-- Generated by: .venv/bin/python scripts/directml_catalogue.py (do not edit by hand) -->
# DirectML operator catalogue

Every operator of [DirectML's schema](schema.md) run from its catalogue example (`ops/catalogue`: a minimal desc
generated from the schema, with the per-operator rules of `ops/catalogue/rules.py`) on {status.provider}, and
compared with its ONNX twin (`ops/runtime/onnx_twins.py`) on ONNX Runtime, or onnx.reference where ONNX Runtime
has no kernel. Made by `scripts/directml_catalogue.py`; `tests/directml/test_directml_catalogue.py` runs the same
catalogue in CI.

**{len(rows)} operators: {len(ran)} of the {supported} up to feature level {status.max_feature_level} ran, \
{len(refused)} refused by DirectML ({", ".join(refused) or "none"}), {len(above)} introduced after \
{status.max_feature_level} refused before they are sent ({", ".join(above)}).** Of those that ran, {len(twins)} \
have an ONNX twin: {agree} agree within their tolerance, {len(twins) - agree} {differ} \
({", ".join(row.name for row in twins if not row.twin.agrees) or "none"}); {len(ran) - len(twins)} have none. \
{"Nothing unexpected." if not unexpected else "UNEXPECTED: " + ", ".join(unexpected) + "."}

The run took {matrix.seconds:.0f} s on {os.cpu_count()} cores (load average {load_before:.1f} before, \
{load_after:.1f} after; the slowest: {", ".join(f"{row.name} {row.seconds:.1f} s" for row in slowest)}: \
a first compilation), in {matrix.workers} worker, whose resident memory went from {matrix.start_mb:.0f} MB at its \
start to {matrix.peak_mb:.0f} MB at its peak.

Tolerances (`onnx_twins.py`; Vulkan's "Precision and Operation of SPIR-V Instructions" and Direct3D's \
floating-point rules): exact for data movement, selection, comparisons and integer arithmetic; 2 ULPs for +, -, * \
(a chain of two); 4 for division and square roots; 16 ULPs of max(|value|, 1) for exp, log and what is built on them; \
4096 ULPs of max(|value|, 1) for trigonometric functions (sin and cos within 2^-11 absolute, atan 4096 ULP); 64 ULPs \
of the output's largest magnitude for sums of many terms; 1 unit for integers rounded from float arithmetic.

{body}

""" + "\n".join(f"{note}  " for note in notes) + f"""

## DxDispatch's 18 DirectML models

Our own mirrors of the DirectML models in DxDispatch's `models/` folder (microsoft/DirectML \
{dxdispatch_models.COMMIT[:8]}; `examples/dxdispatch_models/`, each holding the same operator, desc, flags, bindings \
and values), run by `ops.run_model(model, runtime="directml")`, each resource a dispatch writes against the values \
`support/dxdispatch_models.py` computes independently (plain loops, numpy, onnx.reference). \
`dml_element_wise_add_npy.json` reads its inputs from files by `sourcePath`: this app never reads files, so it has \
no mirror (`ops.inspect_model` says so).

{models}
"""
    args.output.write_text(text)
    print(f"{len(rows)} operators: " + ", ".join(f"{n} {what}" for what, n in counts.most_common()) +
          f"; twins {agree}/{len(twins)} agree; {matrix.seconds:.0f} s; peak {matrix.peak_mb:.0f} MB")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
