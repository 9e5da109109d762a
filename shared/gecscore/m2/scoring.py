"""M2 and SentM2: precision, recall and F_beta of MaxMatch system edits against gold edits.

Counts may be weighted (PT-M2 passes edit weights), so everything here works on floats.

- Per sentence, each annotator of the gold is a candidate (a sentence without annotation has
  one annotator with no edits). Its system edits are extracted against its gold edits.
- Corpus level (``m2``): go through the sentences in order; for each, pick the annotator
  whose counts added to the running totals give the highest F_beta; ties: more correct,
  then lower proposed + beta^2 * gold, then the lower annotator id. P/R/F from the totals.
- Sentence level (``sentm2``): the same choice with totals starting at 0 for each sentence;
  P, R and F are means over sentences.

P = correct / proposed (1 if proposed = 0), R = correct / gold (1 if gold = 0), F = 0 if
beta^2 P + R = 0: a sentence with no edits anywhere scores 1, edits on one side only 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence


from gecscore.errors import GecInputError
from gecscore.fscore import M2SCORER
from gecscore.progress import bar
from gecscore.m2.config import (DEFAULT_SEGMENTATION, MAX_LATTICE_CELLS, SEGMENTATIONS,
                                PtM2Config)
from gecscore.options import LEVELS
from gecscore.m2.maxmatch import MAX_UNCHANGED_WORDS, best_edit_sequence, build_lattice, match_edits
from gecscore.m2.reference import ReferenceGraphTooLarge, reference_edit_sequence, reference_graph
from gecscore.types import Edit, Gold, Tokens



@dataclass(frozen=True, slots=True)
class EditCounts:
    """(Weighted) numbers of correct, proposed (system) and gold edits."""

    correct: float = 0.0
    proposed: float = 0.0
    gold: float = 0.0

    def __add__(self, other: "EditCounts") -> "EditCounts":
        return EditCounts(self.correct + other.correct, self.proposed + other.proposed,
                          self.gold + other.gold)

    def scores(self, beta: float = PtM2Config.beta) -> tuple[float, float, float]:
        """(P, R, F_beta), computed as the official scorer does.

        F is ``(1 + b^2) c / (b^2 g + e)`` (1 if the denominator is 0 and c is 0), the official
        ``comp_f1``: written through P and R instead, floating-point rounding breaks exact ties
        between annotators differently (CoNLL-2014 POST, sentence 56: two annotators tie at
        45/121.5; the official scorer keeps the first, P/R rounding picked the second).
        """
        return tuple(M2SCORER.scores_of_totals(self.correct, self.proposed, self.gold, beta))


@dataclass(frozen=True, slots=True)
class AnnotatorEdits:
    """One annotator's gold edits for a sentence, the system edits extracted against them,
    and the system edits that match (in the official scorer's order and multiplicity)."""

    annotator: int
    gold: tuple[Edit, ...]
    system: tuple[Edit, ...]
    correct: tuple[Edit, ...]

    @property
    def counts(self) -> EditCounts:
        return EditCounts(len(self.correct), len(self.system), len(self.gold))


def gold_annotations(sentence: Gold) -> dict[int, tuple[Edit, ...]]:
    """Annotator -> gold edits; one annotator (0) with no edits if the block has no A lines."""
    return dict(sentence.annotations) if sentence.annotations else {0: ()}


def maxmatch_candidates(source: Tokens, hypothesis: Sequence[str],
                        annotations: dict[int, tuple[Edit, ...]],
                        max_unchanged_words: int = MAX_UNCHANGED_WORDS,
                        segmentation: str = DEFAULT_SEGMENTATION) -> list[AnnotatorEdits]:
    """Per annotator (ascending id), the MaxMatch system edits and the matches.

    ``segmentation`` picks among equally good edit sequences (:mod:`gecscore.m2.reference`):
    ``reference`` as the reference code does, ``minimal`` the smallest edits.
    """
    hypothesis = tuple(hypothesis)
    if segmentation == "reference":
        return _reference_candidates(tuple(source), hypothesis, annotations, max_unchanged_words)
    if segmentation != "minimal":
        raise ValueError(f"unknown segmentation {segmentation!r}; expected one of: {', '.join(SEGMENTATIONS)}")
    lattice = build_lattice(source, hypothesis) if hypothesis != tuple(source) else None
    candidates = []
    no_gold: tuple[Edit, ...] | None = None
    for annotator in sorted(annotations):
        gold = tuple(annotations[annotator])
        if lattice is None:
            system = ()
        elif gold:
            system = best_edit_sequence(lattice, gold, max_unchanged_words)
        else:
            if no_gold is None:
                no_gold = best_edit_sequence(lattice, (), max_unchanged_words)
            system = no_gold
        candidates.append(AnnotatorEdits(annotator, gold, system, tuple(match_edits(system, gold))))
    return candidates


def _reference_candidates(source: Tokens, hypothesis: Tokens, annotations: dict[int, tuple[Edit, ...]],
                          max_unchanged_words: int) -> list[AnnotatorEdits]:
    graph = reference_graph(source, hypothesis, max_unchanged_words) if hypothesis != source else None
    candidates = []
    for annotator in sorted(annotations):
        gold = tuple(annotations[annotator])
        system = reference_edit_sequence(graph, source, gold) if graph is not None else ()
        candidates.append(AnnotatorEdits(annotator, gold, system, tuple(match_edits(system, gold))))
    return candidates


def is_better(local: EditCounts, best: EditCounts | None, beta: float) -> bool:
    """The official tie-breaks: higher F, then more correct, then lower proposed + b^2 gold."""
    if best is None:
        return True
    f, f_best = local.scores(beta)[2], best.scores(beta)[2]
    if f != f_best:
        return f > f_best
    if local.correct != best.correct:
        return local.correct > best.correct
    b2 = beta * beta
    return best.proposed + b2 * best.gold > local.proposed + b2 * local.gold


def choose(candidates: Sequence[EditCounts], totals: EditCounts, beta: float) -> int:
    """Index of the candidate that is best added to ``totals`` (the first among equals)."""
    best_index, best_local = 0, None
    for index, counts in enumerate(candidates):
        local = totals + counts
        if is_better(local, best_local, beta):
            best_index, best_local = index, local
    return best_index


@dataclass(frozen=True, slots=True)
class SentenceChoice:
    """One sentence: the chosen annotator's index among the candidates, its counts and its
    sentence-level P, R, F."""

    index: int
    choice: int
    counts: EditCounts
    p: float
    r: float
    f: float


@dataclass
class M2Result:
    """Scores of one system: headline P/R/F, (weighted) totals and each sentence's choice."""

    metric: str
    p: float
    r: float
    f: float
    counts: EditCounts
    sentences: list[SentenceChoice] = field(repr=False, default_factory=list)

    @property
    def score(self) -> float:
        return self.f


def aggregate(per_sentence: Sequence[Sequence[EditCounts]], level: str = PtM2Config.level,
              beta: float = PtM2Config.beta) -> tuple[tuple[float, float, float], EditCounts, list[SentenceChoice]]:
    """Choose an annotator per sentence and aggregate: ((P, R, F), totals, choices)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; expected one of: {', '.join(LEVELS)}")
    totals = EditCounts()
    choices = []
    for index, candidates in enumerate(per_sentence):
        if not candidates:
            raise GecInputError("no annotator to score against", f"sentence {index + 1}")
        choice = choose(candidates, totals if level == "corpus" else EditCounts(), beta)
        counts = candidates[choice]
        totals = totals + counts
        choices.append(SentenceChoice(index, choice, counts, *counts.scores(beta)))
    if level == "corpus":
        return totals.scores(beta), totals, choices
    n = len(choices) or 1
    means = tuple(sum(getattr(c, key) for c in choices) / n for key in ("p", "r", "f"))
    return means, totals, choices


def check_hypotheses(gold: Sequence[Gold], hypotheses: Sequence[Sequence[str]]) -> None:
    if len(gold) != len(hypotheses):
        raise GecInputError(f"the gold M2 has {len(gold)} sentences but there are "
                            f"{len(hypotheses)} hypotheses")


def m2_candidates(gold: Sequence[Gold], hypotheses: Sequence[Sequence[str]],
                  max_unchanged_words: int = MAX_UNCHANGED_WORDS,
                  progress: bool = True, segmentation: str = DEFAULT_SEGMENTATION,
                  max_cells: int | None = MAX_LATTICE_CELLS) -> list[list[AnnotatorEdits]]:
    """MaxMatch candidates (one per annotator) of every sentence. A sentence whose lattice would
    pass ``max_cells`` nodes (None: no limit) is a GecInputError naming it."""
    check_hypotheses(gold, hypotheses)
    candidates = []
    for index, (sentence, hypothesis) in enumerate(bar(zip(gold, hypotheses), total=len(gold), desc="MaxMatch edits",
                                                       requested=progress, minimum=500)):
        cells = (len(sentence.source) + 1) * (len(hypothesis) + 1)
        if max_cells is not None and cells > max_cells:
            raise GecInputError(f"{len(sentence.source)} source x {len(hypothesis)} hypothesis tokens make a MaxMatch "
                                f"lattice of {cells:,} cells (limit max_cells={max_cells:,}); split the line or raise "
                                f"max_cells=", f"sentence {index + 1}")
        try:
            candidates.append(maxmatch_candidates(sentence.source, tuple(hypothesis), gold_annotations(sentence),
                                                  max_unchanged_words, segmentation))
        except ReferenceGraphTooLarge as error:
            raise GecInputError(f"{len(sentence.source)} source x {len(hypothesis)} hypothesis tokens make a reference "
                                f"MaxMatch edit graph of more than {error.args[0]:,} arcs (the bound of m2scorer's "
                                f"edit graph, gecscore.m2.reference.MAX_REFERENCE_ARCS: the hypothesis has little in "
                                f"common with its source); score this output with segmentation='minimal', or split "
                                f"the line", f"sentence {index + 1}") \
                from None
    return candidates
