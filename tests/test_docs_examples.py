"""Every Python example of the README, the metric cards and the docs pages is valid Python whose
gecscore imports resolve (a page once imported ``score_para_files`` from a module that does not
have it). Running every example is scripts/check_readme_examples.py's job (some need the data or
minutes); this check is instant and covers every page."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "metrics").glob("*/README.md")])


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """(line number, code) of each ```python block of a page; a doctest block (``>>>``) keeps its
    statements without the prompts (its expected output is checked by tests/test_module_doctests.py)."""
    text = page.read_text(encoding="utf-8")
    out = []
    for match in re.finditer(r"```python\n(.*?)```", text, re.S):
        code = match.group(1)
        if code.lstrip().startswith(">>>"):
            code = "\n".join(line[4:] if line.startswith((">>> ", "... ")) else "" for line in code.splitlines())
        out.append((text[:match.start()].count("\n") + 2, code))
    return out


def test_the_pages_have_python_examples():
    assert sum(len(python_blocks(page)) for page in PAGES) > 20


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_parse_and_their_gecscore_imports_resolve(page):
    problems = []
    for line, code in python_blocks(page):
        try:
            tree = ast.parse(code)
        except SyntaxError as error:
            problems.append(f"{page.name}:{line + (error.lineno or 1) - 1}: {error.msg}")
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "gecscore":
                try:
                    module = importlib.import_module(node.module)
                except ModuleNotFoundError as error:
                    if (error.name or "").split(".")[0] == "gecscore":
                        problems.append(f"{page.name}:{line + node.lineno - 1}: no module {node.module}")
                    continue          # an optional dependency of that module (LightEval's own venv)
                for alias in node.names:
                    if alias.name != "*" and not hasattr(module, alias.name):
                        try:
                            importlib.import_module(f"{node.module}.{alias.name}")
                        except ImportError:
                            problems.append(f"{page.name}:{line + node.lineno - 1}: {node.module} has no {alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "gecscore":
                        importlib.import_module(alias.name)
    assert problems == []
