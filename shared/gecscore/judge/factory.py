"""Build a :class:`Judge` from command-line style options (shared by the CLI and evaluate)."""
from __future__ import annotations

import os
from pathlib import Path

from gecscore.errors import GecInputError
from gecscore.judge.backends import (BACKENDS, DEFAULT_BASE_URL, DEFAULT_MODEL, OpenAIChatBackend,
                                     TransformersBackend)
from gecscore.judge.cache import JudgeCache
from gecscore.judge.runner import Judge, RetryPolicy

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"


def default_cache_path() -> Path:
    """``$GECSCORE_JUDGE_CACHE``, else ``~/.cache/gecscore/judge.sqlite``."""
    env = os.environ.get("GECSCORE_JUDGE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "gecscore" / "judge.sqlite"


def build_judge(backend: str = "openai", model: str | None = None, *, base_url: str | None = None,
                api_key_env: str = DEFAULT_API_KEY_ENV, cache: str | Path | None = None,
                no_cache: bool = False, concurrency: int = 8, timeout: float = 60.0,
                max_retries: int = 4, backoff_s: float = 1.0, device: str | None = None,
                batch_size: int = 8, progress: bool = True) -> Judge:
    """A judge for ``backend`` (openai | transformers).

    The API key is read from the environment variable ``api_key_env`` and handed to the HTTP
    client only. ``cache`` defaults to :func:`default_cache_path`; ``no_cache`` disables it.
    """
    if backend not in BACKENDS:
        raise GecInputError(f"unknown backend {backend!r}; expected one of: {', '.join(BACKENDS)}")
    if concurrency < 1:
        raise GecInputError(f"concurrency must be at least 1, got {concurrency}")
    if backend == "openai":
        url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        api_key = os.environ.get(api_key_env) or None
        if api_key is None and url.rstrip("/") == DEFAULT_BASE_URL:
            raise GecInputError(f"the OpenAI API needs a key: set ${api_key_env} "
                                "(or name another variable with --api-key-env)")
        judge_backend = OpenAIChatBackend(model or DEFAULT_MODEL, url, api_key=api_key, timeout=timeout,
                                          max_connections=concurrency)
    else:
        if not model:
            raise GecInputError("the transformers backend needs --model (a local path or Hub id)")
        judge_backend = TransformersBackend(model, device=device, batch_size=batch_size)
    store = None if no_cache else JudgeCache(cache if cache else default_cache_path())
    return Judge(judge_backend, store, concurrency=concurrency,
                 retry=RetryPolicy(max_retries=max_retries, backoff_s=backoff_s), progress=progress)
