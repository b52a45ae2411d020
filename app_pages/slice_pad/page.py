"""Slice, Pad & Tile: the page's widgets and its hooks into the operator-page skeleton; the figure, pick, steps, quiz
and panels are the shared provenance page's (ui/provenance.py)."""

import streamlit as st

from app_pages.slice_pad.settings import (
    CHOICES,
    DEFAULTS,
    LISTS,
    NUMBERS,
    OPERATOR_NAMES,
    PICK,
    PRESETS,
    TYPED_MAX_CHARS,
    attributes_of,
    configure,
)
from ops import DescriptorError, operator
from ui import say, url_state
from ui.errors import typed_values_refused
from ui.operator_page import Refused, render
from ui.provenance import ProvenancePage
from ui.say import md

LIST_HELP = {"sp_out": "Empty: every element the window yields (1 + (InputWindowSizes - 1) div |stride| per "
                       "dimension)",
             "sp_scale": "Width, Height: each element becomes a Height x Width block",
             "sp_strides": "Negative: the window is read from its end"}
AXIS_MAX = 1 << 32


class SlicePadPage(ProvenancePage):
    key, pick_key = "sp", PICK
    title = "Slice, Pad & Tile"
    introduction = ("Where every output element comes from: a window, a mirror, a repeat, a reversal. Click a cell "
                    "to follow it to its source.")
    groups = ("Operator",)

    def presets(self, sidebar):
        return PRESETS

    def controls(self, boxes, sidebar):
        with boxes[0]:
            name = url_state.widget(st.selectbox, "Operator", "sp_op", DEFAULTS["sp_op"], options=list(OPERATOR_NAMES),
                                    help="DML_OPERATOR_...: the family's operators")
            op = operator(name)
            say.caption(md("**DML_{}**: {}", op.name, op.summary))
            settings = {"sp_op": op.name,
                        "sp_sizes": url_state.widget(st.text_input, "InputTensor Sizes", "sp_sizes",
                                                     DEFAULTS["sp_sizes"],
                                                     help="1 to 8 whole numbers; its values are the sidebar's")}
            for attribute in attributes_of(op):
                label = say.plain(attribute.label)
                if attribute.name in LISTS:
                    key = LISTS[attribute.name][0]
                    settings[key] = url_state.widget(st.text_input, label, key, DEFAULTS[key], help=LIST_HELP.get(key))
                elif attribute.name in NUMBERS:
                    key = NUMBERS[attribute.name]
                    # No lower bound on Axis: a negative one gets the core's message naming the rule.
                    settings[key] = url_state.widget(st.number_input, label, key, DEFAULTS[key],
                                                     **({"maximum": AXIS_MAX} if key == "sp_axis" else {}))
                else:
                    key, options = CHOICES[attribute.label]
                    settings[key] = url_state.widget(st.selectbox, label, key, DEFAULTS[key], options=list(options))
            settings["sp_lengths"] = ""
            if op.arity[1] > 1:
                settings["sp_lengths"] = url_state.widget(
                    st.text_area, "SequenceLengthsTensor values", "sp_lengths", DEFAULTS["sp_lengths"],
                    max_chars=TYPED_MAX_CHARS, height=68,
                    help="One length per line along Axis (the input's Sizes with 1 at Axis), row-major")
        return settings

    def line(self, settings, sidebar):
        try:
            return configure(settings, sidebar.values).line()
        except DescriptorError:
            return [settings["sp_op"], sidebar.data_type]

    def configure(self, settings, sidebar):
        return self.checked(configure(settings, sidebar.values))

    def compute(self, c):
        if refused := typed_values_refused(c.values, c.sizes):
            raise Refused(*refused, c)
        super().compute(c)


render(SlicePadPage())
