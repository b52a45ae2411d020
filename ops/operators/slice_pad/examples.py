"""Every worked example of the family's API pages, as data: the inputs, the call's attributes and the output the page
prints (MicrosoftDocs/sdk-api, sdk-api-src/content/directml/; SLICE1 at 13f5245e, PADDING1 at ea42082f, TILE at
b6ccb924, REVERSE_SUBSEQUENCES at 2b9dc59b). The pages on an operator page open as presets; the tests hold the core
and DirectML itself to each output. UPSAMPLE_2D's page has no example.

Where a page's text is off, the example keeps its numbers and says so: SLICE1's Example 2 explains its start as
"InputWindowOffsets[2] + InputWindowSizes[0] - 1 = 0 + 4 - 1", where InputWindowSizes[2] is meant (the numbers are
the same); TILE's example names its output "InputTensor" too; the REVERSE_SUBSEQUENCES page calls its lengths
"SequenceTensor".
"""

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class PageExample:
    op: str
    name: str
    inputs: tuple  # numpy arrays
    attrs: dict
    output: np.ndarray


def _grid(rows, dtype=np.float32):
    return np.array(rows, dtype=dtype).reshape(1, 1, len(rows), len(rows[0]))


_SLICE_INPUT = _grid([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
_PAD_INPUT = _grid([[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8]])
_PAD_WIDTHS = {"start_padding": (0, 0, 1, 2), "end_padding": (0, 0, 3, 4)}
_REVERSE_INPUT = _grid([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])

EXAMPLES = (
    PageExample("SLICE1", "Example 1. Strided slice with positive strides", (_SLICE_INPUT,),
                {"window_offsets": (0, 0, 0, 1), "window_sizes": (1, 1, 4, 3), "window_strides": (1, 1, 2, 2)},
                _grid([[2, 4], [10, 12]])),
    PageExample("SLICE1", "Example 2. Strided slice with negative strides", (_SLICE_INPUT,),
                {"window_offsets": (0, 0, 0, 1), "window_sizes": (1, 1, 4, 3), "window_strides": (1, 1, -2, 2)},
                _grid([[14, 16], [6, 8]])),
    PageExample("PADDING1", "Example 1 (CONSTANT)", (_PAD_INPUT,),
                {"mode": "CONSTANT", "padding_value": 9, **_PAD_WIDTHS},
                _grid([[9] * 10, [9, 9, 1, 2, 3, 4, 9, 9, 9, 9], [9, 9, 5, 6, 7, 8, 9, 9, 9, 9],
                       [9, 9, 1, 2, 3, 4, 9, 9, 9, 9], [9, 9, 5, 6, 7, 8, 9, 9, 9, 9], [9] * 10, [9] * 10, [9] * 10])),
    PageExample("PADDING1", "Example 2 (EDGE)", (_PAD_INPUT,), {"mode": "EDGE", **_PAD_WIDTHS},
                _grid([[1, 1, 1, 2, 3, 4, 4, 4, 4, 4]] * 2 + [[5, 5, 5, 6, 7, 8, 8, 8, 8, 8]]
                      + [[1, 1, 1, 2, 3, 4, 4, 4, 4, 4]] + [[5, 5, 5, 6, 7, 8, 8, 8, 8, 8]] * 4)),
    PageExample("PADDING1", "Example 3 (REFLECTION)", (_PAD_INPUT,), {"mode": "REFLECTION", **_PAD_WIDTHS},
                _grid([[7, 6, 5, 6, 7, 8, 7, 6, 5, 6], [3, 2, 1, 2, 3, 4, 3, 2, 1, 2]] * 4)),
    PageExample("PADDING1", "Example 4 (SYMMETRIC)", (_PAD_INPUT,), {"mode": "SYMMETRIC", **_PAD_WIDTHS},
                _grid([[2, 1, 1, 2, 3, 4, 4, 3, 2, 1]] * 2 + [[6, 5, 5, 6, 7, 8, 8, 7, 6, 5]]
                      + [[2, 1, 1, 2, 3, 4, 4, 3, 2, 1]] + [[6, 5, 5, 6, 7, 8, 8, 7, 6, 5]] * 2
                      + [[2, 1, 1, 2, 3, 4, 4, 3, 2, 1]] + [[6, 5, 5, 6, 7, 8, 8, 7, 6, 5]])),
    PageExample("TILE", "Example", (_grid([[1, 2, 3], [4, 5, 6]]),), {"repeats": (1, 1, 3, 3)},
                _grid([[1, 2, 3, 1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6, 4, 5, 6]] * 3)),
    PageExample("TILE", "Description", (np.array([[1, 2], [3, 4]], np.float32),), {"repeats": (1, 2)},
                np.array([[1, 2, 1, 2], [3, 4, 3, 4]], np.float32)),
    PageExample("REVERSE_SUBSEQUENCES", "Example 1",
                (_REVERSE_INPUT, np.array([2, 4, 3], np.uint32).reshape(1, 1, 3, 1)), {"axis": 3},
                _grid([[2, 1, 3, 4], [8, 7, 6, 5], [11, 10, 9, 12]])),
    PageExample("REVERSE_SUBSEQUENCES", "Example 2. Reversing along a different axis",
                (_REVERSE_INPUT, np.array([2, 3, 1, 0], np.uint32).reshape(1, 1, 1, 4)), {"axis": 2},
                _grid([[5, 10, 3, 4], [1, 6, 7, 8], [9, 2, 11, 12]])),
)
