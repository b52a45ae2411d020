"""The settings every page shares, drawn once in the sidebar by app.py and bound to the URL."""

from dataclasses import dataclass

import streamlit as st

from ops import DML_TYPES, FEATURE_LEVELS

from .values import PATTERN_HELP, PATTERNS

DEFAULTS = {
    "dtype": "UINT32",
    "level": FEATURE_LEVELS[-1],
    "pattern": "coded",
    "seed": 0,
    "start": 0.0,
    "delta": 1.0,
    "values": "",
}


@dataclass(frozen=True)
class Settings:
    data_type: str
    feature_level: str
    pattern: str
    seed: int
    start: float
    delta: float
    text: str

    def value_kwargs(self):
        return dict(seed=self.seed, start=self.start, delta=self.delta, text=self.text)


def render_sidebar():
    with st.sidebar:
        st.selectbox("DataType", DML_TYPES, key="dtype", bind="query-params",
                     index=DML_TYPES.index(DEFAULTS["dtype"]),
                     help="DML_TENSOR_DATA_TYPE of every tensor on the page")
        st.selectbox("Feature level", FEATURE_LEVELS, key="level", bind="query-params",
                     index=FEATURE_LEVELS.index(DEFAULTS["level"]),
                     help="DML_FEATURE_LEVEL_...: the descriptor is validated against this level's support table")
        st.selectbox("Values", list(PATTERNS), key="pattern", bind="query-params",
                     index=list(PATTERNS).index(DEFAULTS["pattern"]), format_func=PATTERNS.get,
                     help=PATTERN_HELP)
        pattern = st.session_state["pattern"]
        if pattern in ("random", "random_bytes"):
            st.number_input("Random seed", 0, 2**31 - 1, DEFAULTS["seed"], key="seed", bind="query-params")
        if pattern == "sequence":
            st.number_input("Start", value=DEFAULTS["start"], key="start", bind="query-params")
            st.number_input("Delta", value=DEFAULTS["delta"], key="delta", bind="query-params")
        if pattern == "custom":
            st.text_area("Typed values", DEFAULTS["values"], key="values", bind="query-params",
                         help="Numbers in row-major order, separated by spaces or commas; "
                              "nan, inf, -inf for floats; 0x... gives a bit pattern")


def current_settings():
    state = st.session_state
    return Settings(
        data_type=state.get("dtype", DEFAULTS["dtype"]),
        feature_level=state.get("level", DEFAULTS["level"]),
        pattern=state.get("pattern", DEFAULTS["pattern"]),
        seed=int(state.get("seed", DEFAULTS["seed"])),
        start=float(state.get("start", DEFAULTS["start"])),
        delta=float(state.get("delta", DEFAULTS["delta"])),
        text=state.get("values", DEFAULTS["values"]) or "",
    )
