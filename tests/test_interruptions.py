"""`gecscore leaderboard` interrupted: SIGINT (to the process group, as Ctrl-C sends it) and
SIGTERM (to the main process) stop the worker processes within seconds, leave no orphans, and
the output folder keeps the previous run whole. An output that cannot be written fails before
any scoring. The data is made here: random M2 gold and systems, big enough to keep two workers
busy for tens of seconds.

The seconds from the signal to the exit are printed (``pytest -s``), not asserted.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from waiting import HANG_GUARD_S, wait_until

from gecscore.cli import main
from gecscore.leaderboard import report
from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.systems import discover_systems
from gecscore.benchdata.refsets import load_refset

SRC = Path(__file__).resolve().parents[1] / "shared"


def make_data(root: Path, sentences: int, systems: int, seed: int = 0) -> tuple[Path, Path]:
    """``root/gold.m2`` and ``root/hyp/SYSnn.m2``: 25-token sentences with 3 one-token edits."""
    rng = random.Random(seed)
    gold, hyps = [], {f"SYS{k:02d}": [] for k in range(systems)}

    def edits() -> str:
        return "\n".join(f"A {i} {i + 1}|||R:X|||c{rng.randrange(3)}|||REQUIRED|||-NONE-|||0"
                         for i in sorted(rng.sample(range(25), 3)))

    for _ in range(sentences):
        source = "S " + " ".join(f"w{rng.randrange(50)}" for _ in range(25))
        gold.append(f"{source}\n{edits()}")
        for lines in hyps.values():
            lines.append(f"{source}\n{edits()}")
    root.mkdir(parents=True, exist_ok=True)
    (root / "gold.m2").write_text("\n\n".join(gold) + "\n")
    (root / "hyp").mkdir(exist_ok=True)
    for name, lines in hyps.items():
        (root / "hyp" / f"{name}.m2").write_text("\n\n".join(lines) + "\n")
    return root / "gold.m2", root / "hyp"


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    if not Path("/proc/self/task").is_dir():
        pytest.skip("needs /proc to see the worker processes")
    root = tmp_path_factory.mktemp("interrupt")
    big = make_data(root / "big", sentences=2000, systems=24)
    small = make_data(root / "small", sentences=5, systems=3, seed=1)
    return root, big, small


def previous_run(out: Path, small) -> dict[str, bytes]:
    gold, hyp = small
    board = run_leaderboard(load_refset(gold), discover_systems(None, hyp), ["m2-corpus"], progress=False)
    report.write_leaderboard(board, out)
    return tree(out)


@pytest.mark.parametrize("signum, to_group", [(signal.SIGTERM, False), (signal.SIGINT, True)])
def test_signal_stops_workers_and_keeps_the_previous_output(data, signum, to_group):
    root, (gold, hyp), small = data
    out = root / f"out-{signum.name}"
    before = previous_run(out, small)
    command = [sys.executable, "-m", "gecscore", "leaderboard", "--m2", str(gold), "--hyp-m2-dir", str(hyp),
               "--metrics", "cleme2-corpus-dep", "--jobs", "2", "--out", str(out), "--no-plots"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(SRC), "GECSCORE_NO_CACHE": "1"},
                               start_new_session=True)   # scored, not read from the cells of a run before
    try:
        workers: set[int] = set()

        def started() -> bool:
            nonlocal workers
            workers = children(process.pid)
            return len(workers) >= 2 or process.poll() is not None

        wait_until(started, "the two workers start")
        assert len(workers) >= 2, "the workers never started"
        time.sleep(1.0)  # let them get busy scoring
        assert process.poll() is None, "the run finished before it could be interrupted"
        sent = time.monotonic()
        if to_group:
            os.killpg(process.pid, signum)
        else:
            os.kill(process.pid, signum)
        stdout, stderr = process.communicate(timeout=HANG_GUARD_S)   # the event: it exits
        stopped = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 128 + signum, stderr
    assert f"stopped by {signum.name}" in stderr and "Traceback" not in stderr
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers exit (orphaned workers)")
    assert tree(out) == before  # the previous run, whole
    assert not [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]
    print(f"\n{signum.name}: {len(workers)} workers stopped, exit {stopped:.2f} s after the signal")


def test_unwritable_output_fails_before_scoring(data, capsys):
    root, (gold, hyp), _ = data
    blocker = root / "a-file"
    blocker.write_text("not a folder")
    for out in (blocker, blocker / "out"):
        code = main(["leaderboard", "--m2", str(gold), "--hyp-m2-dir", str(hyp), "--metrics", "m2-corpus",
                     "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 2 and str(blocker) in err
        assert "scoring systems" not in err  # no progress bar: nothing was scored
    assert blocker.read_text() == "not a folder"


def test_a_folder_with_other_files_is_refused_before_scoring(data, capsys):
    root, (gold, hyp), _ = data
    out = root / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("precious")
    code = main(["leaderboard", "--m2", str(gold), "--hyp-m2-dir", str(hyp), "--metrics", "m2-corpus",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "thesis.tex" in err and "scoring systems" not in err
    assert tree(out) == {"thesis.tex": b"precious"}


def test_failed_write_keeps_the_previous_run(data, monkeypatch):
    root, _, small = data
    out = root / "out-write"
    before = previous_run(out, small)
    gold, hyp = small
    board = run_leaderboard(load_refset(gold), discover_systems(None, hyp), ["m2-corpus", "m2-sentence"],
                            progress=False)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(report, "_write_scores_csv", broken)
    with pytest.raises(OSError, match="disk full"):
        report.write_leaderboard(board, out)
    assert tree(out) == before
    monkeypatch.undo()
    written = report.write_leaderboard(board, out)  # a complete run replaces it as a whole
    assert sorted(p.name for p in written) == ["leaderboard.json", "leaderboard.md", "scores.csv"]
    assert "m2-sentence" in (out / "scores.csv").read_text()
    assert not [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]
