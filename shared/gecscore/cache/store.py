"""A bounded on-disk store of pickled values under content keys (:mod:`gecscore.cache.keys`).

Where: ``$GECSCORE_CACHE_DIR``, else ``$XDG_CACHE_HOME/gecscore/store``, else
``~/.cache/gecscore/store``. Off with ``GECSCORE_NO_CACHE=1`` (or ``--no-cache`` on the command
line). Bounded by ``$GECSCORE_CACHE_MAX_BYTES`` (default 2 GiB): after each write the least
recently used entries (a hit refreshes an entry's time) go until the store fits.

Each entry is one file, ``<namespace>/<2 hex>/<key>``: a magic line, the SHA-256 of the payload
and the payload (a pickle, zlib-compressed above 1 MiB: the magic line says which). Safety:

- **concurrent processes**: an entry is written to a temporary file beside it and renamed into
  place (atomic on POSIX), so a reader sees a whole entry or none; two writers of one key write
  the same bytes; a file evicted or replaced under a reader is a miss;
- **damage** (a truncated file, flipped bytes, a pickle of another layout): the checksum or
  the unpickling fails, the entry is deleted and read as a miss, never returned;
- **what it holds**: values gecscore computed itself (pickle runs code when loaded: the store
  is the user's own cache folder, as every pickle-based cache; do not point it at a folder
  others can write).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

CACHE_DIR_ENV = "GECSCORE_CACHE_DIR"
NO_CACHE_ENV = "GECSCORE_NO_CACHE"
MAX_BYTES_ENV = "GECSCORE_CACHE_MAX_BYTES"
DEFAULT_MAX_BYTES = 2 << 30
MAGIC = b"gecscore-cache 1\n"
#: an entry whose payload is zlib-compressed (payloads over COMPRESS_ABOVE bytes: a GLEU cell's
#: 1,312 x 5,000 statistics are 52 MB as a pickle, 1.4 MB compressed)
MAGIC_ZLIB = b"gecscore-cache 1 zlib\n"
COMPRESS_ABOVE = 1 << 20
_MISSING = object()


def default_dir() -> Path:
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gecscore" / "store"


def enabled() -> bool:
    return os.environ.get(NO_CACHE_ENV, "").strip().lower() not in ("1", "true", "yes")


def max_bytes() -> int:
    value = os.environ.get(MAX_BYTES_ENV)
    if not value:
        return DEFAULT_MAX_BYTES
    try:
        return max(0, int(value))
    except ValueError:
        from gecscore.errors import GecInputError

        raise GecInputError(f"${MAX_BYTES_ENV}={value!r}: give a number of bytes") from None


@dataclass(frozen=True)
class StoreInfo:
    path: str
    entries: int
    bytes: int
    max_bytes: int
    by_namespace: dict[str, tuple[int, int]]   # namespace -> (entries, bytes)

    def as_dict(self) -> dict:
        return {"path": self.path, "entries": self.entries, "bytes": self.bytes, "max_bytes": self.max_bytes,
                "namespaces": {n: {"entries": e, "bytes": b} for n, (e, b) in sorted(self.by_namespace.items())}}


class DiskCache:
    """The store at ``root`` holding at most ``limit`` bytes (see the module docstring)."""

    def __init__(self, root: str | Path, limit: int = DEFAULT_MAX_BYTES):
        self.root = Path(root)
        self.limit = limit
        self.hits = 0
        self.misses = 0

    def _path(self, namespace: str, key: str) -> Path:
        return self.root / namespace / key[:2] / key

    def get(self, namespace: str, key: str, default: Any = None) -> Any:
        path = self._path(namespace, key)
        try:
            data = path.read_bytes()
        except OSError:   # absent, evicted under us, unreadable: a miss
            self.misses += 1
            return default
        value = _decode(data)
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
        if len(payload) + len(magic) + 64 > self.limit:
            return
        path = self._path(namespace, key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(magic + hashlib.sha256(payload).hexdigest().encode() + b"\n")
                    out.write(payload)
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:   # a read-only or full disk: the cache is an optimisation, never an error
            return
        self.evict()

    def evict(self) -> None:
        """Delete the least recently used entries until the store holds at most ``limit`` bytes."""
        entries = list(self._entries())
        total = sum(size for _, size, _ in entries)
        if total <= self.limit:
            return
        for path, size, _ in sorted(entries, key=lambda e: e[2]):
            self._discard(path)
            total -= size
            if total <= self.limit:
                break

    def clear(self) -> int:
        """Delete every entry; the number deleted."""
        count = 0
        for path, _, _ in list(self._entries()):
            self._discard(path)
            count += 1
        return count

    def info(self) -> StoreInfo:
        by: dict[str, list[int]] = {}
        for path, size, _ in self._entries():
            counts = by.setdefault(path.relative_to(self.root).parts[0], [0, 0])
            counts[0] += 1
            counts[1] += size
        return StoreInfo(str(self.root), sum(c[0] for c in by.values()), sum(c[1] for c in by.values()),
                         self.limit, {n: (c[0], c[1]) for n, c in by.items()})

    def _entries(self):
        if not self.root.is_dir():
            return
        for path in self.root.glob("*/*/*"):
            if path.name.startswith(".tmp-"):
                continue
            try:
                stat = path.stat()
            except OSError:
                continue
            yield path, stat.st_size, stat.st_mtime

    @staticmethod
    def _discard(path: Path) -> None:
        try:
            path.unlink()
        except OSError:
            pass


def _decode(data: bytes) -> Any:
    """The value of an entry's bytes, or ``_MISSING`` when they are damaged in any way (read
    through a memoryview: a large entry is not copied to be checked)."""
    compressed = data.startswith(MAGIC_ZLIB)
    if not compressed and not data.startswith(MAGIC):
        return _MISSING
    start = len(MAGIC_ZLIB if compressed else MAGIC)
    end = data.find(b"\n", start)
    if end < 0:
        return _MISSING
    payload = memoryview(data)[end + 1:]
    if hashlib.sha256(payload).hexdigest().encode() != data[start:end]:
        return _MISSING
    try:
        return pickle.loads(zlib.decompress(payload) if compressed else payload)
    except Exception:   # noqa: BLE001 - a layout this code cannot read is a miss
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
    """The user's store, or None when the cache is off."""
    if not enabled():
        return None
    return DiskCache(default_dir(), max_bytes())


def remembered(namespace: str, key: str, compute: Callable[[], Any]) -> Any:
    """The value under ``key`` in the user's store, else ``compute()`` (stored for next time);
    just ``compute()`` when the cache is off."""
    store = default_store()
    if store is None:
        return compute()
    value = store.get(namespace, key, _MISSING)
    if value is _MISSING:
        value = compute()
        store.put(namespace, key, value)
    return value
