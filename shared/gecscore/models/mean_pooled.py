"""Sentence similarity as IMPARA computes it: cosine of mean-pooled last hidden states.

    sim(s, h) = cos( mean_t H_s[t], mean_t H_h[t] )

where H is the encoder's last hidden state (``AutoModel``; IMPARA: bert-base-cased) and the
mean runs over every real token of the sentence, [CLS] and [SEP] included, padding excluded.
Inputs are cut to ``max_length`` tokens (128 in IMPARA's code). Embeddings are cached per text
(the sources are embedded once for all systems).
"""
from __future__ import annotations

from typing import Sequence

from gecscore.models.batching import batches_with_progress
from gecscore.models.loading import load_pretrained, model_label, torch_device


class MeanPooledSimilarity:
    """Cosine similarity of mean-pooled sentence embeddings (a local folder or a Hub name)."""

    def __init__(self, model: str, option: str, purpose: str, max_length: int = 128, batch_size: int = 32,
                 device: str | None = None):
        self.model = model
        self.option = option
        self.purpose = purpose
        self.max_length = max_length
        self.batch_size = batch_size
        self.device_name = device
        self._model = None
        self._embeddings: dict[str, object] = {}
        self.texts_embedded = 0

    def _load(self) -> None:
        if self._model is not None:
            return

        def build(transformers, name):
            return transformers.AutoTokenizer.from_pretrained(name), transformers.AutoModel.from_pretrained(name)

        tokenizer, model = load_pretrained(self.model, self.option, self.purpose, build)
        self.device = torch_device(self.device_name)
        self._tokenizer = tokenizer
        self._model = model.eval().to(self.device)

    def similarities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """cos(mean embedding of a, mean embedding of b) for each pair (a, b)."""
        import torch

        if not pairs:
            return []
        self._embed([t for pair in pairs for t in pair])
        a = torch.stack([self._embeddings[x] for x, _ in pairs])
        b = torch.stack([self._embeddings[y] for _, y in pairs])
        return torch.nn.functional.cosine_similarity(a, b, dim=1).tolist()

    def _embed(self, texts: list[str]) -> None:
        import torch

        todo = [t for t in dict.fromkeys(texts) if t not in self._embeddings]
        if not todo:
            return
        self._load()
        with torch.inference_mode():
            for batch in batches_with_progress([len(t) for t in todo], self.batch_size,
                                               f"embeddings ({model_label(self.model)})"):
                encoded = self._tokenizer([todo[k] for k in batch], truncation=True, max_length=self.max_length,
                                          padding=True, return_tensors="pt")
                encoded = {k: v.to(self.device) for k, v in encoded.items()}
                hidden = self._model(**encoded).last_hidden_state.float()
                mask = encoded["attention_mask"].unsqueeze(2).float()
                pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1)
                for k, row in zip(batch, pooled.cpu()):
                    self._embeddings[todo[k]] = row
                self.texts_embedded += len(batch)
