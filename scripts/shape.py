"""The UI's shape in numbers, for this checkout or another (issue 28's closing note: before and after).

    .venv/bin/python scripts/shape.py [--root PATH ...]

For each checkout, read as text (nothing is imported or run):

- files a page spans: per operator page, the files of its folder (app_pages/<page>/) and the production files outside
  it (app.py, app_pages/, ui/, viz/, serve/) whose code (docstrings left out) holds something of the page (its URL
  keys, its module and class names);
- string switches on page names: string literals naming a page or family ("depth_space", "bitwise", "split_join",
  "bitwise_or", "layouts", "gather_scatter", "slice_pad") in the code every page shares (ui/, viz/, serve/,
  app.py), and the files holding them;
- the ui/ floors: the longest chain of ui/'s modules importing one another (ui.a imports ui.b imports ...);
- public functions with type hints (every parameter and the return annotated), per package;
- `duplicates` pairs: the pairs the `duplicates` command lists for the whole tree.
"""

import argparse
import ast
import io
import re
import shutil
import subprocess
import tokenize
from pathlib import Path

from support.typed import public_functions, unhinted

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = ("app.py", "app_pages", "ui", "viz", "serve")
SHARED = ("app.py", "ui", "viz", "serve")
PAGE_NAMES = {"depth_space", "bitwise", "split_join", "bitwise_or", "layouts", "gather_scatter", "slice_pad"}
# What marks a file as holding something of a page: its URL keys and the names of its modules and classes.
PAGE_MARKS = {
    "Depth <-> Space": (r'"ds_|depth_space_fig|depth_space_work|app_pages[./]depth_space|DepthSpacePage|\bdsw\b'
                        r'|"depth_space"'),
    "Bitwise": r'"or_|"bw_|bitwise_fig|bitwise_work|app_pages[./]bitwise|BitwisePage|OrOperands|"bitwise',
    "Split <-> Join": (r'"sj_|split_join_fig|split_join_work|app_pages[./]split_join|SplitJoinPage|\bsjw\b'
                       r'|"split_join"'),
    "Layouts": r'"ly_|layouts_fig|memory_map_fig|layouts_work|app_pages[./]layouts|LayoutsPage|\blw\b|"layouts"',
    "Gather & Scatter": r'"gs_|app_pages[./]gather_scatter|GatherScatterPage|"gather_scatter"',
    "Slice, Pad & Tile": r'"sp_|app_pages[./]slice_pad|SlicePadPage|"slice_pad"',
}
HINTED_PACKAGES = ("ui", "viz", "serve", "app_pages")


def sources(root, parts):
    for part in parts:
        path = root / part
        yield from [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))


def code_text(path):
    """The names and string literals of a module's code, its docstrings left out: what it does, not what it says."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            words.append(node.name)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.alias):
            words.append(node.name)
        elif isinstance(node, (ast.ImportFrom)) and node.module:
            words.append(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.append(f'"{node.value}')
    return " ".join(words)


def page_files(root):
    """{page: (the files of its folder, the files outside it holding something of it)}. A file inside another page's
    folder is that page's, even where it uses a figure module both pages draw (the workbench's memory maps are
    Layouts' figure too)."""
    texts = {str(p.relative_to(root)): code_text(p) for p in sources(root, PRODUCTION)}
    spans = {}
    for page, marks in PAGE_MARKS.items():
        folder = [path for path in texts if _folder_of(path) and re.search(marks, f"app_pages/{_folder_of(path)}")]
        outside = [path for path, text in texts.items()
                   if not _folder_of(path) and re.search(marks, text)]
        spans[page] = (sorted(folder), sorted(outside))
    return spans


def _folder_of(path):
    """The page folder a file is in (app_pages/<folder>/...), or None."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "app_pages" else None


def string_switches(root):
    found = []
    for path in sources(root, SHARED):
        for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if token.type == tokenize.STRING:
                try:
                    value = ast.literal_eval(token.string)
                except (ValueError, SyntaxError):
                    continue
                if value in PAGE_NAMES:
                    found.append((str(path.relative_to(root)), token.start[0], value))
    return found


def ui_floors(root):
    """The longest import chain among ui/'s modules, and the chain."""
    imports = {}
    for path in sorted((root / "ui").glob("*.py")):
        name = path.stem
        found = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    found.update([node.module] if node.module else [a.name for a in node.names])
                elif node.module == "ui":
                    found.update(a.name for a in node.names)
                elif node.module and node.module.startswith("ui."):
                    found.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("ui."))
        imports[name] = {m for m in found if (root / "ui" / f"{m}.py").exists() and m != name}
    memo = {}

    def chain(module, seen=()):
        if module in memo:
            return memo[module]
        longest = max((chain(m, seen + (module,)) for m in imports[module] if m not in seen), key=len, default=[])
        memo[module] = [module, *longest]
        return memo[module]

    best = max((chain(m) for m in imports), key=len)
    return len(best), best, len(imports)


def hinted(root):
    counts = {}
    for package in HINTED_PACKAGES:
        total = annotated = 0
        for path in sources(root, (package,)):
            for node in public_functions(ast.parse(path.read_text())):
                total += 1
                annotated += not unhinted(node)
        counts[package] = (annotated, total)
    return counts


def duplicate_pairs(root):
    if shutil.which("duplicates") is None:
        return "the duplicates command is not on PATH"
    run = subprocess.run(["duplicates", "--seconds", "120"], cwd=root, capture_output=True, text=True, timeout=300)
    first = run.stdout.splitlines()[0] if run.stdout else run.stderr.strip()
    return first


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, nargs="*", default=[ROOT], help="checkouts to read (default: this one)")
    args = parser.parse_args()
    for root in args.root:
        print(f"## {root.resolve()}\n")
        for page, (folder, outside) in page_files(root).items():
            where = f"{len(folder)} in its folder, " if folder else ""
            print(f"- {page}: {len(folder) + len(outside)} files: {where}{len(outside)} outside ({', '.join(outside)})")
        switches = string_switches(root)
        files = sorted({path for path, _, _ in switches})
        print(f"- string switches on page names in shared code: {len(switches)} in {len(files)} files "
              f"({', '.join(files)})")
        floors, chain, modules = ui_floors(root)
        print(f"- ui/: {modules} modules, {floors} floors ({' -> '.join(chain)})")
        print("- public functions with type hints: " + ", ".join(f"{package}/ {annotated} of {total}"
                                                               for package, (annotated, total) in hinted(root).items()))
        print(f"- duplicates: {duplicate_pairs(root)}\n")


if __name__ == "__main__":
    main()
