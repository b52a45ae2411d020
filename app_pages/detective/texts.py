"""What the layout detective writes about its inputs and a case: the captions, the table of cells in no input, and
the channel permutation's folding and diff (kept here so that the page only reads its widgets and lays out)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ops.detective.identify import IdentifyReport
from ui.say import Markdown, md

from .work import Case


def origin_caption(xs: Sequence[np.ndarray]) -> Markdown:
    """What the origin-coded inputs `xs` hold and how to run them through a framework."""
    shown = ", ".join(str(v) for v in xs[0].ravel()[:6].tolist())
    onwards = ", counting on through the next inputs" if len(xs) > 1 else ""
    return md(
        "Every element holds its own flat index ({}, ...{}), so whatever your framework does to it, each output value "
        "names the element it came from. Load it with `x = np.load('input.npy')` (or "
        "`torch.from_numpy(np.load(...))`), run your operator, and save the result with `np.save('output.npy', y)`.",
        shown, onwards)


def figure_caption(case: Case) -> Markdown:
    """How to read the case's figure of where each output cell came from."""
    drawn = case.figure.context.note
    shapes = ", ".join(str(list(y.shape)) for y in case.ys)
    return md(
        "Output sizes {}, compared by {}. Tiles are the last two dimensions, row 0 at the top; each output cell shows "
        "the flat index of the input element it came from and takes that element's color (✗: a value in no input). "
        "Hover for both indices.{}", shapes, case.report.compared_by, f" Drawn: {drawn}." if drawn else "")


def offending_rows(report: IdentifyReport, outputs: int) -> list[dict[str, str]]:
    """The table of the report's first cells whose value is in no input (`outputs`: how many outputs there are)."""
    return [{"output": f"y{c['output']}" if outputs > 1 else "y", "index": str(list(c["index"])),
             "value": repr(c["value"])} for c in report.offending]


def folding(best: dict[str, Any]) -> tuple[Markdown, str]:
    """(what the output equals, the code that folds P into the neighbouring convolution) for `best`, a report's
    permuted match: P on the input channels goes into the convolution before, on the output's into the one after."""
    descriptor, p = best["descriptor"], best["permutation"]
    if best["applies_to"] == "input channels":
        return (md("Your output equals {:code}. Apply P to the output channels of the convolution that produces x, and "
                   "that descriptor computes your output with no extra operation:",
                   f'depth_to_space(x[:, P], {descriptor["BlockSize"]}, "{descriptor["Order"]}")'),
                "import ops\n"
                f"P = {p.tolist()}\n"
                "weight, bias = ops.permute_conv_output_channels(weight, bias, P)  # = weight[P], bias[P]")
    return (md("Your output equals {:code}. The convolution that reads it can absorb P in its input channels:",
               f'space_to_depth(x, {descriptor["BlockSize"]}, "{descriptor["Order"]}")[:, P]'),
            "import ops\n"
            f"P = {p.tolist()}\n"
            "weight = ops.permute_conv_input_channels(weight, P)  # = weight[:, inverse(P)]")


def diff_text(diff: dict[str, Any], descriptor: dict[str, Any]) -> Markdown:
    """How many cells differ from `descriptor` applied as given (mix_up_diff's `diff`), and with P applied."""
    return md("**Diff before and after**: {} of {} cells differ from {} {} applied as given; with P applied, {}.",
              int(diff["before"].sum()), diff["before"].size, descriptor["operator"], descriptor["Order"],
              int(diff["after"].sum()))
