"""Cache keys: a SHA-256 over everything a cached value depends on.

A key is built from a namespace (what kind of value), the facts of whatever computed it (tool
versions, options), the digest of the source code of the modules that computed it (so an
edited algorithm never meets its old results, whatever the version number says) and the
content (every string, length-prefixed so that ``["ab", "c"]`` and ``["a", "bc"]`` differ).
Change any one of them and the key changes: a stale hit is impossible by construction, and
``tests/test_cache.py`` checks each component.
"""
from __future__ import annotations

import hashlib
import importlib
from functools import lru_cache
from typing import Iterable, Sequence

#: bumped when the layout of a cached value changes
SCHEMA = "1"


class KeyBuilder:
    """An incremental SHA-256 over typed, length-prefixed parts."""

    def __init__(self, namespace: str):
        self._hash = hashlib.sha256()
        self.add("namespace", namespace, "schema", SCHEMA)

    def add(self, *parts: str) -> "KeyBuilder":
        for part in parts:
            data = part.encode("utf-8", "surrogatepass")
            self._hash.update(len(data).to_bytes(8, "little"))
            self._hash.update(data)
        return self

    def facts(self, facts: Iterable[tuple[str, str]]) -> "KeyBuilder":
        for name, value in facts:
            self.add("fact", str(name), str(value))
        return self

    def texts(self, label: str, texts: Sequence[str]) -> "KeyBuilder":
        self.add("texts", label, str(len(texts)))
        return self.add(*texts)

    def digest(self) -> str:
        return self._hash.hexdigest()


@lru_cache(maxsize=None)
def code_digest(*modules: str) -> str:
    """SHA-256 of the source files of ``modules`` (importable names), in the order given."""
    hash_ = hashlib.sha256()
    for name in modules:
        module = importlib.import_module(name)
        path = getattr(module, "__file__", None)
        hash_.update(name.encode())
        if path:
            with open(path, "rb") as handle:
                hash_.update(handle.read())
    return hash_.hexdigest()


@lru_cache(maxsize=1)
def package_digest() -> str:
    """SHA-256 of every source file of the gecscore package (relative path and bytes, sorted):
    for values that depend on much of the library (a leaderboard cell), any edit anywhere in
    it is a new key, so no change of an algorithm can meet its old results."""
    from pathlib import Path

    root = Path(importlib.import_module("gecscore").__file__).parent
    hash_ = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        data = path.read_bytes()
        name = path.relative_to(root).as_posix().encode()
        hash_.update(len(name).to_bytes(8, "little") + name + len(data).to_bytes(8, "little") + data)
    return hash_.hexdigest()


@lru_cache(maxsize=1)
def environment_digest() -> str:
    """SHA-256 of the Python version and every installed distribution's name and version:
    a value computed under other versions of anything (numpy, spaCy and its model, errant,
    torch, transformers, ...) is never read back. Coarse on purpose: an unrelated upgrade costs
    one recomputation, a missed relevant one would cost a wrong number."""
    import os
    import sys

    names = set()   # <name>-<version>.dist-info folders (their names carry both: no METADATA read)
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as found:
                names.update(e.name for e in found if e.name.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
    return KeyBuilder("environment").add(sys.version).texts("distributions", sorted(names)).digest()


def path_fingerprint(value: str) -> str:
    """What a model option names, as far as the files go: for a local folder or file, every
    file's relative name, size and modification time (weights replaced in place make a new
    key); for a Hugging Face Hub name, the commit its local cache resolves to; otherwise ""."""
    from pathlib import Path

    path = Path(value).expanduser()
    if path.exists():
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        parts = []
        for file in files:
            stat = file.stat()
            parts.append(f"{file.relative_to(path) if file != path else file.name}:{stat.st_size}:{stat.st_mtime_ns}")
        return KeyBuilder("path").add(str(path.resolve())).texts("files", parts).digest()
    if value and not value.startswith((".", "/", "~")):
        try:
            from huggingface_hub import try_to_load_from_cache

            found = try_to_load_from_cache(value, "config.json")
        except (ImportError, ValueError):
            found = None
        if isinstance(found, str):   # .../snapshots/<commit>/config.json
            return "hub:" + Path(found).parent.name
    return ""


def value_digest(value: object) -> str:
    """SHA-256 of ``repr(value)`` for values made of frozen dataclasses, tuples, strings and
    numbers (whose repr shows all their content, e.g. a corpus of :class:`gecscore.types.Gold`)."""
    return hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).hexdigest()
