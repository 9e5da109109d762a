"""CLEME / CLEME2.0 on CoNLL-2014 (skipped without GEC_DATA)."""
from __future__ import annotations

import pytest

from gecscore.chunks.samples import load_m2_samples, samples_from_m2_and_text
from gecscore.io.m2 import read_m2
from gecscore.io.text import read_lines
from gecscore.chunks.evaluation import partition_corpus
from gecscore.chunks.cleme import score_cleme
from gecscore.chunks.config import Cleme2Config, ClemeConfig
from gecscore.chunks.cleme2 import score_cleme2
from gecscore.chunks.length_weights import length_bias

from datapaths import CONLL14, require

SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]


def bundle(system: str):
    gold = require(CONLL14 / "conll14.errant.m2")
    return load_m2_samples(gold, require(CONLL14 / "systems-errant" / f"{system}.errant.m2"))


def test_cleme_published_amu_figure():
    # CLEME's README: AMU, corpus, dep, length weighting.
    samples = bundle("AMU")
    partitions = partition_corpus(samples)
    assert round(length_bias(partitions), 4) == 1.7905
    result = score_cleme(samples, partitions=partitions)
    assert [round(result.scores[k], 4) for k in ("f", "p", "r")] == [0.2514, 0.2645, 0.2097]
    assert (round(result.counts.tp, 2), round(result.counts.fp, 2), round(result.counts.fn, 2), result.counts.tn) == \
        (313.51, 871.8, 1181.71, 6312)


def test_amu_cleme2_counts_near_paper_table12():
    # Table 12 used another ERRANT run: AMU TP 380, FP_ne 276, FP_un 541, FN 1360.
    counts = score_cleme2(bundle("AMU")).counts
    for ours, paper in zip((counts.tp, counts.fp_ne, counts.fp_un, counts.fn), (380, 276, 541, 1360)):
        assert abs(ours - paper) / paper < 0.02


def test_text_path_matches_the_m2_bundle_for_amu():
    gold = read_m2(require(CONLL14 / "conll14.errant.m2"))
    samples = samples_from_m2_and_text(gold, read_lines(require(CONLL14 / "systems" / "AMU.txt")))
    assert score_cleme2(samples).counts == score_cleme2(bundle("AMU")).counts


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_every_setting(system):
    samples = bundle(system)
    partitions = partition_corpus(samples)
    for level in ("corpus", "sentence"):
        for assumption in ("dep", "ind"):
            result = score_cleme2(samples, Cleme2Config(level=level, assumption=assumption), partitions=partitions)
            assert 0 <= result.score <= 1
            if system == "INPUT":   # the do-nothing system: no hit, no over-correction
                assert (result.scores["hit"], result.scores["over"], result.counts.tp, result.counts.fp) == (0, 0, 0, 0)
            cleme = score_cleme(samples, ClemeConfig(level=level, assumption=assumption), partitions=partitions)
            assert 0 <= cleme.scores["f"] <= 1
        # ind never gives fewer TPs than dep: any reference may match a chunk
        dep = score_cleme2(samples, Cleme2Config(assumption="dep"), partitions=partitions)
        ind = score_cleme2(samples, Cleme2Config(assumption="ind"), partitions=partitions)
        assert ind.counts.tp >= dep.counts.tp
