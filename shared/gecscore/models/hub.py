"""Where a model comes from: a local folder, the local Hugging Face cache, or the Hub.

transformers retries an unreachable Hub for about 30 s before it gives up; a metric whose model
is neither local nor cached checks the Hub once, with a short timeout, and fails at once with
the offline hint instead (:func:`check_available`).
"""
from __future__ import annotations

import os

#: seconds the one reachability check may take, in all
HUB_CHECK_TIMEOUT = 3.0
_WEIGHTS = ("model.safetensors", "pytorch_model.bin")


def in_hf_cache(repo: str) -> bool:
    """Whether ``repo``'s config and weights are in the local Hub cache (no network, no torch)."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    try:
        found = [try_to_load_from_cache(repo, name) for name in ("config.json", *_WEIGHTS)]
    except ValueError:   # not a valid repo id (e.g. a path that does not exist)
        return False
    return isinstance(found[0], str) and any(isinstance(f, str) for f in found[1:])


def hub_offline() -> bool:
    """``HF_HUB_OFFLINE`` (or ``TRANSFORMERS_OFFLINE``) is set to a true value."""
    return any(os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}
               for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def unreachable_reason(model: str, timeout: float = HUB_CHECK_TIMEOUT) -> str | None:
    """Why ``model`` cannot be loaded right now, or None when it may be (local folder, cached,
    or the Hub answered). Only a transport failure counts: an HTTP error status (private or
    unknown repo) is left to transformers, whose message is more precise."""
    if os.path.exists(model) or in_hf_cache(model):   # a local folder or (GGUF) file
        return None
    if hub_offline():
        return "it is not in the local Hugging Face cache and HF_HUB_OFFLINE is set"
    import httpx

    from gecscore.network import DeadlineExceeded, run_with_deadline

    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    url = f"{endpoint}/{model}/resolve/main/config.json"
    try:   # httpx's timeout bounds each read; the deadline bounds the whole check (a trickle too)
        run_with_deadline(timeout, lambda deadline: httpx.head(url, timeout=timeout, follow_redirects=False),
                          grace_s=0.0, name="gecscore-hub-check")
    except (httpx.HTTPError, DeadlineExceeded) as error:
        return f"it is not in the local Hugging Face cache and {endpoint} is unreachable ({type(error).__name__})"
    return None
