"""What one DirectML call may cost, estimated before the worker is asked: its work, and the memory DirectML asks for.

Work is counted in element operations. Every operator reads and writes its tensors' elements (by their Sizes, so a
broadcast input counts as the elements it is read as): that is the generic bound, linear in the tensors, and enough
for the element-wise operators, reductions, scans, data movement, fills, normalizations and resampling (a few
operations per element). The operators whose work is not linear in their tensors add the formula of WORK_FORMULAS,
keyed by schema name: matrix multiplies (output x reduced dimension), convolutions (the filter applied at every output
position, or every input position when transposed), pooling windows, ROI pooling and alignment regions, local
response windows, recurrent networks (their steps run one after another), attention (every query against every key)
and top-k (a sort of its axis). Each formula counts the multiply-adds, taps or comparisons of the operator's
definition (tests/unit/test_directml_cost.py holds them to plain loops).

WORK_BUDGET bounds the estimate. On this project's 2-core machine lavapipe does about 3e9 of a GEMM's or a
convolution's multiply-adds a second (docs/directml.md, "Running any operator"), so the budget keeps a call to a few
seconds, well inside the worker's 30 s deadline. RESOURCE_BUDGET bounds the temporary and persistent resources
DirectML asks for, known after CompileOperator and checked in the worker before either is allocated (dmlrun.c).
"""

from __future__ import annotations

import dataclasses
import math

from ...errors import DescriptorError

WORK_BUDGET = 10**10
STEP = 10**6
SEQUENTIAL = 64
RESOURCE_BUDGET = 128 << 20


class OverBudget(DescriptorError):
    """The call would cost more than a budget allows; the message names the limit."""


class _Fields:
    """A packed desc's values as the formulas read them: n(tensor) its element count (0 when left out), size(tensor,
    axis) one of its Sizes (0 when left out or short), v[name] an attribute's value, prod(array) its product."""

    def __init__(self, values):
        self.values = values

    def __getitem__(self, name):
        return self.values[name]

    def tensors(self):
        for value in self.values.values():
            for t in (value if isinstance(value, tuple) else (value,)):
                if hasattr(t, "Sizes"):
                    yield t

    def n(self, name):
        t = self.values.get(name)
        return 0 if t is None else math.prod(t.Sizes)

    def size(self, name, axis):
        t = self.values.get(name)
        if t is None or not -len(t.Sizes) <= axis < len(t.Sizes):
            return 0
        return t.Sizes[axis]

    def per_channel(self, name):
        """Elements per channel (dimension 1): the positions a filter is applied at, batches included."""
        return self.n(name) // max(1, self.size(name, 1))

    def largest(self):
        return max((math.prod(t.Sizes) for t in self.tensors()), default=0)

    def largest_plane(self):
        """The largest product of the last two sizes of any tensor: the most a 2-D region can cover."""
        return max((math.prod(t.Sizes[-2:]) for t in self.tensors()), default=0)

    def prod(self, name):
        return math.prod(self.values[name])


def _convolution(v):
    # Forward: each output position applies the filter to every input channel of its group: positions x filter
    # elements (the filter holds output channels x input channels per group x window). Transposed (Direction
    # BACKWARD, 1), each input position spreads the filter over the output the same way.
    positions = v.per_channel("InputTensor" if v.values.get("Direction") == 1 else "OutputTensor")
    return positions * v.n("FilterTensor")


def _gemm(v):
    # Output {.., M, N} x K, K being A's last dimension, or its second to last when TransA transposes it.
    return v.n("OutputTensor") * v.size("ATensor", -2 if v["TransA"] else -1)


def _matrix_multiply(v):
    return v.n("OutputTensor") * v.size("ATensor", -1)


def _pooling(v):
    # Every element of the pooled tensor (the output, or for a gradient the incoming gradient) visits a window.
    return max(v.n("OutputTensor"), v.n("InputGradientTensor")) * v.prod("WindowSize")


def _recurrent(v):
    # Input {1, sequence, batch, input size}; weights {1, directions, gates x hidden, input size}. DirectML runs the
    # steps one after another, one dispatch each, whose matrix-vector products keep few of lavapipe's lanes busy:
    # measured (an RNN of 1,000 steps, hidden size 256, 1.45 s) about STEP element operations of overhead per step
    # and SEQUENTIAL times a GEMM's time per multiply-add.
    steps = v.size("InputTensor", 1) * max(1, v.size("WeightTensor", 1))
    per_step = v.size("InputTensor", 2) * (v.n("WeightTensor") + v.n("RecurrenceTensor")) // max(1, v.size(
        "WeightTensor", 1))
    return steps * (STEP + SEQUENTIAL * per_step)


def _attention(v):
    # Every query against every key (past ones included), then the weights against every value: 2 x output x keys.
    # Key and value tensors and the stacked forms holding them keep the sequence in dimension 1, past keys in 2.
    stacked = ("KeyTensor", "ValueTensor", "StackedQueryKeyTensor", "StackedKeyValueTensor",
               "StackedQueryKeyValueTensor")
    keys = max(v.size(name, 1) for name in stacked) + v.size("PastKeyTensor", 2)
    return 2 * v.n("OutputTensor") * keys


def _roi_align(v):
    # Each output element (or gradient element) averages or maxes up to MaximumSamplesPerOutput bilinear samples of
    # four taps, at most a whole plane of them.
    return v.largest() * 4 * min(v["MaximumSamplesPerOutput"], v.largest_plane())


def _roi_pooling(v):
    return v.n("OutputTensor") * v.size("InputTensor", -1) * v.size("InputTensor", -2)


def _local_response(v):
    # A LocalSize window across channels, or a LocalSize x LocalSize one within each channel.
    return v.largest() * v["LocalSize"] ** 2


def _top_k(v):
    # A sort along the axis: input elements x log2 of the axis's size comparisons.
    return v.n("InputTensor") * max(1, v.size("InputTensor", v["Axis"])).bit_length()


WORK_FORMULAS = {
    "GEMM": _gemm,
    "MATRIX_MULTIPLY_INTEGER": _matrix_multiply,
    "QUANTIZED_LINEAR_MATRIX_MULTIPLY": _matrix_multiply,
    "MATRIX_MULTIPLY_INTEGER_TO_FLOAT": _matrix_multiply,
    "CONVOLUTION": _convolution,
    "CONVOLUTION_INTEGER": _convolution,
    "QUANTIZED_LINEAR_CONVOLUTION": _convolution,
    "AVERAGE_POOLING": _pooling,
    "AVERAGE_POOLING1": _pooling,
    "AVERAGE_POOLING_GRAD": _pooling,
    "LP_POOLING": _pooling,
    "LP_POOLING1": _pooling,
    "MAX_POOLING": _pooling,
    "MAX_POOLING1": _pooling,
    "MAX_POOLING2": _pooling,
    "MAX_POOLING_GRAD": _pooling,
    "QUANTIZED_LINEAR_AVERAGE_POOLING": _pooling,
    "ROI_POOLING": _roi_pooling,
    "ROI_ALIGN": _roi_align,
    "ROI_ALIGN1": _roi_align,
    "ROI_ALIGN_GRAD": _roi_align,
    "LOCAL_RESPONSE_NORMALIZATION": _local_response,
    "LOCAL_RESPONSE_NORMALIZATION_GRAD": _local_response,
    "RNN": _recurrent,
    "LSTM": _recurrent,
    "GRU": _recurrent,
    "MULTIHEAD_ATTENTION": _attention,
    "MULTIHEAD_ATTENTION1": _attention,
    "TOP_K": _top_k,
    "TOP_K1": _top_k,
}


@dataclasses.dataclass(frozen=True)
class Estimate:
    work: int  # element operations: every tensor's elements, plus the operator's formula where it has one
    tensor_bytes: int  # every tensor's TotalTensorSizeInBytes, inputs and outputs
    formula: str  # the WORK_FORMULAS entry used, or "" for the generic bound alone


def estimate(packed) -> Estimate:
    """The cost of running `packed` (descs.Packed) once, before DirectML is asked."""
    v = _Fields(packed.values)
    tensors = [t for t in packed.inputs + packed.outputs if t is not None]
    work = sum(math.prod(t.Sizes) for t in tensors)
    formula = WORK_FORMULAS.get(packed.schema.name)
    if formula is not None:
        work += formula(v)
    return Estimate(work, sum(t.TotalTensorSizeInBytes for t in tensors), formula.__name__.lstrip("_") if formula
                    else "")


def check(packed, budget=None) -> Estimate:
    """The estimate, or OverBudget naming the limit when its work is past WORK_BUDGET (or `budget`)."""
    budget = WORK_BUDGET if budget is None else budget
    cost = estimate(packed)
    if cost.work > budget:
        how = f"by its {cost.formula} formula" if cost.formula else "from its tensors' elements"
        raise OverBudget(f"{packed.schema.full_name}: about {cost.work:,} element operations ({how}), past the "
                         f"{budget:,} one DirectML call may take here (the work budget)")
    return cost
