"""Imports that every page needs, done once per process before any session runs a page.

Plotly asks for pandas through `sys.modules` without importing it (plotly's optional_imports.get_module): while
the first visitor's thread is still importing pandas, thirty others starting at the same moment found the
half-initialised module and failed with "partially initialized module 'pandas' has no attribute 'Series'"
(7 of 90 page runs in a measured class-sized burst). Every session calls warm_up() first; the first one does the
imports and exercises the lazy paths while the others wait on the lock.
"""

import threading

_lock = threading.Lock()
_done = False


def warm_up() -> None:
    global _done
    if _done:
        return
    with _lock:
        if _done:
            return
        import numpy as np
        import pandas  # noqa: F401
        import plotly.graph_objects as go
        import plotly.io
        import pyarrow  # noqa: F401  (st.dataframe's serialisation)

        # Building and serialising a figure walks plotly's lazily imported validators and array encoders.
        figure = go.Figure([go.Heatmap(z=np.zeros((2, 2), np.float32)), go.Scatter(x=[0], y=[0])])
        figure.frames = [go.Frame(name="0", data=[go.Heatmap(z=np.ones((2, 2), np.float32))])]
        plotly.io.to_json(figure, validate=False)
        try:
            import onnx  # noqa: F401
            import onnxruntime  # noqa: F401
        except ImportError:
            pass  # the cross-check panel reports a missing runtime itself
        _done = True
