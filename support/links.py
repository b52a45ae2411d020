"""Views for the link tests (AppTest and Chromium): each page's presets and a starting view far from all of
them, so a preset has to set every setting it names."""

# A starting view far from every preset: the preset has to set each of its settings, not inherit them.
AWAY = {
    "depth_space": dict(dtype="FLOAT16", pattern="random", seed=7, N=2, C=18, H=3, W=2, BlockSize=3,
                        Order="COLUMN_ROW_DEPTH", direction="depth_to_space", level="4_0"),
    "bitwise_or": dict(dtype="UINT16", pattern="sequence", start=3.0, delta=2.0, or_sizes="4,5", or_bcast="1",
                       or_inplace=True, or_first=2, or_rows=3, or_pick=(3, 1), level="3_0",
                       bw_op="ELEMENT_WISE_BIT_XOR"),
    "split_join": dict(dtype="INT8", pattern="random_bytes", seed=3, sj_sizes="2,3,4", sj_axis=1, sj_mode="even",
                       sj_parts=3, sj_pick=(1, 2, 3), level="2_1"),
    "layouts": dict(dtype="UINT8", pattern="sequence", start=5.0, delta=3.0, ly_in_sizes="3,5",
                    ly_out_strides="1,3", ly_out_total="16", level="4_1"),
}
PRESET_COUNTS = {"depth_space": 5, "bitwise_or": 5, "split_join": 3, "layouts": 6}
OVERVIEW_BUTTONS = ["overview_0_0", "overview_0_1", "overview_1_0", "overview_2_0", "overview_3_0"]
