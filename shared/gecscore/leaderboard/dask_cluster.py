"""The leaderboard on a Dask distributed cluster: ``--scheduler tcp://HOST:PORT`` (a running
cluster) or ``--scheduler local:N`` (a ``LocalCluster`` of N worker processes on this machine).

Why: ``--jobs`` spreads systems over processes of one machine; hundreds of systems, or
model- and judge-backed configurations, want several machines and GPUs. Dask's own scheduler
places the tasks, moves data and reschedules the tasks of a worker that dies; this module only
says what a task is and what a worker keeps.

* **Worker-held state.** The reference set is sent to every worker once
  (``client.scatter(refset, broadcast=True)``: each task gets the worker's own copy, nothing
  is re-sent per task). Each worker keeps a :class:`ReferenceData` per reference set and
  run-wide options (keyed by their Dask token, :func:`state_key`), so the reference sides
  (gold edits, the I-measure's XML gold, model scorers) are prepared once per worker and
  reused by every later task, and by a later leaderboard on the same cluster with the same
  reference set, whatever configurations it asks for. At most :data:`KEPT_STATES` are kept.
* **Tasks.** One task per system with all its configurations that are not model passes (one
  :class:`SystemData`, so the configurations share the hypothesis edits and CLEME's chunk
  partition, as a ``--jobs`` worker does). Model passes and scores depending on every system (``scored_together``) are
  one task tagged ``resources={"GPU": 1}`` when a worker declares that resource
  (``dask worker --resources GPU=1``): all systems in one pass, so one model encodes each
  distinct sentence once. With no such worker they run in this process, as without Dask,
  while the cluster scores the rest.
* **Results** come back as futures complete (the progress bar advances with them) and are
  put in order here; the numbers are those of a local run (the same code scores the same
  data). Nothing is written before all have arrived, so an interrupted run leaves ``--out``
  as it was; the pending futures are cancelled and a ``local:N`` cluster is shut down.
* **A worker that dies** costs only its tasks: the scheduler gives them to other workers
  (up to ``distributed.scheduler.allowed-failures`` deaths per task, 3 by default). That is
  Dask's own recovery, not ``retries=``, which re-runs a task that *raised*: a scoring error
  (a missing or short system file) is deterministic, so it reaches the caller at once.

Workers read the system files and the reference set's XML gold by path: on several machines
the data must be at the same paths on each (a shared file system).
"""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Iterator, Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.errors import ClusterError, GecInputError
from gecscore.extras import require
from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.executor import (Row, RowSink, Table, collect, empty_table, in_order, now_scoring,
                                           score_one_system, score_together, scoring_bar)
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.shared_data import ReferenceData
from gecscore.leaderboard.systems import SystemSource
from gecscore.warnings_once import Relayed, recorded, relay

GPU = "GPU"                          # the worker resource that model passes ask for
KEPT_STATES = 2                      # reference states kept per worker (older ones are dropped)
STATE_ATTRIBUTE = "gecscore_leaderboard_states"
_STATES_LOCK = threading.Lock()


# ---------------------------------------------------------------- the scheduler argument

DEFAULT_CONNECT_TIMEOUT_S = 10.0     # --connect-timeout: reach the scheduler, or find a worker, within it
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")   # distributed's network schemes
_POLL_S = 1.0                        # how often a run waiting for results checks that workers are left
_WAIT_S = 0.05                       # how long it sleeps when no result is ready


def parse_scheduler(spec: str) -> tuple[str, int | str]:
    """``("local", N)`` for ``local:N``, ``("address", spec)`` for ``SCHEME://HOST:PORT``
    (the port is required: without it the client would try Dask's default one and hang in its
    destructor)."""
    if spec.startswith("local:"):
        count = spec.partition(":")[2]
        if not count.isdigit() or int(count) < 1:
            raise GecInputError(f"--scheduler {spec!r}: write local:N with N >= 1 worker processes")
        return "local", int(count)
    scheme, sep, rest = spec.partition("://")
    if sep:
        host, colon, port = rest.rpartition(":")
        if scheme not in SCHEMES:
            raise GecInputError(f"--scheduler {spec!r}: unknown scheme {scheme!r} (one of {', '.join(SCHEMES)})")
        if not colon or not host.strip("[]") or not port.isdigit() or not 0 < int(port) < 65536:
            raise GecInputError(f"--scheduler {spec!r}: expected {scheme}://HOST:PORT with a port from 1 to 65535 "
                                "(a Dask scheduler listens on 8786 by default)")
        return "address", spec
    raise GecInputError(f"--scheduler {spec!r}: expected tcp://HOST:PORT (a running Dask scheduler) or local:N")


def check_connect_timeout(seconds: float) -> float:
    if not seconds > 0 or seconds == float("inf"):
        raise GecInputError(f"--connect-timeout {seconds}: give a positive number of seconds")
    return float(seconds)


def reach_scheduler(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, within ``timeout`` seconds: a closed port, a listener that
    never answers (Dask's own client would wait for its handshake forever) or a peer that is
    not a Dask scheduler (a worker's address, another service) is a :class:`ClusterError`
    naming the address, before any client is made."""
    import asyncio

    _distributed()   # the extra's one-line error when it is not installed
    from distributed.core import rpc

    async def identity() -> dict:
        peer = rpc(address, timeout=timeout)
        try:
            return await peer.identity()
        finally:
            await peer.close_rpc()

    try:
        info = asyncio.run(asyncio.wait_for(identity(), timeout))
    except (TimeoutError, asyncio.TimeoutError):
        raise ClusterError(f"--scheduler {address}: no Dask scheduler answered within {timeout:g} s "
                           "(--connect-timeout)", reached=False) from None
    except (OSError, ValueError, TypeError) as error:   # refused, unknown host, an answer that is not Dask's
        raise ClusterError(f"--scheduler {address}: cannot reach a Dask scheduler: {error}", reached=False) from None
    except Exception as error:   # noqa: BLE001 - whatever the peer answered, it was not a scheduler
        raise ClusterError(f"--scheduler {address}: no Dask scheduler there ({type(error).__name__}: {error})",
                           reached=False) from None
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        kind = info.get("type") if isinstance(info, dict) else type(info).__name__
        raise ClusterError(f"--scheduler {address}: this is a Dask {kind}, not a scheduler", reached=False)


def _distributed():
    """The ``distributed`` module, or a one-line error naming the extra that installs it."""
    return require("distributed", "the leaderboard on a Dask cluster (--scheduler)")


@contextlib.contextmanager
def connect(spec: str, connect_timeout: float = DEFAULT_CONNECT_TIMEOUT_S) -> Iterator[Any]:
    """A Dask ``Client`` for ``spec``; a ``local:N`` cluster lives as long as the block.

    A remote scheduler is asked who it is first (:func:`reach_scheduler`), then must have a
    worker within ``connect_timeout`` seconds: every failure to reach it ends in that time with
    a :class:`ClusterError`, never a traceback or a wait without end.

    The local cluster listens on 127.0.0.1 only, its HTTP endpoints on a free port (the
    default, 8787, may be another cluster's: Dask would warn and move); one thread per worker
    process (the scoring is Python and holds the GIL: processes, not threads, give
    parallelism)."""
    distributed = _distributed()
    kind, value = parse_scheduler(spec)
    if kind == "address":
        reach_scheduler(value, connect_timeout)
        try:
            client = distributed.Client(value, set_as_default=False, timeout=connect_timeout)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"--scheduler {value}: {error}", reached=False) from None
        with client:
            try:
                client.wait_for_workers(1, timeout=connect_timeout)
            except (TimeoutError, OSError):
                raise ClusterError(f"--scheduler {value}: the scheduler has no worker (none joined within "
                                   f"{connect_timeout:g} s, --connect-timeout)") from None
            yield client
        return
    with distributed.LocalCluster(n_workers=value, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        client.register_plugin(_ignore_sigint_plugin(), name="gecscore-ignore-sigint")
        yield client


def _ignore_sigint_plugin():
    """A worker plugin: the local workers ignore SIGINT. A Ctrl-C reaches the whole process
    group; this process decides (cancels, shuts the cluster down in order), as with ``--jobs``,
    instead of workers dying under their nannies with tracebacks."""
    import signal

    from distributed import WorkerPlugin

    class IgnoreSigint(WorkerPlugin):
        def setup(self, worker) -> None:
            import threading

            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    return IgnoreSigint()


def has_resource(client, name: str = GPU) -> bool:
    """Whether a worker of the cluster declares resource ``name`` (e.g. ``--resources GPU=1``)."""
    try:
        info = client.scheduler_info(n_workers=-1)   # every worker (newer releases list a few by default)
    except TypeError:                                # older releases: no such argument, all listed
        info = client.scheduler_info()
    workers = info["workers"].values()
    return any(worker.get("resources", {}).get(name, 0) > 0 for worker in workers)


# ---------------------------------------------------------------- on a worker

@dataclass
class WorkerState:
    """What a worker keeps for one reference set and run-wide options: the prepared reference
    sides (``refs``), a lock (a worker with several threads scores one task at a time: the
    caches are not thread-safe) and how many tasks used it (the tests read it)."""

    refs: ReferenceData
    lock: threading.Lock
    tasks: int = 0


def state_key(refset: RefSet, run: RunWide) -> str:
    """The Dask token of what a :class:`ReferenceData` is built from: equal inputs, equal key
    (a later run on the same cluster finds the prepared reference sides)."""
    from dask.base import tokenize

    return f"{refset.name}-{tokenize(refset, dict(run.similarity), dict(run.judge), run.per_type, run.progress)}"


def worker_state(refset: RefSet, key: str, run: RunWide) -> WorkerState:
    """This worker's state for ``key``, built on its first task and kept (at most
    :data:`KEPT_STATES`, least recently used dropped first)."""
    worker = _distributed().get_worker()
    with _STATES_LOCK:
        states: OrderedDict[str, WorkerState] = worker.__dict__.setdefault(STATE_ATTRIBUTE, OrderedDict())
        state = states.get(key)
        if state is None:
            state = states[key] = WorkerState(ReferenceData(refset, run), threading.Lock())
            while len(states) > KEPT_STATES:
                states.popitem(last=False)
        states.move_to_end(key)
    return state


def score_system_task(refset: RefSet, key: str, configs: Sequence[Configuration], run: RunWide,
                      source: SystemSource) -> tuple[list[Row], list[Relayed]]:
    """A task: one system with ``configs``, all sharing one system's data (its hypothesis edits
    and chunk partition are computed once); its row, and its warnings for the client to say."""
    state = worker_state(refset, key, run)
    with state.lock, recorded() as caught:
        row = score_one_system(state.refs, configs, source)
        state.tasks += 1
    return [row], caught


def model_pass_task(refset: RefSet, key: str, configs: Sequence[Configuration], run: RunWide,
                    sources: Sequence[SystemSource]) -> tuple[list[Row], list[Relayed]]:
    """A task: the model-backed ``configs`` over every system, one configuration at a time
    (``Metric.score_systems``: the distinct pairs of the whole run in full batches); its rows,
    and its warnings for the client to say."""
    state = worker_state(refset, key, run)
    with state.lock, recorded() as caught:
        rows = list(score_together(state.refs, configs, sources))
        state.tasks += 1
    return rows, caught


# ---------------------------------------------------------------- in the client

@dataclass(frozen=True)
class DaskCluster:
    """An executor (:mod:`gecscore.leaderboard.executor`): the cells scored on the Dask cluster
    ``scheduler`` (``tcp://HOST:PORT`` or ``local:N``), reached within ``connect_timeout``
    seconds (see the module's docstring)."""

    scheduler: str
    connect_timeout: float | None = None

    def score(self, refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
              run: RunWide, progress: bool, keep: RowSink | None = None) -> Table:
        return score_on_cluster(refset, systems, configs, self.scheduler, progress, run,
                                self.connect_timeout or DEFAULT_CONNECT_TIMEOUT_S, keep)


def score_on_cluster(refset: RefSet, systems: Sequence[SystemSource], configs: Sequence[Configuration],
                     scheduler: str, progress: bool = True, run: RunWide | None = None,
                     connect_timeout: float = DEFAULT_CONNECT_TIMEOUT_S, keep: RowSink | None = None) -> Table:
    """``{system: {config: SystemScore}}`` and the seconds spent on each system, scored on the
    Dask cluster ``scheduler`` (see the module's docstring); ``keep`` is told of each row. A cluster that cannot be reached,
    or that is left without a worker for ``connect_timeout`` seconds mid-run, is a
    :class:`ClusterError`."""
    run = run or RunWide()
    results, seconds = empty_table(systems)
    model = [c for c in configs if c.scored_together]
    others = [c for c in configs if c not in model]
    with connect(scheduler, connect_timeout) as client:
        model_on_cluster = bool(model) and has_resource(client, GPU)
        bar = scoring_bar(refset, systems, configs, progress, where=f" ({scheduler})")
        futures: list = []
        try:
            futures = submit_all(client, refset, systems, others, model if model_on_cluster else [], run)
            if model and not model_on_cluster:   # here, while the cluster scores the rest
                collect(score_together(_local_refs(refset, run, progress), model, systems, now_scoring(bar)),
                        results, seconds, bar, keep)
            for rows, caught in finished(client, futures, connect_timeout):
                relay(caught)   # said here, counted with the others
                collect(rows, results, seconds, bar, keep)
        finally:
            if futures:    # nothing left running on the cluster after an error or an interruption
                client.cancel(futures)
            bar.close()
    return in_order(results, configs), seconds


def submit_all(client, refset: RefSet, systems: Sequence, others: Sequence[Configuration],
               model: Sequence[Configuration], run: RunWide) -> list:
    """The run's futures: a task per system for ``others``, one GPU-tagged task for ``model``."""
    if not others and not model:
        return []
    quiet = replace(run, progress=False)   # workers show no bars (they would interleave)
    shared = client.scatter(refset, broadcast=True)   # once per worker, held in its memory
    key = state_key(refset, quiet)
    # pure=False: a fresh key per task, never another run's result for the same arguments
    futures = [client.submit(score_system_task, shared, key, list(others), quiet, source, pure=False)
               for source in systems] if others else []
    if model:
        futures.append(client.submit(model_pass_task, shared, key, list(model), quiet, list(systems),
                                     resources={GPU: 1}, pure=False))
    return futures


def finished(client, futures: Sequence, connect_timeout: float) -> Iterator[Any]:
    """Each future's result as it completes (a task's own exception is raised as it is). A
    task the cluster lost (its data or every worker gone: Dask cancels it, or gives up after
    ``allowed-failures`` deaths) is a :class:`ClusterError`; so is a cluster without any
    worker for ``connect_timeout`` seconds while results are pending (Dask would wait for one
    without end)."""
    from concurrent.futures import CancelledError

    distributed = _distributed()
    lost = (CancelledError, distributed.client.FutureCancelledError, distributed.KilledWorker)
    arriving = distributed.as_completed(futures, loop=client.loop)
    alone_since: float | None = None
    checked = time.monotonic()
    while not arriving.is_empty():
        if arriving.has_ready():
            for future in arriving.next_batch(block=False):
                try:
                    yield future.result()
                except lost as error:
                    raise ClusterError(f"the cluster lost a task ({type(error).__name__}: {error}); its workers died "
                                       "or left. Nothing was written: run again when the cluster has workers") from None
            alone_since = None
            continue
        time.sleep(_WAIT_S)
        if time.monotonic() - checked < _POLL_S:
            continue
        checked = time.monotonic()
        if _worker_count(client):
            alone_since = None
        elif alone_since is None:
            alone_since = checked
        elif checked - alone_since > connect_timeout:
            raise ClusterError(f"the cluster has had no worker for {connect_timeout:g} s (--connect-timeout) with "
                               f"{arriving.count()} task(s) pending. Nothing was written")


def _worker_count(client) -> int:
    try:
        return len(client.scheduler_info(n_workers=-1)["workers"])
    except TypeError:   # older releases: no such argument, all listed
        return len(client.scheduler_info()["workers"])
    except (OSError, TimeoutError):   # the scheduler itself is gone
        return 0


def _local_refs(refset: RefSet, run: RunWide, progress: bool) -> ReferenceData:
    """This process's reference data for the model passes (with their own progress bars)."""
    return ReferenceData(refset, replace(run, progress=progress))
