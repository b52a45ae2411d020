"""The README is the front door: its first screen shows the app and how to start it, and no link in the docs is dead."""

import re

import pytest

from support.paths import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Roughly what a browser shows of the README before scrolling.
FIRST_SCREEN = 40
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)")  # an image's too: ![alt](target)
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def links(text):
    """Link targets of Markdown text, leaving out code, where brackets and parentheses are Python or C++."""
    return LINK.findall(CODE.sub("", text))


def relative(target):
    return not re.match(r"[a-z][a-z0-9+.-]*:|#", target)


def test_the_first_screen_has_the_quick_start_and_a_picture_of_the_app():
    first = "\n".join((ROOT / "README.md").read_text().splitlines()[:FIRST_SCREEN])
    assert "bash scripts/app.sh" in first and "bash scripts/test.sh" in first
    assert "`scripts/test.sh` is exactly what CI runs" in first
    images = [target for target in IMAGE.findall(first) if relative(target)]
    assert images, "no picture of the app on the README's first screen"
    assert all((ROOT / image).is_file() for image in images), images


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_points_to_a_file_that_exists(page):
    targets = [target.split("#")[0] for target in links(page.read_text()) if relative(target)]
    dead = [target for target in targets if not (page.parent / target).exists()]
    assert not dead, f"{page.relative_to(ROOT)} links to missing {dead}"
