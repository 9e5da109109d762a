"""The leaderboard's cells scored by local worker processes (``--jobs N``): an executor
(:class:`LocalProcesses`, :mod:`gecscore.leaderboard.executor`).

The work is cut into tasks of one system and one group of configurations that share their
system-side work (``Metric.system_work``: every configuration reading a system through its
ERRANT edits is one group, M2's two another, the I-measure, GLEU ...), handed out by a
:class:`WorkQueue` to ``jobs`` worker processes. A worker keeps to its group while systems are
left in it, so a group's reference side (the I-measure's candidates, the spaCy model and the
parse of the sources) is built by as few workers as possible, usually one, and a hypothesis
sentence several systems share is parsed once. The reference set (gold edits, optional ERRANT
re-extraction) is loaded in the main process and handed to each worker, which keeps its own
reference cache and ERRANT parse cache. Configurations scored together
(model-backed ones: PT-M2, PT-ERRANT, CLEME2.0-sim; and those depending on every system) always
run in the main process, so one model encodes each distinct sentence of the run once: the
sources and references once (kept by the scorer), a pseudo-sentence once for all systems that
propose it (the pair cache).

Interruptions: workers ignore SIGINT (a Ctrl-C reaches the whole process group; only the main
process acts on it). When the main process is interrupted (KeyboardInterrupt, or SIGTERM made
into :class:`Interrupted` by :func:`stop_on_signals`), :func:`run_in_workers` stops: every
worker gets SIGTERM, then SIGKILL if still alive after ``WORKER_GRACE_S``, and is reaped
before the exception goes on, so no worker outlives the run.
"""
from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import signal
import statistics
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import wait as wait_for
from typing import Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.executor import (InProcess, Row, RowSink, Table, collect, empty_table, in_order, now_scoring,
                                           score_here, score_one_system, scoring_bar, work_groups)
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.shared_data import ReferenceData
from gecscore.leaderboard.systems import SystemSource
from gecscore.options import DEFAULT_LANG
from gecscore.warnings_once import recorded, relay

_WORKER: dict = {}
WORKER_GRACE_S = 2.0


@dataclass(frozen=True)
class LocalProcesses:
    """Tasks (group, system) spread over ``jobs`` worker processes of this machine;
    configurations scored together run in this process meanwhile. One job, or one task, is
    :class:`InProcess`."""

    jobs: int = 1

    def score(self, refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
              run: RunWide, progress: bool, keep: RowSink | None = None) -> Table:
        # Model-backed configurations run in this process: one model, its kept reference side
        # and pair cache shared by every system (a worker each would encode the same sentences
        # again), with all the CPU threads.
        in_main = [c for c in configs if c.scored_together]
        groups = work_groups([c for c in configs if c not in in_main])
        if self.jobs <= 1 or len(systems) * len(groups) <= 1:
            return InProcess().score(refset, systems, configs, run, progress, keep)
        results, seconds = empty_table(systems)
        with scoring_bar(refset, systems, configs, progress) as bar:   # its heartbeat runs while the workers do
            if groups:
                initargs = (refset, groups, run, max(1, (os.cpu_count() or 1) // self.jobs), True)
                queue = WorkQueue.of(groups, systems)
                bar.set_postfix_str(f"{min(self.jobs, queue.size)} worker processes")
                with contextlib.closing(run_in_workers(queue, min(self.jobs, queue.size), initargs)) as done:
                    collect(done, results, seconds, bar, keep)   # closing: the workers are stopped whatever happens
            if in_main:   # the model passes show their own bars here (the workers' would interleave)
                collect(score_here(refset, systems, in_main, dataclasses.replace(run, progress=progress),
                                   starting=now_scoring(bar)), results, seconds, bar, keep)
        return in_order(results, configs), seconds


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




@dataclass
class WorkQueue:
    """The tasks of a run, (group, system), and which a free worker takes next.

    A worker keeps to its group while systems are left in it (its reference side and caches
    are warm). A worker without one (just started, or its group done) takes the group with
    the most work left that no worker is on, the work of a group being its systems left
    times its configurations (a guess at its cost). When every group left has a worker, it
    joins the one with the most systems left if that is worth building the group's
    reference side again (:meth:`worth_joining`); else it is done.
    """

    pending: list[list[SystemSource]]   # per group, the systems left, in order
    weights: list[int]                  # per group, its number of configurations
    seconds: list[list[float]] = field(default_factory=list)   # per group, its tasks' times so far

    @classmethod
    def of(cls, groups: Sequence[Sequence[Configuration]], systems: Sequence[SystemSource]) -> "WorkQueue":
        return cls([list(systems) for _ in groups], [len(group) for group in groups])

    @property
    def size(self) -> int:
        return sum(len(left) for left in self.pending)

    def record(self, group: int, seconds: float) -> None:
        """A task of ``group`` took ``seconds`` (its first one: the group's set-up too)."""
        while len(self.seconds) <= group:
            self.seconds.append([])
        self.seconds[group].append(seconds)

    def worth_joining(self, group: int) -> bool:
        """Whether a second worker should join ``group``: with no task of it finished yet,
        when at least :data:`JOIN_AT` systems are left; else when the time left on it, ``L``
        (the systems left times ``m``, the median of its tasks after the first), is more than
        its first task ``s + m`` (``s``: the set-up that task paid, building the reference
        side, which the joining worker pays again). Alone, the worker on it ends in ``L``;
        joined, in about ``s + (L - s) / 2`` (the other works while the joiner sets up, then
        they halve the rest): sooner whenever ``L > s``, by at least ``m / 2`` under this
        rule, which leaves the joiner time for one system of its own."""
        times = self.seconds[group] if group < len(self.seconds) else []
        left = len(self.pending[group])
        if not times:
            return left >= JOIN_AT
        return left * statistics.median(times[1:] or times) > times[0]

    def take(self, current: int | None, others: Sequence[int | None]) -> tuple[int, SystemSource] | None:
        """The next task of a worker on group ``current`` (None: none yet) while the other
        workers are on ``others``, or None when it is done."""
        if current is not None and self.pending[current]:
            return current, self.pending[current].pop(0)
        left = [g for g, systems in enumerate(self.pending) if systems]
        alone = [g for g in left if g not in others]
        if alone:
            group = max(alone, key=lambda g: (len(self.pending[g]) * self.weights[g], -g))
        else:
            joinable = [g for g in left if self.worth_joining(g)]
            if not joinable:
                return None
            group = max(joinable, key=lambda g: (len(self.pending[g]), -g))
        return group, self.pending[group].pop(0)


JOIN_AT = 2


def _init_worker(refset: RefSet, groups: Sequence[Sequence[Configuration]], run: RunWide, threads: int | None,
                 child: bool) -> None:
    if child:  # Ctrl-C reaches the whole group: the main process decides, the workers keep still
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if threads:
        limit_threads(threads)
    if all(getattr(config.config, "lang", DEFAULT_LANG) == DEFAULT_LANG for group in groups for config in group):
        from gecscore.lang.thinc_import import import_thinc_without_torch

        import_thinc_without_torch()   # only the English spaCy model can load here: 2.5 s less to start it
    from gecscore.collection import fewer_collections

    fewer_collections()   # a spawned worker starts with the defaults
    _WORKER["refs"] = ReferenceData(refset, run)
    _WORKER["groups"] = [list(group) for group in groups]


def limit_threads(n: int) -> None:
    """Share the CPUs between worker processes: the BLAS's threads (numpy's OpenBLAS, which
    spaCy's model multiplies with) and torch's would each take them all in every worker.
    torch is limited now if imported, else through ``OMP_NUM_THREADS``, which it reads when
    it is imported (importing it only to limit it cost each worker 1.7 s, and a worker
    scoring GLEU, M2 or the I-measure never needs it)."""
    import sys

    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=n, user_api="blas")   # for the rest of this process
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(n)
    else:
        os.environ["OMP_NUM_THREADS"] = str(n)


def _score_task(task: tuple[int, SystemSource]) -> Row:
    """One group's scores of one system, their statistics compacted (sent back through a pipe)."""
    group, source = task
    name, scores, seconds = score_one_system(_WORKER["refs"], _WORKER["groups"][group], source)
    return name, {config: score.compact() for config, score in scores.items()}, seconds


def _worker_main(conn, initargs: tuple) -> None:
    """A worker: set up once, then score each task (group, system) sent over ``conn`` until
    ``None`` or EOF."""
    _init_worker(*initargs)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            with recorded() as caught:   # said in the main process, counted with the others
                row = _score_task(task)
            message = ("ok", row, caught)
        except Exception as error:  # noqa: BLE001 - handed to the main process
            message = ("error", error, traceback.format_exc())
        try:
            conn.send(message)
        except Exception:  # noqa: BLE001 - an exception that does not pickle
            conn.send(("error", RuntimeError(message[-1]), message[-1]))


def run_in_workers(queue: WorkQueue, n_workers: int, initargs: tuple):
    """Yield ``_score_task(task)`` for every task of ``queue`` (in completion order) from
    ``n_workers`` processes, each fed one task at a time over its own pipe, the next one
    chosen by ``queue`` when it is free. The warnings a task gave in its worker are warned
    again here (:func:`gecscore.warnings_once.relay`), before its row.

    Plain processes and pipes, no shared queues or locks: whatever ends the run (an error, a
    KeyboardInterrupt, :class:`Interrupted`), the ``finally`` clause terminates every worker
    (SIGTERM, then SIGKILL after ``WORKER_GRACE_S``) and reaps it, and nothing can be left
    waiting on a lock a killed worker held (``multiprocessing.Pool.terminate`` can hang that
    way, and ProcessPoolExecutor's queue feeder prints tracebacks when its workers are killed).
    """
    context = multiprocessing.get_context()
    workers: list[tuple[multiprocessing.Process, object]] = []
    finished = False
    try:
        for _ in range(n_workers):
            parent, child = context.Pipe()
            process = context.Process(target=_worker_main, args=(child, initargs), name="gecscore-leaderboard")
            process.start()
            child.close()
            workers.append((process, parent))
        busy: dict = {}           # conn -> process, for the workers with a task
        on: dict = {}             # conn -> the group of its last task

        def feed(conn, process) -> None:
            task = queue.take(on.get(conn), [g for c, g in on.items() if c is not conn and c in busy])
            if task is None:
                conn.send(None)
                busy.pop(conn, None)
            else:
                conn.send(task)
                busy[conn], on[conn] = process, task[0]

        for process, conn in workers:
            feed(conn, process)
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
                    relay(message[2])
                    queue.record(on[conn], message[1][2])
                    feed(conn, busy[conn])   # the next task first: the worker goes on while its row is kept
                    yield message[1]
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

