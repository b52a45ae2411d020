"""Which public functions of a module carry type hints, read from its source (nothing is imported): shared by
tests/unit/test_typed.py, which requires them of app.py, app_pages/, ui/, viz/ and serve/, and
scripts/shape.py, which counts them."""

import ast


def public_functions(node, private=False):
    """The module's public functions: neither they nor a class or function they are defined in start with "_"."""
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
    """The names of `function`'s parameters without a type hint (self and cls aside), and "return" when its result
    has none."""
    arguments = function.args.posonlyargs + function.args.args + function.args.kwonlyargs
    arguments = [a for a in arguments if a.arg not in ("self", "cls")]
    arguments += [a for a in (function.args.vararg, function.args.kwarg) if a is not None]
    missing = [a.arg for a in arguments if a.annotation is None]
    return missing + (["return"] if function.returns is None else [])
