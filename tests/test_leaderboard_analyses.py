"""Leaderboard analyses of issue 26: pairwise (TrueSkill / Expected Wins) aggregation of sentence
scores as the system score, the system-pair verdicts against a human ranking, the SEEDA
+REF-F / +fluency set; on a synthetic board and, when the data is present, on SEEDA."""
from __future__ import annotations

import csv
import json

import pytest

from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore.metaeval.human import HumanScores, load_human, seeda_scores, seeda_systems
from gecscore.leaderboard.analyses import aggregate_scores
from gecscore.leaderboard.board import Leaderboard
from gecscore.metaeval.system_pairs import pairwise_systems
from gecscore.leaderboard.configurations import MetricConfig
from gecscore.leaderboard.system_scores import SystemScore
from gecscore.metaeval.trueskill_aggregate import trueskill_aggregate

from datapaths import CONLL14, GEC_DATA, require
from test_leaderboard import tiny  # noqa: F401 - the fixture

SENTENCES = {"C": (0.0, 0.0, 0.5), "A": (1.0, 1.0, 0.5), "B": (1.0, 0.0, 0.5)}


def synthetic_board() -> Leaderboard:
    """Systems listed out of name order; ``sent`` has sentence scores, ``corpus`` has none."""
    configs = [MetricConfig("sent", "toy", ()), MetricConfig("corpus", "toy", ())]
    scores = {s: {"sent": SystemScore(sum(v) / 3, {}, "sig", sentence_scores=v),
                  "corpus": SystemScore(float(i), {}, "sig")} for i, (s, v) in enumerate(SENTENCES.items())}
    return Leaderboard("toy", {}, 3, configs, list(SENTENCES), scores)


def test_expected_wins_aggregation_by_hand():
    board = synthetic_board()
    assert aggregate_scores(board, "expected-wins") == ["sent"]
    # A beats B once (sentence 2) and C twice, never loses: 1. B: 0 of 1 against A, 1 of 1
    # against C: (0 + 1) / 2. C: never wins. Sentence 3 is a draw for every pair.
    assert board.column("sent") == {"C": 0.0, "A": 1.0, "B": 0.5}
    assert board.scores["A"]["sent"].details["corpus_score"] == pytest.approx(2.5 / 3)
    assert board.column("corpus") == {"C": 0.0, "A": 1.0, "B": 2.0}   # no sentence scores: kept
    assert board.as_dict()["aggregation"] == {"method": "expected-wins", "configs": ["sent"]}


def test_trueskill_aggregation_takes_systems_in_name_order():
    board = synthetic_board()
    aggregate_scores(board, "trueskill")
    ordered = trueskill_aggregate({s: SENTENCES[s] for s in ("A", "B", "C")})
    assert board.column("sent") == pytest.approx(ordered)
    assert ordered["A"] > ordered["B"] > ordered["C"]
    # the board's own (insertion) order would give other numbers: the order is fixed on purpose
    assert trueskill_aggregate(SENTENCES) != pytest.approx(ordered)
    with pytest.raises(GecInputError, match="unknown aggregation"):
        aggregate_scores(board, "median")


def test_pairwise_system_verdicts():
    human = HumanScores("h", {"A": 4.0, "B": 3.0, "C": 2.0, "D": 2.0, "E": 1.0})
    metric = {"A": 0.9, "B": 0.95, "C": 0.5, "D": 0.6, "E": 0.5}
    pairs = pairwise_systems(metric, human)
    # 10 pairs: A-B swapped; C-D a human tie; C-E a metric tie; the other 7 in the human order
    assert pairs.counts() == {"agree": 7, "disagree": 1, "metric-tie": 1, "human-tie": 1}
    assert pairs.cells[("A", "B")] == "disagree" and pairs.cells[("C", "E")] == "metric-tie"
    assert pairs.as_dict()["disagree"] == [["A", "B"]]


def test_cli_aggregation_and_pairwise_outputs(tiny, capsys):  # noqa: F811 - the fixture
    out = tiny / "out"
    status = main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                   "--metrics", "cleme2-sentence-dep", "m2-corpus", "--human", str(tiny / "human.tsv"),
                   "--aggregation", "expected-wins", "--out", str(out)])
    assert status == 0
    board = json.loads((out / "leaderboard.json").read_text())
    # M2 has sentence scores too (sentence F0.5): both are aggregated, as in Goto et al. 2025
    assert board["aggregation"] == {"method": "expected-wins", "configs": ["cleme2-sentence-dep", "m2-corpus"]}
    m2 = {s: board["systems"][s]["m2-corpus"]["score"] for s in board["systems"]}
    # sentence F0.5: PERFECT 1, 1; HALF 1, 0; INPUT 0, 0; WRONG 0, 0. PERFECT wins every pair
    # it does not tie: 1; HALF: 0 (PERFECT), 1, 1 -> 2/3; INPUT and WRONG never win: 0
    assert m2 == pytest.approx({"PERFECT": 1.0, "HALF": 2 / 3, "INPUT": 0.0, "WRONG": 0.0})
    assert board["systems"]["HALF"]["m2-corpus"]["corpus_score"] == pytest.approx(5 / 6)
    ew = {s: board["systems"][s]["cleme2-sentence-dep"]["score"] for s in board["systems"]}
    # PERFECT is best on both sentences: it wins or draws every comparison
    assert ew["PERFECT"] == max(ew.values()) and all(0 <= v <= 1 for v in ew.values())
    counts = board["pairwise_systems"]["m2-corpus"]["human-EW"]["counts"]
    # M2 1, 5/6, 0, 0 vs human PERFECT 4, HALF 3, INPUT 1, WRONG 2: INPUT-WRONG a metric tie
    assert counts == {"agree": 5, "disagree": 0, "metric-tie": 1, "human-tie": 0}
    with (out / "correlations.csv").open() as handle:
        rows = {(r["config"], r["human"]): r for r in csv.DictReader(handle)}
    assert rows[("cleme2-sentence-dep", "human-EW")]["aggregation"] == "expected-wins"
    assert rows[("m2-corpus", "human-EW")]["aggregation"] == "expected-wins"
    assert rows[("m2-corpus", "human-EW")]["pairs_metric_tie"] == "1"
    png = out / "plots" / "pairwise_m2-corpus.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (out / "leaderboard.md").read_text()
    assert "Aggregation: expected-wins" in md and "| m2-corpus | 5 / 0 / 1 |" in md


def test_seeda_ref_f_set(tmp_path):
    systems = ["BART", "GPT-3.5", "INPUT", "REF-F", "REF-M", "T5"]
    (tmp_path / "SYSTEMS.txt").write_text("\n".join(systems) + "\n")
    for name in ("EW_sent", "TS_sent", "EW_edit", "TS_edit"):
        (tmp_path / f"{name}.txt").write_text("\n".join(map(str, range(6))) + "\n")
    ref_f = seeda_scores(tmp_path, "+ref-f")["seeda-S-TS"].systems
    assert ref_f == ("BART", "GPT-3.5", "REF-F", "REF-M", "T5")
    assert seeda_scores(tmp_path, "+fluency")["seeda-E-EW"].systems == ref_f
    assert seeda_scores(tmp_path, "+REF-F_GPT-3.5")["seeda-E-EW"].systems == ref_f
    assert seeda_systems("+ref-f", systems) == list(ref_f)
    assert seeda_systems("base", systems) == ["BART", "REF-M", "T5"]
    with pytest.raises(GecInputError, match=r"\+fluency"):
        seeda_systems("+gpt", systems)


@pytest.mark.realdata
def test_real_seeda_ref_f_outputs_and_rankings():
    subset = require(GEC_DATA / "seeda" / "outputs" / "subset")
    ranking = load_human("seeda-+ref-f", GEC_DATA)["seeda-S-TS"]
    assert len(ranking.systems) == 14 and "INPUT" not in ranking.scores
    assert {"REF-F", "GPT-3.5"} <= set(ranking.scores)
    lengths = {s: len((subset / f"{s}.txt").read_text(encoding="utf-8").split("\n")) for s in ranking.systems}
    assert set(lengths.values()) == {391}


def test_system_names_keep_dots_inside():
    from pathlib import Path

    from gecscore.leaderboard.systems import system_name

    assert system_name(Path("GPT-3.5.txt")) == "GPT-3.5"          # SEEDA's system
    assert system_name(Path("AMU.errant.m2")) == "AMU" == system_name(Path("AMU.txt"))
    assert system_name(Path("GPT-3.5.errant.m2")) == "GPT-3.5" == system_name(Path("GPT-3.5.m2"))


@pytest.mark.realdata
def test_real_seeda_trueskill_aggregation_correlates_as_by_hand():
    """SentGREEN on the SEEDA subset (base set, 12 systems): the leaderboard's TrueSkill
    aggregation and its correlation with SEEDA-S TrueSkill equal the ones made by hand."""
    from scipy.stats import pearsonr, spearmanr

    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import match_lines
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset

    subset = require(GEC_DATA / "seeda" / "outputs" / "subset")
    require(CONLL14 / "official-2014.combined.m2")
    refset = load_refset("conll14")
    refset = refset.subset(match_lines(read_lines(subset / "INPUT.txt"), refset.sources))
    human = load_human("seeda-base", GEC_DATA)
    names = human["seeda-S-TS"].systems
    board = run_leaderboard(refset, discover_systems(subset, only=names), ["green-sentence"], human=human,
                            progress=False, aggregation="trueskill")
    assert board.aggregated == ["green-sentence"]
    sentence = {s: board.scores[s]["green-sentence"].sentence_scores for s in sorted(names)}
    assert {len(v) for v in sentence.values()} == {391}
    by_hand = trueskill_aggregate(sentence)
    assert board.column("green-sentence") == pytest.approx(by_hand, abs=1e-15)
    ts = human["seeda-S-TS"]
    x, y = [by_hand[s] for s in ts.systems], [ts.scores[s] for s in ts.systems]
    corr = board.correlations["green-sentence"]["seeda-S-TS"]
    assert corr.pearson == pytest.approx(pearsonr(x, y)[0], abs=1e-12)
    assert corr.spearman == pytest.approx(spearmanr(x, y)[0], abs=1e-12)
    assert (round(corr.pearson, 3), round(corr.spearman, 3)) == (0.863, 0.888)   # mean: 0.903, 0.895
    assert board.pairwise["green-sentence"]["seeda-S-TS"].counts()["disagree"] == 9   # of 66 pairs


def test_sentence_set_keeps_a_seeda_sets_systems(tiny, capsys):  # noqa: F811 - the fixture
    from test_leaderboard import JUDGMENTS

    (tiny / "judgments.xml").write_text(JUDGMENTS)
    argv = ["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"), "--metrics",
            "m2-sentence", "--sentence-judgments", f"toy={tiny / 'judgments.xml'}", "--json"]
    assert main([*argv, "--sentence-set", "base"]) == 0
    toy = json.loads(capsys.readouterr().out)["sentence_level"]["configs"]["m2-sentence"]["toy"]
    # base drops INPUT: of test_leaderboard's four pairs, PERFECT > WRONG agrees, HALF > PERFECT
    # disagrees; PERFECT > INPUT and the INPUT-WRONG tie are gone
    assert (toy["agree"], toy["disagree"], toy["neutral"], toy["pairs"]) == (1, 1, 0, 2)
    assert main([*argv, "--sentence-set", "+ref-f"]) == 0        # also drops INPUT
    assert json.loads(capsys.readouterr().out)["sentence_level"]["configs"]["m2-sentence"]["toy"]["pairs"] == 2
    assert main([*argv, "--sentence-set", "all"]) == 0
    assert json.loads(capsys.readouterr().out)["sentence_level"]["configs"]["m2-sentence"]["toy"]["pairs"] == 4
