"""Leaderboard cells kept across runs: a configuration's score of one system, read back from
the persistent store (:mod:`gecscore.cache`) when nothing it depends on has changed.

A cell's key holds everything its number depends on:

- the reference set's content (every gold sentence and edit, its options, the subset's
  positions, the I-measure XML gold's bytes), not its name or path;
- the system output's bytes (text and/or M2 edits), not its name; for a configuration whose
  scores depend on the other systems of the run (GoToScorer's weights:
  ``Metric.needs_all_systems``) every system's bytes, in the run's order;
- the configuration's validated options after the run-wide ones are applied (the full config,
  defaults included), and for options naming a model its files
  (:func:`gecscore.cache.keys.path_fingerprint`);
- the source of the whole gecscore package and every installed distribution's version.

A cell is kept with what it answers for (its configuration's key part, the system's digest,
the run's digests, the number of sentences: :class:`StoredCell`) and read back only when those
equal what the run asks (:meth:`CellCache.get`); the store itself binds each entry to its key
(:mod:`gecscore.cache.store`). Change any one and the cell is scored again: a re-run costs reading the cells, a system added
to a known benchmark costs that system's own scoring. Configurations asking an LLM judge are
never kept here (the judge's own cache keeps its answers; a cell would hide a changed
endpoint behind the same options).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.cache.keys import KeyBuilder, environment_digest, package_digest, value_digest
from gecscore.cache.store import DiskCache, default_store
from gecscore.io.user_files import read_bytes
from gecscore.leaderboard.configurations import Configuration

CACHE_NAMESPACE = "leaderboard-cell"


class SystemFiles(Protocol):
    """Where a system's output lives (:class:`gecscore.leaderboard.systems.SystemSource`)."""

    name: str
    text_path: Path | None
    hyp_m2_path: Path | None


def file_digest(path: Path | None) -> str:
    """SHA-256 of a system file's bytes, read by the checked reader (never a FIFO or a device:
    :func:`gecscore.io.user_files.read_bytes`)."""
    if path is None:
        return ""
    return hashlib.sha256(read_bytes(path)).hexdigest()


def system_digest(system: SystemFiles) -> str:
    """The content of a system's output files (its name and paths left out)."""
    return KeyBuilder("system").add(file_digest(system.text_path), file_digest(system.hyp_m2_path)).digest()


def refset_digest(refset: RefSet) -> str:
    """The content of a reference set: its gold sentences and edits, options, positions in the
    full set and I-measure XML gold."""
    return (KeyBuilder("refset")
            .add(value_digest(refset.sentences), repr(sorted(refset.options.items())), repr(refset.indices),
                 file_digest(refset.ixml_path))
            .digest())


@dataclass(frozen=True)
class CellCache:
    """The store and the run-wide part of every key (environment, code, reference set)."""

    store: DiskCache
    base: str

    @classmethod
    def for_run(cls, refset: RefSet) -> "CellCache | None":
        """The cells of runs on ``refset``, or None when the cache is off."""
        store = default_store()
        if store is None:
            return None
        base = (KeyBuilder(CACHE_NAMESPACE)
                .facts((("environment", environment_digest()), ("code", package_digest()),
                        ("refset", refset_digest(refset))))
                .digest())
        return cls(store, base)

    def key(self, config: Configuration, system: str, run: Sequence[str] = ()) -> str | None:
        """The key of a cell: ``config`` (its effective options, run-wide ones applied) scoring
        the system whose digest is ``system``, among the systems of digests ``run`` when its
        score depends on them; None for a judged configuration."""
        return self.cell_key(self.configuration(config), system, run)

    def configuration(self, config: Configuration) -> str | None:
        """The part of a cell's key that every system of one configuration shares: the store's
        base and the configuration's own facts (:attr:`Configuration.cache_facts`: its
        validated config, its model files); None for a judged configuration, which is never
        kept."""
        facts = config.cache_facts
        if facts is None:
            return None
        texts, models = facts
        return KeyBuilder(CACHE_NAMESPACE).add(self.base, *texts).facts(models).digest()

    @staticmethod
    def cell_key(configuration: str | None, system: str, run: Sequence[str] = ()) -> str | None:
        """A cell's key from its configuration's part (:meth:`configuration`), the system's
        digest and, when its score depends on them, the digests of the run's systems."""
        if configuration is None:
            return None
        return KeyBuilder(CACHE_NAMESPACE).add(configuration, "system", system).texts("run", list(run)).digest()

    def get(self, key: str | None, asked: "CellIdentity") -> Any:
        """The score kept under ``key`` when it is the cell ``asked`` for, else None (an entry
        answering for another configuration, system, run or corpus size is deleted)."""
        if key is None:
            return None
        found = self.store.get(CACHE_NAMESPACE, key)
        if found is None:
            return None
        if not isinstance(found, StoredCell) or found.identity != asked:
            self.store.discard(CACHE_NAMESPACE, key)
            return None
        return found.score

    def put(self, key: str | None, identity: "CellIdentity", value: Any) -> None:
        if key is not None:
            self.store.put(CACHE_NAMESPACE, key, StoredCell.of(identity, value))


@dataclass(frozen=True)
class CellIdentity:
    """What a cell answers for: its configuration's key part, the system's digest, the digests
    of the run's systems (when its score depends on them) and the number of sentences."""

    configuration: str
    system: str
    run: tuple[str, ...]
    sentences: int


@dataclass(frozen=True)
class StoredCell:
    """A kept cell: its identity beside its score, checked on every read. A score's
    sentence statistics are kept in their exact integer form where they have one
    (:meth:`SystemScore.compact`): read back, they are the same float64 array."""

    identity: CellIdentity
    score: Any

    @classmethod
    def of(cls, identity: CellIdentity, score: Any) -> "StoredCell":
        from gecscore.leaderboard.system_scores import SystemScore

        return cls(identity, score.compact() if isinstance(score, SystemScore) else score)
