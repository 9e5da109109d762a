"""The leaderboard on Dask distributed, on real processes: a ``LocalCluster`` (``local:2``) and a
scheduler with two ``dask worker`` processes started here on 127.0.0.1 (always killed in
teardown). The numbers must be those of the local run (the JSON output, less the timings);
on CoNLL-2014, a worker killed mid-run costs only its tasks."""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dask", reason="dask is not installed (pip install 'gecscore[dask]')")
distributed = pytest.importorskip("distributed", reason="distributed is not installed (pip install 'gecscore[dask]')")

from datapaths import CONLL14, GEC_DATA, REPO, require  # noqa: E402
from gecscore.errors import GecInputError  # noqa: E402
from gecscore.leaderboard import dask_cluster as leaderboard_dask  # noqa: E402
from gecscore.leaderboard.board import run_leaderboard  # noqa: E402
from gecscore.leaderboard.systems import discover_systems  # noqa: E402
from gecscore.benchdata.refsets import load_refset  # noqa: E402
from gecscore.leaderboard.dask_cluster import DaskCluster  # noqa: E402
from gecscore.leaderboard.processes import LocalProcesses  # noqa: E402
from gecscore.leaderboard.run_wide import RunWide  # noqa: E402
from tiny_board import write_tiny_board  # noqa: E402
from waiting import wait_until  # noqa: E402

# every model-free configuration (no BERTScore model, no judge)
MODEL_FREE = ["cleme2-corpus-*", "cleme2-sentence-*", "cleme-*", "m2", "errant", "imeasure", "gleu"]
START_S = 90.0   # bound on a scheduler or worker start (a loaded 2-core machine imports slowly)

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny")
    return (root, *write_tiny_board(root))



def as_json(board) -> str:
    """The leaderboard's JSON output less its timings (the only part that may differ)."""
    out = board.as_dict()
    out.pop("seconds")
    return json.dumps(out, sort_keys=True)


def same_within_tolerance(board, local, model_configs: set[str]) -> None:
    """The model-free numbers byte for byte, the model-backed ones within the tolerance that
    :mod:`gecscore.models` promises across processes (batching and threads may differ)."""
    from gecscore.models import SCORE_TOLERANCE

    def split(b) -> tuple[str, dict[str, float]]:
        out = b.as_dict()
        out.pop("seconds")
        model = {}
        for system, cells in out["systems"].items():
            for name in model_configs & set(cells):
                model[f"{system}/{name}"] = cells.pop(name)["score"]
        for name in model_configs:
            out.get("correlations", {}).pop(name, None)
        return json.dumps(out, sort_keys=True), model

    (exact, model), (exact_local, model_local) = split(board), split(local)
    assert exact == exact_local
    assert model.keys() == model_local.keys()
    assert model == pytest.approx(model_local, abs=SCORE_TOLERANCE, rel=0)


# ---------------------------------------------------------------- a cluster of real processes

def _env() -> dict[str, str]:
    env = dict(os.environ, TQDM_DISABLE="1")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "shared"), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _start(args: list[str], log: Path) -> subprocess.Popen:
    handle = log.open("w")
    try:
        return subprocess.Popen([sys.executable, "-m", *args], env=_env(), stdout=handle, stderr=subprocess.STDOUT,
                                start_new_session=True)
    finally:
        handle.close()


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 10 s: nothing outlives the test."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@dataclasses.dataclass
class Cluster:
    address: str
    scheduler: subprocess.Popen
    workers: dict[str, subprocess.Popen]


@contextlib.contextmanager
def cluster(folder: Path, workers: dict[str, list[str]]):
    """A ``dask scheduler`` and one ``dask worker`` per name (with its extra arguments), all on
    127.0.0.1, without nannies (a killed worker stays dead) or dashboards."""
    scheduler_file = folder / "scheduler.json"
    processes: list[subprocess.Popen] = []
    try:
        scheduler = _start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                            "--no-dashboard", "--scheduler-file", str(scheduler_file)], folder / "scheduler.log")
        processes.append(scheduler)
        deadline = time.monotonic() + START_S
        while not scheduler_file.exists():
            assert scheduler.poll() is None and time.monotonic() < deadline, (folder / "scheduler.log").read_text()
            time.sleep(0.2)
        time.sleep(0.2)   # the file is written whole, but let it land
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        started = {}
        for name, extra in workers.items():
            started[name] = _start(["distributed.cli.dask_worker", address, "--name", name, "--nthreads", "1",
                                    "--no-nanny", "--host", "127.0.0.1", "--no-dashboard", "--death-timeout", "60",
                                    *extra], folder / f"{name}.log")
            processes.append(started[name])
        if workers:
            with distributed.Client(address, timeout=START_S, set_as_default=False) as client:
                client.wait_for_workers(len(workers), timeout=START_S)
        yield Cluster(address, scheduler, started)
    finally:
        for process in reversed(processes):
            _stop(process)


def worker_states(address: str) -> dict[str, list[dict]]:
    """Per worker name: its kept reference states (key, tasks, what its reference data cached)."""
    def read(dask_worker):
        states = getattr(dask_worker, leaderboard_dask.STATE_ATTRIBUTE, {})
        return dask_worker.name, [{"key": key, "tasks": s.tasks, "cache": sorted(s.refs.cache)}
                                  for key, s in states.items()]

    with distributed.Client(address, timeout=START_S, set_as_default=False) as client:
        return dict(client.run(read).values())


# ---------------------------------------------------------------- tests

def test_scheduler_argument():
    assert leaderboard_dask.parse_scheduler("local:3") == ("local", 3)
    assert leaderboard_dask.parse_scheduler("tcp://10.0.0.1:8786") == ("address", "tcp://10.0.0.1:8786")
    for bad in ("local:0", "local:two", "10.0.0.1:8786"):
        with pytest.raises(GecInputError, match="--scheduler"):
            leaderboard_dask.parse_scheduler(bad)


def test_local_cluster_gives_the_local_numbers(tiny, capsys):
    """``gecscore leaderboard --scheduler local:2`` prints the JSON of the local run, byte for
    byte less the timings (every model-free configuration but the I-measure, which needs the
    XML gold that only the named reference sets have on the command line)."""
    from gecscore.cli import main

    root, _, _ = tiny
    command = ["leaderboard", "--m2", str(root / "gold.m2"), "--systems", str(root / "systems"),
               "--metrics", *[m for m in MODEL_FREE if m != "imeasure"], "--json"]

    def printed() -> str:
        out = json.loads(capsys.readouterr().out)
        out.pop("seconds")
        return json.dumps(out, sort_keys=True)

    assert main([*command, "--jobs", "2", "--scheduler", "local:2"]) != 0
    assert "not both" in capsys.readouterr().err
    assert main(command) == 0
    local = printed()
    assert main([*command, "--scheduler", "local:2"]) == 0
    on_dask = printed()
    assert on_dask == local
    board = json.loads(on_dask)
    assert len(board["configs"]) == 17
    assert {s: c["m2-corpus"]["score"] for s, c in board["systems"].items()} == pytest.approx(
        {"HALF": 5 / 11, "INPUT": 0.0, "PERFECT": 1.0})


def test_an_interrupted_run_leaves_the_output_and_no_process(tiny, monkeypatch, capsys):
    """A Ctrl-C (KeyboardInterrupt) as the first result arrives: status 130, the previous
    ``--out`` untouched, the ``local:2`` cluster's processes all gone."""
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the cells are scored (and interrupted), not read back
    import psutil

    from gecscore.cli import main

    root, _, _ = tiny
    out = root / "out"
    command = ["leaderboard", "--m2", str(root / "gold.m2"), "--systems", str(root / "systems"),
               "--metrics", "m2-corpus", "--out", str(out), "--no-plots"]
    assert main(command) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(leaderboard_dask, "collect", interrupt)
    assert main([*command, "--metrics", "m2-sentence", "--scheduler", "local:2"]) == 130
    assert "left as it was" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    def left() -> list[str]:
        """Child processes but multiprocessing's resource tracker (it lives as long as this one)."""
        commands = [" ".join(p.cmdline()) for p in psutil.Process().children(recursive=True) if p.is_running()]
        return [c for c in commands if "resource_tracker" not in c]

    wait_until(lambda: not left(), "the local cluster's processes exit", poll_s=0.2)


def test_workers_keep_their_reference_state_and_model_passes_go_to_the_gpu_worker(tiny, tmp_path, monkeypatch):
    """Two runs on one cluster: each worker builds its reference state once and reuses it for
    every task of both runs; the model pass runs on the worker declaring GPU=1 (a label here:
    it runs on its CPU), with the numbers of the local run; a task's error reaches the caller."""
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the cells are scored on the cluster, not read back
    from gecscore.models.bundled import local_minilm_dir

    root, refset, systems = tiny
    model = local_minilm_dir()
    names = ["m2-corpus", "cleme2-corpus-dep", "imeasure"] + (["pt_m2-corpus"] if model else [])
    run = RunWide(similarity={"model": model}) if model else None
    local = run_leaderboard(refset, systems, names, options=run, progress=False)
    with cluster(tmp_path, {"cpu": [], "gpu": ["--resources", "GPU=1"]}) as c:
        first = run_leaderboard(refset, systems, names, options=run, progress=False, executor=DaskCluster(c.address))
        second = run_leaderboard(refset, systems, names[:1], options=run, progress=False, executor=DaskCluster(c.address))
        states = worker_states(c.address)
        short = root / "short"
        short.mkdir()
        (short / "SHORT.txt").write_text("He goes home .\n")
        with pytest.raises(GecInputError, match="1 lines but the reference set"):
            run_leaderboard(refset, discover_systems(short), ["m2-corpus"], progress=False, executor=DaskCluster(c.address))
    same_within_tolerance(first, local, model_configs={"pt_m2-corpus"})
    assert second.column("m2-corpus") == local.column("m2-corpus")
    # one state per worker that ran anything (the same key on each); its task count covers both runs
    assert all(len(kept) <= 1 for kept in states.values())
    kept = [state for by_worker in states.values() for state in by_worker]
    assert len({state["key"] for state in kept}) == 1
    tasks = sum(state["tasks"] for state in kept)
    assert tasks == 2 * len(systems) + bool(model)   # a task per system per run (+ the model pass)
    if model:
        assert any(k.startswith("pair scorer:") for k in states["gpu"][0]["cache"])
        assert not any(k.startswith("pair scorer:") for kept in states.get("cpu", []) for k in kept["cache"])


@pytest.mark.realdata
@pytest.mark.slow
@pytest.mark.heavy
def test_conll14_on_a_cluster_with_a_worker_killed(tmp_path, monkeypatch):
    """The 13 CoNLL-2014 systems x every model-free configuration on two ``dask worker``
    processes; one is killed (SIGKILL) as soon as the first result arrives. Dask gives its
    tasks to the other, and the output equals the local run's."""
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the cells are scored (and interrupted), not read back
    require(CONLL14 / "official-2014.combined.m2")
    systems = discover_systems(require(CONLL14 / "systems"))
    assert len(systems) == 13
    refset = load_refset("conll14", GEC_DATA)
    local = run_leaderboard(refset, systems, MODEL_FREE, executor=LocalProcesses(2), progress=False)
    with cluster(tmp_path, {"w0": [], "w1": []}) as c:
        arrived = []
        collect = leaderboard_dask.collect

        def collect_then_kill(rows, *args):
            rows = list(rows)
            if not arrived:
                # 13 tasks on 2 workers: w1 is busy with one now (or about to be)
                os.kill(c.workers["w1"].pid, signal.SIGKILL)
            arrived.extend(rows)
            return collect(rows, *args)

        monkeypatch.setattr(leaderboard_dask, "collect", collect_then_kill)
        on_dask = run_leaderboard(refset, systems, MODEL_FREE, progress=False, executor=DaskCluster(c.address))
        assert c.workers["w1"].wait(10) == -signal.SIGKILL
        states = worker_states(c.address)
    assert len(arrived) == 13 and sorted(name for name, _, _ in arrived) == [s.name for s in systems]
    # the survivor did all but the one task whose result had already arrived from w1, if any
    assert list(states) == ["w0"] and states["w0"][0]["tasks"] >= 12
    assert as_json(on_dask) == as_json(local)


# ---------------------------------------------------------------- a cluster that fails (issue 32, item 4)

BOUND_S = 60.0   # what "ends" means: before this fix a silent listener never ended, a closed port took 36 s


def test_a_scheduler_address_needs_scheme_host_and_port():
    for bad in ("tcp://", "tcp://127.0.0.1", "tcp://127.0.0.1:", "tcp://:8786", "tcp://h:0", "tcp://h:70000",
                "foo://h:8786"):
        with pytest.raises(GecInputError, match="--scheduler"):
            leaderboard_dask.parse_scheduler(bad)
    assert leaderboard_dask.parse_scheduler("tls://[::1]:8786") == ("address", "tls://[::1]:8786")


@contextlib.contextmanager
def _silent_listener():
    """A port that accepts connections and never answers (not a Dask scheduler)."""
    import socket

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"


def _closed_port() -> str:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{probe.getsockname()[1]}"


@pytest.mark.parametrize("kind", ["closed port", "silent listener", "no port"])
def test_an_unreachable_scheduler_ends_in_the_connect_timeout_with_one_line(kind, tiny, capsys):
    from gecscore.cli import main

    root, _, _ = tiny
    out = root / f"out-{kind.replace(' ', '-')}"
    with contextlib.ExitStack() as stack:
        address = {"closed port": _closed_port, "no port": lambda: "tcp://127.0.0.1",
                   "silent listener": lambda: stack.enter_context(_silent_listener())}[kind]()
        started = time.monotonic()
        status = main(["leaderboard", "--m2", str(root / "gold.m2"), "--systems", str(root / "systems"),
                       "--metrics", "m2-corpus", "--out", str(out), "--scheduler", address, "--connect-timeout", "2"])
        elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "--scheduler" in err, err
    assert elapsed < BOUND_S
    assert not out.exists()


def test_a_scheduler_without_workers_and_a_bad_timeout_are_refused(tiny, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the cells are scored on the cluster, not read back
    from gecscore.cli import main

    root, refset, systems = tiny
    assert main(["leaderboard", "--m2", str(root / "gold.m2"), "--systems", str(root / "systems"),
                 "--connect-timeout", "0", "--scheduler", "local:1"]) == 2
    assert "--connect-timeout" in capsys.readouterr().err
    assert main(["leaderboard", "--m2", str(root / "gold.m2"), "--systems", str(root / "systems"),
                 "--connect-timeout", "3"]) == 2
    assert "give --scheduler" in capsys.readouterr().err
    with cluster(tmp_path, {}) as c:   # a scheduler, no worker
        with pytest.raises(leaderboard_dask.ClusterError, match="no worker"):
            run_leaderboard(refset, systems, ["m2-corpus"], progress=False, executor=DaskCluster(c.address, 2))


def test_losing_every_worker_mid_run_is_one_line_status_4_and_out_untouched(tmp_path, monkeypatch, capsys):
    """The only worker is killed as the first result arrives: the scattered reference set and
    the pending tasks are gone. The run stops with one line and status 4, ``--out`` as it was."""
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the cells are scored (and interrupted), not read back
    from gecscore.cli import main

    refset, _ = write_tiny_board(tmp_path)
    systems = tmp_path / "many"
    systems.mkdir()
    for k in range(60):   # enough tasks that some are pending when the first result arrives
        (systems / f"S{k:02d}.txt").write_text((tmp_path / "systems" / "HALF.txt").read_text())
    out = tmp_path / "out"
    with cluster(tmp_path, {"w0": []}) as c:
        collect = leaderboard_dask.collect

        def collect_then_kill(rows, *args):
            if c.workers["w0"].poll() is None:
                os.kill(c.workers["w0"].pid, signal.SIGKILL)
                c.workers["w0"].wait(10)
            return collect(rows, *args)

        monkeypatch.setattr(leaderboard_dask, "collect", collect_then_kill)
        status = main(["leaderboard", "--m2", str(tmp_path / "gold.m2"), "--systems", str(systems),
                       "--metrics", "m2-corpus", "--out", str(out), "--scheduler", c.address,
                       "--connect-timeout", "3", "--quiet"])
    err = capsys.readouterr().err
    assert status == 4 and err.count("\n") == 1 and "Nothing was written" in err, err
    assert not out.exists()


def test_pending_tasks_with_no_worker_left_end_after_the_connect_timeout(tmp_path):
    """A task that is not lost (no scattered data) but has no worker to run on: Dask would wait
    for one without end; the run stops after ``connect_timeout`` seconds without any worker."""
    with cluster(tmp_path, {"w0": []}) as c:
        with distributed.Client(c.address, timeout=START_S, set_as_default=False) as client:
            future = client.submit(time.sleep, 120, pure=False)
            deadline = time.monotonic() + START_S
            while not client.processing().get(next(iter(client.scheduler_info()["workers"]))):
                assert time.monotonic() < deadline
                time.sleep(0.1)
            os.kill(c.workers["w0"].pid, signal.SIGKILL)
            c.workers["w0"].wait(10)
            with pytest.raises(leaderboard_dask.ClusterError, match="no worker for 2 s"):
                list(leaderboard_dask.finished(client, [future], 2))


def test_a_worker_killed_mid_run_costs_only_its_tasks(tmp_path, monkeypatch):
    """The default run's version of the CoNLL-2014 test above (``make test-all``): 40 systems on
    two ``dask worker`` processes, one killed (SIGKILL) as the first result arrives; Dask gives
    its tasks to the other and the output equals the local run's."""
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the cells are scored (and interrupted), not read back
    refset, _ = write_tiny_board(tmp_path)
    many = tmp_path / "many"
    many.mkdir()
    for k in range(40):
        name = ("PERFECT", "HALF", "INPUT")[k % 3]
        (many / f"S{k:02d}.txt").write_text((tmp_path / "systems" / f"{name}.txt").read_text())
    systems = discover_systems(many)
    configs = ["m2-corpus", "cleme2-corpus-dep", "gleu"]
    local = run_leaderboard(refset, systems, configs, progress=False)
    with cluster(tmp_path, {"w0": [], "w1": []}) as c:
        collect = leaderboard_dask.collect

        def collect_then_kill(rows, *args):
            if c.workers["w1"].poll() is None:
                os.kill(c.workers["w1"].pid, signal.SIGKILL)
            return collect(rows, *args)

        monkeypatch.setattr(leaderboard_dask, "collect", collect_then_kill)
        on_dask = run_leaderboard(refset, systems, configs, progress=False, executor=DaskCluster(c.address))
        assert c.workers["w1"].wait(60) == -signal.SIGKILL
        states = worker_states(c.address)
    assert list(states) == ["w0"]
    assert as_json(on_dask) == as_json(local)
