"""No undefined statistic is printed as a number (issue 39): a correlation of constant scores, a
Williams' test on too few systems, a ratio with nothing to divide by read "undefined" in every
text a person reads, null in JSON, and are named in the page, the JSON and stderr."""
from __future__ import annotations

import json
import math

import pytest

from gecscore.cli import main
from gecscore.metaeval.human import HumanScores
from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.report import markdown
from gecscore.result_text import number, values_text

from tiny_board import write_tiny_board


def test_number_says_undefined_for_nan_and_none_and_keeps_the_layout():
    assert number(math.nan) == "undefined" and number(None) == "undefined"
    assert number(0.25) == "0.2500" and number(0.25, ".3f") == "0.250"
    assert number(math.nan, ">12.4f") == "   undefined" and number(1.0, ">8.4f") == "  1.0000"
    assert "nan" not in values_text({"signature": "s", "score": math.nan, "tp": 3})


def _board(tmp_path, same: bool):
    (tmp_path / "board").mkdir()
    refset, systems = write_tiny_board(tmp_path / "board")
    if same:   # every system outputs the source: every metric is constant across them
        for system in systems:
            system.text_path.write_text("The cat sit on mat .\nHe go home .\n")
    return refset, systems


def test_constant_scores_read_undefined_and_are_named(tmp_path):
    refset, systems = _board(tmp_path, same=True)
    human = {"h": HumanScores("h", {"PERFECT": 3.0, "HALF": 2.0, "INPUT": 1.0})}
    board = run_leaderboard(refset, systems, ["m2-corpus", "gleu"], human=human, progress=False)
    page = markdown(board)
    assert "nan" not in page
    assert "undefined" in page and "## Undefined statistics" in page
    assert "`m2-corpus` on h: correlations undefined: every system scores" in page
    assert "Williams' test on h: not run: it needs at least 4 systems" in page
    data = board.as_dict()
    assert any("Williams' test on h" in note for note in data["undefined_statistics"])
    from gecscore.outputs import json_text

    assert "NaN" not in json_text(data) and json.loads(json_text(data))["correlations"]["m2-corpus"]["h"]["pearson"] is None


def test_a_board_with_four_systems_runs_williams_and_names_the_constant_metric(tmp_path):
    refset, systems = _board(tmp_path, same=False)
    extra = systems[0].text_path.parent / "OTHER.txt"
    extra.write_text("The cat sits on mat .\nHe go home .\n")
    from gecscore.leaderboard.systems import discover_systems

    systems = discover_systems(systems[0].text_path.parent)
    human = {"h": HumanScores("h", {"PERFECT": 4.0, "HALF": 3.0, "OTHER": 2.0, "INPUT": 1.0})}
    board = run_leaderboard(refset, systems, ["m2-corpus", "cleme2-corpus-dep"], human=human, progress=False)
    assert board.metric_significance and "h" in board.metric_significance
    page = markdown(board)
    assert "nan" not in page and "Williams' test on h: not run" not in page


def test_the_cli_names_undefined_statistics_on_stderr(tmp_path, capsys):
    refset, systems = _board(tmp_path, same=True)
    tsv = tmp_path / "human.tsv"
    tsv.write_text("system\tscore\nPERFECT\t3\nHALF\t2\nINPUT\t1\n")
    code = main(["leaderboard", "--m2", str(tmp_path / "board" / "gold.m2"), "--systems",
                 str(tmp_path / "board" / "systems"), "--metrics", "m2-corpus", "--human", str(tsv)])
    assert code == 0
    captured = capsys.readouterr()
    assert "nan" not in captured.out and "undefined" in captured.out
    assert "note: Williams' test on" in captured.err and "correlations undefined" in captured.err


def test_robustness_names_the_human_best_system_given_directly(tmp_path):
    from gecscore.robustness.measure import Robustness, markdown as robustness_markdown

    result = Robustness("conll14", 2, ("A", "B"), ("X",), (), 1.0, None, "A", (), ())
    text = robustness_markdown(result)
    assert "None" not in text and "it scores above A, the real system named as the human-best" in text
