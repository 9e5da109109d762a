"""Paired bootstrap and approximate randomisation (gecscore.significance.comparison)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import gecscore
from datapaths import CONLL14, require
from gecscore.cli import main
from gecscore.significance.comparison import (Comparison, SignificanceConfig, compare_results, compare_stats,
                                            randomised_differences)
from gecscore.metric import first_column


def f_half(means: np.ndarray) -> float:
    """F0.5 of (TP, FP, FN) means: a corpus-level statistic."""
    tp, fp, fn = means
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return 1.25 * p * r / (0.25 * p + r) if p + r else 0.0


def test_identical_systems_have_p_one_and_a_zero_interval():
    stats = np.random.default_rng(1).integers(0, 4, size=(50, 3)).astype(float)
    c = compare_stats(stats, stats.copy(), f_half, config=SignificanceConfig(300, 300, seed=4))
    assert c.delta == 0.0 and c.low == 0.0 and c.high == 0.0
    assert c.p_bootstrap == 1.0 and c.p_randomisation == 1.0


def test_a_system_better_on_every_sentence_is_significant():
    a = np.random.default_rng(2).random((40, 1))
    c = compare_stats(a, a + 0.5, first_column, config=SignificanceConfig(999, 999, seed=0))
    assert c.delta == pytest.approx(0.5)
    # the interval is exactly 0.5 (constant differences); no resample or trial is as extreme
    assert c.low == pytest.approx(0.5) and c.high == pytest.approx(0.5)
    assert c.p_bootstrap == pytest.approx(1 / 1000)
    assert c.p_randomisation == pytest.approx(1 / 1000)


def test_randomisation_by_hand_on_two_sentences():
    # sentence scores A = (0, 0), B = (1, 0): d = 0.5. A swap of sentence 1 gives d' = -0.5,
    # none gives 0.5: |d'| = 0.5 always, so every trial is as extreme and p = 1.
    a, b = np.array([[0.0], [0.0]]), np.array([[1.0], [0.0]])
    d = randomised_differences(a, b, first_column, first_column, 200, seed=0)
    assert set(np.round(d, 12)) <= {0.5, -0.5}
    assert compare_stats(a, b, first_column, config=SignificanceConfig(0, 200)).p_randomisation == 1.0


def test_deterministic_for_a_seed_and_seed_recorded():
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 3, size=(80, 3)).astype(float), rng.integers(0, 3, size=(80, 3)).astype(float)
    config = SignificanceConfig(500, 500, seed=11)
    first, again = compare_stats(a, b, f_half, config=config), compare_stats(a, b, f_half, config=config)
    assert first == again
    assert first.signature == "bs:500|ar:500|seed:11|ci:0.95"
    other = compare_stats(a, b, f_half, config=SignificanceConfig(500, 500, seed=12))
    assert other.p_bootstrap != first.p_bootstrap or other.low != first.low


def test_bootstrap_and_randomisation_agree_on_a_shifted_mean():
    rng = np.random.default_rng(7)
    a = rng.normal(0.0, 1.0, size=(200, 1))
    noise = rng.normal(0.0, 1.0, size=(200, 1))
    noise -= noise.mean()  # the difference of the means is exactly the shift
    for shift, significant in ((0.4, True), (0.03, False)):  # standard error of the mean ~0.07
        b = a + shift + noise
        c = compare_stats(a, b, first_column, config=SignificanceConfig(2000, 2000, seed=1))
        assert (c.p_bootstrap < 0.05) == (c.p_randomisation < 0.05) == significant
        assert abs(c.p_bootstrap - c.p_randomisation) < 0.05


def test_results_of_the_seam_and_the_cli(tmp_path, capsys):
    metric = gecscore.load("gleu", order=2)
    sources = ["a b c d", "e f g h", "i j k l"]
    refs = [["a b x d"], ["e f g y"], ["i z k l"]]
    prepared = metric.prepare_text(sources, refs)
    base = metric.score(prepared, sources)
    better = metric.score(prepared, [r[0] for r in refs])
    c = compare_results(base, better, config=SignificanceConfig(200, 200), names=("src", "ref"))
    assert isinstance(c, Comparison) and c.score_b == pytest.approx(1.0) and c.delta > 0
    for name, lines in (("src.txt", sources), ("ref.txt", [r[0] for r in refs]), ("hyp.txt", [r[0] for r in refs])):
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    argv = ["compare", "--metric", "gleu", "--set", "order=2", "--src", str(tmp_path / "src.txt"),
            "--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "src.txt"), str(tmp_path / "hyp.txt"),
            "--bootstrap", "200", "--randomisation", "200", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["significance"] == "bs:200|ar:200|seed:0|ci:0.95"
    assert out["comparisons"][0]["delta"] == pytest.approx(c.delta)
    assert out["comparisons"][0]["p_bootstrap"] == c.p_bootstrap
    assert main(argv[:-1]) == 0
    assert "(baseline)" in capsys.readouterr().out
    assert main(["compare", "--metric", "gleu", "--src", str(tmp_path / "src.txt"), "--ref",
                 str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "src.txt")]) == 2


@pytest.mark.realdata
def test_amu_vs_camb_m2_is_deterministic():
    m2 = require(CONLL14 / "official-2014.combined.m2")
    systems = [require(CONLL14 / "systems" / f"{name}.txt") for name in ("AMU", "CAMB")]
    from gecscore.io.m2 import read_m2
    from gecscore.types import GoldCorpus

    metric = gecscore.load("pt_m2", scorer="none")
    prepared = metric.prepare(GoldCorpus(tuple(read_m2(m2)), "m2"))
    results = [metric.score(prepared, path.read_text().splitlines()) for path in systems]
    config = SignificanceConfig(1000, 1000, seed=0)
    first = compare_results(*results, config=config)
    assert first == compare_results(*results, config=config)
    assert first.score_a == pytest.approx(0.3501, abs=5e-5) and first.score_b == pytest.approx(0.3733, abs=5e-5)
    assert 0 < first.p_bootstrap < 0.2 and 0 < first.p_randomisation < 0.2
