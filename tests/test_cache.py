"""The persistent cache (issue 34): a key changes with every component a value depends on (so
no stale hit), damaged entries are misses and are deleted, concurrent processes never see half
an entry, the size stays bounded, and --no-cache / GECSCORE_NO_CACHE turn it off."""
from __future__ import annotations

import json
import multiprocessing
import os
import pickle

import pytest
from hypothesis import given, settings, strategies as st

from gecscore.cache.keys import KeyBuilder, source_digest
from gecscore.cache.store import MAGIC, NO_CACHE_ENV, DiskCache, default_store, disabled
from gecscore.cli import main
from gecscore.lang.en.extractor import CACHE_NAMESPACE, PERSIST_MIN_PAIRS, ErrantExtractor

from datapaths import EXAMPLES


def key(namespace="n", facts=(("errant", "3.0.0"),), texts=("a b", "c")) -> str:
    return KeyBuilder(namespace).facts(facts).texts("t", list(texts)).digest()


# ---------------------------------------------------------------- keys

def test_every_key_component_changes_the_key():
    base = key()
    assert key() == base
    assert key(namespace="m") != base                                  # what kind of value
    assert key(facts=(("errant", "3.0.1"),)) != base                    # a version
    assert key(facts=(("errant", "3.0.0"), ("alignment", "errant"))) != base   # an option
    assert key(texts=("a b", "d")) != base                              # the content
    assert key(texts=("a b", "c", "")) != base                          # one more (empty) sentence
    assert key(texts=("ab", "c")) != key(texts=("a", "bc"))             # length-prefixed parts


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=6), max_size=5), st.lists(st.text(max_size=6), max_size=5))
def test_different_texts_never_share_a_key(one, two):
    if one != two:
        assert key(texts=tuple(one)) != key(texts=tuple(two))


def test_the_source_digest_follows_every_file_of_a_package(tmp_path, monkeypatch):
    package = tmp_path / "algo_pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "step.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = source_digest("algo_pkg")
    source_digest.cache_clear()
    (package / "sub" / "step.py").write_text("X = 2\n")        # a module nobody listed
    assert source_digest("algo_pkg") != first
    source_digest.cache_clear()
    (package / "sub" / "step.py").write_text("X = 1\n")
    assert source_digest("algo_pkg") == first
    (package / "sub" / "new_stage.py").write_text("")           # a file added
    source_digest.cache_clear()
    assert source_digest("algo_pkg") != first
    source_digest.cache_clear()


# ---------------------------------------------------------------- the extractor's use

SOURCES = [f"This are sentence number {k} ." for k in range(PERSIST_MIN_PAIRS)]
TARGETS = [f"This is sentence number {k} ." for k in range(PERSIST_MIN_PAIRS)]


@pytest.fixture
def store_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(tmp_path / "store"))
    return tmp_path / "store"


def entries(folder) -> list:
    return sorted(p for p in folder.glob("*/*/*") if not p.name.startswith(".tmp-"))


def test_a_known_corpus_comes_from_the_store_with_the_same_edits(store_dir):
    first = ErrantExtractor(progress=False).targets(SOURCES, TARGETS)
    assert len(entries(store_dir)) == 1
    fresh = ErrantExtractor(progress=False)   # a new extractor: nothing in memory
    fresh.parse = lambda sentences: pytest.fail("a cached corpus is parsed again")
    assert fresh.targets(SOURCES, TARGETS) == first
    assert first[0].edits and first[0].edits[0].type == "R:VERB:SVA"


def test_a_changed_option_version_model_or_content_never_hits(store_dir, monkeypatch):
    extractor = ErrantExtractor(progress=False)
    base = extractor.corpus_key(SOURCES, TARGETS)
    assert ErrantExtractor(progress=False, alignment="errant").corpus_key(SOURCES, TARGETS) != base   # option
    assert ErrantExtractor(progress=False, max_cells=10).corpus_key(SOURCES, TARGETS) != base        # option
    assert extractor.corpus_key(SOURCES, TARGETS[:-1] + ["other ."]) != base                          # content
    assert extractor.corpus_key(SOURCES[::-1], TARGETS[::-1]) != base                                 # order
    import errant

    monkeypatch.setattr(errant, "__version__", "0.0-other")                                          # version
    assert extractor.corpus_key(SOURCES, TARGETS) != base
    monkeypatch.undo()
    meta = dict(extractor.nlp.meta)
    monkeypatch.setattr(type(extractor.nlp), "meta", property(lambda self: {**meta, "version": "9.9.9"}))
    assert extractor.corpus_key(SOURCES, TARGETS) != base                                             # model
    monkeypatch.undo()
    monkeypatch.setattr("gecscore.cache.keys.package_digest", lambda: "edited code")                  # code
    assert extractor.corpus_key(SOURCES, TARGETS) != base


def test_small_calls_stay_in_memory(store_dir):
    ErrantExtractor(progress=False).targets(SOURCES[:5], TARGETS[:5])
    assert entries(store_dir) == []


# ---------------------------------------------------------------- damage, concurrency, size

@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty", "foreign pickle"])
def test_a_damaged_entry_is_a_miss_and_is_deleted(tmp_path, damage):
    store = DiskCache(tmp_path)
    store.put("ns", "k" * 64, {"value": 1})
    path, = entries(tmp_path)
    data = path.read_bytes()
    if damage == "flip":
        data = data[:-3] + bytes([data[-3] ^ 0xFF]) + data[-2:]
    elif damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "garbage":
        data = b"not a cache entry"
    elif damage == "empty":
        data = b""
    else:   # a valid checksum over a pickle this code cannot load
        import hashlib

        payload = b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\x04nope\x94\x8c\x04nope\x94\x93\x94."
        identity = b"ns/" + b"k" * 64 + b"\n"
        data = MAGIC + identity + hashlib.sha256(identity + payload).hexdigest().encode() + b"\n" + payload
    path.write_bytes(data)
    assert store.get("ns", "k" * 64, "miss") == "miss"
    assert not path.exists()
    store.put("ns", "k" * 64, {"value": 1})
    assert store.get("ns", "k" * 64) == {"value": 1}


def _writer(root: str, worker: int, rounds: int, queue) -> None:
    store = DiskCache(root)
    bad = 0
    for r in range(rounds):
        shared = f"s{r % 5:063d}"
        store.put("ns", shared, [r % 5] * 2000)            # every worker writes the same keys
        got = store.get("ns", shared)
        if got is not None and got != [r % 5] * 2000:
            bad += 1
        store.put("ns", f"w{worker}-{r:061d}", (worker, r))   # and keys of its own
        if store.get("ns", f"w{worker}-{r:061d}") not in (None, (worker, r)):
            bad += 1
    queue.put(bad)


def test_concurrent_writers_never_expose_half_an_entry(tmp_path):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_writer, args=(str(tmp_path), w, 60, queue)) for w in range(4)]
    for worker in workers:
        worker.start()
    bad = [queue.get(timeout=600) for _ in workers]
    for worker in workers:
        worker.join(600)
    assert bad == [0, 0, 0, 0]
    assert not list(tmp_path.glob("*/*/.tmp-*"))   # no temporary file left behind
    store = DiskCache(tmp_path)
    assert [store.get("ns", f"s{k:063d}") for k in range(5)] == [[k] * 2000 for k in range(5)]


def test_the_store_is_bounded_least_recently_used_out(tmp_path):
    store = DiskCache(tmp_path, limit=3 * len(pickle.dumps(b"x" * 1000)) + 3 * 200)
    for name in "abc":
        store.put("ns", name * 64, b"x" * 1000)
    os.utime(entries(tmp_path)[0], (1, 1))   # "a" is the oldest
    store.get("ns", "a" * 64)                # ... until read: now "b" is
    os.utime(next(p for p in entries(tmp_path) if p.name == "b" * 64), (2, 2))
    store.put("ns", "d" * 64, b"x" * 1000)
    names = {p.name[0] for p in entries(tmp_path)}
    assert "b" not in names and {"a", "d"} <= names
    assert store.info().bytes <= store.limit


def test_the_store_is_looked_over_when_a_write_could_pass_its_bound(tmp_path, monkeypatch):
    """Writes within the bound do not scan the store again (a leaderboard's cells scanned it
    234 times); the write that could pass it does, and evicts at once; what another writer
    added is seen at the next look, at the latest EVICT_SCAN_S after the last."""
    from gecscore.cache import store as module

    scans = []
    files = DiskCache._files
    monkeypatch.setattr(DiskCache, "_files", lambda self: scans.append(1) or files(self))
    monkeypatch.setattr(module, "EVICT_SCAN_S", 3600.0)
    entry = len(pickle.dumps(b"x" * 1000)) + 200
    store = DiskCache(tmp_path, limit=10 * entry)
    for k in range(9):
        store.put("ns", f"{k:064d}", b"x" * 1000)
    assert len(scans) == 1 and len(entries(tmp_path)) == 9
    for k in range(9, 12):
        store.put("ns", f"{k:064d}", b"x" * 1000)
    assert store.info().bytes <= store.limit and len(entries(tmp_path)) == 10
    store.clear()
    store.put("ns", f"{0:064d}", b"x")                  # crosses no bound: not looked over
    other = DiskCache(tmp_path, limit=100 * entry)     # another process's writes
    for k in range(1, 13):
        other.put("ns", f"{k:064d}", b"x" * 1000)
    store.put("ns", f"{13:064d}", b"x")
    assert store.info().bytes > store.limit             # unseen yet
    monkeypatch.setattr(module, "EVICT_SCAN_S", 0.0)   # ... until the next look
    store.put("ns", f"{14:064d}", b"x")
    assert store.info().bytes <= store.limit


# ---------------------------------------------------------------- switches and the command

def test_no_cache_switches(store_dir, monkeypatch, capsys):
    with disabled():
        assert default_store() is None and os.environ[NO_CACHE_ENV] == "1"
    assert NO_CACHE_ENV not in os.environ and default_store() is not None
    monkeypatch.setenv(NO_CACHE_ENV, "1")
    ErrantExtractor(progress=False).targets(SOURCES, TARGETS)
    assert entries(store_dir) == []
    monkeypatch.delenv(NO_CACHE_ENV)
    gold = ["--src", str(EXAMPLES / "source.txt"), "--ref", str(EXAMPLES / "reference0.txt")]
    hyp = ["--hyp", str(EXAMPLES / "hypothesis.txt")]
    assert main(["cleme2", *gold, *hyp, "--no-cache", "--quiet"]) == 0
    assert NO_CACHE_ENV not in os.environ   # restored after the command


def test_cache_info_and_clear(store_dir, capsys):
    ErrantExtractor(progress=False).targets(SOURCES, TARGETS)
    assert main(["cache", "info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["entries"] == 1 and info["namespaces"][CACHE_NAMESPACE]["entries"] == 1 and info["enabled"]
    assert main(["cache", "clear"]) == 0
    assert "removed 1 entries" in capsys.readouterr().out
    assert entries(store_dir) == []


def test_a_large_value_is_stored_compressed_and_read_back_whole(tmp_path):
    """Above COMPRESS_ABOVE the payload is zlib-compressed (a GLEU cell's statistics: 52 MB as a
    pickle); it reads back equal, and damage to the compressed bytes is a miss, as for any entry."""
    import numpy as np

    from gecscore.cache.store import COMPRESS_ABOVE, MAGIC_ZLIB

    store = DiskCache(tmp_path)
    value = {"stats": np.tile(np.arange(10.0), COMPRESS_ABOVE // 8)}
    store.put("ns", "k" * 64, value)
    path, = entries(tmp_path)
    data = path.read_bytes()
    assert data.startswith(MAGIC_ZLIB) and len(data) < value["stats"].nbytes / 10
    assert np.array_equal(store.get("ns", "k" * 64)["stats"], value["stats"])
    path.write_bytes(data[:-10] + bytes(10))
    assert store.get("ns", "k" * 64, "miss") == "miss" and not path.exists()
