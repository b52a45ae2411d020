"""Slice, Pad & Tile: the page's widgets and its hooks into the operator-page skeleton; the figure, pick, steps, quiz
and panels are the shared provenance page's (app_pages/provenance.py)."""

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.provenance import ProvenancePage
from app_pages.slice_pad import settings as sp
from ops import operator
from ops.operators.fixes import Fix
from ui import say, url_state
from ui.operator_page import render
from ui.say import md
from ui.sidebar import SidebarSettings
from ui.values import Values

LIST_HELP = {"sp_out": "Empty: every element the window yields (1 + (InputWindowSizes - 1) div |stride| per "
                       "dimension)",
             "sp_scale": "Width, Height: each element becomes a Height x Width block",
             "sp_strides": "Negative: the window is read from its end"}
AXIS_MAX = 1 << 32


class SlicePadPage(ProvenancePage):
    key, pick_key = "sp", sp.PICK
    title = "Slice, Pad & Tile"
    introduction = ("Where every output element comes from: a window, a mirror, a repeat, a reversal. Click a cell "
                    "to follow it to its source.")
    groups = ("Operator",)

    def presets(self, sidebar: SidebarSettings) -> Mapping[str, Mapping[str, Any]]:
        return sp.PRESETS

    def controls(self, boxes: Sequence[DeltaGenerator], sidebar: SidebarSettings) -> dict[str, Any]:
        with boxes[0]:
            name = url_state.widget(st.selectbox, "Operator", "sp_op", sp.DEFAULTS["sp_op"],
                                    options=list(sp.OPERATOR_NAMES), help="DML_OPERATOR_...: the family's operators")
            op = operator(name)
            say.caption(md("**DML_{}**: {}", op.name, op.summary))
            settings = {"sp_op": op.name,
                        "sp_sizes": url_state.widget(st.text_input, "InputTensor Sizes", "sp_sizes",
                                                     sp.DEFAULTS["sp_sizes"],
                                                     help="1 to 8 whole numbers; its values are the sidebar's")}
            for attribute in sp.attributes_of(op):
                if attribute.name in sp.LISTS:
                    key = sp.LISTS[attribute.name][0]
                    settings[key] = url_state.widget(st.text_input, say.plain(attribute.label), key, sp.DEFAULTS[key],
                                                     help=say.plain(LIST_HELP[key]) if key in LIST_HELP else None)
                elif attribute.name in sp.NUMBERS:
                    key = sp.NUMBERS[attribute.name]
                    # No lower bound: a negative Axis gets the core's message naming the rule.
                    settings[key] = url_state.widget(st.number_input, say.plain(attribute.label), key, sp.DEFAULTS[key],
                                                     maximum=AXIS_MAX if key == "sp_axis" else None)
                else:
                    key, options = sp.CHOICES[attribute.label]
                    settings[key] = url_state.widget(st.selectbox, say.plain(attribute.label), key, sp.DEFAULTS[key],
                                                     options=list(options))
            settings["sp_lengths"] = ""
            if op.arity[1] > 1:
                settings["sp_lengths"] = url_state.widget(
                    st.text_area, "SequenceLengthsTensor values", "sp_lengths", sp.DEFAULTS["sp_lengths"],
                    max_chars=sp.TYPED_MAX_CHARS, height=68,
                    help="One length per line along Axis (the input's Sizes with 1 at Axis), row-major")
        return settings

    def make(self, settings: dict[str, Any], values: Values) -> sp.Configuration:
        return sp.configure(settings, values)

    def fix_settings(self, fix: Fix, settings: dict[str, Any]) -> dict[str, Any]:
        return sp.fix_settings(fix, operator(settings["sp_op"]))


render(SlicePadPage())
