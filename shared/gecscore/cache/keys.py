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
