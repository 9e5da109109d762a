"""The I-measure (Felice & Briscoe 2015): WAS counts on a 3-way token alignment, P/R/F,
accuracy, weighted accuracy and improvement over the do-nothing baseline.

For each sentence the gold offers reference candidates (mixing the annotators' corrections
error by error, or one per annotator); the candidate that maximises ``max_metric`` (ties:
I, WAcc, Acc of the same aspect, then the other aspect's metric, I, WAcc, Acc, then the
first candidate) is paired with the hypothesis, and corpus scores come from the summed
counts. Keys are compared as exact fractions. Where the candidates are too many to
enumerate (``max_candidates``), the sentence is cut into segments (between gold errors,
where source, hypothesis and every candidate share two tokens on each side), each segment's
options reduce to distinct count vectors, and the best total is found exactly over their
Minkowski sum; the chosen reference's full alignment must confirm the predicted counts. If
that is not possible, a local search is used. Either way a warning names the sentence and
what was done.
"""
from __future__ import annotations

import math
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Iterable, Sequence

import numpy as np

from gecscore.compiled import njit as _njit
from gecscore.imeasure.alignment import Column, Encoder, ReferenceBatch, align, align_pair, baseline_tn_fn
from gecscore.errors import GecInputError
from gecscore.fscore import IMEASURE
from gecscore.progress import bar
from gecscore.imeasure.config import METRIC_NAMES, IMeasureConfig, check_max_metric
from gecscore.imeasure.gold import error_groups
from gecscore.types import Gold, Tokens

ASPECTS = ("detection", "correction")
CUT_CONTEXT = 2  # tokens shared on each side of a segment cut


# ---------------------------------------------------------------- counts and scores

@dataclass(frozen=True, slots=True)
class WasCounts:
    """Writer-Annotator-System counts; ``fpn`` counts columns that are both FP and FN."""

    tp: int = 0
    tn: int = 0
    fp: int = 0
    fn: int = 0
    fpn: int = 0

    def __add__(self, other: "WasCounts") -> "WasCounts":
        return WasCounts(self.tp + other.tp, self.tn + other.tn, self.fp + other.fp,
                         self.fn + other.fn, self.fpn + other.fpn)

    def as_dict(self) -> dict[str, int]:
        return {"tp": self.tp, "tn": self.tn, "fp": self.fp, "fn": self.fn, "fpn": self.fpn}


def column_labels(column: Column) -> tuple[str, tuple[str, ...]]:
    """(detection label, correction labels) of one aligned column (the WAS table)."""
    s, h, r = column
    if s == h:
        return ("TN", ("TN",)) if h == r else ("FN", ("FN",))
    if s == r:
        return "FP", ("FP",)
    if h == r:
        return "TP", ("TP",)
    return "TP", ("FP", "FN", "FPN")


def count_columns(columns: Iterable[Column]) -> tuple[WasCounts, WasCounts]:
    """Detection and correction counts of an alignment."""
    det = {"TP": 0, "TN": 0, "FP": 0, "FN": 0}
    cor = {"TP": 0, "TN": 0, "FP": 0, "FN": 0, "FPN": 0}
    for column in columns:
        d, c = column_labels(column)
        det[d] += 1
        for label in c:
            cor[label] += 1
    return (WasCounts(det["TP"], det["TN"], det["FP"], det["FN"], 0),
            WasCounts(cor["TP"], cor["TN"], cor["FP"], cor["FN"], cor["FPN"]))


def precision(c: WasCounts) -> float:
    return IMEASURE.precision_of(c.tp, c.fp)


def recall(c: WasCounts) -> float:
    return IMEASURE.recall_of(c.tp, c.fn)


def f_beta(p: float, r: float, beta: float) -> float:
    return IMEASURE.f_of(p, r, beta)


def accuracy(c: WasCounts) -> float:
    denominator = c.tp + c.tn + c.fp + c.fn - c.fpn
    return (c.tp + c.tn) / denominator if denominator else 1.0


def weighted_accuracy(c: WasCounts, w: float) -> float:
    denominator = w * (c.tp + c.fp) + c.tn + c.fn - (w + 1) * c.fpn / 2
    return (w * c.tp + c.tn) / denominator if denominator else 1.0


def improvement(wacc_sys: float, wacc_base: float) -> float:
    """I: floor(WAcc_sys) if equal to the baseline; relative gain or loss otherwise."""
    if wacc_sys == wacc_base:
        return float(math.floor(wacc_sys))
    if wacc_sys > wacc_base:
        return (wacc_sys - wacc_base) / (1 - wacc_base)
    return wacc_sys / wacc_base - 1


def aspect_scores(system: WasCounts, baseline: WasCounts, beta: float, w: float) -> dict:
    """The contract's row: counts, P, R, F, Acc, Acc_base, WAcc, WAcc_base, I."""
    p, r = precision(system), recall(system)
    wacc, wacc_base = weighted_accuracy(system, w), weighted_accuracy(baseline, w)
    return {**system.as_dict(), "p": p, "r": r, "f": f_beta(p, r, beta), "acc": accuracy(system),
            "acc_base": accuracy(baseline), "wacc": wacc, "wacc_base": wacc_base,
            "i": improvement(wacc, wacc_base)}


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Counts of one hypothesis against one reference: system (per aspect) and baseline."""

    detection: WasCounts
    correction: WasCounts
    baseline: WasCounts

    def __add__(self, other: "Evaluation") -> "Evaluation":
        return Evaluation(self.detection + other.detection, self.correction + other.correction,
                          self.baseline + other.baseline)

    def system(self, aspect: str) -> WasCounts:
        return self.detection if aspect == "detection" else self.correction


ZERO = Evaluation(WasCounts(), WasCounts(), WasCounts())


@lru_cache(maxsize=200_000)
def baseline_counts(source: Tokens, reference: Tokens) -> WasCounts:
    """Counts of the do-nothing hypothesis (the source) against a reference."""
    encode = Encoder()
    tn, fn = baseline_tn_fn(encode(source), encode(reference))
    return WasCounts(0, tn, 0, fn, 0)



# ---------------------------------------------------------------- the selection key

# A count vector holds everything the choice of a reference depends on:
# [dTP dTN dFP dFN cTP cTN cFP cFN cFPN bTN bFN] (the baseline's TP, FP and FPN are 0).
VECTOR_SIZE = 11
FLOAT_TOLERANCE = 1e-11  # far above float error, far below the gap between distinct values


def vector_of(evaluation: Evaluation) -> tuple[int, ...]:
    d, c, b = evaluation.detection, evaluation.correction, evaluation.baseline
    return (d.tp, d.tn, d.fp, d.fn, c.tp, c.tn, c.fp, c.fn, c.fpn, b.tn, b.fn)


def evaluation_of(vector: Sequence[int]) -> Evaluation:
    v = [int(x) for x in vector]
    return Evaluation(WasCounts(v[0], v[1], v[2], v[3], 0), WasCounts(*v[4:9]), WasCounts(0, v[9], 0, v[10], 0))


def _exact_value(c: WasCounts, baseline: WasCounts, name: str, beta: Fraction, w: Fraction) -> Fraction:
    """One metric as an exact fraction (same conventions as the float functions)."""
    if name in ("tp", "tn", "fp", "fn"):
        return Fraction(getattr(c, name))
    if name in ("p", "r", "f"):
        tp = Fraction(c.tp)
        p, r = IMEASURE.precision_of(tp, Fraction(c.fp)), IMEASURE.recall_of(tp, Fraction(c.fn))
        if name != "f":
            return p if name == "p" else r
        return IMEASURE.f_of(p, r, beta)
    if name == "acc":
        denominator = c.tp + c.tn + c.fp + c.fn - c.fpn
        return Fraction(c.tp + c.tn, denominator) if denominator else Fraction(1)

    def wacc(x: WasCounts) -> Fraction:
        denominator = w * (x.tp + x.fp) + x.tn + x.fn - (w + 1) * x.fpn / 2
        return (w * x.tp + x.tn) / denominator if denominator else Fraction(1)

    s = wacc(c)
    if name == "wacc":
        return s
    b = wacc(baseline)
    if s == b:
        return Fraction(math.floor(s))
    return (s - b) / (1 - b) if s > b else s / b - 1


@lru_cache(maxsize=1_000_000)
def _exact_key(vector: tuple[int, ...], order: tuple[tuple[str, str], ...], beta: Fraction,
               w: Fraction) -> tuple[Fraction, ...]:
    evaluation = evaluation_of(vector)
    return tuple(_exact_value(evaluation.system(aspect), evaluation.baseline, name, beta, w)
                 for aspect, name in order)


def _float_values(vectors: np.ndarray, aspect: str, name: str, beta: float, w: float) -> np.ndarray:
    """One metric for many count vectors at once (floats; used to narrow the search)."""
    v = vectors.astype(np.float64)
    tp, tn, fp, fn = (v[:, 0:4] if aspect == "detection" else v[:, 4:8]).T
    fpn = v[:, 8] if aspect == "correction" else np.zeros(len(v))
    if name in ("tp", "tn", "fp", "fn"):
        return {"tp": tp, "tn": tn, "fp": fp, "fn": fn}[name]
    with np.errstate(divide="ignore", invalid="ignore"):
        if name in ("p", "r", "f"):
            p, r = IMEASURE.precision_array(tp, fp), IMEASURE.recall_array(tp, fn)
            if name != "f":
                return p if name == "p" else r
            return IMEASURE.f_array(p, r, beta)
        if name == "acc":
            denominator = tp + tn + fp + fn - fpn
            return np.where(denominator != 0, (tp + tn) / denominator, 1.0)
        denominator = w * (tp + fp) + tn + fn - (w + 1) * fpn / 2
        s = np.where(denominator != 0, (w * tp + tn) / denominator, 1.0)
        if name == "wacc":
            return s
        b_denominator = v[:, 9] + v[:, 10]
        b = np.where(b_denominator != 0, v[:, 9] / b_denominator, 1.0)
        gain = np.where(s > b, (s - b) / (1 - b), s / b - 1)
        return np.where(s == b, np.floor(s), gain)


@dataclass(frozen=True, slots=True)
class Selection:
    """What the per-sentence choice maximises: ``metric`` like 'cwacc', and the options.
    Keys are compared exactly (fractions), so ties do not depend on float rounding."""

    metric: str = IMeasureConfig.max
    beta: float = IMeasureConfig.beta
    w: float = IMeasureConfig.w

    def __post_init__(self):
        check_max_metric(self.metric)

    @property
    def order(self) -> tuple[tuple[str, str], ...]:
        """(aspect, metric) compared in turn."""
        aspect = "detection" if self.metric[0] == "d" else "correction"
        other = "correction" if aspect == "detection" else "detection"
        name = self.metric[1:]
        return ((aspect, name), (aspect, "i"), (aspect, "wacc"), (aspect, "acc"),
                (other, name), (other, "i"), (other, "wacc"), (other, "acc"))

    def vector_key(self, vector: Sequence[int]) -> tuple[Fraction, ...]:
        return _exact_key(tuple(int(x) for x in vector), self.order, Fraction(self.beta), Fraction(self.w))

    def key(self, evaluation: Evaluation) -> tuple[Fraction, ...]:
        """The exact sort key of an evaluation (larger is better)."""
        return self.vector_key(vector_of(evaluation))

    def best_row(self, vectors: np.ndarray, offset: np.ndarray | None = None) -> int:
        """Index of the best count vector (plus ``offset``); the first one wins exact ties.
        Floats narrow the rows to those within FLOAT_TOLERANCE of the best primary value;
        exact keys decide among them."""
        totals = vectors if offset is None else vectors + offset
        aspect, name = self.order[0]
        values = _float_values(totals, aspect, name, self.beta, self.w)
        near = np.flatnonzero(values >= values.max() - FLOAT_TOLERANCE)
        if len(near) == 1:   # no other row within the tolerance: no exact comparison to make
            return int(near[0])
        best, best_key = int(near[0]), self.vector_key(totals[near[0]])
        for row in near[1:]:
            key = self.vector_key(totals[row])
            if key > best_key:
                best, best_key = int(row), key
        return best


# ---------------------------------------------------------------- reference candidates

Correction = tuple[int, int, str]  # (start, end, replacement text; '' = deletion)
Option = tuple[Correction, ...]    # what one error contributes to a reference


def error_options(sentence: Gold) -> list[list[Option]]:
    """Per error: each alternative (same-span corrections joined by a space), then, if the
    error is optional, 'no correction'."""
    options = []
    for error in error_groups(sentence):
        error_opts: list[Option] = []
        for alt in error.alternatives:
            joined: dict[tuple[int, int], list[str]] = {}
            for edit in alt.edits:
                joined.setdefault((edit.start, edit.end), []).append(" ".join(edit.correction))
            error_opts.append(tuple((s, e, " ".join(t for t in texts if t)) for (s, e), texts in joined.items()))
        if not error.required or not error_opts:
            error_opts.append(())
        options.append(error_opts)
    return options


def apply_corrections(source: Tokens, corrections: Iterable[Correction]) -> Tokens | None:
    """Apply corrections right to left; None if two share a span. A deletion that would
    empty the sentence is skipped; an empty result becomes the source."""
    corrections = list(corrections)
    if len({(s, e) for s, e, _ in corrections}) < len(corrections):
        return None
    tokens = list(source)
    for start, end, text in sorted(corrections, key=lambda c: (c[0], c[1]), reverse=True):
        replacement = text.split()
        if not replacement and len(tokens[start:end]) == len(tokens) and tokens:
            continue
        tokens[start:end] = replacement
    return tuple(tokens) if tokens else tuple(source)


def count_combinations(options: Sequence[Sequence[Option]]) -> int:
    return math.prod(len(o) for o in options)


@lru_cache(maxsize=16384)
def combinations_of(sentence: Gold) -> int:
    """:func:`count_combinations` of the sentence's :func:`error_options`, kept while several
    systems are scored (a function of the gold sentence alone)."""
    return count_combinations(error_options(sentence))


def mixed_candidates(source: Tokens, options: Sequence[Sequence[Option]]) -> list[Tokens]:
    """Every combination (one option per error), deduplicated by the resulting sentence."""
    seen: dict[Tokens, int] = {}
    for combination in product(*options):
        tokens = apply_corrections(source, (c for option in combination for c in option))
        if tokens is not None and tokens not in seen:
            seen[tokens] = len(seen)
    return list(seen) or [tuple(source)]


@lru_cache(maxsize=2048)
def _cached_mixed_candidates(sentence: Gold) -> list[Tokens]:
    """Mixed candidates of a gold sentence, kept while several systems are scored."""
    return mixed_candidates(tuple(sentence.source), error_options(sentence))


def annotator_candidates(sentence: Gold) -> list[Tokens]:
    """--no-mix: one reference per annotator, plus the source if some annotator has no alt."""
    by_annotator: dict[int, list[Correction]] = {}
    for error in error_groups(sentence):
        for alt in error.alternatives:
            corrections = by_annotator.setdefault(alt.annotator, [])
            for edit in alt.edits:
                corrections.append((edit.start, edit.end, " ".join(edit.correction)))
    candidates: list[Tokens] = []
    for annotator in sorted(by_annotator):
        joined: dict[tuple[int, int], list[str]] = {}
        for s, e, text in by_annotator[annotator]:
            joined.setdefault((s, e), []).append(text)
        tokens = apply_corrections(sentence.source, [(s, e, " ".join(t for t in texts if t))
                                                     for (s, e), texts in joined.items()])
        candidates.append(tokens if tokens is not None else tuple(sentence.source))
    if sentence.numann == 0 or len(by_annotator) < sentence.numann:
        candidates.append(tuple(sentence.source))
    return list(dict.fromkeys(candidates))


# ---------------------------------------------------------------- counting many references

HYPOTHESES_KEPT = 4  # count vectors kept per sentence for hypotheses seen again (training loops)


@dataclass(frozen=True)
class PreparedReferences:
    """Reference candidates of one source, encoded and laid out once, with their baseline TN
    and FN; the count vectors of the last few hypotheses are kept (a training loop or a
    leaderboard sees the same hypothesis of a sentence again)."""

    source: Tokens
    candidates: tuple[Tokens, ...]
    vocabulary: dict[str, int]
    src_ids: np.ndarray
    ref_ids: tuple[np.ndarray, ...]
    baselines: np.ndarray  # (n, 2): TN, FN of the source against each candidate
    batch: ReferenceBatch
    seen: OrderedDict = field(default_factory=OrderedDict, compare=False, repr=False)

    @classmethod
    def build(cls, source: Tokens, candidates: Sequence[Tokens]) -> "PreparedReferences":
        encode = Encoder()
        src_ids = encode(source)
        ref_ids = tuple(encode(c) for c in candidates)
        baselines = np.array([baseline_tn_fn(src_ids, r) for r in ref_ids], dtype=np.int64).reshape(-1, 2)
        return cls(tuple(source), tuple(candidates), encode.ids, src_ids, ref_ids, baselines,
                   ReferenceBatch.build(src_ids, ref_ids))

    def encode(self, tokens: Tokens) -> np.ndarray:
        """Ids of the same vocabulary; unseen tokens get fresh ids."""
        vocabulary, extra = self.vocabulary, {}
        fresh = len(vocabulary)
        return np.array([vocabulary[t] if t in vocabulary else extra.setdefault(t, fresh + len(extra))
                         for t in tokens], dtype=np.int64)

    def vectors(self, hypothesis: Tokens) -> np.ndarray:
        """(n, 11) count vectors of the hypothesis against every candidate (read-only)."""
        hypothesis = tuple(hypothesis)
        found = self.seen.get(hypothesis)
        if found is not None:
            self.seen.move_to_end(hypothesis)
            return found
        out = self._vectors(hypothesis)
        out.setflags(write=False)
        self.seen[hypothesis] = out
        while len(self.seen) > HYPOTHESES_KEPT:
            self.seen.popitem(last=False)
        return out

    def _vectors(self, hypothesis: Tokens) -> np.ndarray:
        out = np.empty((len(self.candidates), VECTOR_SIZE), dtype=np.int64)
        tn, fn = self.baselines[:, 0], self.baselines[:, 1]
        out[:, 9], out[:, 10] = tn, fn
        if tuple(hypothesis) == self.source:  # the system is the baseline
            zero = np.zeros_like(tn)
            out[:, :9] = np.stack([zero, tn, zero, fn, zero, tn, zero, fn, zero], axis=1)
        else:
            out[:, :9] = self.batch.counts(self.encode(hypothesis))
        return out


@lru_cache(maxsize=16384)
def prepared_candidates(sentence: Gold, mix: bool) -> PreparedReferences:
    """The candidates of a gold sentence (mix: all combinations, which the caller has
    checked are few enough), kept while several systems are scored."""
    source = tuple(sentence.source)
    candidates = mixed_candidates(source, error_options(sentence)) if mix else annotator_candidates(sentence)
    return PreparedReferences.build(source, candidates)


def evaluate_pair(source: Tokens, hypothesis: Tokens, reference: Tokens) -> Evaluation:
    """Counts of a hypothesis against a reference (system and baseline)."""
    prepared = PreparedReferences.build(tuple(source), [tuple(reference)])
    return evaluation_of(prepared.vectors(tuple(hypothesis))[0])


def align_and_count(source: Tokens, hypothesis: Tokens, reference: Tokens) -> tuple[Evaluation, list[Column]]:
    """The alignment and its counts (column by column)."""
    columns = align(source, hypothesis, reference)
    det, cor = count_columns(columns)
    return Evaluation(det, cor, baseline_counts(tuple(source), tuple(reference))), columns


# ---------------------------------------------------------------- per-sentence choice

@dataclass
class SentenceResult:
    """The chosen reference of one sentence and its counts; ``columns`` is the alignment
    (built when first read: a score needs only the counts, which the batched kernel gives
    equal to the alignment's)."""

    index: int
    id: str
    source: Tokens
    hypothesis: Tokens
    reference: Tokens
    reference_index: int
    n_candidates: int
    evaluation: Evaluation
    search: str = "enumerated"
    alignment: list[Column] | None = field(default=None, repr=False)   # None until built

    @property
    def columns(self) -> list[Column]:
        if self.alignment is None:
            self.alignment = align(self.source, self.hypothesis, self.reference)
        return self.alignment


@dataclass
class IMeasureResult:
    detection: dict
    correction: dict
    sentences: list[SentenceResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    largest_candidate_count: int = 0

    @property
    def score(self) -> float:
        return self.correction["i"]


# ---------------------------------------------------------------- big products: segments
#
# Where source, hypothesis and every candidate share CUT_CONTEXT untouched tokens on both
# sides of a cut, the counts of a reference are taken to be the sums of its segments'
# counts. Each segment's options then reduce to their distinct count vectors, and the
# reachable sentence totals are the Minkowski sum of the segments' sets: the full key
# (any function of the totals) is maximised exactly over them, and exact ties go to the
# first combination in enumeration order. The decomposition itself is checked on the
# chosen reference (its full alignment must give the predicted counts), and by the tests
# against brute force.

MAX_REACHABLE = 2_000_000  # distinct count totals kept while adding segments


def _segment_cuts(sentence: Gold, hypothesis: Tokens) -> tuple[list[int], list[int]]:
    """Source and hypothesis positions where the sentence can be cut: no gold correction
    touches the CUT_CONTEXT tokens on either side, and the hypothesis keeps them unchanged."""
    n = len(sentence.source)
    touched = [False] * (n + 1)
    for error in error_groups(sentence):
        for alt in error.alternatives:
            for edit in alt.edits:
                lo, hi = min(edit.start, n), min(edit.end, n)
                for p in range(max(lo - 1, 0), min(hi + 1, n)):
                    touched[p] = True
    hyp_pos: list[int | None] = [None] * n
    clean = [False] * n
    i = j = 0
    columns = align_pair(sentence.source, hypothesis)
    for k, (s, h) in enumerate(columns):
        if s is not None and h is not None:
            before_ok = k == 0 or (columns[k - 1][0] is not None and columns[k - 1][1] is not None)
            after_ok = k + 1 == len(columns) or (columns[k + 1][0] is not None and columns[k + 1][1] is not None)
            clean[i] = s == h and before_ok and after_ok
            hyp_pos[i] = j
        if s is not None:
            i += 1
        if h is not None:
            j += 1
    src_cuts, hyp_cuts = [0], [0]
    for b in range(CUT_CONTEXT, n - CUT_CONTEXT + 1):
        window = range(b - CUT_CONTEXT, b + CUT_CONTEXT)
        if all(clean[p] and not touched[p] for p in window) and b - src_cuts[-1] >= CUT_CONTEXT:
            src_cuts.append(b)
            hyp_cuts.append(hyp_pos[b])  # type: ignore[arg-type]
    src_cuts.append(n)
    hyp_cuts.append(len(hypothesis))
    return src_cuts, hyp_cuts


@dataclass
class SegmentChoice:
    """The outcome of the segment-wise search: the reference and its predicted counts."""

    reference: Tokens
    vector: np.ndarray
    n_segments: int
    local_segments: int  # segments too large to enumerate (searched locally)


FIELDS = (4, 5, 6, 7, 8, 9, 10)  # cTP cTN cFP cFN cFPN bTN bFN; detection follows from them


def vectors_from_fields(fields: np.ndarray) -> np.ndarray:
    """Full count vectors from (cTP cTN cFP cFN cFPN bTN bFN): detection TP = cTP + cFPN,
    TN = cTN, FP = cFP - cFPN, FN = cFN - cFPN (the all-different column is a detection TP)."""
    tp, tn, fp, fn, fpn, btn, bfn = fields.T
    return np.stack([tp + fpn, tn, fp - fpn, fn - fpn, tp, tn, fp, fn, fpn, btn, bfn], axis=1)


def _minkowski_step(totals: np.ndarray, options: np.ndarray, cap: int = MAX_REACHABLE
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """Distinct sums of ``totals`` (ranked by their first combination) and a segment's
    ``options`` (integer codes that add without carries); for each new total the smallest
    rank * m + option that reaches it, new totals sorted by it. None when they are more than
    ``cap``."""
    values, first, count = _first_sums(np.ascontiguousarray(totals, dtype=np.int64),
                                       np.ascontiguousarray(options, dtype=np.int64), cap)
    return None if count > cap else (values[:count], first[:count])


@_njit(cache=True)
def _first_sums(totals, options, cap):  # pragma: no cover - compiled
    """The distinct ``totals[r] + options[j]`` in the order of their first flat index
    ``r * m + j`` (the order of sorting them by it), with that index; their count, or cap + 1
    once there are more than ``cap``. One pass over the sums with an open-addressing table
    (linear probing, Fibonacci hashing): 4 million sums in about 0.05 s, where sorting them
    (``np.unique``, then the first indices) took 0.8 s."""
    n, m = len(totals), len(options)
    room = min(n * m, cap + 1)
    bits = 1
    while (1 << bits) < 2 * room:
        bits += 1
    mask = (1 << bits) - 1
    shift = np.uint64(64 - bits)
    golden = np.uint64(0x9E3779B97F4A7C15)
    table = np.full(1 << bits, -1, dtype=np.int64)
    values = np.empty(room, dtype=np.int64)
    first = np.empty(room, dtype=np.int64)
    count = 0
    for r in range(n):
        for j in range(m):
            v = totals[r] + options[j]
            slot = np.int64((np.uint64(v) * golden) >> shift)
            while True:
                at = table[slot]
                if at < 0:
                    if count == room:
                        return values, first, cap + 1
                    table[slot] = count
                    values[count] = v
                    first[count] = r * m + j
                    count += 1
                    break
                if values[at] == v:
                    break
                slot = (slot + 1) & mask
    return values, first, count


@lru_cache(maxsize=1024)
def _segment_references(source: Tokens, options: tuple[tuple[Option, ...], ...]) -> PreparedReferences:
    """A segment's distinct references, encoded and laid out: the same for every system
    (only the hypothesis's segment differs), built once."""
    return PreparedReferences.build(source, mixed_candidates(source, options))


@lru_cache(maxsize=4096)
def _segment_options(source: Tokens, hypothesis: Tokens, options: tuple[tuple[Option, ...], ...]
                     ) -> tuple[list[Tokens], np.ndarray]:
    """A segment's distinct references and their count fields (kept across systems, which
    often leave the same segment unchanged)."""
    prepared = _segment_references(source, options)
    return list(prepared.candidates), prepared.vectors(hypothesis)[:, FIELDS]


def _segmented_search(sentence: Gold, hypothesis: Tokens, options: list[list[Option]],
                      selection: Selection, offset: np.ndarray | None, cap: int) -> SegmentChoice | None:
    """The best reference by independent segments, or None when the sentence does not cut
    into segments whose gold errors stay inside them or the totals are too many."""
    src_cuts, hyp_cuts = _segment_cuts(sentence, hypothesis)
    errors_in: list[list[int]] = [[] for _ in range(len(src_cuts) - 1)]
    for e, opts in enumerate(options):
        spans = [(c[0], c[1]) for opt in opts for c in opt]
        if not spans:
            continue
        lo, hi = min(s for s, _ in spans), max(e_ for _, e_ in spans)
        seg = max(k for k in range(len(src_cuts) - 1) if src_cuts[k] <= lo)
        if hi > src_cuts[seg + 1]:
            return None
        errors_in[seg].append(e)
    segment_refs: list[list[Tokens]] = []
    segment_rows: list[np.ndarray] = []  # per segment: option index of each distinct vector
    segment_fields: list[np.ndarray] = []
    local_segments = 0
    for k, errs in enumerate(errors_in):
        s0, s1, h0, h1 = src_cuts[k], src_cuts[k + 1], hyp_cuts[k], hyp_cuts[k + 1]
        src, hyp = tuple(sentence.source[s0:s1]), tuple(hypothesis[h0:h1])
        shifted = [[tuple((c[0] - s0, c[1] - s0, c[2]) for c in opt) for opt in options[e]] for e in errs]
        if count_combinations(shifted) > cap:
            local_segments += 1
            refs = [_local_search(src, hyp, shifted, selection)]
            fields = PreparedReferences.build(src, refs).vectors(hyp)[:, FIELDS]
        else:
            refs, fields = _segment_options(src, hyp, tuple(tuple(o) for o in shifted))
        _, first = np.unique(fields, axis=0, return_index=True)
        keep = np.sort(first)
        segment_refs.append(refs)
        segment_rows.append(keep)
        segment_fields.append(fields[keep])
    # each field of a total lies in [sum of minima, sum of maxima]: a mixed-radix code
    lows = [f.min(axis=0) for f in segment_fields]
    radices = sum(f.max(axis=0) - low for f, low in zip(segment_fields, lows)) + 1
    if math.prod(int(r) for r in radices) >= 1 << 62:
        return None
    places = np.cumprod(np.concatenate([[1], radices[:-1]])).astype(np.int64)
    codes = np.zeros(1, dtype=np.int64)
    steps: list[np.ndarray] = []
    for fields, low in zip(segment_fields, lows):
        reached = _minkowski_step(codes, (fields - low) @ places)
        if reached is None:
            return None
        codes, step = reached
        steps.append(step)
    totals = np.stack([(codes // place) % radix for place, radix in zip(places, radices)], axis=1)
    totals = vectors_from_fields(totals + sum(lows))
    row = selection.best_row(totals, offset)
    vector = totals[row]
    picks = []
    for k in range(len(steps) - 1, -1, -1):
        row, option = divmod(int(steps[k][row]), len(segment_rows[k]))
        picks.append(segment_refs[k][int(segment_rows[k][option])])
    reference = tuple(t for part in reversed(picks) for t in part)
    return SegmentChoice(reference, vector, len(steps), local_segments)


def _local_search(source: Tokens, hypothesis: Tokens, options: Sequence[Sequence[Option]],
                  selection: Selection, offset: np.ndarray | None = None, max_passes: int = 3) -> Tokens:
    """Coordinate ascent over the errors' options (not guaranteed optimal): the best
    reference found. Each error's options are counted in one batch."""
    choice = [0] * len(options)

    def build(ch):
        tokens = apply_corrections(source, [c for e, o in enumerate(ch) for c in options[e][o]])
        return tokens if tokens is not None else tuple(source)

    best_ref = build(choice)
    for _ in range(max_passes):
        improved = False
        for e, opts in enumerate(options):
            if len(opts) < 2:
                continue
            trials = [choice[:e] + [o] + choice[e + 1:] for o in range(len(opts))]
            refs = [build(trial) for trial in trials]
            vectors = PreparedReferences.build(tuple(source), refs).vectors(tuple(hypothesis))
            best = selection.best_row(vectors, offset)
            if best != choice[e] and selection.vector_key(vectors[best] if offset is None else vectors[best] + offset) \
                    > selection.vector_key(vectors[choice[e]] if offset is None else vectors[choice[e]] + offset):
                choice, best_ref, improved = trials[best], refs[best], True
        if not improved:
            break
    return best_ref


# ---------------------------------------------------------------- the corpus

def score_imeasure(gold: Sequence[Gold], hypotheses: Sequence[Sequence[str]],
                   config: IMeasureConfig = IMeasureConfig(), progress: bool = False,
                   candidates: Sequence[PreparedReferences | None] | None = None,
                   warn: bool = True) -> IMeasureResult:
    """Score tokenised hypotheses (one per gold sentence) with the I-measure (the
    implementation behind ``gecscore.load("imeasure")``; ``config`` is validated).
    ``candidates``: each sentence's :func:`prepared_candidates` under this config, when the
    caller prepared them (the metric's reference side); else they are built here."""
    if candidates is not None and len(candidates) != len(gold):
        raise ValueError(f"{len(candidates)} prepared candidate sets for {len(gold)} gold sentences")
    if len(gold) != len(hypotheses):
        raise GecInputError(f"the gold has {len(gold)} sentences but there are {len(hypotheses)} hypotheses")
    mix, opt, max_candidates = not config.no_mix, config.opt, config.max_candidates
    selection = Selection(config.max, config.beta, config.w)
    totals = np.zeros(VECTOR_SIZE, dtype=np.int64)
    sentences: list[SentenceResult] = []
    notes: list[str] = []
    largest = 0
    for index, (sentence, hyp) in enumerate(bar(list(zip(gold, hypotheses)), desc="I-measure", requested=progress,
                                                minimum=200)):
        hypothesis = tuple(hyp)
        source = tuple(sentence.source)
        offset = totals if opt == "corpus" else None
        where = f"sentence {sentence.id} (#{index + 1})"
        search = "enumerated"
        predicted = None
        n_combinations = 0
        if mix:
            n_combinations = combinations_of(sentence)
            largest = max(largest, n_combinations)
        if not mix or n_combinations <= max_candidates:
            prepared = candidates[index] if candidates is not None else None
            if prepared is None:
                prepared = prepared_candidates(sentence, mix)
            vectors = prepared.vectors(hypothesis)
            chosen = selection.best_row(vectors, offset)
            reference, predicted = prepared.candidates[chosen], vectors[chosen]
            n_candidates = len(prepared.candidates)
            if not mix:
                largest = max(largest, n_candidates)
        else:
            chosen, n_candidates = 0, n_combinations
            options = error_options(sentence)
            found = _segmented_search(sentence, hypothesis, options, selection, offset, max_candidates)
            if found is None:
                reference = _local_search(source, hypothesis, options, selection, offset)
                search = "local search"
                notes.append(f"{where}: {n_combinations:.3g} reference combinations exceed max_candidates= "
                             f"{max_candidates} and it could not be cut into independent segments; chose the "
                             f"best reference found by a local search over its {len(options)} errors (may not "
                             f"be the maximum)")
            else:
                reference, predicted = found.reference, found.vector
                search = "segments"
                if found.local_segments:
                    search = (f"segments ({found.local_segments} of {found.n_segments} segment(s) with more than "
                              f"{max_candidates} combinations searched locally: may not be the maximum)")
        columns = None
        if search == "enumerated":   # the batched counts are the alignment's (tests/test_imeasure_alignment.py)
            evaluation = evaluation_of(predicted)
        else:   # the segments' prediction is checked, a local search's choice counted, on the full alignment
            evaluation, columns = align_and_count(source, hypothesis, reference)
            if search.startswith("segments") and tuple(predicted) != vector_of(evaluation):
                search = "segments (counts do not decompose at the cuts: may not be the maximum)"
        sentences.append(SentenceResult(index, sentence.id, source, hypothesis, reference, chosen, n_candidates,
                                        evaluation, search, columns))
        totals = totals + np.array(vector_of(evaluation), dtype=np.int64)
    partly = [s for s in sentences if s.search.startswith("segments (")]
    for s in partly:
        notes.append(f"sentence {s.id} (#{s.index + 1}): {s.n_candidates:.3g} reference combinations; "
                     f"searched by independent segments, {s.search[len('segments ('):-1]}")
    segmented = [s for s in sentences if s.search == "segments"]
    if segmented:
        notes.insert(0, f"{len(segmented)} sentence(s) had more than {max_candidates} reference combinations "
                        f"and were searched by independent segments (exact over their count totals; the "
                        f"chosen reference's counts checked by a full alignment): ids "
                        + ", ".join(s.id for s in segmented[:20]) + (" ..." if len(segmented) > 20 else ""))
    for note in notes if warn else ():   # always in the result's warnings
        warnings.warn(note, stacklevel=2)
    total = evaluation_of(totals)
    beta, w = config.beta, config.w
    return IMeasureResult(aspect_scores(total.detection, total.baseline, beta, w),
                          aspect_scores(total.correction, total.baseline, beta, w),
                          sentences, notes, largest)


# ---------------------------------------------------------------- contract and records

def result_values(result: IMeasureResult) -> dict:
    """The contract keys: score (= correction I), detection, correction (the metric seam adds
    ``metric`` and ``signature``)."""
    return {"score": result.score, "detection": dict(result.detection), "correction": dict(result.correction)}


def sentence_records(result: IMeasureResult) -> list[dict]:
    """One record per sentence: chosen reference, counts, and the alignment with its labels."""
    records = []
    for s in result.sentences:
        ev = s.evaluation
        records.append({
            "index": s.index, "id": s.id,
            "source": " ".join(s.source), "hypothesis": " ".join(s.hypothesis),
            "reference": " ".join(s.reference), "reference_index": s.reference_index,
            "n_candidates": s.n_candidates, "search": s.search,
            "detection": ev.detection.as_dict(), "correction": ev.correction.as_dict(),
            "baseline": ev.baseline.as_dict(),
            "alignment": [{"source": c[0], "hypothesis": c[1], "reference": c[2],
                           "detection": column_labels(c)[0], "correction": list(column_labels(c)[1])}
                          for c in s.columns],
        })
    return records
