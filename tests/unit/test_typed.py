"""Every public function of the app (app.py, app_pages/, ui/, viz/ and serve/) carries type hints (each parameter and
the return), which mypy checks in CI (scripts/test.sh). Read from the source: a function is public unless its name, or
a class or function it is defined in, starts with an underscore."""

import ast

import pytest

from support.paths import ROOT
from support.typed import public_functions, unhinted

PACKAGES = ("app_pages", "ui", "viz", "serve")
SOURCES = sorted([ROOT / "app.py"] + [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")])


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_every_public_function_has_type_hints(path):
    tree = ast.parse(path.read_text())
    missing = [f"{f.name} (line {f.lineno}): {', '.join(unhinted(f))}" for f in public_functions(tree) if unhinted(f)]
    assert not missing, missing
