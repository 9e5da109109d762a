"""Metrics under attack: the rank each adversarial or degenerate system takes among real ones.

:func:`run_robustness` scores the real systems and the attackers
(:mod:`gecscore.robustness.attacks`) on the same reference set with the same configurations, one
leaderboard run (:func:`~gecscore.leaderboard.board.run_leaderboard`) per configuration, so
that each configuration's wall time is its own. Per configuration and attacker it reports:

- ``rank_alone``: the attacker's rank among the real systems and itself only (1 = best; a tie
  shares the better rank), the question "would this one attack top the board?";
- ``rank_all``: its rank among every scored system (real systems and all attackers);
- ``beats``: how many real systems score strictly lower;
- ``beats_human_best``: whether it scores strictly higher than the real system the humans rank
  first (None without a human ranking).

Higher scores are better for every configuration; an undefined score (NaN) ranks last.
Caveat: a configuration whose scores depend on which systems are scored together (GoToScorer's
chunk weights come from the run's systems) is scored once with every attacker present, so its
``rank_alone`` is read off that joint run; :attr:`ConfigRobustness.set_dependent` says so.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Mapping, Sequence

from gecscore.errors import GecInputError
from gecscore.metaeval.human import HumanScores
from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.executor import Executor
from gecscore.leaderboard.systems import SystemSource
from gecscore.benchdata.refsets import RefSet
from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.specs import resolve
from gecscore.result_text import number


@dataclass(frozen=True)
class AttackRank:
    """One attacker under one configuration."""

    attacker: str
    score: float
    rank_alone: int           # among the real systems + this attacker (1 = best)
    rank_all: int             # among every scored system
    beats: int                # real systems scoring strictly lower
    beats_human_best: bool | None

    def as_dict(self) -> dict:
        return {"attacker": self.attacker, "score": self.score, "rank_alone": self.rank_alone,
                "rank_all": self.rank_all, "beats": self.beats, "beats_human_best": self.beats_human_best}


@dataclass(frozen=True)
class ConfigRobustness:
    """Every attacker's rank under one configuration, and what the run cost."""

    config: str
    description: str
    seconds: float                      # the leaderboard run's wall time (all systems)
    set_dependent: bool                 # scores depend on the set of systems scored together
    real_scores: tuple[tuple[str, float], ...]   # best first
    ranks: tuple[AttackRank, ...]
    signature: str = ""

    @property
    def best_real(self) -> str:
        return self.real_scores[0][0] if self.real_scores else ""

    def as_dict(self) -> dict:
        return {"config": self.config, "description": self.description, "seconds": self.seconds,
                "set_dependent": self.set_dependent, "signature": self.signature,
                "real_scores": dict(self.real_scores), "best_real": self.best_real,
                "attackers": {r.attacker: r.as_dict() for r in self.ranks}}


@dataclass(frozen=True)
class Robustness:
    """The result of :func:`run_robustness`."""

    refset: str
    n_sentences: int
    real: tuple[str, ...]
    attackers: tuple[str, ...]
    configs: tuple[ConfigRobustness, ...]
    wall_seconds: float
    human_ranking: str | None = None
    human_best: str | None = None
    unavailable: tuple[tuple[str, str], ...] = ()
    attack_descriptions: tuple[tuple[str, str], ...] = ()

    def rank(self, config: str, attacker: str) -> AttackRank:
        for cell in self.configs:
            if cell.config == config:
                for rank in cell.ranks:
                    if rank.attacker == attacker:
                        return rank
        raise KeyError((config, attacker))

    def as_dict(self) -> dict:
        return {"refset": self.refset, "n_sentences": self.n_sentences, "real_systems": list(self.real),
                "attackers": {name: dict(self.attack_descriptions).get(name, "") for name in self.attackers},
                "human_ranking": self.human_ranking, "human_best": self.human_best,
                "seconds": {"wall": self.wall_seconds, "per_config": {c.config: c.seconds for c in self.configs}},
                "unavailable": dict(self.unavailable),
                "configs": {c.config: c.as_dict() for c in self.configs}}


def _key(score: float) -> float:
    return -math.inf if score is None or math.isnan(score) else score


def rank_attackers(real: Mapping[str, float], attackers: Mapping[str, float],
                   human_best: str | None = None) -> tuple[AttackRank, ...]:
    """Each attacker's :class:`AttackRank` from the scores of the real systems and attackers."""
    everyone = {**real, **attackers}
    out = []
    for name, score in attackers.items():
        mine = _key(score)
        above_real = sum(_key(s) > mine for s in real.values())
        above_all = sum(_key(s) > mine for other, s in everyone.items() if other != name)
        beats = sum(_key(s) < mine for s in real.values())
        versus = None if human_best is None else mine > _key(real[human_best])
        out.append(AttackRank(name, score, above_real + 1, above_all + 1, beats, versus))
    return tuple(out)


def set_dependent(config: Configuration) -> bool:
    """Whether a configuration's scores depend on the other systems scored with it."""
    return config.metric == "gotoscorer" and not config.option_dict.get("no_weight", False)


def exactly(config: Configuration) -> str:
    """A pattern :func:`~gecscore.leaderboard.specs.resolve` matches to ``config`` alone: its
    spec, or its preset name as a one-name glob (``green`` alone would also match the family
    ``green``, i.e. ``green-sentence`` too)."""
    if config.spec:
        return config.spec
    return f"[{config.name[0]}]{config.name[1:]}"


def human_best_system(human: Mapping[str, HumanScores], real: Sequence[str],
                      ranking: str | None = None) -> tuple[str, str]:
    """``(ranking name, system)``: the real system ranked first by ``ranking`` (default: the
    first of ``human``), among the real systems it ranks."""
    if not human:
        raise GecInputError("no human ranking to find the human-best system in")
    name = ranking or next(iter(human))
    if name not in human:
        raise GecInputError(f"unknown human ranking {name!r}; expected one of: {', '.join(human)}")
    scores = {s: v for s, v in human[name].scores.items() if s in set(real)}
    if not scores:
        raise GecInputError(f"human ranking {name} ranks none of the real systems ({', '.join(real)})")
    return name, max(scores, key=lambda s: scores[s])


def run_robustness(refset: RefSet, real: Sequence[SystemSource], attackers: Sequence[SystemSource],
                   metrics: Sequence[str] | None = None, *, human_best: str | None = None,
                   human_ranking: str | None = None, executor: Executor | None = None, progress: bool = True,
                   options: RunWide | None = None,
                   attack_descriptions: Mapping[str, str] | None = None) -> Robustness:
    """Score ``real`` and ``attackers`` with each configuration of ``metrics`` (as the
    leaderboard takes them; default every available one), one leaderboard run per
    configuration (scored by ``executor``, as :func:`~gecscore.leaderboard.board.run_leaderboard`
    takes it), and rank every attacker (:class:`Robustness`). ``human_best``: the real
    system the humans rank first (from ``human_ranking``), for ``beats_human_best``."""
    if not real:
        raise GecInputError("no real systems to rank the attackers among")
    if not attackers:
        raise GecInputError("no attackers to rank")
    real_names = [s.name for s in real]
    clash = sorted(set(real_names) & {s.name for s in attackers})
    if clash:
        raise GecInputError(f"attacker name(s) {', '.join(clash)} already name real systems; rename them")
    if human_best is not None and human_best not in real_names:
        raise GecInputError(f"human-best system {human_best!r} is not among the real systems "
                            f"({', '.join(real_names)})")
    run = options or RunWide()
    configs, unavailable = resolve(metrics, run)
    if not configs:
        raise GecInputError("none of the requested metric configurations is available: "
                            + "; ".join(f"{k}: {v}" for k, v in unavailable.items()))
    started = time.perf_counter()
    systems = [*real, *attackers]
    results = []
    for config in configs:
        board = run_leaderboard(refset, systems, [exactly(config)], executor=executor, progress=progress,
                                options=run)
        (scored,) = board.configs
        column = board.column(scored.name)
        real_scores = {name: column[name] for name in real_names}
        ranks = rank_attackers(real_scores, {s.name: column[s.name] for s in attackers}, human_best)
        ordered = tuple(sorted(real_scores.items(), key=lambda item: -_key(item[1])))
        signature = board.scores[systems[0].name][scored.name].signature
        results.append(ConfigRobustness(scored.name, config.description, board.wall_seconds, set_dependent(config),
                                        ordered, ranks, signature))
    descriptions = attack_descriptions or {}
    return Robustness(refset.name, len(refset), tuple(real_names), tuple(s.name for s in attackers),
                      tuple(results), time.perf_counter() - started, human_ranking, human_best,
                      tuple(unavailable.items()), tuple((s.name, descriptions.get(s.name, "")) for s in attackers))


def _seconds(value: float) -> str:
    return f"{value:.1f} s" if value < 120 else f"{value / 60:.1f} min"


def markdown(result: Robustness) -> str:
    """The ranks as Markdown: one row per attacker, one column per configuration; a cell is
    ``rank among real systems + the attacker / their number``, then ``(rank among all)``, in
    bold where the attacker beats the human-best system; then a row per configuration with its
    best real system and its wall time."""
    n = len(result.real) + 1
    names = [c.config for c in result.configs]
    lines = [f"# Metrics under attack: {result.refset} ({result.n_sentences} sentences)", "",
             f"{len(result.real)} real systems; each cell: the attacker's rank among them and itself "
             f"(of {n}), then its rank among all {len(result.real) + len(result.attackers)} scored systems."]
    if result.human_best:
        chosen = (f"the real system ranked first by {result.human_ranking}" if result.human_ranking
                  else "the real system named as the human-best (--human-best)")
        lines.append(f"**Bold**: it scores above {result.human_best}, {chosen}.")
    dependent = [c.config for c in result.configs if c.set_dependent]
    if dependent:
        lines.append(f"Set-dependent ({', '.join(dependent)}: weights from the systems of the run): scored once "
                     "with every attacker present; both ranks come from that run.")
    lines += ["", "| attacker | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for attacker in result.attackers:
        cells = []
        for config in result.configs:
            rank = next(r for r in config.ranks if r.attacker == attacker)
            text = f"{rank.rank_alone}/{n} ({rank.rank_all})"
            cells.append(f"**{text}**" if rank.beats_human_best else text)
        lines.append(f"| {attacker} | " + " | ".join(cells) + " |")
    lines += ["", "| configuration | best real system | its score | real systems beaten by the best attacker "
              "| wall time |", "|---|---|---:|---:|---:|"]
    for config in result.configs:
        best_attack = max(config.ranks, key=lambda r: (r.beats, _key(r.score)))
        top = config.real_scores[0] if config.real_scores else ("", math.nan)
        lines.append(f"| {config.config} | {top[0]} | {number(top[1])} | {best_attack.beats} of {len(result.real)} "
                     f"({best_attack.attacker}) | {_seconds(config.seconds)} |")
    lines += ["", f"Total wall time: {_seconds(result.wall_seconds)}."]
    if result.unavailable:
        lines += ["", "Not available: " + "; ".join(f"{k} ({v})" for k, v in result.unavailable)]
    described = [(k, v) for k, v in result.attack_descriptions if v]
    if described:
        lines += ["", "Attackers:", ""] + [f"- `{k}`: {v}" for k, v in described]
    return "\n".join(lines) + "\n"
