"""SOME: the combination of the three normalised sub-scores (stub regressors behind the
Protocol), and three tiny BERT regressors (random weights, real architecture) loaded from
folders as the released checkpoints are."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pytest

import gecscore
from gecscore.errors import GecOptionError, MissingModelError
from gecscore.some.config import SomeConfig
from gecscore.some.metric import SomeMetric
from gecscore.some.scorer import combine, normalise


class TableRegressor:
    """Outputs looked up in a table; records what it was asked."""

    def __init__(self, table: dict):
        self.table = table
        self.asked: list = []

    def scores(self, inputs: Sequence) -> list[float]:
        self.asked.extend(inputs)
        return [self.table[x] for x in inputs]


SOURCES = ["He go home .", "She like cats ."]
HYPOTHESES = ["He goes home .", "She likes cats ."]


def stub_metric(**options):
    g = TableRegressor({HYPOTHESES[0]: 4.0, HYPOTHESES[1]: 2.5})
    f = TableRegressor({HYPOTHESES[0]: 1.0, HYPOTHESES[1]: 3.0})
    m = TableRegressor({(SOURCES[0], HYPOTHESES[0]): 2.5, (SOURCES[1], HYPOTHESES[1]): 4.0})
    return SomeMetric(SomeConfig(**options), regressors={"grammaticality": g, "fluency": f, "meaning": m}), (g, f, m)


def test_normalisation_and_weights():
    assert normalise(1.0) == 0.0 and normalise(4.0) == 1.0 and normalise(5.5) == 1.5   # not clipped
    assert combine(1.0, 0.0, 0.5, (0.55, 0.43, 0.02)) == pytest.approx(0.56)


def test_sentence_scores_and_inputs():
    metric, (g, f, m) = stub_metric()
    result = metric.compute(SOURCES, HYPOTHESES)
    records = result.records()
    # sentence 1: n = (1, 0, 0.5) -> 0.55 + 0.01; sentence 2: n = (0.5, 2/3, 1) -> 0.275 + 0.43 * 2/3 + 0.02
    assert records[0]["some"] == pytest.approx(0.56)
    assert records[1]["some"] == pytest.approx(0.275 + 0.43 * 2 / 3 + 0.02)
    assert result.score == pytest.approx((records[0]["some"] + records[1]["some"]) / 2)
    assert result["grammaticality"] == pytest.approx(0.75)
    assert g.asked == HYPOTHESES and f.asked == HYPOTHESES and m.asked == list(zip(SOURCES, HYPOTHESES))
    assert result.statistic(result.sentence_stats.mean(axis=0)) == pytest.approx(result.score)


@pytest.mark.parametrize("weights", [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.2, 0.3, 0.5)])
def test_score_is_the_weighted_sum_of_the_reported_sub_scores(weights):
    wg, wf, wm = weights
    metric, _ = stub_metric(weight_grammaticality=wg, weight_fluency=wf, weight_meaning=wm)
    result = metric.compute(SOURCES, HYPOTHESES)
    for r in result.records():
        assert r["some"] == pytest.approx(wg * r["grammaticality"] + wf * r["fluency"] + wm * r["meaning"])


def test_signature_and_missing_folders():
    metric, _ = stub_metric()
    assert str(metric.compute(SOURCES, HYPOTHESES).signature).startswith("some|wg:0.55|wf:0.43|wm:0.02|maxlen:128|")
    with pytest.raises(MissingModelError, match="grammaticality="):
        gecscore.load("some").compute(SOURCES, HYPOTHESES)
    with pytest.raises(gecscore.errors.GecOptionError, match="weight_fluency"):
        gecscore.load("some", weight_fluency=-1)


# ---------------------------------------------------------------- tiny real BERT regressors

@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    pytest.importorskip("transformers")
    from gecscore.models.tiny import tiny_bert

    root = tmp_path_factory.mktemp("some")
    return {aspect: tiny_bert(str(root / aspect), seed=seed)
            for seed, aspect in enumerate(("grammaticality", "fluency", "meaning"))}


def test_tiny_regressors_through_load(folders):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    metric = gecscore.load("some", **folders, device="cpu")
    assert metric.tokenizer_path() == folders["fluency"]
    result = metric.compute(SOURCES, HYPOTHESES)
    tokenizer = AutoTokenizer.from_pretrained(folders["fluency"])

    def raw(folder, *texts):
        model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
        with torch.no_grad():
            return model(**tokenizer(*texts, return_tensors="pt")).logits.item()

    for i, record in enumerate(result.records()):
        g = (raw(folders["grammaticality"], HYPOTHESES[i]) - 1) / 3
        f = (raw(folders["fluency"], HYPOTHESES[i]) - 1) / 3
        m = (raw(folders["meaning"], SOURCES[i], HYPOTHESES[i]) - 1) / 3
        assert record["some"] == pytest.approx(0.55 * g + 0.43 * f + 0.02 * m, abs=1e-5)
    one_by_one = gecscore.load("some", **folders, device="cpu", batch_size=1).compute(SOURCES, HYPOTHESES)
    assert np.allclose(one_by_one.sentence_stats, result.sentence_stats, atol=1e-5)
    assert "|g:" in str(result.signature) and "grammaticality|f:" in str(result.signature)


def test_a_classifier_with_several_outputs_is_refused(tmp_path, folders):
    from transformers import BertConfig, BertForSequenceClassification

    config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=37, num_labels=3)
    BertForSequenceClassification(config).save_pretrained(tmp_path / "three")
    metric = gecscore.load("some", grammaticality=str(tmp_path / "three"), fluency=folders["fluency"],
                           meaning=folders["meaning"], device="cpu")
    with pytest.raises(ValueError, match="num_labels=1"):
        metric.compute(SOURCES, HYPOTHESES)


def test_a_checkpoint_without_its_regression_head_is_refused(tmp_path, folders):
    # transformers would fill the missing head with random weights (two runs, two numbers)
    from transformers import BertConfig, BertModel

    config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=37, num_labels=1)
    BertModel(config).save_pretrained(tmp_path / "headless")
    metric = gecscore.load("some", grammaticality=str(tmp_path / "headless"), fluency=folders["fluency"],
                           meaning=folders["meaning"], device="cpu")
    with pytest.raises(GecOptionError, match=r"grammaticality.*no weights for classifier"):
        metric.compute(SOURCES, HYPOTHESES)
