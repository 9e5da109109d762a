"""PERM-BOTH (gecscore.metaeval.perm_both), the statistics it evaluates per draw
(gecscore.metaeval.draw_statistics) and the reference's ranks (gecscore.significance.ranks):
exact p-values by enumeration and by hand, invariants, seeding, early stopping, every vectorised
statistic against the library's scalar one, and ranks on hand-built matrices."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.stats

from gecscore.errors import GecInputError
from gecscore.metaeval import ties
from gecscore.metaeval.draw_statistics import (SENTENCE_STATISTICS, SYSTEM_STATISTICS,
                                               sentence_statistic, system_statistic)
from gecscore.metaeval.metric_significance import correlation_rows, significance_clusters
from gecscore.metaeval.perm_both import PermBothParams, perm_both, perm_both_exact, rank_metrics, z_normalise
from gecscore.metaeval.sentence_level import Judgment, pairwise_agreement
from gecscore.significance.ranks import Ranking, assign_ranks, best_first, ranking

HUMAN3 = {"A": 3.0, "B": 2.0, "C": 1.0}


# ---------------------------------------------------------------- exact p-values

def test_three_systems_by_hand():
    """Human A > B > C; metric 1 = 1 2 3 (every pair wrong), metric 2 = 3 2 1 (every pair right).
    z1 = (-c, 0, c), z2 = (c, 0, -c): B's cell is 0 in both, so swapping it changes nothing.
    Swapping A's or C's cell alone gives h1 = (c, 0, c) and h2 = (-c, 0, -c): one pair right,
    one wrong, one tied on each side, accuracy 1/3 and 1/3, d = 0. Swapping both gives d = -1.
    So of the 8 patterns, d = 1 = delta for the 2 that keep A and C: p(2 > 1) = 2/8, while
    p(1 > 2) counts d >= -1: all 8, p = 1 (and 1/4 + 1 = 1 + P(d = delta) with the 2 of d = -1)."""
    accuracy = system_statistic("accuracy", HUMAN3)
    result = perm_both_exact([1, 2, 3], [3, 2, 1], accuracy)
    assert (result.p, result.count, result.draws, result.delta) == (0.25, 2, 8, 1.0)
    assert perm_both_exact([3, 2, 1], [1, 2, 3], accuracy).p == 1.0
    monte_carlo = perm_both([1, 2, 3], [3, 2, 1], accuracy, PermBothParams.without_early_stopping(20000, seed=3))
    assert monte_carlo.p == pytest.approx(0.25, abs=4 * math.sqrt(0.25 * 0.75 / 20000))


def brute_force_p(m1, m2, human, corr) -> float:
    """The p-value by enumeration, with scipy only (independent of our code)."""
    z1, z2 = scipy.stats.zscore(m1), scipy.stats.zscore(m2)
    delta = corr(z2, human) - corr(z1, human)
    hits = 0
    for keep in itertools.product([True, False], repeat=len(m1)):
        keep = np.array(keep)
        h1, h2 = np.where(keep, z1, z2), np.where(keep, z2, z1)
        hits += corr(h2, human) - corr(h1, human) >= delta - 1e-12
    return hits / 2 ** len(m1)


@pytest.mark.parametrize("name, corr", [("pearson", lambda x, y: scipy.stats.pearsonr(x, y)[0]),
                                        ("spearman", lambda x, y: scipy.stats.spearmanr(x, y)[0]),
                                        ("kendall", lambda x, y: scipy.stats.kendalltau(x, y)[0])])
def test_enumeration_equals_brute_force_and_monte_carlo(name, corr):
    rng = np.random.default_rng(11)
    human = rng.normal(size=8)
    m1, m2 = human + rng.normal(size=8), human + 0.7 * rng.normal(size=8)
    statistic = system_statistic(name, dict(zip("ABCDEFGH", human)))
    exact = perm_both_exact(m1, m2, statistic)
    assert exact.p == brute_force_p(m1, m2, human, corr)
    assert exact.delta == pytest.approx(corr(m2, human) - corr(m1, human))
    k = 20000
    monte_carlo = perm_both(m1, m2, statistic, PermBothParams.without_early_stopping(k, seed=5))
    assert monte_carlo.p == pytest.approx(exact.p, abs=4 * math.sqrt(exact.p * (1 - exact.p) / k) + 1e-3)


# ---------------------------------------------------------------- invariants

def test_both_directions_add_up_on_the_same_draws():
    """With the same seed, (B, A) uses the complementary hybrids of (A, B): d -> -d and
    delta -> -delta, so p(A > B) + p(B > A) = 1 + #{d = delta} / k exactly. For Pearson on
    generic scores only the draws that keep every cell (d = delta exactly) tie; for accuracy
    (a discrete statistic) many draws do."""
    rng = np.random.default_rng(2)
    human = dict(zip("ABCDEF", rng.normal(size=6)))
    a, b = rng.normal(size=6), rng.normal(size=6)
    pearson = system_statistic("pearson", human)
    assert perm_both_exact(a, b, pearson).p + perm_both_exact(b, a, pearson).p == pytest.approx(1 + 1 / 64)
    k, seed = 3000, 9
    params = PermBothParams.without_early_stopping(k, seed=seed)
    keep_all = int(np.all(np.random.default_rng(seed).random((k, 6)) < 0.5, axis=1).sum())   # the documented draws
    assert perm_both(a, b, pearson, params).p + perm_both(b, a, pearson, params).p == pytest.approx(1 + keep_all / k)
    accuracy = system_statistic("accuracy", human)
    forward, backward = perm_both(a, b, accuracy, params), perm_both(b, a, accuracy, params)
    assert forward.p + backward.p > 1 + 2 * keep_all / k


@pytest.mark.parametrize("name", SYSTEM_STATISTICS)
def test_identical_metrics_give_p_one(name):
    """delta = 0 and every draw's difference is 0, which reaches 0 (">="): p = 1."""
    scores = [0.3, 0.1, 0.4, 0.1, 0.5, 0.9]
    statistic = system_statistic(name, dict(zip("ABCDEF", [6, 5, 4, 4, 2, 1])))
    result = perm_both(scores, list(scores), statistic, PermBothParams(k=200))
    assert (result.p, result.delta) == (1.0, 0.0)


def test_scaling_a_metric_changes_nothing():
    rng = np.random.default_rng(4)
    human = dict(zip("ABCDEFG", rng.normal(size=7)))
    a, b = rng.normal(size=7), rng.normal(size=7)
    statistic = system_statistic("pearson", human)
    original, scaled = perm_both_exact(a, b, statistic), perm_both_exact(3 * a - 2, b / 7 + 1, statistic)
    assert (original.count, original.p) == (scaled.count, scaled.p)
    assert original.delta == pytest.approx(scaled.delta, abs=1e-12)


def test_z_normalisation():
    assert z_normalise([1, 2, 3]) == pytest.approx(scipy.stats.zscore([1, 2, 3]))
    assert (z_normalise([2, 2, 2]) == 0).all()            # constant: zeros, not NaN
    with pytest.raises(GecInputError):
        z_normalise([1, float("nan"), 2])
    with pytest.raises(GecInputError):
        perm_both([1, 2, 3], [1, 2], system_statistic("pearson", HUMAN3))


# ---------------------------------------------------------------- seeding and early stopping

def test_seeded_and_reproducible():
    rng = np.random.default_rng(8)
    human = dict(zip("ABCDEFGHIJKL", rng.normal(size=12)))
    a, b = rng.normal(size=12), rng.normal(size=12)
    statistic = system_statistic("pearson", human)
    params = PermBothParams(k=1000, seed=21)
    assert perm_both(a, b, statistic, params) == perm_both(a, b, statistic, params)
    other = [perm_both(a, b, statistic, PermBothParams(k=1000, seed=s)).count for s in range(22, 27)]
    assert len(set(other + [perm_both(a, b, statistic, params).count])) > 1


def test_early_stopping_at_block_boundaries():
    human = dict(zip("ABCDEFGHIJKL", range(12, 0, -1)))
    statistic = system_statistic("pearson", human)
    perfect = np.arange(12, 0, -1, dtype=float)
    noisy = perfect + np.random.default_rng(1).normal(scale=6, size=12)
    # p < 0.02 at the first boundary: stop there, with the p of the first block's draws
    small = perm_both(noisy, perfect, statistic, PermBothParams(k=5000, block_size=1000, seed=3))
    first_block = perm_both(noisy, perfect, statistic, PermBothParams(k=1000, block_size=1000, seed=3))
    assert small.draws == 1000 and small.p < 0.02 and small.p == first_block.p
    # p > 0.5: also stops
    large = perm_both(perfect, noisy, statistic, PermBothParams(k=5000, block_size=1000, seed=3))
    assert large.draws == 1000 and large.p > 0.5
    # no stop when the boundary p is in [early_min, early_max]
    assert perm_both(noisy, perfect, statistic, PermBothParams(k=3000, block_size=1000, seed=3, early_min=0.0,
                                                                early_max=1.0)).draws == 3000
    # a last partial block is not checked; blocks of k: no early stopping
    assert perm_both(noisy, perfect, statistic, PermBothParams(k=1500, block_size=1000, seed=3)).draws == 1000
    assert perm_both(noisy, perfect, statistic, PermBothParams(k=700, block_size=1000, seed=3)).draws == 700
    assert perm_both(noisy, perfect, statistic, PermBothParams.without_early_stopping(2500, seed=3)).draws == 2500
    # the draws do not depend on the block size
    assert perm_both(noisy, perfect, statistic, PermBothParams(k=1000, block_size=250, seed=3, early_min=0.0,
                                                                early_max=1.0)).count == first_block.count
    with pytest.raises(GecInputError):
        PermBothParams(k=0)


# ---------------------------------------------------------------- the statistics, against the scalar ones

def integer_rows(rng, rows: int, cells: int) -> np.ndarray:
    return rng.integers(0, 4, size=(rows, cells)).astype(float)   # many ties


def test_system_statistics_equal_the_library_scalars():
    rng = np.random.default_rng(0)
    human_values = [5.0, 4, 4, 3, 1, 1, 0]
    human = dict(zip("ABCDEFG", human_values))
    rows = np.vstack([integer_rows(rng, 60, 7), rng.normal(size=(20, 7))])
    rows = rows[np.ptp(rows, axis=1) > 0]
    library = correlation_rows(rows, np.broadcast_to(human_values, rows.shape))
    for name in SYSTEM_STATISTICS:
        values = system_statistic(name, human)(rows)
        for row, value in zip(rows, values):
            if name in ("pearson", "spearman"):
                break
            counts = ties.pair_counts(human_values, row)
            if name.startswith("kendall-"):
                expected = ties.kendall(counts, name.removeprefix("kendall-"))
            elif name == "acc-eq-calibrated":
                expected = ties.tie_calibration([(human_values, row)]).acc_eq
            else:
                expected = {"kendall": ties.kendall(counts, "b"), "accuracy": ties.acc_kept(counts),
                            "acc-kept": ties.acc_kept(counts), "acc-dropped": ties.acc_dropped(counts),
                            "acc-eq": ties.acc_eq(counts)}[name]
            assert value == pytest.approx(expected, nan_ok=True), (name, row)
        if name in library:
            np.testing.assert_allclose(values, library[name], equal_nan=True)


SYSTEMS = ("s1", "s2", "s3", "s4", "s5")


def judgments(rng, items: int) -> list[Judgment]:
    out = []
    for item in range(items):
        kept = [s for s in SYSTEMS if rng.random() < 0.8]
        out.append(Judgment(str(item), item % 7, f"a{item % 2}", {s: int(rng.integers(1, 4)) for s in kept}))
    return out


@pytest.mark.parametrize("grouping", ["pooled", "item"])
def test_sentence_statistics_equal_the_library_scalars(grouping):
    """Sentence scores are integers (exact ties); two items share a source sentence (one cell)."""
    rng = np.random.default_rng(3)
    judged = judgments(rng, 30)
    for trial in range(5):
        scores = {s: {source: float(rng.integers(0, 4)) for source in range(7)} for s in SYSTEMS}
        groups = ties.judgment_groups(judged, scores, SYSTEMS)
        report = ties.tie_report(groups, grouping)
        for name in SENTENCE_STATISTICS:
            for rule in ("neutral", "seeda-script", "discordant"):
                statistic = sentence_statistic(name, judged, SYSTEMS, ties=rule, grouping=grouping)
                value = statistic(statistic.vector(scores)[None, :])[0]
                if name in ("accuracy", "kendall"):
                    if grouping == "item":
                        continue   # PairwiseAgreement is pooled only
                    agreement = pairwise_agreement(judged, scores, SYSTEMS, ties=rule)
                    expected = getattr(agreement, name)
                elif name == "acc-eq-calibrated":
                    expected = ties.tie_calibration(groups, grouping).acc_eq
                elif name.startswith("kendall-"):
                    expected = report.tau[name[8:]]
                else:
                    expected = getattr(report, name.replace("-", "_"))
                assert value == pytest.approx(expected, nan_ok=True), (name, rule, trial)


def test_tie_calibration_ignores_float_noise_in_equal_differences():
    """Scores 0.1 apart in decimal: 0.3 - 0.1 and 0.7 - 0.5 are both 0.2 but differ as floats;
    the calibration must treat them as one threshold, as it does the integers 3 - 1 and 7 - 5."""
    human = {"A": 4.0, "B": 3.0, "C": 3.0, "D": 1.0}
    decimals, integers = [0.7, 0.5, 0.3, 0.1], [7.0, 5.0, 3.0, 1.0]
    statistic = system_statistic("acc-eq-calibrated", human)
    assert statistic(np.array([decimals]))[0] == statistic(np.array([integers]))[0] \
        == ties.tie_calibration([(list(human.values()), integers)]).acc_eq


def test_unknown_statistic_and_missing_scores():
    with pytest.raises(GecInputError):
        system_statistic("tau", HUMAN3)
    with pytest.raises(GecInputError):
        system_statistic("pearson", {"A": 1.0, "B": 2.0})
    statistic = system_statistic("pearson", HUMAN3)
    with pytest.raises(GecInputError, match="system C"):
        statistic.vector({"A": 1.0, "B": 2.0})
    judged = [Judgment("1", 0, "a", {"s1": 1, "s2": 2})]
    with pytest.raises(GecInputError, match="sentence 1"):
        sentence_statistic("accuracy", judged, SYSTEMS).vector({"s1": {0: 1.0}, "s2": {}})
    with pytest.raises(GecInputError):
        sentence_statistic("pearson", judged, SYSTEMS)


# ---------------------------------------------------------------- ranks

def test_assign_ranks_on_hand_built_matrices():
    nan = math.nan
    p = [[nan, 0.2, 0.03, 0.01],
         [nan, nan, 0.4, 0.01],
         [nan, nan, nan, 0.3],
         [nan, nan, nan, nan]]
    # 3 is beaten by 0 and 1, but they are not in its group (which restarted at 2): rank 2
    assert assign_ranks(p) == (1, 1, 2, 2)
    assert assign_ranks(p, alpha=0.02) == (1, 1, 1, 2)
    # not the leader-only rule of significance_clusters: 2 is beaten by 1, not by 0
    q = [[nan, 0.3, 0.3], [nan, nan, 0.01], [nan, nan, nan]]
    assert assign_ranks(q) == (1, 1, 2)
    r = {"a": 0.9, "b": 0.8, "c": 0.7}
    assert significance_clusters(r, {("a", "b"): 0.3, ("a", "c"): 0.3, ("b", "c"): 0.01}) == {"a": 1, "b": 1, "c": 1}
    # p == alpha counts (<=) for the rank, but the table marks only p < alpha
    assert assign_ranks([[nan, 0.05], [nan, nan]]) == (1, 2)
    assert assign_ranks([[nan]]) == (1,) and assign_ranks(np.zeros((0, 0))) == ()
    with pytest.raises(GecInputError):
        assign_ranks([[nan, 0.1]])


def test_ranking_table_as_the_reference_prints_it():
    values = {"long-name": 0.5, "b": 0.9, "c": 0.1}
    built = ranking(values, {("b", "long-name"): (0.05, 10), ("b", "c"): (0.01, 10), ("long-name", "c"): (0.2, 10)})
    assert built.names == ("b", "long-name", "c") and built.ranks == (1, 2, 2)
    assert built.text().splitlines() == [
        "b          1  0.9000000  . = >",
        "long-name  2  0.5000000  . . =",
        "c          2  0.1000000  . . . ",
    ]
    assert built.text(probabilities=True).splitlines()[0] == "b          1  0.9000000    .   0.050 0.010"
    assert built.p_value("b", "c") == 0.01
    assert best_first({"x": 1.0, "a": 1.0, "n": math.nan, "z": 2.0}) == ["z", "a", "x", "n"]


def test_rank_metrics_matrix_is_pairwise_perm_both():
    rng = np.random.default_rng(6)
    human = dict(zip("ABCDEFGHIJ", rng.normal(size=10)))
    truth = np.array(list(human.values()))
    metrics = {"good": truth + 0.2 * rng.normal(size=10), "fair": truth + rng.normal(size=10),
               "poor": rng.normal(size=10)}
    statistic = system_statistic("pearson", human)
    params = PermBothParams(k=500, seed=1)
    result = rank_metrics({m: dict(zip(human, v)) for m, v in metrics.items()}, statistic, params=params)
    assert isinstance(result, Ranking) and result.names[0] == "good" and result.names[-1] == "poor"
    for i, better in enumerate(result.names):
        for worse in result.names[i + 1:]:
            expected = perm_both(metrics[worse], metrics[better], statistic, params)
            assert result.p_value(better, worse) == expected.p
    assert result.ranks == assign_ranks(np.array(result.p, dtype=float))
    again = rank_metrics(metrics, statistic, params=params)   # vectors in cell order: the same
    assert (again.names, again.ranks, again.values) == (result.names, result.ranks, result.values)
    assert np.array_equal(np.array(again.p, dtype=float), np.array(result.p, dtype=float), equal_nan=True)


# ---------------------------------------------------------------- against the reference, where installed

def test_against_mt_metrics_eval_if_installed():
    stats = pytest.importorskip("mt_metrics_eval.stats", reason="mt-metrics-eval is not installed (optional check)")
    rng = np.random.default_rng(12)
    gold = list(rng.normal(size=10))
    m1, m2 = [g + rng.normal() for g in gold], [g + 0.6 * rng.normal() for g in gold]
    k = 4000
    np.random.seed(0)
    ref = stats.PermutationSigDiff(stats.Correlation(10, gold, m1), stats.Correlation(10, gold, m2),
                                   scipy.stats.pearsonr, "none", k, stats.PermutationSigDiffParams(block_size=k))[0]
    ours = perm_both(m1, m2, system_statistic("pearson", dict(zip("ABCDEFGHIJ", gold))),
                     PermBothParams.without_early_stopping(k)).p
    assert ours == pytest.approx(ref, abs=5 * math.sqrt(max(ref * (1 - ref), 1e-3) * 2 / k))


def test_segment_statistics_equal_the_per_segment_scalars():
    """Segment level (every system rated on every segment, as GMEG-Data): the mean over segments
    of scipy's r / rho / tau_b and of ties' acc_eq, segments with a constant side left out; a
    segment with an unrated system is dropped."""
    from gecscore.metaeval.draw_statistics import segment_statistic

    rng = np.random.default_rng(9)
    systems, segments = ("a", "b", "c", "d"), 12
    human = {s: list(rng.integers(0, 3, size=segments).astype(float)) for s in systems}
    human["a"][5] = float("nan")
    metric = {s: list(rng.integers(0, 4, size=segments).astype(float)) for s in systems}
    rated = [g for g in range(segments) if g != 5]
    scalars = {"pearson": lambda h, m: scipy.stats.pearsonr(h, m)[0], "spearman": lambda h, m: scipy.stats.spearmanr(h, m)[0],
               "kendall": lambda h, m: scipy.stats.kendalltau(h, m)[0],
               "acc-eq": lambda h, m: ties.acc_eq(ties.pair_counts(h, m))}
    for name, scalar in scalars.items():
        statistic = segment_statistic(name, human)
        per_segment = []
        for g in rated:
            h, m = [human[s][g] for s in systems], [metric[s][g] for s in systems]
            constant = len(set(h)) == 1 or len(set(m)) == 1
            per_segment.append(math.nan if constant and name != "acc-eq" else scalar(h, m))
        expected = np.nanmean(per_segment)
        assert statistic(statistic.vector(metric)[None, :])[0] == pytest.approx(expected), name
    with pytest.raises(GecInputError):
        segment_statistic("pearson", human, grouping="pooled")


def test_calibration_by_item_with_very_mixed_group_sizes():
    """Items of 2 to 40 outputs: the least common multiple of their pair counts is too large for
    exact int64 weights, so the sweep uses 1 / N_g; the value still equals ties' (exact) one."""
    rng = np.random.default_rng(13)
    systems = [f"s{i:02d}" for i in range(40)]
    judged = [Judgment(str(n), n, "a", {s: int(rng.integers(1, 4)) for s in systems[:n]}) for n in range(2, 41)]
    scores = {s: {n: float(rng.integers(0, 5)) for n in range(2, 41)} for s in systems}
    statistic = sentence_statistic("acc-eq-calibrated", judged, systems, grouping="item")
    assert math.lcm(*(n * (n - 1) // 2 for n in range(2, 41))) * statistic.layout.n_pairs >= 2 ** 53
    expected = ties.tie_calibration(ties.judgment_groups(judged, scores, systems), "item").acc_eq
    assert statistic(statistic.vector(scores)[None, :])[0] == pytest.approx(expected, abs=1e-12)


def test_ranks_against_mt_metrics_eval_if_installed():
    try:
        from mt_metrics_eval import data
    except ImportError as error:     # its data module also needs apache_beam and dacite
        pytest.skip(f"mt-metrics-eval's data module is not importable (optional check): {error}")
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 8))
        p = rng.choice([0.0, 0.01, 0.05, 0.2, 1.0], size=(n, n))
        assert list(assign_ranks(p)) == list(data.AssignRanks(p, 0.05))
