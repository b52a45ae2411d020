"""Typed values that do not fit their float type are named with what they became (ui.values.typed_value_notes),
exactly when the stored value differs in kind from the typed one: overflow to inf, underflow to zero."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.values import NOTES_SHOWN, parse_values, typed_value_notes

TYPES = {"FLOAT16": np.float16, "FLOAT32": np.float32, "FLOAT64": np.float64}


@settings(max_examples=80)
@given(st.sampled_from(list(TYPES)), st.integers(-1, 1).filter(bool), st.integers(1, 9), st.integers(-420, 420))
def test_a_note_exactly_when_the_value_turns_inf_or_zero(data_type, sign, digit, exponent):
    token = f"{'-' if sign < 0 else ''}{digit}e{exponent}"
    stored = parse_values(token, (1,), TYPES[data_type])[0]
    notes = typed_value_notes(token, data_type)
    info = np.finfo(TYPES[data_type])
    if np.isinf(stored):
        assert notes == [f"Values[0] {token} became {'-' if sign < 0 else '+'}inf: {data_type}'s largest finite "
                         f"value is {float(info.max):.{info.precision + 2}g} (overflow)"]
    elif stored == 0:
        assert len(notes) == 1 and notes[0].startswith(f"Values[0] {token} became {'-' if sign < 0 else ''}0:")
        assert notes[0].endswith("(underflow)")
    else:
        assert notes == []


def test_named_values_bit_patterns_and_integers_get_no_note():
    assert typed_value_notes("inf -inf nan 0x7F800000 0 -0.0", "FLOAT32") == []
    assert typed_value_notes("1e40", "INT32") == []  # integers out of range are refused by parse_values instead


def test_many_notes_are_summed_up():
    notes = typed_value_notes(" ".join(["1e40"] * (NOTES_SHOWN + 3)), "FLOAT32")
    assert len(notes) == NOTES_SHOWN + 1 and notes[-1].startswith("... and 3 more")
