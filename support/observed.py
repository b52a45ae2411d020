"""What DirectML itself was observed to write where its documentation is silent: the core models it (tests/unit
checks the core against these bytes) and DirectML must still write it (tests/directml asks DirectML again)."""

SHIFTS = ["ELEMENT_WISE_BIT_SHIFT_LEFT", "ELEMENT_WISE_BIT_SHIFT_RIGHT"]

# Bytes DirectML 1.13 (feature level 6_2, on vkd3d-proton and lavapipe) wrote for shifts of one element (its top and
# bottom bits set) by amounts up to and past its width, as rows (DataType, element, amounts, shifted left, shifted
# right); docs/directml.md, "Shifts past the width".
SHIFTS_PAST_THE_WIDTH = [
    ("UINT8", 0x8B, [0, 1, 7, 8, 31, 32, 33, 255],
     [0x8B, 0x16, 0x80, 0x00, 0x00, 0x8B, 0x16, 0x00], [0x8B, 0x45, 0x01, 0x00, 0x00, 0x8B, 0x45, 0x00]),
    ("UINT16", 0x800B, [15, 16, 32, 33, 256],
     [0x8000, 0x0000, 0x800B, 0x0016, 0x800B], [0x0001, 0x0000, 0x800B, 0x4005, 0x800B]),
    ("UINT32", 0x8000000B, [31, 32, 33, 35, 64, 255],
     [0x80000000, 0x8000000B, 0x16, 0x58, 0x8000000B, 0x80000000], [1, 0x8000000B, 0x40000005, 0x10000001,
                                                                      0x8000000B, 1]),
    ("UINT64", 0x800000000000000B, [63, 64, 65, 128, 255, 2**32, 2**32 + 1, 2**63],
     [0x8000000000000000, 0xB00000000, 0x1600000000, 0xB00000000, 0x8000000000000000, 0x800000000000000B, 0x16,
      0x800000000000000B],
     [1, 0x80000000, 0x40000000, 0x80000000, 1, 0x800000000000000B, 0x4000000000000005, 0x800000000000000B]),
]

# Bytes DirectML 1.13 (feature level 6_2, on vkd3d-proton and lavapipe) wrote for the gather and scatter family where
# its pages are silent: indices past their axes, counted from the end, past 32 bits, the buffer's padding, colliding
# updates, the shapes the pages do not describe (docs/directml.md, "Gather and scatter"). Rows (operator, what, inputs
# as (numpy type, sizes, values), attributes, the output's values in row-major order).
GATHER_SCATTER = [
    ("GATHER", "UINT32 indices past the axis",
     [("float32", (5,), [10, 11, 12, 13, 14]), ("uint32", (6,), [0, 4, 5, 2**31, 2**32 - 5, 2**32 - 1])],
     {"axis": 0, "index_dimensions": 1}, [10, 14, 14, 14, 14, 14]),
    ("GATHER", "INT32 indices from the end",
     [("float32", (5,), [10, 11, 12, 13, 14]), ("int32", (6,), [-1, -5, -6, -10, 5, -2**31])],
     {"axis": 0, "index_dimensions": 1}, [14, 10, 14, 14, 14, 14]),
    ("GATHER", "INT64 indices past 32 bits",
     [("float32", (5,), [10, 11, 12, 13, 14]),
      ("int64", (6,), [2**32, 2**32 + 1, 2**33 + 2, -2**32, -2**32 - 3, 2**63 - 1])],
     {"axis": 0, "index_dimensions": 1}, [10, 11, 12, 14, 12, 14]),
    ("GATHER", "UINT64 indices with bit 63 set",
     [("float32", (5,), [10, 11, 12, 13, 14]), ("uint64", (5,), [2**32, 2**32 + 1, 2**64 - 5, 2**64 - 3, 2**63 + 2])],
     {"axis": 0, "index_dimensions": 1}, [10, 11, 10, 12, 14]),
    ("GATHER", "indices past the axis read on into the next rows",
     [("float32", (3, 4), list(range(12))), ("uint32", (1, 3), [7, 1, 4])],
     {"axis": 1, "index_dimensions": 1}, [7, 1, 4, 11, 5, 8, 11, 9, 11]),
    ("GATHER", "and into the buffer's padding",
     [("uint8", (3,), [1, 2, 3]), ("uint32", (3,), [5, 3, 2])], {"axis": 0, "index_dimensions": 1}, [0, 0, 3]),
    ("GATHER", "input dimensions cut off by IndexDimensions are read at 0",
     [("float32", (2, 3, 2), list(range(12))), ("uint32", (1, 2, 2), [0, 2, 1, 1])],
     {"axis": 1, "index_dimensions": 2}, [0, 1, 4, 5, 2, 3, 2, 3]),
    ("GATHER_ELEMENTS", "an input axis of size 1 ignores the index",
     [("float32", (1, 3), [10, 11, 12]), ("uint32", (2, 3), [0, 3, 1, 5, 1, 2])], {"axis": 0},
     [10, 11, 12, 10, 11, 12]),
    ("GATHER_ND1", "batches past the input's read on",
     [("float32", (2, 4), list(range(8))), ("uint32", (3, 1), [2, 1, 3])],
     {"input_dimensions": 2, "indices_dimensions": 2, "batch_dimensions": 1}, [2, 5, 7]),
    ("SCATTER", "updates past the output's buffer are dropped",
     [("float32", (6,), [100, 101, 102, 103, 104, 105]), ("uint32", (3,), [9, 2**31, 0]),
      ("float32", (3,), [1, 2, 3])], {"axis": 0}, [3, 101, 102, 103, 104, 105]),
    ("SCATTER", "INT32 indices from the end, and past it into the previous row",
     [("float32", (2, 4), [100, 101, 102, 103, 104, 105, 106, 107]), ("int32", (2, 2), [-1, -6, -3, -5]),
      ("float32", (2, 2), [1, 2, 3, 4])], {"axis": 1}, [100, 101, 102, 4, 104, 3, 106, 107]),
    ("SCATTER", "64 colliding updates: the last stays",
     [("float32", (64,), [0] * 64), ("uint32", (64,), [0] * 64), ("float32", (64,), list(range(1, 65)))],
     {"axis": 0}, [64] + [0] * 63),
    ("SCATTER_ND", "tuples from the end, one past 32 bits",
     [("float32", (2, 3), [100, 101, 102, 103, 104, 105]), ("int64", (3, 2), [-1, -1, 0, -3, -2**32 - 2, 1]),
      ("float32", (1, 3), [1, 2, 3])], {"input_dimensions": 2, "indices_dimensions": 2}, [2, 3, 102, 103, 104, 1]),
    ("ONE_HOT", "INT64 indices past 32 bits",
     [("int64", (5, 1), [2**32, -1, -2**32 - 1, 2**62 + 2, -5]), ("float32", (2,), [0, 1])], {"axis": 1, "depth": 4},
     [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]),
    ("ONE_HOT", "UINT64 indices compared whole",
     [("uint64", (4, 1), [2**32, 2**64 - 1, 2**63 + 1, 3]), ("float32", (2,), [0, 1])], {"axis": 1, "depth": 4},
     [0] * 15 + [1]),
]

# REVERSE_SUBSEQUENCES with lengths past the axis (its page: "as if the value were clamped to the maximum"). Each
# row: the lengths tensor's type, the lengths of 7 lines of 5 elements each (the line k holds 5k + 1 ... 5k + 5), and
# which element (1 to 5) DirectML 1.13 wrote at each position of each line, for FLOAT32, UINT8, INT64, FLOAT16 and
# UINT16 data alike: it reads a length's low 32 bits and clamps the index it reads, L - 1 - i, to the line's last
# element; it does not clamp the length (docs/directml.md, "Slice, pad and tile").
REVERSE_PAST_THE_AXIS = [
    ("UINT32", [5, 6, 7, 9, 100, 2**31, 2**32 - 1],
     [[5, 4, 3, 2, 1], [5, 5, 4, 3, 2], [5, 5, 5, 4, 3], [5, 5, 5, 5, 5], [5, 5, 5, 5, 5], [5, 5, 5, 5, 5],
      [5, 5, 5, 5, 5]]),
    ("UINT64", [2**32 + 6, 2**40 + 9, 2**32, 2**64 - 1, 5 + 2**35, 3, 2**32 + 2],
     [[5, 5, 4, 3, 2], [5, 5, 5, 5, 5], [1, 2, 3, 4, 5], [5, 5, 5, 5, 5], [5, 4, 3, 2, 1], [3, 2, 1, 4, 5],
      [2, 1, 3, 4, 5]]),
]

# PADDING1 on [10, 20, 30] (and its first one or two elements) with pads wider than the input and on a size-1
# dimension, as DirectML 1.13 wrote them: (mode, input, start, end, output). Its page allows the wide pads and folds
# them periodically; it says nothing of a size-1 dimension, whose one element every mirror mode repeats.
PADDING_WIDE_AND_SIZE_ONE = [
    ("REFLECTION", [10, 20, 30], 7, 8, [20, 30, 20, 10, 20, 30, 20, 10, 20, 30, 20, 10, 20, 30, 20, 10, 20, 30]),
    ("SYMMETRIC", [10, 20, 30], 7, 8, [10, 10, 20, 30, 30, 20, 10, 10, 20, 30, 30, 20, 10, 10, 20, 30, 30, 20]),
    ("EDGE", [10, 20, 30], 7, 8, [10] * 8 + [20] + [30] * 9),
    ("REFLECTION", [10, 20], 5, 5, [20, 10] * 6),
    ("SYMMETRIC", [10, 20], 5, 5, [10, 10, 20, 20] * 3),
    ("REFLECTION", [10], 2, 3, [10] * 6),
    ("SYMMETRIC", [10], 2, 3, [10] * 6),
    ("EDGE", [10], 2, 3, [10] * 6),
]

# PADDING1's PaddingValue given as the raw 8 bytes of its DML_SCALAR_UNION, and the bit pattern DirectML 1.13 wrote:
# (PaddingValueDataType, union bytes, element written). A type narrower than 32 bits is read from the union's low 32
# bits, saturated to all ones when they exceed the type (0x000001FE as UINT8 gives 0xFF, not 0xFE); the upper 32
# bits are ignored; 32- and 64-bit types read their own bytes. DxDispatch and the core zero the bytes a value does not
# use, so only a hand-packed union meets this.
SCALAR_UNION_READS = [
    ("UINT8", bytes.fromhex("fe00000000000000"), 0xFE),
    ("UINT8", bytes.fromhex("fe01000000000000"), 0xFF),
    ("UINT8", bytes.fromhex("fe00000001000000"), 0xFE),
    ("UINT8", bytes.fromhex("fe00008000000000"), 0xFF),
    ("INT8", bytes.fromhex("feffffffffffffff"), 0xFF),
    ("INT8", bytes.fromhex("7f01000000000000"), 0xFF),
    ("UINT16", bytes.fromhex("feff010000000000"), 0xFFFF),
    ("INT16", bytes.fromhex("feff000000000000"), 0xFFFE),
    ("FLOAT16", bytes.fromhex("017c000000000000"), 0x7C01),
    ("FLOAT16", bytes.fromhex("003c010000000000"), 0xFFFF),
    ("FLOAT16", bytes.fromhex("003c0000aaaaaaaa"), 0x3C00),
    ("FLOAT32", bytes.fromhex("0100807faaaaaaaa"), 0x7F800001),
    ("UINT32", bytes.fromhex("feffffff01010101"), 0xFFFFFFFE),
]

# UPSAMPLE_2D (NEAREST_NEIGHBOR, ScaleSize {1, 1}) on FLOAT16 bit patterns, as DirectML 1.13 wrote them: (element,
# written). Signalling NaNs arrive quiet, sign and payload kept; quiet NaNs, infinities, -0.0, subnormals and numbers
# keep every bit. FLOAT32 keeps signalling NaNs (docs/directml.md).
UPSAMPLE_FLOAT16_NANS = [(0x7C01, 0x7E01), (0xFC01, 0xFE01), (0x7DFF, 0x7FFF), (0x7E05, 0x7E05), (0xFE00, 0xFE00),
                         (0x7C00, 0x7C00), (0x8000, 0x8000), (0x0001, 0x0001), (0x03FF, 0x03FF), (0x3E00, 0x3E00)]
