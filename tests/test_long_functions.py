"""scripts/long_functions.py counts a function's lines from ``def`` to its last line, nested ones
on their own, and the packages already in parts keep every function outside the numeric kernels
within 60 lines (issue 42)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _script():
    if "long_functions" not in sys.modules:
        spec = importlib.util.spec_from_file_location("long_functions", REPO / "scripts" / "long_functions.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["long_functions"] = module  # dataclasses look their module up by name
        spec.loader.exec_module(module)
    return sys.modules["long_functions"]


def test_lengths_by_hand(tmp_path):
    """A 4-line function holding a 2-line one, a 3-line method; with --max 2 all three are long,
    the top-level module's package is <root>, a kernel name is marked."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        "def outer():\n    def inner():\n        return 1\n    return inner\n\n\n"
        "class Box:\n    @property\n    def size(self):\n        x = 1\n        return x\n")
    (tmp_path / "top.py").write_text("def f():\n    return 0\n")
    script = _script()
    long, sizes = script.survey(tmp_path, 2)
    assert [(f.package, f.name, f.lines, f.kernel) for f in long] == [
        ("pkg", "pkg.mod.outer", 4, False), ("pkg", "pkg.mod.Box.size", 3, False)]
    assert [(s.package, s.modules, s.lines) for s in sizes] == [("<root>", 1, 2), ("pkg", 1, 11)]
    long, _ = script.survey(tmp_path, 1)
    assert {f.name for f in long} == {"pkg.mod.outer", "pkg.mod.outer.inner", "pkg.mod.Box.size", "top.f"}


def test_no_function_of_the_library_is_long_outside_the_numeric_kernels():
    script = _script()
    long, _ = script.survey(script.ROOT, 60)
    over = [f"{f.name} {f.lines}" for f in long if not f.kernel]
    assert not over, over
