"""The house: every import of the library (module level or inside a function) runs down the
layers below, never back up, and no two modules import each other, directly or in a ring.

A reader can then know what a module may touch from where it sits: the foundation knows no
metric, a metric family knows the seam and the components below it, and only the entry points
(the CLI, the package's ``load``) know everything.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "shared" / "gecscore"

# lowest first; a module may import its own layer's modules only inside its own folder
LAYERS: list[tuple[str, set[str]]] = [
    ("foundation", {"version", "errors", "types", "options", "signature", "registry", "progress", "extras", "strings",
                    "inputs", "compiled", "outputs", "lru", "fscore", "result_text", "collection", "network",
                    "warnings_once", "user_folders"}),
    ("components", {"cache", "io", "extract", "lang", "models", "judge", "benchdata"}),
    ("seam", {"metric", "judged_metric"}),
    ("families", {"chunks", "m2", "imeasure", "dsgram", "gleu", "green", "gotoscorer", "some", "impara",
                  "scribendi", "llm_eval"}),
    ("benchmark data", {"benchdata"}),
    ("statistics", {"metaeval", "significance"}),
    ("leaderboard", {"leaderboard"}),
    ("uses", {"robustness", "evaluate_info", "evaluate_distributed", "publish", "spaces", "attribution"}),
    ("entries", {"cli", "__main__", "<package>", "integrations"}),
]


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        names[name] = path
    return names


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    """The library modules ``path`` imports anywhere in it (``from gecscore import x`` of a
    module ``x`` counts as importing ``gecscore.x``, not the package)."""
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                   for inner in block.body for n in ast.walk(inner)}
    for node in ast.walk(tree):
        if id(node) in typing_only:   # annotations only: not imported when the code runs
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("gecscore")}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("gecscore"):
            submodules = {f"{node.module}.{a.name}" for a in node.names} & set(modules)
            found |= submodules or {node.module}
            if len(submodules) < len(node.names):
                found.add(node.module)
    return {m for m in found if m in modules}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def unit(module: str) -> str:
    """``gecscore.m2.pt_m2`` -> ``m2``; ``gecscore.metric`` -> ``metric``; ``gecscore`` -> ``<package>``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "<package>"


def layer(module: str) -> int:
    for rank, (_, units) in enumerate(LAYERS):
        if unit(module) in units:
            return rank
    raise AssertionError(f"{module} is in no layer: add its folder to LAYERS")


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(path, modules) - {name} for name, path in modules.items()}


def test_every_import_runs_down_the_layers(graph):
    upward = [f"{a} ({LAYERS[layer(a)][0]}) imports {b} ({LAYERS[layer(b)][0]})"
              for a, deps in graph.items() for b in deps if layer(b) > layer(a)]
    assert not upward, "\n".join(sorted(upward))


#: where a leaderboard's cells are scored besides this process; the caller (the CLI) picks one
EXECUTORS = {"gecscore.leaderboard.processes", "gecscore.leaderboard.dask_cluster"}


def test_the_leaderboard_core_imports_no_executor(graph):
    """The board knows the executor protocol only (gecscore.leaderboard.executor): the local
    process pool and the Dask cluster are chosen by the CLI (or a script), never imported by the
    board, its scoring, cache or reports."""
    assert EXECUTORS <= set(graph)
    core = [m for m in graph if unit(m) == "leaderboard" and m not in EXECUTORS]
    found = sorted(f"{m} imports {d}" for m in core for d in graph[m] & EXECUTORS)
    assert not found, "\n".join(found)


#: the rooms of statistics: functions over scores, human rankings and sentence statistics
STATISTICS = {"metaeval", "significance"}
#: what runs metrics or processes; a statistics module imports none of it
RUNS_METRICS = {"gecscore.metric", "gecscore.judged_metric", "gecscore.registry"}
RUNS_PROCESSES = {"multiprocessing", "concurrent", "dask", "distributed"}


def test_the_statistics_run_no_metric_and_no_process(graph):
    """Williams' test, TrueSkill or a paired bootstrap for one's own scores imports neither the
    metric seam nor the registry, nor a process pool or a cluster client: the leaderboard uses
    the statistics, never the other way."""
    paths = module_names()
    found = []
    for module, deps in graph.items():
        if unit(module) not in STATISTICS:
            continue
        found += [f"{module} imports {d}" for d in sorted(deps) if d in RUNS_METRICS or unit(d) == "leaderboard"]
        found += [f"{module} imports {name}" for name in sorted(outside_imports(paths[module]))
                  if name.split(".")[0] in RUNS_PROCESSES]
    assert "metaeval" in {unit(m) for m in graph}   # the check cannot pass by finding no statistics
    assert not found, "\n".join(found)


def outside_imports(path: Path) -> set[str]:
    """The modules outside the library that ``path`` imports anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return {name for name in found if not name.startswith("gecscore")}


def test_no_two_folders_import_each_other(graph):
    """Sideways imports within a layer (CLEME's per-type table reads M2's type rules) run one
    way only: the folder graph has no ring either."""
    folders: dict[str, set[str]] = {}
    for a, deps in graph.items():
        folders.setdefault(unit(a), set()).update(unit(b) for b in deps if unit(b) != unit(a))
    for name in folders:
        for other in folders:
            folders.setdefault(other, set())
    test_no_import_cycle(folders)


def test_no_import_cycle(graph):
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v: str) -> None:   # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert not cycles, cycles


def test_the_checker_sees_a_cycle_and_an_upward_import():
    """The two checks above can fail: a toy graph with a ring and an upward import."""
    ring = {"gecscore.m2.a": {"gecscore.m2.b"}, "gecscore.m2.b": {"gecscore.m2.a"}}
    with pytest.raises(AssertionError):
        test_no_import_cycle(ring)
    with pytest.raises(AssertionError):
        test_every_import_runs_down_the_layers({"gecscore.options": {"gecscore.judge.factory"}})


def test_no_module_imports_another_modules_private_names():
    private = []
    for name, path in module_names().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gecscore") \
                    and node.module != name:
                private += [f"{name} imports {node.module}.{a.name}" for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert not private, private


# Languages (issue 42): English is a language profile like the others, under gecscore.lang.
ENGLISH = "gecscore.lang.en"
LANG = "gecscore.lang"


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_english_is_reached_through_the_profile_lookup(graph):
    """Outside gecscore.lang no module imports English (gecscore.lang.en or a module in it) by
    name: a metric, the CLI or the meta-evaluation reaches it as ``profile_for("en")``, as it
    reaches every other language."""
    by_name = sorted(f"{a} imports {b}" for a, deps in graph.items() if not _in(a, LANG)
                     for b in deps if _in(b, ENGLISH))
    assert not by_name, "\n".join(by_name)


def test_the_profile_lookup_holds_no_language(graph):
    """gecscore.lang.profiles declares the protocol and looks profiles up; each language's
    profile and steps live in its own package (lang/en, lang/zh, lang/multigec, lang/free): the
    lookup imports the foundation and the languages' packages or ``profile`` modules only."""
    foundation = LAYERS[0][1]

    def allowed(module: str) -> bool:
        parts = module.split(".")
        return (unit(module) in foundation or (module.startswith(LANG + ".") and len(parts) == 3)
                or (module.startswith(LANG + ".") and len(parts) == 4 and parts[-1] == "profile"))

    reached = sorted(m for m in graph[f"{LANG}.profiles"] if not allowed(m))
    assert not reached, reached


def third_party_imports(path: Path) -> set[str]:
    """The top-level names of the packages ``path`` imports anywhere in it (not gecscore)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - {"gecscore"}


def test_errant_runs_inside_a_language_profile():
    """ERRANT (its alignment, merger and classifier) is imported only under gecscore.lang, and
    extract/ (the model-free text gold) imports neither ERRANT nor spaCy: English ERRANT is no
    longer kept apart from the other languages."""
    outside = sorted(name for name, path in module_names().items()
                     if not _in(name, LANG) and "errant" in third_party_imports(path))
    assert not outside, outside
    parsing = sorted(name for name, path in module_names().items()
                     if _in(name, "gecscore.extract") and third_party_imports(path) & {"errant", "spacy"})
    assert not parsing, parsing


def test_the_language_rules_see_a_by_name_import():
    """The two graph rules above can fail: a metric importing English's extractor by name, and
    a lookup that imports a language's step module."""
    with pytest.raises(AssertionError):
        test_english_is_reached_through_the_profile_lookup({"gecscore.chunks.samples": {"gecscore.lang.en.gold"}})
    with pytest.raises(AssertionError):
        test_the_profile_lookup_holds_no_language({"gecscore.lang.profiles": {"gecscore.lang.en.extractor"}})
