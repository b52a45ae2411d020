"""DirectML feature levels and each operator's support table."""

FEATURE_LEVELS = ("1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2", "6_0", "6_1", "6_2", "6_3", "6_4")


def level_name(level):
    raise NotImplementedError("being written")
