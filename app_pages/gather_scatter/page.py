"""Gather & Scatter: the page's widgets and its hooks into the operator-page skeleton; the figure, pick, steps, quiz
and panels are the shared provenance page's (app_pages/provenance.py)."""

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_pages.gather_scatter import settings as gs
from app_pages.provenance import ProvenancePage
from ops import operator
from ops.operators.fixes import Fix
from ui import say, url_state
from ui.operator_page import render
from ui.say import md
from ui.sidebar import SidebarSettings
from ui.values import Values

ATTRIBUTE_MAX = 1 << 32  # UINT fields: a larger number is no DirectML value; the core names the rule below it


class GatherScatterPage(ProvenancePage):
    key, pick_key = "gs", gs.PICK
    title = "Gather & Scatter"
    introduction = ("Where every output element comes from: the input element an index names, the update that lands "
                    "there, or OnValue. Click a cell to follow it to its source and its index.")
    groups = ("Operator", "Tensors")

    def presets(self, sidebar: SidebarSettings) -> Mapping[str, Mapping[str, Any]]:
        return gs.PRESETS

    def controls(self, boxes: Sequence[DeltaGenerator], sidebar: SidebarSettings) -> dict[str, Any]:
        operator_box, tensors_box = boxes
        with operator_box:
            name = url_state.widget(st.selectbox, "Operator", "gs_op", gs.DEFAULTS["gs_op"],
                                    options=list(gs.OPERATOR_NAMES), help="DML_OPERATOR_...: the family's operators")
            op = operator(name)
            say.caption(md("**DML_{}**: {}", op.name, op.summary))
            settings: dict[str, Any] = {"gs_op": op.name}
            columns = st.columns(2)
            for i, attribute in enumerate(gs.attributes_of(op)):
                key = gs.ATTRIBUTE_KEYS[attribute.name]
                # No lower bound: a negative value gets the core's message naming the rule.
                settings[key] = int(url_state.widget(columns[i % 2].number_input, say.plain(attribute.label), key,
                                                     gs.DEFAULTS[key], maximum=ATTRIBUTE_MAX))
        first, *second = gs.data_labels(op)
        with tensors_box:
            settings["gs_sizes"] = url_state.widget(st.text_input, md("{} Sizes", first), "gs_sizes",
                                                    gs.DEFAULTS["gs_sizes"],
                                                    help=md("1 to 8 whole numbers; its values are the sidebar's"))
            # One above the other: side by side in the sidebar, the type's box cut "UINT32" (test_browser_options).
            settings["gs_indices_sizes"] = url_state.widget(st.text_input, "IndicesTensor Sizes", "gs_indices_sizes",
                                                            gs.DEFAULTS["gs_indices_sizes"])
            settings["gs_indices_type"] = url_state.widget(st.selectbox, "Indices type", "gs_indices_type",
                                                           gs.DEFAULTS["gs_indices_type"], options=list(gs.INDEX_TYPES))
            settings["gs_indices"] = url_state.widget(st.text_area, "IndicesTensor values", "gs_indices",
                                                      gs.DEFAULTS["gs_indices"], max_chars=gs.TYPED_MAX_CHARS,
                                                      height=68,
                                                      help="Row-major, separated by spaces or commas; negative "
                                                           "indices count from the end of their axis")
            settings["gs_second_sizes"] = settings["gs_second"] = ""
            if second:
                settings["gs_second_sizes"] = url_state.widget(st.text_input, md("{} Sizes", second[0]),
                                                               "gs_second_sizes", gs.DEFAULTS["gs_second_sizes"])
                settings["gs_second"] = url_state.widget(st.text_area, md("{} values", second[0]), "gs_second",
                                                         gs.DEFAULTS["gs_second"], max_chars=gs.TYPED_MAX_CHARS,
                                                         height=68)
        return settings

    def make(self, settings: dict[str, Any], values: Values) -> gs.Configuration:
        return gs.configure(settings, values)

    def fix_settings(self, fix: Fix, settings: dict[str, Any]) -> dict[str, Any]:
        return gs.fix_settings(fix)


render(GatherScatterPage())
