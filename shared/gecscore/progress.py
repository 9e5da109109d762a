"""Progress for long work, on stderr, never on stdout.

On a terminal: tqdm bars. Without one (a log file, CI, a pipe): a few plain lines at coarse
intervals (``PLAIN_INTERVAL_S``, or ``$GECSCORE_PROGRESS_INTERVAL`` seconds) so that a run of
minutes is not silent, then one line when the work is done. ``TQDM_DISABLE`` (any non-empty
value but 0/false) or the CLI's ``--quiet`` silences both.

A plain line is written when the work advances and the interval has passed since the last
one; so a step longer than the interval (one configuration over every system, or waiting on
worker processes) would leave the log silent. A bar asked for with ``heartbeat=True`` (a
command's whole run, e.g. the leaderboard's cells) therefore has a timer thread
(:class:`Heartbeat`) writing its status whenever nothing was written for the interval, and
``start=`` writes a first line at once saying what is being done and how much of it there is.

Whenever gecscore's own progress is off, the progress bars and chatter of the libraries it
drives (transformers' "Loading weights" bar, huggingface_hub's download bars, their info
logging) are off too: :func:`quiet_libraries`, called where a model is loaded and by
:func:`silence`, is the one place that decides it.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Callable, Iterable, Iterator

from tqdm.auto import tqdm

QUIET_ENV = "TQDM_DISABLE"
INTERVAL_ENV = "GECSCORE_PROGRESS_INTERVAL"
PLAIN_INTERVAL_S = 60.0
# the process (not its workers) whose long work logs plain lines even where a caller asked for
# no bar (the CLI: a metric object asks for none, being built for training loops too)
_PLAIN_LINES_PID: int | None = None
# held while a plain line is written, and by a fork (os.register_at_fork below): a worker process
# forked while a heartbeat thread writes would inherit sys.stderr's lock held by a thread it
# does not have, and block on its first write
_WRITING = threading.Lock()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_WRITING.acquire, after_in_parent=_WRITING.release,
                        after_in_child=_WRITING.release)


def log_plain_lines() -> None:
    """In this process (a command line run), log plain progress lines without a terminal even
    for work whose caller asked for no bar; worker processes it starts stay silent."""
    global _PLAIN_LINES_PID
    _PLAIN_LINES_PID = os.getpid()


def silenced() -> bool:
    """``$TQDM_DISABLE`` is set to a true value (``--quiet`` sets it)."""
    return os.environ.get(QUIET_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _stderr_is_terminal() -> bool:
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def wanted(requested: bool = True, size: int | None = None, minimum: int = 0) -> bool:
    """Whether to show a bar: asked for, work at least ``minimum`` items, stderr a terminal
    and not silenced."""
    if not requested or (size is not None and size < minimum):
        return False
    if silenced():
        return False
    return _stderr_is_terminal()


def plain_wanted(requested: bool = True, size: int | None = None, minimum: int = 0) -> bool:
    """Whether to log plain progress lines: asked for (or this is the command-line process, see
    :func:`log_plain_lines`), large enough, not silenced, and stderr not a terminal (where a bar
    is drawn instead)."""
    requested = requested or _PLAIN_LINES_PID == os.getpid()
    if not requested or (size is not None and size < minimum) or silenced():
        return False
    return not _stderr_is_terminal()


def plain_interval() -> float:
    """Seconds between plain progress lines (``$GECSCORE_PROGRESS_INTERVAL``, default 60)."""
    try:
        return max(0.0, float(os.environ.get(INTERVAL_ENV, PLAIN_INTERVAL_S)))
    except ValueError:
        return PLAIN_INTERVAL_S


class PlainProgress:
    """The part of tqdm's interface gecscore uses (iterate, ``update``, ``set_postfix_str``,
    ``with``, ``close``), writing ``gecscore: <desc>: n/total <unit> (p%), <s> s[, <postfix>]``
    to stderr at most every :func:`plain_interval` seconds when the work advances, and a last
    line when done if any progress line was written.

    ``start``: a line written at once (what the work is and how much). ``heartbeat``: a timer
    thread (:class:`Heartbeat`) also writes the status whenever nothing was written for the
    interval, so a long step between updates is not silent; it stops on :meth:`close`.
    ``clock``: seconds, monotonic (tests pass a fake one)."""

    def __init__(self, iterable: Iterable | None, desc: str, total: int | None, unit: str = "it", *,
                 start: str | None = None, heartbeat: bool = False, clock: Callable[[], float] = time.monotonic):
        self.iterable = iterable
        self.desc = desc
        self.total = total
        self.unit = unit
        self.n = 0
        self.postfix = ""
        self.interval = plain_interval()
        self.clock = clock
        self.start = self.last = clock()
        self.lines = 0          # progress lines written (not the start line)
        self.closed = False
        self._lock = threading.RLock()
        if start:
            self._write(start)
        self._heartbeat = Heartbeat(self) if heartbeat and self.interval > 0 else None
        if self._heartbeat is not None:
            self._heartbeat.start()

    def _write(self, text: str) -> None:
        with _WRITING:
            print(f"gecscore: {self.desc}: {text}", file=sys.stderr, flush=True)

    def _line(self, text: str) -> None:
        self._write(text)
        self.lines += 1

    def _counts(self) -> str:
        if self.total:
            return f"{self.n}/{self.total} {self.unit} ({100 * self.n / self.total:.0f}%)"
        return f"{self.n} {self.unit}"

    def _status(self, now: float) -> str:
        return f"{self._counts()}, {now - self.start:.0f} s" + (f", {self.postfix}" if self.postfix else "")

    def update(self, n: int = 1) -> None:
        with self._lock:
            self.n += n
            self._line_if_due()

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        """What is being done now (tqdm's postfix), shown at the end of the next line."""
        with self._lock:
            self.postfix = s

    def beat(self) -> None:
        """The status line, if nothing was written for the interval (the heartbeat's call)."""
        with self._lock:
            if not self.closed:
                self._line_if_due()

    def _line_if_due(self) -> None:
        now = self.clock()
        if now - self.last >= self.interval:
            self.last = now
            self._line(self._status(now))

    def seconds_to_next_line(self) -> float:
        """Seconds until a line is due (0 when it is)."""
        with self._lock:
            return max(0.0, self.last + self.interval - self.clock())

    def __iter__(self) -> Iterator:
        try:
            for item in self.iterable if self.iterable is not None else ():
                yield item
                self.update()
        finally:
            self.close()

    def close(self) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = True
            if self.lines:
                self._line(f"done, {self._counts()} in {self.clock() - self.start:.0f} s")
        if self._heartbeat is not None:
            self._heartbeat.stop()

    def __enter__(self) -> "PlainProgress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Heartbeat:
    """A daemon thread calling ``progress.beat()`` each time a line falls due
    (``progress.seconds_to_next_line()``) until :meth:`stop`. ``wait(seconds)`` returns
    True once stopped (an Event's ``wait``; :meth:`run` takes another, tests drive it
    without sleeping)."""

    def __init__(self, progress: PlainProgress):
        self.progress = progress
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, name="gecscore-progress", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def run(self, wait: Callable[[float], bool] | None = None) -> None:
        wait = wait or self.stopped.wait
        while not wait(self.progress.seconds_to_next_line()):
            self.progress.beat()

    def stop(self) -> None:
        self.stopped.set()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(1.0)


def bar(iterable: Any = None, *, desc: str, total: int | None = None, requested: bool = True,
        minimum: int = 0, start: str | None = None, heartbeat: bool = False, **options: Any) -> tqdm | PlainProgress:
    """A tqdm bar on stderr when :func:`wanted`; plain progress lines when stderr is not a
    terminal (:func:`plain_wanted`; ``start`` and ``heartbeat`` as :class:`PlainProgress`
    takes them: a first line, and a line at least every interval while the bar is open);
    otherwise a disabled bar."""
    if total is None and iterable is not None and hasattr(iterable, "__len__"):
        total = len(iterable)
    if plain_wanted(requested, total, minimum):
        return PlainProgress(iterable, desc, total, options.get("unit", "it"), start=start, heartbeat=heartbeat)
    return tqdm(iterable, desc=desc, total=total, file=sys.stderr, leave=False,
                disable=not wanted(requested, total, minimum), **options)


def quiet_libraries(requested: bool = True) -> None:
    """Turn off transformers' and huggingface_hub's progress bars and info logging when
    gecscore's own progress is off (not asked for, silenced, or stderr not a terminal): before
    they are imported through their environment variables, after it through their switches.
    Call it before loading a model."""
    if wanted(requested):
        return
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    if "huggingface_hub" in sys.modules:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()
    if "transformers" in sys.modules:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
        transformers_logging.set_verbosity_error()


def silence() -> None:
    """Silence every bar and progress line of this process (and of the worker processes it
    starts), the libraries' included."""
    os.environ[QUIET_ENV] = "1"
    quiet_libraries(False)
