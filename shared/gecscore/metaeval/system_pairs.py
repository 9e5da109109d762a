"""Which system pairs a metric orders as the humans do: the verdict of each pair of a human
ranking's systems, which a correlation coefficient sums up but does not show."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from gecscore.metaeval.human import HumanScores


@dataclass(frozen=True)
class PairwiseSystems:
    """Every pair of a human ranking's systems: does the metric order it as the humans do?

    ``cells[(a, b)]`` (``a`` before ``b`` in the ranking's order) is ``agree``, ``disagree``,
    ``metric-tie`` (equal metric scores) or ``human-tie`` (equal human scores)."""

    human: str
    systems: tuple[str, ...]
    cells: dict[tuple[str, str], str]

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(("agree", "disagree", "metric-tie", "human-tie"), 0)
        for verdict in self.cells.values():
            out[verdict] += 1
        return out

    def as_dict(self) -> dict:
        return {"human": self.human, "systems": list(self.systems), "counts": self.counts(),
                "disagree": [[a, b] for (a, b), v in self.cells.items() if v == "disagree"]}


def pairwise_systems(metric: Mapping[str, float], human: HumanScores) -> PairwiseSystems:
    """The verdict of each system pair of ``human`` (:class:`PairwiseSystems`), which a
    correlation coefficient sums up but does not show: which systems a metric swaps."""
    systems = tuple(s for s in human.systems if s in metric)
    cells = {}
    for i, a in enumerate(systems):
        for b in systems[i + 1:]:
            h = human.scores[a] - human.scores[b]
            m = metric[a] - metric[b]
            cells[(a, b)] = ("human-tie" if h == 0 else "metric-tie" if m == 0 or math.isnan(m)
                             else "agree" if (h > 0) == (m > 0) else "disagree")
    return PairwiseSystems(human.name, systems, cells)
