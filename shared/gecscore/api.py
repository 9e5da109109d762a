"""One-call Python API over raw text: what the evaluate modules and notebooks use.

    >>> from gecscore.api import cleme2_from_text
    >>> cleme2_from_text(["He go home ."], ["He goes home ."], [["He goes home ."]])["hit"]
    1.0
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from gecscore.corpus import check_parallel, samples_from_text
from gecscore.extract.errant_edits import ErrantExtractor
from gecscore.chunks.report import result_dict
from gecscore.chunks.cleme import score_cleme
from gecscore.chunks.cleme2 import score_cleme2
from gecscore.chunks.weighers import build_chunk_weigher


@lru_cache(maxsize=1)
def shared_extractor() -> ErrantExtractor:
    """One ERRANT extractor per process, so repeated calls reuse its parse cache."""
    return ErrantExtractor()


def text_samples(sources: Sequence[str], predictions: Sequence[str],
                 references: Sequence[Sequence[str]], tokenize: bool = False):
    check_parallel(sources, predictions, references)
    extractor = shared_extractor()
    if tokenize:
        sources = extractor.tokenize(sources)
        predictions = extractor.tokenize(predictions)
        references = [extractor.tokenize(refs) for refs in references]
    return samples_from_text(sources, predictions, references, extractor)


def chunk_weigher(weighting: str, model_options: dict | None):
    """The weigher for ``similarity``/``llm`` from keyword options: model, num_layers,
    batch_size, device (both) and backend, base_url, api_key_env, cache, no_cache,
    concurrency, timeout (the judge of ``llm``)."""
    options = dict(model_options or {})
    judge = None
    if weighting == "llm":
        from gecscore.judge.factory import build_judge

        judge_keys = ("backend", "base_url", "api_key_env", "cache", "no_cache", "concurrency", "timeout")
        judge = build_judge(model=options.get("model"), device=options.get("device"),
                            batch_size=options.get("batch_size") or 8, progress=False,
                            **{k: options[k] for k in judge_keys if k in options})
    return build_chunk_weigher(weighting, model=options.get("model"), num_layers=options.get("num_layers"),
                               batch_size=options.get("batch_size"), device=options.get("device"),
                               judge=judge, progress=False)


def cleme2_from_text(sources: Sequence[str], predictions: Sequence[str],
                     references: Sequence[Sequence[str]], *, level: str = "corpus",
                     assumption: str = "dep", weighting: str = "none",
                     alpha: str | Sequence[float] | None = None, tokenize: bool = False,
                     **model_options) -> dict:
    """CLEME2.0 of raw parallel text; returns the contract dictionary.

    ``weighting="similarity"`` or ``"llm"`` take the model/judge options of :func:`chunk_weigher`.
    """
    samples = text_samples(sources, predictions, references, tokenize)
    return result_dict(score_cleme2(samples, level=level, assumption=assumption, weighting=weighting,
                                    alpha=alpha, weigher=chunk_weigher(weighting, model_options)))


def cleme_from_text(sources: Sequence[str], predictions: Sequence[str],
                    references: Sequence[Sequence[str]], *, level: str = "corpus",
                    assumption: str = "dep", weighting: str = "length", beta: float = 0.5,
                    tokenize: bool = False, **model_options) -> dict:
    """CLEME P/R/F of raw parallel text; returns the contract dictionary."""
    samples = text_samples(sources, predictions, references, tokenize)
    return result_dict(score_cleme(samples, level=level, assumption=assumption, weighting=weighting,
                                   beta=beta, weigher=chunk_weigher(weighting, model_options)))
