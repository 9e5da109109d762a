"""Human EW/TrueSkill from raw judgments (GJG15's procedure) and the TrueSkill aggregation of
sentence scores (Goto et al. 2025)."""
from __future__ import annotations

import math
import random
from itertools import combinations

import pytest
import trueskill
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.metaeval.human import gjg15_scores, seeda_scores
from gecscore.metaeval.trueskill_aggregate import expected_wins_aggregate, trueskill_aggregate
from gecscore.metaeval.trueskill_human import (Pair, TwoPlayerTrueSkill, expected_wins, pairs_of_item, ranking,
                                               read_pairs, restricted, trueskill_run)

from datapaths import GEC_DATA, require


def test_pairs_of_one_item():
    # B and C share an output (rank 1), A rank 3, D rank 2
    pairs = pairs_of_item([(3, ["A"]), (1, ["C", "B"]), (2, ["D"])])
    assert sorted((p.a, p.b, p.outcome) for p in pairs) == [("A", "B", ">"), ("A", "C", ">"), ("A", "D", ">"),
                                                           ("B", "C", "="), ("B", "D", "<"), ("C", "D", "<")]


def test_expected_wins_by_hand():
    pairs = [Pair("A", "B", "<"), Pair("A", "B", "<"), Pair("A", "B", ">"), Pair("A", "C", "="), Pair("B", "C", "<")]
    # A: 2/3 vs B, 0 vs C (no wins either way) -> 1/3; B: 1/3 + 1 -> 2/3; C: 0 + 0
    assert expected_wins(pairs) == pytest.approx({"A": 1 / 3, "B": 2 / 3, "C": 0.0})
    assert restricted(pairs, ["A", "B"]) == pairs[:3]
    assert ranking({"A": 1.0, "B": 2.0, "C": 1.0}) == ["B", "A", "C"]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.floats(-2, 2), st.floats(0.01, 0.5), st.floats(-2, 2), st.floats(0.01, 0.5),
                          st.booleans()), min_size=1, max_size=5), st.floats(0.1, 5))
def test_closed_form_update_equals_the_trueskill_package(matches, beta):
    model = TwoPlayerTrueSkill(beta=beta)
    env = model.env
    for mu_a, s_a, mu_b, s_b, drawn in matches:
        ((ma, va), (mb, vb)) = model.rate((mu_a, s_a ** 2), (mu_b, s_b ** 2), drawn)
        (ra,), (rb,) = env.rate([(env.create_rating(mu_a, s_a),), (env.create_rating(mu_b, s_b),)],
                                ranks=(0, 0) if drawn else (0, 1))
        assert (ma, mb) == pytest.approx((ra.mu, rb.mu), abs=1e-10)
        assert (va, vb) == pytest.approx((ra.sigma ** 2, rb.sigma ** 2), abs=1e-10)


def package_aggregate(scores):
    """The aggregation written with the package's own ``rate`` (slow, obvious)."""
    env = trueskill.TrueSkill(mu=0.0, sigma=0.5, beta=0.25, tau=0.0, draw_probability=0.25)
    names = list(scores)
    ratings = [env.create_rating() for _ in names]
    for k in range(len(scores[names[0]])):
        for i, j in combinations(range(len(names)), 2):
            a, b = scores[names[i]][k], scores[names[j]][k]
            (ratings[i],), (ratings[j],) = env.rate([(ratings[i],), (ratings[j],)],
                                                    ranks=(0, 0) if a == b else ((0, 1) if a > b else (1, 0)))
    return {n: r.mu for n, r in zip(names, ratings)}


def test_trueskill_aggregate_equals_the_package_and_ranks_a_dominant_system_first():
    rng = random.Random(1)
    scores = {f"s{i}": [rng.choice([0.0, 0.5, 1.0]) + 0.2 * i for _ in range(25)] for i in range(4)}
    ours = trueskill_aggregate(scores)
    assert ours == pytest.approx(package_aggregate(scores), abs=1e-10)
    assert ranking(ours)[0] == "s3" and ranking(ours)[-1] == "s0"
    # identical systems only draw: they stay at mu 0
    assert trueskill_aggregate({"a": [0.1, 0.2], "b": [0.1, 0.2]}) == {"a": 0.0, "b": 0.0}
    ew = expected_wins_aggregate({"a": [1, 1, 0], "b": [0, 1, 1], "c": [0, 0, 0]})
    # a beats b once, b beats a once -> 1/2; both always >= c: a 2 wins vs c, b 2 wins -> 1
    assert ew == pytest.approx({"a": 0.75, "b": 0.75, "c": 0.0})
    with pytest.raises(ValueError):
        trueskill_aggregate({"a": [1, 2], "b": [1]})


def test_a_missing_sentence_score_is_no_comparison():
    """NaN (a judge that failed, an output its prompt did not show) compares with nothing: it
    must not count as a win for the system listed first, nor as a draw."""
    nan = float("nan")
    # no comparison at all: no score (NaN), not the prior mu or 0 wins (issue 32)
    assert all(math.isnan(v) for v in trueskill_aggregate({"a": [nan, nan], "b": [nan, nan]}).values())
    with_gaps = trueskill_aggregate({"a": [1.0, nan, 2.0], "b": [nan, 3.0, 1.0]})
    assert with_gaps == trueskill_aggregate({"a": [2.0], "b": [1.0]})   # only the third sentence compares
    assert all(math.isnan(v) for v in expected_wins_aggregate({"a": [1.0, nan], "b": [nan, 2.0]}).values())


def test_one_trueskill_run_is_seeded():
    pairs = [Pair("A", "B", "<")] * 30 + [Pair("B", "C", "<")] * 30 + [Pair("A", "C", "=")] * 5
    first, again = trueskill_run(pairs, random.Random(2)), trueskill_run(pairs, random.Random(2))
    assert first == again
    assert ranking(first) == ["A", "B", "C"]


@pytest.mark.realdata
def test_gjg15_expected_wins_reproduce_the_published_scores():
    path = require(GEC_DATA / "gjg15" / "judgments.xml")
    pairs = read_pairs(path)
    assert len(pairs) == 109098
    published = gjg15_scores(GEC_DATA / "gjg15" / "human_scores.tsv")["gjg15-EW"].scores
    ours = expected_wins(pairs)
    assert ranking(ours) == ranking(published)
    assert max(abs(ours[s] - published[s]) for s in published) < 5e-4   # the published 3 decimals


@pytest.mark.realdata
def test_seeda_trueskill_from_the_raw_judgments():
    path = require(GEC_DATA / "seeda" / "judgments_edit.xml")
    pairs = read_pairs(path)
    published = seeda_scores(GEC_DATA / "seeda" / "human", "all")["seeda-E-TS"].scores
    ours = trueskill_run(pairs, random.Random(0))   # one run (the published: mean of 1,000)
    assert ranking(ours)[:3] == ranking(published)[:3] and ranking(ours)[-1] == "INPUT"
    assert max(abs(ours[s] - published[s]) for s in published) < 0.06
