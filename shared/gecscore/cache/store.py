"""A bounded on-disk store of values under content keys (:mod:`gecscore.cache.keys`).

Where: ``$GECSCORE_CACHE_DIR``, else ``$XDG_CACHE_HOME/gecscore/store``, else
``~/.cache/gecscore/store`` (:func:`gecscore.user_folders.store_folder`); with none of these (no
home folder: ``HOME`` unset and no passwd entry) the store is off and scoring goes on without it.
Off with ``GECSCORE_NO_CACHE=1`` (or ``--no-cache`` on the command line). Bounded by
``$GECSCORE_CACHE_MAX_BYTES`` (default 2 GiB): after a write the least recently used entries (a
hit refreshes an entry's time) go until the store fits. The store is looked over (every file's
size and time) after a write that could take it past its bound (its size when last looked over,
plus what this process has written since) and, for what other processes write, at least every
:data:`EVICT_SCAN_S` seconds of writing: looking it over after every write made a leaderboard's
234 cells cost 2 s of scanning.

Each entry is one file, ``<namespace>/<2 hex>/<key>``::

    gecscore-cache 2 pickle|pickle+zlib\n
    <namespace>/<key>\n
    <SHA-256 of the line above and the payload>\n
    <payload: a pickle, zlib-compressed above 1 MiB>

Safety:

- **an entry answers only for its own key**: the namespace and key are inside what the
  checksum covers, and a read checks them against what was asked, so a file copied, renamed,
  restored or synced into another entry's place is a miss (deleted), never another key's
  value; callers also check the value against what they asked for (the system, the
  configuration, the sentences) before using it;
- **reading runs no code**: payloads are unpickled by
  :class:`gecscore.cache.safe_pickle.RestrictedUnpickler`, which builds only plain data, NumPy
  arrays, gecscore's dataclasses and its registered statistic functions; an entry naming
  anything else is a miss. And, as pip does with its cache, a store folder (or any folder or
  entry in it) that another user owns or that group or others can write is not read at all:
  one warning line, then the run goes on without the store (the numbers are the same);
- **concurrent processes**: an entry is written to a temporary file beside it and renamed into
  place (atomic on POSIX), so a reader sees a whole entry or none; two writers of one key write
  the same bytes; a file evicted or replaced under a reader is a miss;
- **killed writers**: their temporary files (``.tmp-*``) count against the bound and in
  :meth:`DiskCache.info`, go when older than :data:`STALE_TEMPORARY_S` at the next eviction,
  and all go with :meth:`DiskCache.clear`;
- **damage** (a truncated file, flipped bytes, a pickle of another layout): the checksum or
  the unpickling fails, the entry is deleted and read as a miss, never returned.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import stat as stat_module
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from gecscore.cache import safe_pickle
from gecscore.user_folders import CACHE_DIR_ENV, store_folder, unsafe_reason

NO_CACHE_ENV = "GECSCORE_NO_CACHE"
MAX_BYTES_ENV = "GECSCORE_CACHE_MAX_BYTES"
DEFAULT_MAX_BYTES = 2 << 30
EVICT_SCAN_S = 1.0
MAGIC = b"gecscore-cache 2 pickle\n"
#: an entry whose payload is zlib-compressed (payloads over COMPRESS_ABOVE bytes: a GLEU cell's
#: 1,312 x 5,000 statistics are 52 MB as a pickle, 1.4 MB compressed)
MAGIC_ZLIB = b"gecscore-cache 2 pickle+zlib\n"
COMPRESS_ABOVE = 1 << 20
TEMPORARY_PREFIX = ".tmp-"
#: a temporary file older than this (seconds) belongs to a writer that died: a live one renames
#: its file into place within the time it takes to write one entry
STALE_TEMPORARY_S = 3600.0
_MISSING = object()


def default_dir() -> Path:
    """The store's folder (:func:`gecscore.user_folders.store_folder`); a one-line
    :class:`~gecscore.errors.GecInputError` where there is none (``gecscore cache`` needs one;
    scoring does not: :func:`default_store` is then None)."""
    folder = store_folder()
    if folder is None:
        from gecscore.errors import GecInputError

        raise GecInputError(f"no folder for the persistent cache: no home folder (HOME unset and no passwd "
                            f"entry) and no absolute $XDG_CACHE_HOME; set ${CACHE_DIR_ENV}")
    return folder


def enabled() -> bool:
    return os.environ.get(NO_CACHE_ENV, "").strip().lower() not in ("1", "true", "yes")


def max_bytes() -> int:
    value = os.environ.get(MAX_BYTES_ENV)
    if not value:
        return DEFAULT_MAX_BYTES
    try:
        parsed = int(value)
    except ValueError:
        parsed = -1
    if parsed < 0:
        from gecscore.errors import GecInputError

        raise GecInputError(f"${MAX_BYTES_ENV}={value!r}: give a number of bytes (0 or more)")
    return parsed


@dataclass(frozen=True)
class StoreInfo:
    """What the store holds on disk: entries, and the temporary files of writers (live or killed)."""

    path: str
    entries: int
    bytes: int            # every file on disk: entries and temporary files
    max_bytes: int
    by_namespace: dict[str, tuple[int, int]]   # namespace -> (entries, bytes)
    temporary: tuple[int, int] = (0, 0)        # (files, bytes) of temporary files

    def as_dict(self) -> dict:
        return {"path": self.path, "entries": self.entries, "bytes": self.bytes, "max_bytes": self.max_bytes,
                "namespaces": {n: {"entries": e, "bytes": b} for n, (e, b) in sorted(self.by_namespace.items())},
                "temporary": {"files": self.temporary[0], "bytes": self.temporary[1]}}


class DiskCache:
    """The store at ``root`` holding at most ``limit`` bytes (see the module docstring)."""

    def __init__(self, root: str | Path, limit: int = DEFAULT_MAX_BYTES):
        self.root = Path(root)
        self.limit = limit
        self.hits = 0
        self.misses = 0
        self._safe_folders: set[Path] = set()
        self.refused: str | None = None   # why the store is not used, once a folder was found unsafe
        self._scanned: tuple[float, int] | None = None   # (when, total bytes) at the last look over
        self._written = 0                                 # bytes this process wrote since

    def _path(self, namespace: str, key: str) -> Path:
        return self.root / namespace / key[:2] / key

    def _safe(self, folder: Path) -> bool:
        """Whether ``folder`` and the folders between it and the root may be read (checked
        once per folder and store); the first unsafe one turns the store off, with one warning."""
        if self.refused is not None:
            return False
        chain = []
        while folder not in self._safe_folders:
            chain.append(folder)
            if folder == self.root or self.root not in folder.parents:
                break
            folder = folder.parent
        for each in chain:
            reason = unsafe_reason(each)
            if reason is not None:
                self._refuse(reason)
                return False
        self._safe_folders.update(chain)
        return True

    def _refuse(self, reason: str) -> None:
        self.refused = reason
        _warn_once(f"gecscore: not using the cache at {self.root}: {reason}; scoring without it "
                   f"(make it yours and not group/other-writable, or set ${CACHE_DIR_ENV}; docs/cache.md)")

    def get(self, namespace: str, key: str, default: Any = None) -> Any:
        path = self._path(namespace, key)
        if not self._safe(path.parent):
            self.misses += 1
            return default
        try:
            with open(path, "rb") as handle:
                reason = unsafe_reason(path, os.fstat(handle.fileno()))
                data = None if reason else handle.read()
        except OSError:   # absent, evicted under us, unreadable: a miss
            self.misses += 1
            return default
        if data is None:
            self._refuse(reason)
            self.misses += 1
            return default
        value = _decode(data, namespace, key)
        if value is _MISSING:
            self._discard(path)
            self.misses += 1
            return default
        try:
            os.utime(path)   # recently used: evicted last
        except OSError:
            pass
        self.hits += 1
        return value

    def put(self, namespace: str, key: str, value: Any) -> None:
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        magic = MAGIC
        if len(payload) > COMPRESS_ABOVE:
            payload, magic = zlib.compress(payload, 1), MAGIC_ZLIB
        identity = f"{namespace}/{key}\n".encode()
        size = len(magic) + len(identity) + 65 + len(payload)   # 65: the checksum line
        if size > self.limit:
            return
        path = self._path(namespace, key)
        try:
            for folder in (self.root, path.parent.parent, path.parent):
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not self._safe(path.parent):
                return
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=TEMPORARY_PREFIX)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(magic + identity + _checksum(identity, payload) + b"\n")
                    out.write(payload)
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:   # a read-only or full disk: the cache is an optimisation, never an error
            return
        self._written += size
        scanned = self._scanned
        if (scanned is None or scanned[1] + self._written > self.limit
                or time.monotonic() - scanned[0] > EVICT_SCAN_S):
            self.evict()

    def evict(self) -> None:
        """Delete the temporary files of dead writers (older than :data:`STALE_TEMPORARY_S`),
        then the least recently used entries until the store holds at most ``limit`` bytes
        (temporary files of live writers count, but are not deleted)."""
        now = time.time()
        entries, total = [], 0
        for path, size, mtime, temporary in self._files():
            if temporary and now - mtime > STALE_TEMPORARY_S:
                self._discard(path)
                continue
            total += size
            if not temporary:
                entries.append((path, size, mtime))
        if total > self.limit:
            for path, size, _ in sorted(entries, key=lambda e: e[2]):
                self._discard(path)
                total -= size
                if total <= self.limit:
                    break
        self._scanned, self._written = (time.monotonic(), total), 0

    def clear(self) -> int:
        """Delete every entry and every temporary file; the number of entries deleted."""
        count = 0
        for path, _, _, temporary in list(self._files()):
            self._discard(path)
            count += not temporary
        return count

    def info(self) -> StoreInfo:
        by: dict[str, list[int]] = {}
        temporary = [0, 0]
        for path, size, _, is_temporary in self._files():
            counts = temporary if is_temporary else by.setdefault(path.relative_to(self.root).parts[0], [0, 0])
            counts[0] += 1
            counts[1] += size
        entry_bytes = sum(c[1] for c in by.values())
        return StoreInfo(str(self.root), sum(c[0] for c in by.values()), entry_bytes + temporary[1],
                         self.limit, {n: (c[0], c[1]) for n, c in by.items()}, (temporary[0], temporary[1]))

    def _files(self) -> Iterator[tuple[Path, int, float, bool]]:
        """Every file of the store: (path, size, modification time, whether it is temporary).
        Read with ``os.scandir`` (every write scans the store to keep its bound: pathlib's
        glob and a stat per file cost several times more, and a leaderboard writes hundreds
        of cells)."""
        for namespace in _subfolders(self.root):
            for shard in _subfolders(namespace.path):
                try:
                    with os.scandir(shard.path) as files:
                        for entry in files:
                            try:
                                stat = entry.stat(follow_symlinks=False)
                            except OSError:
                                continue
                            if stat_module.S_ISREG(stat.st_mode):
                                yield (Path(entry.path), stat.st_size, stat.st_mtime,
                                       entry.name.startswith(TEMPORARY_PREFIX))
                except OSError:
                    continue

    def discard(self, namespace: str, key: str) -> None:
        """Delete the entry under ``key`` (a caller found its value is not for what it asked)."""
        self._discard(self._path(namespace, key))

    @staticmethod
    def _discard(path: Path) -> None:
        try:
            path.unlink()
        except OSError:
            pass


def _subfolders(folder: str | Path) -> list[os.DirEntry]:
    """The folders in ``folder`` (not followed through links); none when it cannot be read."""
    try:
        with os.scandir(folder) as entries:
            return [entry for entry in entries if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return []


_WARNED: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        print(message, file=sys.stderr)


def _checksum(identity: bytes, payload: bytes | memoryview) -> bytes:
    hash_ = hashlib.sha256(identity)
    hash_.update(payload)
    return hash_.hexdigest().encode()


def _decode(data: bytes, namespace: str, key: str) -> Any:
    """The value of an entry's bytes, or ``_MISSING`` when they are damaged in any way, belong
    to another key, or name a global a gecscore value is not made of (read through a
    memoryview: a large entry is not copied to be checked)."""
    compressed = data.startswith(MAGIC_ZLIB)
    if not compressed and not data.startswith(MAGIC):
        return _MISSING
    start = len(MAGIC_ZLIB if compressed else MAGIC)
    identity = f"{namespace}/{key}\n".encode()
    if data[start:start + len(identity)] != identity:
        return _MISSING
    start += len(identity)
    end = data.find(b"\n", start)
    if end < 0:
        return _MISSING
    payload = memoryview(data)[end + 1:]
    if _checksum(identity, payload) != data[start:end]:
        return _MISSING
    try:
        return safe_pickle.loads(zlib.decompress(payload) if compressed else payload)
    except Exception:   # noqa: BLE001 - a layout this code cannot read, or an unsafe one: a miss
        return _MISSING


@contextlib.contextmanager
def disabled() -> Iterator[None]:
    """The store off for the block (``--no-cache``): through the environment, so that worker
    processes started inside the block see it too; the previous value is restored after."""
    previous = os.environ.get(NO_CACHE_ENV)
    os.environ[NO_CACHE_ENV] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(NO_CACHE_ENV, None)
        else:
            os.environ[NO_CACHE_ENV] = previous


def default_store() -> DiskCache | None:
    """The user's store, or None when the cache is off or has no folder (no home folder and
    neither ``$GECSCORE_CACHE_DIR`` nor an absolute ``$XDG_CACHE_HOME``: scoring goes on
    without it, as with a store that cannot be written)."""
    if not enabled():
        return None
    folder = store_folder()
    return None if folder is None else DiskCache(folder, max_bytes())


def remembered(namespace: str, key: str, compute: Callable[[], Any],
               answers: Callable[[Any], bool] | None = None) -> Any:
    """The value under ``key`` in the user's store, else ``compute()`` (stored for next time);
    just ``compute()`` when the cache is off. ``answers(value)`` says whether a stored value is
    one for what the caller asks (its length, its sentences): one that is not is deleted and
    computed again."""
    store = default_store()
    if store is None:
        return compute()
    value = store.get(namespace, key, _MISSING)
    if value is not _MISSING and answers is not None and not answers(value):
        store.discard(namespace, key)
        value = _MISSING
    if value is _MISSING:
        value = compute()
        store.put(namespace, key, value)
    return value
