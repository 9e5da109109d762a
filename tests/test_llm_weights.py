"""CLEME2.0 LLM edit weights (``--weighting llm``) through the judge: the edits asked, the
prompt, re-asks and fallbacks, and CLEME2.0 scores with the weights (worked out by hand)."""
from __future__ import annotations

import threading
from collections import Counter

import pytest

from cleme_examples import edit, sample_1, sample_2
from judge_server import JudgeServer, Reply, request_kind, request_subject, tiny_causal_lm
from gecscore.judge import EDIT_WEIGHT_SAMPLING, Judge, JudgeCache, OpenAIChatBackend, RetryPolicy, TransformersBackend
from gecscore.judge.parsing import JudgeOutputError
from gecscore.judge.prompts import EDIT_WEIGHT_PROMPT
from gecscore.chunks.report import result_values
from gecscore.chunks.cleme2 import score_cleme2
from gecscore.chunks.config import Cleme2Config
from gecscore.types import Chunk, Sample, Target
from gecscore.chunks.llm_weights import format_edit, llm_chunk_weigher, parse_edit_weight


class Ratings:
    """Replies per edit text, in order (the last repeats); records what was asked."""

    def __init__(self, replies: dict[str, list[str]]):
        self.replies = replies
        self.asked: Counter = Counter()
        self.bodies: list[dict] = []
        self.lock = threading.Lock()

    def __call__(self, body: dict) -> Reply:
        assert request_kind(body) == "edit"
        sentence, edit_text = request_subject(body)
        with self.lock:
            self.asked[(sentence, edit_text)] += 1
            self.bodies.append(body)
            n = self.asked[(sentence, edit_text)]
        replies = self.replies[edit_text]
        return Reply(replies[min(n, len(replies)) - 1])


def judge_for(server) -> Judge:
    return Judge(OpenAIChatBackend("m", server.base_url, timeout=5), JudgeCache(":memory:"), concurrency=4,
                 retry=RetryPolicy(max_retries=1, backoff_s=0.01), progress=False)


@pytest.mark.parametrize("text, value", [("5", 5), (" 4\n", 4), ("Score: 3", 3), ("Example Output (1-5): 2", 2),
                                         ("4 out of 5", 4), ("4/5", 4), ("2.5", 2.5), ("1", 1)])
def test_parse_edit_weight(text, value):
    assert parse_edit_weight(text) == value


@pytest.mark.parametrize("text, problem", [("", "empty"), ("important", "no rating"), ("7", "outside 1-5"),
                                           ("0", "outside 1-5")])
def test_parse_edit_weight_rejects(text, problem):
    with pytest.raises(JudgeOutputError, match=problem):
        parse_edit_weight(text)


def test_format_edit():
    assert format_edit(Chunk(3, 4, ("were",), ("have",), ("R:VERB",))) == "were -> have"
    assert format_edit(Chunk(3, 3, (), ("the",), ("M:DET",))) == "∅ -> the"
    assert format_edit(Chunk(3, 5, ("of", "infrom"), (), ("U:X",))) == "of infrom -> ∅"


def test_weights_and_cleme2_scores_by_hand():
    # Sample 2 (see cleme_examples): TP "go -> went" rated 4, FP_un "∅ -> the" 2, FP_un ". -> !" 1,
    # three TN chunks weigh 1: tp 4, fp_un 3, tn 3. Sample 1: FN "Do -> Does" (the reference's
    # chunk) 5, FP_ne "suffered -> suffer" 3 (after an out-of-range "7"), FP_ne "of infrom -> to
    # inform" 2, three TN: fn 5, fp_ne 5, tn 3.
    # Corpus totals tp 4, fp_ne 5, fp_un 3, fn 5: NE = 14, hit 4/14, wrong 5/14, under 5/14,
    # over 3/12; score = 0.45 * 4/14 + 0.35 * 9/14 + 0.15 * 9/14 + 0.05 * 9/12 = 0.4875.
    ratings = Ratings({"go -> went": ["4"], "∅ -> the": ["2"], ". -> !": ["1"], "Do -> Does": ["5"],
                       "suffered -> suffer": ["7", "3"], "of infrom -> to inform": ["Score: 2"]})
    with JudgeServer(ratings) as server:
        weigher = llm_chunk_weigher(judge_for(server))
        result = score_cleme2([sample_1(), sample_2()], Cleme2Config(weighting="llm"), weigher=weigher)
        assert server.requests == 7
    out = result_values(result)
    assert (out["tp"], out["fp_ne"], out["fp_un"], out["fn"], out["tn"]) == (4, 5, 3, 5, 6)
    assert out["score"] == pytest.approx(0.4875)
    assert (out["hit"], out["wrong"], out["under"], out["over"]) == pytest.approx((4 / 14, 5 / 14, 5 / 14, 0.25))
    assert weigher.facts()[0][0] == "judge"   # the signature names the judge
    assert [c.weights for s in result.chunks for c in s.candidates] == [
        (5.0, 1.0, 3.0, 1.0, 2.0, 1.0), (1.0, 4.0, 1.0, 2.0, 1.0, 1.0)]
    assert weigher.failures == []
    body = ratings.bodies[0]
    assert body["temperature"] == EDIT_WEIGHT_SAMPLING.temperature == 0.1
    assert body["max_tokens"] == EDIT_WEIGHT_SAMPLING.max_tokens
    s1, s2 = " ".join(sample_1().source), " ".join(sample_2().source)
    assert ratings.asked == {(s1, "Do -> Does"): 1, (s1, "suffered -> suffer"): 2, (s1, "of infrom -> to inform"): 1,
                             (s2, "go -> went"): 1, (s2, "∅ -> the"): 1, (s2, ". -> !"): 1}
    [asked] = [b for b in ratings.bodies if request_subject(b) == (s2, "go -> went")]
    assert asked["messages"] == [{"role": "user", "content": EDIT_WEIGHT_PROMPT.replace(
        "{sentence}", s2).replace("{edit}", "go -> went")}]
    assert asked["messages"][0]["content"].startswith("As an evaluator for grammatical error correction")


def test_unusable_ratings_fall_back_to_one_and_are_counted():
    # "go -> went" never gets a rating: 1 + 2 re-asks, then weight 1 and one counted failure.
    # Weights: tp 1, fp_un 2 + 1 = 3, over = 3/4.
    ratings = Ratings({"go -> went": ["very important"], "∅ -> the": ["2"], ". -> !": ["1"]})
    with JudgeServer(ratings) as server:
        weigher = llm_chunk_weigher(judge_for(server))
        out = result_values(score_cleme2([sample_2()], Cleme2Config(weighting="llm"), weigher=weigher))
        assert ratings.asked[("She go to school yesterday .", "go -> went")] == 3
        assert server.requests == 5
    assert (out["tp"], out["fp_un"], out["over"]) == (1, 3, pytest.approx(0.75))
    assert [(f.edit, f.problem) for f in weigher.failures] == [("go -> went", "no rating in 'very important'")]
    assert "1 fell back to weight 1" in weigher.summary()


def test_transport_failure_weighs_one():
    def down(body):
        return Reply("down", status=503)

    with JudgeServer(down) as server:
        weigher = llm_chunk_weigher(judge_for(server))
        out = result_values(score_cleme2([sample_2()], Cleme2Config(weighting="llm"), weigher=weigher))
        assert server.requests == 3 * 2  # three edits, each tried twice (one retry), no re-ask
    assert (out["tp"], out["fp_un"]) == (1, 2)
    assert len(weigher.failures) == 3 and all("HTTP 503" in f.problem for f in weigher.failures)


def two_reference_sample() -> Sample:
    source = tuple("She go to school .".split())
    refs = (Target.from_edits(source, [edit(1, 2, "goes")], 0), Target.from_edits(source, [edit(1, 2, "went")], 1))
    hypothesis = Target.from_edits(source, [edit(1, 2, "went"), edit(4, 5, "!")])
    return Sample(source, hypothesis, refs, 0)


def test_each_edit_is_asked_once_and_fn_uses_the_reference_chunk():
    # dep: vs ref 0 "go -> went" is FP_ne, vs ref 1 it is TP; ". -> !" is FP_un under both:
    # two distinct edits asked once each. ind with an unchanged hypothesis: the FN chunk is
    # read off the first reference, "go -> goes".
    ratings = Ratings({"go -> went": ["3"], ". -> !": ["2"], "go -> goes": ["4"]})
    sample = two_reference_sample()
    with JudgeServer(ratings) as server:
        weigher = llm_chunk_weigher(judge_for(server))
        dep = score_cleme2([sample], Cleme2Config(weighting="llm"), weigher=weigher)
        assert server.requests == 2
        assert [c.weights for c in dep.chunks[0].candidates] == [(1.0, 3.0, 1.0, 2.0), (1.0, 3.0, 1.0, 2.0)]
        unchanged = Sample(sample.source, Target.unchanged(sample.source), sample.references, 0)
        ind = score_cleme2([unchanged], Cleme2Config(weighting="llm", assumption="ind"), weigher=weigher)
        assert ind.chunks[0].candidates[0].weights == (1.0, 4.0, 1.0)
        assert result_values(ind)["fn"] == 4
        assert server.requests == 3


def test_weigher_with_a_tiny_local_model():
    # A random model emits digits and words: each edit ends with a rating in 1-5 or, after the
    # bounded re-asks, weight 1 and a recorded failure.
    model, tokenizer = tiny_causal_lm(seed=1)
    backend = TransformersBackend(model, tokenizer, model_id="tiny-llama", device="cpu", batch_size=8)
    weigher = llm_chunk_weigher(Judge(backend, progress=False))
    result = score_cleme2([sample_1(), sample_2()], Cleme2Config(weighting="llm"), weigher=weigher)
    assert len(weigher.ratings) == 6
    assert all(1 <= w <= 5 for w in weigher.ratings.values())
    failed = {(f.sentence, f.edit) for f in weigher.failures}
    assert all(weigher.ratings[key] == 1.0 for key in failed)
    for sample in result.chunks:
        for candidate in sample.candidates:
            for label, weight in zip(candidate.labels, candidate.weights):
                assert weight == 1.0 if str(label) == "TN" else 1 <= weight <= 5


def test_cli_cleme2_llm_weighting_against_the_test_server(tmp_path, capsys):
    """`gecscore cleme2 --weighting llm` end to end: every edit rated once, weights in the counts."""
    import json

    from gecscore.cli import main
    from gecscore.io.m2 import format_m2

    gold, hyp = tmp_path / "gold.m2", tmp_path / "hyp.m2"
    samples = [sample_1(), sample_2()]
    gold.write_text("\n".join(format_m2(s.source, s.references) for s in samples))
    hyp.write_text("\n".join(format_m2(s.source, [s.hypothesis]) for s in samples))
    # every edit of the two samples rated 2, except the TP "go -> went", rated 5
    ratings = Ratings({text: ["5" if text == "go -> went" else "2"] for text in
                       ("Do -> Does", "suffered -> suffer", "of infrom -> to inform", "go -> went",
                        "∅ -> the", ". -> !")})
    with JudgeServer(ratings) as server:
        code = main(["cleme2", "--m2", str(gold), "--hyp-m2", str(hyp), "--weighting", "llm", "--json",
                     "--model", "judge-m", "--base-url", server.base_url, "--cache", str(tmp_path / "c.sqlite")])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert set(ratings.asked.values()) == {1}            # each distinct edit asked once
    assert len(ratings.asked) == 6
    # TP 5; FP_ne: suffer 2 + to inform 2; FP_un: the 2 + ! 2; FN: Do -> Does 2
    assert (result["tp"], result["fp_ne"], result["fp_un"], result["fn"]) == (5, 4, 4, 2)
    assert result["hit"] == pytest.approx(5 / 11)
    assert "weighting:llm" in result["signature"] and "judge:openai:judge-m" in result["signature"]


def test_evaluate_module_llm_weighting_scales_counts(tmp_path, monkeypatch):
    """The cleme2 evaluate module with weighting="llm": every edit rated 3 triples each
    non-TN count, so the ratios equal the unweighted ones."""
    import evaluate

    from datapaths import REPO, example_corpus

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    sources, hyps, refs = example_corpus()
    metric = evaluate.load(str(REPO / "metrics" / "cleme2"))
    plain = metric.compute(sources=sources, predictions=hyps, references=refs)

    from collections import defaultdict

    ratings = Ratings(defaultdict(lambda: ["3"]))
    with JudgeServer(ratings) as server:
        weighted = metric.compute(sources=sources, predictions=hyps, references=refs, weighting="llm",
                                  base_url=server.base_url, model="m", cache=str(tmp_path / "c.sqlite"))
    for key in ("tp", "fp_ne", "fp_un", "fn"):
        assert weighted[key] == 3 * plain[key]
    for key in ("hit", "wrong", "under", "over", "score"):
        assert weighted[key] == pytest.approx(plain[key])
    assert weighted["tn"] == plain["tn"] and set(ratings.asked.values()) == {1}
