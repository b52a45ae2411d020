"""Every public function of ui/, viz/ and serve/ carries type hints (each parameter and the return), which mypy checks
in CI (scripts/test.sh). Read from the source: a function is public unless its name, or a class or function it is
defined in, starts with an underscore."""

import ast

import pytest

from support.paths import ROOT

PACKAGES = ("ui", "viz", "serve")
# Pages' own modules still in ui/ until their pages become folders (after issue 31's changes to them land): the
# workbench's and the detective's.
PAGE_MODULES = {"ui/workbench_state.py", "ui/workbench_view.py", "ui/workbench_work.py", "ui/detective_work.py"}
SOURCES = sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                 if str(path.relative_to(ROOT)) not in PAGE_MODULES)


def public_functions(node, private=False):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            hidden = private or (child.name.startswith("_") and not child.name.startswith("__"))
            if isinstance(child, ast.ClassDef):
                yield from public_functions(child, hidden)
                continue
            if not hidden:
                yield child
            yield from public_functions(child, True)
        else:
            yield from public_functions(child, private)


def unhinted(function):
    arguments = function.args.posonlyargs + function.args.args + function.args.kwonlyargs
    arguments = [a for a in arguments if a.arg not in ("self", "cls")]
    arguments += [a for a in (function.args.vararg, function.args.kwarg) if a is not None]
    missing = [a.arg for a in arguments if a.annotation is None]
    return missing + (["return"] if function.returns is None else [])


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_every_public_function_has_type_hints(path):
    tree = ast.parse(path.read_text())
    missing = [f"{f.name} (line {f.lineno}): {', '.join(unhinted(f))}" for f in public_functions(tree) if unhinted(f)]
    assert not missing, missing


def test_the_page_modules_left_out_are_still_there():
    """The exceptions above go with their modules: one moved out of ui/ must leave the list."""
    assert all((ROOT / module).exists() for module in PAGE_MODULES)
