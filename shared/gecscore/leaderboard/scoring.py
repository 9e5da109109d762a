"""A leaderboard's cells: those of earlier runs read back from the cache
(:mod:`gecscore.leaderboard.cell_cache`), the others scored by the run's executor
(:mod:`gecscore.leaderboard.executor`) and then kept."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Mapping, Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.leaderboard.cell_cache import CellCache, CellIdentity, system_digest
from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.executor import Executor, Table
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.system_scores import SystemScore
from gecscore.leaderboard.systems import SystemSource


def score_systems(refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
                  executor: Executor, progress: bool = True, run: RunWide | None = None) -> Table:
    """``{system: {config: SystemScore}}`` and the seconds spent on each system: every cell
    scored by ``executor``, or with the cache on only those it does not hold."""
    run = run or RunWide()
    cells = CellCache.for_run(refset)
    if cells is None:
        return executor.score(refset, systems, configs, run, progress)
    return score_with_cells(cells, refset, systems, configs, executor, progress, run)


@dataclass(frozen=True)
class CellKeys:
    """Each cell's key and identity (:mod:`gecscore.leaderboard.cell_cache`), by (system,
    configuration name). A configuration whose scores depend on the other systems
    (``Configuration.depends_on_run``) is keyed by all of them."""

    keys: dict[tuple[str, str], str | None]
    identities: dict[tuple[str, str], CellIdentity]

    @classmethod
    def of(cls, cells: CellCache, refset: RefSet, systems: Sequence[SystemSource],
           configs: Sequence[Configuration]) -> "CellKeys":
        digests = {s.name: system_digest(s) for s in systems}
        every = tuple(digests[s.name] for s in systems)
        configuration = {c.name: cells.configuration(c) for c in configs}
        identities = {(s.name, c.name): CellIdentity(configuration[c.name] or "", digests[s.name],
                                                     every if c.depends_on_run else (), len(refset.sentences))
                      for s in systems for c in configs}
        keys = {cell: cells.cell_key(configuration[cell[1]], identity.system, identity.run)
                for cell, identity in identities.items()}
        return cls(keys, identities)


def score_with_cells(cells: CellCache, refset: RefSet, systems: Sequence[SystemSource],
                     configs: Sequence[Configuration], executor: Executor, progress: bool, run: RunWide) -> Table:
    """:func:`score_systems` with the cells of earlier runs read back: only the missing ones are
    scored, then kept. A configuration depending on the run is, when missing, scored over all
    systems; the others for the systems that miss any of them."""
    keyed = CellKeys.of(cells, refset, systems, configs)
    results: dict[str, dict[str, SystemScore]] = {s.name: {} for s in systems}
    for (system, config), key in keyed.keys.items():
        found = cells.get(key, keyed.identities[(system, config)])
        if isinstance(found, SystemScore):
            results[system][config] = found
    seconds: dict[str, float] = dict.fromkeys(results, 0.0)
    found = sum(len(row) for row in results.values())
    if found and progress:   # where the progress bars go: say why the run is quick
        print(f"{found} of {len(keyed.keys)} cells read from the cache ({cells.store.root}; docs/cache.md); "
              f"scoring the other {len(keyed.keys) - found}", file=sys.stderr)
    for batch_systems, batch_configs in missing_batches(systems, configs, results):
        kept: set[tuple[str, str]] = set()

        def keep(name: str, row: Mapping[str, SystemScore]) -> None:
            """Each new cell is written as it arrives (while the workers go on, not after)."""
            for config, score in row.items():
                if config not in results[name] and (name, config) not in kept:
                    cells.put(keyed.keys[(name, config)], keyed.identities[(name, config)], score)
                    kept.add((name, config))

        scores, spent = executor.score(refset, batch_systems, batch_configs, run, progress, keep)
        for name, row in scores.items():
            seconds[name] += spent.get(name, 0.0)
            keep(name, row)   # an executor that did not tell of some
            for config, score in row.items():
                results[name].setdefault(config, score)
    return ({name: {c.name: results[name][c.name] for c in configs} for name in results}, seconds)


def missing_batches(systems: Sequence[SystemSource], configs: Sequence[Configuration],
                    results: dict[str, dict[str, SystemScore]]
                    ) -> list[tuple[list[SystemSource], list[Configuration]]]:
    """What is left to score: the configurations scored system by system, for the systems
    missing any of them; those depending on the run, over every system."""
    missing = [c for c in configs if any(c.name not in results[s.name] for s in systems)]
    by_run = [c for c in missing if c.depends_on_run]
    by_system = [c for c in missing if c not in by_run]
    batches = []
    if by_system:
        batches.append(([s for s in systems if any(c.name not in results[s.name] for c in by_system)], by_system))
    if by_run:
        batches.append((list(systems), by_run))
    return batches
