"""``gecscore leaderboard`` end to end on a tiny synthetic set, and on GJG15 when data is present."""
from __future__ import annotations

import csv
import json
import math

import pytest

from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore.metaeval.human import gjg15_scores
from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.processes import LocalProcesses
from gecscore.leaderboard.systems import discover_systems
from gecscore.benchdata.refsets import load_refset
from gecscore.leaderboard.specs import resolve

from datapaths import CONLL14, GEC_DATA, require

GOLD = """S a b c d
A 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0

S e f g
A 0 1|||R:X|||E|||REQUIRED|||-NONE-|||0
"""
NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
SYSTEMS = {
    "PERFECT": ["A 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0", "A 0 1|||R:X|||E|||REQUIRED|||-NONE-|||0"],
    "HALF": ["A 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0", NOOP],
    "INPUT": [NOOP, NOOP],
    "WRONG": ["A 1 2|||R:X|||X|||REQUIRED|||-NONE-|||0", NOOP],
}
HUMAN = "system\tEW\nPERFECT\t4\nHALF\t3\nINPUT\t1\nWRONG\t2\n"


@pytest.fixture
def tiny(tmp_path):
    (tmp_path / "gold.m2").write_text(GOLD)
    hyp_dir = tmp_path / "hyp"
    hyp_dir.mkdir()
    for name, (first, second) in SYSTEMS.items():
        (hyp_dir / f"{name}.errant.m2").write_text(f"S a b c d\n{first}\n\nS e f g\n{second}\n")
    (tmp_path / "human.tsv").write_text(HUMAN)
    return tmp_path


def test_tiny_leaderboard_end_to_end(tiny, capsys):
    out = tiny / "out"
    status = main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                   "--metrics", "cleme2-corpus-dep", "cleme2-sentence-dep", "m2-corpus",
                   "--human", str(tiny / "human.tsv"), "--out", str(out), "--bootstrap", "50", "--seed", "7"])
    assert status == 0
    printed = capsys.readouterr()
    assert "not available" not in printed.err
    with (out / "scores.csv").open() as handle:
        rows = {row["system"]: row for row in csv.DictReader(handle)}
    # By hand, corpus alphas .45/.35/.15/.05 on totals (TP, FP_ne, FP_un, FN):
    # PERFECT (2,0,0,0): 1.0; HALF (1,0,0,1): .45*.5+.35+.15*.5+.05 = .70;
    # INPUT (0,0,0,2): .35+.05 = .40; WRONG (0,1,0,1): .35*.5+.15*.5+.05 = .30.
    expected = {"PERFECT": 1.0, "HALF": 0.70, "INPUT": 0.40, "WRONG": 0.30}
    for system, value in expected.items():
        assert float(rows[system]["cleme2-corpus-dep"]) == pytest.approx(value)
    # Sentence alphas .35/.25/.20/.20; INPUT: each sentence under = 1, so .25 + .20 = .45.
    assert float(rows["INPUT"]["cleme2-sentence-dep"]) == pytest.approx(0.45)
    assert float(rows["PERFECT"]["cleme2-sentence-dep"]) == pytest.approx(1.0)
    board = json.loads((out / "leaderboard.json").read_text())
    corr = board["correlations"]["cleme2-corpus-dep"]["human-EW"]
    # metric 1, .7, .4, .3 vs human 4, 3, 1, 2: r = 1.1 / sqrt(.30 * 5); rho = 1 - 6*2/(4*15) = .8.
    assert corr["pearson"] == pytest.approx(1.1 / math.sqrt(1.5))
    assert corr["spearman"] == pytest.approx(0.8)
    # M2 by hand (gold: one edit per sentence): PERFECT c2 p2 g2 -> 1; HALF c1 p1 g2 ->
    # 1.25 * 1 / (.25 * 2 + 1) = 5/6; INPUT c0 p0 g2 -> 0; WRONG c0 p1 g2 -> 0.
    m2 = {"PERFECT": 1.0, "HALF": 5 / 6, "INPUT": 0.0, "WRONG": 0.0}
    assert {s: float(rows[s]["m2-corpus"]) for s in m2} == pytest.approx(m2)
    assert not board["unavailable"]
    intervals = board["bootstrap"]["configs"]["cleme2-corpus-dep"]["intervals"]
    assert intervals["PERFECT"] == {"estimate": pytest.approx(1.0), "low": pytest.approx(1.0), "high": pytest.approx(1.0)}
    assert len(board["bootstrap"]["configs"]["cleme2-corpus-dep"]["differences"]) == 6
    png = out / "plots" / "cleme2-corpus-dep.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (out / "leaderboard.md").read_text()
    assert "| PERFECT | 1.0000 |" in md and "## Correlation with human rankings" in md
    assert (out / "correlations.csv").exists() and (out / "pairwise.csv").exists()


def test_parallel_workers_give_the_same_scores(tiny, monkeypatch):
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the second run scores its cells (none read back)
    refset = load_refset(tiny / "gold.m2")
    systems = discover_systems(None, tiny / "hyp")
    assert [s.name for s in systems] == ["HALF", "INPUT", "PERFECT", "WRONG"]
    one = run_leaderboard(refset, systems, ["cleme", "cleme2"], progress=False)
    two = run_leaderboard(refset, systems, ["cleme", "cleme2"], executor=LocalProcesses(2), progress=False)
    assert {c.name for c in one.configs} == {c.name for c in two.configs}
    assert len(one.configs) == 12
    for config in one.configs:
        assert one.column(config.name) == two.column(config.name)


def test_parallel_workers_over_several_groups_give_the_same_scores(tiny, monkeypatch):
    """Tasks (group, system) over two workers, with the join rule on (JOIN_AT 1: a free worker
    joins whatever is left): every cell equals the one-process run, statistics included."""
    import numpy as np

    from gecscore.leaderboard import processes

    monkeypatch.setattr(processes, "JOIN_AT", 1)
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # both runs score every cell (none read back)
    refset = load_refset(tiny / "gold.m2")
    systems = discover_systems(None, tiny / "hyp")
    names = ["cleme-corpus-dep", "m2", "errant", "gleu"]
    one = run_leaderboard(refset, systems, names, progress=False)
    two = run_leaderboard(refset, systems, names, executor=LocalProcesses(2), progress=False)
    assert [c.name for c in one.configs] == [c.name for c in two.configs]
    for system in one.scores:
        for config, cell in one.scores[system].items():
            other = two.scores[system][config]
            assert (cell.score, cell.details, cell.signature) == (other.score, other.details, other.signature)
            assert np.array_equal(cell.sentence_stats, other.sentence_stats)
            assert other.sentence_stats is None or other.sentence_stats.dtype == np.float64


def test_registry_errors_and_unavailable():
    configs, unavailable = resolve(["cleme2-corpus-*"])
    assert [c.name for c in configs] == ["cleme2-corpus-dep", "cleme2-corpus-ind"] and not unavailable
    # an exact name is just that configuration (not cleme-corpus-dep-unw as well)
    assert [c.name for c in resolve(["cleme-corpus-dep"])[0]] == ["cleme-corpus-dep"]
    assert len(resolve(["cleme"])[0]) == 8
    assert [c.name for c in resolve(["m2"])[0]] == ["m2-corpus", "m2-sentence"]
    assert len(resolve(["cleme2-sim-*"])[0]) == 4
    configs, unavailable = resolve(["dsgram"])  # no judge endpoint configured
    assert not configs and unavailable["dsgram"].startswith("not available: needs a judge")
    with pytest.raises(GecInputError, match="unknown metric configuration"):
        resolve(["bleu"])


def test_bad_inputs(tiny):
    with pytest.raises(GecInputError, match="no \\*.txt files"):
        discover_systems(tiny / "hyp")
    (tiny / "hyp" / "SHORT.m2").write_text("S a b c d\n" + NOOP + "\n")
    refset = load_refset(tiny / "gold.m2")
    with pytest.raises(GecInputError, match="SHORT.m2"):
        run_leaderboard(refset, discover_systems(None, tiny / "hyp", only=["SHORT"]), ["cleme2-corpus-dep"],
                        progress=False)


def test_gjg15_cleme2_matches_table1():
    gold = require(CONLL14 / "conll14.errant.m2")
    refset = load_refset(gold)
    systems = discover_systems(None, require(CONLL14 / "systems-errant"))
    human = gjg15_scores(require(GEC_DATA / "gjg15" / "human_scores.tsv"))
    board = run_leaderboard(refset, systems, ["cleme2-corpus-dep", "cleme2-sentence-ind"], human=human,
                            progress=False)
    # CLEME2.0 paper Table 1, CoNLL-2014 column: (EW r, EW rho, TS r, TS rho).
    published = {"cleme2-corpus-dep": (0.700, 0.665, 0.765, 0.736), "cleme2-sentence-ind": (0.866, 0.709, 0.881, 0.720)}
    for config, (ew_r, ew_rho, ts_r, ts_rho) in published.items():
        ew, ts = board.correlations[config]["gjg15-EW"], board.correlations[config]["gjg15-TS"]
        assert ew.pearson == pytest.approx(ew_r, abs=0.003) and ew.spearman == pytest.approx(ew_rho, abs=0.003)
        assert ts.pearson == pytest.approx(ts_r, abs=0.003) and ts.spearman == pytest.approx(ts_rho, abs=0.003)


def test_worker_errors_reach_the_caller_and_no_worker_is_left(tiny):
    import multiprocessing

    (tiny / "hyp" / "SHORT.m2").write_text("S a b c d\n" + NOOP + "\n")
    refset = load_refset(tiny / "gold.m2")
    with pytest.raises(GecInputError, match="SHORT.m2"):
        run_leaderboard(refset, discover_systems(None, tiny / "hyp"), ["cleme2-corpus-dep"], executor=LocalProcesses(2),
                        progress=False)
    assert not [p for p in multiprocessing.active_children() if p.name == "gecscore-leaderboard"]


JUDGMENTS = """<appraise-results><error-correction-ranking-result id="t">
<ranking-item src-id="1" id="1" user="a">
  <translation system="PERFECT" rank="1"/><translation system="INPUT" rank="2"/><translation system="WRONG" rank="3"/>
</ranking-item>
<ranking-item src-id="2" id="2" user="a">
  <translation system="HALF" rank="1"/><translation system="PERFECT" rank="2"/>
</ranking-item>
</error-correction-ranking-result></appraise-results>
"""


def test_sentence_level_meta_evaluation_and_baseline_comparisons(tiny, capsys):
    (tiny / "judgments.xml").write_text(JUDGMENTS)
    argv = ["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
            "--metrics", "m2-sentence", "m2-corpus", "gleu", "--sentence-judgments", f"toy={tiny / 'judgments.xml'}",
            "--baseline", "INPUT", "--significance-samples", "200", "--seed", "3", "--json"]
    assert main(argv) == 0
    board = json.loads(capsys.readouterr().out)
    # SentM2 F0.5 by hand: sentence 1: PERFECT 1, HALF 1, INPUT 0 (nothing proposed, recall 0),
    # WRONG 0; sentence 2: PERFECT 1, the others 0. Item 1: PERFECT > INPUT agrees, PERFECT > WRONG
    # agrees, INPUT > WRONG is a metric tie (neutral); item 2: HALF > PERFECT disagrees.
    # Acc = 2/4, tau = (2 - 1)/4.
    toy = board["sentence_level"]["configs"]["m2-sentence"]["toy"]
    assert (toy["agree"], toy["disagree"], toy["neutral"], toy["pairs"]) == (2, 1, 1, 4)
    assert (toy["accuracy"], toy["kendall"]) == (0.5, 0.25)
    assert board["sentence_level"]["ties"] == "neutral"
    # every system against INPUT on corpus M2 (PERFECT 1, HALF 5/6, WRONG 0, INPUT 0)
    comparisons = {c["system"]: c for c in board["significance"]["configs"]["m2-corpus"]}
    assert set(comparisons) == {"HALF", "PERFECT", "WRONG"}
    assert comparisons["PERFECT"]["delta"] == pytest.approx(1.0)
    assert comparisons["HALF"]["delta"] == pytest.approx(5 / 6)
    assert comparisons["WRONG"]["delta"] == 0.0
    assert comparisons["WRONG"]["p_randomisation"] == 1.0 and comparisons["WRONG"]["p_bootstrap"] == 1.0
    assert board["significance"]["options"] == {"baseline": "INPUT", "bootstrap": 200, "randomisation": 200,
                                                "seed": 3, "confidence": 0.95}
    assert "gleu" in board["significance"]["configs"]
    # the same seed gives the same p-values
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["significance"] == board["significance"]
    with pytest.raises(GecInputError, match="baseline 'NOPE'"):
        run_leaderboard(load_refset(tiny / "gold.m2"), discover_systems(None, tiny / "hyp"), ["m2-corpus"],
                        progress=False, baseline="NOPE")


def test_per_type_tables(tiny, capsys):
    out = tiny / "out"
    assert main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                 "--metrics", "m2-corpus", "cleme2-corpus-dep", "gleu", "--per-type", "full", "--out", str(out),
                 "--no-plots"]) == 0
    with (out / "per_type.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    # the gold types both edits R:X; HALF fixes the first (TP) and misses the second (FN);
    # WRONG changes the first wrongly (an FP of the error it addresses, R:X) and misses both
    m2 = {r["system"]: (r["tp"], r["fp"], r["fn"]) for r in rows if r["config"] == "m2-corpus"}
    assert m2 == {"HALF": ("1", "0", "1"), "INPUT": ("0", "0", "2"), "PERFECT": ("2", "0", "0"),
                  "WRONG": ("0", "1", "2")}
    cleme2 = {r["system"]: (r["tp"], r["fp_ne"], r["fn"]) for r in rows if r["config"] == "cleme2-corpus-dep"}
    assert cleme2["WRONG"] == ("0.0", "1.0", "1.0") and cleme2["PERFECT"] == ("2.0", "0.0", "0.0")
    assert not [r for r in rows if r["config"] == "gleu"]       # GLEU has no edits to type
    md = (out / "leaderboard.md").read_text()
    assert "## Per error type (full" in md and "| R:X | " in md


def test_window_analysis(tiny, capsys):
    out = tiny / "out"
    assert main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                 "--metrics", "cleme2-corpus-dep", "--human", str(tiny / "human.tsv"), "--window", "3",
                 "--out", str(out), "--no-plots"]) == 0
    windows = json.loads((out / "leaderboard.json").read_text())["windows"]["cleme2-corpus-dep"]["human-EW"]
    # human order PERFECT 4, HALF 3, WRONG 2, INPUT 1; metric 1, .7, .3, .4 (first test, by hand).
    # ranks 1-3: metric 1, .7, .3 vs 4, 3, 2: r = .7 / sqrt(2 * .74/3), rho = 1;
    # ranks 2-4: metric .7, .3, .4 vs 3, 2, 1: r = .3 / sqrt(2 * .26/3), rho = 1 - 6 * 2 / 24 = .5.
    assert [(w["first"], w["last"], w["systems"]) for w in windows] == [
        (1, 3, ["PERFECT", "HALF", "WRONG"]), (2, 4, ["HALF", "WRONG", "INPUT"])]
    assert windows[0]["pearson"] == pytest.approx(0.7 / math.sqrt(2 * 0.74 / 3))
    assert windows[0]["spearman"] == pytest.approx(1.0)
    assert windows[1]["pearson"] == pytest.approx(0.3 / math.sqrt(2 * 0.26 / 3))
    assert windows[1]["spearman"] == pytest.approx(0.5)
    md = (out / "leaderboard.md").read_text()
    assert "## Windows of human-EW (r / rho over 3 systems" in md
    assert "| cleme2-corpus-dep | 0.997 / 1.000 | 0.721 / 0.500 |" in md
    assert "Window plot" not in md   # --no-plots


def test_window_plot_for_every_metric(tiny, capsys):
    pytest.importorskip("matplotlib")
    out = tiny / "out-plots"
    assert main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                 "--metrics", "cleme2-corpus-dep", "m2-corpus", "--human", str(tiny / "human.tsv"),
                 "--window", "3", "--out", str(out), "--quiet"]) == 0
    plot = out / "plots" / "windows_human-EW.png"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Window plot: [windows_human-EW.png](plots/windows_human-EW.png)" in (out / "leaderboard.md").read_text()
