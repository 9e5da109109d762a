"""Sentence perplexity under a causal language model (Scribendi's fluency signal).

    ppl(x) = exp( -1/(n-1) * sum_{t=2..n} log p(w_t | w_1..w_{t-1}) ),   w_1 = the BOS token

The sentence is prefixed with the tokenizer's BOS token (GPT-2: ``<|endoftext|>``; the EOS
token when there is no BOS, the CLS token after that) so that its first word is scored too,
as the reference implementation does; every token after the prefix is predicted and the mean
negative log-likelihood is exponentiated. A text with no token to predict (empty) has
perplexity +inf: removing every word never counts as more fluent. Inputs longer than the
model's positions are cut to fit.

Batches: texts sorted by token length (at most ``batch_size`` texts and ``MAX_BATCH_TOKENS``
padded tokens), right-padded, with an attention mask (a padded
position neither attends nor is scored, so a text's perplexity does not depend on its batch
beyond float rounding). Perplexities are cached per text for the life of the scorer: the
sources, scored once, are reused for every system.
"""
from __future__ import annotations

import math
from typing import Sequence

from gecscore.models.batching import batches_with_progress
from gecscore.models.loading import load_pretrained, model_label, pretrained_source, torch_device


# Padded tokens per forward batch. The logits and their log-softmax are each tokens x vocabulary
# floats (49k-50k for GPT-2 and SmolLM2: 0.4 GB each at 2,048 tokens); batches of 32 CoNLL-2014
# sentences of up to 200 tokens had taken the peak memory to 7.7 GB.
MAX_BATCH_TOKENS = 2048


class CausalLMPerplexity:
    """Perplexities from a transformers causal LM (``AutoModelForCausalLM``): a local folder,
    a local GGUF file (dequantised on load) or a Hub name."""

    def __init__(self, model: str, batch_size: int = 32, device: str | None = None, option: str = "lm"):
        self.model = model
        self.batch_size = batch_size
        self.device_name = device
        self.option = option
        self._model = None
        self._cache: dict[str, float] = {}
        self.texts_scored = 0
        self.forward_batches = 0

    def _load(self) -> None:
        if self._model is not None:
            return

        def build(transformers, name):
            where, extra = pretrained_source(name)
            tokenizer = transformers.AutoTokenizer.from_pretrained(where, **extra)
            model = transformers.AutoModelForCausalLM.from_pretrained(where, **extra)
            return tokenizer, model

        tokenizer, model = load_pretrained(self.model, self.option, "Scribendi's language model", build)
        self.device = torch_device(self.device_name)
        self._tokenizer = tokenizer
        self._model = model.eval().to(self.device)
        prefix = next((i for i in (tokenizer.bos_token_id, tokenizer.eos_token_id, tokenizer.cls_token_id)
                       if i is not None), None)
        self._prefix = [] if prefix is None else [prefix]
        config = model.config
        self._limit = getattr(config, "n_positions", None) or getattr(config, "max_position_embeddings", 1024)
        self._pad = next((i for i in (tokenizer.pad_token_id, tokenizer.eos_token_id) if i is not None), 0)

    def perplexities(self, texts: Sequence[str]) -> list[float]:
        """The perplexity of each text (cached per text)."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            self._load()
            self._cache.update(zip(todo, self._compute(todo)))
        return [self._cache[t] for t in texts]

    def _compute(self, texts: list[str]) -> list[float]:
        import torch

        ids = [(self._prefix + self._tokenizer(t, add_special_tokens=False)["input_ids"])[:self._limit]
               for t in texts]
        out = [math.inf] * len(texts)
        with torch.inference_mode():
            for batch in batches_with_progress([len(i) for i in ids], self.batch_size,
                                               f"perplexity ({model_label(self.model)})",
                                               max_tokens=MAX_BATCH_TOKENS):
                rows = [ids[k] for k in batch]
                width = max(len(r) for r in rows)
                input_ids = torch.tensor([r + [self._pad] * (width - len(r)) for r in rows], device=self.device)
                mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows], device=self.device)
                logits = self._model(input_ids=input_ids, attention_mask=mask).logits.float()
                logprobs = torch.log_softmax(logits[:, :-1], dim=-1)
                target = input_ids[:, 1:]
                nll = -logprobs.gather(2, target.unsqueeze(2)).squeeze(2)
                scored = mask[:, 1:].float()
                counts = scored.sum(dim=1)
                means = (nll * scored).sum(dim=1) / counts.clamp(min=1)
                for k, n, mean in zip(batch, counts.tolist(), means.tolist()):
                    out[k] = math.exp(mean) if n > 0 else math.inf
                self.texts_scored += len(batch)
                self.forward_batches += 1
        return out
