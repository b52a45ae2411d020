"""Value patterns that fill a tensor so that its values are easy to follow through an operator."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ops import DescriptorError, numpy_dtype
from ops.guard import check_element_count, element_cap
from ops.tensor_desc import element_offsets

# Short labels: a widget bound to the URL writes its shown label there, so these end up in shared links.
PATTERNS = {
    "coded": "origin-coded",
    "sequence": "sequence",
    "random": "random",
    "random_bytes": "random bytes",
    "custom": "typed",
}
PATTERN_HELP = (
    "origin-coded: each value spells its index (the seed's 9c + 3h + w); sequence: start, start + delta, ...; "
    "random: values drawn uniformly; random bytes: any bit pattern (floats include NaN, -0.0, subnormals); "
    "typed: values you type or paste"
)

_TOKEN = re.compile(r"[\s,;\[\]()]+")


def origin_coded(sizes: Sequence[int]) -> np.ndarray:
    """Mixed-radix code of each element's index: the seed's 9c + 3h + w for sizes {1, 8, 2, 3}.

    The two innermost dimensions share one base, the larger of their sizes, so a value reads as
    (c, h, w) digits; outer dimensions multiply on top of that, so every value is unique.
    """
    sizes = tuple(int(s) for s in sizes)
    if len(sizes) == 1:
        return np.arange(sizes[0], dtype=np.float64)
    base = max(sizes[-1], sizes[-2])
    strides = [1, base]
    plane = base * base
    for size in reversed(sizes[:-2]):
        strides.append(plane)
        plane *= size
    # The code of an index is its offset under these strides.
    return element_offsets(sizes, strides[::-1]).astype(np.float64)


def wrap_to(values: np.ndarray, dtype: Any) -> np.ndarray:
    """Cast to dtype; integers wrap modulo 2^bits, as the bytes of a C cast would."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return values.astype(dtype)
    bits = dtype.itemsize * 8
    # Truncate toward zero first, as C does (-2.5 -> -2), then keep the low bits.
    wrapped = np.mod(np.trunc(values.astype(np.float64)), 2.0**bits).astype(np.uint64)
    return wrapped.astype(np.dtype(f"u{dtype.itemsize}")).view(dtype)


def values_count(text: str | None) -> int:
    """How many values `text` types (as parse_values splits it)."""
    return len([t for t in _TOKEN.split((text or "").strip()) if t])


def parse_values(text: str, sizes: Sequence[int], dtype: Any, field: str = "Values") -> np.ndarray:
    """Numbers separated by spaces, commas or brackets; nan/inf for floats, 0x.. hex as bit patterns."""
    dtype = np.dtype(dtype)
    count = math.prod(sizes)
    tokens = [t for t in _TOKEN.split(text.strip()) if t]
    if len(tokens) != count:
        raise DescriptorError(f"{field}: {len(tokens)} values given, but Sizes {list(sizes)} hold {count}")
    out = np.empty(count, dtype=dtype)
    bits = out.view(np.dtype(f"u{dtype.itemsize}"))
    for i, token in enumerate(tokens):
        try:
            if token.lower().startswith(("0x", "-0x")):
                pattern = int(token, 16)
                if not 0 <= pattern < 2 ** (8 * dtype.itemsize):
                    raise ValueError
                bits[i] = pattern
            elif dtype.kind == "f":
                # Out of range becomes inf or 0 as a C cast would; typed_value_notes tells the user, so numpy's
                # warning to the server log would only repeat it where nobody reads it.
                with np.errstate(over="ignore", under="ignore"):
                    out[i] = float(token)
            else:
                number = int(token)
                info = np.iinfo(dtype)
                if not info.min <= number <= info.max:
                    raise DescriptorError(
                        f"{field}[{i}] {token}: outside {dtype} range [{info.min}, {info.max}]"
                    )
                out[i] = number
        except DescriptorError:
            raise
        except (ValueError, OverflowError):
            raise DescriptorError(
                f"{field}[{i}] {token!r}: not a {dtype} number (write e.g. {examples(dtype)})") from None
    return out.reshape(sizes)


def examples(dtype: Any) -> str:
    """Numbers `dtype` takes, for a message: a uint32 hint offered -1.5, nan and inf, which it refuses."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        pattern = {2: "0x3C00", 4: "0x3F800000", 8: "0x3FF0000000000000"}[dtype.itemsize]
        return f"3, -1.5, nan, inf or {pattern}"
    top = "0x" + "F" * 2 * dtype.itemsize
    return f"3, -7 or {top}" if dtype.kind == "i" else f"3, 255 or {top}"


NOTES_SHOWN = 5


def typed_value_notes(text: str, data_type: str, field: str = "Values") -> list[str]:
    """What typed decimal numbers became when they do not fit the float type: overflow to +-inf, underflow to
    zero ('Values[0] 1e40 became +inf: FLOAT32's largest finite value is 3.4028235e+38 (overflow)').

    IEEE 754 rounds a value beyond the largest finite one to infinity and one below half the smallest subnormal
    to zero; integers out of range are refused instead (parse_values)."""
    dtype = numpy_dtype(data_type)
    if dtype.kind != "f":
        return []
    info = np.finfo(dtype)
    digits = info.precision + 2  # enough to tell the limit from its neighbours in this type
    notes = []
    for i, token in enumerate(t for t in _TOKEN.split(str(text).strip()) if t):
        if token.lower().lstrip("+-").startswith(("0x", "inf", "nan")):
            continue  # bit patterns and named values are stored as written
        try:
            exact = float(token)
        except ValueError:
            continue  # parse_values names it
        with np.errstate(over="ignore", under="ignore"):
            stored = dtype.type(exact)
        if np.isinf(stored):
            sign = "-" if stored < 0 else "+"
            notes.append(f"{field}[{i}] {token} became {sign}inf: {data_type}'s largest finite value is "
                         f"{info.max:.{digits}g} (overflow)")
        elif stored == 0 and any(ch in "123456789" for ch in token.lower().split("e")[0]):
            notes.append(f"{field}[{i}] {token} became {'-' if np.signbit(stored) else ''}0: {data_type}'s "
                         f"smallest subnormal is {info.smallest_subnormal:.{digits}g} (underflow)")
    if len(notes) > NOTES_SHOWN:
        notes = notes[:NOTES_SHOWN] + [f"... and {len(notes) - NOTES_SHOWN} more values out of {data_type}'s range"]
    return notes


def make_values(pattern: str, sizes: Sequence[int], data_type: str, *, seed: int = 0, start: float = 0,
                delta: float = 1, text: str = "") -> np.ndarray:
    """A tensor of the given sizes and DirectML type filled with the chosen pattern."""
    dtype = numpy_dtype(data_type)
    sizes = tuple(int(s) for s in sizes)
    check_element_count(sizes, "Sizes")
    if pattern == "coded":
        return wrap_to(origin_coded(sizes), dtype)
    if pattern == "sequence":
        return wrap_to(start + delta * np.arange(math.prod(sizes), dtype=np.float64), dtype).reshape(sizes)
    rng = np.random.default_rng(seed)
    if pattern == "random":
        if dtype.kind == "f":
            return rng.uniform(-8, 8, sizes).astype(dtype)
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, sizes, dtype=dtype, endpoint=True)
    if pattern == "random_bytes":
        raw = rng.integers(0, 256, math.prod(sizes) * dtype.itemsize, dtype=np.uint8)
        return raw.view(dtype).reshape(sizes)
    if pattern == "custom":
        return parse_values(text, sizes, dtype)
    raise DescriptorError(f"value pattern {pattern!r}: expected one of {', '.join(PATTERNS)}")


def parse_int_list(text: str, field: str, *, minimum: int = 1, max_count: int | None = 8) -> tuple[int, ...]:
    """'2,3' / '2 x 3' / '[2, 3]' -> (2, 3); errors name `field` and the rule."""
    tokens = [t for t in re.split(r"[\s,;x×*\[\]()]+", str(text).strip().lower()) if t]
    if not tokens:
        raise DescriptorError(f"{field}: empty; write whole numbers separated by commas, e.g. 2,3")
    values = []
    for token in tokens:
        try:
            values.append(int(token))
        except ValueError:
            raise DescriptorError(f"{field} {text.strip()!r}: {token!r} is not a whole number") from None
    if max_count is not None and len(values) > max_count:
        raise DescriptorError(f"{field} {values}: {len(values)} entries; DirectML allows at most {max_count}")
    for value in values:
        if value < minimum:
            rule = "a size of 0 is invalid in DirectML" if value == 0 and minimum == 1 else f"must be >= {minimum}"
            raise DescriptorError(f"{field} {values}: {value} is not allowed ({rule})")
    return tuple(values)


@dataclasses.dataclass(frozen=True)
class Values:
    """How a tensor's values are made: the sidebar's pattern, type and its parameters."""

    pattern: str
    data_type: str
    seed: int = 0
    start: float = 0.0
    delta: float = 1.0
    text: str = ""

    def kwargs(self) -> dict[str, Any]:
        return dict(seed=self.seed, start=self.start, delta=self.delta, text=self.text)

    def nbytes(self, shape: Sequence[int]) -> int:
        """Bytes of a tensor of `shape`; 0 past the element cap, which refuses it before anything is allocated."""
        count = math.prod(shape)
        return count * numpy_dtype(self.data_type).itemsize if 0 < count <= element_cap() else 0
