"""Router: the page list and the sidebar settings every page shares."""

import streamlit as st

from ops import element_cap_set_to
from ui.sidebar import render_sidebar

# Below the core's 2^26: a page holds several tensors of this size at once (input, output, index maps,
# the cross-check's copies) for every open session, and a rerun should stay around a second.
APP_ELEMENT_CAP = 2**24

st.set_page_config(page_title="DirectML operator visualizer", layout="wide")

navigation = st.navigation(
    [
        st.Page("app_pages/overview.py", title="Overview", default=True),
        st.Page("app_pages/depth_space.py", title="Depth <-> Space", url_path="depth_space"),
        st.Page("app_pages/bitwise_or.py", title="Bitwise OR", url_path="bitwise_or"),
        st.Page("app_pages/split_join.py", title="Split <-> Join", url_path="split_join"),
        st.Page("app_pages/workbench.py", title="Descriptor workbench", url_path="workbench"),
    ]
)
render_sidebar()
with element_cap_set_to(APP_ELEMENT_CAP):
    navigation.run()
