"""The options of CLEME and CLEME2.0, each declared once with the papers' default: the configs
of the metric seam. The scoring functions take their defaults from these classes."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Mapping, Sequence

from gecscore.chunks.labels import ASSUMPTIONS
from gecscore.errors import GecOptionError
from gecscore.options import (LEVELS, JudgeOptions, LayerOptions, ModelOptions, PerTypeOptions, TextOptions, When,
                              check_precision_device, fields_of, format_value, option, validate)

WEIGHTINGS = ("none", "length", "similarity", "llm")
MODEL_WEIGHTINGS = ("similarity", "llm")
# CLEME2.0 paper, Section 4: the trade-off factors of hit, wrong, under, over by level.
DEFAULT_ALPHAS = {
    "corpus": (0.45, 0.35, 0.15, 0.05),
    "sentence": (0.35, 0.25, 0.20, 0.20),
}


def parse_alphas(alpha: str | Sequence[float] | None, level: str) -> tuple[float, float, float, float]:
    """Alphas from ``"a1,a2,a3,a4"`` or a sequence (finite, non-negative, summing to 1); the
    paper's default for ``level`` if None or blank. A bad value raises a GecOptionError."""
    if level not in DEFAULT_ALPHAS:
        raise GecOptionError("level", f"unknown value {level!r}; expected one of: {', '.join(LEVELS)}")
    if alpha is None or (isinstance(alpha, str) and not alpha.strip()):
        return DEFAULT_ALPHAS[level]
    try:
        values = [float(v) for v in (alpha.split(",") if isinstance(alpha, str) else alpha)]
    except (TypeError, ValueError):
        raise GecOptionError("alpha", f"needs four comma-separated numbers, got {alpha!r}") from None
    if len(values) != 4:
        raise GecOptionError("alpha", f"needs four numbers (hit, wrong, under, over), got {alpha!r}")
    if not all(math.isfinite(v) for v in values):
        raise GecOptionError("alpha", f"must be finite numbers, got {alpha!r}")
    if any(v < 0 for v in values) or abs(sum(values) - 1) > 1e-6:
        raise GecOptionError("alpha", f"must be non-negative and sum to 1, got {values}")
    return tuple(values)  # type: ignore[return-value]


@dataclass(frozen=True)
class ChunkOptions(TextOptions, ModelOptions, LayerOptions, JudgeOptions, PerTypeOptions):
    """What CLEME and CLEME2.0 share. The model options apply with a model-backed weighting
    (similarity: BERTScore; llm: the judge's model), the BERTScore layer and precision with
    ``weighting="similarity"``, the judge's options with ``weighting="llm"``."""

    conditions: ClassVar[Mapping[str, When]] = {
        "model": When("weighting", MODEL_WEIGHTINGS), "batch_size": When("weighting", MODEL_WEIGHTINGS),
        "device": When("weighting", MODEL_WEIGHTINGS),
        "num_layers": When("weighting", ("similarity",)), "precision": When("weighting", ("similarity",)),
        **{f.name: When("weighting", ("llm",)) for f in fields_of(JudgeOptions)},
    }

    level: str = option("corpus", "corpus: pool all chunks; sentence: mean of sentence scores", choices=LEVELS)
    assumption: str = option("dep", "references dependent (judged one at a time) or independent (any "
                                    "reference counts)", choices=ASSUMPTIONS)


@dataclass(frozen=True)
class ClemeConfig(ChunkOptions):
    """CLEME (Ye et al. 2023): chunk-level P/R/F_beta; length weighting by default."""

    weighting: str = option("length", "edit weighting: none, length (CLEME's), similarity (BERTScore) or "
                                      "llm (1-5 ratings from an LLM judge)", choices=WEIGHTINGS)
    beta: float = option(0.5, "F beta", exclusive_minimum=0)

    def __post_init__(self) -> None:
        validate(self)
        check_precision_device(self)


@dataclass(frozen=True)
class Cleme2Config(ChunkOptions):
    """CLEME2.0 (Ye et al. 2024): hit/wrong/under/over-correction and the comprehensive score."""

    weighting: str = option("none", "edit weighting: none, length, similarity (BERTScore, CLEME2.0-sim) "
                                    "or llm (1-5 ratings from an LLM judge)", choices=WEIGHTINGS)
    alpha: tuple[float, float, float, float] | None = option(
        None, "trade-off factors a1,a2,a3,a4 of hit, wrong, under, over (default by level: corpus "
              f"{format_value(DEFAULT_ALPHAS['corpus'])}; sentence {format_value(DEFAULT_ALPHAS['sentence'])})",
        kind=(str, tuple, list), metavar="A1,A2,A3,A4")

    def __post_init__(self) -> None:
        validate(self)
        check_precision_device(self)
        object.__setattr__(self, "alpha", parse_alphas(self.alpha, self.level))


