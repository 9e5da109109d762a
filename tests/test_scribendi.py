"""Scribendi score: the rules on hand-checked cases (a stub language model whose perplexities
the test sets), the string ratios against a plain dynamic programme, and a tiny GPT-2 (random
weights, real architecture) loaded from a folder as a user's model is."""
from __future__ import annotations

import math
import random
from typing import Sequence

import numpy as np
import pytest

import gecscore
from gecscore.errors import MissingModelError
from gecscore.scribendi.config import ScribendiConfig
from gecscore.scribendi.metric import ScribendiMetric
from gecscore.strings import lcs_length
from gecscore.scribendi.rules import (indel_ratio, levenshtein_ratio, sentence_score, sorted_tokens,
                                      token_sort_ratio)


class TableLM:
    """A language model whose perplexities are a table; it records every call."""

    def __init__(self, table: dict[str, float]):
        self.table = table
        self.calls: list[list[str]] = []

    def perplexities(self, texts: Sequence[str]) -> list[float]:
        self.calls.append(list(texts))
        return [self.table[t] for t in texts]


def lcs_dp(a: str, b: str) -> int:
    row = [0] * (len(b) + 1)
    for ch in a:
        prev_diag, row[0] = 0, 0
        for j, other in enumerate(b, start=1):
            keep = row[j]
            row[j] = prev_diag + 1 if ch == other else max(row[j], row[j - 1])
            prev_diag = keep
    return row[-1]


def levenshtein_sub2(a: str, b: str) -> int:
    """Edit distance with insertion/deletion 1 and substitution 2 (the paper's LDR)."""
    d = [[i + j if i == 0 or j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else 2), d[i - 1][j] + 1, d[i][j - 1] + 1)
    return d[-1][-1]


def test_lcs_matches_dynamic_programme():
    rng = random.Random(7)
    for _ in range(300):
        a = "".join(rng.choice("abc d") for _ in range(rng.randint(0, 70)))
        b = "".join(rng.choice("abc d") for _ in range(rng.randint(0, 70)))
        assert lcs_length(a, b) == lcs_dp(a, b)
        if a or b:
            assert levenshtein_ratio(a, b) == pytest.approx(1 - levenshtein_sub2(a, b) / (len(a) + len(b)))


def test_ratios_on_hand_checked_strings():
    assert levenshtein_ratio("abc", "abd") == pytest.approx(4 / 6)
    assert sorted_tokens("Home, went HE!") == "he home went"
    assert token_sort_ratio("he went home", "home went he") == 1.0
    assert token_sort_ratio("", "x") == 0.0 and token_sort_ratio("!!", "x") == 0.0
    # 2 * 39 / 98 = 0.7959 rounds to a whole 80 % (fuzzywuzzy's integer ratio)
    a, b = "a" * 39 + "b" * 10, "a" * 39 + "c" * 10
    assert indel_ratio(a, b) == pytest.approx(0.7959, abs=1e-4) and token_sort_ratio(a, b) == 0.8


def test_token_sort_ratio_agrees_with_rapidfuzz():
    fuzz = pytest.importorskip("rapidfuzz.fuzz")
    rng = random.Random(3)
    words = ["the", "cat", "Sat", "on", "mat", ",", "a", "dog's", "ran"]
    for _ in range(200):
        a = " ".join(rng.choice(words) for _ in range(rng.randint(1, 9)))
        b = " ".join(rng.choice(words) for _ in range(rng.randint(1, 9)))
        expected = round(fuzz.token_sort_ratio(a, b, processor=lambda s: sorted_tokens(s))) / 100
        assert token_sort_ratio(a, b) == expected


@pytest.mark.parametrize("source, hypothesis, ppl_s, ppl_h, threshold, expected", [
    ("He go home .", "He go home .", 50.0, 50.0, 0.8, 0),            # unchanged
    ("He go home .", "He goes home .", 50.0, 40.0, 0.8, 1),          # more likely, close
    ("He go home .", "He goes home .", 50.0, 50.0, 0.8, -1),         # a tie counts against the change
    ("He go home .", "He goes home .", 40.0, 50.0, 0.8, -1),         # less likely
    ("This is a sentence .", "the sentence was corrected into completely different one .", 90.0, 30.0, 0.8, -1),
    ("abcde", "abcdx", 9.0, 8.0, 0.8, 1),                            # LDR = TSR = 0.8: the threshold is inclusive
    ("abcde", "abcdx", 9.0, 8.0, 0.81, -1),
    ("home went he", "he went home", 9.0, 8.0, 0.9, 1),              # reordering: TSR 1, LDR low
])
def test_rules(source, hypothesis, ppl_s, ppl_h, threshold, expected):
    assert sentence_score(source, hypothesis, ppl_s, ppl_h, threshold) == expected


SOURCES = ["This sentences contain gramamtical error .", "This is a sentence .", "This is no change ."]
HYPOTHESES = ["This sentence contains a grammatical error .",
              "the sentence was corrected into completely different one .", "This is no change ."]


def test_metric_sums_sentences_with_one_batched_call():
    lm = TableLM({SOURCES[0]: 400.0, HYPOTHESES[0]: 120.0, SOURCES[1]: 90.0, HYPOTHESES[1]: 60.0})
    metric = ScribendiMetric(ScribendiConfig(), lm=lm)
    result = metric.compute(SOURCES, HYPOTHESES)
    assert [r["scribendi"] for r in result.records()] == [1, -1, 0]
    assert result.score == 0.0 and result["improved"] == 1 and result["worsened"] == 1 and result["unchanged"] == 1
    assert len(lm.calls) == 1 and sorted(lm.calls[0]) == sorted(SOURCES[:2] + HYPOTHESES[:2])
    assert result.statistic(result.sentence_stats.mean(axis=0)) == pytest.approx(result.score)
    strict = ScribendiMetric(ScribendiConfig(threshold=1.0), lm=lm).compute(SOURCES, HYPOTHESES)
    assert strict.score == -2.0   # the first correction is no longer close enough


def test_references_are_not_needed_and_signature():
    metric = ScribendiMetric(ScribendiConfig(), lm=TableLM({}))
    result = metric.compute(["a b ."], ["a b ."])
    assert result.score == 0.0
    assert str(result.signature).startswith("scribendi|threshold:0.8|lm:gpt2|")


def test_whitespace_around_a_line_is_not_a_change(tmp_path):
    """CoNLL-2014's IITB output ends every line with " \r": a text metric must see those lines
    as the untouched sources they are (the model is never asked), through the API and a file."""
    lm = TableLM({})
    metric = ScribendiMetric(ScribendiConfig(), lm=lm)
    result = metric.compute(["a b .", "c d ."], ["a b . ", " c d .\t"])
    assert result.score == 0.0 and result["unchanged"] == 2 and lm.calls == [[]]
    from gecscore.io.text import read_lines

    path = tmp_path / "iitb.txt"
    path.write_bytes(b"a b . \r\nc d . \r\n")
    assert metric.compute(["a b .", "c d ."], read_lines(path))["unchanged"] == 2


# ---------------------------------------------------------------- a tiny real GPT-2

@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory):
    pytest.importorskip("transformers")
    from gecscore.models.tiny import tiny_gpt2

    return tiny_gpt2(str(tmp_path_factory.mktemp("lm") / "tiny-gpt2"))


def test_tiny_gpt2_perplexity_is_the_models_loss(tiny_lm):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from gecscore.models.causal_lm import CausalLMPerplexity

    texts = ["He goes to school every day .", "The cat sat .", "He go to school every day .", ""]
    batched = CausalLMPerplexity(tiny_lm, batch_size=8, device="cpu").perplexities(texts)
    single = CausalLMPerplexity(tiny_lm, batch_size=1, device="cpu").perplexities(texts)
    assert np.allclose(batched[:3], single[:3], rtol=1e-5) and math.isinf(batched[3])
    tokenizer, model = AutoTokenizer.from_pretrained(tiny_lm), AutoModelForCausalLM.from_pretrained(tiny_lm)
    ids = torch.tensor([[tokenizer.bos_token_id] + tokenizer(texts[0])["input_ids"]])
    with torch.no_grad():
        loss = model(input_ids=ids, labels=ids).loss.item()
    assert batched[0] == pytest.approx(math.exp(loss), rel=1e-5)


def test_tiny_gpt2_through_load(tiny_lm):
    metric = gecscore.load("scribendi", lm=tiny_lm, device="cpu")
    result = metric.compute(SOURCES, HYPOTHESES)
    records = result.records()
    assert records[2] == {"index": 2, "scribendi": 0}
    assert records[1]["scribendi"] == -1          # the rewrite fails the similarity rule whatever the LM says
    first = records[0]
    assert first["scribendi"] == (1 if first["ppl_hypothesis"] < first["ppl_source"] else -1)
    assert result.score == sum(r["scribendi"] for r in records)
    assert "/tiny-gpt2|" in str(result.signature).split("|lm:")[1]


def test_the_model_pass_draws_a_bar_on_a_terminal_only(tiny_lm, monkeypatch):
    import io
    import sys

    from gecscore import progress
    from gecscore.models.causal_lm import CausalLMPerplexity

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    for stream, drawn in ((io.StringIO(), False), (Terminal(), True)):
        monkeypatch.setattr(sys, "stderr", stream)
        CausalLMPerplexity(tiny_lm, batch_size=2, device="cpu").perplexities(["a b", "c d e", "f"])
        assert ("/tiny-gpt2):" in stream.getvalue() and "/3 " in stream.getvalue()) is drawn


def test_missing_model_names_the_option(tmp_path, monkeypatch):
    pytest.importorskip("transformers")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    metric = gecscore.load("scribendi", lm="no-such-org/no-such-model", device="cpu")
    with pytest.raises(MissingModelError, match="lm="):
        metric.compute(["He go ."], ["He goes ."])


def test_options_are_validated_and_the_reference_side_is_shared():
    with pytest.raises(gecscore.errors.GecOptionError, match="threshold"):
        gecscore.load("scribendi", threshold=1.5)
    with pytest.raises(gecscore.errors.GecOptionError, match="batch_size"):
        gecscore.load("scribendi", batch_size=0)
    scribendi = ScribendiMetric(ScribendiConfig(), lm=TableLM({"a b .": 9.0, "a c .": 3.0}))
    prepared = gecscore.load("some").prepare_text(["a b ."], [["ignored reference"]])
    assert scribendi.score(prepared, ["a c ."]).score == 1.0    # sources-only sides are interchangeable
