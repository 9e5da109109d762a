"""Honest tuning of CLEME2.0's trade-off factors: a grid over the 4-simplex, in-sample and
leave-one-dataset-out.

CLEME2.0's default alphas (hit, wrong, under, over; one set per level) were chosen by its
authors on GJG15 and SEEDA, the rankings it is judged on. This module measures how much of the
default's correlation is in-sample fit: it tunes the alphas on some rankings and evaluates them
on others.

The grid. With ``n = 1/step`` (an integer), every alpha with ``alpha_i = k_i / n``, ``k_i``
non-negative integers summing to ``n``: ``C(n + 3, 3)`` points (1,771 for step 0.05), in
lexicographic order of ``(k1, k2, k3)`` ascending (``k4 = n - k1 - k2 - k3``), so the first point
is ``(0, 0, 0, 1)`` and the last ``(1, 0, 0, 0)``. **Tie-break**: of equally good points the
first in this order wins (``numpy.argmax``); a point whose objective is NaN (a constant metric
column) never wins.

Linearity, and where it stops. Given the reference chosen for each sentence,

    score(alpha) = a1 * hit + a2 * (1 - wrong) + a3 * (1 - under) + a4 * (1 - over)

is linear in alpha: at corpus level the four components come from the pooled counts, at sentence
level the score is the mean of per-sentence linear scores, i.e. the same formula on the mean
components. But with several references (``assumption="dep"``) the reference chosen per sentence
depends on alpha: at corpus level the greedy choice maximises the score of the running totals, at
sentence level the sentence score (:mod:`gecscore.chunks.cleme2`). So the component counts of
every candidate reference are computed once per (dataset, level, assumption) (one CLEME2.0 run
per system, the expensive part: chunking and labelling), and the reference choice is then replayed
for all grid points at once, as numpy arrays of shape (grid, candidates), with the metric's own
formula, order of operations and tie-breaks; a sentence whose candidates have equal counts (and
``ind``, one candidate) adds a constant. The result equals ``gecscore.load("cleme2", alpha=...)``
at every grid point (tests/test_weight_tuning.py), not an approximation of it.

Objective. A dataset is one human spec (``gjg15``, ``seeda-base``, ...) and the rankings of it
selected by ``method`` (``TS``: ``gjg15-TS``; ``seeda-S-TS`` and ``seeda-E-TS``); its
objective is the mean of the chosen coefficient over those rankings, and the objective of several
datasets is the mean of their objectives (each dataset weighs the same, whatever its number of
systems).

Held out. SEEDA's system sets share systems and outputs (``+input`` is ``base`` plus INPUT), so
holding out one of them while tuning on another is not a held-out evaluation. ``holdout="family"``
(the default) leaves out every dataset of the held-out one's family (GJG15: CoNLL-2014's systems;
SEEDA: SEEDA's systems); ``holdout="dataset"`` leaves out the dataset only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError

COEFFICIENTS = ("pearson", "spearman")
LEVELS = ("corpus", "sentence")
ASSUMPTIONS = ("dep", "ind")
HOLDOUTS = ("family", "dataset")
METHODS = ("TS", "EW", "all")
BUILTIN = ("gjg15", "seeda-base", "seeda-+input", "seeda-+ref-f", "seeda-all")
COLUMNS = ("tp", "fp_ne", "fp_un", "fn", "tn")


# ---------------------------------------------------------------- the grid

def simplex_grid(step: float) -> np.ndarray:
    """Every alpha with ``alpha_i = k_i / n`` (``n = 1/step``, ``sum k_i = n``), shape
    ``(C(n + 3, 3), 4)``, in lexicographic order of ``(k1, k2, k3)`` ascending (the order of the
    tie-break). ``k_i / n`` rather than ``k_i * step`` so that 3/20 is the double 0.15."""
    try:
        step = float(step)
    except (TypeError, ValueError):
        raise GecInputError(f"step must be a number, got {step!r}") from None
    if not math.isfinite(step) or step <= 0 or step > 1:
        raise GecInputError(f"step must be in (0, 1], got {step}")
    n = round(1 / step)
    if abs(n * step - 1) > 1e-9:
        raise GecInputError(f"step must divide 1 (1/step an integer), got {step}")
    if n > 200:
        raise GecInputError(f"step {step} gives {math.comb(n + 3, 3)} grid points; use a step of at least 0.005")
    points = [(k1, k2, k3, n - k1 - k2 - k3) for k1 in range(n + 1) for k2 in range(n + 1 - k1)
              for k3 in range(n + 1 - k1 - k2)]
    return np.asarray(points, dtype=np.float64) / n


# ---------------------------------------------------------------- exact CLEME2.0 over a grid

def _ratios(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """hit, wrong, under, over of counts ``(..., 5)`` as :func:`gecscore.chunks.cleme2.disentangled_scores`."""
    tp, fp_ne, fp_un, fn = counts[..., 0], counts[..., 1], counts[..., 2], counts[..., 3]
    necessary = tp + fp_ne + fn
    proposed = tp + fp_ne + fp_un

    def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)

    return ratio(tp, necessary), ratio(fp_ne, necessary), ratio(fn, necessary), ratio(fp_un, proposed)


def _combine(alphas: np.ndarray, hit, wrong, under, over) -> np.ndarray:
    """``a1*hit + a2*(1-wrong) + a3*(1-under) + a4*(1-over)``, left to right as the metric."""
    a = [alphas[..., i] for i in range(4)]
    return a[0] * hit + a[1] * (1 - wrong) + a[2] * (1 - under) + a[3] * (1 - over)


def _priority(keys: Sequence[tuple]) -> np.ndarray:
    """Rank of each candidate by its alpha-free tie-break key (larger key first, then the
    earlier candidate, as Python's ``max`` keeps the first of equal maxima)."""
    order = sorted(range(len(keys)), key=lambda c: (tuple(-k for k in keys[c]), c))
    priority = np.empty(len(keys), dtype=np.int64)
    priority[order] = np.arange(len(keys))
    return priority


def _choose(scores: np.ndarray, priority: np.ndarray) -> np.ndarray:
    """Per grid row, the candidate of maximal score (exact equality), ties by priority."""
    best = scores.max(axis=1, keepdims=True)
    return np.where(scores == best, priority[None, :], len(priority)).argmin(axis=1)


def grid_scores(candidates: Sequence[np.ndarray], alphas: np.ndarray, level: str) -> np.ndarray:
    """CLEME2.0 of one system at every row of ``alphas`` (shape ``(G, 4)``).

    ``candidates[i]``: sample i's candidate references' counts, shape ``(C_i, 5)`` with columns
    ``tp, fp_ne, fp_un, fn, tn``. Corpus level: the greedy choice against running totals by
    (score of totals + counts, tp, -fp, -fn, tn); sentence level: per sample by (score, hit,
    -wrong, -under, -over), then the mean (:mod:`gecscore.chunks.cleme2`)."""
    alphas = np.asarray(alphas, dtype=np.float64)
    g = len(alphas)
    if level == "corpus":
        totals = np.zeros((g, 5))
        for cands in candidates:
            if len(cands) == 1 or (cands == cands[0]).all():
                totals += cands[0]
                continue
            merged = totals[:, None, :] + cands[None, :, :]
            scores = _combine(alphas[:, None, :], *_ratios(merged))
            keys = [(c[0], -(c[1] + c[2]), -c[3], c[4]) for c in cands.tolist()]
            totals += cands[_choose(scores, _priority(keys))]
        return _combine(alphas, *_ratios(totals))
    if level != "sentence":
        raise GecInputError(f"unknown level {level!r}; expected corpus or sentence")
    sums = np.zeros((g, 4))     # sum over sentences of (hit, 1-wrong, 1-under, 1-over)
    for cands in candidates:
        hit, wrong, under, over = _ratios(cands)
        parts = np.stack([hit, 1 - wrong, 1 - under, 1 - over], axis=1)     # (C, 4)
        if len(cands) == 1 or (parts == parts[0]).all():
            sums += parts[0]
            continue
        scores = _combine(alphas[:, None, :], hit[None], wrong[None], under[None], over[None])
        keys = list(zip(hit.tolist(), (-wrong).tolist(), (-under).tolist(), (-over).tolist()))
        sums += parts[_choose(scores, _priority(keys))]
    n = len(candidates) or 1
    return (alphas * (sums / n)).sum(axis=1)


def system_candidates(chunks) -> list[np.ndarray]:
    """The ``(C_i, 5)`` counts arrays of a CLEME2.0 result's ``chunks`` (its SampleChunks)."""
    return [np.asarray([[getattr(c.counts, k) for k in COLUMNS] for c in sample.candidates], dtype=np.float64)
            for sample in chunks]


# ---------------------------------------------------------------- correlations over the grid

def grid_correlations(scores: np.ndarray, human: Sequence[float], coefficient: str) -> np.ndarray:
    """Per row of ``scores`` (G, S), its Pearson r or Spearman rho (average ranks for ties)
    with ``human`` (S,); NaN for a constant row, as :mod:`gecscore.metaeval.correlation`."""
    if coefficient not in COEFFICIENTS:
        raise GecInputError(f"unknown coefficient {coefficient!r}; expected pearson or spearman")
    x = np.asarray(scores, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    if x.shape[1] != len(y) or len(y) < 3:
        raise GecInputError(f"correlation needs at least 3 systems with scores, got {x.shape[1]} and {len(y)}")
    constant = (x.max(axis=1) - x.min(axis=1)) == 0
    if coefficient == "spearman":
        from scipy.stats import rankdata

        x, y = rankdata(x, axis=1), rankdata(y)
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (xc @ yc) / np.sqrt((xc * xc).sum(axis=1) * (yc @ yc))
    r[constant | (np.ptp(y) == 0)] = np.nan
    return np.clip(r, -1.0, 1.0)


# ---------------------------------------------------------------- datasets and tuning

@dataclass(frozen=True)
class Dataset:
    """One human spec's systems, their CLEME2.0 counts and the rankings tuned against.

    ``candidates[system]``: :func:`grid_scores`'s input for that system. ``family``: datasets
    of one family share systems (held out together under ``holdout="family"``)."""

    name: str
    family: str
    rankings: tuple  # tuple[HumanScores, ...]
    candidates: Mapping[str, Sequence[np.ndarray]] = field(repr=False)

    def __post_init__(self) -> None:
        if not self.rankings:
            raise GecInputError("no human ranking selected", self.name)
        for ranking in self.rankings:
            missing = [s for s in ranking.systems if s not in self.candidates]
            if missing:
                raise GecInputError(f"no system output for {', '.join(missing)} of {ranking.name}", self.name)

    def scores(self, alphas: np.ndarray, level: str) -> dict[str, np.ndarray]:
        """Each ranked system's CLEME2.0 at every row of ``alphas``."""
        systems = dict.fromkeys(s for r in self.rankings for s in r.systems)
        return {s: grid_scores(self.candidates[s], alphas, level) for s in systems}


@dataclass(frozen=True)
class Evaluation:
    """An alpha's correlations on one dataset: per ranking and their mean (the objective)."""

    alpha: tuple[float, float, float, float] | None
    mean: float
    per_ranking: Mapping[str, float]

    def as_dict(self) -> dict:
        return {"alpha": list(self.alpha) if self.alpha is not None else None, "mean": _json(self.mean),
                "per_ranking": {k: _json(v) for k, v in self.per_ranking.items()}}


@dataclass(frozen=True)
class DatasetRow:
    """One dataset's line: the paper's default, tuned in-sample, tuned without it (held out)."""

    dataset: str
    family: str
    n_systems: int
    default: Evaluation
    in_sample: Evaluation
    held_out: Evaluation
    trained_on: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"dataset": self.dataset, "family": self.family, "n_systems": self.n_systems,
                "default": self.default.as_dict(), "in_sample": self.in_sample.as_dict(),
                "held_out": self.held_out.as_dict(), "trained_on": list(self.trained_on)}


@dataclass(frozen=True)
class TuningReport:
    """The whole run: settings, the pooled optimum over every dataset, and one row per dataset."""

    metric: str
    level: str
    assumption: str
    coefficient: str
    step: float
    grid_points: int
    holdout: str
    default_alpha: tuple[float, float, float, float]
    all_datasets_alpha: tuple[float, float, float, float]
    rows: tuple[DatasetRow, ...]

    def as_dict(self) -> dict:
        return {"metric": self.metric, "level": self.level, "assumption": self.assumption,
                "coefficient": self.coefficient, "step": self.step, "grid_points": self.grid_points,
                "holdout": self.holdout, "default_alpha": list(self.default_alpha),
                "all_datasets_alpha": list(self.all_datasets_alpha), "rows": [r.as_dict() for r in self.rows],
                "tie_break": "first grid point in lexicographic (k1, k2, k3) order; NaN never wins"}


def _json(value: float) -> float | None:
    return None if value is None or math.isnan(value) else value


def argmax_first(objective: np.ndarray) -> int:
    """The first index of the maximum, NaN treated as -inf (the grid's tie-break). Values are
    rounded to 12 decimals first, so that points equal but for floating-point noise tie."""
    values = np.where(np.isnan(objective), -np.inf, np.round(objective, 12))
    if not np.isfinite(values).any():
        raise GecInputError("every grid point gives an undefined correlation (constant scores)")
    return int(np.argmax(values))


def training_sets(held_out: Dataset, datasets: Sequence[Dataset], holdout: str) -> tuple[str, ...]:
    """The datasets tuned on when ``held_out`` is evaluated: those of other families
    (``holdout="family"``) or every other one (``"dataset"``), in the given order."""
    if holdout == "family":
        return tuple(d.name for d in datasets if d.family != held_out.family)
    return tuple(d.name for d in datasets if d.name != held_out.name)


def tune(datasets: Sequence[Dataset], *, level: str = "corpus", assumption: str = "dep", step: float = 0.05, coefficient: str = "pearson",
         holdout: str = "family", default_alpha: Sequence[float] | None = None,
         progress: Callable[[str], None] | None = None) -> TuningReport:
    """Tune over the grid: per dataset in-sample and held out (see the module docstring).

    In-sample: ``argmax`` of the dataset's own objective. Held out: ``argmax`` of the mean
    objective of the other datasets (other families under ``holdout="family"``), evaluated on
    the dataset; NaN and no alpha when nothing is left to tune on."""
    from gecscore.chunks.config import parse_alphas

    if level not in LEVELS:
        raise GecInputError(f"unknown level {level!r}; expected corpus or sentence")
    if holdout not in HOLDOUTS:
        raise GecInputError(f"unknown holdout {holdout!r}; expected family or dataset")
    if not datasets:
        raise GecInputError("no dataset to tune on")
    names = [d.name for d in datasets]
    if len(set(names)) != len(names):
        raise GecInputError(f"a dataset is named twice: {', '.join(names)}")
    default = parse_alphas(default_alpha, level)
    grid = simplex_grid(step)
    alphas = np.vstack([grid, np.asarray(default)[None, :]])        # the default as the last row
    per_dataset: dict[str, dict[str, np.ndarray]] = {}
    for dataset in datasets:
        scores = dataset.scores(alphas, level)
        per_dataset[dataset.name] = {
            r.name: grid_correlations(np.stack([scores[s] for s in r.systems], axis=1),
                                      [r.scores[s] for s in r.systems], coefficient) for r in dataset.rankings}
        if progress:
            progress(f"{dataset.name}: {len(scores)} systems on {len(grid)} grid points")
    objective = {name: np.mean(np.stack(list(c.values())), axis=0) for name, c in per_dataset.items()}

    def evaluate(name: str, index: int | None) -> Evaluation:
        if index is None:
            return Evaluation(None, math.nan, {r: math.nan for r in per_dataset[name]})
        alpha = tuple(float(v) for v in alphas[index])
        return Evaluation(alpha, float(objective[name][index]),  # type: ignore[arg-type]
                          {r: float(c[index]) for r, c in per_dataset[name].items()})

    def best(train: Sequence[str]) -> int | None:
        if not train:
            return None
        return argmax_first(np.mean(np.stack([objective[n][: len(grid)] for n in train]), axis=0))

    rows = []
    for dataset in datasets:
        train = training_sets(dataset, datasets, holdout)
        rows.append(DatasetRow(dataset.name, dataset.family, len(dict.fromkeys(
            s for r in dataset.rankings for s in r.systems)), evaluate(dataset.name, len(grid)),
            evaluate(dataset.name, best([dataset.name])), evaluate(dataset.name, best(train)), train))
    pooled = tuple(float(v) for v in alphas[best(names)])  # type: ignore[index]
    return TuningReport("cleme2", level, assumption, coefficient, float(step), len(grid), holdout, default,
                        pooled, tuple(rows))  # type: ignore[arg-type]


# ---------------------------------------------------------------- loading the evaluation data

def select_rankings(rankings: Mapping, method: str) -> tuple:
    """The rankings whose name ends in ``-METHOD`` (all of them for ``all``, or when none does,
    e.g. a TSV with other column names)."""
    if method not in METHODS:
        raise GecInputError(f"unknown method {method!r}; expected TS, EW or all")
    chosen = [r for name, r in rankings.items() if method == "all" or name.endswith(f"-{method}")]
    return tuple(chosen or rankings.values())
