"""Build a :class:`Judge` from command-line style options (shared by the CLI and evaluate)."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.judge.backends import (BACKENDS, DEFAULT_BASE_URL, DEFAULT_MODEL, HF_ROUTER_URL, HF_TOKEN_ENV,
                                     OpenAIChatBackend,
                                     TransformersBackend)
from gecscore.judge.cache import JudgeCache
from gecscore.judge.runner import Judge, RetryPolicy
from gecscore.options import JUDGE_BACKENDS, JudgeOptions, ModelOptions, fields_of
from gecscore.user_folders import home

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
assert set(JUDGE_BACKENDS) == {*BACKENDS, "replay"}, "options.JUDGE_BACKENDS must list every backend"


CACHE_ENV = "GECSCORE_JUDGE_CACHE"


def default_cache_path() -> Path:
    """``$GECSCORE_JUDGE_CACHE``, else ``~/.cache/gecscore/judge.sqlite``; with neither (no home
    folder: ``HOME`` unset and no passwd entry) one clear error saying what to set."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    found = home()
    if found is None:
        raise GecInputError(f"no home folder for the default judge cache (HOME unset and no passwd entry); set "
                            f"${CACHE_ENV} to a writable file path, give a judge cache path (cache=) or turn the "
                            "cache off (no_cache=True)")
    return found / ".cache" / "gecscore" / "judge.sqlite"


def open_judge_cache(cache: str | Path | None) -> JudgeCache:
    """The judge cache at ``cache`` (None: :func:`default_cache_path`). A cache that cannot be
    opened (a folder, a path under a file, a ``HOME`` that is a file, no permission) is one
    clear error naming the path and where it came from: the ``cache`` option (a
    :class:`GecOptionError`, which each entry point spells its own way), the environment
    variable, or the default under the home folder."""
    from gecscore.errors import GecOptionError

    path = Path(cache) if cache else default_cache_path()
    try:
        return JudgeCache(path)
    except GecInputError as error:
        problem = str(error)
    except (OSError, sqlite3.Error) as error:
        problem = f"{path}: cannot open the judge cache ({error})"
    if cache:
        raise GecOptionError("cache", f"{problem}; give another judge cache path or turn the cache off "
                                      "(no_cache=True)")
    origin = f"${CACHE_ENV}" if os.environ.get(CACHE_ENV) else "the default judge cache under the home folder"
    raise GecInputError(f"{problem} ({origin}); set ${CACHE_ENV} to a writable file path, give another "
                        "judge cache path (cache=) or turn the cache off (no_cache=True)")


def build_judge(backend: str = "openai", model: str | None = None, *, base_url: str | None = None,
                api_key_env: str = DEFAULT_API_KEY_ENV, cache: str | Path | None = None,
                no_cache: bool = False, concurrency: int = 8, timeout: float = 60.0,
                max_retries: int = 4, backoff_s: float = 1.0, device: str | None = None,
                batch_size: int = 8, progress: bool = True, replay: str | Path | None = None,
                transcript: str | Path | None = None, export_batch: str | Path | None = None,
                import_batch: str | Path | Sequence[str | Path] | None = None) -> Judge:
    """A judge for ``backend`` (openai | transformers | replay).

    The API key is read from the environment variable ``api_key_env`` and handed to the HTTP
    client only. ``cache`` defaults to :func:`default_cache_path`; ``no_cache`` disables it.

    ``replay``: the transcript or DSGram-Eval answer file the ``replay`` backend answers from
    (it uses no cache). ``transcript``: write every (request, answer) the run uses there.
    OpenAI Batch API round trips (openai backend, with the cache; see
    :mod:`gecscore.judge.batch`): ``import_batch`` (one file or several) stores a batch's
    output in the cache before the run; ``export_batch`` makes the judge write the requests the
    cache cannot answer to that file instead of calling the endpoint (no API key needed).
    """
    imports = [import_batch] if isinstance(import_batch, (str, Path)) else list(import_batch or ())
    batch = bool(imports or export_batch)
    _check_request(backend, concurrency, batch, no_cache, replay)
    if backend == "openai":
        judge_backend = _openai_backend(model, base_url, api_key_env, timeout, concurrency, batch)
    elif backend == "replay":
        judge_backend = _replay_backend(replay, model)
        no_cache = True  # answers come from the file; a cache could only hide a changed file
    else:
        if not model:
            raise GecInputError("the transformers backend needs model= (a local path or Hub id)")
        judge_backend = TransformersBackend(model, device=device, batch_size=batch_size)
    store = None if no_cache else open_judge_cache(cache)
    judge = Judge(judge_backend, store, concurrency=concurrency,
                  retry=RetryPolicy(max_retries=max_retries, backoff_s=backoff_s), progress=progress)
    try:
        for path in imports:
            judge.import_batch(path)
        if export_batch is not None:
            judge.export_batch_to(export_batch)
        if transcript is not None:
            judge.record_transcript(transcript)
    except BaseException:
        judge.close()
        raise
    return judge


def _check_request(backend: str, concurrency: int, batch: bool, no_cache: bool, replay: str | Path | None) -> None:
    """A :class:`GecInputError` for an unknown backend or options that do not go together
    (checked in this order, before any backend is built)."""
    if backend not in JUDGE_BACKENDS:
        raise GecInputError(f"unknown backend {backend!r}; expected one of: {', '.join(JUDGE_BACKENDS)}")
    if concurrency < 1:
        raise GecInputError(f"concurrency must be at least 1, got {concurrency}")
    if batch and backend != "openai":
        raise GecInputError(f"export_batch= and import_batch= need backend='openai', not {backend}")
    if batch and no_cache:
        raise GecInputError("export_batch= and import_batch= work through the judge cache: drop no_cache=True")
    if replay is not None and backend != "replay":
        raise GecInputError("replay= needs backend='replay'")


def _openai_backend(model: str | None, base_url: str | None, api_key_env: str, timeout: float,
                    concurrency: int, batch: bool) -> OpenAIChatBackend:
    """The OpenAI-compatible endpoint: ``base_url``, else ``$OPENAI_BASE_URL``, else OpenAI's.
    The key is ``$api_key_env``'s; for the Hugging Face router, ``$HF_TOKEN`` when that is unset.
    OpenAI's own API without a key is refused unless the run only exports a batch."""
    url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    api_key = os.environ.get(api_key_env) or None
    if api_key is None and url.rstrip("/") == HF_ROUTER_URL:
        api_key = os.environ.get(HF_TOKEN_ENV) or None  # Inference Providers take a Hub token
    if api_key is None and url.rstrip("/") == DEFAULT_BASE_URL and not batch:
        raise GecInputError(f"the OpenAI API needs a key: set ${api_key_env} "
                            "(or name another variable with api_key_env=)")
    return OpenAIChatBackend(model or DEFAULT_MODEL, url, api_key=api_key, timeout=timeout,
                             max_connections=concurrency)


def _replay_backend(replay: str | Path | None, model: str | None):
    """Answers from a transcript or a DSGram-Eval answer file (:mod:`gecscore.judge.replay`)."""
    if replay is None:
        raise GecInputError("the replay backend needs replay= (a transcript or a DSGram-Eval answer file)")
    from gecscore.judge.replay import ReplayBackend

    return ReplayBackend(replay, model)


def judge_from_options(options: JudgeOptions, model: str | None, device: str | None = None,
                       batch_size: int | None = None, progress: bool = True) -> Judge:
    """The judge a metric config's judge options describe (``model``, ``device`` and
    ``batch_size`` come from its model options)."""
    return build_judge(options.backend, model, base_url=options.base_url, api_key_env=options.api_key_env,
                       cache=options.cache, no_cache=options.no_cache, concurrency=options.concurrency,
                       timeout=options.timeout, max_retries=options.max_retries, device=device,
                       batch_size=batch_size or 8, progress=progress, replay=options.replay,
                       transcript=options.transcript, export_batch=options.export_batch,
                       import_batch=options.import_batch)



def judge_settings(config: JudgeOptions) -> tuple[tuple[str, object], ...]:
    """Every option of a validated metric config (its judge options and :class:`ModelOptions`)
    that :func:`judge_from_options` reads, read through their declarations: equal settings,
    the same judge (hashable: a key to share one judge under)."""
    names = [f.name for f in (*fields_of(ModelOptions), *fields_of(JudgeOptions))]
    return tuple((name, _hashable(getattr(config, name))) for name in names)


def _hashable(value: object) -> object:
    """An option's value as a key can hold it (a repeated option's list as a tuple)."""
    return tuple(value) if isinstance(value, list) else value
