"""M2 / SentM2: hand-checked examples, the annotator tie-breaks, the CLI and the official figures."""
from __future__ import annotations

import json

import pytest

from gecscore.cli import main
from gecscore.io.m2 import parse_m2, read_m2
from gecscore.io.text import read_lines
from gecscore.m2.scoring import EditCounts, choose, m2_candidates
from seam import m2

from datapaths import CONLL14, GEC_DATA, require

# Sentence 1: two annotators, one gold edit with alternatives (cats||dogs).
# Sentence 2: a gold insertion at the sentence start.
# Sentence 3: no annotator touched it (no A lines).
# Sentence 4: annotator 0 only has a noop line (an annotator with no edits).
GOLD = """\
S The cat sat on mat .
A 1 2|||Nn|||cats||dogs|||REQUIRED|||-NONE-|||0
A 4 4|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 4 4|||ArtOrDet|||a|||REQUIRED|||-NONE-|||1

S cat is here .
A 0 0|||ArtOrDet|||The|||REQUIRED|||-NONE-|||0

S Nothing to fix .

S It are fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 1 2|||SVA|||is|||REQUIRED|||-NONE-|||1
"""
HYPOTHESES = ["The dogs sat on the mat .", "A cat is here .", "Nothing to fix .", "It is fine ."]


def gold():
    return list(parse_m2(GOLD.splitlines(), "gold.m2"))


def tokens(lines):
    return [line.split() for line in lines]


def test_candidates_by_hand():
    counts = [[c.counts for c in cands] for cands in m2_candidates(gold(), tokens(HYPOTHESES))]
    # S1, annotator 0: dogs (a non-first alternative) and the inserted "the" both match.
    # S1, annotator 1: nothing matches, so "cat sat on" -> "dogs sat on the" is one merged edit
    # (2 unchanged words inside) rather than two.
    assert counts[0] == [EditCounts(2, 2, 2), EditCounts(0, 1, 1)]
    assert counts[1] == [EditCounts(0, 1, 1)]          # "A" inserted at (0, 0), gold wants "The"
    assert counts[2] == [EditCounts(0, 0, 0)]          # one annotator without edits
    assert counts[3] == [EditCounts(0, 1, 0), EditCounts(1, 1, 1)]
    system = m2_candidates(gold(), tokens(HYPOTHESES))[0][1].system
    assert [(e.start, e.end, e.correction) for e in system] == [(1, 4, ("dogs", "sat", "on", "the"))]


def test_corpus_level_by_hand():
    # running totals: S1 annotator 0 (2,2,2); S2 (2,3,3); S3 (2,3,3);
    # S4: annotator 0 gives (2,4,3), F=0.526; annotator 1 gives (3,4,4), F=0.75 -> annotator 1
    result = m2(gold(), tokens(HYPOTHESES))
    assert result.counts == EditCounts(3, 4, 4)
    assert (result.p, result.r, result.f) == (0.75, 0.75, 0.75)
    assert [s.choice for s in result.sentences] == [0, 0, 0, 1]


def test_sentence_level_by_hand():
    # sentence F: S1 1 (annotator 0), S2 0, S3 1 (no edits anywhere), S4 1 (annotator 1)
    result = m2(gold(), tokens(HYPOTHESES), level="sentence")
    assert [s.f for s in result.sentences] == [1.0, 0.0, 1.0, 1.0]
    assert result.f == pytest.approx(0.75)
    # edits on the system side only score 0: the source as hypothesis for S4 vs annotator 1
    unchanged = m2(gold(), tokens(["The cat sat on mat .", "cat is here .", "Nothing to fix .",
                                         "It are fine ."]), level="sentence")
    # S1: annotator 1 (0,0,1) and annotator 0 (0,0,2) both F=0; lower gold wins
    assert [s.choice for s in unchanged.sentences] == [1, 0, 0, 0]
    assert [s.f for s in unchanged.sentences] == [0.0, 0.0, 1.0, 1.0]


def test_annotator_tie_breaks():
    # equal F (0.5): more correct wins
    assert choose([EditCounts(1, 2, 2), EditCounts(2, 4, 4)], EditCounts(), 0.5) == 1
    # equal F (0) and correct: lower proposed + beta^2 * gold wins (1.5 < 2)
    assert choose([EditCounts(0, 2, 0), EditCounts(0, 1, 2)], EditCounts(), 0.5) == 1
    # complete tie: the first (lowest annotator id)
    assert choose([EditCounts(1, 1, 1), EditCounts(1, 1, 1)], EditCounts(), 0.5) == 0
    # the choice depends on the running totals: alone, (0,0,0) has F=1 and (1,2,2) F=0.5;
    # added to totals (0,0,10) the first gives F=0 (R=0) and the second P=0.5, R=1/12, F=0.25
    candidates = [EditCounts(0, 0, 0), EditCounts(1, 2, 2)]
    assert choose(candidates, EditCounts(), 0.5) == 0
    assert choose(candidates, EditCounts(0, 0, 10), 0.5) == 1


def test_beta_changes_the_weighting():
    # P = 2/4, R = 2/2: F1 = 2PR/(P+R) = 0.667, F0.5 = 0.556
    counts = EditCounts(2, 4, 2)
    assert counts.scores(1.0)[2] == pytest.approx(2 / 3)
    assert counts.scores(0.5)[2] == pytest.approx(1.25 * 0.5 / (0.125 + 1))


def test_cli_scorer_none(tmp_path, capsys):
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(HYPOTHESES) + "\n", encoding="utf-8")
    args = ["pt_m2", "--m2", str(tmp_path / "gold.m2"), "--hyp", str(tmp_path / "hyp.txt"), "--scorer", "none"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["signature"].startswith("pt_m2|base:m2|scorer:none|level:corpus|beta:0.5|max_unchanged_words:2|tok:no|segmentation:reference|refs:var|gold:m2|v:")
    assert (result["score"], result["p"], result["r"]) == (0.75, 0.75, 0.75)
    assert (result["correct"], result["proposed"], result["gold"]) == (3, 4, 4)
    assert main([*args, "--level", "sentence", "--per-sentence", str(tmp_path / "s.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert [r["annotator"] for r in records] == [0, 0, 0, 1]
    assert records[0]["system_edits"][0] == {"span": [1, 2], "source": "cat", "correction": "dogs",
                                             "correct": True}
    (tmp_path / "short.txt").write_text("a\n", encoding="utf-8")
    assert main(["pt_m2", "--m2", str(tmp_path / "gold.m2"), "--hyp", str(tmp_path / "short.txt"),
                 "--scorer", "none"]) == 2
    assert "1 lines but the gold has 4" in capsys.readouterr().err


# ---- real data (skipped without GEC_DATA) ----

SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]


@pytest.fixture(scope="module")
def conll_scores():
    gold_m2 = read_m2(require(CONLL14 / "official-2014.combined.m2"))
    scores = {}
    for system in SYSTEMS:
        hyps = tokens(read_lines(CONLL14 / "systems" / f"{system}.txt"))
        scores[system] = {level: m2(gold_m2, hyps, level=level, segmentation="reference")
                          for level in ("corpus", "sentence")}
    return scores


def test_official_conll14_figures(conll_scores):
    # CoNLL-2014 overview (official m2scorer): AMU 509 / 1223 / 2378, P 41.62 R 21.40 F 35.01
    amu = conll_scores["AMU"]["corpus"]
    assert amu.counts == EditCounts(509, 1223, 2378)
    assert (round(amu.p, 4), round(amu.r, 4), round(amu.f, 4)) == (0.4162, 0.2140, 0.3501)
    official_f = {"CAMB": 0.3733, "CUUI": 0.3679, "NTHU": 0.2992, "RAC": 0.2668, "UMC": 0.2537,
                  "PKU": 0.2532, "SJTU": 0.1519, "UFC": 0.0784, "IPN": 0.0709, "IITB": 0.0590,
                  "INPUT": 0.0}
    assert {s: round(conll_scores[s]["corpus"].f, 4) for s in official_f} == official_f
    # POST: P 34.51 R 21.73 F 30.88 = 527 / 1527 / 2425. Sentence 56 ties exactly between its two
    # annotators (F = 45 / 121.5 either way); the official scorer keeps annotator 0.
    post = conll_scores["POST"]["corpus"]
    assert post.counts == EditCounts(527, 1527, 2425)
    assert (round(post.p, 4), round(post.r, 4), round(post.f, 4)) == (0.3451, 0.2173, 0.3088)


def test_gjg15_correlations_equal_the_paper(conll_scores):
    from scipy.stats import pearsonr, spearmanr

    rows = read_lines(require(GEC_DATA / "gjg15" / "human_scores.tsv"))[1:]
    human = {name: (float(ew), float(ts)) for name, ew, ts in (row.split("\t") for row in rows if row)}
    # PT-M2 paper, Table 4: (EW r, EW rho, TS r, TS rho)
    paper = {"corpus": (0.623, 0.687, 0.672, 0.720), "sentence": (0.871, 0.731, 0.864, 0.758)}
    for level, expected in paper.items():
        x = [conll_scores[s][level].f for s in SYSTEMS]
        got = []
        for k in (0, 1):
            y = [human[s][k] for s in SYSTEMS]
            got += [pearsonr(x, y)[0], spearmanr(x, y)[0]]
        assert got == pytest.approx(expected, abs=0.005), level


@pytest.mark.realdata
def test_minimal_segmentation_gives_the_same_m2_counts_on_conll14(conll_scores):
    # conll_scores uses segmentation="reference" (the default); "minimal" gives the same counts
    # and the same annotator choices on all 13 systems, corpus and sentence level
    gold_m2 = read_m2(require(CONLL14 / "official-2014.combined.m2"))
    for system in SYSTEMS:
        hyps = tokens(read_lines(CONLL14 / "systems" / f"{system}.txt"))
        for level in ("corpus", "sentence"):
            minimal = m2(gold_m2, hyps, level=level, segmentation="minimal")
            reference = conll_scores[system][level]
            assert (minimal.counts, minimal.p, minimal.r, minimal.f) == \
                (reference.counts, reference.p, reference.r, reference.f), (system, level)
            assert [c.choice for c in minimal.sentences] == [c.choice for c in reference.sentences]


# ---- one gold insertion, the hypothesis inserts it twice ----

DOUBLE_GOLD = """\
S He go to school .
A 1 1|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 3 4|||Nn|||schools|||REQUIRED|||-NONE-|||0
"""


@pytest.mark.parametrize("segmentation", ["reference", "minimal"])
def test_a_gold_insertion_proposed_twice_is_one_correct_edit(segmentation):
    gold = list(parse_m2(DOUBLE_GOLD.splitlines(), "gold.m2"))
    result = m2(gold, [["He", "the", "the", "go", "to", "school", "."]], segmentation=segmentation)
    # one "the" is correct, the other is an unnecessary edit; nothing else is proposed
    assert result.counts == EditCounts(1, 2, 2)


def test_the_minimal_search_takes_each_gold_insertion_once():
    # "y" -> "x x" with gold: insert "x" before y, delete y, insert "x" after it. Rewarding the
    # insertion before y twice (both x's inserted there) looked as good as the three true
    # matches to the search, which took it and got 2 correct edits from the count (found by a
    # random search against the previous implementation)
    from gecscore.m2.maxmatch import best_edit_sequence, build_lattice, match_edits
    from gecscore.types import Edit

    gold = [Edit(0, 0, ("x",)), Edit(0, 1, ()), Edit(1, 1, ("x",))]
    system = best_edit_sequence(build_lattice(["y"], ["x", "x"]), gold)
    assert [(e.start, e.end, e.correction) for e in system] == [(0, 0, ("x",)), (0, 1, ()), (1, 1, ("x",))]
    assert len(match_edits(system, gold)) == 3


def test_per_sentence_records_mark_as_many_edits_correct_as_counted(tmp_path):
    from gecscore.m2.pt_m2 import sentence_records

    gold = list(parse_m2(DOUBLE_GOLD.splitlines(), "gold.m2"))
    for segmentation in ("reference", "minimal"):
        result = m2(gold, [["He", "the", "the", "go", "to", "school", "."]], segmentation=segmentation)
        (record,) = sentence_records(result, gold)
        marked = [edit["correct"] for edit in record["system_edits"]]
        assert sum(marked) == record["correct"] == 1, (segmentation, record["system_edits"])


def test_a_reference_graph_past_its_bound_is_a_clear_error(monkeypatch):
    # a hypothesis with nothing in common with its source (here: another language's tokens)
    # makes the reference edit graph explode; the sentence is named, minimal still scores it
    from gecscore.errors import GecInputError
    from gecscore.m2 import reference as maxmatch

    monkeypatch.setattr(maxmatch, "MAX_REFERENCE_ARCS", 2_000)
    source = [f"w{i}" for i in range(20)]
    gold = list(parse_m2([f"S {' '.join(source)}", "A 0 1|||R|||x|||REQUIRED|||-NONE-|||0"], "g"))
    hypothesis = [f"c{i}" for i in range(40)]
    with pytest.raises(GecInputError, match=r"sentence 1: 20 source x 40 hypothesis tokens .* segmentation='minimal'"):
        m2(gold, [hypothesis])
    assert m2(gold, [hypothesis], segmentation="minimal").counts.proposed >= 1
