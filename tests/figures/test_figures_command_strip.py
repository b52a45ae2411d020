"""The partial run's command strip: every command once, in order, its state told by shape, color and legend."""

import json

from app_pages.workbench.reading import command_steps_partial
from ops import run_model_partial
from support.figures import figure_json_size
from support.paths import ROOT
from viz.workbench_fig import AFTER_STOP, COMMAND_STATES, PASSED_OVER, RAN, STOPPED, command_strip


def example(name):
    return json.loads((ROOT / "examples" / "partial" / f"{name}.json").read_text())


def states(figure):
    """{command index: state} read back from the figure's traces."""
    return {x: data["name"] for data in figure.to_dict()["data"] for x in data["x"]}


def test_each_command_appears_once_with_its_state():
    model = example("join_convolution_onnx")
    steps = command_steps_partial(model, run_model_partial(model))
    assert [s[2] for s in steps] == [RAN, RAN, PASSED_OVER, STOPPED, AFTER_STOP, AFTER_STOP]
    assert steps[3][3].startswith("commands[3]: dispatches conv") and steps[4][3] == ""
    figure = command_strip(steps)
    assert states(figure) == {i: s[2] for i, s in enumerate(steps)}
    hover = [text for data in figure.to_dict()["data"] for text in data["customdata"]]
    assert any(text.startswith("commands[2] print weights<br>skipped: changes no buffer: commands[2]: prints weights")
               for text in hover)


def test_states_differ_in_shape_as_well_as_color():
    colors, symbols = zip(*COMMAND_STATES.values())
    assert len(set(colors)) == len(set(symbols)) == len(COMMAND_STATES)


def test_a_long_command_list_is_capped_and_says_so():
    steps = [(i, "print x", RAN, "") for i in range(10_000)]
    figure = command_strip(steps, max_commands=100)
    assert len(states(figure)) == 100
    assert "first 100 of 10,000 commands drawn" in figure.to_dict()["layout"]["title"]["text"]
    assert figure_json_size(command_strip(steps)) < 2_000_000


def test_a_few_commands_are_labelled_with_type_and_name_many_only_by_index():
    few = command_strip([(0, "dispatch join", RAN, ""), (1, "print joined", RAN, "")])
    assert [t for data in few.to_dict()["data"] for t in data["text"]] == ["0 dispatch<br>join", "1 print<br>joined"]
    many = command_strip([(i, "print x", RAN, "") for i in range(20)])
    assert many.to_dict()["data"][0]["text"][:2] == ["0", "1"]
