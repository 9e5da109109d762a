"""PT-M2 and PT-ERRANT (Gong et al. 2022): M2 / ERRANT with edits weighted by a pretrained scorer.

For a sentence and an annotator with reference R (its edits applied to the source S), every
edit u of U = system edits + gold edits (gold reduced to its first alternative) weighs
w_u = |score(S_u, R) - score(S, R)|, S_u being S with only u applied. Then
P = w(correct) / w(system), R = w(correct) / w(gold), and the annotator choice, corpus and
sentence levels are M2's (:mod:`gecscore.m2.scoring`) on the weighted counts. A correct
system edit keeps its own weight (also when it matched a non-first gold alternative).
Sentence level: if every weight of U is 0, each becomes 1/|U|. Corpus level: zero weights
add nothing.

``base="m2"``: system edits from MaxMatch against each annotator's gold; ``segmentation``
picks among equally good edit sequences (``reference``: the reference code's, the default, so
that the weights, each computed per edit, agree with it; ``minimal``: the smallest edits).
``base="errant"``: system edits as given (ERRANT); edits are (start, end, correction)
triples, UNK-typed ones dropped, matched exactly.
``scorer="none"``: unweighted, i.e. plain M2 / SentM2 (or ERRANT F with M2's choice).
Every (S_u, R) and (S, R) pair of the corpus is scored in one batch (see
:mod:`gecscore.models.similarity`).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from gecscore.m2.config import PtM2Config
from gecscore.m2.scoring import (AnnotatorEdits, EditCounts, M2Result, aggregate,
                                 check_hypotheses, gold_annotations, m2_candidates)
from gecscore.types import Edit, Gold, Target, Tokens

UNKNOWN_TYPE = "UNK"

EditKey = tuple[int, int, Tokens]


def edit_key(edit: Edit) -> EditKey:
    """(start, end, correction): the first alternative for a gold edit."""
    return (edit.start, edit.end, tuple(edit.correction))


@dataclass(frozen=True, slots=True)
class WeightedCandidate:
    """One annotator's edits for a sentence, the weight of each edit and the weighted counts."""

    edits: AnnotatorEdits
    weights: dict[EditKey, float]
    counts: EditCounts


@dataclass
class PtM2Result(M2Result):
    """An :class:`M2Result` plus each sentence's weighted candidates and the model work done."""

    candidates: list[list[WeightedCandidate]] = field(repr=False, default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)


def errant_candidates(gold: Sequence[Gold], hypotheses: Sequence[Target]
                      ) -> list[list[AnnotatorEdits]]:
    """PT-ERRANT candidates: distinct non-UNK triples on both sides, matched exactly."""
    check_hypotheses(gold, hypotheses)
    candidates = []
    for sentence, hypothesis in zip(gold, hypotheses):
        system = _errant_triples(hypothesis.edits)
        per_annotator = []
        for annotator, edits in gold_annotations(sentence).items():
            reference = _errant_triples(edits)
            keys = {edit_key(edit) for edit in reference}
            correct = tuple(edit for edit in system if edit_key(edit) in keys)
            per_annotator.append(AnnotatorEdits(annotator, reference, system, correct))
        candidates.append(per_annotator)
    return candidates


def _errant_triples(edits: Sequence[Edit]) -> tuple[Edit, ...]:
    """The distinct (start, end, correction) edits that are not UNK-typed (first kept)."""
    kept: dict[EditKey, Edit] = {}
    for edit in edits:
        if edit.type != UNKNOWN_TYPE and edit.start >= 0:
            kept.setdefault(edit_key(edit), edit)
    return tuple(kept.values())


def reference_side_texts(gold: Sequence[Gold], base: str) -> list[str]:
    """Every sentence's source and each annotator's reference as the weighting pairs them: the
    sentences all systems are scored against (the gold edits of ``base="errant"`` without UNK)."""
    texts: dict[str, None] = {}
    for sentence in gold:
        texts[" ".join(sentence.source)] = None
        for edits in gold_annotations(sentence).values():
            texts[_reference_text(sentence.source, _errant_triples(edits) if base == "errant" else edits)] = None
    return list(texts)


def system_candidates(gold: Sequence[Gold], hypotheses: Sequence[Target], config: PtM2Config,
                      progress: bool = False) -> list[list[AnnotatorEdits]]:
    """A system's edits against every annotator: MaxMatch (``base="m2"``, with the config's
    ``max_unchanged_words``, ``segmentation`` and ``max_cells``) or its ERRANT edits."""
    if config.base == "m2":
        return m2_candidates(gold, [h.tokens for h in hypotheses], config.max_unchanged_words, progress,
                             config.segmentation, config.max_cells)
    return errant_candidates(gold, hypotheses)


def candidates_key(config: PtM2Config) -> str:
    """What a system's candidates depend on: the base and, for MaxMatch, its options (the key
    under which configurations of one system share them)."""
    if config.base == "errant":
        return f"candidates:errant:{config.lang}:tok={config.tokenize}"
    return (f"candidates:m2:{config.segmentation}:{config.max_unchanged_words}:{config.max_cells}:"
            f"{config.lang}:tok={config.tokenize}")


def _reference_text(source: Tokens, gold: Sequence[Edit]) -> str:
    return " ".join(Target.from_edits(source, gold).tokens)


def _apply(source: Tokens, key: EditKey) -> str:
    start, end, correction = key
    return " ".join((*source[:start], *correction, *source[end:]))


def _union_keys(candidate: AnnotatorEdits) -> list[EditKey]:
    return list(dict.fromkeys([*map(edit_key, candidate.system), *map(edit_key, candidate.gold)]))


def weighted_counts(candidate: AnnotatorEdits, weights: dict[EditKey, float]) -> EditCounts:
    return EditCounts(sum(weights[edit_key(e)] for e in candidate.correct),
                      sum(weights[edit_key(e)] for e in candidate.system),
                      sum(weights[edit_key(e)] for e in candidate.gold))


def weigh_candidates(gold: Sequence[Gold], candidates: Sequence[Sequence[AnnotatorEdits]],
                     pair_scorer, level: str) -> list[list[WeightedCandidate]]:
    """Weights of every edit of every candidate, all pairs scored in one batch."""
    requests = []          # per sentence, per candidate: (keys, pseudo pairs, anchor pair)
    pairs = []
    for sentence, per_sentence in zip(gold, candidates):
        source = sentence.source
        source_text = " ".join(source)
        row = []
        for candidate in per_sentence:
            reference = _reference_text(source, candidate.gold)
            keys = _union_keys(candidate)
            pseudo = [(_apply(source, key), reference) for key in keys]
            anchor = (source_text, reference)
            row.append((keys, pseudo, anchor))
            pairs.extend(pseudo)
            if keys:
                pairs.append(anchor)
        requests.append(row)
    scores = dict(zip(pairs, pair_scorer.score(pairs)))
    weighted = []
    for per_sentence, row in zip(candidates, requests):
        out = []
        for candidate, (keys, pseudo, anchor) in zip(per_sentence, row):
            weights = {key: abs(scores[pair] - scores[anchor]) for key, pair in zip(keys, pseudo)}
            if level == "sentence" and weights and not any(weights.values()):
                weights = dict.fromkeys(weights, 1.0 / len(weights))
            out.append(WeightedCandidate(candidate, weights, weighted_counts(candidate, weights)))
        weighted.append(out)
    return weighted


def score_candidates(gold: Sequence[Gold], candidates: Sequence[Sequence[AnnotatorEdits]], config: PtM2Config,
                     pair_scorer=None) -> PtM2Result:
    """PT-M2 / PT-ERRANT (plain M2 / ERRANT with ``scorer="none"``) of one system's
    ``candidates`` (:func:`system_candidates`): the implementation behind
    ``gecscore.load("pt_m2")``. ``pair_scorer`` (a :mod:`gecscore.models.similarity` scorer)
    weighs the edits when ``config.scorer`` is not ``none``."""
    n_edits = sum(len(_union_keys(c)) for per_sentence in candidates for c in per_sentence)
    stats = {"edits": n_edits}
    if config.scorer == "none":
        weighted = [[WeightedCandidate(c, {}, c.counts) for c in per_sentence] for per_sentence in candidates]
    else:
        weighted = weigh_candidates(gold, candidates, pair_scorer, config.level)
        stats.update(sentences_encoded=pair_scorer.sentences_encoded, forward_batches=pair_scorer.forward_batches,
                     pairs_scored=pair_scorer.pairs_scored)
    (p, r, f), totals, choices = aggregate([[w.counts for w in ws] for ws in weighted], config.level, config.beta)
    return PtM2Result("pt_m2", p, r, f, totals, choices, weighted, stats)


def result_values(result: PtM2Result) -> dict:
    """The contract keys: score (F_beta), p, r, and the (weighted) correct / proposed / gold
    totals (the metric seam adds ``metric`` and ``signature``)."""
    return {"score": result.f, "p": result.p, "r": result.r,
            "correct": result.counts.correct, "proposed": result.counts.proposed,
            "gold": result.counts.gold}


def _edit_record(edit: Edit, weights: dict[EditKey, float], source: Tokens) -> dict:
    key = edit_key(edit)
    record = {"span": [edit.start, edit.end], "source": " ".join(source[edit.start:edit.end]),
              "correction": " ".join(edit.correction)}
    if weights:
        record["weight"] = weights[key]
    return record


def sentence_records(result: PtM2Result, gold: Sequence[Gold]) -> list[dict]:
    """One record per sentence: chosen annotator, its P/R/F and counts, and every system and
    gold edit with its weight and whether it is correct."""
    records = []
    for choice, per_sentence, sentence in zip(result.sentences, result.candidates, gold):
        chosen = per_sentence[choice.choice]
        unmarked = Counter(edit_key(e) for e in chosen.edits.correct)
        system = []
        for edit in chosen.edits.system:
            record = _edit_record(edit, chosen.weights, sentence.source)
            # as many edits are marked correct as were counted: the same insertion proposed twice
            # where the gold has it once is one correct edit and one wrong one, the first correct
            record["correct"] = unmarked[edit_key(edit)] > 0
            unmarked[edit_key(edit)] -= record["correct"]
            system.append(record)
        records.append({
            "index": choice.index, "annotator": chosen.edits.annotator,
            "p": choice.p, "r": choice.r, "f": choice.f,
            "correct": choice.counts.correct, "proposed": choice.counts.proposed,
            "gold": choice.counts.gold, "source": " ".join(sentence.source),
            "system_edits": system,
            "gold_edits": [_edit_record(e, chosen.weights, sentence.source) for e in chosen.edits.gold],
        })
    return records


class _PairCollector:
    """Records the pairs a weighing pass asks for (scores 0), to batch several systems."""

    def __init__(self):
        self.pairs: list[tuple[str, str]] = []

    def score(self, pairs):
        pairs = list(pairs)
        self.pairs.extend(pairs)
        return [0.0] * len(pairs)


def collect_pairs(gold: Sequence[Gold], candidates: Sequence[Sequence[AnnotatorEdits]]) -> list[tuple[str, str]]:
    """The distinct (pseudo-sentence, reference) pairs that weighing ``candidates`` scores (the
    level does not change them), so that several systems can be scored in one pass."""
    collector = _PairCollector()
    weigh_candidates(gold, candidates, collector, "corpus")
    return list(dict.fromkeys(collector.pairs))


def score_pairs_in_one_pass(gold: Sequence[Gold], candidate_sets: Iterable[Sequence[Sequence[AnnotatorEdits]]],
                            pair_scorer) -> None:
    """Score the distinct pairs that weighing every candidate set (one per system) asks for, in
    one call: each distinct sentence is encoded once, in full batches, and the pair scorer's
    cache then answers each system's own weighing."""
    pairs: dict = {}
    for candidates in candidate_sets:
        pairs.update(dict.fromkeys(collect_pairs(gold, candidates)))
    pair_scorer.score(list(pairs))
