"""Williams' test between metrics, bootstrap intervals of correlations and significance clusters
(gecscore.metaeval.metric_significance), by hand, against published numbers, and on GJG15."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from gecscore.errors import GecInputError
from gecscore.metaeval.human import HumanScores, gjg15_scores
from gecscore.metaeval.metric_significance import (
    bootstrap_sentences, bootstrap_systems, compare_metrics, correlation_rows, significance_clusters,
    williams_from_scores, williams_test)

from datapaths import CONLL14, GEC_DATA, require

SEVEN = "ABCDEFG"
HUMAN7 = HumanScores("h7", {s: float(7 - i) for i, s in enumerate(SEVEN)})
X7 = dict(zip(SEVEN, [7.0, 5, 6, 4, 3, 1, 2]))
Y7 = dict(zip(SEVEN, [1.0, 5, 3, 7, 2, 6, 4]))


def test_williams_by_hand():
    """Metric x = 7 5 6 4 3 1 2, metric y = 1 5 3 7 2 6 4, human = 7 6 5 4 3 2 1 (n = 7).

    Squared rank differences: x-human 0+1+1+0+0+1+1 = 4, y-human 36+1+4+9+1+16+9 = 76,
    x-y 36+0+9+9+1+25+4 = 84; with sum d^2 / (n(n^2-1)/6 = 56): r12 = 1 - 4/28 = 13/14,
    r13 = 1 - 76/28 = -5/14, r23 = 1 - 84/28 = -1/2 (the scores are ranks: Pearson = Spearman).
    |R| = 1 - 169/196 - 25/196 - 1/4 + 2 (13/14)(-5/14)(-1/2) = 67/196 - 49/196 = 9/98;
    rbar = 2/7; (1 - r23)^3 = 27/8; denominator = 2 (6/4)(9/98) + (4/49)(27/8) = 27/98 + 27/98 = 27/49;
    t = (18/14) sqrt(6 (1/2) / (27/49)) = (9/7)(7/3) = 3, df = 4.
    Student's t with 4 df: P(T <= t) = 1/2 + t (t^2 + 6) / (2 (t^2 + 4)^(3/2)), so
    P(T > 3) = 1/2 - 45 / (2 * 13^1.5) and the two-sided p = 1 - 45 / 13^1.5 = 0.0399419680717...
    """
    result = williams_test(7, 13 / 14, -5 / 14, -1 / 2)
    assert result.t == pytest.approx(3.0, abs=1e-12) and result.df == 4
    assert result.p == pytest.approx(1 - 45 / 13 ** 1.5, abs=1e-12)
    assert result.p_one_sided == pytest.approx(0.5 - 45 / (2 * 13 ** 1.5), abs=1e-12)
    for coefficient in ("pearson", "spearman"):
        from_scores = williams_from_scores(list(X7.values()), list(Y7.values()), list(HUMAN7.scores.values()),
                                           coefficient)
        assert (from_scores.r12, from_scores.r13, from_scores.r23) == pytest.approx((13 / 14, -5 / 14, -0.5))
        assert from_scores.t == pytest.approx(3.0, abs=1e-12)


def test_psych_documented_examples():
    """psych's own r.test examples (man/r.test.Rd, psych 2.5.3): Steiger (1980) case A,
    ``r.test(103, .4, .5, .1)``, t = -.89 (two digits given); and the high-precision example
    (courtesy of Julia Rohrer) with n = 5105, printed with digits=8 as p = 0.1000759."""
    case_a = williams_test(103, 0.4, 0.5, 0.1)
    assert round(case_a.t, 2) == -0.89 and case_a.df == 100
    rohrer = williams_test(5105, 0.693458895410494, 0.695966022434845, 0.988475791500198)
    assert rohrer.p == pytest.approx(0.1000759, abs=1e-6)
    assert rohrer.p == pytest.approx(0.1000759, abs=5e-8)   # all the digits printed
    assert rohrer.p_one_sided == pytest.approx(rohrer.p / 2)


# ygraham/significance-williams example-data (WMT12 es-en, 12 systems; Graham and Baldwin 2014):
# system: (human, AMBER, BLEU_4_closest_cased)
WMT12_ES_EN = {
    "onlineA": (61.9384, 0.2178, 0.3138), "onlineB": (61.3861, 0.2224, 0.3753),
    "QCRI--primary": (60.373, 0.2186, 0.3286), "uedin-wmt12": (58.4963, 0.2168, 0.3343),
    "UPC": (56.5355, 0.2167, 0.3202), "GTH-UPM": (52.3248, 0.2107, 0.2888),
    "onlineD": (51.1139, 0.1922, 0.2299), "jhu-hiero": (47.8846, 0.2104, 0.2922),
    "onlineC": (46.1035, 0.1915, 0.2294), "onlineF": (42.2644, 0.1822, 0.2171),
    "onlineE": (41.9155, 0.1890, 0.2200), "uk-dan-moses": (18.7297, 0.1759, 0.2240),
}


def test_graham_baldwin_example_output():
    """ygraham/significance-williams example-output (2014-09-30): Pearson 0.880651168828011
    (AMBER) and 0.760352368043568 (BLEU), one-tailed Williams p = 0.0114079074943561. That file
    predates psych's change of df from n - 2 to n - 3 (30/11/14): the same t with 10 df gives
    the published p; today's psych (df = 9) gives ours."""
    from scipy.stats import t as student_t

    human = HumanScores("wmt12", {s: v[0] for s, v in WMT12_ES_EN.items()})
    scores = {"AMBER": {s: v[1] for s, v in WMT12_ES_EN.items()}, "BLEU": {s: v[2] for s, v in WMT12_ES_EN.items()}}
    result = compare_metrics(scores, human, alternative="one-sided")
    assert result.correlations["pearson"]["AMBER"] == pytest.approx(0.880651168828011, abs=1e-14)
    assert result.correlations["pearson"]["BLEU"] == pytest.approx(0.760352368043568, abs=1e-14)
    test = result.williams["pearson"][("AMBER", "BLEU")]
    assert test.t > 0 and test.df == 9
    assert float(student_t.sf(test.t, 10)) == pytest.approx(0.0114079074943561, abs=1e-12)
    assert test.p_one_sided == pytest.approx(float(student_t.sf(test.t, 9)), abs=1e-15)
    assert test.p_one_sided > 0.0114079074943561   # one fewer degree of freedom: a larger p
    assert result.clusters["pearson"] == {"AMBER": 1, "BLEU": 2}   # p1 = 0.0125 < 0.05


correlation = st.floats(-0.95, 0.95, allow_nan=False)


def _valid(r12: float, r13: float, r23: float) -> bool:
    return 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23 > 1e-6


@settings(max_examples=100, deadline=None)
@given(n=st.integers(4, 200), r12=correlation, r13=correlation, r23=correlation)
def test_williams_symmetry(n, r12, r13, r23):
    assume(_valid(r12, r13, r23) and _valid(r12, r12, r23))
    ab, ba = williams_test(n, r12, r13, r23), williams_test(n, r13, r12, r23)
    assert ba.t == pytest.approx(-ab.t, rel=1e-12, abs=1e-12)
    assert ba.p == pytest.approx(ab.p, rel=1e-12, abs=1e-15)
    assert 0 <= ab.p <= 1 and ab.p_one_sided == pytest.approx(ab.p / 2)
    same = williams_test(n, r12, r12, r23)
    assert (same.t, same.p, same.p_one_sided) == (0.0, 1.0, 0.5)


def test_identical_metrics_and_bad_input():
    assert williams_test(5, 0.8, 0.8, 1.0).p == 1.0            # A == B: 0/0 made t = 0
    assert math.isnan(williams_test(5, math.nan, 0.8, 0.1).p)  # a constant metric
    with pytest.raises(GecInputError, match="undefined for fewer than 4 systems"):
        williams_test(3, 0.5, 0.4, 0.3)
    with pytest.raises(GecInputError, match=r"r13 must be a correlation in \[-1, 1\]"):
        williams_test(10, 0.5, 1.5, 0.3)
    with pytest.raises(GecInputError, match="not the correlations of three variables"):
        williams_test(10, 0.9, -0.9, 0.9)
    small = HumanScores("h3", {"a": 1.0, "b": 2.0, "c": 3.0})
    with pytest.raises(GecInputError, match="fewer than 4 systems .* h3 has 3"):
        compare_metrics({"m": {"a": 1, "b": 2, "c": 3}}, small)
    with pytest.raises(GecInputError, match="no score for system"):
        compare_metrics({"m": {"A": 1}}, HUMAN7)
    with pytest.raises(GecInputError, match="unknown alternative"):
        compare_metrics({"x": X7}, HUMAN7, alternative="left")


def test_clusters_walk_and_ties():
    # a > b > c > d; only a-c and b-d... differ: b stays with a, c is worse than a (cluster 2),
    # d is compared with c (the new cluster's best), not with a: not different, stays 2.
    r = {"b": 0.8, "a": 0.9, "c": 0.6, "d": 0.5}
    p = {("a", "b"): 0.2, ("a", "c"): 0.01, ("a", "d"): 0.001, ("b", "c"): 0.03, ("b", "d"): 0.01,
         ("c", "d"): 0.4}
    assert significance_clusters(r, p) == {"b": 1, "a": 1, "c": 2, "d": 2}
    assert significance_clusters(r, p, alpha=0.005) == {"b": 1, "a": 1, "c": 1, "d": 2}
    # equal correlations keep the input order; a NaN one has no cluster
    tied = {"y": 0.7, "x": 0.7, "z": math.nan, "w": 0.2}
    q = {("y", "x"): 1.0, ("y", "w"): 0.01, ("x", "w"): 0.01}
    assert significance_clusters(tied, q) == {"y": 1, "x": 1, "z": None, "w": 2}
    with pytest.raises(GecInputError, match="alpha"):
        significance_clusters(r, p, alpha=1.5)


def test_vectorised_coefficients_equal_scipy():
    from scipy.stats import kendalltau, pearsonr, spearmanr

    rng = np.random.default_rng(5)
    x = np.round(rng.normal(size=(20, 9)), 1)   # rounding makes ties
    y = np.round(rng.normal(size=(20, 9)), 1)
    rows = correlation_rows(x, y)
    for i in range(20):
        assert rows["pearson"][i] == pytest.approx(pearsonr(x[i], y[i])[0], abs=1e-12)
        assert rows["spearman"][i] == pytest.approx(spearmanr(x[i], y[i])[0], abs=1e-12)
        assert rows["kendall"][i] == pytest.approx(kendalltau(x[i], y[i])[0], abs=1e-12)
    # accuracy by hand: human 3 2 1, metric 3 1 1 -> pairs (1,2) agree, (1,3) agree, (2,3) metric tie
    assert correlation_rows([[3, 1, 1]], [[3, 2, 1]])["accuracy"][0] == pytest.approx(2 / 3)
    assert np.isnan(correlation_rows([[1, 1, 1]], [[3, 2, 1]])["pearson"][0])


def test_bootstrap_systems_reproducible_through_two_entry_points():
    direct = bootstrap_systems(X7, HUMAN7, n_resamples=300, seed=11)
    again = bootstrap_systems(X7, HUMAN7, n_resamples=300, seed=11)
    via = compare_metrics({"x": X7, "y": Y7}, HUMAN7, bootstrap=300, seed=11).intervals["x"]["systems"]
    assert direct == again == via and direct.as_dict() == via.as_dict()
    assert direct.kept == 300 and direct.pearson.estimate == pytest.approx(13 / 14)
    assert direct.kendall.estimate == pytest.approx(17 / 21)    # 19 concordant, 2 discordant of 21
    assert direct.accuracy.estimate == pytest.approx(19 / 21)
    for name in ("pearson", "spearman", "kendall", "accuracy"):
        iv = getattr(direct, name)
        assert iv.low <= iv.high
    assert bootstrap_systems(X7, HUMAN7, n_resamples=300, seed=12) != direct
    json.dumps(direct.as_dict())


def test_bootstrap_sentences_rescores_with_shared_weights():
    rng = np.random.default_rng(0)
    # per-sentence correctness of 5 systems on 40 sentences; the score is the mean
    stats = {s: (rng.random((40, 1)) < q).astype(float) for s, q in zip("PQRST", [0.9, 0.7, 0.6, 0.4, 0.2])}
    per_system = {s: (a, lambda m: float(m[0])) for s, a in stats.items()}
    human = HumanScores("h5", {"P": 5.0, "Q": 4.0, "R": 3.0, "S": 2.0, "T": 1.0})
    first = bootstrap_sentences(per_system, human, n_resamples=200, seed=3)
    assert first == bootstrap_sentences(per_system, human, n_resamples=200, seed=3)
    means = {s: a.mean() for s, a in stats.items()}
    assert first.pearson.estimate == pytest.approx(np.corrcoef(list(means.values()), [5, 4, 3, 2, 1])[0, 1])
    assert first.resampling == "sentences" and first.kept == 200
    with pytest.raises(GecInputError, match="no sentence statistics"):
        bootstrap_sentences({"P": per_system["P"]}, human, n_resamples=10)


# the tiny leaderboard of tests/test_leaderboard.py, with a fifth system so the human ranking
# has enough systems for Williams' test to be defined (n = 5, df = 2)
GOLD = "S a b c d\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\n\nS e f g\nA 0 1|||R:X|||E|||REQUIRED|||-NONE-|||0\n"
NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
EDIT1, EDIT2 = "A 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0", "A 0 1|||R:X|||E|||REQUIRED|||-NONE-|||0"
SYSTEMS = {"PERFECT": (EDIT1, EDIT2), "HALF": (EDIT1, NOOP), "OTHER": (NOOP, EDIT2), "INPUT": (NOOP, NOOP),
           "WRONG": ("A 1 2|||R:X|||X|||REQUIRED|||-NONE-|||0", NOOP)}


def test_leaderboard_integration(tmp_path):
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset
    from gecscore.leaderboard.report import write_leaderboard

    (tmp_path / "gold.m2").write_text(GOLD)
    (tmp_path / "hyp").mkdir()
    for name, (first, second) in SYSTEMS.items():
        (tmp_path / "hyp" / f"{name}.errant.m2").write_text(f"S a b c d\n{first}\n\nS e f g\n{second}\n")
    human = {"toy": HumanScores("toy", {"PERFECT": 5.0, "HALF": 4.0, "OTHER": 3.5, "INPUT": 1.0, "WRONG": 2.0})}
    refset = load_refset(tmp_path / "gold.m2")
    configs = ["m2-corpus", "cleme2-corpus-dep"]
    board = run_leaderboard(refset, discover_systems(None, tmp_path / "hyp"), configs, human=human,
                            bootstrap=100, seed=7, progress=False)
    result = board.metric_significance["toy"]
    direct = compare_metrics({c: board.column(c) for c in configs}, human["toy"], bootstrap=100, seed=7,
                             alternative="one-sided")   # the leaderboard's: gecmetrics' p
    assert result.correlations == direct.correlations and result.clusters == direct.clusters
    assert result.williams == direct.williams
    for config in configs:   # the same seed through the leaderboard and directly
        assert result.intervals[config]["systems"] == bootstrap_systems(board.column(config), human["toy"],
                                                                        n_resamples=100, seed=7)
        cells = {s: board.scores[s][config] for s in human["toy"].systems}
        assert result.intervals[config]["sentences"] == bootstrap_sentences(
            {s: (c.sentence_stats, c.statistic) for s, c in cells.items()}, human["toy"], n_resamples=100, seed=7)
        assert result.correlations["pearson"][config] == pytest.approx(board.correlations[config]["toy"].pearson)
    out = tmp_path / "out"
    write_leaderboard(board, out, plots=False)
    written = json.loads((out / "leaderboard.json").read_text())["metric_significance"]["toy"]
    assert written["metrics"] == configs and set(written["williams"]) == {"pearson", "spearman"}
    assert written["williams"]["pearson"][0]["a"] == "m2-corpus"
    md = (out / "leaderboard.md").read_text()
    assert "## Metrics compared on toy (Williams' test, one-sided p, alpha 0.05, 5 systems)" in md
    assert "| metric | r | cluster | rho | cluster |" in md and "Williams' p (spearman):" in md


def _cheap_metrics() -> dict[str, dict[str, np.ndarray]]:
    """Two model-free sentence metrics on CoNLL-2014's 13 systems: exact match with either
    annotator's correction, and bag-of-tokens F1 against annotator 0 (one column each)."""
    from collections import Counter

    read = lambda path: path.read_text(encoding="utf-8").splitlines()
    ref0, ref1 = read(require(CONLL14 / "ref0.txt")), read(require(CONLL14 / "ref1.txt"))
    out: dict[str, dict[str, np.ndarray]] = {"exact": {}, "bag-f1": {}}
    for path in sorted(require(CONLL14 / "systems").glob("*.txt")):
        hyps = read(path)
        out["exact"][path.stem] = np.array([[float(h.split() in (a.split(), b.split()))]
                                            for h, a, b in zip(hyps, ref0, ref1)])
        f1 = []
        for h, a in zip(hyps, ref0):
            common = sum((Counter(h.split()) & Counter(a.split())).values())
            f1.append(2 * common / (len(h.split()) + len(a.split())) if h.split() or a.split() else 1.0)
        out["bag-f1"][path.stem] = np.array(f1)[:, None]
    return out


def test_gjg15_real_data():
    human = gjg15_scores(require(GEC_DATA / "gjg15" / "human_scores.tsv"))["gjg15-TS"]
    stats = _cheap_metrics()
    scores = {m: {s: float(a.mean()) for s, a in by.items()} for m, by in stats.items()}
    mean = lambda m: float(m[0])
    sentence_stats = {m: {s: (a, mean) for s, a in by.items()} for m, by in stats.items()}
    result = compare_metrics(scores, human, bootstrap=200, seed=1, sentence_stats=sentence_stats)
    assert result.n == 13
    systems = human.systems
    h = [human.scores[s] for s in systems]
    for coefficient in ("pearson", "spearman"):
        test = result.williams[coefficient][("exact", "bag-f1")]
        again = williams_from_scores([scores["exact"][s] for s in systems], [scores["bag-f1"][s] for s in systems],
                                     h, coefficient)
        assert test == again and test.df == 10 and 0 <= test.p <= 1
        # the formula once more, written out
        r12, r13, r23 = test.r12, test.r13, test.r23
        det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
        t = (r12 - r13) * math.sqrt(12 * (1 + r23) / (2 * (12 / 10) * det + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3))
        assert test.t == pytest.approx(t, rel=1e-12)
        assert set(result.clusters[coefficient].values()) <= {1, 2}
    again = compare_metrics(scores, human, bootstrap=200, seed=1, sentence_stats=sentence_stats)
    assert again == result
    for metric in scores:
        by = result.intervals[metric]
        assert set(by) == {"systems", "sentences"}
        assert by["sentences"].pearson.estimate == pytest.approx(result.correlations["pearson"][metric])
        assert by["systems"].spearman.estimate == pytest.approx(result.correlations["spearman"][metric])
