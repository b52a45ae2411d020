"""The lowest contrast of each kind of figure text, in the light and the dark theme, over every figure builder's
cases (support.contrast.figure_cases): what the closing note of issue 30 reports before and after.

    .venv/bin/python scripts/figure_contrast.py                                  # this checkout, as drawn now
    .venv/bin/python scripts/figure_contrast.py --root ../before --rule plotly   # an older checkout, as drawn then

--root draws with another checkout's figure builders (its viz/, loaded under another name; the core, the values
and the measuring are this checkout's); --rule says who inks the cell labels that a figure leaves uncolored: "page"
(ui/plotly_chart.js, black or white on the cell as shown) or "plotly" (plotly.js: white or #444, chosen over white).
"""

import argparse
import importlib.util
import sys
from pathlib import Path

import streamlit  # noqa: F401  (its plotly template, which the figures carry in the app)

from ops import DescriptorError
from support.contrast import KINDS, PAGE, PLOTLY, THEMES, figure_cases, figure_texts, lowest


def load_viz(root):
    """The viz package of the checkout at `root`, imported as viz_at_root."""
    spec = importlib.util.spec_from_file_location("viz_at_root", Path(root) / "viz" / "__init__.py",
                                                  submodule_search_locations=[str(Path(root) / "viz")])
    package = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = package
    spec.loader.exec_module(package)
    return spec.name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", help="draw with the figure builders of this checkout")
    parser.add_argument("--rule", choices=(PAGE, PLOTLY), default=PAGE)
    args = parser.parse_args()
    cases = figure_cases(load_viz(args.root) if args.root else "viz")
    texts = {theme: [] for theme in THEMES}
    for name, (build, *arguments) in cases.items():
        try:
            spec = build(*arguments).to_dict()
        except DescriptorError:
            continue  # a type the operator refuses (the shifts take unsigned integers)
        for theme in THEMES:
            texts[theme] += [(name, text) for text in figure_texts(spec, theme, args.rule)]
    print(f"{len(cases)} figure cases, cell labels inked by {args.rule}; the lowest contrast of each kind:")
    print(f"| text | {' | '.join(THEMES)} |")
    print(f"| --- |{' ---: |' * len(THEMES)}")
    worst = {theme: lowest([text for _, text in texts[theme]]) for theme in THEMES}
    where = {theme: {id(text): name for name, text in texts[theme]} for theme in THEMES}
    for kind in KINDS:
        cells = [f"{worst[t][kind].contrast:.2f} ({where[t][id(worst[t][kind])]}: {worst[t][kind].where})"
                 if kind in worst[t] else "-" for t in THEMES]
        print(f"| {kind} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
