"""Print the ELEMENT_WISE_IDENTITY cross-check matrix (every data type x every layout preset) as a Markdown table.

Usage: python scripts/identity_matrix.py [PROVIDER]   (default: the preferred available ONNX Runtime provider)
"""

import sys

from ops.runtime.identity_check import matrix_rows, matrix_table

if __name__ == "__main__":
    rows = matrix_rows(sys.argv[1] if len(sys.argv) > 1 else None)
    print(f"Provider: {rows[0]['provider']}; {rows[0]['note'].split(' on ')[1].split(',')[1].strip()}")
    print(matrix_table(rows))
    sys.exit(0 if all(r["matches"] for r in rows) else 1)
