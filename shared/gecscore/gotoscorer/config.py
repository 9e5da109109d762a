"""The options of GoToScorer, each declared once with the paper's default (weighted chunks,
F0.5, the first reference)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Mapping

from gecscore.options import LEVELS, TextOptions, When, option, validate

WEIGHT_MATCHES = ("span", "correction")


@dataclass(frozen=True)
class GoToScorerConfig(TextOptions):
    """GoToScorer (Gotou et al. 2020, "Taking the Correction Difficulty into Account in GEC
    Evaluation"): F-beta over weighted reference chunks (:mod:`gecscore.gotoscorer.scorer`)."""

    conditions: ClassVar[Mapping[str, When]] = {"weight_match": When("no_weight", (False,))}

    beta: float = option(0.5, "F beta", exclusive_minimum=0)
    ref_id: int = option(0, "the one reference used (annotator index; a sentence without it uses its "
                            "first)", minimum=0, signature="ref")
    no_weight: bool = option(False, "every chunk weighs 1 (no systems needed); default: the weights of the "
                                    "systems scored together (score_systems)", signature="noweight")
    weight_match: str = option(
        "span", "what counts as a system correcting a reference chunk when weights are built: span (same "
                "span and correction: the paper) or correction (any chunk of the system with the same "
                "corrected string: gec-metrics 0.1.1's gen_gotoscorer_weight)", choices=WEIGHT_MATCHES,
        signature="match")
    level: str = option("corpus", "corpus: F over pooled weighted counts; sentence: mean sentence F",
                        choices=LEVELS)

    def __post_init__(self) -> None:
        validate(self)
