"""What an operator page shows of itself on the Overview: a heading, a paragraph, a picture and presets."""

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from viz.spec import SpecFigure


@dataclasses.dataclass(frozen=True)
class Section:
    title: str  # the operators by their DirectML names
    text: str  # what they do, in a paragraph (Markdown)
    picture: Callable[[], SpecFigure]  # a small figure of a telling case (shared work)
    presets: tuple[tuple[str, Mapping[str, Any]], ...] = ()  # (label, the page's URL settings) buttons into the page
