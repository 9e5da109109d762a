"""The options of the Scribendi score, each declared once with the paper's default (gpt2, 0.8)."""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.options import DeviceOptions, option, validate

DEFAULT_LM = "gpt2"
DEFAULT_THRESHOLD = 0.8


@dataclass(frozen=True)
class ScribendiConfig(DeviceOptions):
    """Scribendi score (Islam & Magnani 2021, "Is this the end of the gold standard? A
    straightforward reference-less grammatical error correction metric")."""

    lm: str = option(DEFAULT_LM, "causal language model: a Hub name or a local folder (the paper: gpt2); the "
                                 "signature names it through its model facts", signature=None, metavar="MODEL")
    threshold: float = option(DEFAULT_THRESHOLD, "a changed sentence whose perplexity fell scores +1 only when "
                                                 "max(token sort ratio, Levenshtein ratio) >= threshold",
                              minimum=0, maximum=1)
    batch_size: int = option(32, "sentences per language-model batch", minimum=1, signature=None)

    def __post_init__(self) -> None:
        validate(self)
