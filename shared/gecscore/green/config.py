"""The options of GREEN, each declared once with the paper's default (n-grams up to 4, F2,
words)."""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.options import LEVELS, LanguageOptions, option, validate

UNITS = ("word", "char")


@dataclass(frozen=True)
class GreenConfig(LanguageOptions):
    """GREEN (Koyama et al. 2024, "n-gram F-score for GEC evaluation"): counts of n = 1..order
    pooled per order, geometric means of precision and recall over the orders, then F-beta.
    ``lang``: English text is read as given (gec-metrics' GREEN); another language's text is
    read through its profile (Chinese: characters, so word n-grams are character n-grams)."""

    order: int = option(4, "highest n-gram order", minimum=1)
    beta: float = option(2.0, "F beta (the paper weighs recall: F2)", exclusive_minimum=0)
    unit: str = option("word", "n-grams of words (tokens) or of characters (the sentence string, spaces "
                               "included)", choices=UNITS)
    level: str = option("corpus", "corpus: counts pooled over sentences (each with its best reference); "
                                  "sentence: mean of sentence GREEN", choices=LEVELS)

    def __post_init__(self) -> None:
        validate(self)
