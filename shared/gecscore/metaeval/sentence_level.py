"""Sentence-level meta-evaluation (Kobayashi et al. 2024, SEEDA) and the window analysis.

**Pairwise accuracy and Kendall's tau.** Each human judgment ranks the outputs of several
systems for one source sentence (SEEDA: 5 outputs per item, ranks 1 = best, equal ranks
allowed; one item may name several systems that produced the same output). Every pair of kept
systems with *different* human ranks is one human preference; pairs with equal human ranks are
not used. Over all items, with ``agree`` the pairs the metric's sentence scores order the same
way and ``disagree`` the others::

    Acc = agree / pairs          tau = (agree - disagree) / pairs

(SEEDA's ``utils/corr_sentence.py``; tau is the WMT-style Kendall variant over human pairs.)

**Metric ties** (both sentences scored alike), option ``ties``:

- ``"neutral"`` (default): a tie is neither an agreement nor a disagreement but stays in
  ``pairs``, so ``tau = 2 Acc - 1 + ties / pairs``. This reproduces the published cells: the
  DSGram paper's Table 3 (after Kobayashi et al.) has M2 Acc 0.512 with tau 0.200, which only
  ties counted this way explain (17.6% of the pairs are M2 ties on SEEDA-S, and
  2 x 0.512 - 1 + 0.176 = 0.200).
- ``"seeda-script"``: as SEEDA's public ``utils/corr_sentence.py`` compares a pair ``(i, j)`` in
  its fixed (alphabetical) system order, ``+1`` when ``score_i > score_j`` and ``-1`` otherwise:
  a tie reads as preferring the later system of the pair.
- ``"discordant"``: a tie is a disagreement (order-independent and strict).

**Window analysis** (SEEDA's ``utils/window_analysis_system.py``): the systems sorted by human
score (best first); for every window of ``size`` consecutive systems, Pearson r and Spearman
rho between the human and the metric scores of the window's systems. It shows whether a metric
still separates systems of similar quality (the top windows).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from gecscore.errors import GecInputError
from gecscore.io.user_files import read_bytes
from gecscore.metaeval.correlation import pearson, spearman

TIES = ("neutral", "seeda-script", "discordant")


@dataclass(frozen=True)
class Judgment:
    """One human ranking of several systems' outputs of one source sentence.

    ``source`` is the sentence's 0-based index in the full test set (SEEDA: CoNLL-2014, whose
    XML ``src-id`` is 1-based); ``ranks`` maps each system to its rank (1 = best)."""

    item: str
    source: int
    annotator: str
    ranks: Mapping[str, int]


@dataclass(frozen=True)
class PairwiseAgreement:
    """How often a metric's sentence scores order human-ranked pairs as the humans did.

    ``agree``/``disagree`` include the ties the tie rule resolved; ``neutral`` are the ties
    left unresolved (``ties="neutral"``); ``metric_ties`` counts every tie."""

    agree: int
    disagree: int
    neutral: int
    metric_ties: int

    @property
    def pairs(self) -> int:
        return self.agree + self.disagree + self.neutral

    @property
    def accuracy(self) -> float:
        return self.agree / self.pairs if self.pairs else float("nan")

    @property
    def kendall(self) -> float:
        return (self.agree - self.disagree) / self.pairs if self.pairs else float("nan")

    def as_dict(self) -> dict:
        return {"accuracy": self.accuracy, "kendall": self.kendall, "pairs": self.pairs, "agree": self.agree,
                "disagree": self.disagree, "neutral": self.neutral, "metric_ties": self.metric_ties}


@dataclass(frozen=True)
class Window:
    """Correlation over the systems ranked ``first`` .. ``first + len(systems) - 1`` by humans."""

    first: int
    systems: tuple[str, ...]
    pearson: float
    spearman: float

    def as_dict(self) -> dict:
        return {"first": self.first, "last": self.first + len(self.systems) - 1, "systems": list(self.systems),
                "pearson": self.pearson, "spearman": self.spearman}


def sentence_scores(result) -> tuple[float, ...] | None:
    """One score per sentence of a :class:`gecscore.metric.Result` (NaN for a sentence the
    judge failed), or None for a metric without one (:meth:`gecscore.metric.Result.sentence_scores`)."""
    return result.sentence_scores()


def read_judgments(path: str | Path) -> tuple[Judgment, ...]:
    """The ranking items of an Appraise results file (SEEDA's ``judgments_{sent,edit}.xml``).

    A ``system`` attribute naming several systems (same output) gives each of them the rank."""
    path = Path(path)
    data = read_bytes(path)   # a missing file, a FIFO, a folder ...: one line naming it
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        raise GecInputError(f"cannot read the judgments: {error}", str(path)) from None
    judgments = []
    for number, item in enumerate(root.iter("ranking-item"), start=1):
        where = f"{path}: ranking-item {item.get('id', number)}"
        try:
            source = int(item.attrib["src-id"]) - 1
        except (KeyError, ValueError):
            raise GecInputError("needs an integer src-id", where) from None
        ranks: dict[str, int] = {}
        for translation in item.iter("translation"):
            try:
                rank = int(translation.attrib["rank"])
            except (KeyError, ValueError):
                raise GecInputError("a translation needs an integer rank", where) from None
            for system in translation.attrib.get("system", "").split():
                ranks[system] = rank
        if source < 0 or not ranks:
            raise GecInputError("needs src-id >= 1 and at least one ranked system", where)
        judgments.append(Judgment(item.get("id", str(number)), source, item.get("user", ""), ranks))
    return tuple(judgments)


def human_pairs(judgment: Judgment, systems: Sequence[str]) -> list[tuple[str, str]]:
    """The (better, worse) pairs of ``systems`` the judgment orders (equal ranks: none)."""
    kept = [s for s in systems if s in judgment.ranks]
    pairs = []
    for a_index, a in enumerate(kept):
        for b in kept[a_index + 1:]:
            rank_a, rank_b = judgment.ranks[a], judgment.ranks[b]
            if rank_a < rank_b:
                pairs.append((a, b))
            elif rank_b < rank_a:
                pairs.append((b, a))
    return pairs


def pairwise_agreement(judgments: Sequence[Judgment], scores: Mapping[str, Mapping[int, float]],
                       systems: Sequence[str], ties: str = "neutral") -> PairwiseAgreement:
    """Acc and tau (module docstring) of sentence ``scores[system][source]`` over the human pairs
    of ``systems`` (their order is the tie order of ``ties="seeda-script"``)."""
    if ties not in TIES:
        raise GecInputError(f"ties must be one of {', '.join(TIES)}, got {ties!r}")
    order = {system: position for position, system in enumerate(systems)}
    agree = disagree = neutral = tied = 0
    for judgment in judgments:
        for better, worse in human_pairs(judgment, systems):
            s_better, s_worse = (_score(scores, system, judgment.source) for system in (better, worse))
            if s_better > s_worse:
                agree += 1
            elif s_better < s_worse:
                disagree += 1
            else:
                tied += 1
                if ties == "neutral":
                    neutral += 1
                elif ties == "seeda-script" and order[better] > order[worse]:
                    agree += 1      # the script reads a tie as "the later system is better"
                else:
                    disagree += 1
    return PairwiseAgreement(agree, disagree, neutral, tied)


def _score(scores: Mapping[str, Mapping[int, float]], system: str, source: int) -> float:
    try:
        return scores[system][source]
    except KeyError:
        raise GecInputError(f"no sentence score of {system} for sentence {source + 1}") from None


def window_analysis(human: Mapping[str, float], metric: Mapping[str, float], size: int) -> list[Window]:
    """Pearson and Spearman over each window of ``size`` systems consecutive in the human order
    (best first; equal human scores keep the mapping's order, as a stable sort does)."""
    if size < 3:
        raise GecInputError(f"a window needs at least 3 systems, got {size}")
    missing = [s for s in human if s not in metric]
    if missing:
        raise GecInputError(f"no metric score for {', '.join(missing)}")
    ranked = sorted(human, key=lambda s: -human[s])
    windows = []
    for first in range(len(ranked) - size + 1):
        chosen = tuple(ranked[first:first + size])
        h = [human[s] for s in chosen]
        m = [metric[s] for s in chosen]
        windows.append(Window(first + 1, chosen, pearson(h, m), spearman(h, m)))
    return windows
