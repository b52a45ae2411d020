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
