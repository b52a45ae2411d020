"""Which of n colliding SCATTER updates DirectML writes, run after run: an observation, never asserted anywhere
(DirectML's page: "there's no guarantee of which last write wins"; docs/directml.md, "Gather and scatter").

Usage: .venv/bin/python scripts/scatter_collisions.py [--runs 6] [--type FLOAT32] [n ...]

Each call is support.gather_calls.colliding_updates(n): updates 1..n (as their number, in the data type) all to
element 0, the other elements untouched. Prints a Markdown row per n: the update number DirectML kept in each run
(n is the last in row-major order, the core's choice), with the machine's cores and load before and after. Exits 2
when DirectML is not available here, 1 when an output held anything but one of the updates at element 0 and the
input elsewhere.
"""

import argparse
import os
import sys

import numpy as np

import ops
from support.gather_calls import colliding_updates

SIZES = (64, 512, 600, 1000, 2048, 5000)


def kept(n, data_type):
    """The number of the update DirectML left at element 0, or None when the output is not one of the updates
    there and the input elsewhere."""
    inputs, attrs = colliding_updates(n, ops.numpy_dtype(data_type))
    report = ops.cross_check("SCATTER", inputs, runtime="directml", **attrs)
    if not report.matches:
        return None
    numbers = np.flatnonzero(inputs[2] == report.actual[0][0]) + 1
    return int(numbers[-1]) if len(numbers) == 1 else f"{int(numbers[0])}..{int(numbers[-1])}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--type", default="FLOAT32", help="the data type (FLOAT32 holds update numbers to 2^24)")
    parser.add_argument("sizes", type=int, nargs="*", default=SIZES)
    args = parser.parse_args()
    status = ops.directml_status()
    if not status.available:
        print(status.reason, file=sys.stderr)
        return 2
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{status.provider}; {os.cpu_count()} cores, load average {load} before")
    print(f"\n| updates to one element ({args.type}) | update kept, run by run |\n| ---: | --- |")
    wrong = False
    for n in args.sizes:
        found = [kept(n, args.type) for _ in range(args.runs)]
        wrong |= None in found
        print(f"| {n:,} | " + ", ".join("NOT AN UPDATE" if k is None else f"{k:,}" if isinstance(k, int) else k
                                        for k in found) + " |")
    print(f"\nload average {' '.join(f'{x:.1f}' for x in os.getloadavg())} after")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
