"""The options of SOME, each declared once with the paper's default (weights 0.55 / 0.43 / 0.02,
tuned on Grundkiewicz et al. 2015's human judgments; inputs cut to 128 tokens)."""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.errors import GecOptionError
from gecscore.options import DeviceOptions, option, validate

WEIGHT_GRAMMATICALITY = 0.55
WEIGHT_FLUENCY = 0.43
WEIGHT_MEANING = 0.02
MAX_LENGTH = 128
#: the tokenizer of the original code, used when the fluency folder has none
DEFAULT_TOKENIZER = "bert-base-cased"


@dataclass(frozen=True)
class SomeConfig(DeviceOptions):
    """SOME (Yoshimura et al. 2020, "SOME: Reference-less sub-metrics optimized for manual
    evaluations of grammatical error correction"): the released checkpoints are three folders
    (``gfm-models/grammer``, ``fluency``, ``meaning``), each a BertForSequenceClassification
    with one output."""

    grammaticality: str | None = option(None, "folder (or Hub name) of the grammaticality regressor (the release's "
                                              "gfm-models/grammer)", kind=str, signature=None, metavar="DIR")
    fluency: str | None = option(None, "folder of the fluency regressor (gfm-models/fluency)", kind=str,
                                 signature=None, metavar="DIR")
    meaning: str | None = option(None, "folder of the meaning-preservation regressor (gfm-models/meaning)",
                                 kind=str, signature=None, metavar="DIR")
    tokenizer: str | None = option(None, "tokenizer for all three (default: the fluency folder's when it has one, "
                                         "else bert-base-cased as the original code)", kind=str, signature=None,
                                   metavar="DIR")
    weight_grammaticality: float = option(WEIGHT_GRAMMATICALITY, "weight of the grammaticality score", minimum=0,
                                          signature="wg")
    weight_fluency: float = option(WEIGHT_FLUENCY, "weight of the fluency score", minimum=0, signature="wf")
    weight_meaning: float = option(WEIGHT_MEANING, "weight of the meaning-preservation score", minimum=0,
                                   signature="wm")
    max_length: int = option(MAX_LENGTH, "tokens per model input (longer inputs are cut)", minimum=8,
                             signature="maxlen")
    batch_size: int = option(32, "inputs per model batch", minimum=1, signature=None)

    def __post_init__(self) -> None:
        validate(self)
        if self.weight_grammaticality + self.weight_fluency + self.weight_meaning <= 0:
            raise GecOptionError("weight_grammaticality", "the three weights must not all be 0")
