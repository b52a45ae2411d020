"""A model handed from any page to the page that opens models (the Descriptor workbench), which the registry names:
ui/ knows no page by its path."""

from typing import Any, NoReturn

import streamlit as st

KEY = "workbench_model"  # session state: the model the next run of the workbench opens
_destination: list[str] = []


def open_models_in(path: str) -> None:
    """Name the page (its script's path) that open_model() leads to."""
    _destination[:] = [path]


def open_model(model: dict[str, Any]) -> NoReturn:
    """Switch to the page that opens models, with `model` (a DxDispatch model) handed over to it."""
    st.session_state[KEY] = model
    st.switch_page(_destination[0], query_params={})
