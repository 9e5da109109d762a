"""Issue 32, item 4: an error path must end in one clear error, and an error path that no test
runs can hide a ``NameError`` (a spec with an unknown option raised one: the spec parser used
an exception it never imported). So every ``raise`` of the leaderboard's spec parsing and of the
leaderboard command's argument checks is run here, and the test fails when a new ``raise`` has
no case; pyflakes (in the test extra) checks the whole library for undefined names."""
from __future__ import annotations

import ast
import contextlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore.leaderboard import run_wide, specs
from gecscore.leaderboard.specs import resolve

import gecscore
import gecscore.cli.compare as cli_compare
import gecscore.cli.errant as cli_errant
import gecscore.cli.errant_zh as cli_errant_zh
import gecscore.cli.leaderboard as cli_leaderboard
import gecscore.cli.publish as cli_publish
import gecscore.cli.score as cli_score

from test_leaderboard import tiny  # noqa: F401 - the fixture


def raise_lines(module: ModuleType, functions: set[str] | None = None) -> dict[int, str]:
    """``{line: function}`` of every ``raise`` statement in ``functions`` (all if None) of ``module``."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (functions is None or node.name in functions):
            found.update({n.lineno: node.name for n in ast.walk(node) if isinstance(n, ast.Raise)})
    return found


@contextlib.contextmanager
def lines_run(*modules: ModuleType) -> Iterator[dict[ModuleType, set[int]]]:
    """The lines of each of ``modules`` executed inside the block."""
    seen: dict[ModuleType, set[int]] = {m: set() for m in modules}
    by_file = {m.__file__: seen[m] for m in modules}

    def tracer(frame, event, arg):
        lines = by_file.get(frame.f_code.co_filename)
        if lines is None:
            return None

        def local(frame, event, arg):
            if event == "line":
                lines.add(frame.f_lineno)
            return local
        return local

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        yield seen
    finally:
        sys.settrace(previous)


# every way a leaderboard configuration spec can be wrong, and a word of its message
BAD_SPECS = [
    ("nosuch:level=corpus", "unknown metric 'nosuch'"),
    ("green:level", "cannot read the options"),
    ("green:nosuch=1", "unknown option for this metric"),
    ("gotoscorer:no_weight=maybe", "must be true or false"),
    ("green:order=two", "must be int"),
    ("green:beta=high", "must be float"),
    ("green:beta=-1", "beta"),
    ("no-such-config", "unknown metric configuration"),
    ("green:level=corpus,level=sentence", "given twice"),
]
# errors of several specs together, or of specs with run-wide options
BAD_SPEC_SETS = [
    (["pt_m2:scorer=none,model={tmp}/a/m/bert", "pt_m2:scorer=none,model={tmp}/b/m/bert"], {},
     "would both be named"),
    (["scribendi"], {"lang": "zh"}, "scribendi has no lang option"),
]


def check_spec_errors(specs: list[tuple[str, str]], tmp: Path) -> None:
    for spec, words in specs:
        with pytest.raises(GecInputError, match=words):
            resolve([spec])
    for place in ("a", "b"):   # local model folders: the tables name them by their last two components
        (tmp / place / "m" / "bert").mkdir(parents=True, exist_ok=True)
    for patterns, text, words in BAD_SPEC_SETS:
        with pytest.raises(GecInputError, match=words):
            resolve([p.format(tmp=tmp) for p in patterns], run_wide.RunWide(text=text))


def test_every_raise_of_the_spec_parser_is_run_and_clear(tmp_path):
    parsing = {specs: {"parse_spec", "_read_value", "resolve", "spec_name", "check_spec_names"},
               run_wide: {"run_wide_refusal"}}
    expected = {module: raise_lines(module, functions) for module, functions in parsing.items()}
    assert all(expected.values()), "no raise found: the parsing functions were renamed"
    with lines_run(*parsing) as runs:
        check_spec_errors(BAD_SPECS, tmp_path)
    for module, lines in expected.items():
        missing = {line: name for line, name in lines.items() if line not in runs[module]}
        assert not missing, f"raise statements of {module.__name__} no case runs (add one to BAD_SPECS): {missing}"


@pytest.mark.parametrize("spec,words", BAD_SPECS)
def test_a_bad_spec_is_one_line_exit_2(spec, words, tiny, capsys):  # noqa: F811 - the fixture
    status = main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                   "--metrics", spec, "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("gecscore leaderboard: error: ")


def leaderboard_argument_errors(tiny: Path) -> list[tuple[list[str], str]]:
    gold, hyp = str(tiny / "gold.m2"), str(tiny / "hyp")
    return [
        (["--m2", gold], "give --systems DIR"),
        (["--hyp-m2-dir", hyp], "give the gold"),
        (["--m2", gold, "--hyp-m2-dir", hyp, "--jobs", "2", "--scheduler", "local:1"], "not both"),
        (["--m2", gold, "--hyp-m2-dir", hyp, "--connect-timeout", "3"], "give --scheduler too"),
        (["--m2", gold, "--hyp-m2-dir", hyp, "--metrics", "m2-corpus", "--sentence-judgments", "nonsense"],
         "expected 'seeda' or NAME=FILE.xml"),
    ]


def test_every_raise_of_the_leaderboard_command_is_run_and_clear(tiny, capsys):  # noqa: F811 - the fixture
    expected = raise_lines(cli_leaderboard, {"_run", "load_judgments", "_sentence_systems", "run"})
    with lines_run(cli_leaderboard) as runs:
        for argv, words in leaderboard_argument_errors(tiny):
            status = main(["leaderboard", *argv, "--quiet"])
            err = capsys.readouterr().err
            assert status == 2 and words in err and err.count("\n") == 1, (argv, err)
    seen = runs[cli_leaderboard]
    missing = {line: name for line, name in expected.items() if line not in seen}
    assert not missing, f"raise statements of the leaderboard command no case runs: {missing}"


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# the argument errors of the other commands: (argv, words of the one-line message)
COMMAND_ERRORS = [
    (["errant", "-hyp", "{x}/hypothesis.m2", "-ref", "{x}/gold.m2", "-ref", "{x}/gold.m2"], "several -ref need --src"),
    (["errant", "--lang", "zh", "-hyp", "{x}/hypothesis.m2", "-ref", "{x}/gold.m2", "--src", "{x}/source.txt"],
     "--src is not used"),
    (["errant", "--lang", "zh", "-hyp", "{x}/hypothesis.m2", "-ref", "{x}/gold.m2", "-ref", "{x}/gold.m2"],
     "takes one -ref file"),
    (["errant", "--lang", "zh", "-hyp", "{x}/no-such-file.txt", "-ref", "{x}/gold.m2"], "no such file"),
    (["errant", "--lang", "zh", "-hyp", "{x}/hypothesis.txt", "-ref", "{x}/gold.m2"], "plain text"),
    (["compare", "--metric", "pt_m2", "--m2", "{x}/gold.m2", "--hyp", "{x}/hypothesis.txt"], "at least two systems"),
    (["compare", "--metric", "pt_m2", "--m2", "{x}/gold.m2", "--hyp", "{x}/hypothesis.txt", "{x}/source.txt",
      "--set", "beta"], "--set expects OPTION=VALUE"),
    (["publish", "green", "--out", "{tmp}/spaces"], "--namespace is required"),
    (["cleme2", "--m2", "{x}/gold.m2", "--hyp", "{x}/hypothesis.txt", "--per-edit", "{tmp}/edits.jsonl",
      "--attribution-samples", "0"], "argument --attribution-samples: must be at least 1, got 0"),
]
# raises that need a service to fail (an upload), checked where that service is faked
NOT_RUN_HERE = {(cli_publish, "upload to")}


def test_every_argument_error_of_the_commands_is_run_and_clear(tmp_path, capsys):
    modules = (cli_errant, cli_errant_zh, cli_compare, cli_publish, cli_score)
    tracked = {m: raise_lines(m) for m in modules}
    with lines_run(*modules) as runs:
        for argv, words in COMMAND_ERRORS:
            argv = [a.format(x=EXAMPLES, tmp=tmp_path) for a in argv]
            status = main([*argv, "--quiet"])
            err = capsys.readouterr().err
            assert status == 2 and words in err and err.count("\n") == 1, (argv, err)
    for m in modules:
        lines = runs[m]
        source = Path(m.__file__).read_text().splitlines()
        missing = {line: f"{name}: {source[line - 1].strip()}" for line, name in tracked[m].items()
                   if line not in lines and not any(mod is m and text in source[line - 1]
                                                    for mod, text in NOT_RUN_HERE)}
        assert not missing, f"raise statements of {m.__name__} no case runs (add one to COMMAND_ERRORS): {missing}"


def test_no_undefined_names_in_the_library():
    """Static: a name used but never defined or imported, on any path, run or not."""
    import pyflakes.api as api   # in the test extra: a missing one is a failed set-up, not a skip
    from pyflakes.messages import UndefinedName
    from pyflakes.reporter import Reporter

    class Collect(Reporter):
        def __init__(self):
            super().__init__(sys.stdout, sys.stderr)
            self.found: list[str] = []

        def flake(self, message):
            if isinstance(message, UndefinedName):
                self.found.append(str(message))

    reporter = Collect()
    api.checkRecursive([str(Path(gecscore.__file__).parent)], reporter)
    assert not reporter.found
