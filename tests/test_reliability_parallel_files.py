"""Issue 32, item 1: a system output file is read, never guessed. One reader
(:mod:`gecscore.io.hypotheses`) decides plain or parallel for the whole file, checks every line,
and matches a parallel file's ids and sources against the gold, for the metric commands, the
leaderboard and ChERRANT's scorer alike. Before it, a parallel line that lost a column made the
whole file plain text (each ``id<TAB>source<TAB>prediction`` line scored as the prediction,
exit 0), a file in another order was scored line by line, and the leaderboard took the first of
two predictions where the metric commands refused the line."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore.io.hypotheses import ExpectedLines, comparable, parse_hypotheses, read_hypotheses

from datapaths import GEC_DATA, require

SOURCES = ["This are a sentence .", "He go to school .", "I has a cat ."]
REFERENCES = ["This is a sentence .", "He goes to school .", "I have a cat ."]
PREDICTIONS = ["This is a sentence .", "He go to school .", "I have a cat ."]
IDS = ["s1", "s2", "s3"]


def para_lines(ids=IDS, sources=SOURCES, predictions=PREDICTIONS) -> list[str]:
    return [f"{i}\t{s}\t{p}" for i, s, p in zip(ids, sources, predictions)]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "src.txt").write_text("\n".join(SOURCES) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(REFERENCES) + "\n")
    (tmp_path / "gold.para").write_text("\n".join(f"{i}\t{s}\t{r}" for i, s, r in zip(IDS, SOURCES, REFERENCES)) + "\n")
    (tmp_path / "plain.txt").write_text("\n".join(PREDICTIONS) + "\n")
    (tmp_path / "para.txt").write_text("\n".join(para_lines()) + "\n")
    return tmp_path


def write(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def score(argv, capsys) -> tuple[int, dict | None, str]:
    status = main([*argv, "--json", "--quiet"])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else None), err


# ------------------------------------------------------------------- the reader itself

EXPECTED = ExpectedLines(tuple(SOURCES), tuple(IDS), "the gold")


def test_plain_and_parallel_files_give_the_same_predictions():
    assert parse_hypotheses(PREDICTIONS, "h", EXPECTED).predictions == tuple(PREDICTIONS)
    parallel = parse_hypotheses(para_lines(), "h", EXPECTED)
    assert parallel.format == "parallel" and parallel.predictions == tuple(PREDICTIONS)
    assert parallel.ids == tuple(IDS)


@pytest.mark.parametrize("broken,line,message", [
    ("s2\tHe goes to school .", 2, "fields"),                          # lost a column
    ("s2\tHe go to school .\tHe goes to school .\textra", 2, "4 tab-separated fields"),  # gained one
    ("He goes to school .", 2, "no tab on this line"),                 # a plain line in a parallel file
])
def test_a_damaged_parallel_line_is_refused_naming_file_and_line(broken, line, message):
    lines = para_lines()
    lines[line - 1] = broken
    with pytest.raises(GecInputError, match=message) as caught:
        parse_hypotheses(lines, "hyp.txt", EXPECTED)
    assert f"hyp.txt:{line}" in str(caught.value)


def test_a_tab_in_a_plain_file_makes_it_parallel_and_so_refused():
    lines = list(PREDICTIONS)
    lines[2] = "I have\ta cat ."
    with pytest.raises(GecInputError, match="hyp.txt:1.*no tab|no tab.*hyp.txt:1"):
        parse_hypotheses(lines, "hyp.txt", EXPECTED)


def test_lines_in_another_order_are_refused_by_id_and_by_source():
    order = [1, 0, 2]
    swapped = para_lines([IDS[i] for i in order], [SOURCES[i] for i in order], [PREDICTIONS[i] for i in order])
    with pytest.raises(GecInputError, match="another order") as caught:
        parse_hypotheses(swapped, "hyp.txt", EXPECTED)
    assert "hyp.txt:1" in str(caught.value) and "sentence 2" in str(caught.value)
    # a gold without ids (M2): the sources say so
    with pytest.raises(GecInputError, match="source differs") as caught:
        parse_hypotheses(swapped, "hyp.txt", ExpectedLines(tuple(SOURCES)))
    assert "hyp.txt:1" in str(caught.value)


def test_an_unknown_id_is_refused():
    lines = para_lines(["s1", "x9", "s3"])
    with pytest.raises(GecInputError, match="'x9' is not in the gold"):
        parse_hypotheses(lines, "hyp.txt", EXPECTED)


def test_sources_are_compared_without_whitespace():
    tokenised = ExpectedLines(("冬 阴 功 是 泰 国 菜",), None)
    assert parse_hypotheses(["1\t冬阴功是泰国菜\t冬阴功是泰国菜 。"], "h", tokenised).predictions == ("冬阴功是泰国菜 。",)
    assert comparable(" a  b\tc ") == "abc"


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(6)))
def test_any_reordering_of_a_parallel_file_is_refused_or_is_the_identity(order):
    sources = [f"sentence number {k} ." for k in range(6)]
    ids = [f"id{k}" for k in range(6)]
    lines = [f"{ids[k]}\t{sources[k]}\tprediction {k}" for k in order]
    expected = ExpectedLines(tuple(sources), tuple(ids))
    if list(order) == list(range(6)):
        assert parse_hypotheses(lines, "h", expected).predictions == tuple(f"prediction {k}" for k in range(6))
        return
    with pytest.raises(GecInputError, match="another order"):
        parse_hypotheses(lines, "h", expected)
    with pytest.raises(GecInputError, match="source differs"):
        parse_hypotheses(lines, "h", ExpectedLines(tuple(sources)))


# ------------------------------------------------------------------- the metric commands

def test_the_metric_commands_score_a_parallel_file_as_its_plain_twin(files, capsys):
    gold = ["--src", str(files / "src.txt"), "--ref", str(files / "ref.txt")]
    _, plain, _ = score(["gleu", *gold, "--hyp", str(files / "plain.txt")], capsys)
    _, para, _ = score(["gleu", *gold, "--hyp", str(files / "para.txt")], capsys)
    assert para["score"] == plain["score"]


def test_a_parallel_file_that_lost_a_column_is_refused_not_scored(files, capsys):
    lines = para_lines()
    lines[1] = "s2\tHe goes to school ."
    broken = write(files / "broken.txt", lines)
    status, _, err = score(["gleu", "--src", str(files / "src.txt"), "--ref", str(files / "ref.txt"),
                            "--hyp", broken], capsys)
    assert status == 2 and f"{broken}:2" in err


def test_a_parallel_file_in_another_order_than_a_para_gold_is_refused(files, capsys):
    order = [2, 0, 1]
    shuffled = write(files / "shuffled.txt", para_lines([IDS[i] for i in order], [SOURCES[i] for i in order],
                                                        [PREDICTIONS[i] for i in order]))
    status, _, err = score(["pt_m2", "--para", str(files / "gold.para"), "--hyp", shuffled, "--scorer", "none"], capsys)
    assert status == 2 and "another order" in err and f"{shuffled}:1" in err


# ------------------------------------------------------------------- the leaderboard agrees

def test_the_leaderboard_refuses_what_the_commands_refuse(files, capsys):
    systems = files / "systems"
    systems.mkdir()
    lines = para_lines()
    lines[0] += "\tanother prediction"   # an extra column: the leaderboard used to take the first
    write(systems / "EXTRA.txt", lines)
    status = main(["leaderboard", "--para", str(files / "gold.para"), "--systems", str(systems),
                   "--metrics", "m2-corpus", "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and "EXTRA.txt:1" in err and "fields" in err
    status, _, err = score(["pt_m2", "--para", str(files / "gold.para"), "--hyp", str(systems / "EXTRA.txt"),
                            "--scorer", "none"], capsys)
    assert status == 2 and "EXTRA.txt:1" in err


def test_the_leaderboard_scores_a_parallel_system_as_its_plain_twin(files, capsys):
    for kind in ("plain", "para"):
        systems = files / f"systems-{kind}"
        systems.mkdir()
        (systems / "SYS.txt").write_text((files / f"{kind}.txt").read_text())
        assert main(["leaderboard", "--para", str(files / "gold.para"), "--systems", str(systems),
                     "--metrics", "m2-corpus", "gleu", "--out", str(files / f"out-{kind}"), "--no-plots",
                     "--quiet"]) == 0
    capsys.readouterr()
    assert (files / "out-plain" / "scores.csv").read_text() == (files / "out-para" / "scores.csv").read_text()


# ------------------------------------------------------------------- ChERRANT's scorer

def test_cherrant_refuses_a_prediction_file_in_another_order(tmp_path):
    from gecscore.m2.cherrant_compare import score_para_files

    gold = write(tmp_path / "gold.para", ["1\t我喜欢吃苹果。\t我喜欢吃苹果。", "2\t他去了学校了。\t他去了学校。"])
    good = write(tmp_path / "good.para", ["1\t我喜欢吃苹果。\t我喜欢吃苹果。", "2\t他去了学校了。\t他去了学校。"])
    assert score_para_files(good, gold).as_dict()["f"] == pytest.approx(1.0)
    swapped = write(tmp_path / "swapped.para", ["2\t他去了学校了。\t他去了学校。", "1\t我喜欢吃苹果。\t我喜欢吃苹果。"])
    with pytest.raises(GecInputError, match="another order"):
        score_para_files(swapped, gold)
    with pytest.raises(GecInputError, match="parallel"):
        score_para_files(write(tmp_path / "plain.txt", ["我喜欢吃苹果。", "他去了学校。"]), gold)


def test_the_published_mucgec_prediction_matches_its_gold_line_by_line():
    from gecscore.io.para import read_para

    data = require(GEC_DATA / "mucgec")
    gold = read_para(data / "MuCGEC_dev.txt")
    hyp = read_hypotheses(data / "example_pred_dev.txt", ExpectedLines(gold.sources, gold.ids))
    assert hyp.format == "parallel" and len(hyp.predictions) == len(gold)
    shuffled = (data / "example_pred_dev.txt").read_text(encoding="utf-8").splitlines()
    random.Random(0).shuffle(shuffled)
    with pytest.raises(GecInputError, match="another order"):
        parse_hypotheses(shuffled, "shuffled", ExpectedLines(gold.sources, gold.ids))
