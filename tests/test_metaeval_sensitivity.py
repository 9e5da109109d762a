"""gecscore.metaeval.sensitivity: which single score change would explain a published correlation."""
from __future__ import annotations

import pytest

from gecscore.errors import GecInputError
from gecscore.metaeval.correlation import pearson, spearman
from gecscore.metaeval.human import HumanScores
from gecscore.metaeval.sensitivity import human_score_fits, system_score_fits

HUMAN = HumanScores("h", {"A": 1.0, "B": 2.0, "C": 3.0, "D": 4.0})


def test_one_system_score_off_is_found():
    # C should be 0.3 to make the metric a perfect linear function of the humans (r = rho = 1);
    # no change of A, B or D alone can give r = 1.
    scores = {"A": 0.1, "B": 0.2, "C": 0.5, "D": 0.4}
    fits = system_score_fits(scores, [HUMAN], [(1.0, 1.0)], span=0.3)
    assert [f.system for f in fits][0] == "C"
    assert fits[0].delta == pytest.approx(-0.2, abs=1e-9)
    assert fits[0].correlations == pytest.approx((1.0, 1.0), abs=1e-9)
    assert fits[0].residual == pytest.approx(0.0, abs=1e-9)
    assert all(f.residual > 0.01 for f in fits[1:])
    # Each fit's correlations are those of the changed scores, computed the ordinary way.
    for fit in fits:
        changed = dict(scores, **{fit.system: scores[fit.system] + fit.delta})
        x, y = [changed[s] for s in "ABCD"], [HUMAN.scores[s] for s in "ABCD"]
        assert fit.correlations == pytest.approx((pearson(x, y), spearman(x, y)))


def test_with_no_change_needed_the_fit_is_zero():
    scores = {"A": 0.1, "B": 0.3, "C": 0.2, "D": 0.4}
    x, y = [scores[s] for s in "ABCD"], [HUMAN.scores[s] for s in "ABCD"]
    fits = system_score_fits(scores, [HUMAN, HUMAN], [(pearson(x, y), spearman(x, y))] * 2)
    assert fits[0].residual == pytest.approx(0.0, abs=1e-9)
    assert fits[0].delta == pytest.approx(0.0, abs=1e-9)


def test_one_human_score_must_fit_every_configuration():
    metric = {"m1": {"A": 1.0, "B": 2.0, "C": 3.0, "D": 4.0}, "m2": {"A": 2.0, "B": 4.0, "C": 6.0, "D": 8.0}}
    human = HumanScores("h", {"A": 0.1, "B": 0.2, "C": 0.5, "D": 0.4})
    fits = human_score_fits(metric, human, {"m1": (1.0, 1.0), "m2": (1.0, 1.0)}, step=0.001)
    assert fits[0].system == "C" and fits[0].delta == pytest.approx(-0.2, abs=1e-9)
    assert fits[0].residual == pytest.approx(0.0, abs=1e-9)
    assert len(fits[0].correlations) == 4


def test_bad_input_is_refused():
    with pytest.raises(GecInputError, match="2 published pairs"):
        system_score_fits({"A": 1, "B": 2, "C": 3, "D": 4}, [HUMAN], [(1, 1), (1, 1)])
    with pytest.raises(GecInputError, match="system\\(s\\) D"):
        system_score_fits({"A": 1, "B": 2, "C": 3}, [HUMAN], [(1, 1)])
    with pytest.raises(GecInputError, match="configuration 'm3'"):
        human_score_fits({"m1": {"A": 1, "B": 2, "C": 3, "D": 4}}, HUMAN, {"m3": (1, 1)})


def test_real_seeda_m2_gap_is_one_system():
    """docs/reproduction.md's SEEDA finding, on the cheapest row: SentM2 matches Table 2 exactly,
    and corpus M2 matches it within rounding once LM-Critic's score alone is raised ~0.02."""
    from datapaths import GEC_DATA, require

    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import load_human, match_lines
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset

    subset = require(GEC_DATA / "seeda" / "outputs" / "subset")
    refset = load_refset("conll14", GEC_DATA)
    refset = refset.subset(match_lines(read_lines(subset / "INPUT.txt"), refset.sources))
    human = load_human("seeda-base", GEC_DATA)
    base = sorted(human["seeda-S-TS"].systems)
    board = run_leaderboard(refset, discover_systems(subset, only=base), ["m2-corpus", "m2-sentence"],
                            human=human, progress=False).as_dict()
    rankings = [human["seeda-S-TS"], human["seeda-E-TS"]]
    sentence = [board["correlations"]["m2-sentence"][h.name][k] for h in rankings for k in ("pearson", "spearman")]
    assert sentence == pytest.approx([0.802, 0.692, 0.887, 0.846], abs=0.0005)
    corpus = {s: board["systems"][s]["m2-corpus"]["score"] for s in base}
    fits = system_score_fits(corpus, rankings, [(0.658, 0.487), (0.791, 0.764)])
    assert fits[0].system == "LM-Critic"
    assert 0.015 <= fits[0].delta <= 0.025 and fits[0].residual <= 0.0055
