"""Without a terminal a long run is never silent for more than the interval: a first line says
what is being done, the heartbeat writes the status while a step runs, and the leaderboard
counts its cells as they arrive (gecscore.progress, gecscore.leaderboard.executor). Driven by a
fake clock: nothing sleeps, nothing asserts on real time."""
from __future__ import annotations

import pytest

from gecscore import progress
from gecscore.leaderboard.executor import InProcess
from gecscore.leaderboard.processes import LocalProcesses
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.specs import resolve

from tiny_board import write_tiny_board


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def plain(monkeypatch):
    """Plain lines (stderr is not a terminal under pytest), not silenced, every 60 s."""
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    monkeypatch.setenv(progress.INTERVAL_ENV, "60")


def err_lines(capsys) -> list[str]:
    return capsys.readouterr().err.splitlines()


def test_a_first_line_then_the_status_whenever_the_interval_passes_without_one(plain, capsys):
    clock = FakeClock()
    bar = progress.PlainProgress(None, "scoring", 6, "cells", start="2 systems x 3 configurations = 6 cells",
                                 clock=clock)
    assert err_lines(capsys) == ["gecscore: scoring: 2 systems x 3 configurations = 6 cells"]
    bar.set_postfix_str("now m2-corpus")
    clock.now += 59
    bar.beat()
    assert err_lines(capsys) == [] and bar.seconds_to_next_line() == 1
    clock.now += 1
    bar.beat()
    assert err_lines(capsys) == ["gecscore: scoring: 0/6 cells (0%), 60 s, now m2-corpus"]
    clock.now += 30
    bar.update(2)            # 30 s after the last line: nothing yet
    bar.beat()
    assert err_lines(capsys) == [] and bar.seconds_to_next_line() == 30
    clock.now += 30
    bar.beat()
    assert err_lines(capsys) == ["gecscore: scoring: 2/6 cells (33%), 120 s, now m2-corpus"]
    clock.now += 70
    bar.update(1)            # an update past the interval writes the line itself
    bar.beat()
    assert err_lines(capsys) == ["gecscore: scoring: 3/6 cells (50%), 190 s, now m2-corpus"]
    clock.now += 5
    bar.close()
    bar.beat()               # closed: the heartbeat has nothing more to say
    assert err_lines(capsys) == ["gecscore: scoring: done, 3/6 cells (50%) in 195 s"]


def test_a_quick_run_says_only_its_first_line(plain, capsys):
    clock = FakeClock()
    with progress.PlainProgress(None, "scoring", 4, "cells", start="4 cells", clock=clock) as bar:
        clock.now += 10
        bar.update(4)
        bar.beat()
    assert err_lines(capsys) == ["gecscore: scoring: 4 cells"]


def test_the_heartbeat_waits_until_each_line_is_due(plain, capsys):
    """:meth:`Heartbeat.run` with a wait that moves the fake clock on by what it was asked to
    wait: a line at 60, 120 and 180 s, each wait the time to the next line."""
    clock = FakeClock()
    bar = progress.PlainProgress(None, "scoring", 10, "cells", clock=clock)
    asked: list[float] = []

    def wait(seconds: float) -> bool:
        asked.append(seconds)
        clock.now += seconds
        if len(asked) == 2:
            bar.update(1)        # work advanced meanwhile (no line: the last one was just written)
        return len(asked) > 3    # stopped on the fourth wait

    progress.Heartbeat(bar).run(wait)
    assert asked == [60, 60, 60, 60]
    assert err_lines(capsys) == ["gecscore: scoring: 0/10 cells (0%), 60 s", "gecscore: scoring: 1/10 cells (10%), 120 s",
                                 "gecscore: scoring: 1/10 cells (10%), 180 s"]


def test_the_heartbeat_thread_runs_while_the_bar_is_open(plain, capsys):
    with progress.bar(total=3, desc="scoring", start="3 cells", heartbeat=True) as bar:
        assert bar._heartbeat.thread.is_alive()
    assert not bar._heartbeat.thread.is_alive()

def test_no_heartbeat_without_an_interval(monkeypatch):
    """Interval 0 writes a line at every update; a timer waiting 0 s would spin."""
    monkeypatch.setenv(progress.INTERVAL_ENV, "0")
    assert progress.PlainProgress(None, "scoring", 3, heartbeat=True)._heartbeat is None


@pytest.mark.parametrize("executor", [InProcess(), LocalProcesses(2)], ids=["in-process", "workers"])
def test_the_leaderboard_announces_its_cells_and_counts_them_as_they_come(tmp_path, monkeypatch, capsys, executor):
    """Three systems x two configurations: the first line says 6 cells; every line after it
    (interval 0: one per update) counts the cells scored so far, one more each (a row is one
    system under one configuration, from this process's passes or from a worker's task), and
    in this process names the configuration whose pass is running."""
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    monkeypatch.setenv(progress.INTERVAL_ENV, "0")
    refset, systems = write_tiny_board(tmp_path)
    configs, _ = resolve(["m2-corpus", "gleu"], RunWide())
    executor.score(refset, systems, configs, RunWide(), progress=True)
    lines = [line for line in err_lines(capsys) if line.startswith("gecscore: scoring systems")]
    assert lines[0] == f"gecscore: scoring systems on {refset.name}: 3 systems x 2 configurations = 6 cells"
    assert [line.split(": ")[2].split(" ")[0] for line in lines[1:]] == [f"{n}/6" for n in range(1, 7)] + ["done,"]
    assert lines[-1].startswith(f"gecscore: scoring systems on {refset.name}: done, 6/6 cells (100%) in ")
    if isinstance(executor, InProcess):
        assert [line.rsplit(", now ", 1)[1] for line in lines[1:-1]] == [configs[0].name] * 3 + [configs[1].name] * 3
