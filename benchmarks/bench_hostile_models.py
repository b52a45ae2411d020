"""Hostile DxDispatch models for DirectML (support/attacks.py), each refused by ops.run_model(model,
runtime="directml") before the worker computes: the median time of the refusal and the Python allocations' peak
(tracemalloc) over repeated runs, with the machine's cores and load before and after. Beside each, in the same run,
the same model with the up-front work check (ops/descriptors/on_directml.py, `_budgets`) switched off: what a
dispatch cost before it, when the work budget refused it only after the dispatch had read its tensors. Asserts
nothing (tests/unit/test_hostile_directml_models.py asserts the refusals and their memory).

Run: .venv/bin/python benchmarks/bench_hostile_models.py [--repeats N]
"""

import argparse
import os
import statistics
import time
import tracemalloc

import ops
from ops.descriptors import on_directml
from support import attacks


def refuse(text):
    try:
        ops.run_model(text, runtime="directml")
        return "RAN (not refused)"
    except ops.DescriptorError as error:
        return str(error)


def measure(text, repeats):
    """Median seconds of `repeats` refusals, then the Python allocations' peak of one more (tracemalloc slows
    allocations, so it is not on while timing)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        message = refuse(text)
        times.append(time.perf_counter() - started)
    tracemalloc.start()
    refuse(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak, message


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    status = ops.directml_status()  # the worker's start is not any refusal's
    load_before = os.getloadavg()[0]
    rows = []
    checked = on_directml._budgets
    for name, make in attacks.HOSTILE_MODELS.items():
        text = make()
        seconds, peak, message = measure(text, args.repeats)
        on_directml._budgets = lambda loaded: None
        try:
            before_seconds, before_peak, _ = measure(text, args.repeats)
        finally:
            on_directml._budgets = checked
        rows.append(f"| {name} | {len(text):,} | {before_seconds * 1000:.0f} / {before_peak / 2**20:.1f} | "
                    f"{seconds * 1000:.0f} / {peak / 2**20:.1f} | {message[:100]} |")
    print(f"{os.cpu_count()} cores, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"{status.provider or status.reason}; median of {args.repeats}\n")
    print("| attack | model bytes | without the up-front check: ms / Python peak MB | with it | message |\n"
          "| --- | ---: | ---: | ---: | --- |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
