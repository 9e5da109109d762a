"""Soft pairwise accuracy (gecscore.metaeval.soft_pairwise) and segment-level correlation grouped
by item (gecscore.metaeval.segment_correlation).

The seeded values are pinned from mt-metrics-eval's ``mt_metrics_eval/pce.py`` (commit
68a481aea1a787392d55af8f76ac8ef40c5f4664) run on the same matrices; the exact values come from
enumerating all 2^L sign vectors, by hand and by an independent loop.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.errors import GecInputError
from gecscore.metaeval.human_segments import SegmentScores
from gecscore.metaeval.segment_correlation import item_correlations
from gecscore.metaeval.soft_pairwise import (one_minus_pce, pairwise_p_values, permutation_signs,
                                             soft_pairwise_accuracy)

NAN = math.nan
THREE = [[0.8, 0.9, 0.7, 1.0, 0.6], [0.2, 0.3, 0.1, 0.4, 0.0], [0.5, 0.95, 0.6, 0.9, 0.1]]
RAMPS = [[1.0, 2, 3, 4, 5], [2, 2, 2, 2, 2], [5, 4, 3, 2, 1]]


def every_sign(segments: int) -> np.ndarray:
    return np.array(list(itertools.product((-1.0, 1.0), repeat=segments)))


def upper(matrix: np.ndarray) -> list[float]:
    return matrix[np.triu_indices(matrix.shape[0], 1)].tolist()


def test_exact_p_values_by_hand():
    """All 32 sign vectors of 5 segments. A beats B by 2 on every segment: only the all-plus
    vector reaches the observed 10, p = 1/32. C - A = (1, -1, 2, 0, 1), observed 3: s3 must be
    +1, then two of (s1, -s2, s4) positive (4 of 8), the 0 segment either way: p = 8/32."""
    a = [3.0, 4, 2, 5, 1]
    scores = [a, [x - 2 for x in a], [4.0, 3, 4, 5, 2]]
    p = pairwise_p_values(scores, signs=every_sign(5))
    assert p[0, 1] == 1 / 32
    c_over_a = pairwise_p_values([scores[2], a], signs=every_sign(5))
    assert c_over_a[0, 1] == 8 / 32
    assert np.isnan(p[np.tril_indices(3)]).all()       # only the upper triangle is filled


def slow_p_value(x: list[float], y: list[float], signs: np.ndarray) -> float:
    observed = sum(x) - sum(y)
    hits = sum(1 for s in signs if sum(si * (xi - yi) for si, xi, yi in zip(s, x, y)) >= observed)
    return hits / len(signs)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4).flatmap(lambda systems: st.integers(1, 6).flatmap(
    lambda segments: st.lists(st.lists(st.integers(-20, 20), min_size=segments, max_size=segments),
                              min_size=systems, max_size=systems))))
def test_exhaustive_p_values_equal_an_independent_loop(matrix):
    """Small integers are exact in float32: the vectorised test equals a plain loop over every
    sign vector, pair by pair."""
    signs = every_sign(len(matrix[0]))
    p = pairwise_p_values(matrix, signs=signs)
    for i, j in zip(*np.triu_indices(len(matrix), 1)):
        assert p[i, j] == slow_p_value(matrix[i], matrix[j], signs)


def test_seeded_p_values_equal_mt_metrics_eval():
    """pce.compute_pairwise_p_values(x) (seed 4, 1,000 permutations) and with 7 permutations, seed 0."""
    assert upper(pairwise_p_values(THREE)) == [0.036, 0.074, 1.0]
    assert upper(pairwise_p_values(RAMPS)) == [0.182, 0.644, 0.958]
    assert upper(pairwise_p_values(RAMPS, num_permutations=7, seed=0)) == [2 / 7, 4 / 7, 6 / 7]
    # pce.compute_one_minus_pce of the two seeded matrices
    assert one_minus_pce(pairwise_p_values(THREE), pairwise_p_values(RAMPS)) == pytest.approx(0.7473333333333333,
                                                                                               abs=1e-12)


def test_signs_are_plus_or_minus_one_and_reproducible():
    signs = permutation_signs(500, 9, seed=11)
    assert signs.dtype == np.float32 and signs.shape == (500, 9)
    assert set(np.unique(signs)) == {-1.0, 1.0}
    assert np.array_equal(signs, permutation_signs(500, 9, seed=11))
    assert not np.array_equal(signs, permutation_signs(500, 9, seed=12))
    assert abs(signs.mean()) < 0.1        # a fair coin per segment
    assert upper(pairwise_p_values(THREE, seed=11)) == upper(pairwise_p_values(THREE, seed=11))


def test_one_minus_pce_by_hand():
    """|0.1 - 0.3| + |0.5 - 0.5| + |0.9 - 0.4| = 0.7 over 3 pairs: 1 - 0.7/3; the lower triangle is ignored."""
    human = np.array([[NAN, 0.1, 0.5], [0.0, NAN, 0.9], [7.0, 7.0, NAN]])
    metric = np.array([[NAN, 0.3, 0.5], [1.0, NAN, 0.4], [NAN, NAN, NAN]])
    assert one_minus_pce(human, metric) == pytest.approx(1 - 0.7 / 3, abs=1e-15)
    assert one_minus_pce(human, human) == 1.0
    with pytest.raises(GecInputError, match="square, of the same shape"):
        one_minus_pce(human, metric[:2, :2])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.floats(0, 100, allow_nan=False, width=32), min_size=8, max_size=8), min_size=2,
                max_size=5), st.integers(0, 2**31))
def test_a_metric_agreeing_with_humans_scores_one_and_doubling_changes_nothing(human, seed):
    names = tuple(f"s{k}" for k in range(len(human)))
    scores = SegmentScores("toy", names, tuple(tuple(row) for row in human))
    same = soft_pairwise_accuracy(scores, dict(zip(names, human)), num_permutations=200, seed=seed)
    assert same.value == 1.0 and same.human_p == same.metric_p
    doubled = soft_pairwise_accuracy(scores, {n: [2 * v for v in row] for n, row in zip(names, human)},
                                     num_permutations=200, seed=seed)
    assert doubled.metric_p == same.metric_p      # x2 is exact in float32: the same test
    assert all(0 <= p <= 1 and abs(p * 200 - round(p * 200)) < 1e-9 for p in same.human_p.values())


def test_unrated_segments_are_dropped_from_both_sides():
    names = ("a", "b", "c")
    rows = [[1.0, NAN, 3, 4, 5, 6], [2.0, NAN, 2, 2, 2, 9], [5.0, NAN, 3, 2, 1, 0]]
    metric = {"a": [0.1, 0.9, 0.3, 0.2, 0.5, 0.6], "b": [0.2, 0.0, 0.2, 0.3, 0.2, 0.9],
              "c": [0.5, 0.5, 0.3, 0.2, 0.1, 0.0]}
    result = soft_pairwise_accuracy(SegmentScores("toy", names, tuple(map(tuple, rows))), metric)
    assert (result.segments, result.unrated) == (5, 1)
    kept = [0, 2, 3, 4, 5]
    human_p = pairwise_p_values([[r[i] for i in kept] for r in rows])
    metric_p = pairwise_p_values([[metric[n][i] for i in kept] for n in names])
    assert result.value == one_minus_pce(human_p, metric_p)
    assert list(result.human_p) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert result.as_dict()["pairs"][0] == {"better": "a", "worse": "b", "human_p": human_p[0, 1],
                                            "metric_p": metric_p[0, 1]}


def test_bad_inputs_are_one_clear_error():
    human = SegmentScores("toy", ("a", "b"), ((1.0, 2.0), (2.0, 1.0)))
    with pytest.raises(GecInputError, match="metric score of b on segment 2 is not a finite number"):
        soft_pairwise_accuracy(human, {"a": [1, 2], "b": [1, NAN]})
    with pytest.raises(GecInputError, match="no metric scores for system"):
        soft_pairwise_accuracy(human, {"a": [1, 2]})
    with pytest.raises(GecInputError, match="3 metric scores of a but 2 segments"):
        soft_pairwise_accuracy(human, {"a": [1, 2, 3], "b": [1, 2]})
    with pytest.raises(GecInputError, match="positive integer"):
        soft_pairwise_accuracy(human, {"a": [1, 2], "b": [2, 1]}, num_permutations=0)
    with pytest.raises(GecInputError, match="systems x segments"):
        pairwise_p_values([1.0, 2.0])
    with pytest.raises(GecInputError, match="finite"):
        pairwise_p_values([[1.0, NAN], [1.0, 2.0]])
    with pytest.raises(GecInputError, match="no segment has a human score"):
        soft_pairwise_accuracy(SegmentScores("toy", ("a", "b"), ((NAN,), (1.0,))), {"a": [1], "b": [1]})


def test_item_correlations_by_hand():
    """Three items of three systems. Item 1: human (1, 2, 3), metric (1, 2, 3): r = rho = tau = 1,
    acc_eq 1. Item 2: human (3, 2, 1), metric (1, 2, 3): all -1, acc_eq 0. Item 3: every human
    score equal and the metric too: r, rho, tau undefined (left out), acc_eq 1 (three correct
    ties). Means: r = rho = tau = 0 over 2 items, acc_eq 2/3 over 3."""
    human = SegmentScores("toy", ("a", "b", "c"), ((1.0, 3.0, 5.0), (2.0, 2.0, 5.0), (3.0, 1.0, 5.0)))
    metric = {"a": [1.0, 1.0, 0.5], "b": [2.0, 2.0, 0.5], "c": [3.0, 3.0, 0.5]}
    result = item_correlations(human, metric)
    assert (result.pearson, result.spearman, result.kendall) == (0.0, 0.0, 0.0)
    assert result.acc_eq == pytest.approx(2 / 3, abs=1e-15)
    assert dict(result.defined) == {"pearson": 2, "spearman": 2, "kendall": 2, "acc_eq": 3}
    assert (result.items, result.unrated) == (3, 0)


def test_item_correlations_with_ties_and_an_unrated_item():
    """Human (1, 1, 2) against metric (1, 2, 3): r = sqrt(3)/2, rho = sqrt(3)/2, tau_b = 2/sqrt(6)
    (C = 2, D = 0, T_h = 1, T_m = 0: 2 / sqrt(2 * 3)), acc_eq = 2/3; the unrated item is dropped."""
    human = SegmentScores("toy", ("a", "b", "c"), ((1.0, NAN), (1.0, NAN), (2.0, NAN)))
    metric = {"a": [1.0, 0.0], "b": [2.0, 0.0], "c": [3.0, 0.0]}
    result = item_correlations(human, metric)
    assert result.pearson == pytest.approx(math.sqrt(3) / 2, abs=1e-12)
    assert result.spearman == pytest.approx(math.sqrt(3) / 2, abs=1e-12)
    assert result.kendall == pytest.approx(2 / math.sqrt(6), abs=1e-12)
    assert result.acc_eq == pytest.approx(2 / 3, abs=1e-15)
    assert (result.items, result.unrated) == (1, 1)
    with pytest.raises(GecInputError, match="at least 3 systems"):
        item_correlations(human.select(("a", "b")), metric)
