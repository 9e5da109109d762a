"""Systems in significance clusters (gecscore.significance.system_clusters and ``gecscore
compare`` with more than two systems): every pair by compare's paired randomisation, ranks by
the reference's rule."""
from __future__ import annotations

import json

import numpy as np
import pytest

from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore.significance.comparison import SignificanceConfig, compare_stats, p_value, randomised_differences
from gecscore.significance.ranks import assign_ranks
from gecscore.significance.system_clusters import rank_results, rank_systems


def first_column(means: np.ndarray) -> float:
    return float(means[0])


def sentence_scores(means: dict[str, float], n: int = 200, seed: int = 0) -> dict:
    """One column of sentence scores per system: shared sentence difficulty plus the system's
    level plus noise (so the pairs are paired, as real systems are)."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(size=n)
    return {name: ((difficulty + level + 0.5 * rng.normal(size=n))[:, None], first_column)
            for name, level in means.items()}


def test_every_pair_is_compares_randomisation_and_ranks_follow_the_rule():
    systems = sentence_scores({"A": 1.0, "B": 0.52, "C": 0.5, "D": 0.0})
    result = rank_systems(systems, trials=500, seed=3)
    assert result.names == ("A", "B", "C", "D")
    for i, better in enumerate(result.names):
        for worse in result.names[i + 1:]:
            expected = compare_stats(systems[worse][0], systems[better][0], first_column,
                                     config=SignificanceConfig(0, 500, seed=3)).p_randomisation
            assert result.p_value(better, worse) == expected
    assert result.ranks == assign_ranks(np.array(result.p, dtype=float))
    assert result.ranks == (1, 2, 2, 3)           # B and C are 0.02 apart: one cluster
    assert result.p_value("B", "C") > 0.05 and result.p_value("A", "B") < 0.01


def test_identical_systems_share_a_rank_with_p_one():
    stats = np.random.default_rng(1).normal(size=(50, 1))
    result = rank_systems({"x": (stats, first_column), "y": (stats.copy(), first_column),
                           "z": (stats - 5, first_column)}, trials=200)
    assert result.p_value("x", "y") == 1.0
    assert result.rank_of() == {"x": 1, "y": 1, "z": 2}


def test_one_sided_p_by_hand_formula():
    systems = sentence_scores({"A": 0.1, "B": 0.0}, n=40, seed=5)
    result = rank_systems(systems, trials=300, seed=2, alternative="one-sided")
    better, worse = result.names
    d = randomised_differences(systems[worse][0], systems[better][0], first_column, first_column, 300, 3)
    delta = systems[better][0].mean() - systems[worse][0].mean()
    assert result.p_value(better, worse) == p_value(d >= delta - 1e-12)
    two_sided = rank_systems(systems, trials=300, seed=2).p_value(better, worse)
    assert result.p_value(better, worse) <= two_sided


def test_bad_inputs():
    one = np.zeros((3, 1))
    with pytest.raises(GecInputError):
        rank_systems({"a": (one, first_column)})
    with pytest.raises(GecInputError):
        rank_systems({"a": (one, first_column), "b": (np.zeros((4, 1)), first_column)})
    with pytest.raises(GecInputError):
        rank_systems({"a": (one, first_column), "b": (one, first_column)}, alternative="greater")
    with pytest.raises(GecInputError):
        rank_systems({"a": (one, first_column), "b": (one, first_column)}, alpha=0)


def toy_files(tmp_path):
    sources = ["a b c d", "e f g h", "i j k l", "m n o p"]
    refs = ["a b x d", "e f g y", "i z k l", "m n q p"]
    half = [refs[0], refs[1], sources[2], sources[3]]
    for name, lines in (("src.txt", sources), ("ref.txt", refs), ("INPUT.txt", sources), ("REF.txt", refs),
                        ("HALF.txt", half)):
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    return ["compare", "--metric", "gleu", "--set", "order=2", "--src", str(tmp_path / "src.txt"),
            "--ref", str(tmp_path / "ref.txt"), "--bootstrap", "0", "--randomisation", "200", "--hyp"]


def test_compare_prints_clusters_with_more_than_two_systems(tmp_path, capsys):
    argv = toy_files(tmp_path)
    hyps = [str(tmp_path / f"{n}.txt") for n in ("INPUT", "HALF", "REF")]
    assert main(argv + hyps + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ranking = out["clusters"]["ranking"]
    assert [r["name"] for r in ranking] == ["REF", "HALF", "INPUT"]
    assert [r["rank"] for r in ranking] == [1, 1, 1]      # 4 sentences: nothing is significant
    import gecscore

    metric = gecscore.load("gleu", order=2)
    prepared = metric.prepare_text((tmp_path / "src.txt").read_text().splitlines(),
                                   [[line] for line in (tmp_path / "ref.txt").read_text().splitlines()])
    results = [(n, metric.score(prepared, (tmp_path / f"{n}.txt").read_text().splitlines()))
               for n in ("INPUT", "HALF", "REF")]
    expected = rank_results(results, trials=200, seed=0)
    assert [p["p"] for p in out["clusters"]["p"]] == [expected.p_value(a, b) for a, b in
                                                     (("REF", "HALF"), ("REF", "INPUT"), ("HALF", "INPUT"))]
    # the baseline's p AR in the table is the matrix's p for the same pair
    assert out["comparisons"][1]["p_randomisation"] == expected.p_value("REF", "INPUT")
    assert main(argv + hyps) == 0
    text = capsys.readouterr().out
    assert "clusters:" in text and expected.text() in text
    assert main(argv + hyps[:2]) == 0
    assert "clusters" not in capsys.readouterr().out
