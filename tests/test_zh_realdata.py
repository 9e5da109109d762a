"""Real data: MuCGEC dev and NLPCC-2018 (``$GEC_DATA/mucgec``; skipped without it).

* ChERRANT's published figure for MuCGEC's example predictions on the dev set:
  TP 1084, FP 1635, FN 3003 (P 0.3987, R 0.2652, F0.5 0.3622);
* ``nlpcc2018_official.ref.m2.char`` was written by ChERRANT: re-annotating every block's
  source against its targets (the ``T`` lines) writes the block again, byte for byte
  (2,000 blocks, 28 extra alignments).
"""
from __future__ import annotations

import re

import pytest

pytest.importorskip("pypinyin")
pytest.importorskip("opencc")

from datapaths import GEC_DATA, require  # noqa: E402

MUCGEC = GEC_DATA / "mucgec"
pytestmark = pytest.mark.realdata


def test_mucgec_dev_example_predictions_as_published():
    from gecscore.m2.cherrant_compare import score_para_files
    from gecscore.m2.errant_compare import format_report

    result = score_para_files(require(MUCGEC / "example_pred_dev.txt"), require(MUCGEC / "MuCGEC_dev.txt"))
    assert (result.counts.tp, result.counts.fp, result.counts.fn) == (1084, 1635, 3003)
    assert result.counts.prf(0.5) == (0.3987, 0.2652, 0.3622)
    assert "1084\t1635\t3003\t0.3987\t0.2652\t0.3622" in format_report(result)
    # the three sentences whose only reference is 无法标注 are skipped
    assert result.chosen.count((-1, -1)) == 3


def test_mucgec_dev_gold_for_the_metrics():
    from gecscore.lang.zh.corpus import gold_from_para, hypothesis_targets
    from gecscore.io.para import read_para

    gold = gold_from_para(require(MUCGEC / "MuCGEC_dev.txt"))
    assert len(gold.corpus) == 1137 and gold.corpus.origin == "cherrant"
    assert sum(len(s.annotations) == 0 for s in gold.corpus.sentences) == 3  # only 无法标注
    assert sum(a.kind == "noop" for anns in gold.annotations for a in anns) == 55
    # every reference's first alignment realises it
    for sentence, anns in zip(gold.corpus.sentences, gold.annotations):
        for k, target in zip(sentence.annotations, sentence.targets()):
            assert target.tokens == anns[k].target
    preds = read_para(require(MUCGEC / "example_pred_dev.txt"))
    targets = hypothesis_targets(gold.sources, [p[0] for p in preds.targets])
    assert len(targets) == 1137
    assert all(not t.edits or t.tokens != s.source for t, s in zip(targets, gold.corpus.sentences))


def test_nlpcc2018_blocks_are_rewritten_byte_for_byte():
    from gecscore.lang.zh.extractor import ZhCharExtractor
    from gecscore.lang.zh.m2 import format_block

    text = require(MUCGEC / "nlpcc2018_official.ref.m2.char").read_text(encoding="utf-8")
    extractor = ZhCharExtractor(progress=False)
    blocks = text.strip().split("\n\n")
    differing, extra = [], 0
    for number, block in enumerate(blocks):
        lines = block.split("\n")
        source = lines[0][2:]
        targets: dict[int, str] = {}
        for line in lines[1:]:
            found = re.match(r"T(\d+)(?:-A(\d+))? (.*)", line)
            if found:
                targets.setdefault(int(found.group(1)), found.group(3))
                extra += found.group(2) not in (None, "0")
        annotations = [extractor.annotate(source, targets[k]) for k in sorted(targets)]
        if format_block(tuple(source.split()), annotations).rstrip("\n") != block:
            differing.append(number)
    assert len(blocks) == 2000 and extra == 28
    assert differing == []


def test_nlpcc2018_gold_reads():
    from gecscore.m2.cherrant_compare import read_edits
    from gecscore.lang.zh.m2 import read_gold

    path = require(MUCGEC / "nlpcc2018_official.ref.m2.char")
    gold = read_gold(path)
    assert len(gold) == 2000
    assert sum(len(s.annotations) == 2 for s in gold.sentences) == 259
    assert len(read_edits(path)) == 2000
