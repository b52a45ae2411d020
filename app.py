"""Router: the page list, the sidebar settings every page shares, and the URL that describes the view."""

from serve.warmup import warm_up

warm_up()

import streamlit as st  # noqa: E402  (after the warm-up: every session waits there for the first one's imports)

from app_pages.registry import by_url_path, navigation_pages  # noqa: E402
from ops import element_cap_set_to  # noqa: E402
from ui import output_budget, say, url_state  # noqa: E402
from ui.accessibility import readable_colors  # noqa: E402
from ui.charts import preload_plotly  # noqa: E402
from ui.shared import APP_ELEMENT_CAP  # noqa: E402
from ui.sidebar import render_sidebar  # noqa: E402
from ui.toolbar import reserve_controls  # noqa: E402

output_budget.install()  # what one run may send (ui/output_budget.py)
st.set_page_config(page_title="DirectML operator visualizer", layout="wide")
preload_plotly()  # first: the browser loads plotly.js while the page computes its figure

navigation = st.navigation(navigation_pages())
url_state.begin_run(navigation.url_path)
link_notes = st.container()
# The sidebar counts against the run's output budget as the page does: a run may pass it there already.
try:
    reserve_controls()  # the page's own settings, above the ones every page shares
    render_sidebar(by_url_path(navigation.url_path).reads)
    readable_colors()
    with element_cap_set_to(APP_ELEMENT_CAP):
        navigation.run()
except output_budget.OutputExceeded as stopped:
    output_budget.show_stopped(stopped, link_notes)
url_state.publish()
for note in url_state.notes():
    say.warning(note, into=link_notes, icon=":material/link_off:")
