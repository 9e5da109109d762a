"""LLM judges for DSGram and CLEME2.0's LLM edit weights: one interface, three backends.

``Judge(backend, cache)`` asks a batch of :class:`JudgeRequest` and returns answers in order;
backends are :class:`OpenAIChatBackend` (any OpenAI-compatible HTTP endpoint),
:class:`TransformersBackend` (a local causal LM) and :class:`ReplayBackend` (answers from a
transcript or a published answer file). OpenAI Batch API round trips go through the cache:
:func:`export_batch` / :func:`import_batch` (see :mod:`gecscore.judge.batch`).
"""
from gecscore.judge.backends import (BACKENDS, DEFAULT_BASE_URL, DEFAULT_MODEL, JudgeBackend,
                                     OpenAIChatBackend, TransformersBackend)
from gecscore.judge.batch import (BatchExport, BatchFailure, BatchImport, export_batch, import_batch,
                                  validate_batch_file)
from gecscore.judge.cache import JudgeCache
from gecscore.judge.factory import DEFAULT_API_KEY_ENV, JUDGE_BACKENDS, build_judge, default_cache_path
from gecscore.judge.parsing import JudgeOutputError
from gecscore.judge.replay import ReplayBackend, ReplayMissError
from gecscore.judge.runner import Judge, JudgeStats, RetryPolicy
from gecscore.judge.types import (DSGRAM_SAMPLING, EDIT_WEIGHT_SAMPLING, JudgeAnswer, JudgeConfigError,
                                  JudgeError, JudgeRequest, PermanentJudgeError, Sampling,
                                  TransientJudgeError)

__all__ = [
    "BACKENDS", "BatchExport", "BatchFailure", "BatchImport", "DEFAULT_API_KEY_ENV", "DEFAULT_BASE_URL",
    "DEFAULT_MODEL", "DSGRAM_SAMPLING", "EDIT_WEIGHT_SAMPLING", "JUDGE_BACKENDS", "Judge", "JudgeAnswer",
    "JudgeBackend", "JudgeCache", "JudgeConfigError", "JudgeError", "JudgeOutputError", "JudgeRequest",
    "JudgeStats", "OpenAIChatBackend", "PermanentJudgeError", "ReplayBackend", "ReplayMissError",
    "RetryPolicy", "Sampling", "TransformersBackend", "TransientJudgeError", "build_judge",
    "default_cache_path", "export_batch", "import_batch", "validate_batch_file",
]
