"""On-disk cache of judge answers (SQLite), written and committed as each answer arrives.

Keyed by :meth:`JudgeRequest.cache_key` (backend, model, messages, sampling, attempt). A run
killed at any point leaves every finished answer committed, so a rerun repeats none of them.
Only successful answers are stored; API keys never reach the cache. A row answers only for its
own key: :meth:`JudgeCache.get` recomputes the key from the row's backend, model and request.
Rows are text (SQLite, JSON): reading them runs no code.

A cache file that does not exist yet is created with the first answer stored (or the first
batch request remembered), not when the cache is opened: a run whose every call failed (an
unreachable endpoint, a bad key) leaves no empty database behind. Opening still checks that the
file can be written there (:func:`gecscore.outputs.check_output_file`), so a bad path is an
error before any call.

A second table remembers the requests written to OpenAI Batch API files (``batch_pending``),
so that importing the provider's output needs only that output and this cache (see
:mod:`gecscore.judge.batch`).
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from gecscore.judge.types import JudgeRequest

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key      TEXT PRIMARY KEY,
    backend  TEXT NOT NULL,
    model    TEXT NOT NULL,
    request  TEXT NOT NULL,
    answer   TEXT NOT NULL,
    created  REAL NOT NULL
)
"""
_PENDING_SCHEMA = """
CREATE TABLE IF NOT EXISTS batch_pending (
    key      TEXT PRIMARY KEY,
    backend  TEXT NOT NULL,
    model    TEXT NOT NULL,
    request  TEXT NOT NULL,
    file     TEXT NOT NULL,
    created  REAL NOT NULL
)
"""


class JudgeCache:
    """A thread-safe SQLite answer cache at ``path`` (``":memory:"`` for a throwaway one). A
    file that does not exist yet is created by the first write (see the module docstring)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            from gecscore.outputs import check_output_file

            self.path = str(check_output_file(self.path, "judge cache"))
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if self.path == ":memory:" or Path(self.path).exists():
            with self._lock:
                self._connect()

    def _connect(self) -> sqlite3.Connection:
        """The open database, creating the file and its tables if need be (``_lock`` held)."""
        if self._db is None:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            try:
                self._initialise()
            except BaseException:
                self._db.close()
                self._db = None
                raise
        return self._db

    def _reader(self) -> sqlite3.Connection | None:
        """The open database for a read, or None while no file exists (``_lock`` held): another
        process may have created it since this cache was opened."""
        if self._db is None and Path(self.path).exists():
            self._connect()
        return self._db

    def _initialise(self, attempts: int = 60) -> None:
        """WAL mode and the table. Several processes opening a new cache at once (leaderboard
        workers) race for the exclusive lock that switching to WAL takes, and SQLite reports
        "database is locked" at once instead of waiting: retry, boundedly."""
        for attempt in range(attempts):
            try:
                if self.path != ":memory:":
                    mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
                    if mode.lower() != "wal":
                        self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute(_SCHEMA)
                self._db.execute(_PENDING_SCHEMA)
                self._db.commit()
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == attempts - 1:
                    raise
                time.sleep(0.05 * (1 + attempt % 5))

    def get(self, key: str) -> str | None:
        """The answer stored under ``key``, if the row answers for that key: the key of the row's
        own backend, model and request must be ``key`` (a row edited, or merged in from another
        cache under the wrong key, is deleted and read as a miss)."""
        with self._lock:
            db = self._reader()
            row = None if db is None else db.execute(
                "SELECT answer, backend, model, request FROM answers WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        answer, backend, model, request = row
        try:
            bound = JudgeRequest.from_record(json.loads(request)).cache_key(backend, model) == key
        except (ValueError, KeyError, TypeError, IndexError):
            bound = False
        if not bound:
            with self._lock:
                self._db.execute("DELETE FROM answers WHERE key = ?", (key,))
                self._db.commit()
            return None
        return answer

    def put(self, key: str, backend: str, model: str, request: JudgeRequest | dict, answer: str) -> None:
        """Store and commit one answer at once (so a kill right after loses nothing).
        ``request`` is the request or its :meth:`JudgeRequest.record`."""
        record = json.dumps(request.record() if isinstance(request, JudgeRequest) else request,
                            ensure_ascii=False)
        with self._lock:
            db = self._connect()
            db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?)",
                       (key, backend, model, record, answer, time.time()))
            db.execute("DELETE FROM batch_pending WHERE key = ?", (key,))
            db.commit()

    # ------------------------------------------------------------ batch bookkeeping

    def add_pending(self, rows: list[tuple[str, str, str, JudgeRequest]], file: str) -> None:
        """Remember requests ``(key, backend, model, request)`` written to the batch file ``file``."""
        now = time.time()
        with self._lock:
            db = self._connect()
            db.executemany("INSERT OR REPLACE INTO batch_pending VALUES (?, ?, ?, ?, ?, ?)",
                           [(key, backend, model, json.dumps(request.record(), ensure_ascii=False),
                             file, now) for key, backend, model, request in rows])
            db.commit()

    def pending(self, key: str) -> tuple[str, str, dict] | None:
        """``(backend, model, request record)`` of an exported request still without an answer."""
        with self._lock:
            db = self._reader()
            row = None if db is None else db.execute(
                "SELECT backend, model, request FROM batch_pending WHERE key = ?", (key,)).fetchone()
        return (row[0], row[1], json.loads(row[2])) if row else None

    def pending_count(self) -> int:
        with self._lock:
            db = self._reader()
            return 0 if db is None else db.execute("SELECT COUNT(*) FROM batch_pending").fetchone()[0]

    def __len__(self) -> int:
        with self._lock:
            db = self._reader()
            return 0 if db is None else db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> "JudgeCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
