"""GREEN, GoToScorer and ERRANT on real CoNLL-2014 data, pinned to the numbers gec-metrics 0.1.1
gives on the same input (benchmarks/compare_gec_metrics.py; verified equal within 1e-15)."""
from __future__ import annotations

import pytest

import gecscore
from gecscore.gotoscorer.metric import GoToScorerMetric
from gecscore.green.metric import GreenMetric

from datapaths import CONLL14, require

FIRST = 150  # the first 150 sentences keep ERRANT's parsing short
SYSTEMS = ("AMU", "CUUI", "IPN", "INPUT")


def lines(path, count=FIRST):
    return require(path).read_text(encoding="utf-8").rstrip("\n").split("\n")[:count]


@pytest.fixture(scope="module")
def data():
    sources = lines(CONLL14 / "source.txt")
    refs = [lines(CONLL14 / "ref0.txt"), lines(CONLL14 / "ref1.txt")]
    systems = [(s, lines(CONLL14 / "systems" / f"{s}.txt")) for s in SYSTEMS]
    return sources, refs, systems


@pytest.mark.realdata
def test_green_equals_gec_metrics(data):
    sources, refs, systems = data
    metric = GreenMetric.from_options()
    prepared = metric.prepare_text(sources, [list(r) for r in zip(*refs)])
    scores = {name: metric.score(prepared, hyps).score for name, hyps in systems}
    assert scores["AMU"] == pytest.approx(0.796110992147201, abs=1e-12)
    assert scores["IPN"] == pytest.approx(0.770399930958124, abs=1e-12)


@pytest.mark.realdata
def test_gotoscorer_equals_gec_metrics(data):
    sources, refs, systems = data
    plain = GoToScorerMetric.from_options(no_weight=True)
    prepared = plain.prepare_text(sources, [[r] for r in refs[0]])
    assert plain.score(prepared, systems[0][1]).score == pytest.approx(0.229770229770230, abs=1e-12)
    # weights from the four systems, counted as gec-metrics' weight script counts them
    weighted = GoToScorerMetric.from_options(weight_match="correction")
    results = dict(weighted.score_systems(weighted.prepare_text(sources, [[r] for r in refs[0]]), systems))
    assert results["AMU"].score == pytest.approx(0.292682926829268, abs=1e-12)
    assert results["CUUI"].score == pytest.approx(0.256166982922201, abs=1e-12)
    assert results["INPUT"].score == 0.0
    # the paper's span match gives other weights
    span = GoToScorerMetric.from_options()
    assert dict(span.score_systems(span.prepare_text(sources, [[r] for r in refs[0]]), systems))["AMU"].score == \
        pytest.approx(0.240202275600506, abs=1e-12)


@pytest.mark.realdata
def test_errant_equals_gec_metrics(data):
    sources, refs, systems = data
    metric = gecscore.load("pt_m2", base="errant", scorer="none")
    result = metric.score(metric.prepare_text(sources, [list(r) for r in zip(*refs)]), systems[0][1])
    assert result.score == pytest.approx(0.344660194174757, abs=1e-12)


@pytest.mark.realdata
def test_leaderboard_configurations():
    from gecscore.errors import GecInputError
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.processes import LocalProcesses
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset
    from gecscore.leaderboard.configurations import resolve_configuration
    from gecscore.leaderboard.presets import PRESETS
    from gecscore.leaderboard.shared_data import ReferenceData, SystemData
    from gecscore.leaderboard.system_scores import score_system
    from gecscore.metaeval.trueskill_aggregate import trueskill_aggregate

    require(CONLL14 / "official-2014.combined.m2")
    refset = load_refset("conll14")
    refs = ReferenceData(refset)
    with pytest.raises(GecInputError, match="score_systems"):   # weights need every system of the run
        score_system(resolve_configuration(PRESETS["gotoscorer"]), SystemData("AMU", CONLL14 / "systems" / "AMU.txt"), refs)
    systems = [s for s in discover_systems(CONLL14 / "systems") if s.name in ("AMU", "INPUT", "IPN")]
    board = run_leaderboard(refset, systems, ["green-sentence", "gotoscorer"], executor=LocalProcesses(2),
                            progress=False)
    cells = board.scores
    assert all(len(cells[s]["green-sentence"].sentence_scores) == 1312 for s in cells)
    amu = cells["AMU"]["green-sentence"]
    assert amu.score == pytest.approx(sum(amu.sentence_scores) / 1312)
    assert "weights:3sys-" in cells["AMU"]["gotoscorer"].signature   # the run's systems, scored together
    ranked = trueskill_aggregate({s: cells[s]["green-sentence"].sentence_scores for s in sorted(cells)})
    assert max(ranked, key=ranked.get) == "AMU" and min(ranked, key=ranked.get) == "IPN"


@pytest.mark.realdata
def test_trueskill_aggregation_of_green_equals_gec_metrics():
    from gecscore.metaeval.trueskill_aggregate import trueskill_aggregate

    names = sorted(p.stem for p in require(CONLL14 / "systems").glob("*.txt"))
    sources = lines(CONLL14 / "source.txt", None)
    refs = [lines(CONLL14 / "ref0.txt", None), lines(CONLL14 / "ref1.txt", None)]
    metric = GreenMetric.from_options()
    prepared = metric.prepare_text(sources, [list(r) for r in zip(*refs)])
    sentence = {n: [r["green"] for r in metric.score(prepared, lines(CONLL14 / "systems" / f"{n}.txt", None)).records()]
                for n in names}
    ranked = trueskill_aggregate(sentence)
    # gec-metrics 0.1.1: GREEN().rank_systems(..., aggregation="trueskill"), systems in name order
    assert ranked["AMU"] == pytest.approx(0.032415195709568, abs=1e-13)
    assert ranked["IPN"] == pytest.approx(-0.047671951811205, abs=1e-13)
    assert ranked["UMC"] == pytest.approx(0.000162557910607, abs=1e-13)
