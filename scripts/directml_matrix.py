"""Print the DirectML matrix (every operator x data type x setting, arbitrary bytes) as a Markdown table.

Usage: .venv/bin/python scripts/directml_matrix.py > docs/directml_matrix.md
"""

import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from ops import DML_TYPES, directml_status  # noqa: E402
from ops.runtime.directml_check import cell_text, matrix_rows  # noqa: E402

if __name__ == "__main__":
    status = directml_status()
    if not status.available:
        sys.exit(status.reason)
    rows = matrix_rows()
    cells = collections.defaultdict(dict)
    for row in rows:
        cells[(row["op"], row["setting"])][row["data_type"]] = cell_text(row["report"])
    print("# DirectML matrix\n")
    print(f"Made by `scripts/directml_matrix.py` on {status.provider}: each cell is one cross-check of arbitrary "
          "bytes (seeded), byte-compared with the reference core.\n")
    print("| operator | setting | " + " | ".join(DML_TYPES) + " |")
    print("| --- | --- |" + " --- |" * len(DML_TYPES))
    for (op, setting), by_type in cells.items():
        print(f"| {op} | {setting} | " + " | ".join(by_type[t] for t in DML_TYPES) + " |")
    counts = collections.Counter(cell_text(r["report"]).split(" (")[0].split(" at ")[0] for r in rows)
    print("\n" + ", ".join(f"{n} {what}" for what, n in counts.most_common()) + f" of {len(rows)} cells.")
