"""A fine-tuned BERT-style regressor: ``AutoModelForSequenceClassification`` with one output
(``num_labels=1``), the format of SOME's released checkpoints and of IMPARA's quality
estimator. It reads a text, or a pair of texts (``[CLS] a [SEP] b [SEP]``: SOME's meaning
model reads (source, hypothesis)), and returns the raw output (the logit), which each metric
maps as its paper does.

Inputs are cut to ``max_length`` tokens (both papers' code: 128), batched by length with
padding masked out; outputs are cached per input for the life of the regressor.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.models.batching import batches_with_progress
from gecscore.models.loading import load_pretrained, model_label, torch_device

Input = str | tuple[str, str]


def check_loaded_weights(info: dict, model: str, option: str, purpose: str) -> None:
    """Refuse a checkpoint that lacks weights the model needs (its regression head above all):
    transformers fills them with random values (its warning is silenced with the libraries'
    progress), so two runs would give two numbers. Buffers (``position_ids``) are not weights."""
    missing = [key for key in info.get("missing_keys", ()) if not key.endswith("position_ids")]
    if missing:
        from gecscore.errors import GecOptionError

        shown = ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")
        raise GecOptionError(option, f"{purpose}: {model} has no weights for {shown} (a checkpoint without its "
                                     f"regression head?): give the fine-tuned model's folder")


class SequenceRegressor:
    """Raw single outputs of a sequence-classification model with ``num_labels=1``.

    ``tokenizer``: where the tokenizer is, when not in the model folder (SOME's release keeps
    one tokenizer, read from the fluency model's folder, for all three)."""

    def __init__(self, model: str, option: str, purpose: str, max_length: int = 128, batch_size: int = 32,
                 device: str | None = None, tokenizer: str | None = None):
        self.model = model
        self.option = option
        self.purpose = purpose
        self.max_length = max_length
        self.batch_size = batch_size
        self.device_name = device
        self.tokenizer_path = tokenizer or model
        self._model = None
        self._cache: dict[Input, float] = {}
        self.inputs_scored = 0
        self.forward_batches = 0

    def _load(self) -> None:
        if self._model is not None:
            return

        def build(transformers, name):
            model, info = transformers.AutoModelForSequenceClassification.from_pretrained(
                name, output_loading_info=True)
            tokenizer = transformers.AutoTokenizer.from_pretrained(self.tokenizer_path)
            return tokenizer, model, info

        tokenizer, model, info = load_pretrained(self.model, self.option, self.purpose, build)
        check_loaded_weights(info, self.model, self.option, self.purpose)
        if model.config.num_labels != 1:
            from gecscore.errors import GecInputError

            raise GecInputError(f"{self.purpose}: {self.model} has {model.config.num_labels} outputs; a regressor "
                             f"(num_labels=1) is expected")
        self.device = torch_device(self.device_name)
        self._tokenizer = tokenizer
        self._model = model.eval().to(self.device)

    def scores(self, inputs: Sequence[Input]) -> list[float]:
        """The model's output for each text or (text, text) pair, in order."""
        todo = [x for x in dict.fromkeys(inputs) if x not in self._cache]
        if todo:
            self._load()
            self._cache.update(zip(todo, self._compute(todo)))
        return [self._cache[x] for x in inputs]

    def _compute(self, inputs: list[Input]) -> list[float]:
        import torch

        out = [0.0] * len(inputs)
        with torch.inference_mode():
            for batch in batches_with_progress([len(x) if isinstance(x, str) else len(x[0]) + len(x[1])
                                                for x in inputs], self.batch_size,
                                               f"regressor ({model_label(self.model)})"):
                items = [inputs[k] for k in batch]
                if isinstance(items[0], str):
                    encoded = self._tokenizer(items, truncation=True, max_length=self.max_length, padding=True,
                                              return_tensors="pt")
                else:
                    encoded = self._tokenizer([a for a, _ in items], [b for _, b in items], truncation=True,
                                              max_length=self.max_length, padding=True, return_tensors="pt")
                encoded = {k: v.to(self.device) for k, v in encoded.items()}
                logits = self._model(**encoded).logits.float().view(-1)
                for k, value in zip(batch, logits.tolist()):
                    out[k] = value
                self.inputs_scored += len(batch)
                self.forward_batches += 1
        return out
