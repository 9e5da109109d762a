"""CLEME / CLEME2.0 on MuCGEC dev with the example predictions (``$GEC_DATA/mucgec``; skipped
without it), pinned to the figures of THUKElab/CLEME itself (commit e90abea, its Chinese path:
ChERRANT's char M2 read with ``lang="zho"``), measured with ``benchmarks/cleme_zh_parity.py``:
every figure below agrees with theirs within 1e-4 (counts exactly).

CLEME's settings as its ``main.py`` builds them: CLEME with length weighting, CLEME2.0 with
no weighting (``main.py``'s BERTScore weigher needs a model) and the HEUO factors by level.
Sentence-level CLEME is compared with the paper's weigher rows set on their weigher, as
``main.py``'s own rows are dropped by ``LengthWeigher.__init__`` (docs/chinese.md).
"""
from __future__ import annotations

import pytest

pytest.importorskip("pypinyin")
pytest.importorskip("opencc")

from datapaths import GEC_DATA, require  # noqa: E402

MUCGEC = GEC_DATA / "mucgec"
pytestmark = pytest.mark.realdata

# CLEME's figures (theirs; P/R/F at corpus level are theirs unrounded from the same counts)
CLEME = {
    ("corpus", "dep"): dict(p=0.310891, r=0.335446, f=0.315510, tp=797.8374, fp=1768.4585, fn=1580.6028, tn=7694),
    ("corpus", "ind"): dict(p=0.322780, r=0.390016, f=0.334306, tp=823.8162, fp=1728.4373, fn=1288.4437, tn=8062),
    ("sentence", "dep"): dict(p=0.502443, r=0.505307, f=0.373591, tp=1192.8736, fp=1329.4690, fn=1897, tn=7695),
    ("sentence", "ind"): dict(p=0.580954, r=0.615450, f=0.476779, tp=2693.4104, fp=1297.9690, fn=1530, tn=8062),
}
CLEME2 = {
    ("corpus", "dep"): dict(score=0.502245, hit=0.268576, wrong=0.217779, under=0.513645, over=0.306893,
                            tp=994, fp_ne=806, fp_un=797, fn=1901, tn=7691),
    ("corpus", "ind"): dict(score=0.513679, hit=0.297633, wrong=0.260681, under=0.441686, over=0.255295,
                            tp=1031, fp_ne=903, fp_un=663, fn=1530, tn=8062),
    ("sentence", "dep"): dict(score=0.570522, hit=0.298984, wrong=0.211369, under=0.438635, over=0.217763,
                              tp=988, fp_ne=873, fp_un=736, fn=2138, tn=7454),
    ("sentence", "ind"): dict(score=0.584405, hit=0.318619, wrong=0.260677, under=0.360018, over=0.199693,
                              tp=1031, fp_ne=903, fp_un=663, fn=1530, tn=8062),
}


@pytest.fixture(scope="module")
def mucgec():
    """The dev references' path, the example predictions, and a work dict shared by the settings
    (hypothesis edits and chunk partitions do not depend on the options)."""
    gold = require(MUCGEC / "MuCGEC_dev.txt")
    lines = require(MUCGEC / "example_pred_dev.txt").read_text(encoding="utf-8").splitlines()
    predictions = [(line.split("\t") + ["", ""])[2] for line in lines]
    return str(gold), predictions, {}


def score(name: str, mucgec, level: str, assumption: str) -> dict:
    import gecscore

    gold, predictions, work = mucgec
    metric = gecscore.load(name, lang="zh", level=level, assumption=assumption)
    return metric.score(metric.prepare_para(gold), predictions, work=work).values


@pytest.mark.parametrize("level,assumption", list(CLEME))
def test_cleme_equals_the_reference(mucgec, level, assumption):
    values = score("cleme", mucgec, level, assumption)
    for key, expected in CLEME[level, assumption].items():
        assert values[key] == pytest.approx(expected, abs=1e-4), key


@pytest.mark.parametrize("level,assumption", list(CLEME2))
def test_cleme2_equals_the_reference(mucgec, level, assumption):
    values = score("cleme2", mucgec, level, assumption)
    for key, expected in CLEME2[level, assumption].items():
        assert values[key] == pytest.approx(expected, abs=1e-4), key


def test_cannot_annotate_only_sentences_are_scored_as_unchanged(mucgec):
    # ChERRANT's scorer skips a sentence whose only reference is 无法标注 (3 in MuCGEC dev);
    # CLEME's M2 reader drops the NA edit, leaving the source as the reference, so the
    # example system's edits there are over-corrections. Ours, as CLEME: 3 + 2 + 4 FP_un.
    import gecscore

    gold, predictions, work = mucgec
    metric = gecscore.load("cleme2", lang="zh")
    records = metric.score(metric.prepare_para(gold), predictions, work=work).records()
    assert len(records) == 1137
    assert [(records[i]["fp_un"], records[i]["tp"], records[i]["fn"], records[i]["over"])
            for i in (97, 463, 1076)] == [(3, 0, 0, 1.0), (2, 0, 0, 1.0), (4, 0, 0, 1.0)]
