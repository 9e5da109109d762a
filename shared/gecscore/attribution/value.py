"""The value function attributions read: ``v(subset of edit indices) -> float``.

A value function may also score many subsets at once (``values``), which
:class:`CachedValue` uses: every method first lists the subsets it needs, then asks for the
missing ones in one call (for a metric: one ``score`` call per sentence).
"""
from __future__ import annotations

from typing import Callable, Iterable, Protocol, runtime_checkable

Subset = frozenset[int]


@runtime_checkable
class ValueFunction(Protocol):
    """``v(subset) -> float``: the score of the hypothesis made of the edits in ``subset``."""

    def __call__(self, subset: Subset) -> float: ...


class CachedValue:
    """A value function with a cache, evaluating what is missing in batches: through the
    wrapped object's ``values(list_of_subsets)`` when it has one, else one call per subset."""

    def __init__(self, function: ValueFunction | Callable[[Subset], float]):
        self.function = function
        self.cache: dict[Subset, float] = {}

    def prefetch(self, subsets: Iterable[Iterable[int]]) -> None:
        missing = list(dict.fromkeys(frozenset(s) for s in subsets if frozenset(s) not in self.cache))
        if not missing:
            return
        batch = getattr(self.function, "values", None)
        found = batch(missing) if batch is not None else [self.function(s) for s in missing]
        self.cache.update(zip(missing, map(float, found)))

    def __call__(self, subset: Iterable[int]) -> float:
        subset = frozenset(subset)
        if subset not in self.cache:
            self.prefetch([subset])
        return self.cache[subset]

    @property
    def evaluations(self) -> int:
        return len(self.cache)
