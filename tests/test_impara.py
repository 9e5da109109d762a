"""IMPARA: the similarity gate and the sigmoid of the quality estimator (stub models behind the
Protocols), and a tiny BERT quality estimator and encoder (random weights, real architecture)
loaded from folders as the released ones are."""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pytest

import gecscore
from gecscore.impara.config import ImparaConfig
from gecscore.impara.metric import ImparaMetric
from gecscore.impara.scorer import gate, sigmoid


class TableRegressor:
    def __init__(self, table: dict[str, float]):
        self.table = table

    def scores(self, inputs: Sequence[str]) -> list[float]:
        return [self.table[x] for x in inputs]


class TableSimilarity:
    def __init__(self, table: dict[tuple[str, str], float]):
        self.table = table
        self.asked: list = []

    def similarities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        self.asked.extend(pairs)
        return [self.table[p] for p in pairs]


SOURCES = ["He go home .", "She like cats .", "It rain .", "We was late ."]
HYPOTHESES = ["He goes home .", "She likes cats .", "Totally unrelated words here .", "We were late ."]


def stub_metric(**options):
    qe = TableRegressor({HYPOTHESES[0]: 0.0, HYPOTHESES[1]: 2.0, HYPOTHESES[2]: 5.0, HYPOTHESES[3]: -1.0})
    sims = [0.95, 0.9, 0.3, 0.8999]
    sim = TableSimilarity({(s, h): v for s, h, v in zip(SOURCES, HYPOTHESES, sims)})
    return ImparaMetric(ImparaConfig(**options), quality_estimator=qe, similarity=sim), sim


def test_sigmoid_and_gate():
    assert sigmoid(0.0) == 0.5 and sigmoid(800.0) == 1.0 and sigmoid(-800.0) == 0.0
    assert sigmoid(2.0) == pytest.approx(1 / (1 + math.exp(-2)))
    assert gate(0.7, 0.9, 0.9) == 0.7 and gate(0.7, 0.8999, 0.9) == 0.0


def test_similarity_gate_decides_each_sentence():
    metric, sim = stub_metric()
    result = metric.compute(SOURCES, HYPOTHESES)
    scores = [r["impara"] for r in result.records()]
    # a similarity equal to the threshold passes; below it the score is 0 whatever the quality
    assert scores == pytest.approx([0.5, sigmoid(2.0), 0.0, 0.0])
    assert result["gated"] == 2 and result.score == pytest.approx(sum(scores) / 4)
    assert sim.asked == list(zip(SOURCES, HYPOTHESES))
    assert result.statistic(result.sentence_stats.mean(axis=0)) == pytest.approx(result.score)
    # the gate only removes: every sentence score is its quality or 0
    for r in result.records():
        assert r["impara"] in (0.0, r["quality"])
        assert (r["impara"] == r["quality"]) == (r["similarity"] >= 0.9)


def test_lower_threshold_lets_more_through_and_signature():
    metric, _ = stub_metric(threshold=0.2)
    result = metric.compute(SOURCES, HYPOTHESES)
    assert result["gated"] == 0
    assert str(result.signature).startswith("impara|threshold:0.2|maxlen:128|qe:gotutiyan/IMPARA-QE|"
                                            "sim:bert-base-cased|")


# ---------------------------------------------------------------- tiny real BERT models

@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    pytest.importorskip("transformers")
    from gecscore.models.tiny import tiny_bert

    root = tmp_path_factory.mktemp("impara")
    return {"quality_estimator": tiny_bert(str(root / "qe")),
            "similarity_model": tiny_bert(str(root / "encoder"), regression=False, seed=1)}


def test_tiny_models_through_load(folders):
    import torch
    from transformers import AutoModel, AutoModelForSequenceClassification, AutoTokenizer

    result = gecscore.load("impara", **folders, device="cpu", threshold=-1).compute(SOURCES, HYPOTHESES)
    qe_tok = AutoTokenizer.from_pretrained(folders["quality_estimator"])
    qe = AutoModelForSequenceClassification.from_pretrained(folders["quality_estimator"]).eval()
    enc_tok = AutoTokenizer.from_pretrained(folders["similarity_model"])
    enc = AutoModel.from_pretrained(folders["similarity_model"]).eval()

    def mean_state(text):
        with torch.no_grad():
            return enc(**enc_tok(text, return_tensors="pt")).last_hidden_state[0].mean(dim=0)

    for s, h, r in zip(SOURCES, HYPOTHESES, result.records()):
        with torch.no_grad():
            expected_q = torch.sigmoid(qe(**qe_tok(h, return_tensors="pt")).logits).item()
        expected_sim = torch.nn.functional.cosine_similarity(mean_state(s), mean_state(h), dim=0).item()
        assert r["quality"] == pytest.approx(expected_q, abs=1e-5)
        assert r["similarity"] == pytest.approx(expected_sim, abs=1e-5)
        assert r["impara"] == r["quality"]            # threshold -1: nothing gated
    one_by_one = gecscore.load("impara", **folders, device="cpu", threshold=-1, batch_size=1)
    assert np.allclose(one_by_one.compute(SOURCES, HYPOTHESES).sentence_stats, result.sentence_stats, atol=1e-5)


def test_tiny_models_gate_between_the_similarities(folders):
    free = gecscore.load("impara", **folders, device="cpu", threshold=-1).compute(SOURCES, HYPOTHESES)
    sims = sorted(r["similarity"] for r in free.records())
    middle = (sims[1] + sims[2]) / 2
    gated = gecscore.load("impara", **folders, device="cpu", threshold=middle).compute(SOURCES, HYPOTHESES)
    kept = [r for r in gated.records() if r["impara"] > 0]
    assert len(kept) == 2 and all(r["similarity"] >= middle for r in kept)
    unchanged = gecscore.load("impara", **folders, device="cpu").compute(SOURCES, SOURCES).records()
    assert all(r["similarity"] == pytest.approx(1.0, abs=1e-5) for r in unchanged)
