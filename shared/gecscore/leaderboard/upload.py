"""One system output scored beside a benchmark's published systems, as one more file in the
folder of ``gecscore leaderboard`` would be: its row, its rank and significance cluster under
every configuration, the metric ranking of the benchmark's human signal, its per-type table
beside the best published system, and intervals.

**Once per benchmark** (:func:`prepare_board`): the published systems' cells are read from the
persistent cell cache (:mod:`gecscore.leaderboard.cell_cache`) or scored and kept there, through
:func:`~gecscore.leaderboard.board.run_leaderboard`, with their bootstrap intervals, the
configurations ranked on the human signal in significance clusters (PERM-BOTH, as "choosing a
metric" ranks them) and the published systems under each configuration (every pair by the
paired randomisation of ``gecscore compare``; each pair's p-value is kept in the persistent
cache under the two systems' statistics, so a restart reads them back). The reference side
(gold edits, parses, reference candidates) is built once and kept in memory
(:class:`KeptReferences`).

**Per upload** (:func:`score_upload`, then :func:`add_statistics`): ``run_leaderboard`` scores
the upload alone, with the persistent store off (an upload is never kept: neither its text nor
its cells), and its row joins the published cells (:func:`with_upload`). No configuration of
the board depends on the other systems of the run (:func:`space_configurations` leaves such
ones out), so each cell of the joined board is the cell one ``gecscore leaderboard`` run over
all the files gives. Then its rank, its per-type table (an ERRANT-corpus run with per-type
tables over the upload and the best published system), its intervals (each system's interval
depends only on its own statistics and the resample draws, so the upload's alone is computed)
and its significance clusters (only the pairs with the upload are tested; the published pairs'
p-values are those kept: a pair's p-value depends only on the two systems' statistics).
"""
from __future__ import annotations

import dataclasses
import math
import re
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gecscore.benchdata.refsets import RefSet
from gecscore.errors import GecInputError
from gecscore.leaderboard.benchmarks import BenchmarkData
from gecscore.leaderboard.board import Leaderboard, run_leaderboard
from gecscore.leaderboard.clusters import ClusterOptions, MetricClusters, system_cluster_plans
from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.shared_data import ReferenceData
from gecscore.leaderboard.system_scores import SystemScore
from gecscore.leaderboard.systems import SystemSource
from gecscore.significance.bootstrap import Interval, paired_bootstrap
from gecscore.significance.ranks import Ranking

#: the configuration of the per-type table (ERRANT's own per-type counts) and its granularity
PER_TYPE_CONFIG = "errant-corpus"
PER_TYPE_GRANULARITY = "main"
#: a name for an upload: a letter or digit first, then letters, digits, space and ``._+()-``
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._+()-]{0,59}$")
PAIR_NAMESPACE = "leaderboard-system-pair"

Progress = Callable[[float, str], None]
#: one scoring at a time in a process: an upload is scored with the persistent store switched off
#: (process-wide, :func:`gecscore.cache.store.disabled`), which a board being prepared must not see
SCORING = threading.RLock()


def _quiet(fraction: float, text: str) -> None:
    """The progress callback that says nothing."""


@dataclass(frozen=True)
class UploadOptions:
    """The statistics of a board: ``bootstrap`` resamples (seeded by ``seed``) for each
    system's ``confidence`` interval, and the clusters' draws, alpha and seed (the metric
    clusters on the human signal and the systems under each configuration)."""

    bootstrap: int = 1000
    seed: int = 0
    confidence: float = 0.95
    clusters: ClusterOptions = ClusterOptions()


def space_configurations(run: RunWide, only: Sequence[str] | None = None, refset: RefSet | None = None
                         ) -> tuple[list[str], dict[str, str]]:
    """The presets a board scores and ``{preset: why not}`` for the others: every preset that
    needs no model and no judge, and whose cells do not depend on the other systems of the run
    (GoToScorer with weights: its chunk weights come from every system, so an upload would
    change each published cell, and cost scoring them all again); the similarity-model ones
    (PT-M2, PT-ERRANT, CLEME2.0-sim) too when ``run`` names a model; not those reading a gold
    format ``refset`` lacks (the I-measure's XML gold: only the named CoNLL-2014 sets have one).
    ``only``: just these of them (a name that is not one of them is an error)."""
    from gecscore.leaderboard.specs import resolve

    configs, unavailable = resolve(None, run)
    chosen, left_out = [], dict(unavailable)
    for config in configs:
        if config.depends_on_run:
            left_out[config.name] = ("its weights come from all the systems of the run, so an upload would change every "
                                     "published system's score: run gecscore leaderboard on the folder for it")
        elif config.needs == "similarity" and not run.similarity.get("model"):
            left_out[config.name] = "needs a similarity model, and this board has none configured"
        elif refset is not None and config.metric_class.gold_format == "xml" and refset.ixml_path is None:
            left_out[config.name] = "needs an I-measure XML gold, which this benchmark's gold has not"
        elif config.needs not in ("", "similarity"):
            left_out[config.name] = f"needs a {config.needs}, which this board does not run"
        else:
            chosen.append(config.name)
    if only:
        unknown = [name for name in only if name not in chosen]
        if unknown:
            raise GecInputError(f"not a configuration this board can score: {', '.join(unknown)}; it scores "
                                f"{', '.join(chosen)}")
        left_out.update({name: "not asked for" for name in chosen if name not in only})
        chosen = [name for name in chosen if name in only]
    return chosen, left_out


class KeptReferences:
    """The leaderboard's in-process executor (:class:`gecscore.leaderboard.executor.InProcess`:
    the same scoring code, so the same numbers) with the reference side of each reference set
    and run-wide options kept across runs, so that a later run costs only its systems' own
    scoring. ``listener`` is told of each configuration as its pass starts."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, str], tuple[RefSet, ReferenceData]] = {}
        self.listener: Callable[[Configuration], None] | None = None

    def references(self, refset: RefSet, run: RunWide) -> ReferenceData:
        key = (id(refset), repr(dataclasses.replace(run, progress=False)))
        if key not in self._kept:   # the refset is kept beside its data, so its id stays its own
            self._kept[key] = (refset, ReferenceData(refset, dataclasses.replace(run, progress=False)))
        return self._kept[key][1]

    def warm(self, refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
             run: RunWide) -> None:
        """Score ``systems`` once more, keeping nothing of their scores: each configuration's
        metric and prepared reference side, and the process's caches an upload reads (the
        sources' parses), are built now rather than in the first upload's time (a board whose
        cells were all read from the cache has built none of them)."""
        self.score(refset, systems, configs, run, False)

    def score(self, refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
              run: RunWide, progress: bool, keep=None):
        from gecscore.leaderboard import executor

        results, seconds = executor.empty_table(systems)

        def starting(config: Configuration) -> None:
            if self.listener is not None:
                self.listener(config)

        rows = executor.score_together(self.references(refset, run), configs, systems, starting)
        executor.collect(rows, results, seconds, _NoBar(), keep)
        return executor.in_order(results, configs), seconds


class _NoBar:
    def update(self, n: int) -> None:
        pass


@dataclass
class PublishedBoard:
    """A benchmark's published systems scored once: the board (cells, bootstrap intervals,
    human correlations and metric clusters where the benchmark has a human ranking, the
    systems under each configuration in clusters), the p-value of each pair of published
    systems by configuration (``{config: {(better, worse): (p, trials)}}``), the executor
    holding the reference side, and the seconds each step took."""

    data: BenchmarkData
    configs: tuple[str, ...]
    left_out: dict[str, str]
    run: RunWide
    options: UploadOptions
    board: Leaderboard
    pairs: dict[str, dict[tuple[str, str], tuple[float, int]]]
    executor: KeptReferences
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def systems(self) -> list[str]:
        return list(self.board.systems)

    def metric_rankings(self) -> dict[str, MetricClusters]:
        """The configurations ranked on each human ranking (system level), by its name."""
        return dict(self.board.metric_clusters.get("system", {}))

    def trust(self) -> dict[str, int]:
        """Each configuration's rank on the benchmark's primary human ranking (1: no
        configuration is significantly better at agreeing with the humans); empty without one."""
        primary = self.metric_rankings().get(self.data.benchmark.primary_human or "")
        if primary is None or primary.ranking is None:
            return {}
        return primary.ranking.rank_of()

    def interval(self, config: str, system: str) -> Interval | None:
        result = self.board.bootstrap.get(config)
        return None if result is None else result.intervals.get(system)


def prepare_board(data: BenchmarkData, *, run: RunWide | None = None, only: Sequence[str] | None = None,
                  options: UploadOptions = UploadOptions(), executor: KeptReferences | None = None,
                  progress: Progress = _quiet) -> PublishedBoard:
    """Score (or read from the cell cache) every published system of ``data`` under
    :func:`space_configurations` (``only`` some of them) and compute what does not depend on
    an upload (module docstring)."""
    run = run or RunWide()
    executor = executor or KeptReferences()
    configs, left_out = space_configurations(run, only, data.refset)
    with SCORING:
        return _prepare(data, run, options, executor, configs, left_out, progress)


def _prepare(data: BenchmarkData, run: RunWide, options: UploadOptions, executor: KeptReferences,
             configs: list[str], left_out: dict[str, str], progress: Progress) -> PublishedBoard:
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    _listen(executor, configs, progress, 0.0, 0.6, "published systems")
    try:
        board = run_leaderboard(data.refset, list(data.systems), configs, human=data.human or None,
                                executor=executor, bootstrap=options.bootstrap, seed=options.seed,
                                confidence=options.confidence, progress=False, options=run,
                                clusters=options.clusters if data.human else None)
    finally:
        executor.listener = None
    seconds["published cells"] = time.perf_counter() - started
    progress(0.6, "the published systems in significance clusters")
    started = time.perf_counter()
    cells = _pair_store(data.refset)
    pairs, rankings, left = published_clusters(board, options.clusters, cells, progress=lambda fraction, message:
                                               progress(0.6 + 0.3 * fraction, message))
    board.cluster_options = dataclasses.replace(options.clusters, systems=True)
    board.system_clusters, board.system_clusters_left_out = rankings, left
    seconds["published clusters"] = time.perf_counter() - started
    progress(0.9, "preparing the reference side")
    started = time.perf_counter()
    some = list(data.systems[:1])
    executor.warm(data.refset, some, board.configs, run)
    if PER_TYPE_CONFIG in configs:
        per_type_run = dataclasses.replace(run, per_type=PER_TYPE_GRANULARITY)
        per_type_configs, _ = _resolved([PER_TYPE_CONFIG], per_type_run)
        executor.warm(data.per_type_refset or data.refset, some, per_type_configs, per_type_run)
    seconds["reference side"] = time.perf_counter() - started
    return PublishedBoard(data, tuple(configs), left_out, run, options, board, pairs, executor, seconds)


def _resolved(names: Sequence[str], run: RunWide) -> tuple[list[Configuration], dict[str, str]]:
    from gecscore.leaderboard.specs import resolve

    return resolve(names, run)


def _listen(executor: KeptReferences, configs: Sequence[str], progress: Progress, start: float, end: float,
            what: str) -> None:
    order = {name: k for k, name in enumerate(configs)}

    def listener(config: Configuration) -> None:
        k = order.get(config.name, 0)
        progress(start + (end - start) * k / max(1, len(configs)),
                 f"scoring {what}: {config.name} ({k + 1} of {len(configs)})")

    executor.listener = listener


# --------------------------------------------------------------------- systems in clusters

Stats = tuple[np.ndarray, Callable[[np.ndarray], float]]


def pair_p_value(better: Stats, worse: Stats, trials: int, seed: int) -> float:
    """The two-sided p of ``gecscore compare``'s paired approximate randomisation of two
    systems (:func:`gecscore.significance.comparison.compare_stats`, as
    :func:`gecscore.significance.system_clusters.rank_systems` calls it for each pair)."""
    from gecscore.significance.comparison import SignificanceConfig, compare_stats

    config = SignificanceConfig(bootstrap=0, randomisation=trials, seed=seed)
    return float(compare_stats(worse[0], better[0], worse[1], better[1], config=config).p_randomisation)


def rank_with_pairs(systems: Mapping[str, Stats], p_of: Callable[[str, str], float], *, trials: int, seed: int,
                    alpha: float) -> tuple[Ranking, dict[tuple[str, str], tuple[float, int]]]:
    """:func:`~gecscore.significance.system_clusters.rank_systems`' ranking (two-sided), each
    pair's p-value from ``p_of(better, worse)`` (which may read a kept one), and the p-values."""
    from gecscore.significance.system_clusters import rank_systems

    ranked = rank_systems(systems, trials=trials, seed=seed, alpha=alpha, p_of=p_of)
    names = ranked.names
    pairs = {(names[i], names[j]): (ranked.p[i][j], ranked.draws[i][j])
             for i in range(len(names)) for j in range(i + 1, len(names))}
    return ranked, pairs


def _pair_store(refset: RefSet):
    """The cell cache of ``refset`` (None when the persistent store is off)."""
    from gecscore.leaderboard.cell_cache import CellCache

    return CellCache.for_run(refset)


def published_clusters(board: Leaderboard, options: ClusterOptions, cells=None, progress: Progress = _quiet
                       ) -> tuple[dict[str, dict], dict[str, Ranking], dict[str, str]]:
    """The published systems ranked under each configuration that can be (as ``gecscore
    leaderboard --system-clusters``), each pair's p-value read from the persistent store when
    kept there (keyed by the configuration and the two systems' statistics), else computed and
    kept; ``progress`` told of each configuration."""
    from gecscore.cache.keys import KeyBuilder
    from gecscore.cache.store import remembered

    plan = system_cluster_plans(board)
    configs = {c.name: c for c in board.configs}
    pairs, rankings = {}, {}
    for k, (name, systems) in enumerate(plan.systems.items()):
        progress(k / max(1, len(plan.systems)),
                 f"significance tests of the published systems: {name} ({k + 1} of {len(plan.systems)})")
        part = cells.configuration(configs[name]) if cells is not None else None
        digests = {s: _stats_digest(stats[0]) for s, stats in systems.items()}

        def p_of(better: str, worse: str, systems=systems, part=part, digests=digests) -> float:
            def compute() -> float:
                return pair_p_value(systems[better], systems[worse], options.draws, options.seed)
            if part is None:
                return compute()
            key = (KeyBuilder(PAIR_NAMESPACE).add(part, digests[better], digests[worse], str(options.draws),
                                                  str(options.seed)).digest())
            return remembered(PAIR_NAMESPACE, key, compute, answers=lambda value: isinstance(value, float))

        rankings[name], pairs[name] = rank_with_pairs(systems, p_of, trials=options.draws, seed=options.seed,
                                                      alpha=options.alpha)
    return pairs, rankings, dict(plan.left_out)


def _stats_digest(stats: np.ndarray) -> str:
    import hashlib

    array = np.ascontiguousarray(np.asarray(stats, dtype=np.float64))
    return hashlib.sha256(repr(array.shape).encode() + array.tobytes()).hexdigest()


# --------------------------------------------------------------------- the upload

@dataclass
class UploadResult:
    """An upload scored beside the published systems.

    ``board``: the published cells and the upload's row (``systems`` ends with ``upload``);
    ``ranks``: ``{config: (rank, of)}`` of the upload's score among the systems with a score (1
    = best; equal scores share a rank), None where its score is undefined; ``per_type``:
    ``{system: per-type table}`` of the upload and the best published system (``best``) under
    :data:`PER_TYPE_CONFIG`; ``intervals``: ``{config: {system: Interval}}`` and ``clusters``:
    ``{config: Ranking}`` (with ``clusters_left_out``), filled by :func:`add_statistics`;
    ``warnings``: what the command line would have printed; ``seconds`` of each step."""

    published: PublishedBoard
    upload: str
    board: Leaderboard
    ranks: dict[str, tuple[int, int] | None]
    per_type: dict[str, dict] = field(default_factory=dict)
    best: str | None = None
    per_type_note: str | None = None
    intervals: dict[str, dict[str, Interval]] | None = None
    clusters: dict[str, Ranking] | None = None
    clusters_left_out: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def configs(self) -> list[str]:
        return [c.name for c in self.board.configs]

    def score(self, system: str, config: str) -> float:
        return self.board.scores[system][config].score

    def cluster_rank(self, config: str, system: str | None = None) -> int | None:
        ranking = (self.clusters or {}).get(config)
        return None if ranking is None else ranking.rank_of().get(system or self.upload)

    def as_dict(self) -> dict:
        """The whole result: the board as ``gecscore leaderboard --json`` writes it (the
        published cells and the upload's row; the systems in significance clusters when
        computed), the metric ranking on the human signal, and the upload's ranks, clusters,
        intervals and per-type tables."""
        out = self.board.as_dict()
        published = self.published
        out["benchmark"] = {"name": published.data.benchmark.name, "label": published.data.benchmark.label,
                            "command": published.data.benchmark.command(), "left_out": published.left_out}
        rankings = published.metric_rankings()
        if rankings:
            out["metric_ranking"] = {"primary": published.data.benchmark.primary_human,
                                     "options": published.options.clusters.as_dict(),
                                     "rankings": {h: m.as_dict() for h, m in rankings.items()}}
        upload: dict[str, Any] = {
            "name": self.upload,
            "ranks": {c: ({"rank": r[0], "of": r[1]} if r else None) for c, r in self.ranks.items()},
            "warnings": list(self.warnings), "seconds": dict(self.seconds)}
        if self.per_type:
            upload["per_type"] = {"config": PER_TYPE_CONFIG, "granularity": PER_TYPE_GRANULARITY,
                                  "refset": self.per_type_refset_name, "best_published": self.best,
                                  "tables": self.per_type}
        if self.intervals is not None:
            options = published.options
            upload["intervals"] = {"options": {"resamples": options.bootstrap, "seed": options.seed,
                                               "confidence": options.confidence},
                                   "configs": {c: {s: i.as_dict() for s, i in by_s.items()}
                                               for c, by_s in self.intervals.items()}}
        if self.clusters is not None:
            upload["clusters"] = {c: self.cluster_rank(c) for c in self.configs if c in self.clusters}
        out["upload"] = upload
        return out

    @property
    def per_type_refset_name(self) -> str:
        data = self.published.data
        return (data.per_type_refset or data.refset).name

    def rows(self) -> list[dict[str, Any]]:
        """One row per (system, configuration): score, rank among the systems, significance
        cluster, interval; the CSV download."""
        out = []
        for config in self.configs:
            column = self.board.column(config)
            for system in self.board.systems:
                interval = (self.intervals or {}).get(config, {}).get(system)
                rank = rank_among(column[system], column.values())
                out.append({"system": system, "upload": system == self.upload, "config": config,
                            "score": column[system], "rank": rank[0] if rank else None,
                            "of": rank[1] if rank else None, "cluster": self.cluster_rank(config, system),
                            "low": interval.low if interval else None, "high": interval.high if interval else None})
        return out


def rank_among(score: float, scores) -> tuple[int, int] | None:
    """``(rank, of)``: 1 + the number of scores above ``score`` among the defined ``scores``
    (equal scores share a rank), or None for an undefined score."""
    defined = [s for s in scores if not math.isnan(s)]
    if math.isnan(score):
        return None
    return 1 + sum(1 for s in defined if s > score), len(defined)


def check_name(name: str | None, published: Sequence[str]) -> str:
    """The upload's name, stripped; a GecInputError when it is empty, oddly spelled or a
    published system's."""
    name = (name or "").strip()
    if not name:
        raise GecInputError("give your system a name (it labels its row)")
    if not NAME_PATTERN.match(name):
        raise GecInputError(f"the name {name!r} is not one this board takes: up to 60 letters, digits, spaces and "
                            "._+()- , starting with a letter or digit")
    if name in published:
        raise GecInputError(f"{name!r} is a published system of this board: give your system another name")
    return name


def with_upload(published: Leaderboard, upload: Leaderboard) -> Leaderboard:
    """The published board with the upload's row added (its cells, not scored again)."""
    if [c.name for c in published.configs] != [c.name for c in upload.configs]:
        raise ValueError("the upload was scored with other configurations than the board")
    return Leaderboard(published.refset, dict(published.refset_options), published.n_sentences, list(published.configs),
                       [*published.systems, *upload.systems], {**published.scores, **upload.scores},
                       dict(published.unavailable), {**published.seconds, **upload.seconds}, upload.wall_seconds)


def score_upload(published: PublishedBoard, lines: Sequence[str], name: str, folder: Path, *,
                 progress: Progress = _quiet) -> UploadResult:
    """The upload (``lines``, checked: :func:`gecscore.leaderboard.upload_input.read_output`)
    scored as system ``name`` beside the published systems: its row, its ranks and its per-type
    table (module docstring). ``folder``: where its file is written (the caller's, removed by
    the caller). One scoring at a time in the process (:data:`SCORING`)."""
    from gecscore.cache.store import disabled
    from gecscore.leaderboard.upload_input import write_output

    name = check_name(name, published.systems)
    if len(lines) != published.board.n_sentences:
        raise GecInputError(f"{len(lines)} lines but the board has {published.board.n_sentences} sentences")
    source = SystemSource(name, write_output(lines, Path(folder) / "upload.txt"))
    with SCORING, disabled(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        started = time.perf_counter()
        _listen(published.executor, published.configs, progress, 0.05, 0.8, "your system")
        try:
            alone = run_leaderboard(published.data.refset, [source], list(published.configs), progress=False,
                                    executor=published.executor, options=published.run)
        finally:
            published.executor.listener = None
        seconds = {"scoring": time.perf_counter() - started}
        board = with_upload(published.board, alone)
        ranks = {c: rank_among(board.scores[name][c].score, board.column(c).values()) for c in published.configs}
        result = UploadResult(published, name, board, ranks, seconds=seconds)
        progress(0.85, "the per-type table")
        started = time.perf_counter()
        _per_type(result, source)
        seconds["per type"] = time.perf_counter() - started
    result.warnings = list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, UserWarning)))
    progress(1.0, "done")
    return result


def _per_type(result: UploadResult, source: SystemSource) -> None:
    """ERRANT's per-type counts of the upload and of the best published system by
    :data:`PER_TYPE_CONFIG`, on the benchmark's ERRANT-typed gold."""
    published = result.published
    if PER_TYPE_CONFIG not in published.configs:
        result.per_type_note = f"no per-type table: {PER_TYPE_CONFIG} is not among this board's configurations"
        return
    column = published.board.column(PER_TYPE_CONFIG)
    defined = [s for s in published.systems if not math.isnan(column[s])]
    best = max(defined, key=lambda s: (column[s], s)) if defined else None
    systems = [s for s in published.data.systems if s.name == best] + [source]
    run = dataclasses.replace(published.run, per_type=PER_TYPE_GRANULARITY)
    board = run_leaderboard(published.data.per_type_refset or published.data.refset, systems, [PER_TYPE_CONFIG],
                            progress=False, executor=published.executor, options=run)
    result.best = best
    result.per_type = {s: board.scores[s][PER_TYPE_CONFIG].details.get("per_type") for s in board.systems}


def add_statistics(result: UploadResult, progress: Progress = _quiet) -> UploadResult:
    """The upload's bootstrap interval under each configuration (beside the published ones)
    and every configuration's systems in significance clusters, the published pairs' p-values
    read from the board (module docstring). Fills ``result`` and returns it."""
    published = result.published
    options = published.options
    board = result.board
    started = time.perf_counter()
    intervals: dict[str, dict[str, Interval]] = {}
    for config in published.configs:
        cell: SystemScore = board.scores[result.upload][config]
        mine = {}
        if cell.has_sentence_stats:
            mine = paired_bootstrap({result.upload: (cell.sentence_stats, cell.statistic)},
                                    n_resamples=options.bootstrap, seed=options.seed,
                                    confidence=options.confidence).intervals
        intervals[config] = {s: i for s in published.systems if (i := published.interval(config, s)) is not None}
        intervals[config].update(mine)
    result.intervals = intervals
    result.seconds["intervals"] = time.perf_counter() - started
    started = time.perf_counter()
    plan = system_cluster_plans(board)
    clusters: dict[str, Ranking] = {}
    for k, (config, systems) in enumerate(plan.systems.items()):
        progress(k / max(1, len(plan.systems)), f"significance clusters: {config} ({k + 1} of {len(plan.systems)})")
        kept = published.pairs.get(config, {})

        def p_of(better: str, worse: str, systems=systems, kept=kept) -> float:
            found = kept.get((better, worse)) or kept.get((worse, better))
            if found is not None:
                return found[0]
            return pair_p_value(systems[better], systems[worse], options.clusters.draws, options.clusters.seed)

        clusters[config], _ = rank_with_pairs(systems, p_of, trials=options.clusters.draws,
                                              seed=options.clusters.seed, alpha=options.clusters.alpha)
    result.clusters, result.clusters_left_out = clusters, dict(plan.left_out)
    board.cluster_options = dataclasses.replace(options.clusters, systems=True)
    board.system_clusters, board.system_clusters_left_out = clusters, dict(plan.left_out)
    result.seconds["clusters"] = time.perf_counter() - started
    progress(1.0, "done")
    return result
