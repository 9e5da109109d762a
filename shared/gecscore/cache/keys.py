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
def source_digest(package: str) -> str:
    """SHA-256 of every source file of an importable package (relative path and bytes,
    sorted): a value computed through any of its modules meets a new key after any edit of it.
    Derived from the files, never from a hand-kept list of the modules a value goes through
    (such a list misses the stage nobody thought of: how a model is loaded, which spaCy
    components run)."""
    from pathlib import Path

    module = importlib.import_module(package)
    path = Path(module.__file__)
    hash_ = hashlib.sha256()
    files = sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]
    for file in files:
        data = file.read_bytes()
        name = file.relative_to(path.parent).as_posix().encode()
        hash_.update(len(name).to_bytes(8, "little") + name + len(data).to_bytes(8, "little") + data)
    return hash_.hexdigest()


def package_digest() -> str:
    """SHA-256 of every source file of the gecscore package (:func:`source_digest`): the code
    part of every key, so no change of an algorithm, of a loader or of a default anywhere in
    the library can meet its old results. Coarse on purpose: an unrelated edit costs one
    recomputation, a missed relevant one would cost a wrong number."""
    return source_digest("gecscore")


def pipeline_digest(nlp) -> str:
    """What a loaded spaCy pipeline computes with: the library's and the model's versions, the
    components that run and those disabled, the full config, and the model folder's files
    (sizes and times: weights replaced in place make a new key)."""
    import spacy

    meta = nlp.meta
    path = getattr(nlp, "path", None)
    return (KeyBuilder("spacy-pipeline")
            .facts((("spacy", spacy.__version__), ("lang", str(meta.get("lang"))), ("name", str(meta.get("name"))),
                    ("version", str(meta.get("version"))), ("files", path_fingerprint(str(path)) if path else "")))
            .texts("components", list(nlp.pipe_names)).texts("disabled", list(nlp.disabled))
            .add("config", nlp.config.to_str())
            .digest())


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
