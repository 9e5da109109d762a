"""Score every system of a folder with every requested metric configuration.

Reference-side work is done once: the reference set (gold edits, optional ERRANT
re-extraction) is loaded in the main process and handed to each worker process, which keeps
its own reference cache and ERRANT parse cache (the sources are parsed once per worker).
Systems are spread over ``jobs`` worker processes; within one system every configuration
shares the hypothesis edits and CLEME's chunk partition. Model-backed configurations (PT-M2,
PT-ERRANT, CLEME2.0-sim) always run in the main process, system after system, so one model
encodes each distinct sentence of the run once: the sources and references once (kept by the
scorer), a pseudo-sentence once for all systems that propose it (the pair cache).

Interruptions: workers ignore SIGINT (a Ctrl-C reaches the whole process group; only the main
process acts on it). When the main process is interrupted (KeyboardInterrupt, or SIGTERM made
into :class:`Interrupted` by :func:`stop_on_signals`), :func:`run_in_workers` stops: every
worker gets SIGTERM, then SIGKILL if still alive after ``WORKER_GRACE_S``, and is reaped
before the exception goes on, so no worker outlives the run.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import signal
import time
import multiprocessing
import traceback
from multiprocessing.connection import wait as wait_for
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping, Sequence


from gecscore.errors import GecInputError
from gecscore.progress import bar as progress_bar
from gecscore.metaeval.bootstrap import BootstrapResult, paired_bootstrap
from gecscore.metaeval.correlation import Correlation, correlate
from gecscore.metaeval.human import HumanScores
from gecscore.metaeval.metric_significance import (MetricSignificance, board_metric_significance,
                                                   undefined_statistics)
from gecscore.metaeval.refsets import RefSet
from gecscore.metaeval.sentence_level import Judgment, PairwiseAgreement, Window, pairwise_agreement, window_analysis
from gecscore.metaeval.significance import Comparison, SignificanceConfig, compare_stats
from gecscore.metaeval.configurations import MetricConfig, needs_of, scored_by_run, scored_together
from gecscore.metaeval.run_wide import RunWide
from gecscore.metaeval.shared_data import ReferenceData, SystemData
from gecscore.metaeval.specs import resolve
from gecscore.metaeval.system_scores import SystemScore, score_all_systems, score_system


@dataclass(frozen=True)
class SystemSource:
    """Where a system's output lives: its text file and/or an M2 file of its edits."""

    name: str
    text_path: Path | None = None
    hyp_m2_path: Path | None = None


def system_name(path: Path) -> str:
    """``AMU.txt`` and ``AMU.errant.m2`` are both system ``AMU``; ``GPT-3.5.txt`` (SEEDA) is
    ``GPT-3.5``: only the extension and, for M2, one alphabetic tag before it are dropped."""
    name = path.name
    if name.endswith(".m2"):
        stem, _, tag = name[:-3].rpartition(".")
        return stem if stem and tag.isalpha() else name[:-3]
    return name[:-4] if name.endswith(".txt") else name


def discover_systems(systems_dir: str | Path | None = None, hyp_m2_dir: str | Path | None = None,
                     only: Sequence[str] | None = None) -> list[SystemSource]:
    """Systems from ``systems_dir/*.txt`` and/or ``hyp_m2_dir/*.m2`` (sorted by name).

    With both folders, the hypothesis edits come from the M2 files and every system needs one.
    """
    if systems_dir is None and hyp_m2_dir is None:
        raise GecInputError("give a systems folder (*.txt) or a hypothesis M2 folder (*.m2)")
    texts = _by_name(systems_dir, "*.txt")
    m2s = _by_name(hyp_m2_dir, "*.m2")
    names = sorted(texts or m2s)
    if texts and hyp_m2_dir is not None:
        missing = [n for n in names if n not in m2s]
        if missing:
            raise GecInputError(f"no hypothesis M2 file for system(s) {', '.join(missing)}", str(hyp_m2_dir))
    if only:
        unknown = [n for n in only if n not in names]
        if unknown:
            raise GecInputError(f"unknown system(s) {', '.join(unknown)}; found: {', '.join(names)}")
        names = [n for n in names if n in set(only)]
    return [SystemSource(n, texts.get(n), m2s.get(n)) for n in names]


def _by_name(folder: str | Path | None, pattern: str) -> dict[str, Path]:
    if folder is None:
        return {}
    folder = Path(folder)
    if not folder.is_dir():
        raise GecInputError("not a folder", str(folder))
    found = {}
    for path in sorted(folder.glob(pattern)):
        name = system_name(path)
        if name in found:
            raise GecInputError(f"two files for system {name}: {found[name].name} and {path.name}", str(folder))
        found[name] = path
    if not found:
        raise GecInputError(f"no {pattern} files", str(folder))
    return found


# ---------------------------------------------------------------- scoring (workers)

_WORKER: dict = {}
WORKER_GRACE_S = 2.0


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal (``signum``); raised in the main process."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


@contextlib.contextmanager
def stop_on_signals(signals=(signal.SIGTERM,)):
    """Within the block, ``signals`` raise :class:`Interrupted` in the main thread (so
    ``finally`` clauses run: workers are stopped, temporary folders removed); the previous
    handlers come back after it. Outside the main thread it does nothing."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _init_worker(refset: RefSet, configs: Sequence[MetricConfig], run: RunWide | None = None,
                 torch_threads: int | None = None, child: bool = False) -> None:
    if child:  # Ctrl-C reaches the whole group: the main process decides, the workers keep still
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if torch_threads:
        _limit_torch_threads(torch_threads)
    from gecscore.collection import fewer_collections

    fewer_collections()   # a spawned worker starts with the defaults
    _WORKER["refs"] = ReferenceData(refset, run or RunWide())
    _WORKER["configs"] = list(configs)


def _limit_torch_threads(n: int) -> None:
    """Share the CPUs between worker processes (torch would take them all in each)."""
    import importlib.util

    if importlib.util.find_spec("torch") is not None:
        import torch

        torch.set_num_threads(n)


def _system_data(source: SystemSource) -> SystemData:
    return SystemData(source.name, source.text_path, source.hyp_m2_path)


def _score_system(source: SystemSource, system: SystemData | None = None
                  ) -> tuple[str, dict[str, SystemScore], float]:
    started = time.perf_counter()
    refs: ReferenceData = _WORKER["refs"]
    system = system or _system_data(source)
    scores = {config.name: score_system(config, system, refs) for config in _WORKER["configs"]}
    return source.name, scores, time.perf_counter() - started


def _score_in_main(systems: Sequence[SystemSource]) -> Iterator[tuple[str, dict[str, SystemScore], float]]:
    """Every system, in this process, one configuration at a time over all of them
    (``Metric.score_systems``: model-backed ones score the distinct pairs of the whole run in
    one pass, full batches); each system's time is the run's spread evenly."""
    refs: ReferenceData = _WORKER["refs"]
    data = [_system_data(source) for source in systems]
    started = time.perf_counter()
    scores: list[dict[str, SystemScore]] = [{} for _ in systems]
    for config in _WORKER["configs"]:
        for cell, score in zip(scores, score_all_systems(config, data, refs)):
            cell[config.name] = score
    elapsed = (time.perf_counter() - started) / max(1, len(systems))
    for source, cell in zip(systems, scores):
        yield source.name, cell, elapsed


def score_systems(refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[MetricConfig],
                  jobs: int = 1, progress: bool = True, run: RunWide | None = None,
                  scheduler: str | None = None, connect_timeout: float | None = None
                  ) -> tuple[dict[str, dict[str, SystemScore]], dict[str, float]]:
    """``{system: {config: SystemScore}}`` and the seconds spent on each system; with
    ``scheduler`` (``tcp://HOST:PORT`` or ``local:N``) on a Dask cluster instead of ``jobs``
    processes (:mod:`gecscore.metaeval.leaderboard_dask`; ``connect_timeout`` in seconds,
    default :data:`~gecscore.metaeval.leaderboard_dask.DEFAULT_CONNECT_TIMEOUT_S`)."""
    from gecscore.metaeval.cell_cache import CellCache

    run = run or RunWide()
    cells = CellCache.for_run(refset)
    if cells is None:
        return _score_systems(refset, systems, configs, jobs, progress, run, scheduler, connect_timeout)
    return _score_with_cells(cells, refset, systems, configs, jobs, progress, run, scheduler, connect_timeout)


def _score_with_cells(cells, refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[MetricConfig],
                      jobs: int, progress: bool, run: RunWide, scheduler: str | None, connect_timeout: float | None
                      ) -> tuple[dict[str, dict[str, SystemScore]], dict[str, float]]:
    """:func:`score_systems` with the cells of earlier runs read back
    (:mod:`gecscore.metaeval.cell_cache`): only the missing ones are scored, then kept. A
    configuration whose scores depend on the other systems (``needs_all_systems``) is keyed
    by all of them and, when missing, scored over all of them; the others are scored for the
    systems that miss any of them."""
    from gecscore.metaeval.cell_cache import CellIdentity, system_digest

    digests = {s.name: system_digest(s) for s in systems}
    every = [digests[s.name] for s in systems]
    by_run_names = {c.name for c in configs if scored_by_run(c)}
    configuration = {c.name: cells.configuration(c.metric, run.options_for(c)) for c in configs}
    identities = {(s.name, c.name): CellIdentity(configuration[c.name] or "", digests[s.name],
                                                 tuple(every) if c.name in by_run_names else (), len(refset.sentences))
                  for s in systems for c in configs}
    keys = {cell: cells.cell_key(configuration[cell[1]], identity.system, identity.run)
            for cell, identity in identities.items()}
    results: dict[str, dict[str, SystemScore]] = {s.name: {} for s in systems}
    for (system, config), key in keys.items():
        found = cells.get(key, identities[(system, config)])
        if isinstance(found, SystemScore):
            results[system][config] = found
    seconds: dict[str, float] = dict.fromkeys(results, 0.0)
    found = sum(len(row) for row in results.values())
    if found and progress:   # where the progress bars go: say why the run is quick
        import sys

        print(f"{found} of {len(keys)} cells read from the cache ({cells.store.root}; docs/cache.md); "
              f"scoring the other {len(keys) - found}", file=sys.stderr)
    missing = [c for c in configs if any(c.name not in results[s.name] for s in systems)]
    by_run = [c for c in missing if c.name in by_run_names]
    by_system = [c for c in missing if c not in by_run]
    batches = []
    if by_system:
        batches.append(([s for s in systems if any(c.name not in results[s.name] for c in by_system)], by_system))
    if by_run:
        batches.append((list(systems), by_run))
    for batch_systems, batch_configs in batches:
        scores, spent = _score_systems(refset, batch_systems, batch_configs, jobs, progress, run, scheduler,
                                       connect_timeout)
        for name, row in scores.items():
            seconds[name] += spent.get(name, 0.0)
            for config, score in row.items():
                if config not in results[name]:
                    results[name][config] = score
                    cells.put(keys[(name, config)], identities[(name, config)], score)
    return ({name: {c.name: results[name][c.name] for c in configs} for name in results}, seconds)


def _score_systems(refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[MetricConfig],
                   jobs: int, progress: bool, run: RunWide, scheduler: str | None, connect_timeout: float | None
                   ) -> tuple[dict[str, dict[str, SystemScore]], dict[str, float]]:
    """Every cell scored (locally or on the cluster), none read from the cache."""
    import os

    if scheduler is not None:
        from gecscore.metaeval.leaderboard_dask import DEFAULT_CONNECT_TIMEOUT_S, score_on_cluster

        return score_on_cluster(refset, systems, configs, scheduler, progress, run,
                                connect_timeout or DEFAULT_CONNECT_TIMEOUT_S)
    results: dict[str, dict[str, SystemScore]] = {s.name: {} for s in systems}
    seconds: dict[str, float] = dict.fromkeys(results, 0.0)
    parallel = jobs > 1 and len(systems) > 1
    # Model-backed configurations run in this process, whatever ``jobs`` is: one model, its
    # kept reference side and pair cache shared by every system (a worker each would encode
    # the same sentences again), with all the CPU threads.
    in_main = [c for c in configs if not parallel or scored_together(c)]
    in_workers = [c for c in configs if c not in in_main]
    passes = (len(in_workers) > 0) + (len(in_main) > 0)
    bar = progress_bar(total=len(systems) * passes, desc=f"scoring systems on {refset.name}", requested=progress)
    if in_workers:
        initargs = (refset, in_workers, run, max(1, (os.cpu_count() or 1) // jobs), True)
        with contextlib.closing(run_in_workers(systems, min(jobs, len(systems)), initargs)) as done:
            for name, scores, elapsed in done:  # closing: the workers are stopped whatever happens
                results[name].update(scores)
                seconds[name] += elapsed
                bar.update()
    if in_main:   # the model passes show their own bars here (the workers' would interleave)
        _init_worker(refset, in_main, dataclasses.replace(run, progress=progress))
        try:
            for name, scores, elapsed in _score_in_main(systems):
                results[name].update(scores)
                seconds[name] += elapsed
                bar.update()
        finally:
            _WORKER.clear()
    bar.close()
    return ({name: {c.name: results[name][c.name] for c in configs} for name in results}, seconds)


def _worker_main(conn, initargs: tuple) -> None:
    """A worker: set up once, then score each system sent over ``conn`` until ``None`` or EOF."""
    _init_worker(*initargs)
    while True:
        try:
            source = conn.recv()
        except (EOFError, OSError):
            return
        if source is None:
            return
        try:
            message = ("ok", _score_system(source))
        except Exception as error:  # noqa: BLE001 - handed to the main process
            message = ("error", error, traceback.format_exc())
        try:
            conn.send(message)
        except Exception:  # noqa: BLE001 - an exception that does not pickle
            conn.send(("error", RuntimeError(message[-1]), message[-1]))


def run_in_workers(systems: Sequence[SystemSource], n_workers: int, initargs: tuple):
    """Yield ``_score_system(source)`` for every system (in completion order) from
    ``n_workers`` processes, each fed one system at a time over its own pipe.

    Plain processes and pipes, no shared queues or locks: whatever ends the run (an error, a
    KeyboardInterrupt, :class:`Interrupted`), the ``finally`` clause terminates every worker
    (SIGTERM, then SIGKILL after ``WORKER_GRACE_S``) and reaps it, and nothing can be left
    waiting on a lock a killed worker held (``multiprocessing.Pool.terminate`` can hang that
    way, and ProcessPoolExecutor's queue feeder prints tracebacks when its workers are killed).
    """
    context = multiprocessing.get_context()
    workers: list[tuple[multiprocessing.Process, object]] = []
    pending = list(reversed(systems))
    finished = False
    try:
        for _ in range(n_workers):
            parent, child = context.Pipe()
            process = context.Process(target=_worker_main, args=(child, initargs), name="gecscore-leaderboard")
            process.start()
            child.close()
            workers.append((process, parent))
        busy = {}
        for process, conn in workers:
            if pending:
                conn.send(pending.pop())
                busy[conn] = process
        while busy:
            sentinels = {process.sentinel: (process, conn) for conn, process in busy.items()}
            for ready in wait_for([*busy, *sentinels]):
                if ready in busy:
                    conn = ready
                    try:
                        message = conn.recv()
                    except (EOFError, OSError):
                        continue  # the worker died: its sentinel says so
                    if message[0] == "error":
                        raise message[1]
                    yield message[1]
                    if pending:
                        conn.send(pending.pop())
                    else:
                        conn.send(None)
                        del busy[conn]
                elif ready in sentinels:
                    process, conn = sentinels[ready]
                    if conn in busy and not conn.poll():
                        raise RuntimeError(f"a leaderboard worker died (exit code {process.exitcode})")
        finished = True
    finally:
        stop_workers([process for process, _ in workers], finished)
        for _, conn in workers:
            conn.close()


def stop_workers(processes, finished: bool = False) -> None:
    """Reap ``processes``: after a ``finished`` run (each worker told to stop) they are joined;
    any still alive, or every one after an interruption, gets SIGTERM, then SIGKILL after
    ``WORKER_GRACE_S``."""
    deadline = time.monotonic() + WORKER_GRACE_S
    for process in processes:
        if finished:
            process.join(WORKER_GRACE_S)
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


# ---------------------------------------------------------------- the leaderboard

@dataclass
class Leaderboard:
    refset: str
    refset_options: dict[str, str]
    n_sentences: int
    configs: list[MetricConfig]
    systems: list[str]
    scores: dict[str, dict[str, SystemScore]]
    unavailable: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    wall_seconds: float = 0.0
    human: dict[str, HumanScores] = field(default_factory=dict)
    correlations: dict[str, dict[str, Correlation]] = field(default_factory=dict)
    bootstrap: dict[str, BootstrapResult] = field(default_factory=dict)
    bootstrap_options: dict[str, float] = field(default_factory=dict)
    # config -> judgments name -> agreement of its sentence scores with the human pairs
    sentence_level: dict[str, dict[str, PairwiseAgreement]] = field(default_factory=dict)
    sentence_ties: str = "neutral"
    # config -> human ranking -> SEEDA's window analysis (windows of consecutive human ranks)
    windows: dict[str, dict[str, list[Window]]] = field(default_factory=dict)
    # config -> each system against the baseline (paired bootstrap and approximate randomisation)
    significance: dict[str, list[Comparison]] = field(default_factory=dict)
    significance_options: dict[str, object] = field(default_factory=dict)
    # how system scores were made from sentence scores (AGGREGATIONS) and which configs it changed
    aggregation: str = "mean"
    aggregated: list[str] = field(default_factory=list)
    # config -> human ranking -> the system pairs the metric orders as the humans do or not
    pairwise: dict[str, dict[str, "PairwiseSystems"]] = field(default_factory=dict)
    # human ranking -> Williams' test between every pair of configurations, their clusters and,
    # with a bootstrap, intervals of each one's correlations (gecscore.metaeval.metric_significance)
    metric_significance: dict[str, "MetricSignificance"] = field(default_factory=dict)
    # statistics that could not be computed, one sentence each (constant scores, too few systems)
    undefined_statistics: list[str] = field(default_factory=list)

    def column(self, config: str) -> dict[str, float]:
        """``{system: score}`` for one configuration."""
        return {system: self.scores[system][config].score for system in self.systems}

    def as_dict(self) -> dict:
        out = {
            "refset": self.refset, "refset_options": self.refset_options, "n_sentences": self.n_sentences,
            "configs": {c.name: {"family": c.family, "description": c.description,
                                 "signature": self.scores[self.systems[0]][c.name].signature if self.systems else ""}
                        for c in self.configs},
            "unavailable": self.unavailable,
            "systems": {s: {c.name: {**self.scores[s][c.name].details, "score": self.scores[s][c.name].score}
                            for c in self.configs} for s in self.systems},
            "seconds": {"wall": self.wall_seconds, "per_system": self.seconds},
            "aggregation": {"method": self.aggregation, "configs": self.aggregated},
        }
        if self.human:
            out["human"] = {name: h.scores for name, h in self.human.items()}
            out["correlations"] = {c: {h: corr.as_dict() for h, corr in by_h.items()}
                                   for c, by_h in self.correlations.items()}
            out["pairwise_systems"] = {c: {h: p.as_dict() for h, p in by_h.items()}
                                       for c, by_h in self.pairwise.items()}
            if self.metric_significance:
                out["metric_significance"] = {h: m.as_dict() for h, m in self.metric_significance.items()}
            out["undefined_statistics"] = list(self.undefined_statistics)
        if self.bootstrap:
            out["bootstrap"] = {"options": self.bootstrap_options, "configs": {
                c: {"intervals": {s: i.as_dict() for s, i in b.intervals.items()},
                    "differences": [d.as_dict() for d in b.differences]}
                for c, b in self.bootstrap.items()}}
        if self.sentence_level:
            out["sentence_level"] = {"ties": self.sentence_ties, "configs": {
                c: {name: agreement.as_dict() for name, agreement in by_name.items()}
                for c, by_name in self.sentence_level.items()}}
        if self.windows:
            out["windows"] = {c: {h: [w.as_dict() for w in ws] for h, ws in by_h.items()}
                              for c, by_h in self.windows.items()}
        if self.significance:
            out["significance"] = {"options": self.significance_options, "configs": {
                c: [comparison.as_dict() for comparison in comparisons]
                for c, comparisons in self.significance.items()}}
        return out


def judge_description(run: RunWide) -> str:
    """``backend:model@url`` for summaries, with any credentials in the URL masked."""
    from gecscore.judge.backends import redact_url

    judge = run.judge
    url = redact_url(judge["base_url"]) if judge.get("base_url") else None
    return f"{judge.get('backend') or 'openai'}:{judge.get('model')}@{url}"


def run_leaderboard(refset: RefSet, systems: Sequence[SystemSource], metrics: Sequence[str] | None = None, *,
                    human: Mapping[str, HumanScores] | None = None, jobs: int = 1, bootstrap: int = 0,
                    seed: int = 0, confidence: float = 0.95, progress: bool = True,
                    options: RunWide | None = None,
                    judgments: Mapping[str, Sequence[Judgment]] | None = None, ties: str = "neutral",
                    baseline: str | None = None, significance: SignificanceConfig | None = None,
                    window: int = 0, aggregation: str = "mean",
                    sentence_systems: Sequence[str] | None = None, scheduler: str | None = None,
                    connect_timeout: float | None = None) -> Leaderboard:
    """Score ``systems`` with the configurations matching ``metrics`` (all available if None);
    correlate with ``human`` rankings and bootstrap if asked. ``options``: the run-wide options
    (the similarity model, resolved here once, and the judge) that configurations take where
    they apply.

    ``judgments`` (name -> sentence-level human rankings, e.g. SEEDA-S and SEEDA-E): pairwise
    accuracy and Kendall's tau of each configuration's sentence scores over the scored systems
    (:mod:`gecscore.metaeval.sentence_level`; sentence ``i`` of the reference set is sentence
    ``refset.indices[i]`` of the judgments' full set). ``baseline``: every other system against
    it, per configuration, with paired bootstrap and approximate randomisation
    (:mod:`gecscore.metaeval.significance`; ``significance`` sets samples and seed). ``window``
    (with ``human``): SEEDA's window analysis, Pearson and Spearman over every ``window``
    systems consecutive in each human ranking (:func:`sentence_level.window_analysis`).
    ``aggregation`` (:data:`AGGREGATIONS`): ``mean`` keeps each configuration's own system
    score; ``trueskill`` / ``expected-wins`` replace it, for configurations with sentence
    scores, by the pairwise aggregation of Goto et al. 2025 (:func:`aggregate_scores`), before
    the correlations. ``sentence_systems``: only these systems in the sentence-level
    meta-evaluation (e.g. a SEEDA set's, :func:`gecscore.metaeval.human.seeda_systems`).
    ``scheduler``: score on a Dask cluster (``tcp://HOST:PORT`` or ``local:N``) instead of
    ``jobs`` local processes (:mod:`gecscore.metaeval.leaderboard_dask`), reached within
    ``connect_timeout`` seconds (default 10). With ``human``, ``metric_significance``: Williams'
    test between every pair of configurations and their significance clusters per ranking of at
    least 4 systems, with ``bootstrap`` also intervals of each one's correlations
    (:func:`gecscore.metaeval.metric_significance.board_metric_significance`)."""
    from dataclasses import replace

    from gecscore.metaeval.run_wide import similarity_model

    run = options or RunWide()
    configs, unavailable = resolve(metrics, run)
    if any(needs_of(c) == "similarity" and "model" not in c.option_dict for c in configs) and not run.similarity.get("model"):
        run = replace(run, similarity={**run.similarity, "model": similarity_model(run)})
    if not configs:
        raise GecInputError("none of the requested metric configurations is available: "
                            + "; ".join(f"{k}: {v}" for k, v in unavailable.items()))
    if not systems:
        raise GecInputError("no systems to score")
    started = time.perf_counter()
    scores, seconds = score_systems(refset, systems, configs, jobs, progress, run, scheduler, connect_timeout)
    run_options = dict(refset.options)
    if any(needs_of(c) == "similarity" for c in configs):
        run_options["similarity_model"] = run.similarity.get("model")
    if run.has_judge and any(needs_of(c) == "judge" for c in configs):
        run_options["judge"] = judge_description(run)   # a configuration's own judge is in its signature
    board = Leaderboard(refset.name, run_options, len(refset), configs, [s.name for s in systems],
                        scores, unavailable, seconds)
    aggregate_scores(board, aggregation)
    if human:
        board.human = dict(human)
        for config in configs:
            column = board.column(config.name)
            board.correlations[config.name] = {name: correlate(column, ranking) for name, ranking in human.items()}
            board.pairwise[config.name] = {name: pairwise_systems(column, ranking) for name, ranking in human.items()}
            if window:
                board.windows[config.name] = {
                    name: window_analysis({s: ranking.scores[s] for s in ranking.systems}, column, window)
                    for name, ranking in human.items() if len(ranking.systems) >= window}
        board.metric_significance = board_metric_significance(board, bootstrap=bootstrap, seed=seed,
                                                              confidence=confidence)
        board.undefined_statistics = undefined_statistics(board)
    if bootstrap:
        board.bootstrap_options = {"resamples": bootstrap, "seed": seed, "confidence": confidence}
        for config in configs:
            per_system = {s: (scores[s][config.name].sentence_stats, scores[s][config.name].statistic)
                          for s in board.systems if scores[s][config.name].statistic is not None}
            board.bootstrap[config.name] = paired_bootstrap(per_system, n_resamples=bootstrap, seed=seed,
                                                            confidence=confidence)
    if judgments:
        board.sentence_ties = ties
        board.sentence_level = sentence_agreements(board, refset, judgments, ties, sentence_systems)
    if baseline is not None:
        significance = significance or SignificanceConfig(seed=seed)
        board.significance_options = {"baseline": baseline, "bootstrap": significance.bootstrap,
                                      "randomisation": significance.randomisation, "seed": significance.seed,
                                      "confidence": significance.confidence}
        board.significance = baseline_comparisons(board, baseline, significance)
    board.wall_seconds = time.perf_counter() - started
    return board


def sentence_agreements(board: Leaderboard, refset: RefSet, judgments: Mapping[str, Sequence[Judgment]],
                        ties: str = "neutral", only: Sequence[str] | None = None
                        ) -> dict[str, dict[str, PairwiseAgreement]]:
    """Per configuration with sentence scores: its agreement with each set of judgments over the
    board's systems, or those of ``only`` (alphabetical: the tie order of ``ties="seeda-script"``)."""
    positions = refset.indices if refset.indices is not None else range(board.n_sentences)
    if only is not None:
        missing = sorted(set(only) - set(board.systems))
        if missing:
            raise GecInputError(f"sentence-level system(s) not scored: {', '.join(missing)}")
    systems = sorted(board.systems if only is None else only)
    out: dict[str, dict[str, PairwiseAgreement]] = {}
    for config in board.configs:
        cells = [board.scores[s][config.name].sentence_scores for s in systems]
        if any(c is None for c in cells):
            continue
        scores = {s: dict(zip(positions, c)) for s, c in zip(systems, cells)}
        covered = set(positions)
        out[config.name] = {name: pairwise_agreement([j for j in items if j.source in covered], scores, systems, ties)
                            for name, items in judgments.items()}
    return out


def baseline_comparisons(board: Leaderboard, baseline: str, config: SignificanceConfig
                         ) -> dict[str, list[Comparison]]:
    """Per configuration with sentence statistics: every other system against ``baseline``."""
    if baseline not in board.systems:
        raise GecInputError(f"baseline {baseline!r} is not among the scored systems ({', '.join(board.systems)})")
    out: dict[str, list[Comparison]] = {}
    for metric in board.configs:
        base = board.scores[baseline][metric.name]
        if base.sentence_stats is None or base.statistic is None:
            continue
        comparisons = []
        for system in board.systems:
            cell = board.scores[system][metric.name]
            if system == baseline or cell.sentence_stats is None or cell.statistic is None:
                continue
            comparisons.append(compare_stats(base.sentence_stats, cell.sentence_stats, base.statistic,
                                             cell.statistic, config=config, names=(baseline, system)))
        out[metric.name] = comparisons
    return out


# ---------------------------------------------------------------- aggregation and system pairs

#: ``mean``: each configuration's own system score (a corpus score, or the mean of sentence
#: scores); the others aggregate sentence-level comparisons (Goto et al. 2025)
AGGREGATIONS = ("mean", "trueskill", "expected-wins")


def aggregate_scores(board: Leaderboard, method: str = "mean") -> list[str]:
    """Make each system score of a configuration with sentence scores the ``method``
    aggregation of them, so the correlations, windows, tables and plots rank systems the way
    the humans' pairwise judgments are aggregated; the configuration's own score stays in the
    details as ``corpus_score``. Systems enter in name order (TrueSkill's updates are
    sequential, so one fixed order keeps runs comparable). Returns (and records on the board)
    the configurations changed."""
    from gecscore.metaeval.trueskill_aggregate import expected_wins_aggregate, trueskill_aggregate

    if method not in AGGREGATIONS:
        raise GecInputError(f"unknown aggregation {method!r}; expected one of: {', '.join(AGGREGATIONS)}")
    board.aggregation = method
    board.aggregated = []
    if method == "mean" or len(board.systems) < 2:
        return board.aggregated
    aggregate = trueskill_aggregate if method == "trueskill" else expected_wins_aggregate
    for config in board.configs:
        cells = {s: board.scores[s][config.name] for s in sorted(board.systems)}
        if any(cell.sentence_scores is None for cell in cells.values()):
            continue
        values = aggregate({s: cell.sentence_scores for s, cell in cells.items()})
        for system, cell in cells.items():
            board.scores[system][config.name] = dataclasses.replace(
                cell, score=values[system], details={**cell.details, "corpus_score": cell.score})
        board.aggregated.append(config.name)
    return board.aggregated


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
