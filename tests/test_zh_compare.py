"""ChERRANT's scorer: ERRANT's compare plus pooled alignments, space-less corrections, NA skip."""
from __future__ import annotations

import pytest

pytest.importorskip("pypinyin")
pytest.importorskip("opencc")

from gecscore.m2.cherrant_compare import (SKIPPED, cherrant_score, compare, compare_files, parse_block,  # noqa: E402
                                          score_para_files)
from gecscore.lang.zh.corpus import gold_from_text, hypothesis_annotations, hypothesis_targets  # noqa: E402
from gecscore.m2.errant_compare import CompareOptions, M2Edit  # noqa: E402

SRC = "他到家就被天黑了。"
FIX = "他到家天就黑了。"  # two equally cheap alignments (see test_zh_edits)


def test_alignments_of_one_annotator_pool_and_count_twice():
    gold = gold_from_text([SRC], [[FIX]])
    hyp = hypothesis_annotations(gold.sources, [FIX])
    result = cherrant_score(gold, hyp)
    # each side: coder 0 with four keys (two per alignment); all four match
    assert (result.counts.tp, result.counts.fp, result.counts.fn) == (4, 0, 0)
    # the metrics' gold keeps the first alignment only
    assert len(gold.corpus.sentences[0].annotations[0]) == 2


def test_only_reference_not_annotatable_skips_the_sentence():
    gold = gold_from_text([SRC, "我去学校。"], [["无法标注"], ["我去了学校。"]])
    hyp = hypothesis_annotations(gold.sources, [FIX, "我去学校。"])
    result = cherrant_score(gold, hyp)
    assert result.chosen[0] == SKIPPED
    assert (result.counts.tp, result.counts.fp, result.counts.fn) == (0, 0, 1)
    assert gold.corpus.sentences[0].annotations == {}


def test_not_annotatable_among_references_is_matched_by_an_unchanged_hypothesis():
    gold = gold_from_text([SRC], [[FIX, "无法标注"]])
    unchanged = cherrant_score(gold, hypothesis_annotations(gold.sources, [SRC]))
    # coder 0 would give FN 4 (F 0); the NA coder's (-1, -1, -NONE-) key meets the noop (F 1)
    assert unchanged.chosen == ((0, 1),)
    assert (unchanged.counts.tp, unchanged.counts.fp, unchanged.counts.fn) == (0, 0, 0)
    # a correction matching no key: FP 1 against either coder; the NA coder's single FN wins the tie
    wrong = cherrant_score(gold, hypothesis_annotations(gold.sources, ["他到家就天黑了。"]))
    assert wrong.chosen == ((0, 1),)
    assert (wrong.counts.tp, wrong.counts.fp, wrong.counts.fn) == (0, 1, 1)
    right = cherrant_score(gold, hypothesis_annotations(gold.sources, [FIX]))
    assert right.chosen == ((0, 0),)


def test_corrections_are_compared_without_spaces():
    hyp = [parse_block("S 我 去\nT0-A0 x\nA 1 1|||M|||了 学 校|||REQUIRED|||-NONE-|||0")]
    ref = [(M2Edit(1, 1, "M", "了学校", 0),)]
    assert compare(hyp, ref).counts.tp == 1


def test_m2_files_and_parallel_files_score_alike(tmp_path):
    from gecscore.lang.zh.m2 import para_to_m2

    ref = tmp_path / "ref.para"
    ref.write_text(f"1\t{SRC}\t{FIX}\t无法标注\n2\t我去学校。\t我去了学校。\n3\t他很高\t没有错误\n", encoding="utf-8")
    hyp = tmp_path / "hyp.para"
    hyp.write_text(f"1\t{SRC}\t他到家天黑了。\n2\t我去学校。\t我去了学校\n3\t他很高\t他很高。\n", encoding="utf-8")
    para_to_m2(ref, tmp_path / "ref.m2")
    para_to_m2(hyp, tmp_path / "hyp.m2")
    from_para = score_para_files(hyp, ref)
    from_m2 = compare_files(tmp_path / "hyp.m2", tmp_path / "ref.m2")
    assert from_para.counts == from_m2.counts
    assert from_para.categories == from_m2.categories
    # sentence 1: deleting 就被 is a key of alignment A0; sentence 2: 了 inserted
    assert (from_para.counts.tp, from_para.counts.fp, from_para.counts.fn) == (2, 2, 3)


def test_hypothesis_targets_apply_to_the_prediction():
    gold = gold_from_text(["我去学校。"], ["我去了學校。"])
    (target,) = hypothesis_targets(gold.sources, ["我去了學校。"])
    assert "".join(target.tokens) == "我去了学校。"
    assert [(e.start, e.end, e.correction) for e in target.edits] == [(2, 2, ("了",))]


def test_reference_num_and_max_answer_num_filter_as_cherrant():
    gold = gold_from_text([SRC, "我去学校。"], [[FIX], ["我去了学校。", "我去过学校。"]])
    hyp = hypothesis_annotations(gold.sources, [FIX, "我去过学校。"])
    assert cherrant_score(gold, hyp, reference_num=2).counts.tp == 1
    assert cherrant_score(gold, hyp, reference_num=1).counts.tp == 4
    # only coder 0 of sentence 2 remains: 过 is an FP and 了 an FN
    only_first = cherrant_score(gold, hyp, max_answer_num=1)
    assert (only_first.counts.tp, only_first.counts.fp, only_first.counts.fn) == (4, 1, 1)
    assert cherrant_score(gold, hyp, CompareOptions(mode="ds")).counts.tp == 5
