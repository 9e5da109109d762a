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
from typing import Callable, Iterable, Iterator, Mapping, Protocol, Sequence

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
        with scoring_bar(refset, systems, configs, progress) as bar:
            if configs:   # the model passes show their own bars here
                collect(score_here(refset, systems, configs, dataclasses.replace(run, progress=progress),
                                   starting=now_scoring(bar)), results, seconds, bar, keep)
        return in_order(results, configs), seconds


def scoring_bar(refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration], progress: bool,
                where: str = ""):
    """The bar of a run: one step per cell (a system under a configuration), advanced as the
    cells arrive. Without a terminal its first line says how many cells there are, and a line
    comes at least every interval while the bar is open (a heartbeat: one configuration's pass
    over every system, or the wait on worker processes, can take minutes)."""
    cells = len(systems) * len(configs)
    which = f"1 configuration ({configs[0].name})" if len(configs) == 1 else f"{len(configs)} configurations"
    return progress_bar(total=cells, desc=f"scoring systems on {refset.name}{where}", unit="cells",
                        requested=progress, start=f"{len(systems)} systems x {which} = {cells} cells",
                        heartbeat=True)


def now_scoring(bar) -> Callable[[Configuration], None]:
    """Told of each configuration as its pass over the systems starts: the bar names it."""
    return lambda config: bar.set_postfix_str(f"now {config.name}")


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


def score_together(refs: ReferenceData, configs: Sequence[Configuration], sources: Sequence[SystemSource],
                   starting: Callable[[Configuration], None] | None = None) -> Iterator[Row]:
    """Every system, one configuration at a time over all of them (``Metric.score_systems``:
    model-backed ones score the distinct pairs of the whole run in one pass, full batches);
    each configuration's cells as its pass ends, a row per system (so they are counted and
    kept as they come, not after the last pass), each system's time the pass's spread evenly.
    ``starting`` is told of each configuration before its pass."""
    data = [system_data(source) for source in sources]
    for config in configs:
        if starting is not None:
            starting(config)
        started = time.perf_counter()
        scores = score_all_systems(config, data, refs)
        elapsed = (time.perf_counter() - started) / max(1, len(sources))
        for source, score in zip(sources, scores):
            yield source.name, {config.name: score}, elapsed


def score_here(refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration], run: RunWide,
               starting: Callable[[Configuration], None] | None = None) -> Iterator[Row]:
    """:func:`score_together` in this process, with its own reference data."""
    from gecscore.collection import fewer_collections

    fewer_collections()
    yield from score_together(ReferenceData(refset, run), configs, systems, starting)


def empty_table(systems: Sequence[SystemSource]) -> tuple[dict[str, dict[str, SystemScore]], dict[str, float]]:
    results: dict[str, dict[str, SystemScore]] = {s.name: {} for s in systems}
    return results, dict.fromkeys(results, 0.0)


def collect(rows: Iterable[Row], results: dict, seconds: dict, bar, keep: RowSink | None = None) -> None:
    """Put finished rows in place, tell ``keep`` of each, and advance the bar by each row's
    cells."""
    for name, scores, elapsed in rows:
        results[name].update(scores)
        seconds[name] += elapsed
        if keep is not None:
            keep(name, scores)
        bar.update(len(scores))


def in_order(results: dict[str, dict[str, SystemScore]], configs: Sequence[Configuration]
             ) -> dict[str, dict[str, SystemScore]]:
    """Each system's row with the configurations in the run's order."""
    return {name: {c.name: results[name][c.name] for c in configs} for name in results}
