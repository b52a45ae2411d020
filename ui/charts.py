"""Every figure of the app goes through show(): one toolbar (viz.export.chart_config), presentation sizing, and a
"Download animated HTML" button whose file is made only when clicked."""

import functools

import streamlit as st

from viz.common import for_projector
from viz.export import animated_html, chart_config
from viz.spec import SpecFigure

from .sidebar import presenting


def show(figure, key, stem, title, **kwargs):
    """st.plotly_chart of `figure` (a SpecFigure) with the app's toolbar; returns what st.plotly_chart returns.

    stem: the downloads' file name without extension, from the settings (viz.export.file_stem); title: the
    heading of the HTML file. kwargs go to st.plotly_chart (selection_mode, on_select, ...).
    """
    if not isinstance(figure, SpecFigure):  # a go.Figure: its dict, so that presentation mode can overlay it
        figure = SpecFigure(figure.to_dict())
    shown = for_projector(figure) if presenting() else figure
    event = st.plotly_chart(shown, theme="streamlit", key=key, config=chart_config(stem), **kwargs)
    st.download_button(
        "Download animated HTML", data=functools.partial(animated_html, figure, title, stem),
        file_name=f"{stem}.html", mime="text/html", key=f"{key}_html", on_click="ignore",
        icon=":material/download:",
        help="One file with the figure, its frames and Play: opens in any browser, offline, no server. "
             "Its toolbar saves the frame on screen as PNG or SVG.",
    )
    return event
