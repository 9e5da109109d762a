"""Human system scores recomputed from raw ranking judgments: Expected Wins and TrueSkill as
GJG15 (Grundkiewicz et al. 2015, ``grammatical/evaluation``) computed them with Sakaguchi et
al.'s (2014) WMT scripts, for the GJG15 and SEEDA Appraise XML files.

**Pairs** (GJG15's ``print_pairs.pl``). Items marked ``skipped`` or by user ``admin`` are
dropped. In each ranking item, systems are grouped by rank (a ``system`` attribute naming
several systems with the same output puts all of them in the group); within a group every
pair of systems is a tie, across groups the better-ranked system wins. Each pair is kept once
per item as ``(a, b, outcome)`` with ``a < b`` by name and outcome ``<`` (a better), ``>`` (b
better) or ``=``.

**Expected Wins** (``EW.py``, Bojar et al. 2011)::

    EW(i) = 1/(|S| - 1) sum_{j != i} wins(i, j) / (wins(i, j) + wins(j, i))

(a term with no wins either way adds 0; ties count for nobody). The published EW is the mean
over 1,000 bootstrap resamples (``len(pairs)`` pairs drawn with replacement) of this score;
``expected_wins(pairs)`` is the score of all pairs, ``expected_wins(pairs, runs, seed)`` the
bootstrap mean.

**TrueSkill** (``TS.py -n 2 -d 0``): one run plays ``len(pairs) + 1`` matches with
``TrueSkill(mu=0, sigma=0.5, beta=0.5 * matches / 40, tau=0, draw_probability=0.25)``, every
system starting at (0, 0.5^2). Each match picks the system with the largest variance (on a tie
the greatest name), then a partner among the others with probability proportional to
``exp(-|mu_a - mu_b|)`` (one ``random()`` against the cumulative weights, partners in name
order), then one judged pair of those two systems uniformly at random, and updates both
ratings with its outcome (a tie is a draw). The published score is the mean ``mu`` over 1,000
runs (``cluster.py``). The two-player update is the closed form of TrueSkill's factor graph
(Herbrich et al. 2007) with the ``trueskill`` package's own v/w functions and draw margin,
equal to ``TrueSkill.rate`` (tests) and about 40 times faster.

The original runs were not seeded (and ran on Python 2, whose dict order chose the partner
order), so no run can be replayed: a seeded recomputation agrees up to the spread of the
run means (:func:`trueskill_scores` reports the standard error).
"""
from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.io.user_files import read_bytes

MU, SIGMA, TAU, DRAW_PROBABILITY = 0.0, 0.5, 0.0, 0.25
RUNS = 1000  # GJG15's SAMPLE=999: runs 0..999


@dataclass(frozen=True)
class Pair:
    """One pairwise human comparison: ``a < b`` by name; outcome ``<`` a better, ``>`` b better, ``=``."""

    a: str
    b: str
    outcome: str


def read_ranked_items(path: str | Path) -> list[list[tuple[int, list[str]]]]:
    """Every kept ranking item of an Appraise XML file as ``[(rank, [systems...]), ...]``."""
    data = read_bytes(path)   # a missing file, a FIFO, a folder ...: one line naming it
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        raise GecInputError(f"cannot read the judgments: {error}", str(path)) from None
    items = []
    for item in root.iter("ranking-item"):
        if item.get("skipped") == "true" or item.get("user") == "admin":
            continue
        ranked = [(int(t.attrib["rank"]), t.attrib.get("system", "").split()) for t in item.iter("translation")]
        if ranked:
            items.append(ranked)
    return items


def pairs_of_item(ranked: Sequence[tuple[int, Sequence[str]]]) -> list[Pair]:
    """The pairs of one item (module docstring)."""
    groups: dict[int, list[str]] = defaultdict(list)
    for rank, systems in ranked:
        groups[rank].extend(systems)
    ordered = [sorted(groups[rank]) for rank in sorted(groups)]
    pairs = []
    for i, better in enumerate(ordered):
        pairs += [Pair(x, y, "=") for x, y in combinations(better, 2)]
        for worse in ordered[i + 1:]:
            for x in better:
                for y in worse:
                    pairs.append(Pair(x, y, "<") if x < y else Pair(y, x, ">"))
    return pairs


def read_pairs(path: str | Path) -> list[Pair]:
    """All pairs of a judgments file, item by item."""
    return [pair for item in read_ranked_items(path) for pair in pairs_of_item(item)]


def restricted(pairs: Iterable[Pair], systems: Iterable[str]) -> list[Pair]:
    """The pairs between ``systems`` only (e.g. SEEDA's 12-system "base" set)."""
    keep = set(systems)
    return [p for p in pairs if p.a in keep and p.b in keep]


def _systems(pairs: Sequence[Pair]) -> list[str]:
    return sorted({p.a for p in pairs} | {p.b for p in pairs})


def _ew_from_wins(wins: np.ndarray) -> np.ndarray:
    total = wins + wins.T
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(total > 0, wins / np.where(total > 0, total, 1), 0.0)
    np.fill_diagonal(share, 0.0)
    return share.sum(axis=1) / (len(wins) - 1)


def expected_wins(pairs: Sequence[Pair], runs: int = 0, seed: int = 0) -> dict[str, float]:
    """EW of every system (module docstring): of all pairs (``runs=0``), or the mean over
    ``runs`` bootstrap resamples drawn by ``numpy.random.default_rng(seed)``."""
    systems = _systems(pairs)
    index = {s: i for i, s in enumerate(systems)}
    winner = np.array([index[p.a] if p.outcome == "<" else index[p.b] for p in pairs])
    loser = np.array([index[p.b] if p.outcome == "<" else index[p.a] for p in pairs])
    decided = np.array([p.outcome != "=" for p in pairs])
    n = len(systems)

    def ew(rows: np.ndarray) -> np.ndarray:
        rows = rows[decided[rows]]
        wins = np.bincount(winner[rows] * n + loser[rows], minlength=n * n).reshape(n, n).astype(float)
        return _ew_from_wins(wins)

    if runs == 0:
        scores = ew(np.arange(len(pairs)))
    else:
        rng = np.random.default_rng(seed)
        scores = np.mean([ew(rng.integers(0, len(pairs), len(pairs))) for _ in range(runs)], axis=0)
    return {s: float(v) for s, v in zip(systems, scores)}


class TwoPlayerTrueSkill:
    """TrueSkill's update of two one-player teams in closed form, with the ``trueskill``
    package's v/w functions and draw margin (equal to its ``TrueSkill.rate``)."""

    def __init__(self, beta: float, draw_probability: float = DRAW_PROBABILITY, mu: float = MU,
                 sigma: float = SIGMA):
        import trueskill

        self.env = trueskill.TrueSkill(mu=mu, sigma=sigma, beta=beta, tau=0.0, draw_probability=draw_probability)
        self.beta = beta
        self.draw_margin = trueskill.calc_draw_margin(draw_probability, 2, self.env)

    def rate(self, winner: tuple[float, float], loser: tuple[float, float], drawn: bool
             ) -> tuple[tuple[float, float], tuple[float, float]]:
        """New (mu, variance) of both: ``winner`` beat ``loser`` (or they drew)."""
        (mu_w, var_w), (mu_l, var_l) = winner, loser
        c = math.sqrt(2 * self.beta ** 2 + var_w + var_l)
        t, margin = (mu_w - mu_l) / c, self.draw_margin / c
        if drawn:
            v, w = self.env.v_draw(t, margin), self.env.w_draw(t, margin)
        else:
            v, w = self.env.v_win(t, margin), self.env.w_win(t, margin)
        return ((mu_w + var_w / c * v, var_w * (1 - var_w / c ** 2 * w)),
                (mu_l - var_l / c * v, var_l * (1 - var_l / c ** 2 * w)))


def trueskill_run(pairs: Sequence[Pair], rng: random.Random) -> dict[str, float]:
    """The final ``mu`` of every system after one run of ``TS.py -n 2 -d 0`` (module docstring)."""
    systems = _systems(pairs)
    by_pair: dict[tuple[str, str], list[str]] = defaultdict(list)
    for p in pairs:
        by_pair[(p.a, p.b)].append(p.outcome)
    by_pair = dict(by_pair)
    matches = len(pairs) + 1
    model = TwoPlayerTrueSkill(beta=SIGMA * matches / 40.0)
    rating = {s: (MU, SIGMA ** 2) for s in systems}
    exp, choose, uniform = math.exp, rng.choice, rng.random
    for _ in range(matches):
        first = max(systems, key=lambda s: (rating[s][1], s))
        mu_first = rating[first][0]
        others = [s for s in systems if s != first]
        cumulative, total = [], 0.0
        for s in others:
            total += 1.0 / exp(abs(mu_first - rating[s][0]))
            cumulative.append(total)
        draw = uniform()
        partner = others[-1]
        for s, edge in zip(others, cumulative):
            if draw < edge / total:
                partner = s
                break
        a, b = (first, partner) if first < partner else (partner, first)
        outcomes = by_pair.get((a, b))
        if not outcomes:
            continue
        outcome = choose(outcomes)
        if outcome == ">":
            rating[b], rating[a] = model.rate(rating[b], rating[a], False)
        else:
            rating[a], rating[b] = model.rate(rating[a], rating[b], outcome == "=")
    return {s: rating[s][0] for s in systems}


@dataclass(frozen=True)
class RunMeans:
    """Mean of a score over runs, with the standard error of that mean."""

    mean: Mapping[str, float]
    stderr: Mapping[str, float]
    runs: int


def trueskill_scores(pairs: Sequence[Pair], runs: int = RUNS, seed: int = 0) -> RunMeans:
    """Mean ``mu`` over ``runs`` seeded runs (run r: ``random.Random(seed + r)``)."""
    finals = [trueskill_run(pairs, random.Random(seed + r)) for r in range(runs)]
    systems = list(finals[0])
    table = np.array([[f[s] for s in systems] for f in finals])
    stderr = table.std(axis=0, ddof=1) / math.sqrt(runs) if runs > 1 else np.zeros(len(systems))
    return RunMeans(dict(zip(systems, table.mean(axis=0).tolist())), dict(zip(systems, stderr.tolist())), runs)


def ranking(scores: Mapping[str, float]) -> list[str]:
    """Systems best first (ties: by name)."""
    return sorted(scores, key=lambda s: (-scores[s], s))
