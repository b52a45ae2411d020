"""Every public function of ui/, viz/, serve/ and the page folders named below carries type hints (each parameter
and the return), which mypy checks in CI (scripts/test.sh). Read from the source: a function is public unless its
name, or a class or function it is defined in, starts with an underscore."""

import ast

import pytest

from support.paths import ROOT
from support.typed import public_functions, unhinted

PACKAGES = ("ui", "viz", "serve")
# The pages whose folders are typed whole so far, until every page is.
PAGE_FOLDERS = ("app_pages/converter", "app_pages/detective", "app_pages/onnx_model", "app_pages/overview")
# The workbench's own modules, still in ui/ until its page becomes a folder.
PAGE_MODULES = {"ui/workbench_state.py", "ui/workbench_view.py", "ui/workbench_work.py"}
SOURCES = sorted(path for package in PACKAGES + PAGE_FOLDERS for path in (ROOT / package).rglob("*.py")
                 if str(path.relative_to(ROOT)) not in PAGE_MODULES)


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_every_public_function_has_type_hints(path):
    tree = ast.parse(path.read_text())
    missing = [f"{f.name} (line {f.lineno}): {', '.join(unhinted(f))}" for f in public_functions(tree) if unhinted(f)]
    assert not missing, missing


def test_the_page_modules_left_out_are_still_there():
    """The exceptions above go with their modules: one moved out of ui/ must leave the list."""
    assert all((ROOT / module).exists() for module in PAGE_MODULES)
