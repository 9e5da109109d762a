"""The repository's scripts and benchmarks find the named sets by name, as the CLI does
(gecscore.benchdata.script_support), and one that cannot have its data stops with one line and
exit status 2, never 0 having done nothing. scripts/reproduce.py writes only into the output
folder it names, unless --update-docs asks for docs/."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gecscore.benchdata import CATALOGUE
from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script, set_folder
from gecscore.errors import GecInputError
from test_benchdata import GOLD, SYSTEM, TOY, online, toy  # noqa: F401 - the fixtures

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = sorted([*(REPO / "scripts").glob("*.py"), *(REPO / "benchmarks").glob("*.py")])


def test_a_set_is_found_by_name_in_the_data_dir_and_fetched_there_on_first_use(toy, tmp_path):  # noqa: F811
    import argparse

    parser = argparse.ArgumentParser()
    add_data_dir_option(parser)
    args = parser.parse_args(["--data-dir", str(tmp_path)])
    assert data_root(["toy"], args.data_dir) == tmp_path
    assert set_folder("toy", args.data_dir) == tmp_path / "toy"
    assert (tmp_path / "toy/gold.txt").read_bytes() == GOLD and (tmp_path / "toy/systems/A.txt").read_bytes() == SYSTEM
    assert toy.total_hits == 2                       # two downloads (the table is embedded) ...
    assert data_root(["toy", "toy"], tmp_path) == tmp_path and toy.total_hits == 2   # ... and never again


def test_an_unknown_set_is_refused_naming_the_known_ones():
    with pytest.raises(GecInputError, match=r"^unknown set\(s\) nope; expected one of: conll14, conll14-systems"):
        data_root(["conll14", "nope"])


def test_run_script_prints_an_input_error_as_one_line_and_exits_2(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["some_script.py"])

    def fails() -> int:
        raise GecInputError("not in the data folder", "/data/conll14/source.txt")

    with pytest.raises(SystemExit) as stopped:
        run_script(fails)
    assert stopped.value.code == 2
    assert capsys.readouterr().err == "some_script.py: error: /data/conll14/source.txt: not in the data folder\n"
    for status, code in ((None, 0), (0, 0), (1, 1)):
        with pytest.raises(SystemExit) as stopped:
            run_script(lambda: status)
        assert stopped.value.code == code


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_script_looks_in_a_folder_of_its_own(script):
    """The class of the defect: a script that guessed the developers' layout (or read $GEC_DATA
    itself) found nothing elsewhere and exited 0. Scripts go through script_support (or the
    library's own by-name loaders) instead."""
    text = script.read_text(encoding="utf-8")
    assert not re.search(r"""shared["']\s*/\s*["']data|shared/data""", text), "the developers' data layout"
    reads = r"""environ\.get\(\s*["']GEC_DATA|environ\[\s*["']GEC_DATA["']\](?!\s*=)"""
    assert not re.search(reads, text), "reads $GEC_DATA itself"
    assert "/work/" not in text, "a workspace path"


@pytest.mark.parametrize("argv, missing", [
    (["scripts/human_trueskill.py", "--sets", "gjg15"], "gjg15/human_scores.tsv"),
    (["scripts/seeda_aggregation.py"], "seeda/human/EW_edit.txt"),
    (["benchmarks/bench_imeasure.py"], "conll14/official-2014.combined.m2"),
])
def test_a_script_without_its_data_exits_2_with_one_line(argv, missing, tmp_path):
    empty = tmp_path / "data"
    env = {**os.environ, "GECSCORE_OFFLINE": "1", "PYTHONPATH": str(REPO / "shared")}
    env.pop("GEC_DATA", None)
    done = subprocess.run([sys.executable, *argv, "--data-dir", str(empty)], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    name = Path(argv[0]).name
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"{name}: error: {empty}/{missing}: not in the data folder and downloads are off (GECSCORE_OFFLINE): "
        f"`gecscore data get {missing.split('/')[0]}` fetches it (or set GEC_DATA to a folder holding it)"]
    assert done.stdout == "" and not empty.exists()


@pytest.fixture
def reproduce(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    spec = importlib.util.spec_from_file_location("reproduce", REPO / "scripts" / "reproduce.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "reproduce", module)   # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_reproduce_writes_into_its_output_folder_and_docs_only_when_asked(reproduce):
    where = reproduce.destination(reproduce.parse_args([]))
    assert (where.report, where.plots, where.work) == (Path("reproduction/reproduction.md"),
                                                        Path("reproduction/plots"), Path("reproduction/runs"))
    where = reproduce.destination(reproduce.parse_args(["--out", "elsewhere", "--work", "/scratch/w"]))
    assert (where.report, where.plots, where.work) == (Path("elsewhere/reproduction.md"), Path("elsewhere/plots"),
                                                        Path("/scratch/w"))
    where = reproduce.destination(reproduce.parse_args(["--update-docs"]))
    assert (where.report, where.plots, where.work) == (REPO / "docs/reproduction.md", REPO / "docs/plots",
                                                        Path("reproduction/runs"))


@pytest.mark.parametrize("argv, message", [
    (["--out", "docs/reproduction.md"], "--out is the output folder (the report is reproduction.md in it)"),
    (["--jobs", "0"], "--jobs must be at least 1, got 0"),
    (["--demo-judge", "--judge-base-url", "http://x"], "--demo-judge starts its own server"),
])
def test_reproduce_refuses_bad_arguments(reproduce, capsys, argv, message):
    with pytest.raises(SystemExit) as stopped:
        reproduce.parse_args(argv)
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_reproduce_dry_run_reads_fetches_and_writes_nothing(reproduce, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GEC_DATA", str(tmp_path / "no-data"))
    assert reproduce.main(["--dry-run", "--only", "seeda-base"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("reproduce.py: would write the report to reproduction/reproduction.md, its plots to "
                      "reproduction/plots/ and the runs' outputs to reproduction/runs/")
    assert len(out) == 2 and out[1].startswith("[seeda-base] gecscore leaderboard --refset conll14-errant "
                                               "--systems $GEC_DATA/seeda/outputs/subset --subset-source "
                                               "$GEC_DATA/seeda/outputs/subset/INPUT.txt --human seeda-base")
    assert "--out $WORK/seeda-base" in out[1] and list(tmp_path.iterdir()) == []


def test_reproduce_section_needs_the_report_it_rewrites(reproduce, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GecInputError, match=r"^reproduction/reproduction.md: no report to regenerate a section of"):
        reproduce.main(["--section", "sentence-level"])
    assert list(tmp_path.iterdir()) == []


def test_reproduce_links_and_copies_the_scatter_plots_only(reproduce, tmp_path):
    plots = tmp_path / "seeda-base" / "plots"
    plots.mkdir(parents=True)
    for name in ("cleme-corpus-dep.png", "cleme-corpus-dep-unw.png", "pairwise_cleme-corpus-dep.png",
                 "windows_seeda-S-TS.png", "m2-corpus.png"):
        (plots / name).write_bytes(b"png")
    board = {"correlations": {"m2-corpus": {}, "cleme-corpus-dep": {}, "cleme-corpus-dep-unw": {}, "gleu": {}}}
    assert [p.name for p in reproduce.scatter_plots(tmp_path, "seeda-base", board)] == [
        "cleme-corpus-dep-unw.png", "cleme-corpus-dep.png", "m2-corpus.png"]   # by file name, as before


def test_every_named_set_a_script_asks_for_is_catalogued():
    asked = set()
    for script in SCRIPTS:
        for call in re.findall(r"(?:data_root|set_folder)\((\([^)]*\)|\[[^\]]*\]|\"[^\"]*\")", script.read_text()):
            asked |= set(re.findall(r"\"([a-z0-9-]+)\"", call))
    assert asked and asked <= set(CATALOGUE), asked - set(CATALOGUE)
