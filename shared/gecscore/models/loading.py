"""Loading a transformers model for a model-backed metric: a local folder (a released
checkpoint, unpacked) or a Hub name, with one clear error when it cannot be had.

Every model metric of gecscore (SOME's three regressors, IMPARA's quality estimator and
similarity encoder, Scribendi's language model) goes through :func:`load_pretrained`, so a
user's checkpoint and the tiny test models take the same path. A name that is neither a local
folder nor in the Hugging Face cache, with the Hub unreachable, fails at once (transformers
would retry for about 30 s) naming the option that gives a local folder.
"""
from __future__ import annotations

import os
from typing import Any, Callable

from gecscore.errors import MissingModelError


def torch_device(device: str | None) -> str:
    """``device``, or cuda when there is one, else cpu."""
    import torch

    if device:
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_pretrained(model: str, option: str, purpose: str,
                    build: Callable[[Any, str], Any]) -> Any:
    """``build(transformers, model)`` (which calls ``from_pretrained``), with torch and
    transformers checked first and a :class:`MissingModelError` naming ``option`` (the metric
    option that takes a local folder) when the model cannot be loaded."""
    from gecscore.extras import require
    from gecscore.models.hub import unreachable_reason
    from gecscore.progress import quiet_libraries

    quiet_libraries(False)
    require("torch", purpose)
    transformers = require("transformers", purpose)
    reason = unreachable_reason(model)
    if reason is not None:
        raise missing(model, option, purpose, reason)
    try:
        return build(transformers, model)
    except (OSError, ValueError) as error:
        raise missing(model, option, purpose, f"{type(error).__name__}: {error}") from error


def missing(model: str, option: str, purpose: str, reason: str) -> MissingModelError:
    return MissingModelError(f"cannot load {model!r} for {purpose} ({reason}); give a local folder with "
                             f"{option}= or make the Hugging Face Hub reachable")


def model_identity(model: str) -> str:
    """A model as caches tell models apart: a local folder by its resolved path."""
    return os.path.realpath(model) if os.path.isdir(model) else model
