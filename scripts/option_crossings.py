"""Where one option crosses the library: the files under ``shared/gecscore`` that name it, the
places that give it a default again, and the places that validate it.

Usage: ``python scripts/option_crossings.py precision lang [--root shared/gecscore]``.

Read from the syntax tree (comments and docstrings never count). Per file:

- **mentions**: nodes that name the option as an identifier: an attribute ``x.<name>``, a
  call keyword ``<name>=``, a function parameter ``<name>``, a class field ``<name>: T``, and a
  string constant equal to ``<name>`` (a dict key, a ``getattr``/``.get`` field name, a key
  pair ``("<name>", ...)``). A bare local variable ``<name>`` is not counted (it is the same
  value as the parameter or field it came from). A file *crosses* when it has one mention.
- **defaults**: places that write a default value for it other than its declaration
  ``<name>: T = option(DEFAULT, ...)`` in ``options.py``: a parameter ``<name>`` with a default,
  a class field ``<name>: T = value`` (outside that declaration), and a
  ``getattr(x, "<name>", default)`` or ``x.get("<name>", default)``.
- **validates**: ``if`` statements whose test names the option (mention as above, or the bare
  name) and whose own body raises: a check of the value, wherever it is written.
"""
from __future__ import annotations

import argparse
import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "shared" / "gecscore"
DECLARATIONS = "options.py"


@dataclass(frozen=True, slots=True)
class Crossing:
    """One file's counts for one option."""

    path: str
    mentions: int
    defaults: int
    validates: int


def _names_option(node: ast.AST, name: str, bare: bool = False) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == name:
        return True
    if isinstance(node, ast.Constant) and node.value == name:
        return True
    return bare and isinstance(node, ast.Name) and node.id == name


def _mentions(tree: ast.AST, name: str) -> int:
    count = 0
    for node in ast.walk(tree):
        if _names_option(node, name):
            count += 1
        elif isinstance(node, ast.keyword) and node.arg == name:
            count += 1
        elif isinstance(node, ast.arg) and node.arg == name:
            count += 1
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            count += 1
    return count


def _is_declaration(node: ast.AnnAssign, in_options: bool) -> bool:
    value = node.value
    return in_options and isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "option"


def _defaults(tree: ast.AST, name: str, in_options: bool) -> int:
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            positional = [*a.posonlyargs, *a.args]
            with_default = positional[len(positional) - len(a.defaults):] if a.defaults else []
            with_default += [arg for arg, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
            count += sum(arg.arg == name for arg in with_default)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            count += node.value is not None and not _is_declaration(node, in_options)
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value == name and len(node.args) == 3 \
                and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            count += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) and node.args[0].value == name:
            count += 1
    return count


def _validates(tree: ast.AST, name: str) -> int:
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and any(_names_option(n, name, bare=True) for n in ast.walk(node.test)) \
                and any(isinstance(n, ast.Raise) for stmt in node.body for n in ast.walk(stmt)):
            count += 1
    return count


def crossings(name: str, root: Path = ROOT) -> list[Crossing]:
    """Every file under ``root`` that mentions ``name``, with its counts (module docstring)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mentions = _mentions(tree, name)
        if mentions:
            relative = path.relative_to(root).as_posix()
            out.append(Crossing(relative, mentions, _defaults(tree, name, relative == DECLARATIONS),
                                _validates(tree, name)))
    return out


def table(name: str, root: Path = ROOT) -> str:
    rows = crossings(name, root)
    width = max([len(r.path) for r in rows] + [4])
    lines = [f"option {name!r}: {len(rows)} files, {sum(r.defaults for r in rows)} defaults, "
             f"{sum(r.validates for r in rows)} validations",
             f"  {'file':<{width}}  mentions  defaults  validates"]
    lines += [f"  {r.path:<{width}}  {r.mentions:>8}  {r.defaults:>8}  {r.validates:>9}" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    print("\n\n".join(table(name, args.root) for name in args.names))


if __name__ == "__main__":
    main()
