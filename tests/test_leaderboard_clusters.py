"""Significance clusters on a leaderboard (issue 50 items 3, 4 and the segment level): the
configurations ranked by PERM-BOTH per human signal and level, the systems ranked per
configuration, soft pairwise accuracy, in ``leaderboard.json`` and ``leaderboard.md``; the
undefined cases named. A synthetic board (no data), the tiny CLI board and, with GEC_DATA, SEEDA."""
from __future__ import annotations

import json

import numpy as np
import pytest

from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore.leaderboard.board import Leaderboard, rank_in_clusters
from gecscore.leaderboard.clusters import ClusterOptions
from gecscore.leaderboard.configurations import MetricConfig
from gecscore.leaderboard.report import markdown
from gecscore.leaderboard.system_scores import SystemScore
from gecscore.metaeval.correlation import correlate
from gecscore.metaeval.draw_statistics import sentence_statistic, system_statistic
from gecscore.metaeval.human import HumanScores
from gecscore.metaeval.human_segments import SegmentScores
from gecscore.metaeval.perm_both import PermBothParams, perm_both
from gecscore.metaeval.segment_correlation import item_correlations
from gecscore.metaeval.sentence_level import Judgment, pairwise_agreement
from gecscore.metaeval.soft_pairwise import soft_pairwise_accuracy
from gecscore.outputs import json_text
from gecscore.significance.ranks import assign_ranks
from gecscore.significance.system_clusters import rank_systems

from datapaths import CONLL14, GEC_DATA, require
from test_leaderboard import JUDGMENTS, tiny  # noqa: F401 - the fixture

SYSTEMS = ("A", "B", "C", "D", "E", "F")
# docs/significance_clusters.md's example: x correlates better than y, p = 0.012 (k 1000, seed 0)
HUMAN = {"A": 0.9, "B": 0.7, "C": 0.6, "D": 0.3, "E": 0.1, "F": 0.0}
X = {"A": 60, "B": 52, "C": 55, "D": 40, "E": 31, "F": 33}
Y = {"A": 0.5, "B": 0.6, "C": 0.4, "D": 0.45, "E": 0.2, "F": 0.3}
SPREAD = {"A": 1, "B": 5, "C": -3, "D": 2, "E": 0.5, "F": -1}   # sentence scores: score + k, score, score - k
JUDGED = [Judgment("1", 0, "a", {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}),
          Judgment("2", 1, "a", {"F": 1, "E": 2, "D": 3, "C": 3, "B": 5}),
          Judgment("3", 2, "b", {"A": 2, "C": 1, "E": 3, "F": 4, "B": 4})]


def _mean(means: np.ndarray) -> float:
    return float(means[0])


def _cell(score: float, scale: float, system: str) -> SystemScore:
    sentences = (score + scale * SPREAD[system], float(score), score - scale * SPREAD[system])
    return SystemScore(float(score), {}, "sig", np.array(sentences)[:, None], _mean, sentences)


def synthetic_board() -> Leaderboard:
    """x and y with sentence scores and statistics; ``const`` constant at every level;
    ``corpus`` a corpus-only score (0 to 5: against the human order); the human ranking ``h``."""
    configs = [MetricConfig(n, "toy", ()) for n in ("x", "y", "const", "corpus")]
    scores = {s: {"x": _cell(X[s], 1.0, s), "y": _cell(Y[s], 0.01, s),
                  "const": SystemScore(0.5, {}, "sig", np.full((3, 1), 0.5), _mean, (0.5, 0.5, 0.5)),
                  "corpus": SystemScore(float(i), {}, "sig")} for i, s in enumerate(SYSTEMS)}
    board = Leaderboard("toy", {}, 3, configs, list(SYSTEMS), scores)
    board.human = {"h": HumanScores("h", dict(HUMAN))}
    board.correlations = {c.name: {"h": correlate(board.column(c.name), board.human["h"])} for c in configs}
    return board


LONELY = [Judgment("4", 0, "a", {"A": 1, "Z": 2})]   # no pair of two scored systems
SEGMENTS = SegmentScores("seg", SYSTEMS, tuple((HUMAN[s] + 0.3, HUMAN[s], HUMAN[s] - 0.2 * SPREAD[s]) for s in SYSTEMS))


@pytest.fixture(scope="module")
def clustered() -> Leaderboard:
    board = synthetic_board()
    rank_in_clusters(board, ClusterOptions(systems=True), judgments={"judged": JUDGED, "lonely": LONELY},
                     positions=range(3), segments={"seg": SEGMENTS}, progress=False)
    return board


def test_system_level_ranks_the_docs_example_and_names_what_is_undefined(clustered):
    section = json.loads(json_text(clustered.as_dict()))["metric_clusters"]
    h = section["system"]["h"]
    assert [(e["name"], e["rank"]) for e in h["ranking"]] == [("x", 1), ("y", 2), ("corpus", 3)]
    # the docs' perm_both(y, x): a pair's p-value does not depend on the other configurations
    assert h["p"][0] == {"better": "x", "worse": "y", "p": 0.012, "draws": 1000}
    # the statistic is the Pearson r the board's correlations report
    assert {e["name"]: e["value"] for e in h["ranking"]} == pytest.approx(
        {c: clustered.correlations[c]["h"].pearson for c in ("x", "y", "corpus")}, abs=1e-12)
    assert h["left_out"] == {"const": "constant scores (every system scores 0.5000): nothing to correlate"}
    assert h["systems"] == list(SYSTEMS) and h["cells"] == 6
    # no pair of outputs to compare: not run, said, no number
    lonely = section["sentence"]["lonely"]
    assert "ranking" not in lonely and "p" not in lonely
    assert lonely["undefined"] == "no pair to compare: every group has fewer than two outputs"
    assert section["options"]["draws"] == 1000 and section["options"]["alpha"] == 0.05
    assert section["options"]["tests"]["system"] == "perm-both|k:1000|block:1000|early:0.02,0.5|seed:0"
    assert section["options"]["tests"]["sentence"] == "perm-both|k:1000|block:100|early:0.02,0.5|seed:0"


def test_ranks_are_assign_ranks_of_the_p_matrix_at_every_level(clustered):
    section = json.loads(json_text(clustered.as_dict()))["metric_clusters"]
    checked = 0
    for level in ("system", "sentence", "segment"):
        for result in section[level].values():
            if "ranking" not in result:
                continue
            names = [e["name"] for e in result["ranking"]]
            p = np.full((len(names), len(names)), np.nan)
            for pair in result["p"]:
                p[names.index(pair["better"]), names.index(pair["worse"])] = pair["p"]
            assert [e["rank"] for e in result["ranking"]] == list(assign_ranks(p, result["alpha"]))
            checked += 1
    assert checked == 3   # h, judged, seg (lonely is undefined)
    systems = json.loads(json_text(clustered.as_dict()))["system_clusters"]
    for result in systems["configs"].values():
        names = [e["name"] for e in result["ranking"]]
        p = np.full((len(names), len(names)), np.nan)
        for pair in result["p"]:
            p[names.index(pair["better"]), names.index(pair["worse"])] = pair["p"]
        assert [e["rank"] for e in result["ranking"]] == list(assign_ranks(p, result["alpha"]))


def test_fewer_systems_than_the_statistic_needs_is_said():
    from gecscore.leaderboard.cluster_report import metric_clusters_markdown

    board = synthetic_board()
    board.human["two"] = HumanScores("two", {"A": 1.0, "B": 0.0})
    rank_in_clusters(board, ClusterOptions(), progress=False)
    two = board.metric_clusters["system"]["two"]
    assert two.ranking is None and two.as_dict()["undefined"] == (
        "not run: a system-level pearson needs at least 3 systems and two ranks 2 of this board's systems")
    assert "Not computed: not run: a system-level pearson needs at least 3 systems" in "\n".join(
        metric_clusters_markdown(board))
    assert board.cluster_notes == [
        "metric clusters on h (system level): `const` left out: constant scores (every system scores 0.5000): "
        "nothing to correlate",
        "metric clusters on two (system level): not run: a system-level pearson needs at least 3 systems and two "
        "ranks 2 of this board's systems"]


def test_alpha_moves_the_ranks():
    board = synthetic_board()
    rank_in_clusters(board, ClusterOptions(alpha=0.01), progress=False)
    ranking = board.metric_clusters["system"]["h"].ranking
    assert ranking.p_value("x", "y") == 0.012 and ranking.ranks[:2] == (1, 1)   # 0.012 > 0.01: not separated


def test_sentence_level_is_the_tables_accuracy_with_perm_both_p_values(clustered):
    result = clustered.metric_clusters["sentence"]["judged"]
    systems = sorted(SYSTEMS)
    expected = {}
    for config in ("x", "y"):
        scores = {s: dict(enumerate(clustered.scores[s][config].sentence_scores)) for s in systems}
        expected[config] = pairwise_agreement(JUDGED, scores, systems, "neutral").accuracy
    assert dict(zip(result.ranking.names, result.ranking.values)) == pytest.approx(expected, abs=1e-12)
    assert result.left_out == {"const": "constant scores (every output scores 0.5000): nothing to correlate",
                               "corpus": "no sentence scores"}
    assert result.settings == {"ties": "neutral", "grouping": "pooled"}
    # the p-value is perm_both's on the same cells, with blocks of 100 and early stopping
    statistic = sentence_statistic("accuracy", JUDGED, systems)
    better, worse = result.ranking.names
    vector = lambda c: statistic.vector({s: dict(enumerate(clustered.scores[s][c].sentence_scores)) for s in systems})
    direct = perm_both(vector(worse), vector(better), statistic, PermBothParams(k=1000, block_size=100))
    assert result.ranking.p_value(better, worse) == direct.p and result.ranking.draws[0][1] == direct.draws
    assert result.cells == len(statistic.cells)


def test_system_clusters_are_rank_systems_per_configuration(clustered):
    assert set(clustered.system_clusters) == {"x", "y", "const"}
    assert clustered.system_clusters_left_out == {"corpus": "no per-sentence statistics to randomise (a corpus-only "
                                                            "score)"}
    direct = rank_systems({s: (clustered.scores[s]["x"].sentence_stats, _mean) for s in SYSTEMS}, trials=1000)
    ours = clustered.system_clusters["x"]
    assert (ours.names, ours.ranks, ours.values, ours.test) == (direct.names, direct.ranks, direct.values, direct.test)
    assert ours.as_dict()["p"] == direct.as_dict()["p"]
    # a configuration scoring every system alike: every p is 1, one cluster (defined, not left out)
    assert set(clustered.system_clusters["const"].ranks) == {1}


def test_segment_level_spa_and_item_correlations_are_the_librarys():
    from gecscore.leaderboard.analyses import segment_agreements

    board = synthetic_board()
    table, notes = segment_agreements(board, {"seg": SEGMENTS, "other": SegmentScores("other", SYSTEMS[:2],
                                                                                        ((1.0,) * 4, (0.0,) * 4))})
    metric = {s: board.scores[s]["x"].sentence_scores for s in SYSTEMS}
    assert table["x"]["seg"].spa == soft_pairwise_accuracy(SEGMENTS, metric)
    assert table["x"]["seg"].item == item_correlations(SEGMENTS, metric)
    assert set(table) == {"x", "y", "const"}      # corpus has no sentence scores
    assert notes == ["segment level on other: not run: other rates 4 segments and this board scores 3 sentences"]
    board.segment_level = table
    page = markdown(board)
    assert "## Segment level on seg (soft pairwise accuracy; correlations within each segment)" in page
    assert f"| x | {table['x']['seg'].spa.value:.4f} |" in page
    assert json.loads(json_text(board.as_dict()))["segment_level"]["configs"]["x"]["seg"]["spa"]["spa"] == \
        pytest.approx(table["x"]["seg"].spa.value)


def test_segment_level_clusters(clustered):
    result = clustered.metric_clusters["segment"]["seg"]
    assert result.settings == {"grouping": "item"} and result.cells == 18
    assert set(result.ranking.names) == {"x", "y"}
    assert result.left_out["const"].startswith("constant scores") and result.left_out["corpus"] == "no sentence scores"


def test_markdown_has_each_ranking_as_the_reference_prints_it(clustered):
    page = markdown(clustered)
    ranking = clustered.metric_clusters["system"]["h"].ranking
    assert "## Metrics in significance clusters on h (system level, pearson)" in page
    assert "```text\n" + ranking.text() + "\n```" in page
    assert "```text\n" + ranking.text(probabilities=True) + "\n```" in page
    assert "- `const`: constant scores (every system scores 0.5000): nothing to correlate" in page
    assert "Not computed: no pair to compare: every group has fewer than two outputs." in page
    assert "## Systems in significance clusters (paired approximate randomisation (two-sided p, 1000 trials, " \
           "seed 0), alpha 0.05)" in page
    rank = clustered.system_clusters["x"].rank_of()
    assert f"| A | {rank['A']} | {clustered.system_clusters['y'].rank_of()['A']} | 1 |" in page
    assert "## Not computed (segment level and clusters)" in page
    # what is undefined is never printed as a number: no NaN anywhere, in the page or the JSON
    assert "nan" not in page.lower()
    json_text(clustered.as_dict())   # strict JSON: raises on a NaN


def test_cluster_options_are_checked():
    with pytest.raises(GecInputError, match="positive integer"):
        ClusterOptions(draws=0)
    with pytest.raises(GecInputError, match="alpha"):
        ClusterOptions(alpha=1.0)
    with pytest.raises(GecInputError, match="unknown statistic 'tau'"):
        ClusterOptions(system_statistic="tau")
    with pytest.raises(GecInputError, match="grouping"):
        ClusterOptions(grouping="items")


def test_cli_sections_options_and_the_default_run_unchanged(tiny, capsys):  # noqa: F811 - the fixture
    (tiny / "judgments.xml").write_text(JUDGMENTS)
    base = ["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"), "--metrics",
            "m2-sentence", "m2-corpus", "cleme2-sentence-dep", "--json"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)
    assert not {"metric_clusters", "system_clusters", "segment_level", "cluster_notes"} & set(plain)
    human = ["--human", str(tiny / "human.tsv"), "--sentence-judgments", f"toy={tiny / 'judgments.xml'}"]
    assert main([*base, *human, "--cluster-draws", "0"]) == 0
    without = json.loads(capsys.readouterr().out)
    assert "metric_clusters" not in without and "metric_significance" in without
    assert main([*base, *human, "--cluster-draws", "200", "--seed", "3", "--system-clusters",
                 "--cluster-statistic", "spearman"]) == 0
    board = json.loads(capsys.readouterr().out)
    # the clusters add sections; every number the run had is unchanged
    assert {k: board[k] for k in without if k != "seconds"} == {k: without[k] for k in without if k != "seconds"}
    options = board["metric_clusters"]["options"]
    assert (options["draws"], options["alpha"], options["seed"], options["statistics"]["system"]) == (200, 0.05, 3,
                                                                                                      "spearman")
    system = board["metric_clusters"]["system"]["human-EW"]
    assert system["statistic"] == "spearman" and {e["name"] for e in system["ranking"]} <= set(plain["configs"])
    assert board["metric_clusters"]["sentence"]["toy"]["ties"] == "neutral"
    assert set(board["system_clusters"]["configs"]) == {"m2-sentence", "m2-corpus", "cleme2-sentence-dep"}
    assert board["system_clusters"]["options"] == {"trials": 200, "alpha": 0.05, "seed": 3, "test": (
        "paired approximate randomisation (two-sided p, 200 trials, seed 3)")}
    # --alpha: every cluster of the run, Williams' included
    assert main([*base, *human, "--alpha", "0.1"]) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["metric_clusters"]["system"]["human-EW"]["alpha"] == 0.1
    assert board["metric_significance"]["human-EW"]["alpha"] == 0.1
    assert main([*base, *human, "--alpha", "0.1", "--cluster-draws", "0"]) == 0   # Williams' without the clusters
    board = json.loads(capsys.readouterr().out)
    assert "metric_clusters" not in board and board["metric_significance"]["human-EW"]["alpha"] == 0.1
    assert main([*base, *human, "--cluster-statistic", "tau"]) == 2
    assert "invalid choice: 'tau'" in capsys.readouterr().err


@pytest.mark.realdata("seeda/outputs/subset/INPUT.txt", "seeda/judgments_sent.xml", "conll14/official-2014.combined.m2")
def test_real_seeda_green_clusters_as_in_the_docs():
    """GREEN and SentGREEN on the SEEDA subset, base set: Pearson with SEEDA-S TrueSkill and the
    PERM-BOTH p-value between them as docs/significance_clusters.md's 18-configuration table
    has them (green rank 1 beats green-sentence: ``>``), and the sentence level equal to the
    sentence-level table's Acc."""
    from gecscore.benchdata.refsets import load_refset
    from gecscore.cli.leaderboard import load_judgments
    from gecscore.io.text import read_lines
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.metaeval.human import load_human, match_lines

    subset = require(GEC_DATA / "seeda" / "outputs" / "subset")
    require(CONLL14 / "official-2014.combined.m2")
    refset = load_refset("conll14")
    refset = refset.subset(match_lines(read_lines(subset / "INPUT.txt"), refset.sources))
    human = load_human("seeda-base", GEC_DATA)
    names = human["seeda-S-TS"].systems
    judgments = load_judgments(["seeda"], str(GEC_DATA))
    board = run_leaderboard(refset, discover_systems(subset, only=names), ["green", "green-sentence"], human=human,
                            progress=False, judgments={"SEEDA-S": judgments["SEEDA-S"]}, clusters=ClusterOptions())
    ranking = board.metric_clusters["system"]["seeda-S-TS"].ranking
    assert ranking.names == ("green", "green-sentence") and ranking.ranks == (1, 2)
    assert [round(v, 7) for v in ranking.values] == [0.9185900, 0.9025603]
    statistic = system_statistic("pearson", human["seeda-S-TS"].scores)
    direct = perm_both(statistic.vector(board.column("green-sentence")), statistic.vector(board.column("green")),
                       statistic)
    assert ranking.p_value("green", "green-sentence") == direct.p < 0.05
    sentence = board.metric_clusters["sentence"]["SEEDA-S"].ranking
    assert dict(zip(sentence.names, sentence.values)) == pytest.approx(
        {c: board.sentence_level[c]["SEEDA-S"].accuracy for c in ("green", "green-sentence")}, abs=1e-12)


@pytest.mark.realdata("gmeg/test/fce/segment-scores.csv", "gmeg/test/fce/source.txt")
def test_real_gmeg_segment_level_on_the_leaderboard(tmp_path):
    """GLEU and SentM2 on GMEG's FCE test split, as docs/gmeg.md runs the board: the
    leaderboard's soft pairwise accuracy and item-grouped correlations are docs/gmeg.md's table
    (GLEU's SPA 0.9035333333333333, the reference's pce.py; r 0.400 over 806 sentences), and
    the segment level is ranked in clusters."""
    from gecscore.benchdata.refsets import refset_from_para
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.metaeval.human import load_human
    from gecscore.metaeval.human_segments import gmeg_segment_scores

    folder = GEC_DATA / "gmeg" / "test" / "fce"
    read = lambda name: (folder / name).read_text(encoding="utf-8").splitlines()
    columns = [read("source.txt")] + [read(f"ref{k}.txt") for k in range(4)]
    para = tmp_path / "gmeg-fce-test.txt"
    para.write_text("".join(f"{i}\t" + "\t".join(row) + "\n" for i, row in enumerate(zip(*columns), start=1)),
                    encoding="utf-8")
    board = run_leaderboard(refset_from_para(para, "en"), discover_systems(folder / "systems"),
                            ["gleu", "m2-sentence"], human=load_human("gmeg-fce", GEC_DATA), progress=False,
                            segments={"gmeg-fce": gmeg_segment_scores("gmeg-fce", GEC_DATA)}, clusters=ClusterOptions())
    gleu = board.segment_level["gleu"]["gmeg-fce"]
    assert gleu.spa.value == 0.9035333333333333
    assert round(gleu.item.pearson, 3) == 0.400 and gleu.item.defined["pearson"] == 806
    m2 = board.segment_level["m2-sentence"]["gmeg-fce"]
    assert (round(m2.spa.value, 4), round(m2.item.pearson, 3), round(m2.item.acc_eq, 3)) == (0.8854, 0.390, 0.720)
    segment = board.metric_clusters["segment"]["gmeg-fce"]
    assert segment.cells == 963 * 6 and set(segment.ranking.names) == {"gleu", "m2-sentence"}
    assert dict(zip(segment.ranking.names, segment.ranking.values))["gleu"] == pytest.approx(gleu.item.pearson,
                                                                                            abs=1e-12)
