"""The options of LLM-S and LLM-E, each declared once with the paper's default: the 1-5 scale,
no criterion sentence, the judge (through :class:`JudgeOptions`/:class:`ModelOptions`).

Sampling: the paper's text, as far as we could read it for this port, states no sampling
settings. gec-metrics (the implementation we could read) sends none, so the API's defaults
apply: temperature 1, top-p 1. We send those values explicitly (sampling is part of the cache
key and of the signature); a sampled answer also makes a re-ask of an unreadable answer worth
its call, where greedy decoding would mostly repeat it. ``temperature=0`` gives greedy
decoding. The answer is one small JSON object, so 256 tokens are plenty.

Model: the paper's best judge is GPT-4 (Kobayashi et al. 2024); on the openai backend a config
without ``model`` gets ``PAPER_MODEL`` (set when the config is made, so every path that builds
the judge from the config, the metric's own and the leaderboard's, uses it). The other backends
keep their own rule: transformers needs ``model``, replay reads it from the file.
"""
from __future__ import annotations

from dataclasses import dataclass

from gecscore.errors import GecOptionError
from gecscore.llm_eval.prompts import EDIT_CRITERIA, SENTENCE_CRITERIA
from gecscore.options import JudgeOptions, LanguageOptions, ModelOptions, option, validate

PAPER_MODEL = "gpt-4"
SCALE_LOW, SCALE_HIGH = 1, 5  # "from a minimum of 1 point to a maximum of 5 points"
TEMPERATURE, TOP_P, MAX_TOKENS = 1.0, 1.0, 256
MAX_REASKS = 3  # re-asks for an unreadable or out-of-scale answer, as DSGram
EDIT_FORMATS = ("inline", "list")
PAPER_TARGETS = 5  # "up to five" corrections of one source per prompt (SEEDA's human evaluation setting)


def targets_option():
    """The ``targets_per_prompt`` option (a new field for each config that declares it)."""
    return option(PAPER_TARGETS, "targets per prompt when systems are scored together: a prompt shows up to this "
                                 "many distinct outputs of a source (the most frequent; the paper: 5), so a "
                                 "system's score depends on the others; 1: every output asked about alone. A "
                                 "system scored alone has one target per prompt either way", minimum=1,
                  signature="targets", space=False)   # a Space scores one system: one target per prompt


def _finish(config) -> None:
    """The checks across options, and the paper's model on the openai backend."""
    if config.model is None and config.backend == "openai":
        object.__setattr__(config, "model", PAPER_MODEL)
    if config.scale_max <= config.scale_min:
        raise GecOptionError("scale_max", f"scale_max ({config.scale_max}) must be above scale_min "
                                          f"({config.scale_min})")


@dataclass(frozen=True)
class LlmSConfig(ModelOptions, JudgeOptions):
    """LLM-S (Kobayashi et al. 2024): the judge scores each corrected sentence given its source."""

    criteria: str = option("none", "a criterion sentence added to the prompt (the paper's criteria prompts): "
                                   "none, " + ", ".join(SENTENCE_CRITERIA), choices=("none", *SENTENCE_CRITERIA))
    scale_min: int = option(SCALE_LOW, "lowest score of the scale (the paper: 1)", minimum=0, signature="min")
    scale_max: int = option(SCALE_HIGH, "highest score of the scale (the paper: 5)", minimum=1, signature="max")
    targets_per_prompt: int = targets_option()
    # the judge's backend and model come next in the signature (model_facts)
    temperature: float = option(TEMPERATURE, "judge sampling temperature", minimum=0, signature_rank=1)
    top_p: float = option(TOP_P, "judge nucleus sampling", exclusive_minimum=0, maximum=1, signature_rank=1)
    max_tokens: int = option(MAX_TOKENS, "judge answer length limit (tokens)", minimum=1, signature_rank=1)
    max_reasks: int = option(MAX_REASKS, "re-asks for an unreadable or out-of-scale answer", minimum=0,
                             signature="reasks", signature_rank=1)

    def __post_init__(self) -> None:
        validate(self)
        _finish(self)


@dataclass(frozen=True)
class LlmEConfig(ModelOptions, JudgeOptions, LanguageOptions):
    """LLM-E (Kobayashi et al. 2024): the judge scores each hypothesis shown as its edits (the
    language profile's: ERRANT for English) in the source."""

    tokenize: bool = option(False, "tokenise sources and predictions first (spaCy for English) before the edits "
                                   "are extracted", signature="tok", signature_rank=1)
    edit_format: str = option("inline", "inline: the source with each edit as [o→c] (as the prompt describes); "
                                        "list: the edits alone, o→c (gec-metrics)", choices=EDIT_FORMATS,
                              signature="edits")
    criteria: str = option("none", "a criterion sentence added to the prompt (the paper's criteria prompts): "
                                   "none, " + ", ".join(EDIT_CRITERIA), choices=("none", *EDIT_CRITERIA))
    scale_min: int = option(SCALE_LOW, "lowest score of the scale (the paper: 1)", minimum=0, signature="min")
    scale_max: int = option(SCALE_HIGH, "highest score of the scale (the paper: 5)", minimum=1, signature="max")
    targets_per_prompt: int = targets_option()
    temperature: float = option(TEMPERATURE, "judge sampling temperature", minimum=0, signature_rank=1)
    top_p: float = option(TOP_P, "judge nucleus sampling", exclusive_minimum=0, maximum=1, signature_rank=1)
    max_tokens: int = option(MAX_TOKENS, "judge answer length limit (tokens)", minimum=1, signature_rank=1)
    max_reasks: int = option(MAX_REASKS, "re-asks for an unreadable or out-of-scale answer", minimum=0,
                             signature="reasks", signature_rank=1)

    def __post_init__(self) -> None:
        validate(self)
        _finish(self)
