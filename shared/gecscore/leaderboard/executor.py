"""Where a leaderboard's cells are scored: an :class:`Executor`, chosen by the caller.

:class:`InProcess` scores them here; :class:`gecscore.leaderboard.processes.LocalProcesses`
spreads systems over local worker processes; :class:`gecscore.leaderboard.dask_cluster.DaskCluster`
over a Dask cluster. The board itself (:mod:`gecscore.leaderboard.board`) knows only the
protocol: every executor gets the same reference set, systems, resolved configurations and
run-wide options, and gives back the same table; the numbers do not depend on which one ran
them (the same code scores the same data). The building blocks here (one system with several
configurations; several configurations over every system at once) are what each executor
runs, in this process or in its workers.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Iterable, Iterator, Mapping, Protocol, Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.shared_data import ReferenceData, SystemData
from gecscore.leaderboard.system_scores import SystemScore, score_all_systems, score_system
from gecscore.leaderboard.systems import SystemSource
from gecscore.progress import bar as progress_bar

Row = tuple[str, dict[str, SystemScore], float]   # (system, {config: score}, seconds)
Table = tuple[dict[str, dict[str, SystemScore]], dict[str, float]]   # ({system: {config: score}}, seconds)


class RowSink(Protocol):
    """Told of scores as they are computed (the cell cache keeps them while the run goes on)."""

    def __call__(self, system: str, scores: Mapping[str, SystemScore]) -> None:
        ...


class Executor(Protocol):
    """Scores every system with every configuration, none read from the cache."""

    def score(self, refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
              run: RunWide, progress: bool, keep: RowSink | None = None) -> Table:
        """``{system: {config: SystemScore}}`` (systems and configurations in the given order)
        and the seconds spent on each system; ``keep`` is told of each system's scores as
        they arrive."""
        ...


class InProcess:
    """Every cell in this process, one configuration at a time over all systems
    (:func:`score_together`)."""

    def score(self, refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
              run: RunWide, progress: bool, keep: RowSink | None = None) -> Table:
        results, seconds = empty_table(systems)
        bar = scoring_bar(refset, systems, passes=int(bool(configs)), progress=progress)
        if configs:   # the model passes show their own bars here
            collect(score_here(refset, systems, configs, dataclasses.replace(run, progress=progress)),
                    results, seconds, bar, keep)
        bar.close()
        return in_order(results, configs), seconds


def scoring_bar(refset: RefSet, systems: Sequence[SystemSource], passes: int, progress: bool, where: str = ""):
    """The bar of a run: one step per system and pass (workers' pass, this process's pass)."""
    return progress_bar(total=len(systems) * passes, desc=f"scoring systems on {refset.name}{where}",
                        requested=progress)


def system_data(source: SystemSource) -> SystemData:
    return SystemData(source.name, source.text_path, source.hyp_m2_path)


def score_one_system(refs: ReferenceData, configs: Sequence[Configuration], source: SystemSource) -> Row:
    """One system with ``configs``, all sharing one :class:`SystemData` (its hypothesis edits
    and chunk partition are computed once)."""
    started = time.perf_counter()
    system = system_data(source)
    scores = {config.name: score_system(config, system, refs) for config in configs}
    return source.name, scores, time.perf_counter() - started


def work_groups(configs: Sequence[Configuration]) -> list[list[Configuration]]:
    """``configs`` grouped by the system-side work they share (``Metric.system_work``), in
    the order of their first configuration: an executor scoring a group's configurations of
    a system in one place computes that work once."""
    groups: dict[str, list[Configuration]] = {}
    for config in configs:
        groups.setdefault(config.build().system_work(), []).append(config)
    return list(groups.values())


def score_together(refs: ReferenceData, configs: Sequence[Configuration], sources: Sequence[SystemSource]
                   ) -> Iterator[Row]:
    """Every system, one configuration at a time over all of them (``Metric.score_systems``:
    model-backed ones score the distinct pairs of the whole run in one pass, full batches);
    each system's time is the pass's spread evenly."""
    data = [system_data(source) for source in sources]
    started = time.perf_counter()
    cells: list[dict[str, SystemScore]] = [{} for _ in sources]
    for config in configs:
        for cell, score in zip(cells, score_all_systems(config, data, refs)):
            cell[config.name] = score
    elapsed = (time.perf_counter() - started) / max(1, len(sources))
    for source, cell in zip(sources, cells):
        yield source.name, cell, elapsed


def score_here(refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration], run: RunWide
               ) -> Iterator[Row]:
    """:func:`score_together` in this process, with its own reference data."""
    from gecscore.collection import fewer_collections

    fewer_collections()
    yield from score_together(ReferenceData(refset, run), configs, systems)


def empty_table(systems: Sequence[SystemSource]) -> tuple[dict[str, dict[str, SystemScore]], dict[str, float]]:
    results: dict[str, dict[str, SystemScore]] = {s.name: {} for s in systems}
    return results, dict.fromkeys(results, 0.0)


def collect(rows: Iterable[Row], results: dict, seconds: dict, bar, keep: RowSink | None = None) -> None:
    """Put finished rows in place, tell ``keep`` of each, and advance the bar once per row."""
    for name, scores, elapsed in rows:
        results[name].update(scores)
        seconds[name] += elapsed
        if keep is not None:
            keep(name, scores)
        bar.update()


def in_order(results: dict[str, dict[str, SystemScore]], configs: Sequence[Configuration]
             ) -> dict[str, dict[str, SystemScore]]:
    """Each system's row with the configurations in the run's order."""
    return {name: {c.name: results[name][c.name] for c in configs} for name in results}
