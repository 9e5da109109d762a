"""evaluate's distributed mode for the gecscore modules: what evaluate does, and what the
modules add to it (used by :func:`gecscore.evaluate_info.input_methods`).

evaluate (0.4) runs a module in ``num_process`` processes through files in ``cache_dir``: each
process writes its examples to ``{experiment_id}-{num_process}-{process_id}.arrow`` and holds a
file lock on it. At the first ``add``/``add_batch`` process 0 waits up to ``timeout`` seconds
(an argument of ``evaluate.load``, 100 by default) for each peer's lock, and each peer waits as
long for process 0 to let them go. At ``compute`` process 0 waits, as long again, for each peer
to release its file (the peer's own ``compute``), reads the files in process order (process 0's
examples, then process 1's, ...) and scores them; the peers return None. So process 0 scores
exactly the examples of one process given them in that order: with contiguous shards in order
(process 0 the first examples) that is the natural order, and every module gives the number of
one process, to the last bit. Another split (strided, as torch's ``DistributedSampler`` deals
examples) scores the same examples in another order: a metric whose score depends on the order
(GLEU with several references: :meth:`~gecscore.gleu.metric.GleuMetric.order_dependence`)
gives another score and says so once (:class:`ExampleOrderWarning`); the others differ at most
by the rounding of a float sum taken in another order.

What the modules add to evaluate:

- a process with no examples (an uneven split) joins: an empty batch, or ``compute`` with
  nothing added, takes part in the rendezvous (evaluate fails on the empty batch with an
  IndexError, or never joins, and its peers wait ``timeout`` seconds for nothing);
- a failed synchronisation is one line (:class:`~gecscore.errors.DistributedEvaluationError`,
  a ValueError as evaluate's) saying which processes never came, or never called ``compute``,
  and which other experiments were seen in the folder (a mismatched ``experiment_id`` or
  ``num_process``), instead of evaluate's "Expected to find locked file ... from process 0 but
  it doesn't exist". It comes when evaluate gives up: after ``timeout`` seconds.

The cache folder must be one that every process reaches and writes, on a file system whose
locks hold across them: a local disk for the processes of one machine. Several machines on a
network file system often do not see each other's locks (evaluate issues #481 and #607).
"""
from __future__ import annotations

import os
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable

from gecscore.errors import DistributedEvaluationError

__all__ = ["DistributedEvaluationError", "ExampleOrderWarning", "failure_line", "warn_order_dependence"]

# evaluate's messages, by the step that failed (evaluate 0.4 spells "evalution" in one of them)
_JOINING = ("Expected to find locked file", "Couldn't acquire lock on")
_GATHERING = ("Cannot acquire lock on cached file",)
_TAKEN = ("another evalution module instance", "another evaluation module instance")
_SLACK_S = 5.0   # a cache file this much older than the longest wait still counts as this run's


class ExampleOrderWarning(UserWarning):
    """The score of a module run in several processes depends on the order the examples are
    gathered in (process 0's, then process 1's, ...)."""


@dataclass(frozen=True)
class ProcessLock:
    """One process's lock file in an evaluate cache folder: ``{experiment_id}-{num_process}-{process_id}.arrow.lock``."""

    experiment_id: str
    num_process: int
    process_id: int
    path: str

    @staticmethod
    def parse(folder: str, name: str) -> "ProcessLock | None":
        if not name.endswith(".arrow.lock"):
            return None
        parts = name[: -len(".arrow.lock")].rsplit("-", 2)
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
            return None
        return ProcessLock(parts[0], int(parts[1]), int(parts[2]), os.path.join(folder, name))

    def described(self) -> str:
        return f"experiment_id {self.experiment_id!r} (process {self.process_id} of {self.num_process})"


def lock_path(module: Any, process_id: int) -> str:
    """Where evaluate puts the lock of ``process_id`` for this module's experiment."""
    return os.path.join(module.data_dir, f"{module.experiment_id}-{module.num_process}-{process_id}.arrow.lock")


def is_present(lock: str, since: float) -> bool:
    """Whether the process of lock file ``lock`` came: it holds the lock now, or its cache file
    (the ``.arrow`` beside the lock) was written since ``since`` (a process that came and has
    given up since). A waiting process creates the lock files of the processes it waits for,
    so a lock file alone proves nothing."""
    try:
        opened = os.stat(lock[: -len(".lock")]).st_mtime >= since
    except OSError:
        opened = False
    return opened or is_held(lock)


def is_held(path: str) -> bool:
    """Whether a process (this one too) holds the lock file ``path`` now; a missing file is not held."""
    if not os.path.exists(path):
        return False
    from datasets.utils.filelock import FileLock, Timeout

    lock = FileLock(path)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return True
    lock.release()
    return False


def others_seen(module: Any, since: float) -> list[ProcessLock]:
    """The processes of other experiments (another experiment_id or num_process) present in the
    module's cache folder (:func:`is_present` since ``since``): the likely peers of a
    mismatched set-up."""
    ours = (module.experiment_id, module.num_process)
    found = []
    try:
        names = sorted(os.listdir(module.data_dir))
    except OSError:
        return []
    for name in names:
        lock = ProcessLock.parse(module.data_dir, name)
        if lock is None or lock.num_process < 2 or (lock.experiment_id, lock.num_process) == ours:
            continue
        if is_present(lock.path, since):
            found.append(lock)
    return found


def _listed(ids: list[int]) -> str:
    return ("process " if len(ids) == 1 else "processes ") + ", ".join(map(str, ids))


def failure_line(module: Any, error: BaseException, started: float) -> str | None:
    """The one line that says why evaluate's synchronisation of a distributed module failed
    (``error``: what evaluate raised in the call begun at ``started``, a ``time.time()``), or
    None when ``error`` is not such a failure. A peer counts as there when it is present
    (:func:`is_present`) since it could have been waiting for this call: ``timeout`` seconds
    before ``started``."""
    if getattr(module, "num_process", 1) < 2 or type(error) is not ValueError:
        return None
    text = str(error)
    me, total = module.process_id, module.num_process
    since = started - float(module.timeout) - _SLACK_S
    who = f"{module.name}: process {me} of {total} (experiment_id {module.experiment_id!r}, cache folder {module.data_dir})"
    waited = f"gave up after {time.time() - started:.0f} s (timeout {float(module.timeout):g} s)"
    if any(mark in text for mark in _TAKEN):
        return (f"{who} is already in use by another running process (two processes given process_id {me}, or an "
                f"earlier run not finished): give each process its own process_id, or use a new experiment_id")
    if any(mark in text for mark in _GATHERING):
        late = [p for p in range(1, total) if is_held(lock_path(module, p))]
        problem = f"{_listed(late)} did not call compute" if late else "the other processes did not finish"
    elif any(mark in text for mark in _JOINING):
        absent = [p for p in range(total) if p != me and not is_present(lock_path(module, p), since)]
        problem = f"{_listed(absent)} never joined" if absent else "process 0 did not let the processes start"
    else:
        return None
    seen = others_seen(module, since)
    hint = ("; seen in the cache folder meanwhile: " + ", ".join(lock.described() for lock in seen[:4])) if seen else ""
    return (f"{who} {waited}: {problem}{hint}. Every process needs the same experiment_id, num_process and cache_dir "
            f"(one folder all of them reach), its own process_id, and its own add_batch and compute calls; "
            f"evaluate.load(..., timeout=seconds) sets the wait")


def warn_order_dependence(module: Any, order_dependence: Callable[[Any], str | None] | None, references: Any) -> None:
    """On process 0 of a distributed module, one :class:`ExampleOrderWarning` when the metric
    says its score depends on the order of the examples (``order_dependence(references)``:
    why, or None)."""
    if getattr(module, "num_process", 1) < 2 or order_dependence is None:
        return
    why = order_dependence(references)
    if why:
        warnings.warn(f"{module.name} in evaluate's distributed mode: process 0 scores the examples in process order "
                      f"(process 0's, then process 1's, ...) and {why}, so the score equals one process's over the "
                      "examples in their order only when each process holds a contiguous, in-order shard (process 0 "
                      "the first examples); a strided split, as torch's DistributedSampler deals them, gives another "
                      "score", ExampleOrderWarning, stacklevel=3)
