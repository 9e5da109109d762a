"""The options of DSGram, each declared once with the paper's default (sampling 0.6 / 0.7 / 512,
dynamic AHP weights): the config of the metric seam."""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.judge.types import DSGRAM_SAMPLING
from gecscore.options import JudgeOptions, ModelOptions, option, validate

WEIGHT_MODES = ("dynamic", "equal")
MAX_REASKS = 3  # re-asks for unreadable output or an inconsistent judgment matrix


@dataclass(frozen=True)
class DsgramConfig(ModelOptions, JudgeOptions):
    """DSGram (Xie et al. 2024): LLM-judged sub-scores combined by per-sentence AHP weights."""

    weights: str = option("dynamic", "dynamic: AHP weights per sentence; equal: 1/3 each", choices=WEIGHT_MODES)
    # the judge's backend and model come next in the signature (DsgramMetric.model_facts)
    temperature: float = option(DSGRAM_SAMPLING.temperature, "judge sampling temperature", minimum=0,
                                signature_rank=1)
    top_p: float = option(DSGRAM_SAMPLING.top_p, "judge nucleus sampling", exclusive_minimum=0, maximum=1,
                          signature_rank=1)
    max_tokens: int = option(DSGRAM_SAMPLING.max_tokens, "judge answer length limit (tokens)", minimum=1,
                             signature_rank=1)
    max_reasks: int = option(MAX_REASKS, "re-asks for unreadable output or an inconsistent matrix", minimum=0,
                             signature="reasks", signature_rank=1)

    def __post_init__(self) -> None:
        validate(self)


