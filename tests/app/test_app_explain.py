"""Explain why and Predict, then reveal on the three operator pages, run through app.py as a user reaches them.

The expected formulas, steps and quiz answers come from the SPEC's worked examples and from ops.teaching (tested
against the operators in test_teaching.py); these tests prove the pages show them, react to the controls and keep
the score, and that a link reproduces the same questions.
"""

import re

import pytest

from ops import Call, QuizSettings, quiz_questions
from support.app import chart_figures, click_button, run_through_app, shown

PAGES = {"depth_space": "app_pages/depth_space/page.py", "bitwise_or": "app_pages/bitwise/page.py",
         "split_join": "app_pages/split_join/page.py"}
# The pages' default settings as quiz settings (depth: the seed's {1,8,2,3}; split: the seed's {1,1,6,2}).
QUIZZES = {
    "depth_space": QuizSettings(Call.of("DEPTH_TO_SPACE1", [(1, 8, 2, 3)], block_size=2, order="DEPTH_COLUMN_ROW")),
    "split_join": QuizSettings(Call.of("SPLIT", [(1, 1, 6, 2)], axis=2, sizes=(2, 1, 3))),
}


def codes(at):
    return "\n".join(c.value for c in at.code)


def texts(at):
    return "\n".join(m.value for m in at.markdown)


def assert_clean(at):
    assert not at.exception, [e.value for e in at.exception]


# ---------------------------------------------------------------- the picked element's formula


def test_depth_pick_shows_the_dcr_formula_with_its_numbers():
    # Input flat 29 of {1,8,2,3} is (0, 4, 1, 2), value 9*4 + 3 + 2 = 41; the seed's DCR output has 41 at
    # (0, 0, 3, 4): bh = 1, bw = 0, c' = 0.
    at = run_through_app(PAGES["depth_space"], query={"ds_pick": "29"})
    assert_clean(at)
    shown = codes(at)
    assert "input channel c = (bh*bs + bw)*C' + c' = (1*2 + 0)*2 + 0 = 4" in shown
    assert "h' = h*bs + bh = 1*2 + 1 = 3" in shown and "w' = w*bs + bw = 2*2 + 0 = 4" in shown


def test_depth_pick_in_compare_mode_shows_both_orders():
    at = run_through_app(PAGES["depth_space"], query={"ds_pick": "29", "Order": "compare"})
    assert_clean(at)
    shown = codes(at)
    assert "(bh*bs + bw)*C' + c' = (1*2 + 0)*2 + 0 = 4" in shown
    # CRD: c = c'*bs*bs + bh*bs + bw with c = 4 -> c' = 1, bh = 0, bw = 0.
    assert "c'*bs*bs + bh*bs + bw = 1*2*2 + 0*2 + 0 = 4" in shown


def test_space_to_depth_pick_formula():
    # {1,2,4,6} space -> depth, DCR: input (0, 1, 3, 4) is flat 24 + 18 + 4 = 46; bh = 1, bw = 0 -> channel 5.
    at = run_through_app(PAGES["depth_space"], query={"ds_pick": "46", "direction": "space_to_depth", "C": "2",
                                                       "H": "4", "W": "6"})
    assert_clean(at)
    assert "output channel c = (bh*bs + bw)*C' + c' = (1*2 + 0)*2 + 1 = 5" in codes(at)


def test_bitwise_pick_shows_the_bits_of_the_or():
    at = run_through_app(PAGES["bitwise_or"], dtype="FLOAT32", pattern="custom", values="1.0", or_sizes="1",
                         or_b_source="typed", or_b_text="2.0", or_pick=(0, 30))
    assert_clean(at)
    shown = codes(at)
    assert "Output = A | B = 0x3F800000 | 0x40000000 = 0x7F800000" in shown
    assert "Output bit 30 = A bit | B bit = 0 | 1 = 1" in shown


def test_bitwise_broadcast_pick_names_the_b_element_read():
    # Sizes {2,4}, B broadcast along dim 0 (Strides [0, 1]): element 6 = (1, 2) reads B's stored element 2.
    at = run_through_app(PAGES["bitwise_or"], dtype="UINT8", or_sizes="2,4", or_bcast="0", or_pick=(6, 0))
    assert_clean(at)
    assert "B element read = i_0*t_0 + i_1*t_1 = 1*0 + 2*1 = 2" in codes(at)


def test_split_pick_shows_split_and_join_formulas():
    at = run_through_app(PAGES["split_join"], sj_pick=(0, 0, 3, 1))
    assert_clean(at)
    shown = codes(at)
    assert "o_2 = s_0 + s_1 = 2 + 1 = 3" in shown
    assert "index along Axis in OutputTensors[2] = i - o_2 = 3 - 3 = 0" in shown
    assert "index along Axis in the whole tensor = o_2 + j = 3 + 0 = 3" in shown


# ---------------------------------------------------------------- step-by-step mode


def step_captions(at):
    return [shown(m.value) for m in at.markdown if " — step " in m.value]


def test_compare_step_mode_has_one_play_for_both_orders():
    at = run_through_app(PAGES["depth_space"], query={"steps": "1", "Order": "compare"})
    assert_clean(at)
    assert [b.label for b in at.button].count("▶ Play") == 1
    figures = chart_figures(at)
    assert len(figures) == 2
    for figure in figures:
        # The page's Play drives both: the figures' own Play and slider are left out in step mode.
        assert "updatemenus" not in figure["layout"] and "sliders" not in figure["layout"]
        assert [a for a in figure["layout"]["annotations"] if a.get("name") == "step-arrow"]
    click_button(at, "Next")
    captions = step_captions(at)
    # Step 2 is output (0, 0, 0, 1) in both: DCR reads it from input channel 2, CRD from channel 1 (SPEC 2).
    assert captions == ["**DEPTH_COLUMN_ROW** — step 2 of 48: input (0, 2, 0, 0) → output (0, 0, 0, 1)",
                        "**COLUMN_ROW_DEPTH** — step 2 of 48: input (0, 1, 0, 0) → output (0, 0, 0, 1)"]
    assert at.query_params["step"] == "1"


def test_step_arrow_runs_from_source_to_destination_cell():
    at = run_through_app(PAGES["depth_space"], query={"steps": "1", "step": "5"})
    assert_clean(at)
    figure = chart_figures(at)[0]
    arrow = next(a for a in figure["layout"]["annotations"] if a.get("name") == "step-arrow")
    shapes = {s["name"]: s for s in figure["layout"]["shapes"] if s.get("name", "").startswith("step-")}
    # The link leaves the outlined source cell's column and enters the outlined destination cell's column, where the
    # arrow's head points up into it.
    link = [[float(v) for v in point.split(",")]
            for point in re.findall(r"[-\d.]+,[-\d.]+", shapes["step-link"]["path"])]
    source_x, destination_x = (float(shapes[name]["path"].split(",")[0][1:]) + 0.5
                               for name in ("step-source", "step-destination"))
    assert link[0][0] == source_x and link[-1][0] == destination_x == arrow["x"] == arrow["ax"]
    assert "step 6 of 48" in step_captions(at)[0]


def test_play_advances_and_pause_stops():
    at = run_through_app(PAGES["depth_space"], query={"steps": "1"})
    click_button(at, "▶ Play")
    assert "step 1 of 48" in step_captions(at)[0]  # Play shows the current step first
    assert [b.label for b in at.button if b.label.startswith("⏸")] == ["⏸ Pause"]
    at.run()  # a tick of the timer
    assert "step 2 of 48" in step_captions(at)[0]
    click_button(at, "⏸ Pause")
    at.run()
    assert "step 2 of 48" in step_captions(at)[0]
    assert_clean(at)


def test_play_from_the_last_step_starts_over():
    at = run_through_app(PAGES["depth_space"], query={"steps": "1", "step": "47"})
    click_button(at, "▶ Play")
    assert "step 1 of 48" in step_captions(at)[0]


@pytest.mark.parametrize("dtype, width", [("UINT8", 8), ("FLOAT32", 32), ("FLOAT64", 64), ("INT64", 64)])
def test_bit_steps_are_numbered_by_bit_and_sweep_every_bit(dtype, width):
    at = run_through_app(PAGES["bitwise_or"], query={"steps": "1", "dtype": dtype})
    assert_clean(at)
    slider = next(s for s in at.select_slider if s.label == "Step")
    assert len(slider.options) == width
    assert slider.options[0] == f"bit {width - 1}" and slider.options[-1] == "bit 0"
    assert f"step 1 of {width}: element #0, bit {width - 1}:" in step_captions(at)[0]


def test_speed_is_in_the_link_and_sets_the_figures_play():
    at = run_through_app(PAGES["split_join"], query={"speed": "250"})
    assert_clean(at)
    play = next(b for b in chart_figures(at)[0]["layout"]["updatemenus"][0]["buttons"] if b["label"] == "Play")
    assert play["args"][1]["frame"]["duration"] == 250
    assert at.query_params["speed"] == "250"


def test_split_step_mode_names_both_sides():
    at = run_through_app(PAGES["split_join"], query={"steps": "1", "step": "7"})
    assert_clean(at)
    assert "step 8 of 12: InputTensor (0, 0, 3, 1) → OutputTensors[2] (0, 0, 0, 1)" in step_captions(at)[0]
    assert "index along Axis in OutputTensors[2] = i - o_2 = 3 - 3 = 0" in codes(at)


# ---------------------------------------------------------------- Predict, then reveal


def choose(at, index):
    next(r for r in at.radio if r.label == "Your answer").set_value(index).run()
    click_button(at, "Check")


def prompt(at):
    return next(shown(m.value) for m in at.markdown if m.value.startswith("**Question "))


def bitwise_right_choice(at):
    """The choice whose bit pattern is A | B of the prompt's values (the page's A and B come from its pattern)."""
    import re

    a, b = (int(v, 16) for v in re.findall(r"= (0x[0-9A-F]+)", prompt(at))[:2])
    radio = next(r for r in at.radio if r.label == "Your answer")
    return next(i for i, label in enumerate(radio.options) if int(label.split()[0], 16) == a | b)


def right_choice(at, path, number):
    if path == "bitwise_or":
        return bitwise_right_choice(at)
    return quiz_questions(QUIZZES[path], 0)[number].answer


def assert_reveals_the_element(at):
    """Once answered, the operator's figure appears with the asked element outlined where it is read and written."""
    (figure,) = chart_figures(at)
    outlined = {s["name"] for s in figure["layout"].get("shapes", []) if s.get("name", "").startswith("pick-")}
    assert len(outlined) >= 2, outlined


@pytest.mark.parametrize("path", list(PAGES))
def test_quiz_hides_the_output_and_counts_right_and_wrong(path):
    at = run_through_app(PAGES[path], query={"quiz": "1"})
    assert_clean(at)
    # The output is hidden: the one figure is the input, without hover (it would name where elements go).
    (asked,) = chart_figures(at)
    assert asked["data"] and not [t for t in asked["data"] if "utput" in t.get("name", "")]
    assert {t.get("hoverinfo") for t in asked["data"]} == {"skip"}
    assert not at.tabs  # and so are the panels that would show it
    assert "**Question 1 of 5.**" in prompt(at)
    choose(at, right_choice(at, path, 0))
    assert [s.value for s in at.success if s.value.startswith("Right:")]
    assert "**Score: 1 of 1**" in texts(at)
    assert codes(at)  # the explanation with the formula
    assert_reveals_the_element(at)
    click_button(at, "Next question")
    assert "**Question 2 of 5.**" in prompt(at)
    right = right_choice(at, path, 1)
    choose(at, (right + 1) % len(next(r for r in at.radio if r.label == "Your answer").options))
    assert [e.value for e in at.error if e.value.startswith("Not quite")]
    assert "**Score: 1 of 2**" in texts(at)
    assert_clean(at)


@pytest.mark.parametrize("path", ["depth_space", "split_join"])
@pytest.mark.parametrize("seed", [0, 3])
def test_quiz_link_asks_the_settings_questions(path, seed):
    query = {"quiz": "1", **({"qseed": str(seed)} if seed else {})}
    at = run_through_app(PAGES[path], query=query)
    expected = quiz_questions(QUIZZES[path], seed)[0]
    assert expected.prompt in prompt(at)
    assert next(r for r in at.radio if r.label == "Your answer").options == list(expected.choices)
    # The same link opened again asks the same question.
    assert prompt(run_through_app(PAGES[path], query=query)) == prompt(at)


def test_quiz_follows_the_configuration_in_the_link():
    at = run_through_app(PAGES["depth_space"], query={"quiz": "1", "direction": "space_to_depth", "C": "2", "H": "4",
                                                       "W": "6", "Order": "COLUMN_ROW_DEPTH"})
    expected = quiz_questions(QuizSettings(Call.of("SPACE_TO_DEPTH1", [(1, 2, 4, 6)], block_size=2,
                                                     order="COLUMN_ROW_DEPTH")), 0)[0]
    assert expected.prompt in prompt(at)


def test_new_set_of_questions_changes_the_link_and_keeps_the_score():
    at = run_through_app(PAGES["split_join"], query={"quiz": "1"})
    choose(at, right_choice(at, "split_join", 0))
    click_button(at, "New set of questions")
    assert at.query_params["qseed"] == "1"
    assert quiz_questions(QUIZZES["split_join"], 1)[0].prompt in prompt(at)
    assert "**Score: 1 of 1**" in texts(at)


@pytest.mark.parametrize("query, note", [
    ({"quiz": "yes"}, "Link parameter quiz=`yes` must be 1 or 0"),
    ({"steps": "maybe"}, "Link parameter steps=`maybe` must be 1 or 0"),
    ({"speed": "7"}, "Link parameter speed=`7` must be one of"),
    ({"steps": "1", "step": "-5"}, "Link parameter step=`-5` must be at least 0"),
    ({"quiz": "1", "qseed": "x"}, "Link parameter qseed=`x` must be a whole number"),
])
def test_hostile_links_name_the_parameter(query, note):
    at = run_through_app(PAGES["depth_space"], query=query)
    assert_clean(at)
    assert any(note in w.value for w in [*at.warning, *at.info, *at.caption]), note


def test_quiz_on_invalid_settings_shows_no_quiz_and_no_traceback():
    at = run_through_app(PAGES["depth_space"], query={"quiz": "1", "C": "6"})
    assert_clean(at)
    assert not [m for m in at.markdown if m.value.startswith("**Question ")]
    assert any("BlockSize 2" in e.value for e in at.error)


@pytest.mark.parametrize("path, query", [
    ("depth_space", {"N": "2", "C": "64", "H": "32", "W": "32", "BlockSize": "4"}),
    ("split_join", {"sj_sizes": "3,100,70", "sj_axis": "1", "sj_split": "30,70"}),
])
def test_reveal_on_a_tensor_larger_than_the_drawing_outlines_the_element(path, query):
    at = run_through_app(PAGES[path], query={"quiz": "1", **query})
    choose(at, 0)
    assert_clean(at)
    assert_reveals_the_element(at)
