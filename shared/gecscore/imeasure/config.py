"""The options of the I-measure, each declared once with the reference tool's default: the
config of the metric seam. The scorer takes its defaults from this class."""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.errors import GecOptionError
from gecscore.options import TextOptions, option, validate

# Reference combinations enumerated per sentence before the segment-wise search takes over.
DEFAULT_MAX_CANDIDATES = 16384
OPTIMISE = ("sent", "corpus")
# What the per-sentence choice can maximise: [d|c] (detection / correction) + one of these.
METRIC_NAMES = ("tp", "tn", "fp", "fn", "p", "r", "f", "acc", "wacc", "i")


def check_max_metric(value: str) -> str:
    """``value`` if it names a metric the choice can maximise, else a GecOptionError."""
    if len(value) < 2 or value[0] not in "dc" or value[1:] not in METRIC_NAMES:
        raise GecOptionError("max", f"must be [d|c] followed by one of {', '.join(METRIC_NAMES)}; got {value!r}")
    return value


@dataclass(frozen=True)
class IMeasureConfig(TextOptions):
    """The I-measure (Felice and Briscoe 2015), as its reference tool ``ieval.py`` defaults."""

    no_mix: bool = option(False, "one reference per annotator instead of mixing their corrections",
                          signature="mix", signature_format=lambda no_mix: "no" if no_mix else "yes")
    max: str = option("cwacc", "metric maximised per sentence: [d|c][tp|tn|fp|fn|p|r|f|acc|wacc|i]",
                      metavar="METRIC")
    opt: str = option("sent", "choose each reference on the sentence alone or on the running totals",
                      choices=OPTIMISE)
    beta: float = option(1.0, "F beta", exclusive_minimum=0)
    w: float = option(2.0, "WAcc weight of TP and FP", exclusive_minimum=0)
    max_candidates: int = option(DEFAULT_MAX_CANDIDATES, "enumerate at most this many reference combinations "
                                 "per sentence; beyond, a segment-wise search (warned)", minimum=1, signature_default=False)

    def __post_init__(self) -> None:
        validate(self)
        check_max_metric(self.max)


