"""How the leaderboard's local workers share a run: configurations grouped by the system-side
work they share, tasks (group, system) handed out by :class:`WorkQueue`."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.leaderboard.board import resolve
from gecscore.leaderboard.executor import work_groups
from gecscore.leaderboard.processes import JOIN_AT, WorkQueue
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.systems import SystemSource


def systems(n: int) -> list[SystemSource]:
    return [SystemSource(f"S{i}", Path(f"S{i}.txt")) for i in range(n)]


def test_configurations_reading_a_system_through_its_edits_are_one_group():
    configs, _ = resolve(["cleme2-corpus-*", "cleme-sentence-*", "m2", "errant", "imeasure", "gleu"], RunWide())
    groups = [[c.name for c in group] for group in work_groups(configs)]
    edits = next(g for g in groups if "cleme2-corpus-dep" in g)
    assert {"cleme-sentence-dep", "errant-corpus", "errant-sentence", "cleme2-corpus-ind"} <= set(edits)
    assert ["m2-corpus", "m2-sentence"] in groups and ["imeasure"] in groups and ["gleu"] in groups
    assert sorted(name for g in groups for name in g) == sorted(c.name for c in configs)


def test_a_worker_keeps_to_its_group_and_the_heaviest_goes_first():
    queue = WorkQueue([systems(3), systems(3), systems(3)], [1, 5, 2])
    first = queue.take(None, [])
    assert first[0] == 1                           # 3 systems x 5 configurations
    second = queue.take(None, [1])
    assert second[0] == 2                          # the heaviest nobody is on
    assert queue.take(1, [2])[0] == 1 and queue.take(2, [1])[0] == 2


def test_a_worker_joins_a_busy_group_only_while_enough_is_left():
    assert JOIN_AT == 2
    queue = WorkQueue([systems(4), systems(1)], [1, 1])
    assert queue.take(None, [])[0] == 0             # worker A
    assert queue.take(None, [0])[0] == 1            # worker B
    assert queue.take(1, [0])[0] == 0               # B's group is done; 3 left in A's: B joins
    assert queue.take(0, [0])[0] == 0               # A goes on (1 left)
    assert queue.take(0, [0]) is not None and queue.size == 0
    queue = WorkQueue([systems(3), systems(1)], [1, 1])
    queue.take(None, [])
    queue.take(None, [0])
    queue.take(0, [1])                              # A: 1 left in its group
    assert queue.take(1, [0]) is None               # B: not worth building A's reference side again
    assert queue.take(0, []) is not None and queue.size == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5), st.integers(1, 6), st.integers(1, 4), st.integers(0, 10**6))
def test_every_task_is_done_exactly_once_whatever_the_order(weights, n_systems, n_workers, seed):
    """Workers finishing in any order: each (group, system) is taken once, and the run ends
    with nothing left (a group with systems left always has a worker on it or gets one)."""
    rng = random.Random(seed)
    queue = WorkQueue([systems(n_systems) for _ in weights], list(weights))
    on: dict[int, int | None] = {w: None for w in range(n_workers)}
    busy: set[int] = set()
    taken = []

    def feed(worker: int) -> None:
        task = queue.take(on[worker], [on[w] for w in busy if w != worker])
        busy.discard(worker)
        if task is not None:
            taken.append((task[0], task[1].name))
            on[worker] = task[0]
            busy.add(worker)

    for worker in range(n_workers):
        feed(worker)
    while busy:
        feed(rng.choice(sorted(busy)))
    assert sorted(taken) == sorted((g, s.name) for g in range(len(weights)) for s in systems(n_systems))
    assert queue.size == 0


def test_joining_is_weighed_against_the_set_up_a_first_task_paid():
    """Once a group's tasks have times, a worker joins it only when the time left (systems
    left x median task) is more than its first task (the set-up the joiner pays, and one
    system)."""
    queue = WorkQueue([systems(10), systems(1)], [3, 1])
    assert queue.take(None, []) [0] == 0
    assert queue.take(None, [0])[0] == 1
    queue.record(0, 10.0)                            # set-up (7 s) and the first system
    queue.record(1, 1.0)
    queue.record(0, 3.0)
    queue.record(0, 3.0)
    for _ in range(5):
        queue.take(0, [1])
    assert len(queue.pending[0]) == 4 and queue.worth_joining(0)        # 4 x 3.0 > 10
    queue.take(0, [1])
    assert len(queue.pending[0]) == 3 and not queue.worth_joining(0)    # 3 x 3.0 < 10
    assert queue.take(1, [0]) is None


@pytest.mark.parametrize("torch_first", [False, True])
def test_a_worker_limits_the_blas_and_torch_threads(torch_first):
    """A worker's BLAS (spaCy's model multiplies through numpy's) and torch keep to their share
    of the CPUs, torch whether it is imported before the limit or after (checked in a fresh
    process: the limit lasts for the rest of it)."""
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    code = ("import json, numpy, threadpoolctl\n"
            + ("import torch\n" if torch_first else "")
            + "from gecscore.leaderboard.processes import limit_threads\n"
            "limit_threads(1)\n"
            "import torch\n"
            "blas = [p['num_threads'] for p in threadpoolctl.threadpool_info() if p['user_api'] == 'blas']\n"
            "print(json.dumps([blas, torch.get_num_threads()]))\n")
    blas, torch_threads = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                    check=True).stdout)
    assert blas and set(blas) == {1}
    assert torch_threads == 1
