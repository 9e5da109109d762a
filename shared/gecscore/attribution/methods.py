"""Attribution of a score to a hypothesis's ``n`` edits, from a value function ``v`` over
subsets of edit indices (``v(S)``: the score of the source with only the edits in ``S`` applied).

- **add-one**: ``phi_i = v({i}) - v({})`` (the edit alone, against the source);
- **remove-one**: ``phi_i = v(N) - v(N \\ {i})`` (leave one edit out of the full hypothesis);
- **exact Shapley**: ``phi_i = sum_{S subset N \\ {i}} |S|! (n - |S| - 1)! / n! (v(S + i) - v(S))``
  over all ``2^n`` subsets (so ``sum_i phi_i = v(N) - v({})``, the efficiency axiom);
- **sampled Shapley** (permutation sampling, Castro et al. 2009): ``samples`` permutations of
  the edits drawn by ``random.Random(seed).shuffle``; ``phi_i`` is the mean over the
  permutations of ``v(P_i + i) - v(P_i)`` with ``P_i`` the edits before ``i``. Each permutation's
  contributions sum to ``v(N) - v({})``, so the estimate keeps efficiency exactly; its error
  falls as ``1/sqrt(samples)``. With ``samples >= n!`` every permutation is listed once instead
  (the exact value).

Every method lists the subsets it needs and evaluates them in one batch
(:class:`gecscore.attribution.value.CachedValue`). Exact Shapley refuses more than
``MAX_EXACT_EDITS`` edits (``2^n`` evaluations).
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Callable

from gecscore.attribution.value import CachedValue, Subset, ValueFunction

MAX_EXACT_EDITS = 14
DEFAULT_SAMPLES = 64


@dataclass(frozen=True)
class Attribution:
    """One attribution of a sentence: ``values[i]`` for edit i, with ``v({})`` and ``v(N)``."""

    method: str
    values: tuple[float, ...]
    empty: float
    full: float
    evaluations: int
    samples: int | None = None

    @property
    def gap(self) -> float:
        """``v(N) - v({})``: what Shapley values share out."""
        return self.full - self.empty


def _cached(v: ValueFunction | CachedValue) -> CachedValue:
    return v if isinstance(v, CachedValue) else CachedValue(v)


def add_one(v: ValueFunction, n: int) -> Attribution:
    value = _cached(v)
    value.prefetch([frozenset(), frozenset(range(n)), *(frozenset({i}) for i in range(n))])
    empty = value(frozenset())
    return Attribution("add-one", tuple(value({i}) - empty for i in range(n)), empty, value(range(n)),
                       value.evaluations)


def remove_one(v: ValueFunction, n: int) -> Attribution:
    value = _cached(v)
    full = frozenset(range(n))
    value.prefetch([frozenset(), full, *(full - {i} for i in range(n))])
    return Attribution("remove-one", tuple(value(full) - value(full - {i}) for i in range(n)), value(frozenset()),
                       value(full), value.evaluations)


def exact_shapley(v: ValueFunction, n: int) -> Attribution:
    if n > MAX_EXACT_EDITS:
        raise ValueError(f"exact Shapley over {n} edits needs 2^{n} evaluations; use sampled_shapley")
    value = _cached(v)
    subsets = [frozenset(c) for size in range(n + 1) for c in itertools.combinations(range(n), size)]
    value.prefetch(subsets)
    weight = [math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n) for s in range(n)]
    phi = [0.0] * n
    for subset in subsets:
        for i in range(n):
            if i not in subset:
                phi[i] += weight[len(subset)] * (value(subset | {i}) - value(subset))
    return Attribution("shapley", tuple(phi), value(frozenset()), value(frozenset(range(n))), value.evaluations)


def permutations_for(n: int, samples: int, seed: int) -> list[tuple[int, ...]]:
    """``samples`` seeded random permutations, or all ``n!`` when that is not more."""
    if math.factorial(n) <= samples:
        return list(itertools.permutations(range(n)))
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        order = list(range(n))
        rng.shuffle(order)
        out.append(tuple(order))
    return out


def sampled_shapley(v: ValueFunction, n: int, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Attribution:
    value = _cached(v)
    orders = permutations_for(n, samples, seed)
    value.prefetch([frozenset(order[:k]) for order in orders for k in range(n + 1)] or [frozenset()])
    phi = [0.0] * n
    for order in orders:
        before: Subset = frozenset()
        for i in order:
            after = before | {i}
            phi[i] += value(after) - value(before)
            before = after
    count = max(len(orders), 1)
    return Attribution("sampled-shapley", tuple(p / count for p in phi), value(frozenset()),
                       value(frozenset(range(n))), value.evaluations, len(orders))


METHODS: dict[str, Callable[..., Attribution]] = {
    "add-one": add_one, "remove-one": remove_one, "shapley": exact_shapley, "sampled-shapley": sampled_shapley}
