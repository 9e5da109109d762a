"""List the library's functions longer than a limit, package by package, from the source's AST.

A function's length is its lines from ``def`` to its last statement (decorators not counted,
a nested function counted within its parent and on its own). The numeric kernels (compiled
dynamic programmes whose loops are one piece: :data:`NUMERIC_KERNELS`) are listed apart: the
house allows them to be long. Also prints each package's modules and lines, so a restructuring
can report before and after.

    python scripts/long_functions.py [--max 60] [--root shared/gecscore] [--json]

Exit status 1 when a function outside the kernels is over the limit (``--check``), else 0.
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "shared" / "gecscore"

# Compiled numeric kernels allowed to be long (qualified names, module-relative): the
# alignment tables' fill loops (the _align_kernel/_fill family) and the I-measure's scorer.
NUMERIC_KERNELS = frozenset({
    "lang.en.alignment._align_kernel", "extract.alignment._align_kernel",
    "lang.zh.align._fill", "lang.free.align._fill", "imeasure.alignment._fill_plane",
    "imeasure.scorer.score_imeasure",
})


@dataclass(frozen=True)
class LongFunction:
    package: str     # first folder under the root ("<root>" for top-level modules)
    name: str        # module.Class.function, relative to the root
    lines: int
    kernel: bool


@dataclass(frozen=True)
class PackageSize:
    package: str
    modules: int
    lines: int


def package_of(path: Path, root: Path) -> str:
    parts = path.relative_to(root).parts
    return parts[0] if len(parts) > 1 else "<root>"


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "__init__"


def functions_of(tree: ast.AST, prefix: str):
    """(qualified name, lines) of every function and method in ``tree``, nested ones included."""
    def walk(node: ast.AST, scope: str):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{scope}.{child.name}"
                yield name, child.end_lineno - child.lineno + 1
                yield from walk(child, name)
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{scope}.{child.name}")
            else:
                yield from walk(child, scope)
    yield from walk(tree, prefix)


def survey(root: Path, limit: int) -> tuple[list[LongFunction], list[PackageSize]]:
    long, sizes = [], {}
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        package = package_of(path, root)
        modules, lines = sizes.get(package, (0, 0))
        sizes[package] = (modules + 1, lines + len(text.splitlines()))
        for name, length in functions_of(ast.parse(text), module_name(path, root)):
            if length > limit:
                long.append(LongFunction(package, name, length, name in NUMERIC_KERNELS))
    long.sort(key=lambda f: (f.package, -f.lines, f.name))
    return long, [PackageSize(p, m, n) for p, (m, n) in sorted(sizes.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=60, help="longest allowed function, in lines (default 60)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the package folder (default: the library)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--check", action="store_true", help="exit 1 when a non-kernel function is over --max")
    args = parser.parse_args(argv)
    long, sizes = survey(args.root.resolve(), args.max)
    if args.json:
        print(json.dumps({"max": args.max, "packages": [asdict(s) for s in sizes],
                          "long_functions": [asdict(f) for f in long]}, indent=1))
    else:
        print(f"{'package':<14}{'modules':>8}{'lines':>8}  functions over {args.max} lines (kernels marked *)")
        by_package: dict[str, list[LongFunction]] = {}
        for f in long:
            by_package.setdefault(f.package, []).append(f)
        for size in sizes:
            found = ", ".join(f"{f.name} {f.lines}{'*' if f.kernel else ''}" for f in by_package.get(size.package, ()))
            print(f"{size.package:<14}{size.modules:>8}{size.lines:>8}  {found}")
        outside = sum(not f.kernel for f in long)
        print(f"total: {sum(s.modules for s in sizes)} modules, {sum(s.lines for s in sizes)} lines; "
              f"{outside} functions over {args.max} lines outside the numeric kernels")
    return 1 if args.check and any(not f.kernel for f in long) else 0


if __name__ == "__main__":
    sys.exit(main())
