"""Issue 32, item 3: no number where there is no data. A system no sentence comparison covers
has no pairwise aggregate (NaN, as the mean of no sentence scores), a one-system run does not
claim what it did not do, and every JSON gecscore writes is strict JSON (``null``, never
``NaN`` or ``Infinity``)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gecscore.cli import main
from gecscore.leaderboard.analyses import aggregate_scores
from gecscore.leaderboard.board import Leaderboard
from gecscore.leaderboard.configurations import MetricConfig
from gecscore.leaderboard.system_scores import SystemScore
from gecscore.leaderboard.report import markdown
from gecscore.metaeval.trueskill_aggregate import expected_wins_aggregate, trueskill_aggregate
from gecscore.outputs import json_ready, json_text

from test_leaderboard import tiny  # noqa: F401 - the fixture

NAN = float("nan")


def strict_loads(text: str):
    """``json.loads`` that refuses NaN and the infinities, as a strict JSON reader does."""
    def refuse(constant: str):
        raise AssertionError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def board_of(sentences: dict[str, tuple[float, ...]]) -> Leaderboard:
    configs = [MetricConfig("sent", "toy", ())]
    scores = {s: {"sent": SystemScore(float(np.nanmean(v)) if not all(map(math.isnan, v)) else NAN, {}, "sig",
                                      sentence_scores=v)} for s, v in sentences.items()}
    return Leaderboard("toy", {}, len(next(iter(sentences.values()))), configs, list(sentences), scores)


@pytest.mark.parametrize("aggregate", [trueskill_aggregate, expected_wins_aggregate])
def test_a_system_compared_with_none_has_no_aggregate(aggregate):
    every_call_failed = aggregate({"a": [NAN, NAN], "b": [NAN, NAN], "c": [NAN, NAN]})
    assert all(math.isnan(v) for v in every_call_failed.values())
    # a's and b's scores never fall on the same sentence: neither was compared
    disjoint = aggregate({"a": [1.0, NAN], "b": [NAN, 2.0]})
    assert all(math.isnan(v) for v in disjoint.values())
    # c failed everywhere; a and b compare on both sentences and keep their numbers
    partial = aggregate({"a": [1.0, 1.0], "b": [0.0, 0.0], "c": [NAN, NAN]})
    assert math.isnan(partial["c"]) and partial["a"] > partial["b"]


@pytest.mark.parametrize("method", ["trueskill", "expected-wins"])
def test_aggregation_of_failed_judgments_is_null_like_mean(method):
    sentences = {"A": (NAN, NAN), "B": (NAN, NAN)}
    mean_board, board = board_of(sentences), board_of(sentences)
    aggregate_scores(mean_board, "mean")
    aggregate_scores(board, method)
    assert board.aggregated == ["sent"]
    for b in (mean_board, board):   # the same rule: no data, no number
        cells = strict_loads(json_text(b.as_dict()))["systems"]
        assert [cells[s]["sent"]["score"] for s in ("A", "B")] == [None, None]


def test_one_system_trueskill_reports_what_happened():
    board = board_of({"A": (1.0, 0.5)})
    assert aggregate_scores(board, "trueskill") == []
    page = markdown(board)
    assert "no configuration has sentence scores" not in page   # it has: there is one system
    assert "trueskill asked, but it compares systems and this run has 1" in page
    assert board.column("sent") == {"A": 0.75}


def test_json_text_is_strict():
    value = {"a": NAN, "b": [float("inf"), -float("inf"), 1.5], "c": (np.float64("nan"), np.float32(0.5)),
             "d": {"e": 2, "f": None, "g": True, "h": "NaN"}}
    assert strict_loads(json_text(value)) == {"a": None, "b": [None, None, 1.5], "c": [None, 0.5],
                                              "d": {"e": 2, "f": None, "g": True, "h": "NaN"}}
    assert json_ready(3) == 3 and json_ready(True) is True


def test_leaderboard_json_and_out_are_strict_json(tiny, capsys):  # noqa: F811 - the fixture
    """INPUT, WRONG and a copy of INPUT all score 0 on M2: their column is constant, so its
    correlation with the humans is undefined (NaN inside): null in ``--json`` and in
    ``leaderboard.json``."""
    out = tiny / "out"
    hyp = tiny / "hyp"
    (hyp / "COPY.errant.m2").write_text((hyp / "INPUT.errant.m2").read_text())
    (tiny / "three.tsv").write_text("system\tEW\nINPUT\t1\nWRONG\t2\nCOPY\t3\n")
    status = main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(hyp), "--metrics", "m2-corpus",
                   "--only", "INPUT", "WRONG", "COPY", "--human", str(tiny / "three.tsv"),
                   "--out", str(out), "--no-plots", "--json", "--quiet"])
    assert status == 0
    printed = strict_loads(capsys.readouterr().out)
    written = strict_loads((out / "leaderboard.json").read_text())
    for board in (printed, written):
        assert board["correlations"]["m2-corpus"]["three-EW"]["pearson"] is None
