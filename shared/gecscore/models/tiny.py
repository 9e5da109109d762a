"""Tiny checkpoints with real architectures and random weights, built offline: what the tests
and the CPU timings of docs/model_metrics.md load through the same code path (a folder passed
as an option) as a user's released checkpoint.

* :func:`tiny_bert`: ``BertForSequenceClassification`` (``num_labels=1``, SOME's and IMPARA's
  regressors) or ``BertModel`` (IMPARA's similarity encoder), hidden size 32, 2 layers, with a
  WordPiece tokenizer trained on the given sentences;
* :func:`tiny_gpt2`: ``GPT2LMHeadModel`` (Scribendi's LM), 32 dimensions, 2 layers, with a
  byte-level BPE tokenizer trained on the given sentences (``<|endoftext|>`` as BOS/EOS).

Weights are drawn from ``seed``, so a folder's scores are reproducible; they mean nothing.
"""
from __future__ import annotations

from typing import Sequence

SAMPLE_SENTENCES = (
    "This sentences contain gramamtical error .",
    "This sentence contains a grammatical error .",
    "He go to school every day .",
    "He goes to school every day .",
    "The cat sat on the mat and looked at the birds .",
    "We discussed about the problem yesterday .",
)


def tiny_bert(folder: str, sentences: Sequence[str] = SAMPLE_SENTENCES, regression: bool = True,
              seed: int = 0) -> str:
    """Save a tiny BERT (a one-output regressor, or a bare encoder) and its tokenizer in
    ``folder``; return ``folder``."""
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertConfig, BertForSequenceClassification, BertModel, BertTokenizerFast

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=False)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.train_from_iterator(list(sentences), trainers.WordPieceTrainer(vocab_size=200, special_tokens=specials))
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    fast = BertTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                             sep_token="[SEP]", mask_token="[MASK]", model_max_length=512)
    config = BertConfig(vocab_size=tokenizer.get_vocab_size(), hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=37, max_position_embeddings=512, num_labels=1)
    torch.manual_seed(seed)
    model = BertForSequenceClassification(config) if regression else BertModel(config)
    model.save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


def tiny_gpt2(folder: str, sentences: Sequence[str] = SAMPLE_SENTENCES, seed: int = 0) -> str:
    """Save a tiny GPT-2 and its tokenizer in ``folder``; return ``folder``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2TokenizerFast

    eos = "<|endoftext|>"
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.train_from_iterator(list(sentences), trainers.BpeTrainer(
        vocab_size=400, special_tokens=[eos], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = GPT2TokenizerFast(tokenizer_object=tokenizer, bos_token=eos, eos_token=eos, unk_token=eos,
                             model_max_length=128)
    config = GPT2Config(vocab_size=tokenizer.get_vocab_size(), n_embd=32, n_layer=2, n_head=2, n_positions=128,
                        bos_token_id=tokenizer.token_to_id(eos), eos_token_id=tokenizer.token_to_id(eos))
    torch.manual_seed(seed)
    GPT2LMHeadModel(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder
