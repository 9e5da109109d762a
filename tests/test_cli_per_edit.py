"""``gecscore cleme2|pt_m2 ... --per-edit FILE``: one JSON line per hypothesis edit with its
attribution of the metric's sentence-level score."""
from __future__ import annotations

import json

import pytest

from gecscore.cli import main

SRC = "He go to school and buy a apple .\nShe are happy .\n"
REF = "He went to school and bought an apple .\nShe is happy .\n"
HYP = "He went to the school and buy an apple .\nShe are happy .\n"


@pytest.fixture
def files(tmp_path):
    for name, text in (("src", SRC), ("ref", REF), ("hyp", HYP)):
        (tmp_path / f"{name}.txt").write_text(text)
    return tmp_path


def run(files, *extra) -> list[dict]:
    out = files / "edits.jsonl"
    status = main(["pt_m2", "--src", str(files / "src.txt"), "--ref", str(files / "ref.txt"),
                   "--hyp", str(files / "hyp.txt"), "--scorer", "none", "--json", "--per-edit", str(out), *extra])
    assert status == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_pt_m2_per_edit_shapley_by_hand(files, capsys):
    records = run(files)
    # sentence 2 has no edit: no record; sentence 1's three edits in order
    assert [(r["sentence"], r["source"], r["correction"]) for r in records] == [
        (0, "go", "went"), (0, "", "the"), (0, "a", "an")]
    # SentM2 F0.5 (ref edits went, bought, an): all three edits TP 2 FP 1 FN 1 -> 2/3; none -> 0
    assert records[0]["full"] == pytest.approx(2 / 3) and records[0]["empty"] == 0.0
    assert sum(r["attribution"] for r in records) == pytest.approx(2 / 3)   # Shapley efficiency
    went, the, an = (r["attribution"] for r in records)
    assert went == pytest.approx(an) and went > 0 > the    # the two true edits alike, the spurious one negative
    assert (records[1]["start"], records[1]["end"], records[1]["method"]) == (3, 3, "shapley")
    assert json.loads(capsys.readouterr().out)["score"] == pytest.approx(0.625)   # corpus score unchanged


def test_sampled_and_one_at_a_time_methods(files):
    sampled = run(files, "--attribution", "sampled-shapley", "--attribution-samples", "3", "--seed", "1")
    assert {r["samples"] for r in sampled} == {3}
    assert sum(r["attribution"] for r in sampled) == pytest.approx(2 / 3)   # efficiency holds per permutation
    assert run(files, "--attribution", "sampled-shapley", "--attribution-samples", "3", "--seed", "1") == sampled
    removed = run(files, "--attribution", "remove-one")
    # leaving "the" out: TP 2 FP 0 FN 1 -> F0.5 = 1.25 * (2/3) / (0.25 * 1 + 2/3) = 10/11
    assert removed[1]["attribution"] == pytest.approx(2 / 3 - 10 / 11)
    added = run(files, "--attribution", "add-one")
    assert added[1]["attribution"] == 0.0      # "the" alone: TP 0 -> F 0, as no edit


def test_cleme2_per_edit_and_errors(files, capsys):
    out = files / "c.jsonl"
    assert main(["cleme2", "--src", str(files / "src.txt"), "--ref", str(files / "ref.txt"),
                 "--hyp", str(files / "hyp.txt"), "--per-edit", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3 and records[0]["attribution"] > 0
    assert sum(r["attribution"] for r in records) == pytest.approx(records[0]["full"] - records[0]["empty"])
    capsys.readouterr()
    assert main(["pt_m2", "--src", str(files / "src.txt"), "--ref", str(files / "ref.txt"), "--hyp",
                 str(files / "hyp.txt"), "--per-edit", str(out), "--attribution-samples", "0"]) != 0
    assert "--attribution-samples" in capsys.readouterr().err
    assert main(["cleme", "--src", str(files / "src.txt"), "--ref", str(files / "ref.txt"),
                 "--per-edit", str(out)]) == 2   # refused while parsing
