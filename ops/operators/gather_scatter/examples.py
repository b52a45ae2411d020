"""Every worked example of the family's API pages, as data: the presets a page offers and the calls the tests run on
the core and on DirectML itself. Where a page's example cannot run as printed, the example here is the nearest call
DirectML runs with the page's own numbers, and `correction` says what differs and why (each checked on DirectML 1.13:
tests/directml/test_directml_gather_scatter.py).

Sources (MicrosoftDocs/sdk-api, sdk-api-src/content/directml/), by operator: ns-directml-dml_gather_operator_desc.md
(ea899bd), ..._gather_elements_operator_desc.md (2db4b02), ..._gather_nd_operator_desc.md and
..._gather_nd1_operator_desc.md (3d7d307), ..._scatter_operator_desc.md and ..._one_hot_operator_desc.md (f88051d),
..._scatter_nd_operator_desc.md (9ade0e6).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...datatypes import numpy_dtype

PAGE = "https://learn.microsoft.com/windows/win32/api/directml/ns-directml-dml_{}_operator_desc"


@dataclasses.dataclass(frozen=True)
class Tensor:
    data_type: str
    sizes: tuple
    values: tuple  # row-major

    @property
    def array(self):
        return np.array(self.values, numpy_dtype(self.data_type)).reshape(self.sizes)


@dataclasses.dataclass(frozen=True)
class Example:
    """One worked example: `inputs` in the desc's field order, `attrs` the core's, `output` what the page prints."""

    op: str
    title: str
    inputs: tuple
    attrs: tuple  # ((name, value), ...)
    output: Tensor
    correction: str = ""

    @property
    def key(self):
        """A short stable name: gather-1, scatter-2, ..."""
        return f"{self.op.lower().replace('_', '-')}-{self.title.split('.')[0].split()[-1]}"

    @property
    def arrays(self):
        return [t.array for t in self.inputs]

    @property
    def attributes(self):
        return dict(self.attrs)

    @property
    def page(self):
        return PAGE.format(self.op.lower())


def _f32(sizes, values):
    return Tensor("FLOAT32", tuple(sizes), tuple(values))


def _u32(sizes, values):
    return Tensor("UINT32", tuple(sizes), tuple(values))


def _count(start, stop):
    return tuple(range(start, stop))


EXAMPLES = (
    Example("GATHER", "Example 1. 1D remapping", (_f32([4], [11, 12, 13, 14]), _u32([5], [3, 1, 3, 0, 2])),
            (("axis", 0), ("index_dimensions", 1)), _f32([5], [14, 12, 14, 11, 13])),
    Example("GATHER", "Example 2. 2D output, 1D indices, Axis 0, concatenate rows",
            (_f32([3, 2], _count(1, 7)), _u32([1, 4], [0, 1, 1, 2])), (("axis", 0), ("index_dimensions", 1)),
            _f32([4, 2], [1, 2, 3, 4, 3, 4, 5, 6])),
    Example("GATHER", "Example 3. 2D, Axis 1, swap columns", (_f32([3, 2], _count(1, 7)), _u32([1, 2], [1, 0])),
            (("axis", 1), ("index_dimensions", 1)), _f32([3, 2], [2, 1, 4, 3, 6, 5]),
            correction="The page writes IndexDimensions 2, with which DirectML refuses the page's {3,2} output "
                       "(E_INVALIDARG): it counts the indices' leading 1 as a dimension, so the output's sizes are "
                       "{3,1,2} cut to {1,2}, row 0 alone. Sizes {1,2} hold one dimension of indices; with "
                       "IndexDimensions 1 DirectML gives the page's output."),
    Example("GATHER", "Example 4. 2D, Axis 1, nested indices",
            (_f32([1, 3, 3], _count(1, 10)), _u32([1, 1, 2], [0, 2])), (("axis", 2), ("index_dimensions", 2)),
            _f32([3, 1, 2], [1, 3, 4, 6, 7, 9]),
            correction="The title says Axis 1; the example's Axis is 2 (of its 3 dimensions), as computed."),
    Example("GATHER", "Example 5. 2D, Axis 0, nested indices",
            (_f32([1, 3, 2], _count(1, 7)), _u32([1, 2, 2], [0, 1, 1, 2])), (("axis", 1), ("index_dimensions", 2)),
            _f32([2, 2, 2], [1, 2, 3, 4, 3, 4, 5, 6]),
            correction="The title says Axis 0; the example's Axis is 1 (of its 3 dimensions), as computed."),
    Example("GATHER_ELEMENTS", "Example 1", (_f32([3, 3], _count(1, 10)), _u32([2, 3], [1, 2, 0, 2, 0, 0])),
            (("axis", 0),), _f32([2, 3], [4, 8, 3, 7, 2, 3]),
            correction="The page gives the output DataType UINT32; an output has its input's type, FLOAT32."),
    Example("GATHER_ND", "Example 1. 1D remapping", (_f32([2, 2], _count(0, 4)), _u32([2, 1], [1, 0])),
            (("input_dimensions", 2), ("indices_dimensions", 2)), _f32([2, 2], [2, 3, 0, 1])),
    Example("GATHER_ND", "Example 2. 2D remapping",
            (_f32([1, 2, 2, 2], _count(0, 8)), _u32([1, 1, 2, 2], [0, 1, 1, 0])),
            (("input_dimensions", 3), ("indices_dimensions", 2)), _f32([1, 1, 2, 2], [2, 3, 4, 5])),
    Example("GATHER_ND1", "Example 1. 1D remapping", (_f32([2, 2], _count(0, 4)), _u32([2, 1], [1, 0])),
            (("input_dimensions", 2), ("indices_dimensions", 2), ("batch_dimensions", 0)),
            _f32([2, 2], [2, 3, 0, 1])),
    Example("GATHER_ND1", "Example 2. 2D remapping with batch count",
            (_f32([1, 3, 2, 2], _count(0, 12)), _u32([1, 3, 2, 2], [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0])),
            (("input_dimensions", 3), ("indices_dimensions", 3), ("batch_dimensions", 1)),
            _f32([1, 1, 3, 2], [0, 3, 7, 4, 9, 10])),
    Example("SCATTER", "Example 1. 1D scatter",
            (_f32([5], _count(0, 5)), _u32([4], [3, 1, 3, 0]), _f32([4], [5, 6, 7, 8])), (("axis", 0),),
            _f32([5], [8, 6, 2, 7, 4])),
    Example("SCATTER", "Example 2. 2D scatter",
            (_f32([3, 3], [0] * 9), _u32([2, 3], [1, 0, 2, 0, 2, 1]), _f32([2, 3], [10, 11, 12, 20, 21, 22])),
            (("axis", 0),), _f32([3, 3], [20, 11, 0, 10, 0, 22, 0, 21, 12]),
            correction="The page gives the input Sizes {2,3} but prints 3 rows and an output of {3,3}: the input is "
                       "{3,3} (DirectML refuses {2,3}: the output's Sizes are the input's)."),
    Example("SCATTER_ND", "Example 1",
            (_f32([8], _count(1, 9)), _u32([4, 1], [4, 3, 1, 7]), _f32([4], [9, 10, 11, 12])),
            (("input_dimensions", 1), ("indices_dimensions", 2)), _f32([8], [1, 11, 3, 10, 9, 6, 7, 12]),
            correction="The page gives the indices DataType FLOAT32, which no operator takes for indices; UINT32 "
                       "here. Its tensors' DimensionCounts differ (1, 2, 1), which the page's constraints forbid and "
                       "DirectML accepts. It names no InputDimensionCount or IndicesDimensionCount: 1 and 2."),
    Example("ONE_HOT", "Example 1", (_u32([1, 1, 3, 1], [0, 3, 2]), _f32([1, 1, 1, 2], [0, 1])),
            (("axis", 3), ("depth", 4)), _f32([1, 1, 3, 4], [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0])),
    Example("ONE_HOT", "Example 2. Using a different axis",
            (_u32([1, 1, 1, 4], [0, 2, 1, 0]), _f32([1, 1, 1, 2], [0, 1])),
            (("axis", 2), ("depth", 3)), _f32([1, 1, 3, 4], [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0])),
    Example("ONE_HOT", "Example 3. Using different on/off values",
            (_u32([1, 1, 3, 1], [0, 3, 2]), _f32([1, 1, 3, 1], [4, 2, 9])), (("axis", 3), ("depth", 4)),
            _f32([1, 1, 3, 4], [2, 4, 4, 4, 4, 4, 4, 2, 4, 4, 2, 4])),
    Example("ONE_HOT", "Example 4. Negative and out-of-bounds indices",
            (Tensor("INT32", (1, 1, 3, 1), (-3, 100, 3)), _f32([1, 1, 1, 2], [0, 1])), (("axis", 3), ("depth", 4)),
            _f32([1, 1, 3, 4], [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
)
