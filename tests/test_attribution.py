"""Edit attribution: exact numbers on small games, the Shapley axioms as properties, and the
metric adapter on a sentence scored by CLEME2.0 and SentM2."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gecscore
from gecscore.attribution import CachedValue, add_one, exact_shapley, remove_one, sampled_shapley
from gecscore.attribution.metric_value import MetricValue
from gecscore.attribution.records import edit_records
from gecscore.types import Edit, Gold


def game(table: dict[frozenset, float]):
    return lambda subset: table[frozenset(subset)]


# two complementary edits: worth 1 only together (a pure interaction)
TOGETHER = game({frozenset(): 0.0, frozenset({0}): 0.0, frozenset({1}): 0.0, frozenset({0, 1}): 1.0})


def test_methods_on_a_pure_interaction():
    assert add_one(TOGETHER, 2).values == (0.0, 0.0)
    assert remove_one(TOGETHER, 2).values == (1.0, 1.0)
    assert exact_shapley(TOGETHER, 2).values == (0.5, 0.5)
    # 2 edits have 2 permutations: listed once each, so the estimate is exact
    sampled = sampled_shapley(TOGETHER, 2, samples=10)
    assert sampled.values == (0.5, 0.5) and sampled.samples == 2


def test_three_player_game_by_hand():
    # v = 1 for any set containing 0 and at least one of {1, 2}: phi = (2/3, 1/6, 1/6)
    table = {frozenset(s): float(0 in s and len(s) >= 2) for r in range(4) for s in itertools.combinations(range(3), r)}
    phi = exact_shapley(game(table), 3).values
    assert phi == pytest.approx((2 / 3, 1 / 6, 1 / 6))


def test_batches_and_cache():
    calls = []

    class Batched:
        def __call__(self, subset):
            raise AssertionError("scored one at a time")

        def values(self, subsets):
            calls.append(len(subsets))
            return [len(s) ** 2 for s in subsets]

    value = CachedValue(Batched())
    result = exact_shapley(value, 3)
    assert calls == [8] and result.evaluations == 8
    remove_one(value, 3)
    assert calls == [8]  # every subset it needs is cached
    assert sum(result.values) == pytest.approx(9)


def test_sampled_is_seeded_and_refuses_nothing():
    v = lambda s: sum(2.0 ** i for i in s) + 0.5 * (0 in s and 5 in s)
    first, again = sampled_shapley(v, 8, samples=30, seed=4), sampled_shapley(v, 8, samples=30, seed=4)
    assert first.values == again.values
    assert sampled_shapley(v, 8, samples=30, seed=5).values != first.values
    assert sum(first.values) == pytest.approx(v(range(8)) - v(()))  # efficiency holds per permutation
    with pytest.raises(ValueError, match="sampled_shapley"):
        exact_shapley(v, 15)


@st.composite
def games(draw):
    n = draw(st.integers(0, 5))
    subsets = [frozenset(s) for r in range(n + 1) for s in itertools.combinations(range(n), r)]
    values = draw(st.lists(st.floats(-1, 1, allow_nan=False), min_size=len(subsets), max_size=len(subsets)))
    return n, dict(zip(subsets, values))


@settings(max_examples=60, deadline=None)
@given(games())
def test_shapley_axioms(data):
    n, table = data
    phi = exact_shapley(game(table), n)
    full, empty = table[frozenset(range(n))], table[frozenset()]
    assert sum(phi.values) == pytest.approx(full - empty, abs=1e-9)           # efficiency
    additive = {s: sum(0.1 * (i + 1) for i in s) for s in table}                 # additive game: exact shares
    assert exact_shapley(game(additive), n).values == pytest.approx([0.1 * (i + 1) for i in range(n)])
    assert sampled_shapley(game(additive), n, samples=3).values == pytest.approx([0.1 * (i + 1) for i in range(n)])
    # a null edit (adds nothing anywhere) gets 0
    if n:
        null = {s: table[s - {n - 1}] for s in table}
        assert exact_shapley(game(null), n).values[n - 1] == pytest.approx(0.0, abs=1e-12)


SOURCE = tuple("He go to school and buy a apple .".split())
REFERENCE = (Edit(1, 2, ("went",), "R:VERB:TENSE"), Edit(5, 6, ("bought",), "R:VERB:TENSE"),
             Edit(6, 7, ("an",), "R:DET"))
HYPOTHESIS = (Edit(1, 2, ("went",), "R:VERB:TENSE"), Edit(3, 3, ("the",), "M:DET"), Edit(6, 7, ("an",), "R:DET"))


@pytest.mark.parametrize("options", [{"name": "cleme2", "level": "sentence"},
                                     {"name": "pt_m2", "level": "sentence", "scorer": "none"}])
def test_metric_adapter_sums_to_the_score_gap(options):
    options = dict(options)
    metric = gecscore.load(options.pop("name"), **options)
    gold = Gold(SOURCE, {0: REFERENCE}, 0, "1")
    v = MetricValue(metric, gold, HYPOTHESIS)
    phi = exact_shapley(v, 3)
    assert v.score_calls == 1
    whole = metric.score(v.prepared(1), [v.target({0, 1, 2})])
    assert phi.full == pytest.approx(whole.score)
    assert sum(phi.values) == pytest.approx(phi.full - phi.empty)
    # the two reference edits help, the spurious article does not
    assert phi.values[0] > 0 and phi.values[2] > 0 and phi.values[1] <= 0
    records = edit_records(7, SOURCE, HYPOTHESIS, phi)
    assert [(r["source"], r["correction"]) for r in records] == [("go", "went"), ("", "the"), ("a", "an")]
    assert records[0]["sentence"] == 7 and records[0]["attribution"] == phi.values[0]


def test_sentm2_values_by_hand():
    metric = gecscore.load("pt_m2", level="sentence", scorer="none")
    v = MetricValue(metric, Gold(SOURCE, {0: REFERENCE}, 0, "1"), HYPOTHESIS)
    # {went, an}: TP 2, FP 0, FN 1 -> P 1, R 2/3, F0.5 = 1.25 (2/3) / (0.25 + 2/3) = 10/11
    assert v({0, 2}) == pytest.approx(10 / 11)
    assert v(set()) == 0.0


def test_corpus_records_one_per_edit():
    import json

    from gecscore.attribution.corpus import attribute_corpus
    from gecscore.types import GoldCorpus, Target

    gold = GoldCorpus((Gold(SOURCE, {0: REFERENCE}, 0, "1"), Gold(SOURCE, {0: REFERENCE}, 0, "2")), "m2")
    hypotheses = [Target.from_edits(SOURCE, HYPOTHESIS), Target.unchanged(SOURCE)]
    metric = gecscore.load("cleme2", level="sentence")
    records = attribute_corpus(metric, gold, hypotheses, method="shapley")
    assert [r["sentence"] for r in records] == [0, 0, 0] and [r["edit"] for r in records] == [0, 1, 2]
    assert sum(r["attribution"] for r in records) == pytest.approx(records[0]["full"] - records[0]["empty"])
    json.dumps(records)  # JSON-ready
    removed = attribute_corpus(metric, gold, hypotheses, method="remove-one")
    assert {r["method"] for r in removed} == {"remove-one"}
    with pytest.raises(ValueError):
        attribute_corpus(metric, gold, hypotheses, method="banzhaf")


CANDIDATES = (Edit(1, 2, ("went",), "R:VERB:TENSE"), Edit(3, 3, ("the",), "M:DET"), Edit(5, 6, ("bought",), "R:VERB"),
              Edit(6, 7, ("an",), "R:DET"), Edit(7, 8, ("apples",), "R:NOUN:NUM"), Edit(8, 9, ("!",), "R:PUNCT"))


@settings(max_examples=15, deadline=None)
@given(st.sets(st.integers(0, len(CANDIDATES) - 1), min_size=1), st.sampled_from(["cleme2", "pt_m2"]))
def test_shapley_of_a_metric_sums_to_the_score_gap(chosen, name):
    """Efficiency with the metric's own scores: each v(S) comes from one batched score call,
    the ends from separate single-sentence calls."""
    metric = gecscore.load(name, level="sentence", **({"scorer": "none"} if name == "pt_m2" else {}))
    edits = [CANDIDATES[i] for i in sorted(chosen)]
    gold = Gold(SOURCE, {0: REFERENCE}, 0, "1")
    value = MetricValue(metric, gold, edits)
    phi = exact_shapley(value, len(edits))
    alone = MetricValue(metric, gold, edits)
    full, empty = alone(frozenset(range(len(edits)))), alone(frozenset())
    assert sum(phi.values) == pytest.approx(full - empty, abs=1e-9)


@pytest.mark.realdata
def test_sampled_shapley_error_on_conll14_sentences():
    from datapaths import CONLL14, require

    from gecscore.lang.en.gold import hypothesis_targets
    from gecscore.io.m2 import read_m2

    gold = read_m2(require(CONLL14 / "official-2014.combined.m2"))[:200]
    hyps = (CONLL14 / "systems" / "CAMB.txt").read_text(encoding="utf-8").split("\n")[:200]
    targets = hypothesis_targets([" ".join(g.source) for g in gold], hyps)
    chosen = [i for i, t in enumerate(targets) if 6 <= len(t.edits) <= 8][:3]
    assert chosen
    metric = gecscore.load("cleme2", level="sentence")
    errors = []
    for i in chosen:
        value = CachedValue(MetricValue(metric, gold[i], targets[i].edits))
        exact = exact_shapley(value, len(targets[i].edits))
        sampled = sampled_shapley(value, len(targets[i].edits), samples=128, seed=0)
        assert sum(exact.values) == pytest.approx(exact.gap, abs=1e-9)
        errors += [abs(a - b) for a, b in zip(exact.values, sampled.values)]
    # measured on 23 CAMB sentences: mean 0.0010, max 0.010 at 128 permutations
    assert max(errors) < 0.02 and sum(errors) / len(errors) < 0.005
