"""The CLI and the Spaces' shared page name no metric: what differs between metrics (the
--max-fallback-share and --per-edit flags, the text a result prints, whether a Space reads
references, which options it shows) is read from what the metric class and its config declare,
so a metric added to the registry gets its command and its page without an edit here."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gecscore.registry import metric_names, module_names

PACKAGE = Path(__file__).resolve().parents[1] / "shared" / "gecscore"
# ``gecscore errant`` is not a registry metric: its own command prints "metric": "errant"
EDGES = sorted(p for p in (PACKAGE / "cli").glob("*.py") if not p.name.startswith("errant")) + [
    PACKAGE / "spaces" / "framework.py"]


def string_literals(path: Path) -> set[str]:
    """Every string constant in the module (docstrings and f-string pieces included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}


@pytest.mark.parametrize("path", EDGES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_metric_name_is_a_string_literal(path):
    names = set(metric_names()) | set(module_names())
    assert not string_literals(path) & names, f"{path.name} names metrics: {sorted(string_literals(path) & names)}"

