"""What the Spaces of LLM-judged metrics (DSGram, LLM-S and LLM-E) share: the API key box and a
judge built for one run around the typed-in key.

The key is a Space-only control, not a metric option: it is never read from the environment (as
``gecscore.load`` would read it), goes into that run's request headers only, and is neither
stored nor logged; no judge cache is written by a Space. The replay backend answers from files a
visitor cannot give the Space, so only the live backends are offered.
"""
from __future__ import annotations

from gecscore.errors import GecInputError
from gecscore.judge.backends import BACKENDS, DEFAULT_BASE_URL, DEFAULT_MODEL, OpenAIChatBackend, TransformersBackend
from gecscore.judge.runner import Judge, RetryPolicy

#: the live judges only (replay answers from files, which a visitor cannot give the Space)
CHOICES = {"backend": BACKENDS}


def placeholders(openai_model: str = DEFAULT_MODEL) -> dict[str, str]:
    """What an empty box means in a judge Space (it builds its judge itself: no $OPENAI_BASE_URL)."""
    return {"base_url": f"default: {DEFAULT_BASE_URL}",
            "model": f"default: {openai_model} (openai); a local folder or Hub id of a chat model for transformers",
            "batch_size": "default: 8"}


def api_key_box():
    """Not a metric option: the key goes to this run's HTTP client only."""
    from gecscore.extras import require

    gr = require("gradio", "the metric Spaces")
    return gr.Textbox(label="API key (used for this run only; never stored)", type="password", elem_id="gec-api-key")


def make_judge(config, api_key: str | None) -> Judge:
    """A judge for this run only, from the config's judge options: the key goes to the HTTP
    client, no cache is written."""
    if config.backend == "openai":
        url = config.base_url or DEFAULT_BASE_URL
        if not api_key and url.rstrip("/") == DEFAULT_BASE_URL:
            raise GecInputError("the OpenAI API needs a key: enter it in the API key box")
        judge_backend = OpenAIChatBackend(config.model or DEFAULT_MODEL, url, api_key=api_key or None,
                                          timeout=config.timeout, max_connections=config.concurrency)
    elif config.backend == "transformers":
        if not config.model:
            raise GecInputError("the transformers backend needs a model (a local folder or Hub id)")
        judge_backend = TransformersBackend(config.model, device=config.device, batch_size=config.batch_size or 8)
    else:
        raise GecInputError(f"the {config.backend} backend is not available in the Space")
    return Judge(judge_backend, None, concurrency=config.concurrency,
                 retry=RetryPolicy(max_retries=config.max_retries), progress=True)


def typed_key(api_key: str | None) -> str | None:
    """The typed-in key, or None for an empty box."""
    return (api_key or "").strip() or None
