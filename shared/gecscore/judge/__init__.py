"""LLM judges for DSGram and CLEME2.0's LLM edit weights: one interface, two backends.

``Judge(backend, cache)`` asks a batch of :class:`JudgeRequest` and returns answers in order;
backends are :class:`OpenAIChatBackend` (any OpenAI-compatible HTTP endpoint) and
:class:`TransformersBackend` (a local causal LM).
"""
from gecscore.judge.backends import (BACKENDS, DEFAULT_BASE_URL, DEFAULT_MODEL, JudgeBackend,
                                     OpenAIChatBackend, TransformersBackend)
from gecscore.judge.cache import JudgeCache
from gecscore.judge.factory import DEFAULT_API_KEY_ENV, build_judge, default_cache_path
from gecscore.judge.parsing import JudgeOutputError
from gecscore.judge.runner import Judge, JudgeStats, RetryPolicy
from gecscore.judge.types import (DSGRAM_SAMPLING, EDIT_WEIGHT_SAMPLING, JudgeAnswer, JudgeConfigError,
                                  JudgeError, JudgeRequest, PermanentJudgeError, Sampling,
                                  TransientJudgeError)

__all__ = [
    "BACKENDS", "DEFAULT_API_KEY_ENV", "DEFAULT_BASE_URL", "DEFAULT_MODEL", "DSGRAM_SAMPLING",
    "EDIT_WEIGHT_SAMPLING", "Judge", "JudgeAnswer", "JudgeBackend", "JudgeCache", "JudgeConfigError",
    "JudgeError", "JudgeOutputError", "JudgeRequest", "JudgeStats", "OpenAIChatBackend", "PermanentJudgeError",
    "RetryPolicy", "Sampling", "TransformersBackend", "TransientJudgeError", "build_judge",
    "default_cache_path",
]
