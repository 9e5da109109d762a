"""The options of GLEU, each declared once with the reference implementation's default."""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.options import LanguageOptions, option, validate

DEFAULT_ITERATIONS = 500


@dataclass(frozen=True)
class GleuConfig(LanguageOptions):
    """GLEU (Napoles et al. 2016, "GLEU without tuning"): n-grams 1..order, corpus brevity
    penalty, one randomly drawn reference per sentence in each of ``iterations`` rounds."""

    order: int = option(4, "highest n-gram order", minimum=1)
    iterations: int = option(DEFAULT_ITERATIONS, "rounds of random reference choice (averaged); one "
                             "round when every sentence has a single reference", minimum=1, signature="iter")
    seed: int = option(0, "seed of the reference choice: round j seeds Python's random with seed + 101 j "
                       "(0: the reference implementation's draws)", minimum=0)

    def __post_init__(self) -> None:
        validate(self)
