"""Plotly's Play and Pause without JavaScript errors.

An animation that a Pause (or any new animation, or a redraw) interrupts rejects the promise of the
Plotly.animate call that started it, with no reason; plotly.js's Play button and slider start animations through
Plots.executeAPICommand and never catch that promise (src/components/updatemenus/draw.js, src/components/sliders/
draw.js), so every Pause during Play ended as an unhandled promise rejection: a `pageerror` in the browser.
The figures cannot carry JavaScript (Streamlit sends them as JSON), so the page handles exactly those rejections:
no reason, within a moment of a graph reporting `plotly_animationinterrupted`. Any other rejection still surfaces.
"""

import streamlit as st

# How long after an interruption its rejection may arrive: the rejection is queued in the same task, so a frame
# (~16 ms) is plenty; a generous bound still cannot swallow a later, unrelated rejection without a reason.
WINDOW_MS = 1000

_SCRIPT = f"""<script>
(() => {{
  if (window.__dmlAnimationGuard) return;
  window.__dmlAnimationGuard = true;
  let interruptedAt = -Infinity;
  const watch = graph => {{
    if (graph.__dmlWatched || typeof graph.on !== "function") return;
    graph.__dmlWatched = true;
    graph.on("plotly_animationinterrupted", () => {{ interruptedAt = performance.now(); }});
  }};
  const scan = () => document.querySelectorAll(".js-plotly-plot").forEach(watch);
  new MutationObserver(scan).observe(document.body, {{childList: true, subtree: true}});
  scan();
  window.addEventListener("unhandledrejection", event => {{
    if (event.reason === undefined && performance.now() - interruptedAt < {WINDOW_MS}) event.preventDefault();
  }});
}})();
</script>"""


def catch_interrupted_animations():
    """Install the page's handler for interrupted Plotly animations (once per browser page; app.py, every run)."""
    st.html(_SCRIPT, unsafe_allow_javascript=True)
