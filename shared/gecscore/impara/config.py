"""The options of IMPARA, each declared once with the paper's default (similarity from
bert-base-cased, threshold 0.9, inputs cut to 128 tokens)."""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.options import DeviceOptions, option, validate

DEFAULT_QUALITY_ESTIMATOR = "gotutiyan/IMPARA-QE"
DEFAULT_SIMILARITY_MODEL = "bert-base-cased"
DEFAULT_THRESHOLD = 0.9
MAX_LENGTH = 128


@dataclass(frozen=True)
class ImparaConfig(DeviceOptions):
    """IMPARA (Maeda et al. 2022, "IMPARA: Impact-based metric for GEC using parallel data")."""

    quality_estimator: str = option(DEFAULT_QUALITY_ESTIMATOR, "the quality estimator: a folder (or Hub name) of a "
                                                               "BERT sequence classifier with one output",
                                    signature=None, metavar="DIR")
    similarity_model: str = option(DEFAULT_SIMILARITY_MODEL, "the encoder whose mean-pooled last layer gives the "
                                                             "source-hypothesis similarity (the paper: "
                                                             "bert-base-cased)", signature=None, metavar="DIR")
    threshold: float = option(DEFAULT_THRESHOLD, "a hypothesis whose similarity to its source is below this "
                                                 "scores 0", minimum=-1, maximum=1)
    max_length: int = option(MAX_LENGTH, "tokens per model input (longer inputs are cut)", minimum=8,
                             signature="maxlen")
    batch_size: int = option(32, "inputs per model batch", minimum=1, signature=None)

    def __post_init__(self) -> None:
        validate(self)
