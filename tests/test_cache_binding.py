"""What the store remembers is bound to what it answers and runs no code (issue 39).

- an entry answers only for its own key: swapped, renamed and copied-between-stores files are
  misses (and deleted), for the store and for each of its users (ERRANT's edits, leaderboard
  cells), and a value is checked against what the caller asked for;
- every stage of the ERRANT pipeline is in its corpus key (an edited copy of the package misses);
- reading runs no code: a planted entry that would run code is never executed, in the user's
  own folder (the restricted unpickler) nor in a folder others can write or another user owns
  (not read at all, one warning line);
- the temporary files of killed writers are counted, evicted when old and cleared.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gecscore.cache import safe_pickle, store as store_module
from gecscore.cache.store import MAGIC, STALE_TEMPORARY_S, DiskCache
from gecscore.cli import main
from gecscore.lang.en.extractor import CACHE_NAMESPACE, PERSIST_MIN_PAIRS, ErrantExtractor
from gecscore.leaderboard import cell_cache
from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.configurations import MetricConfig, resolve_configuration

from tiny_board import write_tiny_board

KEY_A, KEY_B = "a" * 64, "b" * 64


def entry_path(root: Path, namespace: str, key: str) -> Path:
    return root / namespace / key[:2] / key


@pytest.fixture
def store_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(tmp_path / "store"))
    return tmp_path / "store"


# ---------------------------------------------------------------- the store binds an entry to its key

@pytest.mark.parametrize("move", ["swapped", "renamed", "other namespace", "other store"])
def test_an_entry_answers_only_for_its_own_key(tmp_path, move):
    store = DiskCache(tmp_path / "one")
    store.put("ns", KEY_A, "value of A")
    store.put("ns", KEY_B, "value of B")
    a, b = entry_path(store.root, "ns", KEY_A), entry_path(store.root, "ns", KEY_B)
    if move == "swapped":
        data_a, data_b = a.read_bytes(), b.read_bytes()
        a.write_bytes(data_b)
        b.write_bytes(data_a)
        assert store.get("ns", KEY_A, "miss") == "miss" and store.get("ns", KEY_B, "miss") == "miss"
        assert not a.exists() and not b.exists()      # deleted, scored again next time
        return
    if move == "renamed":
        c = entry_path(store.root, "ns", "c" * 64)
        c.parent.mkdir(parents=True)
        shutil.copy(a, c)
        assert store.get("ns", "c" * 64, "miss") == "miss" and not c.exists()
    elif move == "other namespace":
        other = entry_path(store.root, "other", KEY_A)
        other.parent.mkdir(parents=True)
        shutil.copy(a, other)
        assert store.get("other", KEY_A, "miss") == "miss" and not other.exists()
    else:   # a file synced from another store into this one's place for another key
        second = DiskCache(tmp_path / "two")
        second.put("ns", KEY_B, "value of B in two")
        target = entry_path(second.root, "ns", KEY_A)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(entry_path(second.root, "ns", KEY_B), target)
        assert second.get("ns", KEY_A, "miss") == "miss"
    assert store.get("ns", KEY_A) == "value of A"    # the right entries still answer
    assert store.get("ns", KEY_B) == "value of B"


SOURCES = [f"This are sentence number {k} ." for k in range(PERSIST_MIN_PAIRS)]
TARGETS_1 = [f"This is sentence number {k} ." for k in range(PERSIST_MIN_PAIRS)]
TARGETS_2 = [f"This were sentence number {k} !" for k in range(PERSIST_MIN_PAIRS)]


def test_swapped_errant_entries_never_give_another_corpus_edits(store_dir):
    extractor = ErrantExtractor(progress=False)
    first, second = extractor.targets(SOURCES, TARGETS_1), extractor.targets(SOURCES, TARGETS_2)
    assert first != second
    a = entry_path(store_dir, CACHE_NAMESPACE, extractor.corpus_key(SOURCES, TARGETS_1))
    b = entry_path(store_dir, CACHE_NAMESPACE, extractor.corpus_key(SOURCES, TARGETS_2))
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    fresh = ErrantExtractor(progress=False)
    assert fresh.targets(SOURCES, TARGETS_1) == first
    assert fresh.targets(SOURCES, TARGETS_2) == second


def test_a_value_for_other_targets_under_the_right_key_is_not_used(store_dir):
    """The value check behind the key check: an entry written under this corpus's key (a bug,
    a planted file with a valid header) that holds another corpus's edits is deleted."""
    extractor = ErrantExtractor(progress=False)
    right = extractor.targets(SOURCES, TARGETS_1)
    wrong = extractor.targets(SOURCES, TARGETS_2)
    key = extractor.corpus_key(SOURCES, TARGETS_1)
    DiskCache(store_dir).put(CACHE_NAMESPACE, key, wrong)
    assert ErrantExtractor(progress=False).targets(SOURCES, TARGETS_1) == right
    assert DiskCache(store_dir).get(CACHE_NAMESPACE, key) == right   # stored again, right


def test_swapped_leaderboard_cells_give_each_system_its_own_score(store_dir, tmp_path, monkeypatch):
    (tmp_path / "board").mkdir()
    refset, systems = write_tiny_board(tmp_path / "board")
    configs = ["m2-corpus", "gleu"]
    first = run_leaderboard(refset, systems, configs, progress=False)
    cells = sorted((store_dir / cell_cache.CACHE_NAMESPACE).glob("*/*"))
    assert len(cells) == len(systems) * len(configs)
    contents = [path.read_bytes() for path in cells]
    for path, data in zip(cells, contents[1:] + contents[:1]):   # every cell in another's place
        path.write_bytes(data)
    again = run_leaderboard(refset, systems, configs, progress=False)
    for system in first.scores:
        for config in configs:
            assert again.scores[system][config].score == first.scores[system][config].score
    assert first.scores["PERFECT"]["m2-corpus"].score != first.scores["INPUT"]["m2-corpus"].score


def test_a_cell_stored_for_another_identity_is_not_used(store_dir, tmp_path):
    (tmp_path / "board").mkdir()
    refset, systems = write_tiny_board(tmp_path / "board")
    cells = cell_cache.CellCache.for_run(refset)
    configuration = cells.configuration(resolve_configuration(MetricConfig("pt_m2", "pt_m2", (("scorer", "none"),))))
    key = cells.cell_key(configuration, "system-digest")
    asked = cell_cache.CellIdentity(configuration, "system-digest", (), 2)
    cells.put(key, cell_cache.CellIdentity(configuration, "another system", (), 2), "another's score")
    assert cells.get(key, asked) is None and cells.get(key, asked) is None
    cells.put(key, dataclass_replace(asked, sentences=3), "a score of another corpus size")
    assert cells.get(key, asked) is None
    cells.put(key, asked, "its score")
    assert cells.get(key, asked) == "its score"


def dataclass_replace(value, **changes):
    import dataclasses

    return dataclasses.replace(value, **changes)


# ---------------------------------------------------------------- every ERRANT stage is in the key

STAGE_EDITS = {
    # how the model is loaded: the parser switched off (the case: 71/104/252 vs 71/106/251)
    "gecscore/lang/en/spacy_model.py": None,
    "gecscore/lang/en/alignment.py": "\n# an edited alignment\n",
    "gecscore/lang/en/extractor.py": "\n# an edited extractor\n",
    "gecscore/types.py": "\n# an edited edit type\n",
    "errant/en/classifier.py": "\n# an edited classifier\n",
    "errant/en/merger.py": "\n# an edited merger\n",
}

KEY_SCRIPT = (
    "import sys\n"
    "from gecscore.lang.en.extractor import ErrantExtractor\n"
    "import gecscore, errant\n"
    "assert gecscore.__file__.startswith(sys.argv[1]), gecscore.__file__\n"
    "print(ErrantExtractor(progress=False).corpus_key(['He go .'], ['He goes .']))\n")


def _corpus_key(root: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", KEY_SCRIPT, str(root)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _package_copy(tmp_path: Path) -> Path:
    import errant

    import gecscore

    root = tmp_path / "copy"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(Path(gecscore.__file__).parent, root / "gecscore", ignore=ignore)
    shutil.copytree(Path(errant.__file__).parent, root / "errant", ignore=ignore)
    return root


def test_an_edit_of_any_stage_of_the_errant_pipeline_changes_the_corpus_key(tmp_path):
    root = _package_copy(tmp_path)
    base = _corpus_key(root)
    assert _corpus_key(root) == base   # a copy of the same code: the same key
    for relative, addition in STAGE_EDITS.items():
        path = root / relative
        original = path.read_text()
        if addition is None:
            assert "def load_spacy_model" in original
            edited = original + (
                "\n_original_load = load_spacy_model\n"
                "def load_spacy_model(*args, **kwargs):\n"
                "    nlp = _original_load(*args, **kwargs)\n"
                "    nlp.disable_pipe('parser')\n"
                "    return nlp\n")
            path.write_text(edited)
        else:
            path.write_text(original + addition)
        assert _corpus_key(root) != base, f"an edit of {relative} kept the key"
        path.write_text(original)


# ---------------------------------------------------------------- reading runs no code

class _Planted:
    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _plant(root: Path, namespace: str, key: str, marker: Path) -> Path:
    """An entry with a valid header and checksum whose payload runs a shell command on load."""
    payload = pickle.dumps(_Planted(str(marker)))
    identity = f"{namespace}/{key}\n".encode()
    path = entry_path(root, namespace, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(MAGIC + identity + hashlib.sha256(identity + payload).hexdigest().encode() + b"\n" + payload)
    return path


@pytest.mark.parametrize("folder", ["own", "others can write", "another user's"])
def test_a_planted_entry_never_runs(tmp_path, monkeypatch, capsys, folder):
    if folder == "another user's" and os.geteuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    root = tmp_path / "store"
    root.mkdir(mode=0o700)
    marker = tmp_path / "ran"
    _plant(root, CACHE_NAMESPACE, "k" * 64, marker)
    if folder == "others can write":
        root.chmod(0o777)
    elif folder == "another user's":
        os.chown(root, 65534, 65534)
    monkeypatch.setattr(store_module, "_WARNED", set())
    store = DiskCache(root)
    assert store.get(CACHE_NAMESPACE, "k" * 64, "miss") == "miss"
    assert not marker.exists()
    warning = capsys.readouterr().err
    if folder == "own":
        assert warning == "" and store.refused is None
        assert not entry_path(root, CACHE_NAMESPACE, "k" * 64).exists()   # a miss: deleted
    else:
        assert warning.count("\n") == 1 and "not using the cache" in warning and str(root) in warning
        assert store.refused is not None
        store.put("ns", KEY_A, 1)                       # nothing written there either
        assert not entry_path(root, "ns", KEY_A).exists()


def test_an_unsafe_store_still_gives_the_right_score(tmp_path, monkeypatch, capsys):
    from datapaths import EXAMPLES

    root = tmp_path / "store"
    root.mkdir()
    root.chmod(0o777)
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(root))
    monkeypatch.setattr(store_module, "_WARNED", set())
    args = ["cleme2", "--src", str(EXAMPLES / "source.txt"), "--ref", str(EXAMPLES / "reference0.txt"),
            "--hyp", str(EXAMPLES / "hypothesis.txt"), "--quiet", "--json"]
    assert main(args) == 0
    with_unsafe = capsys.readouterr().out
    assert main([*args, "--no-cache"]) == 0
    assert capsys.readouterr().out == with_unsafe


def test_a_writable_subfolder_is_refused_too(tmp_path, monkeypatch, capsys):
    root = tmp_path / "store"
    store = DiskCache(root)
    store.put("ns", KEY_A, "A")
    entry_path(root, "ns", KEY_A).parent.chmod(0o777)
    monkeypatch.setattr(store_module, "_WARNED", set())
    assert DiskCache(root).get("ns", KEY_A, "miss") == "miss"
    assert "writable by group or others" in capsys.readouterr().err


@pytest.mark.parametrize("name", [("os", "system"), ("builtins", "eval"), ("subprocess", "Popen"),
                                  ("gecscore.cli", "main"), ("gecscore.__main__", "main"),
                                  ("gecscore.cache.store", "DiskCache"), ("numpy", "load")])
def test_the_unpickler_resolves_no_code(name):
    assert not safe_pickle.allowed(*name)


MODEL_FREE = ["cleme2-corpus-dep", "cleme-corpus-ind", "cleme2-sentence-ind", "cleme-sentence-dep", "m2-corpus",
              "m2-sentence", "errant-corpus", "errant-sentence", "imeasure", "green", "green-sentence", "gotoscorer",
              "gotoscorer-noweight", "gleu"]


def test_every_statistic_of_a_kept_cell_is_storable(store_dir, tmp_path):
    """The model-free configurations' cells come back from the store (none refused as unsafe):
    every statistic function they keep is declared storable."""
    (tmp_path / "board").mkdir()
    refset, systems = write_tiny_board(tmp_path / "board")
    first = run_leaderboard(refset, systems, MODEL_FREE, progress=False)
    stored = DiskCache(store_dir)
    for path in (store_dir / cell_cache.CACHE_NAMESPACE).glob("*/*"):
        assert isinstance(stored.get(cell_cache.CACHE_NAMESPACE, path.name), cell_cache.StoredCell), path
    again = run_leaderboard(refset, systems, MODEL_FREE, progress=False)
    for system, row in first.scores.items():
        for config, cell in row.items():
            assert again.scores[system][config].score == pytest.approx(cell.score, nan_ok=True, abs=0, rel=0)


# ---------------------------------------------------------------- temporary files of killed writers

def test_temporary_files_are_counted_evicted_when_old_and_cleared(tmp_path, monkeypatch):
    from gecscore.cache import store as module

    monkeypatch.setattr(module, "EVICT_SCAN_S", 0.0)   # every write looks the store over (else: each second)
    store = DiskCache(tmp_path)
    store.put("ns", KEY_A, b"x" * 1000)
    folder = entry_path(tmp_path, "ns", KEY_A).parent
    stale, live = folder / ".tmp-killed", folder / ".tmp-writing"
    stale.write_bytes(b"y" * 5000)
    live.write_bytes(b"z" * 7000)
    old = time.time() - STALE_TEMPORARY_S - 60
    os.utime(stale, (old, old))
    info = store.info()
    on_disk = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file())
    assert info.bytes == on_disk and info.temporary == (2, 12000) and info.entries == 1
    store.put("ns", KEY_B, b"x")                        # a write evicts: the dead writer's file goes
    assert not stale.exists() and live.exists()
    assert store.clear() == 2
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_temporary_files_count_against_the_bound(tmp_path, monkeypatch):
    from gecscore.cache import store as module

    monkeypatch.setattr(module, "EVICT_SCAN_S", 0.0)   # every write looks the store over (else: each second)
    store = DiskCache(tmp_path, limit=20_000)
    store.put("ns", KEY_A, b"x" * 1000)
    folder = entry_path(tmp_path, "ns", KEY_A).parent
    (folder / ".tmp-writing").write_bytes(b"z" * 19_500)   # a live writer's file: not deleted...
    store.put("ns", KEY_B, b"x" * 1000)
    assert store.info().entries < 2                        # ... but the entries make room for it


def test_cache_info_reports_what_is_on_disk(store_dir, capsys):
    import json

    store = DiskCache(store_dir)
    store.put("ns", KEY_A, list(range(1000)))
    (entry_path(store_dir, "ns", KEY_A).parent / ".tmp-killed").write_bytes(b"y" * 8192)
    assert main(["cache", "info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    on_disk = sum(p.stat().st_size for p in store_dir.rglob("*") if p.is_file())
    assert info["bytes"] == on_disk and info["temporary"] == {"files": 1, "bytes": 8192}
    assert main(["cache", "clear"]) == 0
    assert not any(p.is_file() for p in store_dir.rglob("*"))


# ---------------------------------------------------------------- the judge's answers (another store)

def test_a_judge_answer_answers_only_for_its_own_request(tmp_path):
    """The judge cache (SQLite) binds a row the same way: its key is recomputed from the row's
    backend, model and request; a row under another request's key is deleted, a miss."""
    from gecscore.judge.cache import JudgeCache
    from gecscore.judge.types import JudgeRequest

    cache = JudgeCache(tmp_path / "judge.sqlite")
    asked, other = JudgeRequest.of([("user", "Is 'He go' right?")]), JudgeRequest.of([("user", "Rate: 'He goes'")])
    cache.put(asked.cache_key("openai", "m"), "openai", "m", other, "5")     # another request's answer
    assert cache.get(asked.cache_key("openai", "m")) is None and len(cache) == 0
    cache.put(asked.cache_key("openai", "m"), "openai", "other-model", asked, "5")   # another model's
    assert cache.get(asked.cache_key("openai", "m")) is None
    cache.put(asked.cache_key("openai", "m"), "openai", "m", asked, "2")
    assert cache.get(asked.cache_key("openai", "m")) == "2"


@pytest.mark.parametrize("stats, compact", [
    ([[1.0, 2.0], [300.0, 0.0]], "int16"),
    ([[70000.0, -3.0]], "int32"),
    ([[0.5, 1.0]], None),                 # a fraction
    ([[1e10, 1.0]], None),                # beyond 32 bits
    ([[-0.0, 1.0]], None),                # a negative zero would come back positive
    ([[float("nan"), 1.0]], None),
    ([[float("inf"), 1.0]], None),
    ([[-float("inf"), 1.0]], None),
    ([[-2.0, 0.0], [5.0, -7.0]], "int16"),  # negatives, and a positive zero
    ([[-2.0, -0.0]], None),               # a negative zero among negatives
])
def test_a_cell_with_integer_statistics_comes_back_the_same(store_dir, stats, compact):
    """Integer-valued sentence statistics are kept as integers and given back as the same
    float64 array (bit for bit); any other array is kept as it is."""
    import numpy as np

    from gecscore.leaderboard.system_scores import SystemScore

    values = np.array(stats, dtype=np.float64)
    score = SystemScore(0.5, {"p": 1.0}, "sig", values, None, (0.1, 0.2))
    stored = cell_cache.StoredCell.of(cell_cache.CellIdentity("c", "s", (), len(values)), score)
    kept = stored.score.stored_stats.dtype.name
    assert kept == (compact or "float64")
    cells = cell_cache.CellCache(DiskCache(store_dir), "base")
    identity = cell_cache.CellIdentity("c", "s", (), len(values))
    cells.put("k" * 64, identity, score)
    back = cells.get("k" * 64, identity)
    assert back.sentence_stats.dtype == np.float64
    assert back.sentence_stats.tobytes() == values.tobytes()
    assert score.compact().sentence_stats.tobytes() == values.tobytes()
    assert (back.score, back.details, back.signature, back.sentence_scores) == (0.5, {"p": 1.0}, "sig", (0.1, 0.2))


def test_large_integer_statistics_are_packed_and_come_back_the_same(store_dir):
    """Above PACK_ABOVE bytes the integer statistics are kept zlib-packed (as a worker sends
    them and the cache keeps them) and inflated only when read: the same float64 array, bit
    for bit, through the cell cache; a packed array whose fields or data are not those of one
    (a planted entry) is refused when read, not inflated into something else."""
    import dataclasses

    import numpy as np

    from gecscore.leaderboard.system_scores import PACK_ABOVE, PackedArray, SystemScore

    values = np.random.default_rng(0).integers(-5, 300, size=(600, 1000)).astype(np.float64)
    assert values.astype(np.int16).nbytes > PACK_ABOVE
    score = SystemScore(0.5, {"p": 1.0}, "sig", values, None, None)
    packed = score.compact().stored_stats
    assert isinstance(packed, PackedArray) and packed.dtype == "<i2" and packed.shape == (600, 1000)
    assert len(packed.data) < packed.nbytes
    cells = cell_cache.CellCache(DiskCache(store_dir), "base")
    identity = cell_cache.CellIdentity("c", "s", (), len(values))
    cells.put("p" * 64, identity, score)
    back = cells.get("p" * 64, identity)
    assert isinstance(back.stored_stats, PackedArray)
    assert back.sentence_stats.dtype == np.float64 and back.sentence_stats.tobytes() == values.tobytes()
    for bad in (dict(dtype="<f8"), dict(dtype="|O"), dict(shape=(600, 999)), dict(shape=(600.0, 1000)),
                dict(data=packed.data[:-5]), dict(data=packed.data + b"x")):
        planted = object.__new__(PackedArray)   # as an unpickled entry: fields set, nothing checked
        for field in dataclasses.fields(PackedArray):
            object.__setattr__(planted, field.name, bad.get(field.name, getattr(packed, field.name)))
        with pytest.raises(ValueError):
            planted.unpack()
